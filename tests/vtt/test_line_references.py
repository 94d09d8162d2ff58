"""No rulebook line reference (``L118``) in anything a player or an API client reads (issue 20):
the raw JSON of every ruleset's ``describe()``, the prep library the API hands out for every demo
campaign, every template and every catalogue entry. Rules carry their rulebook citation in a
``source`` field for readers of the code; these tests fail if one leaks. The rendered pages and
event texts of the demo campaigns are scanned by tests/vtt/test_player_text.py. The code cites the
rulebook by chapter and heading too, never by line or by a digest's section, so vtt/, systems/,
templates/ and static/js are scanned whole."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client

from systems import RULESET_KEYS, get_ruleset
from tests.playertext import LINE_REF
from vtt.accounts.models import User
from vtt.campaigns.models import Campaign

ROOT = Path(settings.BASE_DIR)


def _refs(text: str) -> list[str]:
    return [m.group() for m in LINE_REF.finditer(text)]


@pytest.mark.parametrize("key", RULESET_KEYS)
def test_describe_json_has_no_line_references(key):
    text = json.dumps(get_ruleset(key).describe(), ensure_ascii=False)
    assert _refs("(L118-L128)") == ["L118", "L128"]  # the pattern catches a citation
    assert not _refs(text), _refs(text)[:5]


@pytest.mark.django_db
def test_prep_library_api_has_no_line_references(settings, tmp_path):
    settings.DEBUG = True
    settings.MEDIA_ROOT = tmp_path / "media"
    call_command("seed_demo", stdout=io.StringIO())
    client = Client()
    client.force_login(User.objects.get(username="referee"))
    seen = set()
    for campaign in Campaign.objects.all():
        resp = client.get(f"/api/campaigns/{campaign.pk}/prep/library/")
        assert resp.status_code == 200, campaign.ruleset
        body = resp.content.decode()
        assert not _refs(body), (campaign.ruleset, _refs(body)[:5])
        if json.loads(body)["tables"] or json.loads(body)["npcs"]:
            seen.add(campaign.ruleset)
    assert {"tales", "crows"} <= seen  # the library is not empty, so the scan read something


def _catalogue_texts(path: Path) -> list[str]:
    """Every msgid and msgstr line of a .po file (comments and source locations left out)."""
    return [
        line
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith(("msgid", "msgstr", '"'))
    ]


def test_catalogues_and_templates_have_no_line_references():
    found = []
    for po in sorted((ROOT / "locale").glob("*/LC_MESSAGES/*.po")):
        found += [f"{po.relative_to(ROOT)}: {t}" for t in _catalogue_texts(po) if _refs(t)]
    templates = [*(ROOT / "templates").rglob("*.html"), *(ROOT / "vtt").rglob("*.html")]
    for html in sorted(templates):
        found += [f"{html.relative_to(ROOT)}: {r}" for r in _refs(html.read_text(encoding="utf-8"))]
    assert (ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po").exists()
    assert not found, found


# Where the code is read: every source of the app, the rules, the templates and the scripts.
CODE_DIRS = {"vtt": ("*.py", "*.html", "*.js"), "systems": ("*.py",), "templates": ("*.html",)}
CODE_DIRS["static/js"] = ("*.js",)
# A line of the rulebook's text (``L118``) and the rules digests' sections and ambiguity numbers
# («digest §2.7», «part A ambiguity 16», «(A9)»): documents outside the repository.
CITATION = re.compile(r"\bL\d{2,4}\b")
DIGEST_REF = re.compile(
    r"digest(?:'s)?\s*§|§\s*\d|\bpart[- ]?[AB]\b[^\n]{0,12}ambiguit|\bdigest\s+ambiguit"
    r"|\bambiguity\s+\d|\(A\d{1,2}\b"
)


def _code_files() -> list[Path]:
    return sorted(
        path
        for folder, patterns in CODE_DIRS.items()
        for pattern in patterns
        for path in (ROOT / folder).rglob(pattern)
        if ".venv" not in path.parts
    )


def _outside_citations(text: str) -> list[str]:
    return [m.group() for pattern in (CITATION, DIGEST_REF) for m in pattern.finditer(text)]


def test_the_citation_patterns_catch_what_they_must():
    assert _outside_citations("(L118-L128)") == ["L118", "L128"]
    for cited in ("digest §2.7", "the digest's §3", "part A ambiguity 16", "ambiguity 4", "(A9)"):
        assert _outside_citations(cited), cited
    for plain in ("«Бой › Реакции»", "LIGHT_LEVELS", "L1 cache", "a 2d10 roll", "A4 paper"):
        assert not _outside_citations(plain), plain


def test_code_cites_the_rulebook_by_heading_not_by_line_or_digest():
    """Comments, docstrings and ``source`` fields name the rulebook's chapter and heading
    («Проверки › Экспертизы»): a line number of the rulebook file or a section of a digest outside
    the repository tells a reader nothing once that file changes."""
    found = []
    files = _code_files()
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [f"{path.relative_to(ROOT)}:{number}: {c!r}" for c in _outside_citations(line)]
    assert len(files) > 100  # the scan read the code
    assert {"vtt", "systems", "templates", "static"} <= {
        p.relative_to(ROOT).parts[0] for p in files
    }
    assert not found, (
        "cite the rulebook as «Глава › Раздел» and state the reading chosen, not a line of its "
        "text or a digest's section:\n" + "\n".join(found[:20])
    )
