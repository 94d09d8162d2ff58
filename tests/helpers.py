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
