"""Unit tests of static/js in Chromium: the modules run as the browser loads them (no build),
served with the pages they act on from a small HTTP server in this process.

A test registers what the server answers (``serve.page(path, html)``, e.g. a page rendered by
Django's test client, or the JavaScript catalogue), then opens it in Debian's Chromium through
Playwright and imports the modules with ``import()``; ``/static/`` is answered from Django's
static finders, so the page loads the same files the site serves.
"""

from __future__ import annotations

import mimetypes
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, _require_browser

# A page with nothing on it but the language, for the modules that need no markup.
BLANK = '<!doctype html><html lang="ru"><head><meta charset="utf-8"></head><body></body></html>'
TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}


class Server:
    """Pages registered by the test, and /static/ from Django's finders."""

    def __init__(self) -> None:
        self.pages: dict[str, tuple[str, bytes]] = {}
        self.base = ""

    def page(self, path: str, body: str | bytes, content_type: str = "text/html") -> str:
        data = body.encode() if isinstance(body, str) else body
        self.pages[path] = (f"{content_type}; charset=utf-8", data)
        return self.base + path

    def answer(self, path: str) -> tuple[int, str, bytes]:
        from django.contrib.staticfiles import finders

        path = path.split("?", 1)[0]
        if path in self.pages:
            return 200, *self.pages[path]
        if path.startswith("/static/"):
            found = finders.find(path.removeprefix("/static/"))
            if found:
                file = Path(found)
                kind = TYPES.get(file.suffix) or mimetypes.guess_type(file.name)[0]
                return 200, kind or "application/octet-stream", file.read_bytes()
        return 404, "text/plain", b"not found"


@pytest.fixture(scope="session")
def serve() -> Iterator[Server]:
    server = Server()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            status, kind, body = server.answer(self.path)
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.base = f"http://127.0.0.1:{httpd.server_address[1]}"
    server.page("/blank.html", BLANK)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield server
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def browser():
    """Per module, as in tests/e2e: Playwright's sync API keeps an event loop running in the
    main thread while it is open. The ORM refuses to run beside a running loop; these tests use
    the database only between browser calls, never concurrently with them."""
    _require_browser()
    from playwright.sync_api import sync_playwright

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "1")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield browser
            browser.close()


@pytest.fixture
def open_page(browser, serve):
    """``open_page(path)``: a fresh page at a registered path; what its scripts throw or log as
    errors is in ``page.errors``."""
    contexts = []
    errors: list[str] = []

    def _open(path: str = "/blank.html"):
        context = browser.new_context(viewport={"width": 1280, "height": 860})
        context.set_default_timeout(5_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
        page.on(
            "console",
            lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None,
        )
        page.goto(serve.base + path)
        page.errors = errors
        return page

    yield _open
    for context in contexts:
        context.close()
