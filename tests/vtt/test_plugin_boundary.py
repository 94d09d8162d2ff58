"""The generic apps name no ruleset: they reach a ruleset's web side through
``vtt.rulesets.registry`` (docs/architecture.md, "The plugin interface").

A ruleset key in quotes, an import of a ruleset's rules (``systems.<ruleset>``) or of a
ruleset's plugin (``vtt.rulesets.<ruleset>``) in a generic app or a generic template fails
here. Comments and docstrings may still say "Crows" in prose; only code-shaped names count.
"""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

from systems import RULESETS
from vtt.rulesets.base import RulesetWeb, RulesetWebFeatures
from vtt.rulesets.registry import all_webs, web_for

ROOT = Path(settings.BASE_DIR)
ROOT_APPS = ROOT / "vtt"
# Every app but the plugins is generic, a new one included (journal, …).
GENERIC_APPS = tuple(
    sorted(p.name for p in ROOT_APPS.iterdir() if (p / "apps.py").exists() and p.name != "rulesets")
)
# Templates of the generic apps: every folder of templates/ (a ruleset's templates live in
# vtt/rulesets/<key>/templates/).
GENERIC_TEMPLATES = tuple(sorted(p.name for p in (ROOT / "templates").iterdir() if p.is_dir()))
KEYS = sorted(r.key for r in RULESETS)
ANY_KEY = "|".join(KEYS)
KEY_LITERAL = re.compile(rf"""["']({ANY_KEY})["']""")
RULESET_IMPORT = re.compile(
    rf"\b(?:systems|vtt\.rulesets)\.({ANY_KEY})\b|from vtt\.rulesets import ({ANY_KEY})\b"
)
# Where a generic app still names a ruleset, each with the reason it stays for now.
KNOWN: dict[str, str] = {
    "static/js/crows_panel.js": "the Crows panel's script; plugins have no static/ folder yet",
    "static/js/map.js": "the Crows attack tool on square maps; moves with the plugin's script",
    "static/js/deck.js": "the Savage Worlds and Tales panel; moves with the plugins' scripts",
}


def _generic_files() -> list[Path]:
    files = [
        path
        for app in GENERIC_APPS
        for path in sorted((ROOT / "vtt" / app).rglob("*.py"))
        if "migrations" not in path.parts
    ]
    files += [
        path
        for folder in GENERIC_TEMPLATES
        for path in sorted((ROOT / "templates" / folder).rglob("*.html"))
    ]
    files += sorted((ROOT / "templates").glob("*.html"))
    files += sorted((ROOT / "static" / "js").rglob("*.js"))
    return files


def _hits() -> list[str]:
    found = []
    for path in _generic_files():
        rel = path.relative_to(ROOT).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if KEY_LITERAL.search(line) or RULESET_IMPORT.search(line):
                found.append(f"{rel}:{number}: {line.strip()}")
    return found


def test_generic_apps_name_no_ruleset() -> None:
    hits = [h for h in _hits() if h.split(":", 1)[0] not in KNOWN]
    assert not hits, "generic code names a ruleset; ask vtt.rulesets.registry:\n" + "\n".join(hits)


def test_known_exceptions_are_still_needed() -> None:
    """An entry of KNOWN whose file no longer names a ruleset is stale: delete it."""
    hit_files = {h.split(":", 1)[0] for h in _hits()}
    assert not set(KNOWN) - hit_files


def test_every_ruleset_has_a_plugin() -> None:
    assert sorted(web.key for web in all_webs()) == KEYS
    for key in KEYS:
        web = web_for(key)
        assert isinstance(web, RulesetWeb)
        assert isinstance(web, RulesetWebFeatures)


def test_an_unknown_ruleset_has_no_plugin() -> None:
    try:
        web_for("no_such_ruleset")
    except LookupError:
        return
    raise AssertionError("web_for accepted an unknown key")
