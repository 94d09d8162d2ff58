"""The floor: a bare websocket broadcast server with the table's wire shape and nothing else.

No Django, no database, no channel layer: ``POST /api/campaigns/<id>/rolls/`` (a minimal
keep-alive HTTP/1.1 server) rolls 2d6+1, numbers the event and broadcasts one frame to the
sockets of that table, then answers 201. A character move (``/api/characters/<id>/moves/<m>/``)
and a token move (``/api/campaigns/<id>/maps/<m>/tokens/<t>/move/``) do the same with a
``move`` and a players' ``map.token`` event (``--plan`` says which table a sheet is on).
The websocket side speaks just enough of the table protocol for the same clients:
``welcome``, ``hello`` → an empty ``replay``, then ``{"type":"event","prev":P,"event":{...}}``
frames; a ``command`` frame (``roll``, ``character.move``, ``token.move``) does what its POST
does and answers an ``ack`` on the sender's socket, as the table's socket commands do. Same
clients, same load generator, same measurement: whatever the real server adds on top of this
is the cost of the product.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import re
import signal
from datetime import UTC, datetime
from typing import Any

from websockets.asyncio.server import ServerConnection, broadcast, serve

WS_PATH = re.compile(r"^/ws/campaigns/(\d+)/$")
ROLL_PATH = re.compile(r"^/api/campaigns/(\d+)/rolls/$")
MOVE_PATH = re.compile(r"^/api/characters/(\d+)/moves/([\w-]+)/$")
TOKEN_PATH = re.compile(r"^/api/campaigns/(\d+)/maps/(\d+)/tokens/(\d+)/move/$")
MAX_BODY = 64 * 1024


class Writer:
    """``--write-dsn``: each event is inserted and committed in PostgreSQL before it is broadcast,
    the one step no design of the table can skip (a roll is never lost). The floor with a
    durable write: how much of the gap to the real server that write alone explains."""

    def __init__(self, dsn: str, size: int = 4) -> None:
        self.dsn, self.size = dsn, size
        self.pool: asyncio.Queue = asyncio.Queue()

    async def open(self) -> None:
        import psycopg

        for _ in range(self.size):
            conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
            self.pool.put_nowait(conn)
        conn = await self.pool.get()
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS bench_floor_event (table_id int, seq int, "
            "payload jsonb, PRIMARY KEY (table_id, seq))"
        )
        await conn.execute("TRUNCATE bench_floor_event")
        self.pool.put_nowait(conn)

    async def write(self, table: int, seq: int, payload: str) -> None:
        conn = await self.pool.get()
        try:
            await conn.execute(
                "INSERT INTO bench_floor_event (table_id, seq, payload) VALUES (%s, %s, %s)",
                (table, seq, payload),
            )
        finally:
            self.pool.put_nowait(conn)


class Tables:
    def __init__(self, plan: dict[str, Any] | None = None, writer: Writer | None = None) -> None:
        self.writer = writer
        self.locks: dict[int, asyncio.Lock] = {}
        self.sockets: dict[int, set[ServerConnection]] = {}
        self.seq: dict[int, int] = {}
        self.sheet_table = {
            cid: table["id"]
            for table in (plan or {}).get("tables", [])
            for cid in table["characters"]
        }

    async def websocket(self, ws: ServerConnection) -> None:
        match = WS_PATH.match(ws.request.path if ws.request else "")
        if not match:
            await ws.close(4404)
            return
        table = int(match.group(1))
        await ws.send(json.dumps({"type": "welcome", "user": {"id": 0}, "conn": str(id(ws))}))
        hello = json.loads(await ws.recv())
        if hello.get("type") != "hello":
            await ws.close(4400)
            return
        head = self.seq.get(table, 0)
        await ws.send(json.dumps({"type": "replay", "after": 0, "cursor": head, "events": []}))
        self.sockets.setdefault(table, set()).add(ws)
        try:
            async for raw in ws:
                with contextlib.suppress(ValueError, KeyError, TypeError, AttributeError):
                    frame = json.loads(raw)
                    if frame.get("type") == "command":
                        await ws.send(json.dumps(await self.command(table, frame)))
        finally:
            self.sockets[table].discard(ws)

    async def command(self, table: int, frame: dict[str, Any]) -> dict[str, Any]:
        """A socket command: the action, then its ``ack`` (or an ``error`` frame)."""
        name, args = frame.get("command"), frame.get("args") or {}
        params = frame.get("params") or {}
        if name == "roll":
            status, result = 201, await self.roll(table, params)
        elif name == "character.move":
            status, result = 201, await self.move(int(args["cid"]), str(args["move"]))
        elif name == "token.move":
            result = await self.token(table, int(args["map_id"]), int(args["token_id"]), params)
            status = 200
        else:
            return {"type": "error", "key": frame.get("key"), "status": 400, "code": "unknown"}
        return {"type": "ack", "key": frame.get("key"), "status": status, "result": result}

    async def roll(self, table: int, body: dict[str, Any]) -> dict[str, Any]:
        faces = [random.randint(1, 6), random.randint(1, 6)]
        payload = {
            "notation": "2d6+1",
            "label": str(body.get("label", ""))[:120],
            "total": sum(faces) + 1,
            "text": f"2d6 ({faces[0]}, {faces[1]}) + 1 = {sum(faces) + 1}",
            "terms": [{"dice": "2d6", "faces": faces}],
            "actor_name": "bench",
        }
        payload["roll_id"] = await self._broadcast(table, "roll", payload)
        return payload

    async def move(self, cid: int, move: str) -> dict[str, Any]:
        faces = [random.randint(1, 6), random.randint(1, 6)]
        total = sum(faces)
        band = "10+" if total >= 10 else "7-9" if total >= 7 else "6-"
        payload = {
            "character_id": cid,
            "character_name": "bench",
            "move_name": {"ru": move, "en": move},
            "pending_id": None,
            "resolves": None,
            "outcome": {"move": move, "total": total, "band": band, "faces": faces},
        }
        await self._broadcast(self.sheet_table.get(cid, 0), "move", payload)
        return {"outcome": payload["outcome"], "pending_id": None}

    async def token(self, table: int, map_id: int, token_id: int, body: dict[str, Any]) -> dict:
        token = {"id": token_id, "col": int(body["col"]), "row": int(body["row"]), "cells": 1}
        payload = {"map_id": map_id, "token": token, "audience": "players"}
        await self._broadcast(table, "map.token", payload)
        return {"token": token, "distance": 1}

    async def _broadcast(self, table: int, kind: str, payload: dict[str, Any]) -> int:
        """Number the event, wrap it as the table does and send it to the table's sockets
        (with a writer: committed first, and a table's events written and sent in order)."""
        ordered = (
            self.locks.setdefault(table, asyncio.Lock())
            if self.writer
            else contextlib.nullcontext()
        )
        async with ordered:
            seq = self.seq.get(table, 0) + 1
            frame = self._frame(table, seq, kind, payload)
            if self.writer is not None:
                await self.writer.write(table, seq, frame)
            self.seq[table] = seq
            message = f'{{"type":"event","prev":{seq - 1},"event":{frame}}}'
            broadcast(self.sockets.get(table, ()), message)
            return seq

    @staticmethod
    def _frame(table: int, seq: int, kind: str, payload: dict[str, Any]) -> str:
        event = {
            "seq": seq,
            "kind": kind,
            "payload": payload,
            "actor": {"id": 0, "name": "bench"},
            "visibility": "everyone",
            "target_id": None,
            "created_at": datetime.now(UTC).isoformat(),
            "hash": "0" * 64,
        }
        return json.dumps(event, ensure_ascii=False)

    async def http(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                method, path, _version = lines[0].split(" ", 2)
                headers = {}
                for line in lines[1:]:
                    if ":" in line:
                        name, value = line.split(":", 1)
                        headers[name.strip().lower()] = value.strip()
                length = int(headers.get("content-length", "0"))
                if length > MAX_BODY:
                    raise ValueError("body too large")
                body = await reader.readexactly(length) if length else b""
                status, data = "404 Not Found", {"detail": "not found"}
                if method == "POST" and (match := ROLL_PATH.match(path)):
                    status, data = (
                        "201 Created",
                        await self.roll(int(match.group(1)), json.loads(body)),
                    )
                elif method == "POST" and (match := MOVE_PATH.match(path)):
                    status, data = (
                        "201 Created",
                        await self.move(int(match.group(1)), match.group(2)),
                    )
                elif method == "POST" and (match := TOKEN_PATH.match(path)):
                    table, map_id, token_id = (int(g) for g in match.groups())
                    status, data = (
                        "200 OK",
                        await self.token(table, map_id, token_id, json.loads(body)),
                    )
                out = json.dumps(data).encode()
                writer.write(
                    f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\n"
                    f"Content-Length: {len(out)}\r\n\r\n".encode()
                    + out
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, ValueError, KeyError, TypeError):
            pass
        finally:
            writer.close()


async def main_async(
    ws_port: int,
    http_port: int,
    max_seconds: float,
    plan: dict[str, Any] | None = None,
    write_dsn: str | None = None,
) -> None:
    writer = None
    if write_dsn:
        writer = Writer(write_dsn)
        await writer.open()
    tables = Tables(plan, writer)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_signal_handler(signal.SIGINT, stop.set)
    http_server = await asyncio.start_server(tables.http, "127.0.0.1", http_port, backlog=1024)
    websocket_server = serve(
        tables.websocket, "127.0.0.1", ws_port, compression=None, max_size=16 * 1024
    )
    async with websocket_server, http_server:
        print("LISTENING", flush=True)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), max_seconds)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ws-port", type=int, required=True)
    parser.add_argument("--http-port", type=int, required=True)
    parser.add_argument("--max-seconds", type=float, required=True, help="hard deadline")
    parser.add_argument("--plan", help="the bench plan: which table each sheet is on")
    parser.add_argument("--write-dsn", help="commit each event to this PostgreSQL first")
    args = parser.parse_args()
    plan = None
    if args.plan:
        with open(args.plan) as f:
            plan = json.load(f)
    asyncio.run(main_async(args.ws_port, args.http_port, args.max_seconds, plan, args.write_dsn))


if __name__ == "__main__":
    main()
