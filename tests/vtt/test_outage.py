"""PostgreSQL or Redis down: 503 answers and socket error frames instead of 500s and dead
sockets (vtt/core/outage.py). The real outages run in tests/chaos; these pin the pieces."""

from __future__ import annotations

import json
import sqlite3

import psycopg
import psycopg.errors
import pytest
from channels.testing import WebsocketCommunicator
from django.db import OperationalError as DjangoOperationalError
from django.test import RequestFactory
from django.utils.functional import SimpleLazyObject
from psycopg_pool import PoolTimeout
from redis.exceptions import ConnectionError as RedisConnectionError

from tests.integration.procs import free_port
from vtt.core import outage
from vtt.core.ratelimit import TokenBucket, reset_local_buckets


def _wrapped(inner: BaseException) -> DjangoOperationalError:
    """What Django raises: its own OperationalError with the driver's error as the cause."""
    try:
        try:
            raise inner
        except Exception as exc:
            raise DjangoOperationalError(str(exc)) from exc
    except DjangoOperationalError as outer:
        return outer


@pytest.mark.parametrize(
    ("exc", "expected"),
    [
        (PoolTimeout("couldn't get a connection after 10.00 sec"), True),
        (_wrapped(psycopg.OperationalError("connection failed: Connection refused")), True),
        (_wrapped(psycopg.errors.AdminShutdown("terminating connection")), True),
        (_wrapped(psycopg.errors.CannotConnectNow("the database system is starting up")), True),
        (_wrapped(psycopg.InterfaceError("the connection is closed")), True),
        (RedisConnectionError("Error 111 connecting to 127.0.0.1:6379."), True),
        (_wrapped(sqlite3.OperationalError("database is locked")), True),
        # real errors stay errors: a deadlock, a missing table, a constraint, a bug
        (_wrapped(psycopg.errors.DeadlockDetected("deadlock detected")), False),
        (_wrapped(sqlite3.OperationalError("no such table: table_roll")), False),
        (psycopg.errors.UniqueViolation("duplicate key"), False),
        (ValueError("bug"), False),
    ],
)
def test_only_outages_count_as_unavailable(exc, expected):
    assert outage.is_unavailable(exc) is expected


@pytest.fixture(autouse=True)
def _forget_outages():
    """The process-wide breaker trips whenever an outage is handled; keep tests apart."""
    outage.BREAKER.reset()
    yield
    outage.BREAKER.reset()


@pytest.fixture
def rf() -> RequestFactory:
    return RequestFactory()


def _boom(_request):
    raise _wrapped(psycopg.OperationalError("connection failed: Connection refused"))


def test_api_page_and_htmx_callers_each_get_a_readable_503(rf):
    middleware = outage.OutageMiddleware(_boom)
    exc = _wrapped(PoolTimeout("couldn't get a connection"))

    api = middleware.process_exception(rf.post("/api/campaigns/1/rolls/"), exc)
    assert api.status_code == 503 and api["Retry-After"] == "5"
    body = json.loads(api.content)
    assert body["code"] == "unavailable" and body["detail"] and body["retry_after"] == 5

    page = middleware.process_exception(rf.get("/campaigns/1/table/"), exc)
    assert page.status_code == 503 and page["Content-Type"].startswith("text/html")
    assert b"<h1>" in page.content and b"Traceback" not in page.content

    htmx = middleware.process_exception(rf.post("/x/", HTTP_HX_REQUEST="true"), exc)
    assert htmx.status_code == 503 and htmx["HX-Retarget"] == "#htmx-errors"
    assert b'role="alert"' in htmx.content

    assert middleware.process_exception(rf.get("/"), ValueError("a bug")) is None


def test_the_message_follows_the_language_cookie(rf):
    exc = PoolTimeout("couldn't get a connection")
    middleware = outage.OutageMiddleware(_boom)
    ru = json.loads(middleware.process_exception(rf.get("/api/x/"), exc).content)["detail"]
    en_request = rf.get("/api/x/")
    en_request.COOKIES["vtt_language"] = "en"
    en = json.loads(middleware.process_exception(en_request, exc).content)["detail"]
    assert en.startswith("The table is briefly unavailable")
    assert ru != en and "недоступ" in ru


def test_a_user_that_cannot_be_loaded_is_a_503_not_a_500(rf):
    request = rf.get("/campaigns/")
    request.user = SimpleLazyObject(lambda: _boom(request))
    response = outage.UserOutageMiddleware(lambda r: pytest.fail("must not run"))(request)
    assert response.status_code == 503


