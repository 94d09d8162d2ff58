"""JSON from strangers: bad JSON of every kind is a ``ValueError``, never another exception.

``json.loads`` raises ``RecursionError`` (not ``ValueError``) for arrays or objects nested past
Python's recursion limit (``[[[[…`` a few thousand deep fits in a 16 KB socket frame), and
a document just under that limit still overflows the stack later, in ``copy.deepcopy`` or
validation. Nothing we accept is nested more than a few levels, so anything deeper than
``MAX_DEPTH`` is refused as bad input. Every JSON entry point (the API's parser, the table
socket, file imports) reads through here."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_DEPTH = 64


class TooDeep(ValueError):
    """JSON nested deeper than ``MAX_DEPTH`` (a ``ValueError``, like any other bad JSON)."""


def check_depth(value: Any, limit: int = MAX_DEPTH) -> Any:
    """Return ``value`` or raise ``TooDeep``; iterative, so it cannot overflow itself."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            raise TooDeep(f"JSON nested deeper than {limit} levels")
        stack.extend((child, depth + 1) for child in children)
    return value


def loads(text: str | bytes) -> Any:
    """``json.loads`` that raises only ``ValueError`` (``TooDeep`` for deep nesting)."""
    try:
        return check_depth(json.loads(text))
    except RecursionError:
        raise TooDeep(f"JSON nested deeper than {MAX_DEPTH} levels") from None


class JSONParser(parsers.JSONParser):
    """DRF's parser with the depth limit: a 400 with a message instead of a server error."""

    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
            return check_depth(data)
        except (RecursionError, TooDeep):
            raise ParseError(
                _("JSON nested deeper than %(n)d levels.") % {"n": MAX_DEPTH}
            ) from None
