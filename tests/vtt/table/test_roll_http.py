"""A roll through the whole HTTP stack (Django's ASGI handler, middleware, DRF), as daphne
serves it: the rolls API and the roll bar's htmx form write, chain, push and answer, and every
refusal writes nothing. The concurrency cases need PostgreSQL (row locks)."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from dataclasses import dataclass
from urllib.parse import urlencode

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.testing import HttpCommunicator, WebsocketCommunicator
from django.conf import settings
from django.core.asgi import get_asgi_application
from django.db import connection, connections
from django.middleware.csrf import _get_new_csrf_string
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token

from tests.conftest import make_user
from tests.helpers import session_cookie
from vtt.campaigns.models import Campaign, Membership, Role
from vtt.core import ratelimit
from vtt.routing import websocket_urlpatterns
from vtt.table import services
from vtt.table.events import verify_chain
from vtt.table.models import EventCursor, Roll, TableEvent

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.timeout(120),
]

HOST = "localhost"
TIMEOUT = 20


def _needs_postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs DATABASE_URL (PostgreSQL): concurrent appends wait on row locks")


# --- fixtures ------------------------------------------------------------------------------------


@pytest.fixture
def fresh(table):
    """The shared table with no event yet (no cursor row)."""
    ratelimit.reset_local_buckets()
    return table


@pytest.fixture
def tbl(fresh):
    """The table with its log started (a cursor at 0), as after any first event."""
    EventCursor.objects.get_or_create(campaign=fresh.campaign)
    return fresh


@pytest.fixture
def tokens(fresh) -> dict[str, str]:
    """An API token for every member and the outsider."""
    roles = ("referee", "player", "other_player", "observer", "outsider")
    return {role: Token.objects.create(user=getattr(fresh, role)).key for role in roles}


@pytest_asyncio.fixture
async def app(fresh):
    """Django's stock ASGI handler, as vtt/asgi.py serves HTTP. Afterwards, before the test
    database goes, give back the worker thread's Django connection."""
    yield get_asgi_application()
    # the ORM calls of the test ran in asgiref's worker thread: give its connection back
    await sync_to_async(connections.close_all)()


# --- helpers -------------------------------------------------------------------------------------


@dataclass
class Answer:
    status: int
    headers: list[tuple[str, str]]
    body: bytes

    def json(self) -> dict:
        return json.loads(self.body)

    def header(self, name: str) -> str | None:
        for key, value in self.headers:
            if key.lower() == name.lower():
                return value
        return None


async def post(
    app,
    campaign_id: int,
    body: dict | bytes,
    *,
    token: str | None = None,
    cookies: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
    query: str = "",
) -> Answer:
    """A POST to the rolls API (JSON)."""
    raw = body if isinstance(body, bytes) else json.dumps(body, ensure_ascii=False).encode()
    sent = {"content-type": "application/json"}
    if token is not None:
        sent["authorization"] = f"Token {token}"
    sent.update(headers or {})
    path = f"/api/campaigns/{campaign_id}/rolls/" + (f"?{query}" if query else "")
    return await send(app, path, raw, sent, cookies)


async def post_form(
    app,
    campaign_id: int,
    data: dict[str, str],
    *,
    cookies: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
    htmx: bool = True,
) -> Answer:
    """A POST of the table page's roll bar (a form, sent by htmx)."""
    sent = {"content-type": "application/x-www-form-urlencoded"}
    if htmx:
        sent["hx-request"] = "true"
    sent.update(headers or {})
    raw = urlencode(data).encode()
    return await send(app, f"/campaigns/{campaign_id}/table/roll/", raw, sent, cookies)


