"""A table shows only its ruleset's panels: the dungeon clock on Crows alone, and on Savage
Worlds the action deck without the generic initiative tracker (issue 18, item 13)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from vtt.campaigns import services as campaign_services

RULESETS = ["dungeon_world", "crows", "city_of_judas", "tales", "savage_worlds"]


def _table_html(table, client_for, ruleset: str) -> str:
    campaign = campaign_services.campaign_create(user=table.referee, name="Стол", ruleset=ruleset)
    response = client_for(table.referee).get(reverse("table", args=[campaign.pk]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_dungeon_clock_only_on_crows(table, client_for, ruleset):
    html = _table_html(table, client_for, ruleset)
    assert ('id="clock"' in html) is (ruleset == "crows")
    assert ("Ход подземелья" in html) is (ruleset == "crows")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_generic_initiative_tracker_except_savage_worlds(table, client_for, ruleset):
    html = _table_html(table, client_for, ruleset)
    assert ('id="initiative"' in html) is (ruleset != "savage_worlds")
    assert ('id="init-add"' in html) is (ruleset != "savage_worlds")


def test_savage_worlds_table_keeps_the_action_deck(table, client_for):
    html = _table_html(table, client_for, "savage_worlds")
    assert 'id="tablestate"' in html and "Колода действий" in html
