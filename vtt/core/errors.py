"""Errors that services raise and both the API and the pages turn into clear answers."""

from __future__ import annotations

from typing import Any


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
            data["fields"] = self.fields
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