async def send(
    app, path: str, raw: bytes, headers: dict[str, str], cookies: dict[str, str] | None
) -> Answer:
    sent = {"host": HOST, "content-length": str(len(raw)), **headers}
    if cookies:
        sent["cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
    comm = HttpCommunicator(
        app,
        "POST",
        path,
        body=raw,
        headers=[(k.encode(), v.encode()) for k, v in sent.items()],
    )
    response = await comm.get_response(timeout=TIMEOUT)
    await comm.wait(TIMEOUT)
    return Answer(
        response["status"],
        [(k.decode("latin1"), v.decode("latin1")) for k, v in response["headers"]],
        response["body"],
    )


def _login(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


async def session_for(user) -> dict[str, str]:
    """Cookies for a logged-in browser with its CSRF cookie (the token goes in X-CSRFToken)."""
    return {
        settings.SESSION_COOKIE_NAME: await sync_to_async(_login)(user),
        settings.CSRF_COOKIE_NAME: _get_new_csrf_string(),
    }


def csrf_headers(cookies: dict[str, str], origin: str | None = f"http://{HOST}") -> dict:
    headers = {"x-csrftoken": cookies[settings.CSRF_COOKIE_NAME]}
    if origin is not None:
        headers["origin"] = origin
    return headers


@sync_to_async
def counts(campaign_id: int) -> tuple[int, int]:
    return (
        Roll.objects.filter(campaign_id=campaign_id).count(),
        TableEvent.objects.filter(campaign_id=campaign_id).count(),
    )


async def as_player(app, tbl, tokens, body: dict | bytes, **kw) -> Answer:
    """``post`` with the player's token: most cases here are theirs."""
    return await post(app, tbl.campaign.pk, body, token=tokens["player"], **kw)


async def outcome(answer: Answer, campaign_id: int) -> tuple[int, tuple]:
    """Status, (rolls, events) written."""
    return answer.status, await counts(campaign_id)


@sync_to_async
def last_event(campaign_id: int) -> TableEvent:
    return TableEvent.objects.filter(campaign_id=campaign_id).order_by("-seq").first()


@sync_to_async
def head(campaign_id: int) -> int:
    return EventCursor.objects.get(campaign_id=campaign_id).last_seq


@sync_to_async
def chain(campaign_id: int) -> dict:
    return verify_chain(campaign_id)


@sync_to_async
def archive(campaign: Campaign) -> None:
    Campaign.objects.filter(pk=campaign.pk).update(archived_at=timezone.now())


@sync_to_async
def set_language(user, language: str) -> None:
    type(user).objects.filter(pk=user.pk).update(language=language)


def has_cyrillic(text: str) -> bool:
    return re.search("[а-яё]", text.lower()) is not None


async def refused(app, tbl, status: int, **kw) -> Answer:
    """A request that is refused with ``status``: nothing written."""
    before = await counts(tbl.campaign.pk)
    answer = await post(app, tbl.campaign.pk, kw.pop("body", {"notation": "1d6"}), **kw)
    assert answer.status == status, answer.body
    assert await counts(tbl.campaign.pk) == before
    return answer


ws_application = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))


async def socket_for(user, campaign_id: int) -> WebsocketCommunicator:
    cookie = await sync_to_async(session_cookie)(user)
    comm = WebsocketCommunicator(
        ws_application,
        f"/ws/campaigns/{campaign_id}/",
        headers=[(b"origin", f"http://{HOST}".encode()), (b"cookie", cookie.encode())],
    )
    connected, _ = await comm.connect()
    assert connected
    welcome = await comm.receive_json_from(timeout=TIMEOUT)
    assert welcome["type"] == "welcome"
    await comm.send_json_to({"type": "hello", "last_seq": 0})
    assert (await comm.receive_json_from(timeout=TIMEOUT))["type"] == "replay"
    return comm


async def next_event(comm: WebsocketCommunicator) -> dict:
    while True:
        frame = await comm.receive_json_from(timeout=TIMEOUT)
        if frame["type"] == "event":
            return frame


# --- a roll: the row, the event, the chain, the cursor, the push ---------------------------------


