"""Page middleware: readable error pages for refused writes, ids past the database range, and the
Content-Security-Policy header."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from vtt.core.errors import ServiceError, out_of_range


class ServiceErrorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        exc = out_of_range(exc) or exc
        if not isinstance(exc, ServiceError):
            return None
        if getattr(request, "htmx", False):
            # Show the message in the page's error area, not in place of the panel it targeted.
            response = render(request, "partials/error.html", {"error": exc}, status=exc.status)
            response["HX-Retarget"] = "#htmx-errors"
            response["HX-Reswap"] = "innerHTML"
            return response
        return render(request, "error.html", {"error": exc}, status=exc.status)


# The largest id the database holds (BigAutoField): a bigger one in a URL names nothing.
MAX_ID = 2**63 - 1


class IdRangeMiddleware:
    """``<int:…>`` (and DRF's router) in a URL take any number of digits; past the database's
    integer range the lookup itself failed (SQLite: OverflowError, a 500). Such a URL names
    nothing: 404."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs) -> None:
        for value in (*view_args, *view_kwargs.values()):
            if isinstance(value, str) and value.isascii() and value.isdigit():
                value = int(value)  # DRF's router captures ids as text
            if isinstance(value, int) and not 0 <= value <= MAX_ID:
                raise Http404


class ContentSecurityPolicyMiddleware:
    """Send ``settings.CONTENT_SECURITY_POLICY`` with every response: scripts only from our own
    static files (no inline script, no inline handlers, no eval), so markup that slips into a
    page cannot run. A view that needs another policy sets the header itself."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if settings.CONTENT_SECURITY_POLICY:
            response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        return response
