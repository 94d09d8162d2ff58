"""When PostgreSQL or Redis is unreachable, say so: a 503 with a message, not a 500.

An outage is not a bug, and the answer should tell the browser or the script to try again
shortly (``Retry-After``) rather than show a server-error page. ``is_unavailable`` decides
which exceptions mean "a service we depend on is down or restarting"; the middleware turns
them into 503 answers (JSON under /api/, an htmx fragment, or a small page), and the table
socket turns them into an ``unavailable`` error frame (vtt/table/consumers.py).

Exceptions in a view reach ``process_exception``. Exceptions in other middleware (the
session or the user are loaded lazily, often first by a middleware) are turned into a 500
response by Django before an outer middleware sees them, so a ``got_request_exception``
receiver marks the request and the middleware, placed first, swaps that 500 for the 503.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import sys
import threading
import time
from collections.abc import Callable

from django.conf import settings
from django.core.signals import got_request_exception
from django.db import InterfaceError as DjangoInterfaceError
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)

try:  # what daphne (through autobahn) raises on a send to a socket the browser has closed
    from autobahn.exception import Disconnected as _SocketClosed
except ImportError:  # another ASGI server: the spec asks for an OSError subclass
    _SocketClosed = OSError
SOCKET_CLOSED = (OSError, _SocketClosed)

RETRY_AFTER_SECONDS = 5
# PostgreSQL error classes that mean "the server is going away or cannot take you now":
# 08 connection exception, 57P01-57P03 shutdown/starting, 53300 too many connections.
_SQLSTATE_UNAVAILABLE = ("08", "57P01", "57P02", "57P03", "53300")
_last_warning = 0.0


def is_unavailable(exc: BaseException | None) -> bool:
    """True when ``exc`` (or what caused it) means PostgreSQL or Redis cannot be reached."""
    seen = 0
    while exc is not None and seen < 10:
        if _unavailable(exc):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def _unavailable(exc: BaseException) -> bool:
    if isinstance(exc, DjangoInterfaceError):
        return True  # Django's "connection already closed"
    try:
        import psycopg
        import psycopg_pool
    except ImportError:  # SQLite-only installs
        psycopg = psycopg_pool = None
    if psycopg is not None:
        if isinstance(exc, psycopg_pool.PoolTimeout | psycopg.InterfaceError):
            return True
        if isinstance(exc, psycopg.OperationalError):
            state = getattr(exc, "sqlstate", None)
            # No SQLSTATE: the client could not connect or lost the connection.
            return state is None or state.startswith(_SQLSTATE_UNAVAILABLE)
    try:
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeoutError
    except ImportError:
        return False
    if isinstance(exc, RedisConnectionError | RedisTimeoutError):
        return True
    return isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc)


def _is_postgres_error(exc: BaseException | None) -> bool:
    """A psycopg (or psycopg_pool) error anywhere in the chain: PostgreSQL, not Redis or a
    locked SQLite file, which the breaker has nothing to say about."""
    seen = 0
    while exc is not None and seen < 10:
        if type(exc).__module__.startswith("psycopg"):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


class DatabaseBreaker:
    """Answer at once while PostgreSQL is known to be down.

    Without it every request waits the pool's timeout (DB_POOL_TIMEOUT, 10 s) before its 503,
    holding a thread, and every reconnecting socket as long (longer than some clients wait
    for a handshake). Once an outage was seen, a plain connection attempt (libpq's shortest
    timeout, 2 s) decides, at once and then at most once every half second per process; the
    first one that succeeds closes the breaker, and requests use the pool again.
    """

    PROBE_EVERY = 0.5

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.tripped = False
        self._down = False
        self._checked_at = 0.0

    def reset(self) -> None:
        """Tests: forget an outage."""
        with self._lock:
            self.tripped = self._down = False

    def trip(self) -> None:
        """An outage was seen. The next check connects at once: a pool timeout under load
        (PostgreSQL up, every connection busy) must not turn into a burst of 503s."""
        with self._lock:
            self.tripped = True
            self._checked_at = 0.0

    def is_down(self) -> bool:
        if not self.tripped:
            return False
        with self._lock:
            if time.monotonic() - self._checked_at >= self.PROBE_EVERY:
                self._down = not _database_answers()
                self._checked_at = time.monotonic()
                self.tripped = self._down
            return self._down


def _database_answers() -> bool:
    from django.db import connections

    wrapper = connections["default"]
    if wrapper.vendor != "postgresql":
        return True
    import psycopg

    params = wrapper.get_connection_params()
    params["connect_timeout"] = 2
    try:
        psycopg.connect(**params).close()
    except psycopg.Error:
        return False
    return True


BREAKER = DatabaseBreaker()


class DatabaseDown(Exception):
    """Raised instead of waiting for the pool while ``BREAKER`` says PostgreSQL is down."""


def warn(what: str, exc: BaseException) -> None:
    """Remember a database outage (``BREAKER``) and log one line per 10 s, not a traceback
    per request, while a service is down."""
    global _last_warning
    if _is_postgres_error(exc):
        BREAKER.trip()
    now = time.monotonic()
    if now - _last_warning > 10:
        _last_warning = now
        log.warning("%s: a service is unavailable: %s: %s", what, type(exc).__name__, exc)


def unavailable_response(request: HttpRequest) -> HttpResponse:
    """A 503 in the form the caller reads: JSON for the API, a fragment for htmx, a page."""
    # The saved language needs the user row; the cookie is what is left during an outage.
    language = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    if language not in {code for code, _name in settings.LANGUAGES}:
        language = settings.LANGUAGE_CODE
    with translation.override(language):
        message = _(
            "The table is briefly unavailable (the database or Redis is restarting). "
            "Try again in a few seconds."
        )
        return _respond(request, message)


def _respond(request: HttpRequest, message: str) -> HttpResponse:
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"detail": message, "code": "unavailable", "retry_after": RETRY_AFTER_SECONDS},
            status=503,
        )
    elif request.headers.get("HX-Request"):
        response = HttpResponse(
            render_to_string("partials/error.html", {"error": {"message": message}}), status=503
        )
        response["HX-Retarget"] = "#htmx-errors"
        response["HX-Reswap"] = "innerHTML"
    else:
        # No request context: the context processors would read the user (the database).
        response = HttpResponse(render_to_string("503.html", {"message": message}), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class OutageMiddleware:
    """First in MIDDLEWARE: a database or Redis outage anywhere in a request becomes a 503."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code == 500 and getattr(request, "_vtt_outage", False):
            return unavailable_response(request)
        return response

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not is_unavailable(exc):
            return None
        warn(request.path, exc)
        return unavailable_response(request)


