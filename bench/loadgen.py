"""Open-loop actions, planned once for both ways of sending them: socket commands, as browsers
send them (``bench.clients``), and HTTP requests, as scripts send them (this module's load
generator).

The run is a sequence of windows (``--kinds roll,move,token``: one kind per window, so the
web processes' CPU of each window is that kind's; ``--mix`` instead: one window of a weighted
mix), each ``duration`` seconds of sending and a ``gap`` for the fan-out to finish. In each
window table ``i`` sends action ``k`` at ``window start + i / (tables * rate) + k / rate``: the
tables are spread evenly over each period, and a late or failed answer never delays the next
send. A window's kinds interleave by weight (a smooth weighted round robin). The actions:

- ``roll`` (command ``roll``; ``POST /api/campaigns/<id>/rolls/``) with a unique label that
  the clients match arrivals against;
- ``move`` (command ``character.move``; ``POST /api/characters/<cid>/moves/defy_danger/``) on a
  roller's own Dungeon World sheet; the clients number each character's ``move`` events, the
  report numbers each character's successful moves in send order, and ``bench.stats`` matches
  the two;
- ``token`` (command ``token.move``; ``POST /api/campaigns/<id>/maps/<map>/tokens/<token>/
  move/``) by the token's owner, each move of a token to a cell it has not been to in the
  database's life (``token_offset`` moves past the earlier phases': ``tok<id>@<col>,<row>``).

Each action is taken by one of the table's roller users, in turn (players holding a socket of
the table and an API token), so the per-user rate limits (rolls and moves: burst 10 then 2/s;
token moves: burst 20 then 4/s) are never what is measured. ``--clock-seconds L`` also starts
every table's dungeon clock over HTTP (as the referee: configure L seconds, then start), the
starts spread over the first L seconds, and records each first deadline so the report can tell
which turn ends were due.

The HTTP client is a small keep-alive HTTP/1.1 pool on asyncio streams (``--client raw``,
the default). httpx (``--client httpx``) works too but costs ~2.7 ms of CPU per request
(a quarter of a core at 100 rolls/s, taken from the server under test on a 2-core machine),
and its connection pool's bookkeeping grows with the number of queued requests, so once the
server falls behind the generator falls further behind: it then measures itself.

The report (``--out``, JSON) has one record per action: kind, label, table, sender (the
roller's socket, left out of that action's latencies), window, wall-clock send and answer
times, HTTP status or error, and how late the send was against its schedule.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import resource
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

REQUEST_TIMEOUT = 10.0
MAX_CONNECTIONS = 256
MAX_RESPONSE = 1 << 20


class HTTPError(Exception):
    pass


def _error_code(text: str) -> str | None:
    """The API's machine-readable ``code`` of a refusal (``busy``, ``rate_limited``, ...)."""
    try:
        body = json.loads(text)
    except ValueError:
        return None
    return body.get("code") if isinstance(body, dict) else None


class RawPool:
    """Keep-alive HTTP/1.1 connections to one loopback server, one request at a time each.

    Like a browser (and httpx, whose default is 5 s) it forgets a connection that sat idle
    for ``KEEPALIVE_EXPIRY`` or that the server already closed: daphne (Twisted) closes a
    connection idle for 60 s, and a request written into one that is closing gets no answer
    at all. Reusing such stale connections was the source of the IncompleteReadError
    failures of earlier ``bench-full`` runs, where some of 256 pooled connections sat unused
    for minutes."""

    KEEPALIVE_EXPIRY = 5.0

    def __init__(self, base: str, max_connections: int = MAX_CONNECTIONS) -> None:
        parts = urlsplit(base)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        # Idle connections per user (their Authorization header): each browser keeps its own.
        # One shared pool handed nearly every request to the same few connections, so the
        # kernel's SO_REUSEPORT spread put most of the load on one web process.
        self.idle: dict[str, list[tuple[asyncio.StreamReader, asyncio.StreamWriter, float]]] = {}
        self.gate = asyncio.Semaphore(max_connections)
        self.expired = 0

    def _reusable(self, user: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        now = time.monotonic()
        idle = self.idle.get(user, [])
        while idle:
            reader, writer, since = idle.pop()
            if now - since < self.KEEPALIVE_EXPIRY and not reader.at_eof():
                return reader, writer
            self.expired += 1
            writer.close()
        return None

    async def post(self, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, str]:
        user = headers.get("Authorization", "")
        async with self.gate:
            pooled = self._reusable(user)
            if pooled is not None:
                reader, writer = pooled
            else:
                reader, writer = await asyncio.open_connection(self.host, self.port)
            try:
                head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
                writer.write(
                    f"POST {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n{head}"
                    f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode(
                        "latin-1"
                    )
                    + body
                )
                status, text, keep = await _read_response(reader)
            except BaseException:
                writer.close()
                raise
            if keep:
                self.idle.setdefault(user, []).append((reader, writer, time.monotonic()))
            else:
                writer.close()
            return status, text

    def close(self) -> None:
        for idle in self.idle.values():
            for _reader, writer, _since in idle:
                writer.close()
        self.idle.clear()


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, str, bool]:
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
    lines = head.split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/1."):
        raise HTTPError(f"bad status line {lines[0][:80]!r}")
    status = int(parts[1])
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    if "chunked" in headers.get("transfer-encoding", "").lower():
        chunks = []
        size = 0
        while True:
            length = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            size += length
            if size > MAX_RESPONSE:
                raise HTTPError("response too large")
            chunk = await reader.readexactly(length + 2)
            if length == 0:
                break
            chunks.append(chunk[:-2])
        body = b"".join(chunks)
    else:
        length = int(headers.get("content-length", "0"))
        if length > MAX_RESPONSE:
            raise HTTPError("response too large")
        body = await reader.readexactly(length)
    keep = headers.get("connection", "").lower() != "close" and parts[0] == "HTTP/1.1"
    return status, body.decode("utf-8", "replace"), keep


