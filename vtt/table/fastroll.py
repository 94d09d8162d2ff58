"""The roll's hot path on the event loop: ``POST /api/campaigns/<id>/rolls/`` and the roll
bar's htmx form (``POST /campaigns/<id>/table/roll/``).

A roll is the request a table sends most, and through Django and DRF it cost about 7 ms of
CPU, most of it in the framework: the middleware stack, DRF's dispatch and serializers, and the
hops between the event loop and the worker thread that runs synchronous views
(docs/performance.md). Here the common roll (a public roll of valid notation by an
authenticated member, with or without an idempotency key) runs in one coroutine on the loop,
with an asynchronous PostgreSQL connection (vtt/core/adb.py): one statement finds the caller,
their membership, an earlier roll under the key, the log's head and the roll's id; the rate
limit runs alongside it when the user is known; one more statement, its own transaction,
writes the roll, its event and the cursor's move; then the push and the answer.

It is a fast path, not a second implementation. What decides what happens is the synchronous
path's own code: the rows come from ``services.new_roll``, ``roll_payload``, ``event_rows``,
``cursor_update`` and ``fastsql.insert_from`` (the same chain, the same group message),
the checks from ``permissions.can``, Django's CSRF middleware and host validation, the same
bucket, DRF's renderer, the view's own form and template. Whatever is not the common case goes
to Django unchanged, body and all, before anything is written: no credentials or bad ones, an
outsider or observer, an archived campaign, a hidden or whispered roll, a key seen before, bad
notation, an empty bucket, a body or header it does not expect, a database or Redis error, the
campaign's first event. Django then answers exactly as it always did (400 with the message in
the caller's language, 401, 403, 404, 409, 429 with Retry-After, 503), so every refusal has one
implementation. docs/design-notes.md has the reasoning; tests/vtt/table/test_fastroll.py
compares the two paths.

``FAST_ROLLS`` turns it off; it is on only with PostgreSQL (SQLite has no asynchronous
driver, and the embedded app serves one table).
"""

from __future__ import annotations

import asyncio
import functools
import io
import json
import logging
import re
import time
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.core import signals
from django.core.handlers.asgi import ASGIRequest
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _
from rest_framework.authentication import CSRFCheck
from rest_framework.authtoken.models import Token
from rest_framework.renderers import JSONRenderer

from systems.core.dice import RandomDice
from systems.core.notation import NotationError, roll_notation
from vtt.accounts.middleware import language_for
from vtt.accounts.models import User
from vtt.campaigns.models import Campaign, Membership
from vtt.core import adb, fastsql
from vtt.core.middleware import MAX_ID
from vtt.core.outage import is_unavailable, warn
from vtt.permissions import Action, can
from vtt.table import kinds, services
from vtt.table.api import ROLL_BUCKET, Rolls, roll_response
from vtt.table.models import EventCursor, Roll
from vtt.table.models import Visibility as V

log = logging.getLogger(__name__)

API_PATH = re.compile(r"/api/campaigns/([0-9]{1,19})/rolls/")
FORM_PATH = re.compile(r"/campaigns/([0-9]{1,19})/table/roll/")  # the roll bar (htmx)
BODY_MAX = 4096
FIELDS = frozenset({"notation", "visibility", "label"})
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


class Delegate(Exception):
    """Not the common case: Django answers it."""


class Stages:
    """Where a fast roll's time went, for its ``Server-Timing`` header (the browser's network
    panel shows it; ``make bench`` prints its percentiles): the app's own steps, against the
    latency a client sees, say how much of it is waiting between processes."""

    __slots__ = ("last", "parts", "start")

    def __init__(self) -> None:
        self.start = self.last = time.perf_counter()
        self.parts: list[tuple[str, float]] = []

    def mark(self, name: str) -> None:
        now = time.perf_counter()
        self.parts.append((name, now - self.last))
        self.last = now

    def header(self) -> tuple[bytes, bytes]:
        parts = [*self.parts, ("app", self.last - self.start)]
        value = ", ".join(f"{name};dur={seconds * 1000:.3f}" for name, seconds in parts)
        return b"Server-Timing", value.encode()