class UserOutageMiddleware:
    """Right after AuthenticationMiddleware: load the session and the user here.

    They load lazily, usually first inside another middleware, where Django turns an
    exception into a 500 (with DEBUG, a debug page whose lazy values each wait for the
    database again, for minutes). Loading them here answers an outage with a 503 at once.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path != "/healthz" and BREAKER.is_down():
            return unavailable_response(request)
        try:
            _ = request.user.is_authenticated
        except Exception as exc:
            if not is_unavailable(exc):
                raise
            warn(request.path, exc)
            return unavailable_response(request)
        return self.get_response(request)


@receiver(got_request_exception)
def _mark_outage(sender, request: HttpRequest | None = None, **kwargs) -> None:
    exc = sys.exc_info()[1]
    if request is not None and is_unavailable(exc):
        request._vtt_outage = True


UNAVAILABLE_FRAME = json.dumps(
    {
        "type": "error",
        "code": "unavailable",
        "message": "The table is briefly unavailable (the database or Redis is restarting); "
        "reconnect in a few seconds.",
    }
)
# "Try again later" (RFC 6455's 1013 is not a code daphne lets an application send): the
# browser reconnects with its usual back-off.
CLOSE_UNAVAILABLE = 4503


class SocketOutageGuard:
    """ASGI middleware around the websocket stack: when PostgreSQL or Redis is unreachable
    (loading the session, checking membership, the channel layer, a replay) the socket gets
    an ``unavailable`` error frame and closes with 4503 instead of dying with 1011. The
    browser reconnects with back-off and replays from its last sequence number."""

    def __init__(self, inner: Callable) -> None:
        self.inner = inner

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "websocket":
            return await self.inner(scope, receive, send)
        state = {"connect_seen": False, "accepted": False, "closed": False, "gone": False}

        async def tracking_receive() -> dict:
            message = await receive()
            if message["type"] == "websocket.connect":
                state["connect_seen"] = True
            elif message["type"] == "websocket.disconnect":
                state["gone"] = True
            return message

        async def tracking_send(message: dict) -> None:
            if message["type"] == "websocket.accept":
                state["accepted"] = True
            elif message["type"] == "websocket.close":
                state["closed"] = True
            if state["gone"]:
                return  # the tab is closed: an event for it has nowhere to go
            try:
                await send(message)
            except SOCKET_CLOSED:
                # The browser closed the tab while an event was on its way (the disconnect
                # is still queued for the consumer): drop the frame instead of a traceback.
                if message["type"] not in ("websocket.send", "websocket.close"):
                    raise
                state["gone"] = True
                log.debug("dropped a frame for a closed socket")

        try:
            if BREAKER.tripped and await asyncio.to_thread(BREAKER.is_down):
                raise DatabaseDown("PostgreSQL is down (vtt.core.outage.BREAKER)")
            return await self.inner(scope, tracking_receive, tracking_send)
        except Exception as exc:
            if not (is_unavailable(exc) or isinstance(exc, DatabaseDown)):
                raise
            if not isinstance(exc, DatabaseDown):
                warn("table socket", exc)
            if state["closed"]:
                return None
            try:
                if not state["accepted"]:
                    if not state["connect_seen"]:
                        await receive()  # the handshake's websocket.connect, already queued
                    await send({"type": "websocket.accept"})
                await send({"type": "websocket.send", "text": UNAVAILABLE_FRAME})
                await send({"type": "websocket.close", "code": CLOSE_UNAVAILABLE})
            except Exception:  # the browser went away meanwhile
                log.debug("could not tell a socket about the outage", exc_info=True)
            return None
