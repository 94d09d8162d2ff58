"""Faults (`make chaos`): kill a web process, restart Redis, kill a Celery worker, stop
PostgreSQL, while clients watch a table. The database's event log is the truth: every client
must end with exactly the log, in order, nothing twice, and the app must recover by itself.

The short version runs in CI (`make test`); `make chaos` (VTT_CHAOS_FULL=1) runs longer
streams with more kills and prints the figures quoted in docs/operations.md.
"""

from __future__ import annotations

import asyncio
import math
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from tests.chaos.harness import FULL, Stack, Web, figure, spread
from tests.integration.tableclient import Roller, TableClient, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.chaos, pytest.mark.timeout(900)]

ROLL_EVERY = 0.6  # per roller; the roll limit is a burst of 10, then 2 a second per user


async def _stream(rollers: list[Roller], http: httpx.AsyncClient, stop: asyncio.Event) -> None:
    """Each roller posts a roll every ROLL_EVERY seconds until ``stop`` is set."""

    async def one(roller: Roller, n: int) -> None:
        i = 0
        while not stop.is_set():
            await roller.roll(http, notation="1d20", label=f"r{n}-{i}")
            i += 1
            await asyncio.sleep(ROLL_EVERY)

    await asyncio.gather(*(one(r, n) for n, r in enumerate(rollers)))


async def _thread(fn, *args: Any, **kwargs: Any) -> Any:
    """Blocking process control (start, kill, wait) without stalling the clients' loop."""
    return await asyncio.to_thread(fn, *args, **kwargs)


async def _caught_up(stack: Stack, clients: list[TableClient], cid: int, timeout: float) -> int:
    events = await _thread(stack.events, cid)
    head = events[-1][0] if events else 0
    await wait_for(lambda: all(c.position >= head for c in clients), timeout)
    return head


def _check_log(stack: Stack, clients: list[TableClient], cid: int) -> int:
    """Every client applied exactly the log, in order, once. Returns the events checked."""
    events = stack.events(cid)
    assert {visibility for _seq, _kind, visibility in events} <= {"everyone"}
    seqs = [seq for seq, _kind, _visibility in events]
    assert seqs == list(range(1, len(seqs) + 1))
    for c in clients:
        assert c.applied == seqs, (c.name, _diff(c.applied, seqs))
        assert c.duplicates == 0, (c.name, c.duplicates)
    return sum(len(c.applied) for c in clients)


def _diff(got: list[int], want: list[int]) -> str:
    missing = sorted(set(want) - set(got))
    extra = [s for s in got if s not in set(want)]
    return f"missing={missing[:20]} extra={extra[:20]} got_last={got[-5:]} want_last={want[-5:]}"


def _clients(stack: Stack, index: int, webs: list[Web], per_member: int = 1) -> list[TableClient]:
    campaign = stack.campaign(index)
    bases = [w.base for w in webs]
    clients = []
    for m in campaign["members"]:
        for k in range(per_member):
            n = len(clients)
            clients.append(
                TableClient(f"{m['name']}#{k}", bases, campaign["id"], m["cookie"], first=n)
            )
    return clients


def _rollers(stack: Stack, index: int, webs: list[Web], count: int) -> list[Roller]:
    campaign = stack.campaign(index)
    players = [m for m in campaign["members"] if m["role"] == "player"][:count]
    bases = [w.base for w in webs]
    return [Roller(bases, campaign["id"], m["token"], index=i) for i, m in enumerate(players)]


# --- kill -9 a web process mid-stream ---------------------------------------------------------


