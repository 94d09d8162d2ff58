"""Content-Security-Policy (issue 18 item 6): scripts only from our static files. The browser
tests (tests/e2e/conftest.py) fail on any violation a real page causes; these check the header
and that no template brings inline code back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.conftest import make_user

pytestmark = pytest.mark.django_db

TEMPLATES = Path(settings.BASE_DIR) / "templates"
# What script-src 'self' refuses to run in a page.
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>")
INLINE_HANDLER = re.compile(r"\s(on[a-z]+|hx-on(:|-)[^=\s]*)\s*=", re.IGNORECASE)
JS_URL = re.compile(r"=\s*[\"']\s*javascript:", re.IGNORECASE)


def _directives(header: str) -> dict[str, list[str]]:
    parts = (part.split() for part in header.split(";") if part.strip())
    return {part[0]: part[1:] for part in parts}


def test_pages_send_a_policy_without_inline_script():
    response = Client().get(reverse("login"))
    policy = _directives(response["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert "'unsafe-eval'" not in policy["default-src"]


def test_api_docs_load_their_script_from_a_url():
    """Swagger UI's init script comes from ?script= (drf-spectacular's split view), not inline."""
    client = Client()
    client.force_login(make_user("reader"))
    page = client.get(reverse("api-docs")).content.decode()
    assert "<script" in page and not INLINE_SCRIPT.search(page)
    script = client.get(reverse("api-docs") + "?script=")
    assert script.status_code == 200
    assert "SwaggerUIBundle" in script.content.decode()


@pytest.mark.parametrize(
    "path", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: str(p.relative_to(TEMPLATES))
)
def test_templates_have_no_inline_script_or_handlers(path: Path):
    text = path.read_text(encoding="utf-8")
    found = [m.group(0) for m in (INLINE_SCRIPT.search(text), JS_URL.search(text)) if m]
    found += [m.group(0).strip() for m in INLINE_HANDLER.finditer(text)]
    assert not found, f"{path.name}: move {found} to a static script (script-src 'self')"