class FastRolls:
    """ASGI middleware in front of Django's HTTP handler."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.enabled = settings.FAST_ROLLS
        self.served = 0
        self.delegated = 0
        self.started = False

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        match = form = None
        if self.enabled and scope["type"] == "http" and scope["method"] == "POST":
            match = API_PATH.fullmatch(scope["path"])
            if match is None:
                match = form = FORM_PATH.fullmatch(scope["path"])
        if match is None:
            await self.app(scope, receive, send)
            return
        if not self.started:
            # Django's first request sends it: a process that serves only fast rolls must
            # too (the settings freeze the start-up heap out of the collector's way then)
            self.started = True
            signals.request_started.send(sender=self.__class__, scope=scope)
        messages, body, complete = await _read_body(receive)
        if messages is None:
            return  # the client went away
        if complete:
            written: list[Roll] = []
            try:
                answer = await self._roll(scope, int(match[1]), body, written, form is not None)
            except (Delegate, TimeoutError):  # TimeoutError: every connection busy
                answer = None
            except Exception as exc:
                if written:  # never hand a written roll to Django: it would roll again
                    log.exception("fast roll %s written, its answer failed", written[0].pk)
                    failed = {"detail": _("The roll was made, but its answer failed: see the log.")}
                    answer = (500, [(b"Content-Type", b"application/json")], _json(failed))
                elif is_unavailable(exc):
                    warn("fast roll", exc)  # Django answers 503 (or works from the fallback)
                    answer = None
                else:
                    log.exception("fast roll path failed; Django answers")
                    answer = None
            if answer is not None:
                self.served += 1
                await _respond(send, *answer)
                return
        self.delegated += 1
        await self.app(scope, _replay(messages, receive), send)

    async def _roll(
        self,
        scope: dict[str, Any],
        campaign_id: int,
        body: bytes,
        written: list[Roll],
        form: bool,
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        stages = Stages()
        if not 0 < campaign_id <= MAX_ID:
            raise Delegate
        if settings.SECURE_SSL_REDIRECT and scope.get("scheme") != "https":
            raise Delegate
        if scope.get("query_string"):
            raise Delegate  # ?format=api and the like: DRF's negotiation
        headers = _headers(scope)
        if form:
            notation, label, key = _form_request(headers, body)
        else:
            notation, label, key = _api_request(headers, body)

        request = ASGIRequest(scope, io.BytesIO(body))
        request.get_host()  # DisallowedHost: Django answers 400
        try:
            result = roll_notation(notation, dice=RandomDice())
        except NotationError:
            raise Delegate from None  # the message, in the caller's language, is Django's
        stages.mark("roll")
        found = Found()
        try:
            async with adb.pool().connection(settings.HTTP_QUEUE_SECONDS) as conn:
                await _caller(conn, found, request, headers, campaign_id, key, token_ok=not form)
                stages.mark("caller")
                membership = found.membership
                if found.replay or membership is None or not can(membership, Action.PLAY):
                    raise Delegate
                if membership.campaign.is_archived or found.head is None:
                    raise Delegate  # 409, or the campaign's first event (it creates the cursor)
                if found.charge is None:
                    found.charge_rate(found.user.pk)
                if await found.charge is not True:
                    raise Delegate  # a refused hit spent nothing: Django asks again, says 429
                stages.mark("rate")
                user = found.user
                roll = services.new_roll(
                    membership.campaign, user, result, label, V.EVERYONE, None, key
                )
                roll.pk = found.roll_id
                rows = await _append(conn, roll, user, found.head)
                written.append(roll)
                stages.mark("write")
        except BaseException as exc:
            if not written:
                await found.give_back(cancelled=isinstance(exc, asyncio.CancelledError))
            raise
        await services.apush(campaign_id, services.together(services.group_messages(rows, user)))
        stages.mark("push")

        # Django's language middleware runs before DRF reads a token: a token's user is still
        # anonymous there, a session's is not
        language = language_for(request)
        request.user = user
        if form:
            headers_out, content = _form_response(request, roll, language)
        else:
            content = JSONRenderer().render(roll_response(roll, role=membership.role))
            headers_out = _response_headers(content, language)
        if settings.SERVER_TIMING:
            stages.mark("answer")
            headers_out.append(stages.header())
        return 201, headers_out, content


def _api_request(headers: dict[str, str], body: bytes) -> tuple[str, str, str | None]:
    ctype = headers.get("content-type", "").replace(" ", "").lower()
    if ctype not in ("application/json", "application/json;charset=utf-8"):
        raise Delegate
    accept = headers.get("accept", "*/*")
    if ";" in accept or accept not in ("*/*", "application/json"):
        # DRF would negotiate: the browsable API, or JSON with parameters (indent=4)
        raise Delegate
    notation, label = _parse(body)
    key = headers.get("idempotency-key") or None
    if key is not None and not 1 <= len(key) <= services.IDEMPOTENCY_KEY_MAX:
        raise Delegate
    return notation, label, key


def _form_request(headers: dict[str, str], body: bytes) -> tuple[str, str, str | None]:
    """The roll bar's htmx post, validated by the view's own form (``table_roll``). A plain
    form post (no htmx: Django redirects with a flash message) goes to Django."""
    from django.http import QueryDict

    from vtt.table.views import RollForm

    ctype = headers.get("content-type", "").split(";")[0].strip().lower()
    if headers.get("hx-request") != "true" or ctype != "application/x-www-form-urlencoded":
        raise Delegate
    if "authorization" in headers:
        raise Delegate  # the page is for sessions; Django decides what a header means there
    try:
        roll_form = RollForm(QueryDict(body, encoding=settings.DEFAULT_CHARSET))
        valid = roll_form.is_valid()
    except Exception:
        raise Delegate from None
    if not valid:
        raise Delegate  # Django answers 400 with the form's messages
    data = roll_form.cleaned_data
    if data["visibility"] != V.EVERYONE or data.get("target_id") is not None:
        raise Delegate
    key = data["idempotency_key"] or None
    return data["notation"], services.clean_label(data.get("label")), key


def _form_response(
    request: ASGIRequest, roll: Roll, language: str
) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """The view's own fragment (the roll and a fresh key for the next submit)."""
    from django.template.loader import render_to_string
    from django.utils import translation

    from vtt.table.views import new_key

    context = {"roll": roll, "created": True, "new_key": new_key(), "shown": True}
    with translation.override(language):
        content = render_to_string("table/table.html#roll-result", context, request).encode()
    headers = [
        (b"Content-Type", b"text/html; charset=utf-8"),
        (b"Vary", b"Cookie"),
        (b"Content-Length", str(len(content)).encode()),
        (b"Content-Language", language.encode()),
    ]
    headers.extend(_STATIC_HEADERS)
    return headers, content