async def test_token_roll_is_written_chained_and_answered(app, tbl, tokens):
    answer = await post(
        app, tbl.campaign.pk, {"notation": "2d6+1", "label": "Атака"}, token=tokens["player"]
    )
    assert answer.status == 201, answer.body
    body = answer.json()
    assert {"roll_id", "notation", "label", "total", "text", "terms", "visibility"} <= set(body)
    assert body["notation"] == "2d6+1" and body["label"] == "Атака"
    assert body["visibility"] == "everyone" and "commitment" not in body
    assert 3 <= body["total"] <= 13 and len(body["terms"]) >= 1

    roll = await sync_to_async(Roll.objects.get)(pk=body["roll_id"])
    assert roll.total == body["total"] and roll.actor_id == tbl.player.pk
    assert roll.campaign_id == tbl.campaign.pk and roll.visibility == "everyone"
    event = await last_event(tbl.campaign.pk)
    assert event.kind == "roll" and event.seq == 1
    assert event.payload["roll_id"] == roll.pk and event.payload["total"] == roll.total
    assert event.actor_id == tbl.player.pk and event.visibility == "everyone"
    assert (await chain(tbl.campaign.pk))["ok"] is True
    assert await head(tbl.campaign.pk) == event.seq


async def test_a_roll_is_pushed_to_a_members_socket(app, tbl, tokens):
    gm = await socket_for(tbl.referee, tbl.campaign.pk)
    try:
        answer = await as_player(app, tbl, tokens, {"notation": "1d20"})
        assert answer.status == 201
        frame = await next_event(gm)
        event = frame["event"]
        assert event["seq"] == 1 and frame["prev"] == 0
        assert event["kind"] == "roll" and event["payload"]["roll_id"] == answer.json()["roll_id"]
        assert event["payload"]["total"] == answer.json()["total"]
        assert event["actor"]["id"] == tbl.player.pk
    finally:
        await gm.disconnect()


# --- session and CSRF ----------------------------------------------------------------------------


@pytest.mark.parametrize("origin", [f"http://{HOST}", None], ids=["origin", "no-origin"])
async def test_session_with_csrf_rolls(app, tbl, origin):
    cookies = await session_for(tbl.player)
    headers = csrf_headers(cookies, origin=origin)
    answer = await post(app, tbl.campaign.pk, {"notation": "1d6"}, cookies=cookies, headers=headers)
    assert await outcome(answer, tbl.campaign.pk) == (201, (1, 1)), answer.body


async def test_session_without_csrf_header_is_403(app, tbl):
    cookies = await session_for(tbl.player)
    answer = await refused(app, tbl, 403, cookies=cookies)
    assert "CSRF" in answer.body.decode()


async def test_session_with_wrong_csrf_token_is_403(app, tbl):
    cookies = await session_for(tbl.player)
    await refused(app, tbl, 403, cookies=cookies, headers={"x-csrftoken": _get_new_csrf_string()})


async def test_session_with_foreign_origin_is_403(app, tbl):
    cookies = await session_for(tbl.player)
    await refused(
        app, tbl, 403, cookies=cookies, headers=csrf_headers(cookies, "http://evil.example")
    )


async def test_session_with_a_changed_password_is_401(app, tbl):
    cookies = await session_for(tbl.player)

    @sync_to_async
    def change_password():
        tbl.player.set_password("another-password-entirely")
        tbl.player.save()

    await change_password()
    await refused(app, tbl, 401, cookies=cookies, headers=csrf_headers(cookies))


# --- refusals: nothing written -------------------------------------------------------------------


async def test_no_credentials_is_401(app, tbl):
    answer = await refused(app, tbl, 401)
    assert answer.header("WWW-Authenticate") == "Token"


async def test_bad_token_is_401(app, tbl):
    await refused(app, tbl, 401, token="0" * 40)


async def test_outsider_is_404(app, tbl, tokens):
    await refused(app, tbl, 404, token=tokens["outsider"])


async def test_observer_is_403(app, tbl, tokens):
    await refused(app, tbl, 403, token=tokens["observer"])


async def test_archived_campaign_is_409(app, tbl, tokens):
    await archive(tbl.campaign)
    await refused(app, tbl, 409, token=tokens["player"])


