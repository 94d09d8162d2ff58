"""The event log under concurrency, and the socket across real daphne processes on Redis."""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time

import httpx
import pytest
import websockets
from django.db import connection, connections
from rest_framework.authtoken.models import Token

from tests.helpers import session_cookie
from tests.integration.procs import child_env, daphne
from vtt.table import services
from vtt.table.events import verify_chain
from vtt.table.models import TableEvent

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_200_concurrent_publishes_get_gapless_sequence_numbers(table):
    errors: list[BaseException] = []

    def worker(n: int) -> None:
        try:
            for i in range(25):
                services.publish(campaign=table.campaign, kind="chat", payload={"text": f"{n}:{i}"})
        except BaseException as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    seqs = list(
        TableEvent.objects.filter(campaign=table.campaign)
        .order_by("seq")
        .values_list("seq", flat=True)
    )
    assert seqs == list(range(1, 201))
    assert verify_chain(table.campaign.pk)["ok"] is True
    # every thread's own events stayed in its own order
    for n in range(8):
        mine = [
            int(p["text"].split(":")[1])
            for p in TableEvent.objects.filter(payload__text__startswith=f"{n}:")
            .order_by("seq")
            .values_list("payload", flat=True)
        ]
        assert mine == list(range(25))


def _needs_services() -> None:
    if not os.environ.get("REDIS_URL") or connection.vendor != "postgresql":
        pytest.skip("needs DATABASE_URL (PostgreSQL) and REDIS_URL; CI sets both")


def _db_url() -> str:
    d = connection.settings_dict
    return f"postgres://{d['USER']}@{d['HOST']}:{d['PORT']}/{d['NAME']}"


async def _collect(url: str, cookie: str, origin: str, want: int, timeout: float) -> list[int]:
    """Connect, say hello, and collect event sequence numbers until ``want`` have arrived."""
    seqs: list[int] = []
    async with websockets.connect(
        url, additional_headers={"Cookie": cookie}, origin=origin, open_timeout=10
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "last_seq": 0}))
        deadline = time.monotonic() + timeout
        while len(seqs) < want and time.monotonic() < deadline:
            frame = json.loads(await asyncio.wait_for(ws.recv(), deadline - time.monotonic()))
            if frame["type"] == "replay":
                seqs += [e["seq"] for e in frame["events"]]
            elif frame["type"] == "event":
                seqs.append(frame["event"]["seq"])
    return seqs


def test_two_daphne_processes_deliver_every_event_to_clients_on_both(table, tmp_path):
    _needs_services()
    env = child_env(DEBUG="1", DATABASE_URL=_db_url())
    # Two writers, so 30 messages stay inside each one's chat burst (20) however fast the
    # server answers.
    tokens = [Token.objects.create(user=u).key for u in (table.player, table.referee)]
    cookies = [session_cookie(table.referee), session_cookie(table.other_player)]
    with daphne(env, tmp_path / "a.log") as a, daphne(env, tmp_path / "b.log") as b:
        bases = [a, b]
        total = 30

        async def scenario() -> list[list[int]]:
            listeners = [
                asyncio.create_task(
                    _collect(
                        base.replace("http", "ws") + f"/ws/campaigns/{table.campaign.pk}/",
                        cookie,
                        base,
                        total,
                        60,
                    )
                )
                for base in bases
                for cookie in cookies
            ]
            await asyncio.sleep(1.5)
            async with httpx.AsyncClient() as http:
                for i in range(total):
                    base = bases[i % 2]  # writes spread over both processes too
                    resp = await http.post(
                        f"{base}/api/campaigns/{table.campaign.pk}/chat/",
                        json={"text": f"сообщение {i}"},
                        headers={"Authorization": f"Token {tokens[(i // 2) % 2]}"},
                    )
                    assert resp.status_code == 201, resp.text
            return await asyncio.gather(*listeners)

        results = asyncio.run(scenario())
    for seqs in results:
        assert seqs == list(range(1, total + 1))


def test_idle_socket_on_redis_survives_a_minute(table, tmp_path):
    """channels-redis + redis-py 8 used to drop idle sockets after 5 s (DESIGN.md)."""
    _needs_services()
    env = child_env(DEBUG="1", DATABASE_URL=_db_url())
    cookie = session_cookie(table.player)
    with daphne(env, tmp_path / "idle.log") as base:
        url = base.replace("http", "ws") + f"/ws/campaigns/{table.campaign.pk}/"

        async def scenario() -> list[int]:
            async with websockets.connect(
                url, additional_headers={"Cookie": cookie}, origin=base
            ) as ws:
                await ws.send(json.dumps({"type": "hello", "last_seq": 0}))
                await asyncio.sleep(65)
                await asyncio.to_thread(
                    services.chat_post,
                    campaign=table.campaign,
                    actor=table.referee,
                    text="ты здесь?",
                )
                while True:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if frame["type"] == "event":
                        return [frame["event"]["seq"]]

        assert asyncio.run(scenario()) == [1]
