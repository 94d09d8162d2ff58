"""Helpers for driving the table socket with channels' WebsocketCommunicator."""

from __future__ import annotations

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from tests.helpers import session_cookie
from vtt.routing import websocket_urlpatterns

application = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))


async def open_socket(user, campaign_id: int, cookie: str | None = None) -> WebsocketCommunicator:
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


async def next_of(comm: WebsocketCommunicator, kind: str, timeout: float = 3) -> dict:
    """The next frame of ``kind``, skipping others (presence gossip)."""
    while True:
        frame = await comm.receive_json_from(timeout=timeout)
        if frame["type"] == kind:
            return frame
