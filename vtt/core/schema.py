"""OpenAPI schema additions: the refusals every endpoint can answer, in one shape.

Views declare their success answers; the errors come from shared plumbing (authentication,
``authorize``, ``ServiceError``, rate limits), so they are documented here once instead of on
each of a hundred operations. schemathesis checks every answer against this
(tests/security/test_api_schema_fuzz.py)."""

from __future__ import annotations

from typing import Any

ERROR_COMPONENT = "Error"

# A refusal: ``{"detail", "code"}`` from ServiceError and DRF, ``fields`` with per-field messages,
# ``retry_after`` on 429. DRF's serializer validation answers ``{"<field>": ["message", ...]}``.
ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "Why the request was refused, in the caller's language.",
    "properties": {
        "detail": {"type": "string"},
        "code": {"type": "string"},
        "fields": {"type": "object", "additionalProperties": {}},
        "retry_after": {"type": "integer", "minimum": 1},
    },
    "additionalProperties": {},
}

ALWAYS = {
    "400": "Bad input: the message says what and where; nothing changed.",
    "401": "Not logged in (send `Authorization: Token <key>` or a session cookie).",
    "403": "Logged in, but this role may not do that (or CSRF failed).",
    "404": "No such object, or not visible to you: other campaigns do not leak.",
}
WRITES = {
    "409": "Conflict with the current state (a stale version, a finished choice…).",
    "415": "The body's media type is not one the operation reads (or the body is malformed).",
    "429": "Rate limited: wait `retry_after` seconds.",
}
WRITE_METHODS = {"post", "put", "patch", "delete"}
# Refusals only some paths give (by path prefix).
BY_PATH = {
    "/api/invites/": {"410": "The invite expired, was revoked or is used up."},
}


def document_errors(result: dict[str, Any], generator, request, public) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: add the shared error answers to every operation."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components[ERROR_COMPONENT] = ERROR_SCHEMA
    ref = {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"}
    for path, path_item in result.get("paths", {}).items():
        for method, operation in path_item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            codes = dict(ALWAYS)
            if method in WRITE_METHODS:
                codes.update(WRITES)
            for prefix, extra in BY_PATH.items():
                if path.startswith(prefix):
                    codes.update(extra)
            responses = operation["responses"]
            for code, description in codes.items():
                responses.setdefault(
                    code,
                    {"description": description, "content": {"application/json": {"schema": ref}}},
                )
    return result
