"""Production's hashed static files keep the ES modules whole: every relative import in a
collected module names the hashed copy of a file that exists, so a page and the modules it
imports share one copy of each module."""

from __future__ import annotations

import re
from pathlib import Path

from django.core.management import call_command
from django.test import override_settings

IMPORT = re.compile(
    r"""(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']|import\s*["']([^"']+)["']"""
)


def test_collected_modules_import_the_hashed_copies(tmp_path: Path) -> None:
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "vtt.core.staticfiles.ModuleManifestStaticFilesStorage"},
    }
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=storages):
        call_command("collectstatic", "--noinput", "-v", "0")
    js = tmp_path / "js"
    hashed = [p for p in js.rglob("*.js") if re.search(r"\.[0-9a-f]{12}\.js$", p.name)]
    assert any(p.name.startswith("table.") for p in hashed)
    checked = 0
    for module in hashed:
        for first, second in IMPORT.findall(module.read_text()):
            url = first or second
            if not url.startswith("."):
                continue
            target = (module.parent / url).resolve()
            assert re.search(r"\.[0-9a-f]{12}\.js$", target.name), (module.name, url)
            assert target.exists(), (module.name, url)
            checked += 1
    assert checked > 30