class HttpxPool:
    def __init__(self, base: str) -> None:
        import httpx

        self.errors = (httpx.HTTPError,)
        self.client = httpx.AsyncClient(
            base_url=base,
            limits=httpx.Limits(
                max_connections=MAX_CONNECTIONS, max_keepalive_connections=MAX_CONNECTIONS
            ),
            timeout=REQUEST_TIMEOUT,
        )

    async def post(self, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, str]:
        response = await self.client.post(
            path, content=body, headers={**headers, "Content-Type": "application/json"}
        )
        return response.status_code, response.text


KINDS = ("roll", "move", "token")
# The socket command of each kind (vtt/*/commands.py, docs/table-protocol.md "Commands").
COMMANDS = {"roll": "roll", "move": "character.move", "token": "token.move"}
# Requests a second one user may make of each kind, with a margin under the limit's refill
# rate (rolls and sheet moves 2/s, token moves 4/s: vtt/table/api.py, vtt/maps/services.py).
PER_USER_RATE = {"roll": 1.5, "move": 1.5, "token": 3.0}
MOVE = "defy_danger"
MOVE_PARAMS = {"params": {"approach": "agility"}}


def parse_mix(text: str) -> dict[str, float]:
    """``roll=1,move=1,token=1`` → weights of the kinds (missing kinds weigh 0)."""
    mix = dict.fromkeys(KINDS, 0.0)
    for part in text.split(","):
        if not part.strip():
            continue
        name, sep, value = part.partition("=")
        name = name.strip()
        if name == "clock":  # accepted for symmetry: clocks run with --clocks, not per request
            continue
        if not sep or name not in mix:
            raise ValueError(f"--mix takes {', '.join(KINDS)}=<weight>, not {part!r}")
        weight = float(value)
        if weight < 0 or weight != weight:
            raise ValueError(f"--mix weight of {name} must be >= 0")
        mix[name] = weight
    if sum(mix.values()) <= 0:
        raise ValueError("--mix needs at least one kind with a positive weight")
    return mix


def kind_sequence(mix: dict[str, float], n: int) -> list[str]:
    """The kinds of a table's ``n`` requests in order: a smooth weighted round robin, so the
    kinds interleave evenly and their counts follow the weights."""
    total = sum(mix.values())
    current = dict.fromkeys(mix, 0.0)
    out = []
    for _ in range(n):
        for kind, weight in mix.items():
            current[kind] += weight
        pick = max((k for k in mix if mix[k] > 0), key=lambda k: current[k])
        current[pick] -= total
        out.append(pick)
    return out


def rollers_needed(mix: dict[str, float], rate: float) -> int:
    """Users per table so that no user's share of any kind comes near its rate limit."""
    total = sum(mix.values())
    return max(
        1, *(math.ceil(rate * mix[k] / total / PER_USER_RATE[k] - 1e-9) for k in KINDS if mix[k])
    )


