"""The README speaks to the product's users, Russian first, and its first-game walk-through
names what the product really has: the demo logins and password, the demo campaign, and the
buttons a referee presses, as the Russian interface spells them."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings

from systems import RULESETS

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
RU = README.split("## In English")[0]


def _russian_labels() -> set[str]:
    catalogue = polib.pofile(str(ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po"))
    return {entry.msgstr for entry in catalogue if entry.msgstr}


def test_russian_comes_first_then_english():
    assert README.index("## По-русски") < README.index("## In English")
    assert "### Первая игра за пять минут" in RU
    assert "### First game in five minutes" in README.split("## In English")[1]


def test_the_walkthrough_names_the_two_commands_of_the_makefile():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in ("run", "test"):
        assert re.search(rf"^{target}:", makefile, re.M), target
        assert f"make {target}" in RU, target


def test_the_walkthrough_logins_and_campaign_are_the_demo_data():
    assert f"пароль `{settings.DEMO_PASSWORD}`" in RU
    for login in ("referee", "alice"):
        assert f"`{login}`" in RU
    # seed_demo names each demo campaign «Демо: <the ruleset's Russian name>»
    dungeon_world = next(info for info in RULESETS if info.key == "dungeon_world")
    assert f"«Демо: {dungeon_world.name_ru}»" in RU


@pytest.mark.parametrize(
    "label", ["За стол", "Приглашения", "Создать ссылку", "Присоединиться", "Бросить"]
)
def test_every_button_the_walkthrough_names_is_in_the_russian_interface(label):
    assert f"«{label}»" in RU
    assert label in _russian_labels()
