"""Pick the UI language: the user's saved choice, else the cookie, else Russian.

Deliberately ignores Accept-Language: Russian is the product's default for everyone who has
not chosen otherwise.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

SUPPORTED = {code for code, _name in settings.LANGUAGES}


def language_for(request: HttpRequest) -> str:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and user.language in SUPPORTED:
        return user.language
    cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    if cookie in SUPPORTED:
        return cookie
    return settings.LANGUAGE_CODE


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
