"""Every websocket client of the run in one asyncio process.

Each client connects with a session cookie and the Origin header, waits for ``welcome``,
sends ``hello`` and waits for the ``replay``; then it records the wall-clock arrival time of
every live event by its label, and follows the protocol's ``prev`` chain as the browser does
(static/js/socket.js, table.js): a frame whose ``prev`` is ahead of the client's position, or
a replay that starts past it, means events were skipped, so the client asks for a ``replay``
and applies the events from it (counted as gap replays);
a seq at or below the position is a duplicate, a ``prev`` behind it an order error.

Labels: a roll's ``label``; ``mv<character>#<n>`` for the n-th ``move`` event of a character
(from 0); ``tok<token>@<col>,<row>`` for a ``map.token`` event (each socket gets one copy:
the referee's socket the referee's, the others the players'). ``turn.ended`` events are
recorded apart, as ``clk<campaign>-<turn>`` with the turn's scheduled end (its next deadline
minus the turn length), to measure how late turns end.

The roller sockets act as browsers do (``--via socket``): after ``READY`` the parent sends
``START <spec>`` (``bench.loadgen.plan_actions``' keywords, JSON) and each roller sends its
table's actions as ``command`` frames on its own socket at their scheduled times, open loop,
and matches the ``ack`` or ``error`` frame by its key (the record's answer time and status).
Arrivals are recorded by the client's index in its table, so the report can leave the sender
out of its own action's latencies. A duplicate or out-of-order event is also counted by the
bench kind of the event (``roll``, ``move``, ``token``, ``other``).

Protocol with the parent, one line each: stdout ``READY <ok> <failed>`` once every client is
connected (or failed); stdin ``START <spec>`` (optional: the roller sockets send), then
``STOP`` (or EOF, or the deadline) ends the run; the report goes to ``--out`` as JSON, then
stdout ``DONE``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import resource
import sys
import time
from collections import defaultdict
from datetime import datetime
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from bench.loadgen import plan_actions

HANDSHAKE_CONCURRENCY = 64
STEP_TIMEOUT = 30.0


def label_of(event: dict[str, Any], moves: dict[Any, int]) -> str | None:
    """The label a delivery is matched by (see the module docstring); ``moves`` counts this
    client's ``move`` events per character."""
    kind, payload = event.get("kind"), event.get("payload") or {}
    if kind == "move":
        cid = payload.get("character_id")
        n = moves.get(cid, 0)
        moves[cid] = n + 1
        return f"mv{cid}#{n}"
    if kind == "map.token":
        token = payload.get("token") or {}
        if "id" not in token:
            return None
        return f"tok{token['id']}@{token.get('col')},{token.get('row')}"
    label = payload.get("label")
    return label if isinstance(label, str) and label else None


EVENT_KINDS = {"roll": "roll", "move": "move", "map.token": "token"}


def bench_kind(event: dict[str, Any]) -> str:
    return EVENT_KINDS.get(event.get("kind", ""), "other")


def scheduled_end(payload: dict[str, Any]) -> float | None:
    """When the turn a ``turn.ended`` reports was due: the next deadline minus a turn."""
    nxt = payload.get("next") or {}
    try:
        return datetime.fromisoformat(nxt["deadline"]).timestamp() - float(nxt["length_seconds"])
    except (KeyError, TypeError, ValueError):
        return None


