"""The load generator's keep-alive pool: never into a connection the server closed, and each
user on connections of their own, as browsers are."""

from __future__ import annotations

import asyncio

import pytest

from bench.loadgen import RawPool

RESPONSE = b"HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok"


async def _server(close_after_answer: bool):
    connections: list[int] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(1)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
                await reader.readexactly(length)
                writer.write(RESPONSE)
                await writer.drain()
                if close_after_answer:  # as Twisted does to a connection idle for 60 s
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    return server, f"http://127.0.0.1:{port}", connections


@pytest.mark.asyncio
async def test_a_connection_the_server_closed_is_not_reused():
    server, base, connections = await _server(close_after_answer=True)
    pool = RawPool(base)
    for _ in range(3):
        assert await pool.post("/x", b"{}", {}) == (201, "ok")
        await asyncio.sleep(0.05)  # the server's FIN arrives
    assert len(connections) == 3 and pool.expired == 2
    pool.close()
    server.close()


@pytest.mark.asyncio
async def test_an_idle_connection_expires_and_a_fresh_one_keeps_alive():
    server, base, connections = await _server(close_after_answer=False)
    pool = RawPool(base)
    pool.KEEPALIVE_EXPIRY = 0.1
    assert await pool.post("/x", b"{}", {}) == (201, "ok")
    assert await pool.post("/x", b"{}", {}) == (201, "ok")
    assert len(connections) == 1  # kept alive
    await asyncio.sleep(0.2)
    assert await pool.post("/x", b"{}", {}) == (201, "ok")
    assert len(connections) == 2 and pool.expired == 1
    pool.close()
    server.close()


@pytest.mark.asyncio
async def test_each_user_keeps_connections_of_their_own():
    server, base, connections = await _server(close_after_answer=False)
    pool = RawPool(base)
    for _ in range(3):
        for user in ("Token a", "Token b", "Token c"):
            assert await pool.post("/x", b"{}", {"Authorization": user}) == (201, "ok")
    assert len(connections) == 3  # one per user, each kept alive for its next request
    pool.close()
    server.close()