def _parse(body: bytes) -> tuple[str, str]:
    """The body DRF's ``RollRequest`` would accept unchanged, for a public roll."""
    try:
        # as DRF reads it: UTF-8, and a byte-order mark is an error (json.loads on bytes would
        # guess other encodings and skip the mark)
        data = json.loads(body.decode("utf-8"))
    except ValueError:
        raise Delegate from None
    if not isinstance(data, dict) or not FIELDS.issuperset(data):
        raise Delegate
    notation, label = data.get("notation"), data.get("label", "")
    if data.get("visibility", V.EVERYONE) != V.EVERYONE:
        raise Delegate
    if not isinstance(notation, str) or not 0 < len(notation) <= 200:
        raise Delegate
    if not isinstance(label, str) or len(label) > 120:
        raise Delegate
    # DRF's CharField refuses NUL and surrogates and trims a label: leave such text to it
    if not (notation.isprintable() and label.isprintable()) or label != label.strip():
        raise Delegate
    return notation, services.clean_label(label)


class Found:
    """What one statement found out about the caller, and the rate limit's charge."""

    user: User
    membership: Membership | None
    replay: bool
    head: tuple[int, str] | None  # the campaign's log head, read without a lock
    roll_id: int  # taken from the rolls' sequence for the new roll

    def __init__(self) -> None:
        self.charge: asyncio.Future | None = None
        self.charged: int | None = None

    def charge_rate(self, user_id: int) -> None:
        self.charged = user_id
        self.charge = asyncio.ensure_future(ROLL_BUCKET.atake(str(user_id)))

    async def give_back(self, *, cancelled: bool) -> None:
        """The request goes to Django (or nowhere), which charges its own roll: give back a
        token this path spent, so that a request costs one token, and a refusal none."""
        if self.charge is None:
            return
        if cancelled:
            self.charge.cancel()
            return
        try:
            spent = await self.charge
        except Exception:
            return
        if spent is True:
            await ROLL_BUCKET.arefund(str(self.charged))


_token_users: dict[str, int] = {}
TOKEN_USERS_MAX = 10_000


