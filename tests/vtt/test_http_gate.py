"""A web process works on a bounded number of requests; one that waited too long for its turn
gets a quick 503 "busy" instead of a thread queued for the GIL and a database connection."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.test import override_settings

from vtt.core.asgi_http import OneHopASGIHandler

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db]


def _scope(path: str, language: str | None = None) -> dict:
    headers = [(b"host", b"testserver")]
    if language:
        headers.append((b"cookie", f"{settings.LANGUAGE_COOKIE_NAME}={language}".encode()))
    return {
        "type": "http",
        "method": "POST",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": headers,
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 5000),
        "scheme": "http",
        "root_path": "",
    }


async def _call(handler: OneHopASGIHandler, path: str, language: str | None = None) -> dict:
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    await handler(_scope(path, language), receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    headers = {k.decode().lower(): v.decode() for k, v in start["headers"]}
    return {"status": start["status"], "body": body, "headers": headers}


def _slow_handler() -> OneHopASGIHandler:
    handler = OneHopASGIHandler()

    def slow(scope, body_file):
        time.sleep(0.6)
        return HttpResponse("done")

    handler._respond = slow
    return handler


@override_settings(HTTP_MAX_IN_FLIGHT=1, HTTP_QUEUE_SECONDS=0.2)
async def test_past_the_bound_a_request_waits_then_gets_a_quick_busy_503():
    handler = _slow_handler()
    first = asyncio.create_task(_call(handler, "/api/campaigns/1/rolls/"))
    await asyncio.sleep(0.05)
    started = time.monotonic()
    second = await _call(handler, "/api/campaigns/1/rolls/", language="en")
    waited = time.monotonic() - started
    assert second["status"] == 503
    body = json.loads(second["body"])
    assert body["code"] == "busy" and "busy" in body["detail"]
    assert second["headers"]["retry-after"] == "5"
    assert 0.15 < waited < 0.5  # answered after its wait, not after the slow request
    assert (await first)["status"] == 200
    assert handler.refused == 1


@override_settings(HTTP_MAX_IN_FLIGHT=1, HTTP_QUEUE_SECONDS=2)
async def test_a_request_that_gets_its_turn_in_time_is_served():
    handler = _slow_handler()
    results = await asyncio.gather(*(_call(handler, "/api/x/") for _ in range(2)))
    assert [r["status"] for r in results] == [200, 200]
    assert handler.refused == 0


@override_settings(HTTP_MAX_IN_FLIGHT=1, HTTP_QUEUE_SECONDS=0.1)
async def test_the_health_probe_never_queues_and_busy_speaks_russian_by_default():
    handler = _slow_handler()
    busy = asyncio.create_task(_call(handler, "/api/a/"))
    await asyncio.sleep(0.05)
    refused, health = await asyncio.gather(_call(handler, "/api/b/"), _call(handler, "/healthz"))
    assert health["status"] == 200  # served beside the busy one
    assert refused["status"] == 503
    assert "занят" in json.loads(refused["body"])["detail"]
    await busy