async def test_unknown_campaign_is_404(app, tbl, tokens):
    before = await counts(tbl.campaign.pk)
    answer = await post(app, tbl.campaign.pk + 1000, {"notation": "1d6"}, token=tokens["player"])
    assert answer.status == 404
    assert await counts(tbl.campaign.pk) == before


async def test_bad_notation_is_400_in_russian(app, tbl, tokens):
    answer = await refused(app, tbl, 400, token=tokens["player"], body={"notation": "2d"})
    body = answer.json()
    assert body.get("code") == "notation_syntax"
    assert has_cyrillic(body["detail"]), body


async def test_bad_notation_follows_the_users_language(app, tbl, tokens):
    await set_language(tbl.player, "en")
    answer = await refused(app, tbl, 400, token=tokens["player"], body={"notation": "2d"})
    assert not has_cyrillic(answer.json()["detail"]), answer.body


@pytest.mark.parametrize("visibility", ["referee", "blind"])
async def test_hidden_roll_publishes_its_commitment(app, tbl, tokens, visibility):
    answer = await as_player(app, tbl, tokens, {"notation": "1d20", "visibility": visibility})
    assert answer.status == 201, answer.body
    body = answer.json()
    assert body["visibility"] == visibility and body["commitment"]
    roll = await sync_to_async(Roll.objects.get)(pk=body["roll_id"])
    assert roll.commitment == body["commitment"] and roll.visibility == visibility
    assert await counts(tbl.campaign.pk) == (1, 2)  # the roll and its commitment's event
    assert (await chain(tbl.campaign.pk))["ok"] is True


async def test_whisper_rolls(app, tbl, tokens):
    answer = await as_player(
        app, tbl, tokens, {"notation": "1d6", "visibility": "whisper", "target_id": tbl.referee.pk}
    )
    assert answer.status == 201
    assert answer.json()["visibility"] == "whisper"


async def test_unknown_field_is_ignored(app, tbl, tokens):
    answer = await post(
        app, tbl.campaign.pk, {"notation": "1d6", "colour": "red"}, token=tokens["player"]
    )
    assert answer.status == 201, answer.body  # DRF ignores fields it does not know
    assert await counts(tbl.campaign.pk) == (1, 1)


@pytest.mark.parametrize(
    ("body", "status"),
    [
        (b"not json", 400),
        (b"[1, 2]", 400),
        (json.dumps({"notation": ""}).encode(), 400),
        (json.dumps({"notation": 5}).encode(), 400),  # strict types (issue 18): not "5"
        (json.dumps({"label": "x"}).encode(), 400),
        (json.dumps({"notation": "1d6", "visibility": "nobody"}).encode(), 400),
        (json.dumps({"notation": "1d6", "label": " padded "}).encode(), 201),
        # issue 18: a lone surrogate or NUL was a 500 (echoed in DRF's error, refused on write)
        (b'{"notation": "1d6", "visibility": "\\ud800"}', 400),
        (b'{"notation": "1d6", "label": "a\\u0000b"}', 400),
        (b'{"notation": "\\udfff"}', 400),
        (b'{"notation": "1d6", "label": NaN}', 400),
    ],
    ids=[
        "not-json",
        "a-list",
        "empty",
        "number",
        "no-notation",
        "bad-visibility",
        "padded",
        "surrogate-visibility",
        "nul-label",
        "surrogate-notation",
        "nan-label",
    ],
)
async def test_unusual_bodies(app, tbl, tokens, body, status):
    before = await counts(tbl.campaign.pk)
    answer = await as_player(app, tbl, tokens, body)
    assert answer.status == status, answer.body
    if status != 201:
        assert await counts(tbl.campaign.pk) == before
    elif b"padded" in body:
        assert answer.json()["label"] == "padded"


async def test_browser_accept_header_is_left_to_drf(app, tbl, tokens):
    answer = await as_player(
        app, tbl, tokens, {"notation": "1d6"}, headers={"accept": "text/html,application/xhtml+xml"}
    )
    assert answer.status == 201
    assert answer.header("Content-Type").startswith("text/html")