def test_kill_a_web_process_mid_stream(stack):
    a, b = stack.web("web-a"), stack.web("web-b")
    a.start()
    b.start()
    cid = stack.campaign(0)["id"]
    clients = _clients(stack, 0, [a, b], per_member=2 if FULL else 1)
    rollers = _rollers(stack, 0, [a, b], 5 if FULL else 3)
    # (seconds into the stream, web process): kill it, then restart it two seconds later
    kills = [(2.0, a)] if not FULL else [(4, a), (14, b), (24, a), (34, b), (44, a)]
    stream_seconds = 6.0 if not FULL else 55.0

    async def scenario() -> tuple[int, float]:
        for c in clients:
            c.start()
        assert await wait_for(lambda: all(c.ready.is_set() for c in clients), 30)
        stop = asyncio.Event()
        async with httpx.AsyncClient() as http:
            rolling = asyncio.create_task(_stream(rollers, http, stop))
            started = time.monotonic()
            restart_seconds = []
            for at, web in kills:
                await asyncio.sleep(max(0.0, started + at - time.monotonic()))
                await _thread(web.kill9)
                await asyncio.sleep(2.0)
                restart_seconds.append(await _thread(web.start))
            await asyncio.sleep(max(0.0, started + stream_seconds - time.monotonic()))
            stop.set()
            await rolling
        head = await _caught_up(stack, clients, cid, 30)
        for c in clients:
            await c.stop()
        return head, max(restart_seconds)

    try:
        head, restart = asyncio.run(scenario())
        checked = _check_log(stack, clients, cid)
    finally:
        a.stop()
        b.stop()
    keys = sum(len(r.keys) for r in rollers)
    assert stack.rolls(cid) == keys  # a retried roll (same Idempotency-Key) never rolled twice
    reconnects = [s for c in clients for s in c.reconnect_seconds]
    assert len(reconnects) >= len(kills)  # each kill cut some sockets; all came back
    assert max(reconnects) < 5, reconnects
    figure(
        f"kill -9 web: {len(kills)} kills, {len(clients)} sockets on 2 processes, {head} events, "
        f"{checked} deliveries checked, 0 lost, 0 duplicated; "
        f"reconnect+replay {spread(reconnects)}; "
        f"rolls {keys} ({sum(r.retries for r in rollers)} retried on the other process, "
        f"{sum(r.replayed for r in rollers)} answered from the idempotency key); "
        f"daphne restart {restart:.1f}s"
    )


# --- restart Redis ----------------------------------------------------------------------------


def test_restart_redis(stack):
    """Redis runs without persistence here: a restart loses the channel layer's groups, the
    cache (rate limits, socket slots) and the Celery queue with the clock's ETA task."""
    a, b = stack.web("web-c"), stack.web("web-d")
    a.start()
    b.start()
    worker = stack.worker("worker-redis")
    worker.start()
    campaign = stack.campaign(1)
    cid = campaign["id"]
    gm = campaign["members"][0]["token"]
    clients = _clients(stack, 1, [a, b], per_member=2 if FULL else 1)
    rollers = _rollers(stack, 1, [a, b], 5 if FULL else 3)
    outages = [(3.0, 1.0)] if not FULL else [(4, 1.0), (16, 3.0), (30, 0.2), (42, 5.0)]
    stream_seconds = 7.0 if not FULL else 55.0
    turn_seconds = 2
    windows: list[tuple[datetime, datetime]] = []

    async def scenario() -> tuple[int, list[float]]:
        for c in clients:
            c.start()
        assert await wait_for(lambda: all(c.ready.is_set() for c in clients), 30)
        await _thread(
            _clock,
            a.base,
            gm,
            cid,
            action="configure",
            length_seconds=turn_seconds,
            public_encounters=True,
        )
        await _thread(_clock, a.base, gm, cid, action="start", dungeon="Склеп")
        stop = asyncio.Event()
        resumed: list[float] = []
        async with httpx.AsyncClient() as http:
            rolling = asyncio.create_task(_stream(rollers, http, stop))
            started = time.monotonic()
            for at, gap in outages:
                await asyncio.sleep(max(0.0, started + at - time.monotonic()))
                await _thread(stack.redis.kill)
                gone = datetime.now(UTC)
                await asyncio.sleep(gap)
                await _thread(stack.redis.start)
                windows.append((gone, datetime.now(UTC)))
                back = time.monotonic()
                # resumed: every client is connected again and has applied an event that was
                # published after Redis came back
                mark = (await _thread(stack.events, cid))[-1][0]
                ok = await wait_for(
                    lambda m=mark: all(c.ready.is_set() and c.position > m for c in clients), 30
                )
                assert ok, [(c.name, c.position, c.close_codes[-3:]) for c in clients]
                resumed.append(time.monotonic() - back)
            await asyncio.sleep(max(0.0, started + stream_seconds - time.monotonic()))
            stop.set()
            await rolling
        await _thread(_clock, b.base, gm, cid, action="stop")
        head = await _caught_up(stack, clients, cid, 30)
        for c in clients:
            await c.stop()
        return head, resumed

    try:
        head, resumed = asyncio.run(scenario())
        checked = _check_log(stack, clients, cid)
    finally:
        a.stop()
        b.stop()
        worker.stop()
    keys = sum(len(r.keys) for r in rollers)
    assert stack.rolls(cid) == keys
    assert max(resumed) < 5, resumed
    during = sum(
        stack.sql(
            "SELECT count(*) FROM table_tableevent WHERE campaign_id = %s "
            "AND created_at BETWEEN %s AND %s",
            cid,
            gone,
            back,
        )[0][0]
        for gone, back in windows
    )
    # the clock kept going: every turn ended once, none waited long for its lost ETA task
    ended = stack.turns_ended(cid)
    assert ended == list(range(1, len(ended) + 1)), ended
    assert len(ended) >= stream_seconds // turn_seconds - 2, ended
    late = _lateness(stack, cid)
    # a turn due while Redis was away ends when the worker is back (a few seconds after)
    assert max(late.values()) < max(gap for _at, gap in outages) + 5, late
    figure(
        f"restart Redis: {len(outages)} restarts, {len(clients)} sockets on 2 processes, "
        f"{head} events ({during} published while Redis was down), {checked} deliveries "
        f"checked, 0 lost, 0 duplicated; table resumed after Redis was back in "
        f"{spread(resumed)}; dungeon turns {ended[0]}..{ended[-1]} each ended once, "
        f"at most {max(late.values()):.2f}s after the deadline"
    )