class Run:
    def __init__(self, plan: dict[str, Any], ws_base: str, origin: str) -> None:
        self.plan = plan
        self.ws_base = ws_base
        self.origin = origin
        self.arrivals: dict[str, list[list[float]]] = defaultdict(list)
        self.clock_arrivals: dict[str, list[list[float | None]]] = defaultdict(list)
        self.gap_replays = 0
        self.connect_errors = 0
        self.connect_error_samples: list[str] = []
        self.drops = 0
        self.drop_samples: list[str] = []
        self.order_errors = 0
        self.duplicates = 0
        self.errors_by_kind: dict[str, dict[str, int]] = defaultdict(
            lambda: {"duplicates": 0, "order": 0}
        )
        self.by_place: dict[tuple[int, int], Any] = {}  # (table, index in table): socket
        self.pending: dict[str, dict[str, Any]] = {}  # command key: its record
        self.records: list[dict[str, Any]] = []
        self.stray_errors: list[str] = []
        self.replayed = 0
        self.frames = 0
        self.stopping = False
        self.sockets: list[Any] = []
        self.joining = 0
        self.all_ready = asyncio.Event()
        self.gate = asyncio.Semaphore(HANDSHAKE_CONCURRENCY)

    def _settled(self) -> None:
        self.joining -= 1
        if self.joining == 0:
            self.all_ready.set()

    async def client(self, place: tuple[int, int], table_id: int, session_key: str) -> None:
        """One browser's socket; ``place`` is (table, index in the table)."""
        index = place[1]
        uri = f"{self.ws_base}/ws/campaigns/{table_id}/"
        cookie = f"{self.plan['cookie_name']}={session_key}"
        try:
            async with self.gate:
                ws = await asyncio.wait_for(
                    connect(
                        uri,
                        origin=self.origin,
                        additional_headers={"Cookie": cookie},
                        compression=None,
                        ping_interval=None,
                        max_size=2**22,
                        max_queue=None,
                        open_timeout=STEP_TIMEOUT,
                    ),
                    STEP_TIMEOUT,
                )
                welcome = json.loads(await asyncio.wait_for(ws.recv(), STEP_TIMEOUT))
                if welcome.get("type") != "welcome":
                    raise RuntimeError(f"expected welcome, got {str(welcome)[:120]}")
                await ws.send(json.dumps({"type": "hello", "last_seq": 0}))
                while True:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), STEP_TIMEOUT))
                    if frame.get("type") == "replay":
                        position = frame["cursor"]
                        break
        except Exception as exc:  # every failure to join counts, with a sample
            self.connect_errors += 1
            if len(self.connect_error_samples) < 5:
                self.connect_error_samples.append(f"{type(exc).__name__}: {exc}"[:200])
            self._settled()
            return
        self.sockets.append(ws)
        self.by_place[place] = ws
        self._settled()
        moves: dict[Any, int] = {}
        replay_pending = False

        def apply(event: dict[str, Any], now: float) -> None:
            label = label_of(event, moves)
            if label:
                self.arrivals[label].append([index, now])
            elif event.get("kind") == "turn.ended":
                payload = event.get("payload") or {}
                self.clock_arrivals[f"clk{table_id}-{payload.get('turn')}"].append(
                    [index, now, scheduled_end(payload)]
                )

        try:
            async for raw in ws:
                now = time.time()
                self.frames += 1
                frame = json.loads(raw)
                kind = frame.get("type")
                if kind == "event":
                    event = frame["event"]
                    seq = event["seq"]
                    if seq <= position:
                        self.duplicates += 1
                        self.errors_by_kind[bench_kind(event)]["duplicates"] += 1
                        continue
                    if frame["prev"] > position:
                        # a gap: the browser asks for (position, ...] and waits (socket.js)
                        if not replay_pending:
                            replay_pending = True
                            self.gap_replays += 1
                            await ws.send(json.dumps({"type": "replay", "since": position}))
                        continue
                    if frame["prev"] != position:
                        self.order_errors += 1
                        self.errors_by_kind[bench_kind(event)]["order"] += 1
                    position = seq
                    apply(event, now)
                elif kind == "replay":
                    if frame["after"] > position:
                        # the server filled its own gap from (its cursor, ...], past what this
                        # user has seen: ask for everything since the position (table.js)
                        self.gap_replays += 1
                        replay_pending = True
                        await ws.send(json.dumps({"type": "replay", "since": position}))
                        continue
                    for event in frame["events"]:
                        if event["seq"] <= position:
                            continue  # a gap replay repeats what was applied: not a duplicate
                        self.replayed += 1
                        position = event["seq"]
                        apply(event, now)
                    position = max(position, frame["cursor"])
                    replay_pending = False
                elif kind in ("ack", "error"):
                    self._answer(frame, now)
        except (ConnectionClosed, ValueError, KeyError, TypeError) as exc:
            if not self.stopping:
                self._drop(f"{type(exc).__name__}: {exc}")
        else:
            if not self.stopping:
                self._drop(f"closed by the server: {ws.close_code} {ws.close_reason}")

    def _answer(self, frame: dict[str, Any], now: float) -> None:
        """A command's ``ack`` or ``error``: the answer of the record with its key."""
        record = self.pending.pop(frame.get("key") or "", None)
        if record is None:
            if frame.get("type") == "error" and len(self.stray_errors) < 5:
                self.stray_errors.append(f"{frame.get('code')}: {frame.get('message')}"[:200])
            return
        status = frame.get("status")
        record["t_done"] = now
        record["status"] = status if isinstance(status, int) else 0
        if frame["type"] == "ack" and 200 <= record["status"] < 300:
            record["error"] = ""
        else:
            record["error"] = f"{frame.get('code')}: {frame.get('message')}"[:200]
            record["code"] = frame.get("code")

    async def send_actions(self, spec: dict[str, Any]) -> None:
        """Each roller sends its table's actions as command frames on schedule (open loop)."""
        sends = []
        for action in plan_actions(self.plan, **spec):
            delay = action.at - time.time()
            if delay > 0:
                await asyncio.sleep(delay)
            t_send = time.time()
            record = action.record()
            record.update(
                status=None, error="no answer", t_send=t_send, t_done=None,
                lag=max(0.0, t_send - action.at),
            )  # fmt: skip
            self.records.append(record)
            ws = self.by_place.get((action.table, action.sender))
            if ws is None:
                record["error"] = "the roller's socket is not connected"
                continue
            self.pending[action.key] = record
            sends.append(asyncio.create_task(self._send(ws, action.frame(), record)))
        if sends:
            await asyncio.wait(sends)

    async def _send(self, ws: Any, frame: str, record: dict[str, Any]) -> None:
        try:
            await ws.send(frame)
        except ConnectionClosed as exc:
            record["error"] = f"send: {type(exc).__name__}: {exc}"[:200]

    def _drop(self, why: str) -> None:
        self.drops += 1
        if len(self.drop_samples) < 5:
            self.drop_samples.append(why[:200])

    async def main(self, deadline: float) -> dict[str, Any]:
        tasks = []
        for t, table in enumerate(self.plan["tables"]):
            for index, key in enumerate(table["sessions"]):
                self.joining += 1
                tasks.append(asyncio.create_task(self.client((t, index), table["id"], key)))
        if not tasks:
            self.all_ready.set()
        with contextlib.suppress(TimeoutError):  # READY says how many made it; the parent decides
            await asyncio.wait_for(self.all_ready.wait(), max(1.0, deadline - time.time()))
        print(f"READY {len(self.sockets)} {self.connect_errors}", flush=True)
        # Wait for STOP (or EOF) on stdin without a thread, so the deadline always wins.
        loop = asyncio.get_running_loop()
        stdin = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stdin), sys.stdin)
        sender = None
        with contextlib.suppress(TimeoutError):
            line = await asyncio.wait_for(stdin.readline(), max(1.0, deadline - time.time()))
            if line.startswith(b"START "):
                spec = json.loads(line[6:])
                spec.pop("send", None)
                sender = asyncio.create_task(self.send_actions(spec))
                await asyncio.wait_for(stdin.readline(), max(1.0, deadline - time.time()))
        if sender is not None and not sender.done():
            sender.cancel()
        self.stopping = True
        stopped_at = time.time()
        closing = [asyncio.create_task(ws.close()) for ws in self.sockets]
        if closing:
            await asyncio.wait(closing, timeout=15)
        await asyncio.wait(tasks, timeout=15)
        for task in tasks:
            task.cancel()
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return {
            "arrivals": self.arrivals,
            "clock_arrivals": self.clock_arrivals,
            "gap_replays": self.gap_replays,
            "stopped_at": stopped_at,
            "connected": len(self.sockets),
            "connect_errors": self.connect_errors,
            "connect_error_samples": self.connect_error_samples,
            "drops": self.drops,
            "drop_samples": self.drop_samples,
            "order_errors": self.order_errors,
            "duplicates": self.duplicates,
            "errors_by_kind": self.errors_by_kind,
            "records": self.records,
            "stray_errors": self.stray_errors,
            "replayed": self.replayed,
            "frames": self.frames,
            "peak_rss_mb": usage.ru_maxrss / 1024,
            "cpu_s": usage.ru_utime + usage.ru_stime,
        }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--plan", required=True)
    parser.add_argument("--ws", required=True, help="ws://127.0.0.1:<port>")
    parser.add_argument("--origin", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--max-seconds", type=float, required=True, help="hard deadline")
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with open(args.plan) as f:
        plan = json.load(f)
    deadline = time.time() + args.max_seconds
    report = asyncio.run(Run(plan, args.ws, args.origin).main(deadline))
    with open(args.out, "w") as f:
        json.dump(report, f)
    print("DONE", flush=True)


if __name__ == "__main__":
    main()
