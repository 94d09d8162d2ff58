"""Small helpers several test packages share (sockets, live servers, the chaos seed)."""

from __future__ import annotations

from typing import Any


def session_cookie(user: Any) -> str:
    """A ``Cookie`` header value that logs ``user`` in, as the login view would.

    Sockets and live servers authenticate by session, not by the test client's
    ``force_login``, so tests make a real session row. Imports are local so the chaos seed
    can use this after ``django.setup()``.
    """
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def js_catalogue(client: Any, response: Any) -> dict[str, Any]:
    """The JavaScript catalogue a page loads (its ``jsi18n/<language>/`` script), as the
    ``django.gettext`` lookup table: msgid → translation."""
    import json
    import re

    src = re.search(r'<script src="(/jsi18n/\w+/)"></script>', response.content.decode())
    assert src, "the page does not load the JavaScript catalogue"
    body = client.get(src.group(1)).content.decode()
    catalogue = re.search(r"const newcatalog = (\{.*?\});", body, re.S)
    return json.loads(catalogue.group(1)) if catalogue else {}  # none: English as written