async def _caller(
    conn: Any,
    found: Found,
    request: ASGIRequest,
    headers: dict[str, str],
    campaign_id: int,
    key: str | None,
    *,
    token_ok: bool = True,
) -> None:
    """The authenticated user, as Django and DRF find them (a ``Token`` header on the API,
    else the session with its CSRF check), their membership of the campaign, whether the
    idempotency key names an earlier roll, the log's head and an id for the roll: one
    statement. Without a key, the rate limit runs meanwhile when the user is known before
    it (a session; a token seen before: a token never changes hands)."""
    auth = headers.get("authorization")
    if auth is not None:
        parts = auth.split()
        if not token_ok or len(parts) != 2 or parts[0].lower() != "token":
            raise Delegate
        tokens = fastsql.table(Token)
        where = f"u.id = (SELECT t.user_id FROM {tokens} t WHERE t.key = %s)"  # noqa: S608
        param = parts[1]
        session = None
        known = _token_users.get(parts[1])
    else:
        session = await _session(conn, request)
        where, param = "u.id = %s", session[SESSION_KEY]
        known = session[SESSION_KEY]
    if known is not None and key is None:
        found.charge_rate(known)
    cur = await conn.execute(_caller_sql(where), [campaign_id, key, campaign_id, param])
    await _identify(found, await cur.fetchone(), request, session, known)
    if session is None and known is None:
        if len(_token_users) >= TOKEN_USERS_MAX:
            _token_users.clear()
        _token_users[parts[1]] = found.user.pk


async def _identify(
    found: Found,
    row: Any,
    request: ASGIRequest,
    session: dict[str, Any] | None,
    known: int | None,
) -> None:
    users, members, campaigns = (
        fastsql.loader(User, "u"),
        fastsql.loader(Membership, "m"),
        fastsql.loader(Campaign, "c"),
    )
    if row is None:
        raise Delegate
    user = users.load(row)
    found.user = user
    if not user.is_active or (known is not None and known != user.pk):
        raise Delegate
    if session is not None:
        expected = user.get_session_auth_hash()
        if not constant_time_compare(session.get(HASH_SESSION_KEY, ""), expected):
            raise Delegate
        request.user = user
        check = CSRFCheck(lambda _request: None)
        check.process_request(request)
        if check.process_view(request, None, (), {}) is not None:
            raise Delegate
    found.membership = fastsql.load_optional(members, row, users.width)
    at = users.width + members.width
    if found.membership is not None:
        found.membership._state.fields_cache["campaign"] = campaigns.load(row, at)
    at += campaigns.width
    replay, last_seq, last_hash, found.roll_id = row[at : at + 4]
    found.replay = replay is not None
    found.head = None if last_seq is None else (last_seq, last_hash)


@functools.cache
def _caller_sql(where: str) -> str:
    users, members, campaigns = (
        fastsql.loader(User, "u"),
        fastsql.loader(Membership, "m"),
        fastsql.loader(Campaign, "c"),
    )
    rolls = fastsql.table(Roll)
    return (
        f"SELECT {users.columns}, {members.columns}, {campaigns.columns}, "  # noqa: S608
        f"(SELECT r.id FROM {rolls} r WHERE r.campaign_id = %s "
        "AND r.actor_id = u.id AND r.idempotency_key = %s), "
        "h.last_seq, h.last_hash, "
        f"nextval(pg_get_serial_sequence('{Roll._meta.db_table}', 'id')) "
        f"FROM {fastsql.table(User)} u "
        f"LEFT JOIN {fastsql.table(Membership)} m ON m.user_id = u.id AND m.campaign_id = %s "
        f"LEFT JOIN {fastsql.table(Campaign)} c ON c.id = m.campaign_id "
        f"LEFT JOIN {fastsql.table(EventCursor)} h ON h.campaign_id = m.campaign_id "
        f"WHERE {where}"
    )


async def _session(conn: Any, request: ASGIRequest) -> dict[str, Any]:
    """The session Django's middleware would load, if it names a user of the model backend."""
    if settings.SESSION_ENGINE != "django.contrib.sessions.backends.db":
        raise Delegate
    from django.contrib.sessions.backends.db import SessionStore

    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not session_key:
        raise Delegate
    cur = await conn.execute(
        "SELECT session_data FROM django_session WHERE session_key = %s AND expire_date > %s",
        [session_key, timezone.now()],
    )
    row = await cur.fetchone()
    if row is None:
        raise Delegate
    data = SessionStore(session_key).decode(row[0])
    if data.get(BACKEND_SESSION_KEY) != MODEL_BACKEND or MODEL_BACKEND not in (
        settings.AUTHENTICATION_BACKENDS
    ):
        raise Delegate
    try:
        data[SESSION_KEY] = int(data[SESSION_KEY])
    except (KeyError, TypeError, ValueError):
        raise Delegate from None
    return data


APPEND_TRIES = 5