def test_a_500_caused_by_an_outage_below_becomes_a_503(rf, settings):
    """Django turns an exception inside a middleware into a 500 before outer middleware sees
    it; the got_request_exception receiver marks the request so the outer one can swap it."""
    from django.core.handlers.exception import convert_exception_to_response

    settings.DEBUG = False
    inner = convert_exception_to_response(_boom)
    response = outage.OutageMiddleware(inner)(rf.get("/campaigns/"))
    assert response.status_code == 503
    bug = convert_exception_to_response(lambda r: 1 / 0)
    assert outage.OutageMiddleware(bug)(rf.get("/campaigns/")).status_code == 500


@pytest.mark.django_db
def test_the_breaker_answers_at_once_then_closes_when_the_database_answers():
    breaker = outage.DatabaseBreaker()
    assert breaker.is_down() is False
    breaker.trip()
    assert breaker.tripped is True
    assert breaker.is_down() is False  # checked at once: the test database answers
    assert breaker.tripped is False


@pytest.mark.asyncio
@pytest.mark.parametrize("accept_first", [False, True])
async def test_a_socket_hit_by_an_outage_gets_an_error_frame_and_close_4503(accept_first):
    async def app(scope, receive, send):
        assert (await receive())["type"] == "websocket.connect"
        if accept_first:
            await send({"type": "websocket.accept"})
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379.")

    communicator = WebsocketCommunicator(outage.SocketOutageGuard(app), "/ws/campaigns/1/")
    connected, _subprotocol = await communicator.connect()
    assert connected
    frame = json.loads(await communicator.receive_from())
    assert frame["type"] == "error" and frame["code"] == "unavailable" and frame["message"]
    closed = await communicator.receive_output()
    assert closed == {"type": "websocket.close", "code": 4503}


@pytest.mark.asyncio
async def test_other_socket_errors_still_propagate():
    async def app(scope, receive, send):
        raise ValueError("a bug")

    communicator = WebsocketCommunicator(outage.SocketOutageGuard(app), "/ws/campaigns/1/")
    with pytest.raises(ValueError):
        await communicator.connect()


def test_rate_limits_fall_back_to_the_process_while_redis_is_down(settings):
    """Redis unreachable: rolls are limited per process instead of refused with a 500."""
    from vtt.core.ratelimit import RateLimited

    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
        }
    }
    reset_local_buckets()
    bucket = TokenBucket("outage-test", burst=2, per_second=0.001)
    bucket.hit("u1")
    bucket.hit("u1")
    with pytest.raises(RateLimited):
        bucket.hit("u1")


def test_rate_limits_are_shared_by_every_process_through_redis():
    """The bucket lives in Redis when Redis is the cache: forgetting this process's state
    (another web process has none of it) changes nothing."""
    import os

    from vtt.core.ratelimit import RateLimited, _redis_client

    if not os.environ.get("REDIS_URL"):
        pytest.skip("needs REDIS_URL; CI's second pass sets it")
    assert _redis_client() is not None
    bucket = TokenBucket("shared-test", burst=1, per_second=0.001)
    bucket.hit("u1")
    reset_local_buckets()
    with pytest.raises(RateLimited):
        bucket.hit("u1")


@pytest.mark.asyncio
async def test_a_frame_for_a_tab_just_closed_is_dropped_without_a_traceback():
    """Issue 18 item 15: closing a tab logged «Attempt to send on a closed protocol»: an event
    reached the consumer after the browser had gone but before the disconnect did. daphne's
    send raises autobahn's Disconnected; the guard drops the frame and the consumer ends
    normally on the disconnect that follows."""
    from autobahn.exception import Disconnected

    delivered = []
    inbox = [{"type": "websocket.connect"}, {"type": "websocket.disconnect", "code": 1001}]

    async def server_receive():
        return inbox.pop(0)

    async def server_send(message):
        if message["type"] == "websocket.send":
            raise Disconnected("Attempt to send on a closed protocol")
        delivered.append(message)

    ended = []

    async def app(scope, receive, send):
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": "an event for the closed tab"})
        await send({"type": "websocket.send", "text": "and the next one"})
        assert (await receive())["type"] == "websocket.disconnect"
        ended.append(True)

    await outage.SocketOutageGuard(app)({"type": "websocket"}, server_receive, server_send)
    assert ended == [True]
    assert delivered == [{"type": "websocket.accept"}]
