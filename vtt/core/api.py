"""API plumbing shared by every app's ``api.py``."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from vtt.core.errors import ServiceError, capped_body, out_of_range


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler plus ``ServiceError`` → its status with ``{"detail", "code"}`` (and
    ``Retry-After`` when it says when to retry)."""
    exc = out_of_range(exc) or exc
    if isinstance(exc, ServiceError):
        response = Response(exc.as_dict(), status=exc.status)
        if exc.extra.get("retry_after"):  # a 429 says when to come back, as the pages' do
            response["Retry-After"] = str(exc.extra["retry_after"])
        return response
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(exc, ValidationError):
        response.data = capped_body(response.data)
    return response


# The 200 answer of list endpoints that build their items by hand: a JSON array of objects.
OBJECT_LIST = {200: {"type": "array", "items": {"type": "object", "additionalProperties": {}}}}