async def test_disallowed_host_is_400(app, tbl, tokens):
    await refused(app, tbl, 400, token=tokens["player"], headers={"host": "evil.example"})


async def test_get_on_the_rolls_api_is_405(app, tbl, tokens):
    comm = HttpCommunicator(
        app,
        "GET",
        f"/api/campaigns/{tbl.campaign.pk}/rolls/",
        headers=[
            (b"host", HOST.encode()),
            (b"authorization", f"Token {tokens['player']}".encode()),
        ],
    )
    response = await comm.get_response(timeout=TIMEOUT)
    assert response["status"] == 405


ROLL = json.dumps({"notation": "1d6", "label": "Удар"}, ensure_ascii=False)


async def test_inactive_token_user_is_401(app, tbl, tokens):
    await sync_to_async(type(tbl.player).objects.filter(pk=tbl.player.pk).update)(is_active=False)
    await refused(app, tbl, 401, token=tokens["player"])


async def _chunked(app, campaign_id: int, token: str, chunks: list[bytes]) -> Answer:
    """A request whose body arrives in several ASGI messages."""
    headers = [
        (b"host", HOST.encode()),
        (b"content-type", b"application/json"),
        (b"content-length", str(sum(map(len, chunks))).encode()),
        (b"authorization", f"Token {token}".encode()),
    ]
    comm = HttpCommunicator(app, "POST", f"/api/campaigns/{campaign_id}/rolls/", headers=headers)
    comm.sent_request = True  # the chunks go in by hand
    for i, chunk in enumerate(chunks):
        more = i < len(chunks) - 1
        await comm.send_input({"type": "http.request", "body": chunk, "more_body": more})
    response = await comm.get_response(timeout=TIMEOUT)
    await comm.wait(TIMEOUT)
    return Answer(response["status"], [], response["body"])


async def test_body_in_several_messages_rolls(app, tbl, tokens):
    raw = json.dumps({"notation": "1d6", "label": "по частям"}, ensure_ascii=False).encode()
    answer = await _chunked(app, tbl.campaign.pk, tokens["player"], [raw[:7], raw[7:20], raw[20:]])
    assert answer.status == 201, answer.body
    assert answer.json()["label"] == "по частям"


async def test_a_long_body_in_two_messages_rolls(app, tbl, tokens):
    raw = json.dumps({"notation": "1d6", "label": "длинное"}, ensure_ascii=False).encode()
    raw = raw[:-1] + b" " * 5000 + b"}"  # valid JSON, in two ASGI messages
    half = len(raw) // 2
    answer = await _chunked(app, tbl.campaign.pk, tokens["player"], [raw[:half], raw[half:]])
    assert answer.status == 201, answer.body
    assert answer.json()["label"] == "длинное"
    assert await counts(tbl.campaign.pk) == (1, 1)


# --- idempotency ---------------------------------------------------------------------------------


async def test_idempotency_key_replays_the_first_roll(app, tbl, tokens):
    first = await as_player(
        app, tbl, tokens, {"notation": "1d1000"}, headers={"idempotency-key": "k-1"}
    )
    assert first.status == 201
    assert first.header("Idempotent-Replayed") is None
    again = await as_player(
        app, tbl, tokens, {"notation": "1d1000"}, headers={"idempotency-key": "k-1"}
    )
    assert again.status == 200, again.body
    assert again.header("Idempotent-Replayed") == "true"
    assert again.json()["roll_id"] == first.json()["roll_id"]
    assert again.json()["total"] == first.json()["total"]
    assert await counts(tbl.campaign.pk) == (1, 1)
    roll = await sync_to_async(Roll.objects.get)(pk=first.json()["roll_id"])
    assert roll.idempotency_key == "k-1"


async def test_same_key_from_another_user_is_their_own_roll(app, tbl, tokens):
    for role in ("player", "other_player"):
        answer = await post(
            app,
            tbl.campaign.pk,
            {"notation": "1d6"},
            token=tokens[role],
            headers={"idempotency-key": "shared"},
        )
        assert answer.status == 201
    assert await outcome(answer, tbl.campaign.pk) == (201, (2, 2))