async def _append(conn: Any, roll: Roll, user: User, head: tuple[int, str]) -> list[Any]:
    """The roll and its event in one statement, which is its own transaction (autocommit):
    the cursor's move from ``head`` to the new event, then, only if it moved, the roll row
    and the event, as ``roll_create`` writes them. ``head`` was read without a lock; the
    cursor's row lock is the statement's first step and its ``WHERE`` checks the head, so
    appends queue on that row in the order Django's path takes it (no deadlock with a
    locked append), and if another append moved the head meanwhile nothing is written:
    read the head again and retry."""
    import psycopg

    campaign_id = roll.campaign_id
    payload = services.roll_payload(roll, user)
    draft = services.Draft("roll", payload, V.EVERYONE, None)
    kinds.validate(draft.kind, draft.payload, draft.visibility)
    head_sql = services.CURSOR_LOCK.format(table=fastsql.table(EventCursor), lock="")
    for _try in range(APPEND_TRIES):
        rows = services.event_rows(campaign_id, head, [draft], user)
        move, move_params = services.cursor_update(campaign_id, rows, from_seq=head[0])
        roll_sql, roll_params = fastsql.insert_from(roll, "moved_", with_pk=True)
        event_sql, event_params = fastsql.insert_from(rows[0], "moved_")
        sql = f"WITH moved_ AS ({move}), roll_ AS ({roll_sql}) {event_sql}"
        params = [*move_params, *roll_params, *event_params]
        try:
            cur = await conn.execute(sql, params)
        except psycopg.errors.UniqueViolation:
            raise Delegate from None  # the same key raced in: Django returns the first roll
        made = await cur.fetchall()
        if not made:  # the head moved: nothing was written
            head = await (await conn.execute(head_sql, [campaign_id])).fetchone()
            continue
        fastsql.inserted(rows, [made[0][0]])
        fastsql.inserted([roll], None)
        return rows
    raise Delegate  # a table this busy takes the cursor lock in Django's path


def _headers(scope: dict[str, Any]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for name, value in scope.get("headers", []):
        key = name.decode("latin1").lower()
        text = value.decode("latin1")
        if key in headers:  # repeated: joined as HTTP/2 splits cookies and Django joins
            text = f"{headers[key]}{'; ' if key == 'cookie' else ','}{text}"
        headers[key] = text
    return headers


def _response_headers(content: bytes, language: str) -> list[tuple[bytes, bytes]]:
    """What Django's middleware and DRF put on the synchronous path's 201."""
    headers = [
        (b"Content-Type", b"application/json"),
        (b"Vary", b"Accept, Cookie"),
        (b"Allow", ALLOW),
        (b"Content-Length", str(len(content)).encode()),
        (b"Content-Language", language.encode()),
    ]
    headers.extend(_STATIC_HEADERS)
    return headers


def _static_headers() -> list[tuple[bytes, bytes]]:
    headers = [(b"X-Frame-Options", settings.X_FRAME_OPTIONS.encode())]
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        headers.append((b"X-Content-Type-Options", b"nosniff"))
    if settings.SECURE_REFERRER_POLICY:
        headers.append((b"Referrer-Policy", settings.SECURE_REFERRER_POLICY.encode()))
    if settings.SECURE_CROSS_ORIGIN_OPENER_POLICY:
        coop = settings.SECURE_CROSS_ORIGIN_OPENER_POLICY.encode()
        headers.append((b"Cross-Origin-Opener-Policy", coop))
    if settings.CONTENT_SECURITY_POLICY:  # vtt.core.middleware.ContentSecurityPolicyMiddleware
        headers.append((b"Content-Security-Policy", settings.CONTENT_SECURITY_POLICY.encode()))
    return headers


_STATIC_HEADERS = _static_headers()
ALLOW = ", ".join(Rolls().allowed_methods).encode()


async def _read_body(receive: Any) -> tuple[list[dict[str, Any]] | None, bytes, bool]:
    """The request's messages as received, its body, and whether the body is whole and
    within ``BODY_MAX`` (a longer one goes to Django, which applies its own limits)."""
    messages: list[dict[str, Any]] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None, b"", False
        messages.append(message)
        size += len(message.get("body", b""))
        if size > BODY_MAX:
            return messages, b"", False
        if not message.get("more_body", False):
            return messages, b"".join(m.get("body", b"") for m in messages), True


def _replay(messages: list[dict[str, Any]], receive: Any) -> Any:
    """A ``receive`` that hands Django the messages already read, then the live ones."""
    pending = list(messages)

    async def replayed() -> dict[str, Any]:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed


def _json(data: dict[str, Any]) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode()


async def _respond(send: Any, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
