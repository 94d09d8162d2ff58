"""The Crows parts of the map panel (templates/maps/_panel.html, vtt/maps/views.crows_config):
the travel day and the combat strip as each role receives them in the page. A player's page
holds only the players' copy of the travel day (no encounter or drift rolls, no true hex while
lost) and only the combatants they can see; only the referee gets the controls."""

from __future__ import annotations

import json
import re

import pytest

from systems.core.dice import ScriptedDice
from tests.vtt.maps.test_combat_rounds_api import HIDDEN, Fight
from tests.vtt.maps.test_travel_api import Journey, get_lost
from vtt.rulesets.crows import travel

CONFIG = re.compile(r'<script id="map-config" type="application/json">(.*?)</script>', re.S)


def page_config(client, campaign_id: int) -> tuple[str, dict]:
    response = client.get(f"/campaigns/{campaign_id}/table/")
    assert response.status_code == 200
    html = response.content.decode()
    return html, json.loads(CONFIG.search(html).group(1))


def lose_the_party(j: Journey) -> list[int]:
    """Set out, take a shortcut that fails (scripted dice), wander one hidden hex."""
    ref = j.table.referee
    j.gm.post(
        f"/api/campaigns/{j.campaign.pk}/maps/{j.map.pk}/party/",
        {"shown": [7, 7], "true": [7, 7]},
        format="json",
    )
    j.step(j.gm, "begin")
    j.step(j.gm, "day", {"pace": "normal"})
    j.step(j.gm, "roles", {"roles": [{"character_id": j.guide.pk, "task": "shortcut"}]})
    travel.role_check(
        map=j.map,
        actor=ref,
        role="referee",
        character_id=j.guide.pk,
        task="shortcut",
        dice=ScriptedDice([1, 1]),
    )
    assert travel.current_travel(j.campaign)["lost"]
    step = travel.travel_step(
        map=j.map,
        actor=ref,
        role="referee",
        step="move",
        params={"directions": ["n"], "stop_at": 1},
        dice=ScriptedDice([4]),
    )
    travel.travel_step(
        map=j.map, actor=ref, role="referee", step="encounter", dice=ScriptedDice([9])
    )
    return step["referee_only"]["hex"]


@pytest.mark.django_db
def test_travel_panel_per_role(table, client_for):
    j = Journey(table)
    true_cell = lose_the_party(j)
    assert client_for(table.outsider).get(f"/campaigns/{j.campaign.pk}/table/").status_code == 404

    html, config = page_config(client_for(table.referee), j.campaign.pk)
    crows = config["crows"]
    assert crows["travel"]["lost"] and crows["travel"]["hex"] is not None
    assert crows["travel"]["encounters"] and crows["travel"]["drift"]
    assert "data-travel-controls" in html and "data-travel-panel" in html
    assert config["urls"]["travel"].endswith("/travel/")
    assert {t["key"] for t in crows["tasks"]} >= {"shortcut", "forage", "make_camp"}
    assert next(p for p in crows["paces"] if p["key"] == "slow")["ru"] == "Медленный"

    for user in (table.player, table.other_player, table.observer):
        html, config = page_config(client_for(user), j.campaign.pk)
        t = config["crows"]["travel"]
        assert t["lost"] is True and t["hex"] is None
        assert "encounters" not in t and "drift" not in t
        assert "data-travel-controls" not in html and "data-travel-step" not in html
        assert config["crows"]["players"] == []
        # the true hex is nowhere in what the page carries about the journey
        assert json.dumps(true_cell) not in json.dumps(config["crows"])
        assert (config["state"] or {}).get("party", {}).get("true") is None
    _, observer = page_config(client_for(table.observer), j.campaign.pk)
    assert observer["canPlay"] is False


@pytest.mark.django_db
def test_combat_strip_per_role(table, api_for, client_for):
    f = Fight(table, api_for)
    f.post(f.gm, "start")
    f.round(2)
    f.post(f.gm, "turn", {"combatant": f.cid(f.t_hidden)})

    html, config = page_config(client_for(table.referee), f.campaign.pk)
    assert config["crows"]["combat"]["turn"]["combatant"] == f.cid(f.t_hidden)
    assert "data-combat-controls" in html
    assert [p["id"] for p in config["crows"]["players"]] == sorted(
        [table.player.pk, table.other_player.pk],
        key=lambda pk: (
            {table.player.pk: table.player, table.other_player.pk: table.other_player}[pk].username
        ),
    )
    for user in (table.player, table.observer):
        html, config = page_config(client_for(user), f.campaign.pk)
        combat = config["crows"]["combat"]
        assert combat["turn"] == {"hidden": True, "round": 1, "side": "enemies"}
        assert HIDDEN not in html
        assert "data-combat-controls" not in html
        names = [c["name"] for c in combat["combatants"]]
        assert names == ["Ава", "Бран", "Гоблин"]


@pytest.mark.django_db
def test_a_players_role_check_that_gets_the_party_lost_answers_without_the_hex(table):
    """The check's own answer carries the day it left: once lost, no hex and no rolls."""
    j = Journey(table)
    j.gm.post(
        f"/api/campaigns/{j.campaign.pk}/maps/{j.map.pk}/party/",
        {"shown": [7, 7], "true": [7, 7]},
        format="json",
    )
    j.step(j.gm, "begin")
    made = get_lost(j)
    day = made["outcome"]["details"]["travel"]
    assert day["lost"] is True and day["hex"] is None
    assert "encounters" not in day and "drift" not in day
    assert made["travel"]["hex"] is None
