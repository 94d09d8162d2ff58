"""The roll's hot path: ``POST /api/campaigns/<id>/rolls/`` on the event loop.

A roll is the request a table sends most, and through Django and DRF it cost about 7 ms of
CPU, most of it in the framework: the middleware stack, DRF's dispatch and serializers, and the
hops between the event loop and the worker thread that runs synchronous views
(docs/performance.md). Here the common roll (a public roll of valid notation by an
authenticated member, with or without an idempotency key) runs in one coroutine on the loop:
the caller and their membership in one statement, the rate limit in one Redis call, the roll
and its event in one transaction on an asynchronous connection (vtt/core/adb.py), the push,
and the answer.

It is a fast path, not a second implementation. Everything that decides what happens is the
synchronous path's own code: the same SQL for the roll row and the log append
(``fastsql.insert_statement``, ``services.event_rows``, ``cursor_update``, ``new_roll``), the
same hash chain, the same group message, Django's CSRF and host checks, DRF's renderer, the
same permission table (``permissions.can``) and bucket. Whatever is not the common case goes
to Django unchanged, body and all, before anything is written: no credentials or bad ones,
an outsider, an archived campaign, a hidden or whispered roll, a key seen before, a bad
notation, an empty bucket, a body or header it does not expect, a database or Redis error.
Django then answers exactly as it always did (401, 403, 404, 409, 400 with the message in
the caller's language, 429 with Retry-After, 503), so every refusal has one implementation.

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
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.core.handlers.asgi import ASGIRequest
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from rest_framework.authentication import CSRFCheck
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
from vtt.table import services
from vtt.table.api import ROLL_BUCKET, Rolls, roll_response
from vtt.table.models import EventCursor, Roll
from vtt.table.models import Visibility as V

log = logging.getLogger(__name__)

ROLL_PATH = re.compile(r"/api/campaigns/([0-9]{1,19})/rolls/")
BODY_MAX = 4096
FIELDS = frozenset({"notation", "visibility", "label"})
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


FAILED = b'{"detail":"The roll was made but its answer failed; it is in the table log."}'


class Delegate(Exception):
    """Not the common case: Django answers it."""


class FastRolls:
    """ASGI middleware in front of Django's HTTP handler."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.enabled = settings.FAST_ROLLS
        self.served = 0
        self.delegated = 0

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        match = None
        if self.enabled and scope["type"] == "http" and scope["method"] == "POST":
            match = ROLL_PATH.fullmatch(scope["path"])
        if match is None:
            await self.app(scope, receive, send)
            return
        messages, body, complete = await _read_body(receive)
        if messages is None:
            return  # the client went away
        if complete:
            written: list[Roll] = []
            try:
                answer = await self._roll(scope, int(match[1]), body, written)
            except (Delegate, TimeoutError):  # TimeoutError: every connection busy
                answer = None
            except Exception as exc:
                if written:  # never hand a written roll to Django: it would roll again
                    log.exception("fast roll %s written, its answer failed", written[0].pk)
                    answer = (500, [(b"Content-Type", b"application/json")], FAILED)
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
        self, scope: dict[str, Any], campaign_id: int, body: bytes, written: list[Roll]
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        if not 0 < campaign_id <= MAX_ID:
            raise Delegate
        if settings.SECURE_SSL_REDIRECT and scope.get("scheme") != "https":
            raise Delegate
        headers = _headers(scope)
        if headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            raise Delegate
        accept = headers.get("accept", "*/*")
        if "text/html" in accept or not ("application/json" in accept or "*/*" in accept):
            raise Delegate  # DRF would negotiate another renderer (the browsable API)
        notation, label = _parse(body)
        key = headers.get("idempotency-key") or None
        if key is not None and not 1 <= len(key) <= services.IDEMPOTENCY_KEY_MAX:
            raise Delegate

        request = ASGIRequest(scope, io.BytesIO(body))
        request.get_host()  # DisallowedHost: Django answers 400
        try:
            result = roll_notation(notation, dice=RandomDice())
        except NotationError:
            raise Delegate from None  # the message, in the caller's language, is Django's
        async with adb.pool().connection(settings.HTTP_QUEUE_SECONDS) as conn:
            found = await _caller(conn, request, headers, campaign_id, key)
            try:
                membership = found.membership
                if found.replay or membership is None or not can(membership, Action.PLAY):
                    raise Delegate
                if membership.campaign.is_archived or found.head is None:
                    raise Delegate  # 409, or the campaign's first event (it creates the cursor)
                if found.charge is None:
                    found.charge = asyncio.ensure_future(ROLL_BUCKET.atake(str(found.user.pk)))
                # a refused hit spends nothing: Django asks again and answers 429
                if await found.charge is not True:
                    raise Delegate
            finally:
                if found.charge is not None and not found.charge.done():
                    found.charge.cancel()
            user = found.user
            roll = services.new_roll(
                membership.campaign, user, result, label, V.EVERYONE, None, key
            )
            roll.pk = found.roll_id
            rows = await _append(conn, roll, user, found.head)
            written.append(roll)
        await services.apush(campaign_id, services.together(services.group_messages(rows, user)))

        request.user = user
        data = roll_response(roll, role=membership.role)
        content = JSONRenderer().render(data)
        language = language_for(request)
        return 201, _response_headers(content, language), content


