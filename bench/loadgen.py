"""Open-loop request generator: every table sends on a fixed schedule, whatever the server does.

Table ``i`` sends request ``k`` at ``start + i / (tables * rate) + k / rate``: the tables are
spread evenly over each period, and a late or failed response never delays the next send
(each POST is its own task). ``--mix roll=1,move=1,token=1`` spreads each table's requests over
the kinds by weight (a smooth weighted round robin, so kinds interleave):

- ``roll``: ``POST /api/campaigns/<id>/rolls/`` with a unique label ``b<table>-<k>`` that the
  clients match arrivals against;
- ``move``: ``POST /api/characters/<cid>/moves/defy_danger/`` on a roller's own Dungeon World
  sheet; the clients number each character's ``move`` events, the report numbers each
  character's successful moves in send order, and ``bench.stats`` matches the two;
- ``token``: ``POST /api/campaigns/<id>/maps/<map>/tokens/<token>/move/`` by the token's
  owner, each move of a token to a cell it has not been to (``tok<id>@<col>,<row>``).

Each request carries the API token of one of the table's roller users, in turn, so the per-user
rate limits (rolls and moves: burst 10 then 2/s; token moves: burst 20 then 4/s) are never what
is measured. ``--clock-seconds L`` also starts every table's dungeon clock (as the referee:
configure L seconds, then start), the starts spread over the first L seconds, and records each
first deadline so the report can tell which turn ends were due.

The HTTP client is a small keep-alive HTTP/1.1 pool on asyncio streams (``--client raw``,
the default). httpx (``--client httpx``) works too but costs ~2.7 ms of CPU per request
(a quarter of a core at 100 rolls/s, taken from the server under test on a 2-core machine),
and its connection pool's bookkeeping grows with the number of queued requests, so once the
server falls behind the generator falls further behind: it then measures itself.

The report (``--out``, JSON) has one record per request: kind, label, table, wall-clock send
and response times, HTTP status or error, and how late the send was against its schedule.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import resource
import time
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

    async def post(
        self, path: str, body: bytes, headers: dict[str, str]
    ) -> tuple[int, str, str | None]:
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
                status, text, keep, timing = await _read_response(reader)
            except BaseException:
                writer.close()
                raise
            if keep:
                self.idle.setdefault(user, []).append((reader, writer, time.monotonic()))
            else:
                writer.close()
            return status, text, timing

    def close(self) -> None:
        for idle in self.idle.values():
            for _reader, writer, _since in idle:
                writer.close()
        self.idle.clear()


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, str, bool, str | None]:
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
    return status, body.decode("utf-8", "replace"), keep, headers.get("server-timing")


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

    async def post(
        self, path: str, body: bytes, headers: dict[str, str]
    ) -> tuple[int, str, str | None]:
        response = await self.client.post(
            path, content=body, headers={**headers, "Content-Type": "application/json"}
        )
        return response.status_code, response.text, response.headers.get("server-timing")


KINDS = ("roll", "move", "token")
# Requests a second one user may make of each kind, with a margin under the limit's refill
# rate (rolls and sheet moves 2/s, token moves 4/s: vtt/table/api.py, vtt/maps/services.py).
PER_USER_RATE = {"roll": 1.5, "move": 1.5, "token": 3.0}
MOVE = "defy_danger"
MOVE_BODY = json.dumps({"params": {"approach": "agility"}}).encode()


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


def _deadline(text: str) -> float | None:
    try:
        value = json.loads(text).get("deadline")
        return datetime.fromisoformat(value).timestamp() if value else None
    except (ValueError, TypeError, AttributeError):
        return None


async def run(
    plan: dict[str, Any],
    base: str,
    rate: float,
    duration: float,
    start_at: float,
    client: str,
    mix: dict[str, float] | None = None,
    clock_seconds: float = 0.0,
) -> list[dict[str, Any]]:
    tables = plan["tables"]
    per_table = round(duration * rate)
    kinds = kind_sequence(mix or {"roll": 1.0}, per_table)
    schedule = sorted(
        (start_at + i / (len(tables) * rate) + k / rate, i, k)
        for i in range(len(tables))
        for k in range(per_table)
    )
    # the n-th request of a kind of table i: its index among that kind (for users and cells)
    nth = [0] * per_table
    seen: dict[str, int] = {}
    for k, kind in enumerate(kinds):
        nth[k] = seen.get(kind, 0)
        seen[kind] = nth[k] + 1
    records: list[dict[str, Any]] = []
    pool: Any = RawPool(base) if client == "raw" else HttpxPool(base)
    size = plan.get("map_size", 0)

    def request(i: int, k: int) -> tuple[dict[str, Any], str, bytes, str]:
        table, kind, n = tables[i], kinds[k], nth[k]
        roller = n % len(table["tokens"])
        record: dict[str, Any] = {"kind": kind, "table": i}
        if kind == "roll":
            record["label"] = f"b{i}-{k}"
            path = f"/api/campaigns/{table['id']}/rolls/"
            body = json.dumps({"notation": "2d6+1", "label": record["label"]}).encode()
        elif kind == "move":
            cid = table["characters"][roller]
            record.update(label="", char=cid)  # numbered by bench.stats
            path, body = f"/api/characters/{cid}/moves/{MOVE}/", MOVE_BODY
        else:
            token_id = table["map_tokens"][roller]
            col, row = token_cell(n // len(table["tokens"]), roller, size)
            record["label"] = f"tok{token_id}@{col},{row}"
            path = f"/api/campaigns/{table['id']}/maps/{table['map_id']}/tokens/{token_id}/move/"
            body = json.dumps({"col": col, "row": row}).encode()
        return record, path, body, table["tokens"][roller]

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
                status, text, timing = await pool.post(
                    path, body, {"Authorization": f"Token {token}"}
                )
            record["status"] = status
            if timing:
                record["timing"] = server_timing(timing)
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
    for at, i, k in schedule:
        delay = at - time.time()
        if delay > 0:
            await asyncio.sleep(delay)
        record, path, body, token = request(i, k)
        tasks.append(asyncio.create_task(post(at, record, path, body, token)))
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


def server_timing(value: str) -> dict[str, float]:
    """``Server-Timing: write;dur=1.680, push;dur=0.420`` → ``{"write": 1.68, "push": 0.42}``
    (milliseconds; the steps a server reports, if it does)."""
    steps: dict[str, float] = {}
    for part in value.split(","):
        name, *params = (p.strip() for p in part.split(";"))
        for param in params:
            key, _, number = param.partition("=")
            if key == "dur" and name:
                with contextlib.suppress(ValueError):
                    steps[name] = float(number)
    return steps


async def _at(when: float, coro: Any) -> None:
    delay = when - time.time()
    if delay > 0:
        await asyncio.sleep(delay)
    await coro


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--plan", required=True)
    parser.add_argument("--base", required=True, help="http://127.0.0.1:<port>")
    parser.add_argument("--rate", type=float, required=True, help="requests per table per second")
    parser.add_argument("--mix", default="roll=1", help="roll=<w>,move=<w>,token=<w>")
    parser.add_argument("--clock-seconds", type=float, default=0.0, help="0: no clocks")
    parser.add_argument("--duration", type=float, required=True)
    parser.add_argument("--start-at", type=float, required=True, help="wall clock (time.time)")
    parser.add_argument("--client", choices=["raw", "httpx"], default="raw")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    with open(args.plan) as f:
        plan = json.load(f)
    records = asyncio.run(
        run(
            plan,
            args.base,
            args.rate,
            args.duration,
            args.start_at,
            args.client,
            parse_mix(args.mix),
            args.clock_seconds,
        )
    )
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
