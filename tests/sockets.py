"""Driving the table socket in tests with Channels' WebsocketCommunicator: one set of helpers
for the table, rules-state, maps, characters and security tests."""

from __future__ import annotations

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from tests.helpers import session_cookie
from vtt.routing import websocket_urlpatterns

application = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))


async def connect(user, campaign_id: int, cookie: str | None = None) -> WebsocketCommunicator:
    """A connected (accepted) socket; the server may still close it at once (4403, 4429)."""
    headers = [(b"origin", b"http://localhost")]
    if user is not None:
        # database_sync_to_async: the thread's connection goes back when done (on PostgreSQL
        # a checked-out pool connection would outlive the test database).
        cookie = cookie or await database_sync_to_async(session_cookie)(user)
        headers.append((b"cookie", cookie.encode()))
    comm = WebsocketCommunicator(application, f"/ws/campaigns/{campaign_id}/", headers=headers)
    connected, _ = await comm.connect(timeout=5)
    assert connected
    return comm


async def hello(comm: WebsocketCommunicator, last_seq: int = 0) -> dict:
    """Read the welcome, say hello from ``last_seq`` and return the replay frame."""
    welcome = await comm.receive_json_from()
    assert welcome["type"] == "welcome"
    await comm.send_json_to({"type": "hello", "last_seq": last_seq})
    replay = await comm.receive_json_from()
    assert replay["type"] == "replay"
    return replay


async def next_of(comm: WebsocketCommunicator, kind: str, timeout: float = 3) -> dict:
    """The next frame of ``kind``, skipping others (presence, other events)."""
    while True:
        frame = await comm.receive_json_from(timeout=timeout)
        if frame["type"] == kind:
            return frame


async def command(comm: WebsocketCommunicator, name: str, key: str, params=None, args=None) -> dict:
    """Send a command frame and return its answer (ack or error), skipping pushed events."""
    frame = {"type": "command", "command": name, "key": key}
    if params is not None:
        frame["params"] = params
    if args is not None:
        frame["args"] = args
    await comm.send_json_to(frame)
    while True:
        answer = await comm.receive_json_from(timeout=5)
        if answer["type"] in ("ack", "error") and answer.get("key") == key:
            return answer


async def events_until_chat(comm: WebsocketCommunicator) -> list[dict]:
    """Every event frame up to the chat message that closes a test's actions."""
    seen = []
    while True:
        event = (await next_of(comm, "event"))["event"]
        if event["kind"] == "chat":
            return seen
        seen.append(event)
