"""Open-loop roll generator: every table rolls on a fixed schedule, whatever the server does.

Table ``i`` sends roll ``k`` at ``start + i / (tables * rate) + k / rate``: the tables are
spread evenly over each period, and a late or failed response never delays the next send
(each POST is its own task). Each roll carries a unique label (``b<table>-<k>``) that the
clients match arrivals against, and the API token of one of the table's roller users, so the
per-user rate limit (burst 10, then 2/s) is never what is measured.

The HTTP client is a small keep-alive HTTP/1.1 pool on asyncio streams (``--client raw``,
the default). httpx (``--client httpx``) works too but costs ~2.7 ms of CPU per request
(a quarter of a core at 100 rolls/s, taken from the server under test on a 2-core machine),
and its connection pool's bookkeeping grows with the number of queued requests, so once the
server falls behind the generator falls further behind: it then measures itself.

The report (``--out``, JSON) has one record per roll: label, table, wall-clock send and
response times, HTTP status or error, and how late the send was against its schedule.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import time
from typing import Any
from urllib.parse import urlsplit

REQUEST_TIMEOUT = 10.0
MAX_CONNECTIONS = 256
MAX_RESPONSE = 1 << 20


class HTTPError(Exception):
    pass


class RawPool:
    """Keep-alive HTTP/1.1 connections to one loopback server, one request at a time each."""

    def __init__(self, base: str, max_connections: int = MAX_CONNECTIONS) -> None:
        parts = urlsplit(base)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        self.gate = asyncio.Semaphore(max_connections)

    async def post(self, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, str]:
        async with self.gate:
            if self.idle:
                reader, writer = self.idle.pop()
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
                self.idle.append((reader, writer))
            else:
                writer.close()
            return status, text

    def close(self) -> None:
        for _reader, writer in self.idle:
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


async def run(
    plan: dict[str, Any], base: str, rate: float, duration: float, start_at: float, client: str
) -> list[dict[str, Any]]:
    tables = plan["tables"]
    per_table = round(duration * rate)
    schedule = sorted(
        (start_at + i / (len(tables) * rate) + k / rate, i, k)
        for i in range(len(tables))
        for k in range(per_table)
    )
    records: list[dict[str, Any]] = []
    pool: Any = RawPool(base) if client == "raw" else HttpxPool(base)

    async def post(at: float, i: int, k: int) -> None:
        table = tables[i]
        token = table["tokens"][k % len(table["tokens"])]
        label = f"b{i}-{k}"
        body = json.dumps({"notation": "2d6+1", "label": label}).encode()
        t_send = time.time()
        record: dict[str, Any] = {
            "label": label,
            "table": i,
            "status": None,  # stays None if the POST never completes (counted as an error)
            "error": "no response",
            "t_send": t_send,
            "t_done": None,
            "lag": max(0.0, t_send - at),
        }
        records.append(record)
        try:
            async with asyncio.timeout(REQUEST_TIMEOUT):
                status, text = await pool.post(
                    f"/api/campaigns/{table['id']}/rolls/",
                    body,
                    {"Authorization": f"Token {token}"},
                )
            record["status"] = status
            record["error"] = "" if 200 <= status < 300 else text[:200]
        except Exception as exc:  # timeouts, resets, bad responses: all count as errors
            record["error"] = f"{type(exc).__name__}: {exc}"[:200]
        record["t_done"] = time.time()

    tasks = []
    for at, i, k in schedule:
        delay = at - time.time()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(post(at, i, k)))
    if tasks:
        await asyncio.wait(tasks, timeout=REQUEST_TIMEOUT + 5)
    for task in tasks:
        task.cancel()
    if isinstance(pool, RawPool):
        pool.close()
    else:
        await pool.client.aclose()
    return records


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--plan", required=True)
    parser.add_argument("--base", required=True, help="http://127.0.0.1:<port>")
    parser.add_argument("--rate", type=float, required=True, help="rolls per table per second")
    parser.add_argument("--duration", type=float, required=True)
    parser.add_argument("--start-at", type=float, required=True, help="wall clock (time.time)")
    parser.add_argument("--client", choices=["raw", "httpx"], default="raw")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    with open(args.plan) as f:
        plan = json.load(f)
    records = asyncio.run(
        run(plan, args.base, args.rate, args.duration, args.start_at, args.client)
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
