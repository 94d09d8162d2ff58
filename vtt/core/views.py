"""Health and small site-wide views."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    JsonResponse,
)
from django.templatetags.static import static
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.http import last_modified
from django.views.i18n import JavaScriptCatalog

from vtt.core.outage import BREAKER
from vtt.core.worker import live_workers


def _check_database() -> dict:
    start = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"ok": True, "vendor": connection.vendor, "ms": _ms(start)}


async def _check_channel_layer() -> dict:
    layer = get_channel_layer()
    start = time.perf_counter()
    channel = await layer.new_channel("healthz.")
    await layer.send(channel, {"type": "healthz.ping"})
    message = await asyncio.wait_for(layer.receive(channel), timeout=2)
    return {
        "ok": message.get("type") == "healthz.ping",
        "backend": type(layer).__name__,
        "ms": _ms(start),
    }


def _check_worker() -> dict:
    workers = live_workers()
    return {"ok": bool(workers), "workers": workers}


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 2)


async def _guard(name: str, coro) -> dict:
    try:
        return await coro
    except Exception as exc:
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}


async def healthz(request: HttpRequest) -> JsonResponse:
    """Database, channel layer and worker state; 200 when all are up, 503 otherwise."""
    if BREAKER.tripped and await asyncio.to_thread(BREAKER.is_down):
        # PostgreSQL is known to be down (vtt/core/outage.py): answer now, not after two
        # pool timeouts (the worker check reads the database too).
        down = {"ok": False, "error": "the database does not answer"}
        checks = {
            "database": down,
            "channel_layer": await _guard("channel_layer", _check_channel_layer()),
            "worker": {"ok": False, "error": "unknown while the database does not answer"},
        }
    else:
        checks = {
            "database": await _guard("database", database_sync_to_async(_check_database)()),
            "channel_layer": await _guard("channel_layer", _check_channel_layer()),
            "worker": await _guard("worker", database_sync_to_async(_check_worker)()),
        }
    healthy = all(c["ok"] for c in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", "checks": checks},
        status=200 if healthy else 503,
    )


# --- error pages: JSON under /api/, HTML elsewhere -------------------------------------------


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def _api_error(status: int, code: str, detail: str) -> JsonResponse:
    return JsonResponse({"detail": detail, "code": code}, status=status)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's own refusals (an oversized body, a bad Host) reach API clients as JSON too."""
    if _is_api(request):
        return _api_error(400, "bad_request", _("The request could not be read."))
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return _api_error(403, "forbidden", _("You may not do that."))
    return defaults.permission_denied(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A path no API route matches (``/api/campaigns/-1/``) is a JSON 404, not an HTML page."""
    if _is_api(request):
        return _api_error(404, "not_found", _("Not found."))
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return _api_error(500, "server_error", _("Server error. It has been logged."))
    return defaults.server_error(request)


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page links to; send them to the icon."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


# The catalogues change only with a deployment: a restart starts a new Last-Modified.
_STARTED = time.time()
# How long a browser keeps a language's catalogue before it asks again (If-Modified-Since).
JS_CATALOGUE_MAX_AGE = 3600


@last_modified(lambda request, language: datetime.fromtimestamp(_STARTED, tz=UTC))
def javascript_catalogue(request: HttpRequest, language: str) -> HttpResponse:
    """Django's JavaScript catalogue (``django.gettext`` for static/js/lib/i18n.js) for one
    language named in the URL, so a browser and a proxy may cache it per language."""
    if language not in dict(settings.LANGUAGES):
        raise Http404
    with translation.override(language):
        # Only the project's catalogue (LOCALE_PATHS, always read): with no package named,
        # Django would also merge every installed app's strings, the admin's among them.
        response = JavaScriptCatalog.as_view(packages=["vtt.core"])(request)
    patch_cache_control(response, public=True, max_age=JS_CATALOGUE_MAX_AGE)
    return response
