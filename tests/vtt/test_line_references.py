"""No rulebook line reference (``L118``) in anything a player or an API client reads (issue 20):
the raw JSON of every ruleset's ``describe()``, the prep library the API hands out for every demo
campaign, every template and every catalogue entry. Rules carry their rulebook citation in a
``source`` field for readers of the code; these tests fail if one leaks. The rendered pages and
event texts of the demo campaigns are scanned by tests/vtt/test_player_text.py. The Crows rules
cite the rulebook by chapter and heading in their code too, so their sources are scanned whole."""

from __future__ import annotations

import io
import json
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


def test_crows_code_cites_the_rulebook_by_heading_not_by_line():
    """Comments, docstrings and ``source`` fields of systems/crows name the rulebook's chapter and
    heading («Проверки › Экспертизы»); a line number of the seed file outside the repository
    tells a reader nothing once the file changes."""
    found = []
    files = sorted((ROOT / "systems" / "crows").rglob("*.py"))
    for path in files:
        text = path.read_text(encoding="utf-8")
        found += [f"{path.relative_to(ROOT)}: {r}" for r in _refs(text)]
    assert len(files) > 20  # the scan read the package
    assert not found, found[:10]
