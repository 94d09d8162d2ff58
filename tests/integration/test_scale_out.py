"""Scale-out: two daphne processes and two Celery workers on one PostgreSQL and one Redis.

Clients of every role sit on both web processes; rolls of every visibility come in a burst
from three users through both processes while a Crows dungeon clock runs (its end-of-turn
procedure publishes referee-only encounter rolls). Every client must receive exactly the
events its user may see, each once, in order, whichever process it is on, and each turn must
end exactly once although two workers take the clock's tasks.
"""

from __future__ import annotations

import asyncio
import os
import time
import uuid

import httpx
import pytest
from django.db import connection, connections
from rest_framework.authtoken.models import Token

from tests.helpers import session_cookie
from tests.integration.procs import celery_worker, child_env, daphne
from tests.integration.tableclient import Roller, TableClient, wait_for
from vtt.campaigns import services as campaign_services
from vtt.campaigns.models import Membership, Role
from vtt.characters import services as character_services
from vtt.table.events import verify_chain, visible_events
from vtt.table.models import DungeonClock, TableEvent

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

TURN_SECONDS = 2
TURNS = 3
ROLLS_PER_USER = 16
ROLL_EVERY = 0.4  # seconds per user: the burst spans the clock's turns (and the rate limit)


async def _db(fn):
    """Run a database call off the event loop (Django refuses sync queries on it)."""

    def run():
        try:
            return fn()
        finally:
            connections.close_all()  # this thread's connections only

    return await asyncio.to_thread(run)


def _turns_ended(campaign_id: int) -> list[int]:
    return sorted(
        TableEvent.objects.filter(campaign_id=campaign_id, kind="turn.ended").values_list(
            "payload__turn", flat=True
        )
    )


def _visible(campaign_id: int, user, role: str) -> list[int]:
    return list(
        visible_events(campaign_id, user_id=user.pk, role=role).values_list("seq", flat=True)
    )