# --- kill -9 the Celery worker with a dungeon clock running ------------------------------------


def _clock(http_base: str, token: str, cid: int, **body: Any) -> dict[str, Any]:
    resp = httpx.post(
        f"{http_base}/api/campaigns/{cid}/clock/",
        json=body,
        headers={"Authorization": f"Token {token}"},
        timeout=15,
    )
    assert resp.status_code == 200, resp.text
    return resp.json()


def _lateness(stack: Stack, cid: int) -> dict[int, float]:
    """Seconds between each turn's deadline and the event that ended it."""
    rows = stack.sql(
        "SELECT kind, payload, created_at FROM table_tableevent WHERE campaign_id = %s "
        "AND kind IN ('clock', 'turn.ended') ORDER BY seq",
        cid,
    )
    deadlines: dict[int, datetime] = {}
    late: dict[int, float] = {}
    for kind, payload, created in rows:
        snapshot = payload if kind == "clock" else payload["next"]
        if snapshot.get("deadline") and snapshot.get("state") == "running":
            deadlines[snapshot["turn"]] = datetime.fromisoformat(snapshot["deadline"])
        if kind == "turn.ended":
            late[payload["turn"]] = (created - deadlines[payload["turn"]]).total_seconds()
    return late


def test_kill_the_celery_worker_with_a_clock_running(stack):
    # Restarted before the deadline, the worker must re-arm the turn; restarted after it, its
    # start-up sweep must end the overdue turn; killed at the deadline (full run), maybe
    # inside the turn's transaction, the restarted one must finish it. Each time: once.
    # Turns are long enough for a restart to fit before the deadline on this machine (a
    # worker takes 3-10 s to start on a busy one): 1.8 times its first start, plus 2 s.
    cycles = ["before", "after"] if not FULL else ["before", "after", "at"] * 3
    web = stack.web("web-e")
    web.start()
    victim = stack.worker("worker-1")
    started = time.monotonic()
    victim.start()
    turn_seconds = min(40, max(8, math.ceil(1.8 * (time.monotonic() - started)) + 2))
    campaign = stack.campaign(2)
    cid = campaign["id"]
    gm = campaign["members"][0]["token"]
    clients = _clients(stack, 2, [web])[:3]
    back: dict[int, float] = {}  # turn -> seconds from its deadline to the worker being ready

    def running_turn() -> tuple[int, datetime]:
        return stack.sql(
            "SELECT turn, deadline FROM table_dungeonclock WHERE campaign_id = %s", cid
        )[0]

    def until(when: datetime) -> float:
        return max(0.0, (when - datetime.now(UTC)).total_seconds())

    async def fresh_turn() -> tuple[int, datetime]:
        """The running turn, once it has most of its length left (a turn that ended late
        leaves the next one short: its deadline does not drift)."""
        while True:
            turn, deadline = await _thread(running_turn)
            if until(deadline) > turn_seconds - 1:
                return turn, deadline
            assert await wait_for(lambda t=turn: t in stack.turns_ended(cid), turn_seconds + 30)

    async def scenario() -> None:
        for c in clients:
            c.start()
        assert await wait_for(lambda: all(c.ready.is_set() for c in clients), 30)
        await _thread(
            _clock,
            web.base,
            gm,
            cid,
            action="configure",
            length_seconds=turn_seconds,
            public_encounters=True,
        )
        await _thread(_clock, web.base, gm, cid, action="start", dungeon="Склеп")
        for when in cycles:
            turn, deadline = await fresh_turn()
            if when == "at":
                await asyncio.sleep(until(deadline) + 0.02)
            else:
                await asyncio.sleep(until(deadline - timedelta(seconds=turn_seconds - 0.5)))
            await _thread(victim.kill9)
            if when == "after":
                await asyncio.sleep(until(deadline + timedelta(seconds=1)))
            await _thread(victim.start)
            back[turn] = (datetime.now(UTC) - deadline).total_seconds()
            ended = await wait_for(
                lambda t=turn: t in stack.turns_ended(cid), turn_seconds + 30, 0.2
            )
            assert ended, (turn, stack.turns_ended(cid), victim.tail())
        if FULL:  # one more turn with the worker left alone
            last = max(back) + 1
            assert await wait_for(lambda: last in stack.turns_ended(cid), 2 * turn_seconds + 30)
        await _thread(_clock, web.base, gm, cid, action="stop")
        await _caught_up(stack, clients, cid, 30)
        for c in clients:
            await c.stop()

    try:
        asyncio.run(scenario())
        checked = _check_log(stack, clients, cid)
    finally:
        web.stop()
        victim.stop()
    ended = stack.turns_ended(cid)
    # each turn once, in order (turns that came due late catch up without drift, so one more
    # may end before the stop arrives)
    assert ended == list(range(1, len(ended) + 1)) and len(ended) >= len(cycles), ended
    row = stack.sql("SELECT turn, turns_ended FROM table_dungeonclock WHERE campaign_id = %s", cid)
    assert row == [(len(ended) + 1, len(ended))]
    late = _lateness(stack, cid)
    early = [late[t] for t, b in back.items() if b < 0]
    tardy = [late[t] for t, b in back.items() if b >= 0]
    assert early, f"no worker restarted before its deadline: {back}"
    assert max(early) < 2, (late, back)  # re-armed: the turn ended on time
    assert all(late[t] < b + 5 for t, b in back.items() if b >= 0), (late, back)
    figure(
        f"kill -9 Celery worker: {len(cycles)} kills with a {turn_seconds} s dungeon turn "
        f"running; turns {ended[0]}..{ended[-1]} each ended exactly "
        f"once; worker back before the deadline: turn ended {spread(early)} after it; worker "
        f"back after the deadline (by {spread([b for b in back.values() if b >= 0])}): turn "
        f"ended {spread(tardy)} after it; {checked} deliveries checked"
    )


