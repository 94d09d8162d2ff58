"""Pick the language of an answer: one rule (``choose_language``) for pages, the API and the
table socket.

A browser gets the user's saved choice, else the cookie, else Russian: the product's default
for everyone who has not chosen otherwise, so a browser's Accept-Language is deliberately
ignored. A script (a caller presenting an API token: ``Authorization: Token …``, which a page
never sends) is answered in the language its Accept-Language names when that is one we speak,
else as a browser would be: a bot written in English asks for English and gets it, whatever
its owner picked for the pages.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation.trans_real import (
    get_supported_language_variant,
    parse_accept_lang_header,
)

from vtt.core.socket_auth import token_header

SUPPORTED = {code for code, _name in settings.LANGUAGES}


def accepted_language(header: str | None) -> str | None:
    """The supported language an Accept-Language header prefers (quality values honoured,
    ``q=0`` and ``*`` skipped), or None when it names none of ours."""
    for code, quality in parse_accept_lang_header((header or "").lower()):
        if code == "*" or quality <= 0:
            continue
        try:
            language = get_supported_language_variant(code)
        except LookupError:
            continue
        if language in SUPPORTED:
            return language
    return None


def choose_language(
    user: Any, *, scripted: bool, accept_language: str | None, cookie: str | None
) -> str:
    """The language of every answer to this caller (the one rule: module docstring)."""
    if scripted:
        asked = accepted_language(accept_language)
        if asked is not None:
            return asked
    if user is not None and user.is_authenticated and getattr(user, "language", None) in SUPPORTED:
        return user.language
    if cookie in SUPPORTED:
        return cookie
    return settings.LANGUAGE_CODE


def is_scripted(request: HttpRequest) -> bool:
    """Does the request present an API token (DRF's ``Authorization: Token <key>``)?"""
    header = request.headers.get("Authorization", "").split()
    return bool(header) and header[0].lower() == "token"


def language_for(request: HttpRequest) -> str:
    """``choose_language`` for an HTTP request (or DRF's ``Request``, once it knows the user)."""
    return choose_language(
        getattr(request, "user", None),
        scripted=is_scripted(request),
        accept_language=request.headers.get("Accept-Language"),
        cookie=request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME),
    )


def socket_language(scope: dict[str, Any]) -> str:
    """``choose_language`` for a websocket handshake (after the auth middleware)."""
    accept = next(
        (v.decode("latin1") for k, v in scope.get("headers", []) if k == b"accept-language"),
        None,
    )
    return choose_language(
        scope.get("user"),
        scripted=token_header(scope) is not None,
        accept_language=accept,
        cookie=scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME),
    )


class UserLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = language_for(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        response.headers.setdefault("Vary", "Cookie")
        translation.deactivate()
        return response
