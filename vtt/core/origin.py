"""Which pages may open a websocket: the site's own origin, scheme included.

Channels' ``AllowedHostsOriginValidator`` compares host names only, so a page served over
plain ``http://`` (a network attacker's copy of the site, say) could open a socket on the
``https://`` site with the visitor's cookie. This is the rule Django's CSRF check applies to
form posts: the Origin must be ``<scheme>://<host>`` of this very request, or be listed in
``CSRF_TRUSTED_ORIGINS``.

A script is no browser: it sends no Origin, and authenticates with its API token in a header
(vtt/core/socket_auth.py). A handshake with ``Authorization: Token …`` and *no* Origin is let
through to that check. The Origin rule protects a visitor's cookie from other sites' pages, and
a browser always sends an Origin on a websocket and cannot set an Authorization header there,
so this opens nothing to a page: a handshake that carries a foreign Origin is refused, token or
not.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import is_same_domain, split_domain_port, validate_host

from vtt.core.socket_auth import token_header

DEFAULT_PORTS = {"http": 80, "https": 443}


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin1")
    return None


def socket_scheme(scope: dict[str, Any]) -> str:
    """The scheme the page talking to this socket must have: ``https`` when the socket came
    over TLS, judged as Django judges a request (``SECURE_PROXY_SSL_HEADER`` behind an HTTPS
    proxy, the ``BEHIND_HTTPS_PROXY`` setting), else ``http``."""
    proxy = settings.SECURE_PROXY_SSL_HEADER
    if proxy:
        name, secure_value = proxy
        # HTTP_X_FORWARDED_PROTO -> x-forwarded-proto
        header = name.removeprefix("HTTP_").replace("_", "-").lower().encode("latin1")
        value = _header(scope, header)
        if value is not None:
            # As Django: a proxy chain may send "https, http"; the first one counts.
            return "https" if value.split(",")[0].strip() == secure_value else "http"
    return "https" if scope.get("scheme") in ("wss", "https") else "http"


def _host_port(netloc: str, scheme: str) -> tuple[str, int | None]:
    host, port = split_domain_port(netloc)
    return host, int(port) if port.isdigit() else DEFAULT_PORTS.get(scheme)


def origin_allowed(scope: dict[str, Any]) -> bool:
    """Is the handshake's Origin this site as the socket reached it, or a trusted origin?"""
    origin = _header(scope, b"origin")
    if not origin:
        return False
    try:
        parsed = urlsplit(origin)
        parsed.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError:
        return False
    if not parsed.scheme or not parsed.netloc:
        return False
    if _trusted(parsed.scheme, parsed.netloc):
        return True
    scheme = socket_scheme(scope)
    if parsed.scheme != scheme:
        return False
    origin_host = _host_port(parsed.netloc.lower(), scheme)
    if not validate_host(origin_host[0], _allowed_hosts()):
        return False
    host = _header(scope, b"host")
    # Browsers always send Host; an in-process test client may not (then the host name check
    # above is the whole rule, as before).
    return host is None or _host_port(host.lower(), scheme) == origin_host


def _trusted(scheme: str, netloc: str) -> bool:
    """``CSRF_TRUSTED_ORIGINS`` with Django's meaning: exact, or ``https://*.example.org``."""
    for trusted in settings.CSRF_TRUSTED_ORIGINS:
        pattern = urlsplit(trusted)
        if pattern.scheme != scheme:
            continue
        if pattern.netloc.lower() == netloc.lower():
            return True
        if pattern.netloc.startswith("*") and is_same_domain(netloc.lower(), pattern.netloc[1:]):
            return True
    return False


def _allowed_hosts() -> list[str]:
    hosts = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not hosts:
        hosts = [".localhost", "127.0.0.1", "[::1]"]  # as Django's own request.get_host()
    return hosts


class SiteOriginValidator:
    """ASGI wrapper for websockets: refuse the handshake (403) unless ``origin_allowed``, or
    it is a script's: no Origin at all and an API token header (checked further in)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if origin_allowed(scope) or _scripted(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)


def _scripted(scope: dict[str, Any]) -> bool:
    """No Origin and an ``Authorization: Token`` header: a script, not a page."""
    return _header(scope, b"origin") is None and token_header(scope) is not None
