"""The socket's Origin check compares the scheme and port too, not only the host name
(issue 18 item 7): a page on ``http://host`` must not open a socket on the ``https://`` site."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from tests.helpers import session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

SITE = "vtt.example.org"


@pytest.fixture
def https_site(settings):
    """The production layout: TLS ends at a proxy that sets X-Forwarded-Proto."""
    settings.ALLOWED_HOSTS = [SITE, "localhost"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.CSRF_TRUSTED_ORIGINS = []


async def handshake(table, origin: str | None, **extra: str) -> bool:
    """Open the real application's socket as the referee; True when it was accepted."""
    from vtt.asgi import application

    cookie = await database_sync_to_async(session_cookie)(table.referee)
    headers = [(b"cookie", cookie.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    headers += [(k.replace("_", "-").encode(), v.encode()) for k, v in extra.items()]
    comm = WebsocketCommunicator(application, f"/ws/campaigns/{table.campaign.id}/", headers)
    connected, _code = await comm.connect(timeout=5)
    await comm.disconnect()
    return connected


async def test_https_site_refuses_an_http_origin(table, https_site):
    proxied = {"host": SITE, "x_forwarded_proto": "https"}
    assert await handshake(table, f"https://{SITE}", **proxied)
    # The same host name over plain http: before, AllowedHostsOriginValidator let it in.
    assert not await handshake(table, f"http://{SITE}", **proxied)


async def test_http_site_refuses_an_https_origin(table, https_site):
    # Plain http reached the server (no TLS at the proxy): only http pages are the site.
    assert await handshake(table, f"http://{SITE}", host=SITE, x_forwarded_proto="http")
    assert not await handshake(table, f"https://{SITE}", host=SITE, x_forwarded_proto="http")


async def test_tls_socket_without_proxy_header(table, settings):
    settings.ALLOWED_HOSTS = [SITE]
    settings.SECURE_PROXY_SSL_HEADER = None
    from vtt.core.origin import origin_allowed

    scope = {"scheme": "wss", "headers": [(b"host", SITE.encode())]}
    assert origin_allowed(
        {**scope, "headers": [*scope["headers"], (b"origin", b"https://" + SITE.encode())]}
    )
    assert not origin_allowed(
        {**scope, "headers": [*scope["headers"], (b"origin", b"http://" + SITE.encode())]}
    )


async def test_port_and_host_must_match_the_request(table, https_site):
    proxied = {"host": SITE, "x_forwarded_proto": "https"}
    assert not await handshake(table, f"https://{SITE}:8443", **proxied)
    assert await handshake(table, f"https://{SITE}:443", **proxied)
    # Another allowed host name is not this site.
    assert not await handshake(table, "https://localhost", **proxied)
    assert not await handshake(table, "https://evil.example.com", **proxied)


async def test_missing_or_malformed_origin_is_refused(table, https_site):
    proxied = {"host": SITE, "x_forwarded_proto": "https"}
    assert not await handshake(table, None, **proxied)
    assert not await handshake(table, "null", **proxied)
    assert not await handshake(table, f"https://{SITE}:99999", **proxied)


async def test_csrf_trusted_origins_are_accepted_with_their_scheme(table, https_site, settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.net", "https://*.example.com"]
    internal = {"host": SITE, "x_forwarded_proto": "https"}
    assert await handshake(table, "https://play.example.net", **internal)
    assert await handshake(table, "https://eu.example.com", **internal)
    assert not await handshake(table, "http://play.example.net", **internal)
    assert not await handshake(table, "http://eu.example.com", **internal)
