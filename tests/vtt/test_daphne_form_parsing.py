"""Daphne's requests leave POST bodies to the application (vtt.core.asgi_http)."""

from __future__ import annotations

import pytest
from daphne.http_protocol import HTTPFactory, WebRequest
from daphne.server import Server
from twisted.internet.address import IPv4Address
from twisted.internet.testing import StringTransport

from vtt.core.asgi_http import skip_twisted_form_parsing


def _request() -> WebRequest:
    """A request as daphne's HTTP channel builds it, on a real (not started) daphne server."""

    async def app(scope, receive, send):  # never called: the request is not processed
        raise AssertionError

    server = Server(application=app, endpoints=["tcp:port=0:interface=127.0.0.1"])
    server.connections = {}  # set by run(), which is not called
    protocol = HTTPFactory(server).buildProtocol(IPv4Address("TCP", "127.0.0.1", 5555))
    protocol.makeConnection(StringTransport())
    channel = getattr(protocol, "_channel", protocol)  # Twisted wraps the HTTP/1.1 channel
    return channel.requestFactory(channel, False)


def test_twisted_does_not_parse_form_posts_for_daphne():
    skip_twisted_form_parsing()
    skip_twisted_form_parsing()  # once is enough: a second call does not wrap again
    request = _request()
    # Twisted would parse every POST's Content-Type with the email package, and urlencoded or
    # multipart bodies (a whole map upload) into request.args, which daphne never reads
    assert request._parsePOSTFormSubmission is False
    assert WebRequest.__init__.__wrapped__.__qualname__ == "WebRequest.__init__"


@pytest.mark.django_db
def test_the_asgi_application_applies_it():
    import vtt.asgi  # noqa: F401 (daphne imports it so)

    assert getattr(WebRequest, "_vtt_no_form_parsing", False)
    assert _request()._parsePOSTFormSubmission is False
