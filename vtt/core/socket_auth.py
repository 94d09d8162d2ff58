"""Scripts at the table: the socket authenticated by an API token in a header.

A bot follows and acts at a table with the same frames and commands as a browser, so it needs
the socket, and a script has no session cookie. It sends ``Authorization: Token <key>`` (DRF's
``rest_framework.authtoken`` token, the one the HTTP API takes) with the handshake; this
middleware, inside Channels' ``AuthMiddlewareStack``, replaces the session user with the token's
owner and marks the scope ``auth: "token"``. Browsers cannot set headers on a websocket, so a
page never takes this path, and a session user is untouched when the header is absent.

A bad token (unknown key, inactive user, a malformed header) refuses the handshake (HTTP 403,
as Channels' ``WebsocketDenier``): the socket is not opened at all, rather than accepted as an
anonymous visitor and closed 4403. A script then learns at once that its credential is wrong,
not that it is "not a member", and a socket without an Origin (allowed for a token only,
vtt/core/origin.py) never runs as anyone but the token's owner.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.security.websocket import WebsocketDenier

KEYWORD = "token"


def token_header(scope: dict[str, Any]) -> str | None:
    """The key of an ``Authorization: Token <key>`` header: None without such a header, ""
    when it is malformed (no key, or more than one word after the keyword)."""
    for name, value in scope.get("headers", []):
        if name.lower() != b"authorization":
            continue
        parts = value.decode("latin1").split()
        if not parts or parts[0].lower() != KEYWORD:
            return None  # another scheme: not ours to judge
        return parts[1] if len(parts) == 2 else ""
    return None


def _user_for(key: str) -> Any | None:
    """The token's active owner, or None (as DRF's ``TokenAuthentication`` decides)."""
    from rest_framework.authtoken.models import Token  # models: only once apps are loaded

    if not key:
        return None
    token = Token.objects.select_related("user").filter(key=key).first()
    if token is None or not token.user.is_active:
        return None
    return token.user


class TokenAuthMiddleware:
    """Set ``scope["user"]`` from an API token header; refuse the handshake on a bad one."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        key = token_header(scope)
        if key is None:
            return await self.inner(scope, receive, send)
        user = await database_sync_to_async(_user_for)(key)
        if user is None:
            return await WebsocketDenier()(scope, receive, send)
        return await self.inner(dict(scope, user=user, auth="token"), receive, send)
