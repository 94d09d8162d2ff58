"""Interface text reaches static/js through Django's JavaScript catalogue (jsi18n/<language>/),
with the strings in locale/<lang>/LC_MESSAGES/djangojs.po, not through label dictionaries in
the pages' configs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polib
import pytest
from django.test import Client
from django.urls import reverse

from tests.helpers import js_catalogue

ROOT = Path(__file__).resolve().parents[2]
STATIC_JS = ROOT / "static" / "js"
LOCALE = ROOT / "locale"
# gettext("…") and pgettext("context", "…") with JSON-style string literals.
CALL = re.compile(r'\b(gettext|pgettext)\((?:("(?:[^"\\]|\\.)*"),\s*)?("(?:[^"\\]|\\.)*")\)')


def used_in_js() -> set[tuple[str | None, str]]:
    found = set()
    for path in STATIC_JS.rglob("*.js"):
        for kind, context, msgid in CALL.findall(path.read_text()):
            if kind == "pgettext" and not context:
                continue  # a wrapper's own definition
            found.add((json.loads(context) if context else None, json.loads(msgid)))
    return found


def catalogue_entries(lang: str) -> dict[tuple[str | None, str], str]:
    po = polib.pofile(str(LOCALE / lang / "LC_MESSAGES" / "djangojs.po"))
    return {(e.msgctxt, e.msgid): e.msgstr for e in po if not e.obsolete}


def test_every_string_of_the_scripts_is_in_both_catalogues_and_nothing_else():
    used = used_in_js()
    assert len(used) > 300  # the scripts' text, not a stray call or two
    for lang in ("ru", "en"):
        entries = catalogue_entries(lang)
        assert not sorted(used - set(entries), key=str), f"missing from {lang}/djangojs.po"
        assert not sorted(set(entries) - used, key=str), f"unused in {lang}/djangojs.po"
    untranslated = [key for key, text in catalogue_entries("ru").items() if not text]
    assert not untranslated, "Russian (the default) needs every string translated"


def test_placeholders_survive_translation():
    for (_context, msgid), text in catalogue_entries("ru").items():
        assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", msgid)), msgid


def test_no_script_reads_a_label_dictionary():
    for path in STATIC_JS.rglob("*.js"):
        assert not re.search(r"\.labels\b|\bL\.\w", path.read_text()), path.name


@pytest.mark.django_db
def test_catalogue_per_language_cacheable():
    client = Client()
    ru = client.get(reverse("javascript-catalogue", args=["ru"]))
    assert ru.status_code == 200 and ru["Content-Type"].startswith("text/javascript")
    assert "public" in ru["Cache-Control"] and "max-age=" in ru["Cache-Control"]
    again = client.get(
        reverse("javascript-catalogue", args=["ru"]), HTTP_IF_MODIFIED_SINCE=ru["Last-Modified"]
    )
    assert again.status_code == 304
    assert client.get(reverse("javascript-catalogue", args=["de"])).status_code == 404


def test_the_catalogue_carries_only_the_projects_strings():
    """Not the admin's or another installed app's djangojs strings: each page downloads it."""
    body = Client().get(reverse("javascript-catalogue", args=["ru"])).content.decode()
    catalogue = json.loads(re.search(r"const newcatalog = (\{.*?\});", body, re.S).group(1))
    assert set(catalogue) <= {msgid for _, msgid in catalogue_entries("ru")} | {
        f"{ctx}\x04{msgid}" for ctx, msgid in catalogue_entries("ru") if ctx
    }
    assert "Available %s" not in catalogue  # the admin's filter widget


@pytest.mark.django_db
def test_pages_load_the_catalogue_of_their_language(table, client_for):
    client = client_for(table.player)
    url = reverse("table", args=[table.campaign.pk])
    response = client.get(url)
    assert '<script src="/jsi18n/ru/"></script>' in response.content.decode()
    assert js_catalogue(client, response)["Reconnecting…"] == "Переподключение…"
    table.player.language = "en"
    table.player.save(update_fields=["language"])
    response = client.get(url)
    assert '<script src="/jsi18n/en/"></script>' in response.content.decode()