@pytest.mark.timeout(300)
def test_two_web_processes_and_two_workers_deliver_every_event_once_in_order(table, tmp_path):
    if not os.environ.get("REDIS_URL") or connection.vendor != "postgresql":
        pytest.skip("needs DATABASE_URL (PostgreSQL) and REDIS_URL; CI sets both")
    d = connection.settings_dict
    env = child_env(
        DEBUG="1",
        DATABASE_URL=f"postgres://{d['USER']}@{d['HOST']}:{d['PORT']}/{d['NAME']}",
        CLOCK_MIN_SECONDS="1",
        # Rate-limit buckets and socket slots of earlier runs (same user ids) stay out of it.
        CACHE_PREFIX=f"scale-{uuid.uuid4().hex[:8]}",
    )
    crows = campaign_services.campaign_create(user=table.referee, name="Склеп", ruleset="crows")
    for user, role in (
        (table.player, Role.PLAYER),
        (table.other_player, Role.PLAYER),
        (table.observer, Role.OBSERVER),
    ):
        Membership.objects.create(campaign=crows, user=user, role=role)
    character_services.character_create(
        campaign=crows, actor=table.referee, role="referee", name="Грета"
    )
    cid = crows.pk
    users = {
        "referee": table.referee,
        "pc1": table.player,
        "pc2": table.other_player,
        "watcher": table.observer,
    }
    roles = {"referee": "referee", "pc1": "player", "pc2": "player", "watcher": "observer"}
    tokens = {name: Token.objects.create(user=users[name]).key for name in ("referee", "pc1")}
    tokens["pc2"] = Token.objects.create(user=table.other_player).key
    cookies = {name: session_cookie(user) for name, user in users.items()}

    with (
        daphne(env, tmp_path / "web-a.log") as a,
        daphne(env, tmp_path / "web-b.log") as b,
        celery_worker(env, tmp_path / "worker-1.log", "w1"),
        celery_worker(env, tmp_path / "worker-2.log", "w2"),
    ):
        bases = [a, b]

        async def scenario() -> tuple[list[TableClient], list[Roller], float]:
            clients = [
                TableClient(f"{name}@{'ab'[i]}", bases, cid, cookies[name], first=i)
                for name in users
                for i in range(2)
            ]
            for c in clients:
                c.start()
            assert await wait_for(lambda: all(c.ready.is_set() for c in clients), 30)
            referee = {"Authorization": f"Token {tokens['referee']}"}
            async with httpx.AsyncClient(timeout=15) as http:
                for action in (
                    {"action": "configure", "length_seconds": TURN_SECONDS},
                    {"action": "start", "dungeon": "Склеп"},
                ):
                    resp = await http.post(
                        f"{a}/api/campaigns/{cid}/clock/", json=action, headers=referee
                    )
                    assert resp.status_code == 200, resp.text
                rollers = {
                    name: Roller(bases, cid, tokens[name], index=i)
                    for i, name in enumerate(("referee", "pc1", "pc2"))
                }
                plan = {
                    "referee": [("everyone", None), ("blind", None), ("referee", None)],
                    "pc1": [("everyone", None), ("referee", None), ("whisper", users["pc2"].pk)],
                    "pc2": [("everyone", None), ("blind", None), ("whisper", users["pc1"].pk)],
                }

                async def burst(name: str) -> None:
                    roller = rollers[name]
                    for i in range(ROLLS_PER_USER):
                        visibility, target = plan[name][i % len(plan[name])]
                        await roller.roll(
                            http,
                            notation="2d6+1",
                            visibility=visibility,
                            target_id=target,
                            label=f"{name}-{i}",
                        )
                        roller.index += 1  # spread over both processes
                        await asyncio.sleep(ROLL_EVERY)

                started = time.monotonic()
                await asyncio.gather(*(burst(name) for name in rollers))
                burst_seconds = time.monotonic() - started
                deadline = time.monotonic() + TURN_SECONDS * TURNS + 30
                while len(ended := await _db(lambda: _turns_ended(cid))) < TURNS:
                    assert time.monotonic() < deadline, ended
                    await asyncio.sleep(0.3)
                resp = await http.post(
                    f"{b}/api/campaigns/{cid}/clock/", json={"action": "stop"}, headers=referee
                )
                assert resp.status_code == 200, resp.text
            expected = await _db(
                lambda: {name: _visible(cid, users[name], roles[name]) for name in users}
            )

            def caught_up() -> bool:
                return all(c.applied[-1:] == expected[c.name.split("@")[0]][-1:] for c in clients)

            await wait_for(caught_up, 30)
            for c in clients:
                await c.stop()
            return clients, list(rollers.values()), burst_seconds

        clients, rollers, burst_seconds = asyncio.run(scenario())

    head = TableEvent.objects.filter(campaign_id=cid).count()
    by_user: dict[str, list[int]] = {}
    for c in clients:
        user = c.name.split("@")[0]
        expected = by_user[user] = _visible(cid, users[user], roles[user])
        assert c.applied == expected, (c.name, c.applied, expected)
        assert c.duplicates == 0 and not c.errors, (c.name, c.duplicates, c.errors)
    # visibility really differed: the referee sees all but the players' whispers and the
    # players' copies of what it sees in full (blind rolls, encounter checks); the players miss
    # the referee's copies, the observer sees least
    whispers = TableEvent.objects.filter(campaign_id=cid, visibility="whisper").count()
    players_copies = TableEvent.objects.filter(campaign_id=cid, visibility="players").count()
    assert whispers and len(by_user["referee"]) == head - whispers - players_copies
    assert len(by_user["watcher"]) < len(by_user["pc1"]) < head
    # every roll once, none twice (retries are idempotent), each a `roll` event
    assert TableEvent.objects.filter(campaign_id=cid, kind="roll").count() == 3 * ROLLS_PER_USER
    ended = _turns_ended(cid)
    assert ended == list(range(1, len(ended) + 1)) and len(ended) >= TURNS, ended
    row = DungeonClock.objects.get(campaign_id=cid)
    assert row.turns_ended == len(ended) == row.turn - 1
    assert verify_chain(cid)["ok"] is True
    delivered = sum(len(c.applied) for c in clients)
    retries = sum(r.retries for r in rollers)
    print(
        f"\nscale-out: 2 web + 2 workers, {len(clients)} sockets, {head} events, "
        f"{delivered} deliveries checked, {len(ended)} turns ended once each, "
        f"{3 * ROLLS_PER_USER} rolls in {burst_seconds:.1f}s, retries={retries}"
    )
