"""Errors that services raise and both the API and the pages turn into clear answers."""

from __future__ import annotations

from typing import Any

# Errors one answer lists per field, list or dict (the rest are counted); a 250,000-item body
# must not come back as 250,000 messages.
MAX_ERRORS = 10
# Characters of one error message an answer may carry.
MESSAGE_MAX = 500


class ServiceError(Exception):
    """A refused write. Nothing has changed when it is raised (services run in a transaction)."""

    status: int = 400
    code: str = "invalid"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        status: int | None = None,
        fields: dict[str, list[str]] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = str(message)
        if code:
            self.code = code
        if status:
            self.status = status
        self.fields = fields or {}
        self.extra = extra or {}

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"detail": self.message, "code": self.code}
        if self.fields:
            data["fields"] = capped_body(self.fields)
        data.update(self.extra)
        return data


class Invalid(ServiceError):
    status = 400
    code = "invalid"


class Conflict(ServiceError):
    status = 409
    code = "conflict"


class Gone(ServiceError):
    status = 410
    code = "gone"


def invalid_from_rules(exc: Exception, *, code: str = "rules") -> Invalid:
    """A ``systems`` RulesError (ru and en messages per field) as a 400 in the active language."""
    from django.utils.translation import get_language

    lang = "ru" if (get_language() or "ru").startswith("ru") else "en"
    errors = getattr(exc, "errors", {"__all__": [{"ru": str(exc), "en": str(exc)}]})
    fields = {
        field: [m.get(lang) or m.get("en") or m.get("ru", "") for m in messages]
        for field, messages in errors.items()
    }
    first = next((m for msgs in fields.values() for m in msgs if m), str(exc))
    return Invalid(first, code=code, fields=fields)


def out_of_range(exc: BaseException) -> Invalid | None:
    """A number too large for the database (SQLite's ``OverflowError``, PostgreSQL's
    "numeric value out of range") as a 400: no row can match it, so it is bad input, whichever
    field or filter it reached. ``None`` for any other exception."""
    from django.db import DataError
    from django.utils.translation import gettext as _

    cause = exc.__cause__ if isinstance(exc, DataError) else None
    if isinstance(exc, OverflowError) or getattr(cause, "sqlstate", None) == "22003":
        return Invalid(_("A number is out of range."), code="out_of_range")
    return None


def capped_body(data: Any, limit: int = MAX_ERRORS) -> Any:
    """An error body that stays small and can always be sent: at most ``limit`` entries per
    dict or list (then ``"more": <how many were left out>``), messages cut to
    ``MESSAGE_MAX``, and text that UTF-8 cannot encode (a lone surrogate echoed back from the
    request) replaced, so the answer itself never fails."""
    if isinstance(data, str):
        text = data if len(data) <= MESSAGE_MAX else data[: MESSAGE_MAX - 1] + "…"
        return text.encode("utf-8", "replace").decode("utf-8")
    if isinstance(data, dict):
        # a count made already (DRF's ValidationError turns it into text)
        prior = str(data.get("more", ""))
        more = int(prior) if prior.isdigit() else 0
        items = [(k, v) for k, v in data.items() if not (k == "more" and more)]
        out = {capped_body(k, limit): capped_body(v, limit) for k, v in items[:limit]}
        more += max(0, len(items) - limit)
        if more:
            out["more"] = more
        return out
    if isinstance(data, list | tuple):
        out_list = [capped_body(v, limit) for v in data[:limit]]
        if len(data) > limit:
            out_list.append({"more": len(data) - limit})
        return out_list
    return data
