"""Django's HTTP handler for daphne, with the whole request in one worker-thread visit.

Django's own ``ASGIHandler`` runs a project whose middleware and views are synchronous by
hopping between the event loop and a worker thread several times per request: the signal
``request_started``, the middleware above the lowest synchronous one, URL resolution and
``process_view`` back on the loop, the view in the thread again, the response back, and
``close()`` once more. Each hop waits for the event loop, which on a busy table is also
delivering every websocket frame, so under load a roll's POST spent more time queued for the
loop than running (docs/performance.md). This handler loads the middleware in synchronous
mode and runs ``request_started``, the middleware, the view and (for ordinary responses)
``close()`` in a single ``sync_to_async`` call: one hop there, one back. Streaming responses
are closed after they are sent, as Django does.

What it gives up: Django's check for a client disconnect while a view runs, which only
cancels *async* views; this project has none on this path.

It also bounds the work in progress (``HTTP_MAX_IN_FLIGHT`` requests per process, by default
the database pool's size). Past that, requests wait their turn on the event loop, where waiting
costs nothing, instead of each holding a thread that queues for the GIL and a database
connection; one that waited ``HTTP_QUEUE_SECONDS`` is answered 503 "busy" with Retry-After at
once. Without the bound an overloaded process spent its CPU on requests whose clients had
already given up, and served a fraction of its capacity (docs/performance.md).
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.http import FileResponse, HttpResponseBase
from django.urls import set_script_prefix

UNGATED = ("/healthz", "/static/")  # the load balancer's probe must not queue behind rolls


class OneHopASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self.max_in_flight = settings.HTTP_MAX_IN_FLIGHT
        self.queue_seconds = settings.HTTP_QUEUE_SECONDS
        self._gates: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}
        self.refused = 0

    def _gate(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        gate = self._gates.get(loop)
        if gate is None:
            gate = self._gates[loop] = asyncio.Semaphore(self.max_in_flight)
        return gate

    async def handle(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        if scope["path"].startswith(UNGATED) or self.max_in_flight <= 0:
            await self._serve(scope, body_file, send)
            return
        gate = self._gate()
        try:
            await asyncio.wait_for(gate.acquire(), self.queue_seconds)
        except TimeoutError:
            self.refused += 1
            await self._busy(scope, body_file, send)
            return
        try:
            await self._serve(scope, body_file, send)
        finally:
            gate.release()

    async def _busy(self, scope: dict[str, Any], body_file: Any, send: Any) -> None:
        from vtt.core.outage import busy_response

        try:
            request, response = self.create_request(scope, body_file)
            if request is not None:
                response = busy_response(request)
            await self.send_response(response, send)
        finally:
            body_file.close()

    async def _serve(self, scope: dict[str, Any], body_file: Any, send: Any) -> None:
        try:
            response = await sync_to_async(self._respond, thread_sensitive=True)(scope, body_file)
            try:
                await self.send_response(response, send)
            finally:
                if response.streaming:
                    await sync_to_async(response.close, thread_sensitive=True)()
        finally:
            body_file.close()

    def _respond(self, scope: dict[str, Any], body_file: Any) -> HttpResponseBase:
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size
        if not response.streaming:
            # The body is in memory: finish the request (request_finished returns the
            # database connection to the pool) before leaving the thread.
            response.close()
        return response


def get_http_application() -> OneHopASGIHandler:
    """Like ``django.core.asgi.get_asgi_application``, with the one-hop handler."""
    import django

    django.setup(set_prefix=False)
    return OneHopASGIHandler()


def warm_up() -> None:
    """Import every view before the first request instead of during it.

    Django imports the URLconf, and with it every view, API and serializer module, on the
    first request a process serves; with no bytecode cache (read-only images,
    PYTHONDONTWRITEBYTECODE) that compiles them too. The first requests after a (re)start
    then wait seconds, exactly when every browser reconnects at once."""
    from django.urls import get_resolver

    resolver = get_resolver()
    resolver.url_patterns  # noqa: B018 (the property imports the URLconf)
    # The first reverse() builds the whole URLconf's reverse index (a quarter of a second
    # here), and every token move reverses: do it now, not inside a player's first drag.
    resolver.reverse_dict  # noqa: B018


def skip_twisted_form_parsing() -> None:
    """Stop Twisted parsing every POST body into ``request.args`` for daphne.

    Twisted's ``Request.requestReceived`` parses the Content-Type of every POST with the
    ``email`` package and then the body itself (urlencoded, or multipart: a whole map upload
    through ``email.message_from_bytes``) into ``args``. Daphne never reads ``args``: it hands
    the raw body to the application, which parses it again. The Content-Type parse alone was
    about 3% of a web process's CPU at 100 rolls a second (docs/performance.md)."""
    try:
        from daphne.http_protocol import WebRequest
    except ImportError:  # daphne is a dependency; under another ASGI server, nothing to do
        return
    if getattr(WebRequest, "_vtt_no_form_parsing", False):
        return
    init = WebRequest.__init__

    @functools.wraps(init)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("parsePOSTFormSubmission", False)
        init(self, *args, **kwargs)

    WebRequest.__init__ = __init__
    WebRequest._vtt_no_form_parsing = True
