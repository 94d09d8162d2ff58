"""The translation catalogues: English msgids, a complete Russian catalogue, compiled .mo files
in step with their .po sources, and the UI actually switching language.

After changing UI strings run `make messages` (makemessages + compilemessages) and fill the new
Russian msgstr entries; these tests fail until both are done.
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.urls import reverse

LOCALE_DIR = Path(settings.LOCALE_PATHS[0])
LANGUAGES = [code for code, _name in settings.LANGUAGES]
RU_PLURAL_FORMS = (
    "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
    "(n%100<10 || n%100>=20) ? 1 : 2);"
)
# %(name)s, %(max)d, %s ... but not a literal "%%".
PLACEHOLDER = re.compile(r"%(?:\([^)]+\))?[-#0 +]*\d*(?:\.\d+)?[sdifr]")


def _po(lang: str) -> polib.POFile:
    path = LOCALE_DIR / lang / "LC_MESSAGES" / "django.po"
    assert path.is_file(), f"{path} is missing: run `make messages`"
    return polib.pofile(str(path))


def _messages(catalogue: polib._BaseFile) -> dict[tuple[str | None, str], object]:
    """(context, msgid) → msgstr, or the tuple of plural forms, for every compiled message."""
    result: dict[tuple[str | None, str], object] = {}
    for entry in catalogue:
        if entry.msgid_plural:
            value: object = (
                entry.msgid_plural,
                tuple(entry.msgstr_plural[i] for i in sorted(entry.msgstr_plural)),
            )
        else:
            value = entry.msgstr
        result[(entry.msgctxt or None, entry.msgid)] = value
    return result


def test_russian_catalogue_is_complete():
    po = _po("ru")
    assert len(po) > 0
    assert not po.metadata_is_fuzzy, "the ru header is marked fuzzy"
    assert po.metadata["Plural-Forms"] == RU_PLURAL_FORMS
    untranslated = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    assert not untranslated, f"untranslated ru entries: {untranslated}"
    assert not fuzzy, f"fuzzy ru entries: {fuzzy}"
    for entry in po:
        if entry.obsolete:
            continue
        if entry.msgid_plural:
            forms = entry.msgstr_plural
            assert sorted(forms) == [0, 1, 2], f"{entry.msgid!r} needs 3 plural forms"
            assert all(forms.values()), f"{entry.msgid!r} has an empty plural form"
            translations = list(forms.values())
        else:
            translations = [entry.msgstr]
        expected = sorted(PLACEHOLDER.findall(entry.msgid))
        for text in translations:
            assert sorted(PLACEHOLDER.findall(text)) == expected, (
                f"placeholders differ: {entry.msgid!r} → {text!r}"
            )


def test_msgids_are_english():
    """Russian lives in the catalogue, not in the code: no Cyrillic msgid."""
    cyrillic = [e.msgid for e in _po("ru") if re.search(r"[\u0400-\u04FF]", e.msgid)]
    assert not cyrillic, f"Cyrillic msgids: {cyrillic}"


def test_english_catalogue_matches_russian():
    ru = {(e.msgctxt, e.msgid) for e in _po("ru") if not e.obsolete}
    en = {(e.msgctxt, e.msgid) for e in _po("en") if not e.obsolete}
    assert en == ru, "ru and en catalogues differ: run `make messages`"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_compiled_catalogue_matches_source(lang):
    po = _po(lang)
    mo_path = LOCALE_DIR / lang / "LC_MESSAGES" / "django.mo"
    assert mo_path.is_file(), f"{mo_path} is missing: run compilemessages"
    committed = polib.mofile(str(mo_path))
    fresh = polib.mofile(po.to_binary())
    assert _messages(committed) == _messages(fresh), (
        f"{mo_path} is stale: run `manage.py compilemessages --ignore .venv`"
    )
    assert committed.metadata.get("Plural-Forms") == po.metadata.get("Plural-Forms")


def test_login_page_is_russian_by_default(client, db):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    assert response["Content-Language"] == "ru"
    html = response.content.decode()
    assert '<html lang="ru">' in html
    assert "Вход" in html
    assert "Войти" in html
    assert "Log in" not in html


def test_login_page_is_english_with_the_language_cookie(client, db):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get(reverse("login"))
    assert response.status_code == 200
    assert response["Content-Language"] == "en"
    html = response.content.decode()
    assert '<html lang="en">' in html
    assert "Log in" in html
    assert "No account?" in html
    assert "Вход" not in html
    assert not re.search(r"[\u0400-\u04FF]", html), "Cyrillic text on the English login page"
