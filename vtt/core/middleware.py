"""Turn a refused write on a page into a readable error page instead of a 500."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from vtt.core.errors import ServiceError


class ServiceErrorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not isinstance(exc, ServiceError):
            return None
        if getattr(request, "htmx", False):
            # Show the message in the page's error area, not in place of the panel it targeted.
            response = render(request, "partials/error.html", {"error": exc}, status=exc.status)
            response["HX-Retarget"] = "#htmx-errors"
            response["HX-Reswap"] = "innerHTML"
            return response
        return render(request, "error.html", {"error": exc}, status=exc.status)
