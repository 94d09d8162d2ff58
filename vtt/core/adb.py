"""PostgreSQL connections for code that runs on the event loop (vtt/table/fastroll.py).

Django's ORM is synchronous: on daphne every query of a request runs in a worker thread, and
each hop between that thread and the event loop waits for the GIL and the loop, both busy with
the table's websockets. The roll path instead talks to PostgreSQL with psycopg's asynchronous
connection, on the loop itself. The connections are made from Django's own connection
parameters (same database, same type adapters), so a row written here is the row the ORM would
write and read back.

A few connections per process and loop, kept idle between requests; a connection that broke
or was left inside a statement is closed, never reused. ``slots`` bounds how many are in use at
once: past it a request waits on the loop, where waiting costs nothing.
"""

from __future__ import annotations

import asyncio
from collections import deque
from contextlib import asynccontextmanager
from typing import Any

import psycopg
from django.conf import settings
from django.db import connections


class Pool:
    def __init__(self, slots: int) -> None:
        self.slots = asyncio.Semaphore(slots)
        self.idle: deque[psycopg.AsyncConnection] = deque()

    async def _connect(self) -> psycopg.AsyncConnection:
        params: dict[str, Any] = connections["default"].get_connection_params()
        params.pop("cursor_factory", None)
        options = params.get("options", "")
        params["options"] = f"{options} -c TimeZone=UTC".strip()
        # Server-side binding with every statement prepared on first use: the few statements
        # of the hot path are parsed and planned once per connection, not once per request.
        params["prepare_threshold"] = 0
        conn = await psycopg.AsyncConnection.connect(**params, autocommit=True)
        return conn

    @asynccontextmanager
    async def connection(self, timeout: float):
        """A connection in autocommit mode (``conn.transaction()`` for a transaction)."""
        if self.slots.locked():
            await asyncio.wait_for(self.slots.acquire(), timeout)
        else:
            # A free slot is taken without suspending: wait_for would wrap the acquire in a
            # task and give the loop a turn first, in which a busy process delivers other
            # tables' frames (docs/performance.md, session 6).
            await self.slots.acquire()
        try:
            conn = None
            while self.idle and conn is None:
                conn = self.idle.pop()
                if conn.closed:
                    conn = None
            if conn is None:
                conn = await self._connect()
            try:
                yield conn
            finally:
                # Idle and whole: back to the pool (a refused request or a failed statement
                # leaves it so in autocommit). Broken, or cancelled mid-statement: closed.
                idle = conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
                if idle and not conn.broken and not conn.closed:
                    self.idle.append(conn)
                else:
                    await conn.close()
        finally:
            self.slots.release()

    async def close(self) -> None:
        while self.idle:
            await self.idle.pop().close()


_pools: dict[int, Pool] = {}


def pool() -> Pool:
    """This event loop's pool (tests run one loop each; daphne one for its life)."""
    loop = id(asyncio.get_running_loop())
    found = _pools.get(loop)
    if found is None:
        found = _pools[loop] = Pool(settings.FAST_ROLLS_CONNECTIONS)
    return found


async def close_pool() -> None:
    """Close this loop's idle connections (tests: before the test database is dropped)."""
    found = _pools.pop(id(asyncio.get_running_loop()), None)
    if found is not None:
        await found.close()
