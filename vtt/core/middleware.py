"""Page middleware: readable error pages for refused writes, ids past the database range, and the
Content-Security-Policy header."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from vtt.core.errors import ServiceError, out_of_range
from vtt.core.jsonsafe import bad_form, bad_form_field


class ServiceErrorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        exc = out_of_range(exc) or exc
        if not isinstance(exc, ServiceError):
            return None
        return error_page(request, exc)


def error_page(request: HttpRequest, exc: ServiceError) -> HttpResponse:
    """A refusal as the page (or the htmx fragment) that asked for it shows it."""
    if getattr(request, "htmx", False):
        # Show the message in the page's error area, not in place of the panel it targeted.
        response = render(request, "partials/error.html", {"error": exc}, status=exc.status)
        response["HX-Retarget"] = "#htmx-errors"
        response["HX-Reswap"] = "innerHTML"
        return response
    return render(request, "error.html", {"error": exc}, status=exc.status)


class FormTextMiddleware:
    """The JSON entry point refuses NUL and lone surrogates (vtt/core/jsonsafe.py); form posts
    and query strings are the other way text comes in. Pages hand some form fields straight to a
    service, and PostgreSQL refuses NUL on write (a 500), so such a request is a 400 before any
    view runs. Query strings and urlencoded forms arrive decoded as UTF-8, so only NUL can
    appear there; a multipart body may name another charset (``unicode_escape`` spells a lone
    surrogate), so both are looked for.

    Multipart bodies are checked where they are parsed, never parsed here first (a view may
    install its own upload handlers, the size guard, before it parses):

    - a page view that Django's CSRF check covers: that check has read ``request.POST`` by the
      time this runs (the token may be a form field), so looking at it here costs nothing;
    - the map background upload page, exempt so that its size guard runs before the parse:
      it calls ``check_form_text`` after its own CSRF check;
    - the API (DRF views are exempt too): its form and multipart parsers refuse the field
      (``jsonsafe.FormParser`` and ``jsonsafe.MultiPartParser``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs):
        field = bad_form_field(request.GET)
        if field is None and request.method == "POST":
            if request.content_type == FORM_TYPE:
                field = bad_form_field(request.POST)
            elif request.content_type == MULTIPART_TYPE and not getattr(
                view_func, "csrf_exempt", False
            ):
                field = bad_form_field(request.POST, request.FILES)
        if field is None:
            return None
        exc = bad_form(field)
        if request.path.startswith("/api/"):
            return JsonResponse(exc.as_dict(), status=exc.status)
        return error_page(request, exc)


FORM_TYPE = "application/x-www-form-urlencoded"
MULTIPART_TYPE = "multipart/form-data"


def check_form_text(request: HttpRequest) -> None:
    """For a view exempt from the CSRF check that parses its own multipart body: call after
    the parse; ``Invalid`` (a 400 page naming the field) if a text field holds NUL."""
    field = bad_form_field(request.POST, request.FILES)
    if field is not None:
        raise bad_form(field)


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
