"""JSON from strangers: bad JSON of every kind is a ``ValueError``, never another exception.

``json.loads`` raises ``RecursionError`` (not ``ValueError``) for arrays or objects nested past
Python's recursion limit (``[[[[…`` a few thousand deep fits in a 16 KB socket frame), and
a document just under that limit still overflows the stack later, in ``copy.deepcopy`` or
validation. Nothing we accept is nested more than a few levels, so anything deeper than
``MAX_DEPTH`` is refused as bad input.

JSON can also spell text that nothing downstream can hold: ``"\\ud800"`` (a lone surrogate)
cannot be encoded as UTF-8, so an answer or a frame that echoes it fails, and ``"\\u0000"``
(NUL) is refused by PostgreSQL on write. Both are refused here, naming where they were
(``BadText``), and so are ``NaN`` and ``Infinity``, which are not JSON and which a browser's
``JSON.parse`` cannot read back. Every JSON entry point (the API's parser, the table socket,
file imports) reads through here."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import parsers
from rest_framework.exceptions import ParseError, ValidationError

from vtt.core.errors import Invalid

MAX_DEPTH = 64
# One wording for every refusal of unstorable text (rendered in the reader's language).
BAD_TEXT = gettext_lazy("Text may not contain NUL characters or unpaired surrogate code points.")
NOT_FINITE = gettext_lazy("Numbers must be finite.")
# A lone surrogate (U+D800–U+DFFF: valid only in pairs, which json.loads joins) or NUL.
_BAD_TEXT = re.compile("[\x00\ud800-\udfff]")


class TooDeep(ValueError):
    """JSON nested deeper than ``MAX_DEPTH`` (a ``ValueError``, like any other bad JSON)."""


class BadText(ValueError):
    """A string (or a key) holding NUL or a lone surrogate; ``field`` says where, as a dotted
    path (``entries.0.text``; empty for the document itself). ``NotFinite`` is its kin for
    numbers."""

    def __init__(self, field: str) -> None:
        super().__init__(f"{type(self).__name__} at {field or 'the top level'}")
        self.field = field

    message_text = BAD_TEXT

    @property
    def message(self) -> str:
        """The refusal in the active language (never the bad value itself)."""
        return str(self.message_text)


class NotFinite(BadText):
    """A number too large for a float (``1e400`` reads as infinity): nothing can store it,
    and JSON cannot carry it back."""

    message_text = NOT_FINITE


def has_bad_text(text: str) -> bool:
    """True if ``text`` holds NUL or a lone surrogate (nothing can store or send it)."""
    return _BAD_TEXT.search(text) is not None


def bad_form_field(data: Any, files: Any = None) -> str | None:
    """The first field of a parsed form (a ``QueryDict``, and the uploads' ``MultiValueDict``)
    whose name or value, or whose file's name, holds NUL or a lone surrogate; else ``None``.
    A file's content is its importer's business (each reads it through here or refuses
    binary files)."""
    for key, values in data.lists():
        if has_bad_text(key):
            return "?"
        if any(isinstance(v, str) and has_bad_text(v) for v in values):
            return key
    for key, uploads in files.lists() if files is not None else ():
        if has_bad_text(key):
            return "?"
        if any(has_bad_text(getattr(f, "name", None) or "") for f in uploads):
            return key
    return None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


CONTAINERS = (dict, list)


def check(value: Any, limit: int = MAX_DEPTH) -> Any:
    """Return ``value`` or raise ``TooDeep``, ``BadText`` or ``NotFinite``; iterative, so it
    cannot overflow itself; leaves are looked at in place, never stacked (250,000 numbers cost
    one pass)."""
    if isinstance(value, str):
        if has_bad_text(value):
            raise BadText("")
        return value
    if isinstance(value, float) and not math.isfinite(value):
        raise NotFinite("")
    # (container, depth, trail): a trail is (parent trail, key), its name built only on error
    stack: list[tuple[Any, int, Any]] = [(value, 1, None)]
    while stack:
        item, depth, trail = stack.pop()
        if isinstance(item, dict):
            pairs = item.items()
            for key in item:
                if has_bad_text(key):
                    raise BadText(_name(trail))
        elif isinstance(item, list):
            pairs = enumerate(item)
        else:
            continue
        if depth > limit:
            raise TooDeep(f"JSON nested deeper than {limit} levels")
        for key, child in pairs:
            kind = type(child)  # exact types first: a body of numbers costs one test each
            if kind is int or kind is bool or child is None:
                continue
            if kind is str or isinstance(child, str):
                if has_bad_text(child):
                    raise BadText(_name((trail, key)))
            elif isinstance(child, CONTAINERS):
                stack.append((child, depth + 1, (trail, key)))
            elif kind is float and not math.isfinite(child):
                raise NotFinite(_name((trail, key)))
    return value


def _name(trail: Any) -> str:
    """``entries.0.text`` for the trail (None, "entries"), 0), "text")."""
    parts: list[str] = []
    while trail is not None:
        trail, key = trail
        parts.append(str(key))
    return ".".join(reversed(parts))


def check_depth(value: Any, limit: int = MAX_DEPTH) -> Any:
    """``check`` (kept for its callers: the depth is one of the things it checks)."""
    return check(value, limit)


def loads(text: str | bytes) -> Any:
    """``json.loads`` that raises only ``ValueError``: ``TooDeep`` for deep nesting,
    ``BadText`` for NUL or lone surrogates, a plain ``ValueError`` for NaN and Infinity."""
    try:
        return check(json.loads(text, parse_constant=_refuse_constant))
    except RecursionError:
        raise TooDeep(f"JSON nested deeper than {MAX_DEPTH} levels") from None


def dumps(data: Any) -> str:
    """JSON for a socket frame: UTF-8 text as it is, and never NaN or Infinity (``ValueError``)."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False)


class JSONParser(parsers.JSONParser):
    """DRF's parser with the depth limit and the text check: a 400 with a message naming the
    field instead of a server error."""

    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
            return check(data)
        except (RecursionError, TooDeep):
            raise ParseError(
                _("JSON nested deeper than %(n)d levels.") % {"n": MAX_DEPTH}
            ) from None
        except BadText as exc:
            if not exc.field:
                raise ParseError(exc.message) from None
            raise ValidationError({exc.field: [exc.message]}) from None


class FormParser(parsers.FormParser):
    """DRF's urlencoded parser with the text check (PUT and PATCH too: the page middleware
    sees only POST), a 400 naming the field."""

    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        data = super().parse(stream, media_type, parser_context)
        _refuse_bad_form(data)
        return data


class MultiPartParser(parsers.MultiPartParser):
    """DRF's multipart parser with the text check on the text fields and the files' names,
    made on what Django's parser built (the view's upload handlers, the size guard among
    them, have run; nothing is parsed twice). Every API view reads multipart through here:
    the default parsers and the upload and import views name it."""

    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        parsed = super().parse(stream, media_type, parser_context)
        _refuse_bad_form(parsed.data, parsed.files)
        return parsed


def bad_form(field: str) -> Invalid:
    """The refusal of a form field holding NUL: the same answer from the page middleware and
    the API's parsers (``{"detail", "code": "bad_text", "fields"}`` on the API)."""
    return Invalid(str(BAD_TEXT), code="bad_text", fields={field: [str(BAD_TEXT)]})


def _refuse_bad_form(data: Any, files: Any = None) -> None:
    field = bad_form_field(data, files)
    if field is not None:
        raise bad_form(field)