def token_cell(n: int, roller: int, size: int) -> tuple[int, int]:
    """The cell of a roller's token's ``n``-th move (from 0): along the map from (1, roller),
    never the same cell twice and never its start (0, roller) while ``n < size * size - 1``."""
    index = n + 1
    return index % size, (roller + index // size) % size


@dataclass
class Action:
    """One action of one table, with both of its forms: the API call and the socket command."""

    at: float  # when to send (wall clock)
    table: int  # index into the plan's tables
    kind: str
    window: int
    label: str  # what the clients match arrivals against ("" for moves: numbered later)
    roller: int  # index into the table's rollers
    sender: int  # the roller's socket: index into the table's sessions
    path: str
    params: dict[str, Any]
    args: dict[str, Any]
    key: str
    char: int | None = None

    def record(self) -> dict[str, Any]:
        record = {
            "kind": self.kind,
            "label": self.label,
            "table": self.table,
            "sender": self.sender,
            "window": self.window,
        }
        if self.char is not None:
            record["char"] = self.char
        return record

    def frame(self) -> str:
        """The ``command`` frame a browser sends for it."""
        return json.dumps(
            {
                "type": "command",
                "command": COMMANDS[self.kind],
                "key": self.key,
                "args": self.args,
                "params": self.params,
            }
        )


def windows_of(kinds: str | None, mix: dict[str, float] | None) -> list[dict[str, float]]:
    """``--kinds roll,move`` → one window per kind; else one window of the ``--mix``."""
    if kinds:
        names = [k.strip() for k in kinds.split(",") if k.strip()]
        unknown = [k for k in names if k not in KINDS]
        if unknown or not names:
            raise ValueError(f"--kinds takes {', '.join(KINDS)}, comma-separated")
        return [{k: 1.0 if k == name else 0.0 for k in KINDS} for name in names]
    return [mix or {"roll": 1.0}]


def window_starts(start_at: float, windows: int, duration: float, gap: float) -> list[float]:
    """When each window begins, and (last) when the last one's gap ends."""
    return [start_at + w * (duration + gap) for w in range(windows + 1)]


def plan_actions(
    plan: dict[str, Any],
    *,
    rate: float,
    duration: float,
    start_at: float,
    windows: list[dict[str, float]],
    gap: float,
    run_id: str,
    token_offset: int = 0,
) -> list[Action]:
    """Every action of the run in send order (the module docstring)."""
    tables = plan["tables"]
    size = plan.get("map_size", 0)
    per_table = round(duration * rate)
    starts = window_starts(start_at, len(windows), duration, gap)
    done: dict[tuple[int, str], int] = {}  # actions of a kind a table has planned so far
    out: list[Action] = []
    for w, mix in enumerate(windows):
        kinds = kind_sequence(mix, per_table)
        for i, table in enumerate(tables):
            rollers = len(table["tokens"])
            for k, kind in enumerate(kinds):
                n = done.get((i, kind), 0)
                done[(i, kind)] = n + 1
                r = n % rollers
                at = starts[w] + i / (len(tables) * rate) + k / rate
                sender = table["rollers"][r] if table.get("rollers") else -1
                key = f"{run_id}-{w}-{i}-{k}"
                if kind == "roll":
                    label = f"b{run_id}-{w}-{i}-{k}"
                    out.append(
                        Action(
                            at, i, kind, w, label, r, sender,
                            f"/api/campaigns/{table['id']}/rolls/",
                            {"notation": "2d6+1", "label": label}, {}, key,
                        )
                    )  # fmt: skip
                elif kind == "move":
                    cid = table["characters"][r]
                    out.append(
                        Action(
                            at, i, kind, w, "", r, sender,
                            f"/api/characters/{cid}/moves/{MOVE}/",
                            MOVE_PARAMS, {"cid": cid, "move": MOVE}, key, char=cid,
                        )
                    )  # fmt: skip
                else:
                    token_id, map_id = table["map_tokens"][r], table["map_id"]
                    col, row = token_cell(token_offset + n // rollers, r, size)
                    out.append(
                        Action(
                            at, i, kind, w, f"tok{token_id}@{col},{row}", r, sender,
                            f"/api/campaigns/{table['id']}/maps/{map_id}/tokens/{token_id}/move/",
                            {"col": col, "row": row}, {"map_id": map_id, "token_id": token_id},
                            key,
                        )
                    )  # fmt: skip
    out.sort(key=lambda a: a.at)
    return out


def token_moves_per_roller(rate: float, duration: float, windows: list[dict[str, float]]) -> int:
    """An upper bound of the token moves one roller makes in a run (for ``token_offset``)."""
    return math.ceil(rate * duration) * len(windows)


def _deadline(text: str) -> float | None:
    try:
        value = json.loads(text).get("deadline")
        return datetime.fromisoformat(value).timestamp() if value else None
    except (ValueError, TypeError, AttributeError):
        return None


async def run(
    plan: dict[str, Any],
    base: str,
    spec: dict[str, Any],
    client: str,
    clock_seconds: float = 0.0,
) -> list[dict[str, Any]]:
    """Send the planned actions (``spec``: ``plan_actions``' keywords) as API calls."""
    tables = plan["tables"]
    spec = dict(spec)
    send = spec.pop("send", True)  # False: the sockets send the actions, this only the clocks
    start_at = spec["start_at"]
    actions = plan_actions(plan, **spec) if send else []
    records: list[dict[str, Any]] = []
    pool: Any = RawPool(base) if client == "raw" else HttpxPool(base)

    async def post(
        at: float, record: dict[str, Any], path: str, body: bytes, token: str
    ) -> dict[str, Any]:
        t_send = time.time()
        record.update(
            status=None,  # stays None if the POST never completes (counted as an error)
            error="no response",
            t_send=t_send,
            t_done=None,
            lag=max(0.0, t_send - at),
        )
        records.append(record)
        text = ""
        try:
            async with asyncio.timeout(REQUEST_TIMEOUT):
                status, text = await pool.post(path, body, {"Authorization": f"Token {token}"})
            record["status"] = status
            record["error"] = "" if 200 <= status < 300 else text[:200]
            if not 200 <= status < 300:
                record["code"] = _error_code(text)
        except Exception as exc:  # timeouts, resets, bad responses: all count as errors
            record["error"] = f"{type(exc).__name__}: {exc}"[:200]
        record["t_done"] = time.time()
        if record["kind"] == "clock":
            record["_text"] = text
        return record

    async def clock(i: int, at: float) -> None:
        """Configure the table's turn to ``clock_seconds`` and start it, as its referee."""
        table = tables[i]
        path = f"/api/campaigns/{table['id']}/clock/"
        for action, fields in (
            ("configure", {"length_seconds": round(clock_seconds), "mode": "timer"}),
            ("start", {}),
        ):
            body = json.dumps({"action": action, **fields}).encode()
            record = {"kind": "clock", "table": i, "label": f"clock-{action}-{i}"}
            await post(at, record, path, body, table["referee_token"])
            if record["status"] is None or not 200 <= record["status"] < 300:
                return
            if action == "start":
                record["deadline"] = _deadline(record.get("_text", ""))

    tasks = []
    if clock_seconds > 0:
        for i in range(len(tables)):
            at = start_at + clock_seconds * i / len(tables)
            tasks.append(asyncio.create_task(_at(at, clock(i, at))))
    for action in actions:
        delay = action.at - time.time()
        if delay > 0:
            await asyncio.sleep(delay)
        body = json.dumps(action.params).encode()
        token = tables[action.table]["tokens"][action.roller]
        tasks.append(
            asyncio.create_task(post(action.at, action.record(), action.path, body, token))
        )
    if tasks:
        await asyncio.wait(tasks, timeout=REQUEST_TIMEOUT * 2 + 5)
    for task in tasks:
        task.cancel()
    if isinstance(pool, RawPool):
        pool.close()
    else:
        await pool.client.aclose()
    for record in records:
        record.pop("_text", None)
    return records


async def _at(when: float, coro: Any) -> None:
    delay = when - time.time()
    if delay > 0:
        await asyncio.sleep(delay)
    await coro


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--plan", required=True)
    parser.add_argument("--base", required=True, help="http://127.0.0.1:<port>")
    parser.add_argument("--spec", required=True, help="JSON: plan_actions' keywords")
    parser.add_argument("--clock-seconds", type=float, default=0.0, help="0: no clocks")
    parser.add_argument("--client", choices=["raw", "httpx"], default="raw")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    with open(args.plan) as f:
        plan = json.load(f)
    with open(args.spec) as f:
        spec = json.load(f)
    records = asyncio.run(run(plan, args.base, spec, args.client, args.clock_seconds))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    with open(args.out, "w") as f:
        json.dump(
            {
                "records": records,
                "peak_rss_mb": usage.ru_maxrss / 1024,
                "cpu_s": usage.ru_utime + usage.ru_stime,
            },
            f,
        )


if __name__ == "__main__":
    main()