async def test_too_long_idempotency_key_is_400(app, tbl, tokens):
    answer = await refused(
        app, tbl, 400, token=tokens["player"], headers={"idempotency-key": "k" * 101}
    )
    assert answer.json().get("code") == "bad_key"


# --- rate limit ----------------------------------------------------------------------------------


@pytest.mark.parametrize("auth", ["token", "session"])
async def test_burst_of_ten_then_429(app, tbl, tokens, auth):
    if auth == "token":
        kw = {"token": tokens["player"]}
    else:
        cookies = await session_for(tbl.player)
        kw = {"cookies": cookies, "headers": csrf_headers(cookies)}
    statuses = [
        (await post(app, tbl.campaign.pk, {"notation": "1d6"}, **kw)).status for _ in range(10)
    ]
    assert statuses == [201] * 10
    limited = await post(app, tbl.campaign.pk, {"notation": "1d6"}, **kw)
    assert limited.status == 429, limited.body
    assert limited.json()["code"] == "rate_limited" and limited.json()["retry_after"] >= 1
    assert limited.header("Retry-After") == str(limited.json()["retry_after"])
    assert await counts(tbl.campaign.pk) == (10, 10)
    # another user's bucket is their own
    other = await post(app, tbl.campaign.pk, {"notation": "1d6"}, token=tokens["referee"])
    assert other.status == 201


async def test_refused_requests_spend_no_roll_tokens(app, tbl):
    """Refused requests (409: archived) spend nothing from the roll bucket."""
    cookies = await session_for(tbl.player)
    kw = {"cookies": cookies, "headers": csrf_headers(cookies)}
    await archive(tbl.campaign)
    for _ in range(30):
        assert (await post(app, tbl.campaign.pk, {"notation": "1d6"}, **kw)).status == 409
    await sync_to_async(Campaign.objects.filter(pk=tbl.campaign.pk).update)(archived_at=None)
    statuses = [
        (await post(app, tbl.campaign.pk, {"notation": "1d6"}, **kw)).status for _ in range(10)
    ]
    assert statuses == [201] * 10


# --- concurrency (PostgreSQL) --------------------------------------------------------------------


def _extra_members(campaign: Campaign, n: int) -> list[str]:
    keys = []
    for i in range(n):
        user = make_user(f"extra{i}")
        Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
        keys.append(Token.objects.create(user=user).key)
    return keys


def _sync_roll(campaign_id: int, user_id: int) -> int | Exception:
    """A roll through the synchronous service in a thread of its own, as a view would (its
    error, if any, is returned: the log is checked either way)."""
    try:
        campaign = Campaign.objects.get(pk=campaign_id)
        actor = type(campaign.created_by).objects.get(pk=user_id)
        roll, created = services.roll_create(campaign=campaign, actor=actor, notation="1d8")
        assert created
        return roll.pk
    except Exception as exc:
        return exc
    finally:
        connection.close()


@sync_to_async
def roll_log(campaign_id: int) -> tuple[list[dict], set[int]]:
    events = list(
        TableEvent.objects.filter(campaign_id=campaign_id)
        .order_by("seq")
        .values("seq", "kind", "payload")
    )
    rolls = set(Roll.objects.filter(campaign_id=campaign_id).values_list("pk", flat=True))
    return events, rolls


