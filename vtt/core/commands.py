"""Actions as commands: one declaration per action, run alike by its HTTP API view and by the
table socket (docs/table-protocol.md, "Commands").

A command is a function of a ``Call`` (who asks, in which campaign, the path arguments, the
raw parameters, the idempotency key) that authorises, validates and calls the service, and
returns an ``Answer`` (the body and the HTTP status). The API view turns the answer into a
``Response``; the socket turns it into an ``ack`` frame, and any refusal into an ``error``
frame with the status, code and message the API would have answered. So a roll sent over the
socket and a roll posted by a script take the same path, down to the rate limit.

Apps declare their commands in their own ``commands.py`` with ``@command(...)`` and import that
module from their ``AppConfig.ready``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.http import Http404
from django.utils import translation
from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from vtt.core.errors import Conflict, Invalid

IDEMPOTENCY_KEY_MAX = 100
# How long a finished command's answer is kept for a retry with the same key.
IDEMPOTENCY_SECONDS = 24 * 3600
# A key being acted on; a process killed mid-action frees it after this long.
IN_PROGRESS = "…"
IN_PROGRESS_SECONDS = 60
# Path arguments of a socket command: ``{"cid": 5, "move": "hack_and_slash"}``.
ARG_TEXT_MAX = 100
MAX_ID = 2**31 - 1


def check_idempotency_key(key: str | None) -> None:
    """The one check of an idempotency key's length, for commands and the services that keep
    their own key (a roll's unique column)."""
    if key is not None and not 1 <= len(key) <= IDEMPOTENCY_KEY_MAX:
        raise Invalid(
            _("Idempotency-Key must be 1 to %(max)d characters.") % {"max": IDEMPOTENCY_KEY_MAX},
            code="bad_key",
        )


@dataclass
class Call:
    """One request for an action, from the API or the socket."""

    user: Any
    campaign_id: int | None  # the socket's campaign, or the API path's; None on sheet routes
    args: dict[str, Any]
    params: Any
    key: str | None = None

    def valid(self, serializer_class: type[serializers.Serializer]) -> dict[str, Any]:
        """The parameters checked by the command's serializer (a 400 with field errors)."""
        serializer = serializer_class(data=self.params)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def in_campaign(self, campaign_id: int) -> None:
        """Refuse an object of another campaign than the socket's (it does not exist there)."""
        if self.campaign_id is not None and int(self.campaign_id) != int(campaign_id):
            raise Http404(_("Not found."))


@dataclass
class Answer:
    body: Any
    status: int = 200
    replayed: bool = False


@dataclass(frozen=True)
class Command:
    name: str
    run: Callable[[Call], Answer]
    # the path arguments a socket frame must carry, with their type (int or str)
    args: dict[str, type] = field(default_factory=dict)
    # False for a command whose service keeps its own keys (the roll: a unique column)
    cache_answers: bool = True

    def __call__(self, call: Call) -> Answer:
        return self.run(call)


REGISTRY: dict[str, Command] = {}


def command(
    name: str, *, args: dict[str, type] | None = None, cache_answers: bool = True
) -> Callable[[Callable[[Call], Answer]], Command]:
    """Register ``run`` as the command ``name`` (one name, one action)."""

    def register(run: Callable[[Call], Answer]) -> Command:
        if name in REGISTRY:
            raise ValueError(f"command {name!r} is declared twice")
        declared = Command(name, run, dict(args or {}), cache_answers)
        REGISTRY[name] = declared
        return declared

    return register


def execute(
    declared: Command,
    *,
    user: Any,
    campaign_id: int | None,
    args: dict[str, Any],
    params: Any,
    key: str | None,
) -> Answer:
    """Run a command once per idempotency key: a retry with a key already answered gets the
    first answer again (``replayed``), never a second action."""
    check_idempotency_key(key)
    call = Call(user=user, campaign_id=campaign_id, args=args, params=params, key=key)
    if key is None or not declared.cache_answers:
        return declared.run(call)
    memo = f"cmd:{declared.name}:{getattr(user, 'pk', None)}:{key}"
    # Claim the key before acting: of two calls with one key at once (a socket's command whose
    # answer was lost, sent again by HTTP while the first still runs) only one acts.
    while not cache.add(memo, IN_PROGRESS, IN_PROGRESS_SECONDS):
        kept = cache.get(memo)
        if kept == IN_PROGRESS:
            raise Conflict(
                _("This action is still being made; try again in a moment."),
                code="in_progress",
                extra={"retry_after": 1},
            )
        if kept is not None:
            body, _status = json.loads(kept)
            return Answer(body, 200, replayed=True)  # a replay creates nothing: 200
    try:
        answer = declared.run(call)
    except BaseException:
        cache.delete(memo)  # refused or failed: nothing was done, the key is free again
        raise
    if answer.status < 300:
        stored = json.dumps([answer.body, answer.status], ensure_ascii=False, cls=JSONEncoder)
        cache.set(memo, stored, IDEMPOTENCY_SECONDS)  # the service has committed its write
    else:
        cache.delete(memo)
    return answer


def respond(request: Request, declared: Command, **args: Any) -> Response:
    """The API side of a command: the path's ``pk`` is the campaign, the rest its arguments."""
    campaign_id = args.pop("pk", None)
    answer = execute(
        declared,
        user=request.user,
        campaign_id=campaign_id,
        args=args,
        params=request.data,
        key=request.headers.get("Idempotency-Key") or None,
    )
    response = Response(answer.body, status=answer.status)
    if answer.replayed:
        response["Idempotent-Replayed"] = "true"
    return response


def socket_args(declared: Command, raw: Any) -> dict[str, Any]:
    """A socket frame's path arguments, checked as the URL converters check the API's."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise Invalid(_("args must be an object."), code="bad_args")
    unknown = set(raw) - set(declared.args)
    missing = set(declared.args) - set(raw)
    if unknown or missing:
        names = ", ".join(sorted(declared.args)) or "—"
        raise Invalid(
            _("This command takes the arguments: %(names)s.") % {"names": names},
            code="bad_args",
        )
    checked: dict[str, Any] = {}
    for name, kind in declared.args.items():
        value = raw[name]
        if kind is int:
            ok = isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_ID
        else:
            ok = isinstance(value, str) and 0 < len(value) <= ARG_TEXT_MAX
        if not ok:
            raise Invalid(
                _("The argument %(name)s is not valid.") % {"name": name},
                code="bad_args",
                fields={name: [_("Not valid.")]},
            )
        checked[name] = value
    return checked


def run_frame(
    frame: dict[str, Any], *, user: Any, campaign_id: int, language: str
) -> dict[str, Any]:
    """A socket's ``command`` frame to its ``ack`` or ``error`` frame, in ``language``.

    Refusals become the API's own error body (``vtt.core.api.exception_handler``): the same
    status, code, message and field errors a script would get over HTTP."""
    from vtt.core.api import exception_handler

    key = frame.get("key")
    with translation.override(language):
        try:
            if not isinstance(key, str) or not key:
                raise Invalid(_("A command needs an idempotency key (key)."), code="bad_key")
            name = frame.get("command")
            declared = REGISTRY.get(name) if isinstance(name, str) else None
            if declared is None:
                raise Invalid(_("Unknown command."), code="unknown_command")
            params = frame.get("params")
            answer = execute(
                declared,
                user=user,
                campaign_id=campaign_id,
                args=socket_args(declared, frame.get("args")),
                params={} if params is None else params,
                key=key,
            )
        except Exception as exc:
            response = exception_handler(exc, {})
            if response is None:
                raise
            return error_frame(key, response.status_code, response.data)
    return {
        "type": "ack",
        "key": key,
        "status": answer.status,
        "replayed": answer.replayed,
        "result": plain(answer.body),
    }


def plain(body: Any) -> Any:
    """The body as the API's renderer writes it (a date as ISO 8601, a Decimal as a number), so
    an ack's result is the API's response body, and a replay reads like the first answer."""
    return json.loads(json.dumps(body, ensure_ascii=False, cls=JSONEncoder))


def error_frame(key: Any, status: int, data: Any) -> dict[str, Any]:
    """The API's error body as a frame: ``message`` is its ``detail`` or first field error,
    ``data`` the whole body (a 409's current state, a 429's retry_after)."""
    code = "invalid"
    message = ""
    fields: Any = None
    if isinstance(data, dict):
        detail = data.get("detail")
        code = str(
            data.get("code")
            or getattr(detail, "code", None)
            or _STATUS_CODES.get(status, "invalid")
        )
        if detail is not None:
            message = str(detail)
            fields = data.get("fields")
        else:
            fields = {k: v for k, v in data.items() if k not in ("code", "more")}
    elif isinstance(data, list) and data:
        message = str(data[0])
    if not message and isinstance(fields, dict):
        message = next((str(v[0] if isinstance(v, list) and v else v) for v in fields.values()), "")
    frame: dict[str, Any] = {
        "type": "error",
        "key": key if isinstance(key, str) else None,
        "status": status,
        "code": code,
        "message": message,
    }
    if fields:
        frame["fields"] = fields
    frame["data"] = data
    return frame


_STATUS_CODES = {
    400: "invalid",
    401: "not_authenticated",
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    429: "throttled",
}