def _parse(body: bytes) -> tuple[str, str]:
    """The body DRF's ``RollRequest`` would accept unchanged, for a public roll."""
    try:
        data = json.loads(body)
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
    """What one statement found out about the caller."""

    user: User
    membership: Membership | None
    replay: bool
    head: tuple[int, str] | None  # the campaign's log head, read without a lock
    roll_id: int  # taken from the rolls' sequence for the new roll
    charge: asyncio.Future | None = None  # the rate limit, when it could start alongside


_token_users: dict[str, int] = {}
TOKEN_USERS_MAX = 10_000


async def _caller(
    conn: Any, request: ASGIRequest, headers: dict[str, str], campaign_id: int, key: str | None
) -> Found:
    """The authenticated user, as DRF's authenticators find them (a ``Token`` header, else
    the session with its CSRF check), their membership of the campaign, whether the
    idempotency key names an earlier roll, the log's head and an id for the roll: one
    statement. Without a key, the rate limit runs meanwhile when the user is known before
    it (a session; a token seen before: a token never changes hands)."""
    auth = headers.get("authorization")
    if auth is not None:
        parts = auth.split()
        if len(parts) != 2 or parts[0].lower() != "token":
            raise Delegate
        where, param = "u.id = (SELECT t.user_id FROM authtoken_token t WHERE t.key = %s)", parts[1]
        session = None
        known = _token_users.get(parts[1])
    else:
        session = await _session(conn, request)
        where, param = "u.id = %s", session[SESSION_KEY]
        known = session[SESSION_KEY]
    found = Found()
    if known is not None and key is None:
        found.charge = asyncio.ensure_future(ROLL_BUCKET.atake(str(known)))
    try:
        cur = await conn.execute(_caller_sql(where), [campaign_id, key, campaign_id, param])
        await _identify(found, await cur.fetchone(), request, session, known)
    except BaseException:
        if found.charge is not None:
            found.charge.cancel()
        raise
    if session is None and known is None:
        if len(_token_users) >= TOKEN_USERS_MAX:
            _token_users.clear()
        _token_users[parts[1]] = found.user.pk
    return found


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
    the roll row, the event after ``head`` and the cursor's move to it, as ``roll_create``
    writes them. The head was read without a lock; if another append took its place
    meanwhile, the event's sequence number is taken (``event_seq_unique``) and the whole
    statement fails, writing nothing: read the head again and retry."""
    import psycopg

    campaign_id = roll.campaign_id
    payload = services.roll_payload(roll, user)
    draft = services.Draft("roll", payload, V.EVERYONE, None)
    head_sql = services.CURSOR_LOCK.format(table=fastsql.table(EventCursor), lock="")
    for _try in range(APPEND_TRIES):
        rows = services.event_rows(campaign_id, head, [draft], user)
        roll_sql, roll_params, _returns, _separate = fastsql.insert_statement([roll], with_pk=True)
        also = [(roll_sql, roll_params), services.cursor_update(campaign_id, rows)]
        sql, params, _returns, _separate = fastsql.insert_statement(rows, also=also)
        try:
            cur = await conn.execute(sql, params)
        except psycopg.errors.UniqueViolation as exc:
            if exc.diag.constraint_name != "event_seq_unique":
                raise Delegate from None  # the same key raced in: Django returns the first roll
            head = await (await conn.execute(head_sql, [campaign_id])).fetchone()
            continue
        fastsql.inserted(rows, [pk for (pk,) in await cur.fetchall()])
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


async def _respond(send: Any, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