async def test_concurrent_http_and_service_rolls_keep_the_log_gapless(app, tbl):
    _needs_postgres()
    keys = await sync_to_async(_extra_members)(tbl.campaign, 6)
    over_http = [
        post(app, tbl.campaign.pk, {"notation": "1d6", "label": f"{i}"}, token=keys[i % 6])
        for i in range(30)
    ]
    users = [tbl.referee.pk, tbl.player.pk, tbl.other_player.pk] * 4
    in_threads = [
        sync_to_async(_sync_roll, thread_sensitive=False)(tbl.campaign.pk, users[i])
        for i in range(10)
    ]
    results = await asyncio.gather(*over_http, *in_threads)
    answers, sync_results = results[:30], results[30:]

    made = {a.json()["roll_id"] for a in answers if a.status == 201}
    made |= {r for r in sync_results if isinstance(r, int)}
    events, rolls = await roll_log(tbl.campaign.pk)
    n = len(events)
    assert [e["seq"] for e in events] == list(range(1, n + 1))  # no gap, no duplicate
    assert {e["kind"] for e in events} == {"roll"}
    logged = [e["payload"]["roll_id"] for e in events]
    assert len(set(logged)) == n  # one event per roll
    assert set(logged) == rolls == made  # every answered roll logged, nothing else written
    assert (await chain(tbl.campaign.pk))["ok"] is True
    assert await head(tbl.campaign.pk) == n

    failed = [a.body for a in answers if a.status != 201]
    failed += [repr(r) for r in sync_results if not isinstance(r, int)]
    assert not failed, failed[:3]
    assert n == 40


async def test_a_roll_overlapping_another_append_waits_without_deadlock(
    app, tbl, tokens, monkeypatch, caplog
):
    """An append holds the cursor row (as roll_create does between its lock and its insert)
    while a roll comes in over HTTP: the roll waits for the row and appends after it, without
    a deadlock (which costs deadlock_timeout and aborts one of the two)."""
    _needs_postgres()
    locked, go = threading.Event(), threading.Event()
    lock_cursor = services._lock_cursor

    def slow_lock(campaign_id: int):
        head = lock_cursor(campaign_id)  # this append now holds the cursor row
        locked.set()
        go.wait(TIMEOUT)
        return head

    monkeypatch.setattr(services, "_lock_cursor", slow_lock)
    first_roll = asyncio.ensure_future(
        sync_to_async(_sync_roll, thread_sensitive=False)(tbl.campaign.pk, tbl.referee.pk)
    )
    assert await asyncio.to_thread(locked.wait, TIMEOUT)
    second = asyncio.ensure_future(as_player(app, tbl, tokens, {"notation": "1d6"}))
    await asyncio.sleep(0.3)  # the HTTP roll is now waiting for the cursor row
    go.set()
    answer, sync_result = await asyncio.gather(second, first_roll)
    assert answer.status == 201, answer.body
    assert isinstance(sync_result, int), sync_result
    events, _rolls = await roll_log(tbl.campaign.pk)
    assert [e["seq"] for e in events] == [1, 2]
    assert (await chain(tbl.campaign.pk))["ok"] is True
    assert "deadlock" not in caplog.text.lower(), caplog.text[-2000:]


# --- the campaign's first event ------------------------------------------------------------------


async def test_first_roll_creates_the_cursor(app, fresh, tokens):
    assert not await sync_to_async(EventCursor.objects.filter(campaign=fresh.campaign).exists)()
    first = await post(app, fresh.campaign.pk, {"notation": "1d6"}, token=tokens["player"])
    assert first.status == 201, first.body
    assert await head(fresh.campaign.pk) == 1
    second = await post(app, fresh.campaign.pk, {"notation": "1d6"}, token=tokens["player"])
    assert second.status == 201
    assert await head(fresh.campaign.pk) == 2
    assert (await chain(fresh.campaign.pk))["ok"] is True


# --- the roll bar's htmx form --------------------------------------------------------------------