# --- stop PostgreSQL ----------------------------------------------------------------------------


def test_stop_postgres(stack):
    web = stack.web("web-f")
    web.start()
    pid = web.proc.pid
    campaign = stack.campaign(3)
    cid = campaign["id"]
    gm, p1 = campaign["members"][0], campaign["members"][1]
    clients = _clients(stack, 3, [web])[:3]
    roller = Roller([web.base], cid, p1["token"])
    # two players keep rolling through the outage: each roll gets 503s until PostgreSQL is
    # back, then lands once (the retry carries the same Idempotency-Key)
    streamers = _rollers(stack, 3, [web], 3)[1:]
    outage = 3.0 if not FULL else 20.0
    report: dict[str, Any] = {}

    async def scenario() -> None:
        for c in clients:
            c.start()
        assert await wait_for(lambda: all(c.ready.is_set() for c in clients), 30)
        async with httpx.AsyncClient(timeout=30) as http:
            for i in range(3):
                await roller.roll(http, label=f"before-{i}")
            stop = asyncio.Event()
            streaming = asyncio.create_task(_stream(streamers, http, stop))
            await asyncio.sleep(1)
            await _thread(stack.pg.stop)
            down = time.monotonic()
            # a page: a readable 503, not a 500 traceback page
            started = time.monotonic()
            page = await http.get(
                f"{web.base}/campaigns/{cid}/table/", headers={"Cookie": gm["cookie"]}
            )
            report["page_s"] = time.monotonic() - started
            assert page.status_code == 503, page.text[:500]
            assert "Traceback" not in page.text and "text/html" in page.headers["content-type"]
            assert page.headers.get("Retry-After")
            # the API: 503 with a JSON message
            started = time.monotonic()
            api = await http.post(
                f"{web.base}/api/campaigns/{cid}/rolls/",
                json={"notation": "1d6"},
                headers={"Authorization": f"Token {p1['token']}"},
            )
            report["api_s"] = time.monotonic() - started
            assert api.status_code == 503, api.text[:500]
            assert api.json()["code"] == "unavailable" and api.json()["detail"]
            health = await http.get(f"{web.base}/healthz")
            assert health.status_code == 503 and not health.json()["checks"]["database"]["ok"]
            # a socket message that needs the database gets an error frame
            errors_before = len(clients[0].errors)
            await clients[0].send({"type": "replay", "since": 0})
            assert await wait_for(lambda: len(clients[0].errors) > errors_before, 30)
            assert clients[0].errors[-1]["code"] == "unavailable", clients[0].errors[-1]
            # ... and closes with 4503, so the client reconnects; while the database is down,
            # each new socket gets the same error frame and close (sockets that need nothing
            # from the database meanwhile stay open)
            assert await wait_for(lambda: 4503 in clients[0].close_codes, 15)
            assert await wait_for(lambda: len(clients[0].errors) > errors_before + 1, 30)
            # the error frame comes just before its close: wait for the close too
            assert await wait_for(lambda: clients[0].close_codes.count(4503) >= 2, 15), clients[
                0
            ].close_codes
            assert all(c.ready.is_set() for c in clients[1:])
            await asyncio.sleep(max(0.0, down + outage - time.monotonic()))
            await _thread(stack.pg.start)
            back = time.monotonic()
            report["down_s"] = back - down
            # the same daphne process serves again, on its own
            while True:
                resp = await http.post(
                    f"{web.base}/api/campaigns/{cid}/rolls/",
                    json={"notation": "1d6", "label": "after"},
                    headers={"Authorization": f"Token {p1['token']}"},
                )
                if resp.status_code == 201:
                    break
                assert resp.status_code == 503, resp.text[:300]
                assert time.monotonic() - back < 30, resp.text[:300]
                await asyncio.sleep(0.2)
            report["recovered_s"] = time.monotonic() - back
            mark = (await _thread(stack.events, cid))[-1][0]
            assert await wait_for(
                lambda: all(c.ready.is_set() and c.position >= mark for c in clients), 30
            )
            report["sockets_s"] = time.monotonic() - back
            page = await http.get(
                f"{web.base}/campaigns/{cid}/table/", headers={"Cookie": gm["cookie"]}
            )
            assert page.status_code == 200
            await asyncio.sleep(2)
            stop.set()
            await streaming
            await _caught_up(stack, clients, cid, 30)
        for c in clients:
            await c.stop()

    try:
        asyncio.run(scenario())
        checked = _check_log(stack, clients, cid)
    finally:
        web.stop()
    assert web.starts == 1 and pid  # never restarted
    assert report["recovered_s"] < 10, report
    keys = len(roller.keys) + sum(len(r.keys) for r in streamers)
    assert stack.rolls(cid) == keys + 1  # + the one posted by hand after the restart
    refused = sum(r.statuses.get(503, 0) for r in streamers)
    assert refused > 0 and not any(r.statuses.get(500) for r in streamers)
    codes = sorted({e["code"] for c in clients for e in c.errors})
    figure(
        f"stop PostgreSQL for {report['down_s']:.0f}s: first page 503 in "
        f"{report['page_s']:.2f}s (the pool's timeout), then API 503 in {report['api_s']:.2f}s; "
        f"{refused} rolls answered 503 and retried, none lost or doubled; socket error frames "
        f"{codes}; after restart the same daphne served a roll in "
        f"{report['recovered_s']:.2f}s and every socket had replayed in "
        f"{report['sockets_s']:.2f}s; {checked} deliveries checked"
    )