async def test_form_roll_is_answered_with_a_fragment(app, tbl):
    cookies = await session_for(tbl.player)
    answer = await post_form(
        app,
        tbl.campaign.pk,
        {"notation": "2d6+1", "label": "Руби", "idempotency_key": "first-key"},
        cookies=cookies,
        headers=csrf_headers(cookies),
    )
    assert answer.status == 201, answer.body
    assert answer.header("Content-Type") == "text/html; charset=utf-8"
    roll = await sync_to_async(Roll.objects.get)()
    assert roll.label == "Руби" and roll.idempotency_key == "first-key"
    assert roll.notation == "2d6+1" and roll.actor_id == tbl.player.pk
    html = answer.body.decode()
    assert f'data-roll-id="{roll.pk}"' in html and roll.result["text"] in html
    assert "<html" not in html
    key = re.search(r'id="roll-key" name="idempotency_key" value="([0-9a-f]{32})"', html)
    assert key and key.group(1) != "first-key"
    event = await last_event(tbl.campaign.pk)
    assert event.seq == 1 and event.kind == "roll" and event.payload["roll_id"] == roll.pk
    assert (await chain(tbl.campaign.pk))["ok"] is True and await head(tbl.campaign.pk) == 1


async def test_form_roll_with_the_csrf_field_and_a_quick_button(app, tbl):
    cookies = await session_for(tbl.player)
    data = {
        "notation": "",
        "quick": "1d20",
        "csrfmiddlewaretoken": cookies[settings.CSRF_COOKIE_NAME],
    }
    answer = await post_form(app, tbl.campaign.pk, data, cookies=cookies)
    assert answer.status == 201, answer.body
    assert (await sync_to_async(Roll.objects.get)()).notation == "1d20"


async def test_form_roll_without_csrf_is_403(app, tbl):
    cookies = await session_for(tbl.player)
    answer = await post_form(app, tbl.campaign.pk, {"notation": "1d6"}, cookies=cookies)
    assert await outcome(answer, tbl.campaign.pk) == (403, (0, 0)), answer.body


async def test_form_roll_without_htmx_redirects(app, tbl):
    cookies = await session_for(tbl.player)
    answer = await post_form(
        app,
        tbl.campaign.pk,
        {"notation": "1d6"},
        cookies=cookies,
        headers=csrf_headers(cookies),
        htmx=False,
    )
    assert answer.status == 302 and answer.header("Location").endswith(
        f"/campaigns/{tbl.campaign.pk}/table/"
    )
    assert await counts(tbl.campaign.pk) == (1, 1)


async def test_form_roll_with_a_token_is_403(app, tbl, tokens):
    answer = await post_form(
        app,
        tbl.campaign.pk,
        {"notation": "1d6"},
        headers={"authorization": f"Token {tokens['player']}"},
    )
    assert answer.status == 403  # a page: no token there, and the CSRF check refuses
    assert await counts(tbl.campaign.pk) == (0, 0)


async def test_form_roll_replayed_key_is_200(app, tbl):
    cookies = await session_for(tbl.player)
    kw = {"cookies": cookies, "headers": csrf_headers(cookies)}
    data = {"notation": "1d1000", "idempotency_key": "twice"}
    first = await post_form(app, tbl.campaign.pk, data, **kw)
    again = await post_form(app, tbl.campaign.pk, data, **kw)
    assert (first.status, again.status) == (201, 200)
    roll = await sync_to_async(Roll.objects.get)()
    assert f'data-roll-id="{roll.pk}"' in again.body.decode()
    assert 'data-created="0"' in again.body.decode()
    assert await counts(tbl.campaign.pk) == (1, 1)


@pytest.mark.parametrize(
    ("data", "status", "rolls"),
    [
        ({"notation": "2d"}, 400, 0),
        ({"notation": ""}, 400, 0),
        ({"notation": "1d6", "visibility": "referee"}, 201, 1),
        ({"notation": "1d6", "visibility": "whisper", "target_id": "0"}, 400, 0),
    ],
    ids=["bad-notation", "empty", "hidden", "whisper-to-nobody"],
)
async def test_form_roll_uncommon_cases(app, tbl, data, status, rolls):
    cookies = await session_for(tbl.player)
    answer = await post_form(
        app, tbl.campaign.pk, data, cookies=cookies, headers=csrf_headers(cookies)
    )
    assert answer.status == status, answer.body
    assert (await counts(tbl.campaign.pk))[0] == rolls
    if status == 400:
        assert has_cyrillic(answer.body.decode())  # the form's message, in Russian
