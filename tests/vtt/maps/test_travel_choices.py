"""The travel panel's choices through the API (vtt/rulesets/crows/travel.py): the referee's roles
with allies, a quarry and a helper instead of a role; after the rest in the Miasma, a 17+
roller's player chooses for their own character (clear the cruelty, or lift another's save), and
the referee's "apply" uses those choices. Refusals are clear and change nothing.
"""

from __future__ import annotations

import pytest

from systems.core.dice import ScriptedDice
from tests.vtt.maps.test_travel_api import Journey
from vtt.rulesets.crows import travel
from vtt.table.models import TableEvent


@pytest.fixture
def journey(table) -> Journey:
    j = Journey(table)
    j.gm.post(
        f"/api/campaigns/{j.campaign.pk}/maps/{j.map.pk}/party/", {"true": [3, 3]}, format="json"
    )
    j.step(j.gm, "begin")
    j.step(j.gm, "day", {"pace": "normal"})
    return j


def test_roles_with_allies_a_quarry_and_a_helper(journey):
    j = journey
    body = {
        "roles": [
            {
                "character_id": j.guide.pk,
                "task": "hunt",
                "allies": [j.scout.pk],
                "quarry": "олень",
            }
        ],
        "helping": [{"character_id": j.scout.pk, "helps": j.guide.pk}],
    }
    assert j.alice.post(j.url("roles"), body, format="json").status_code == 403
    done = j.step(j.gm, "roles", body)
    role = done["travel"]["roles"][0]
    assert role["allies"] == ["Бран"] and role["quarry"] == "олень"
    assert done["travel"]["helping"] == [{"name": "Бран", "helps": "Ава"}]
    seen = j.alice.get(j.url()).json()["travel"]
    assert seen["roles"][0]["quarry"] == "олень" and seen["helping"][0]["helps"] == "Ава"
    bad = {"roles": [{"character_id": j.guide.pk, "task": "hunt", "allies": [999999]}]}
    assert j.step(j.gm, "roles", bad, status=400)["code"] == "no_character"


def test_a_17_plus_miasma_choice_is_its_players_and_applies(journey):
    j = journey
    assert j.step(j.alice, "miasma_choice", {"character_id": j.guide.pk}, status=409)["code"] == (
        "no_saves"
    )
    saves = travel.miasma_saves(
        map=j.map,
        actor=j.table.referee,
        role="referee",
        dice=ScriptedDice([10, 9, 1, 2]),  # Ава 19 → 17+; Бран 3 → a failure
    )
    tiers = {s["name"]: s["tier"] for s in saves["saves"]}
    assert tiers == {"Ава": 3, "Бран": 1}
    before = TableEvent.objects.count()
    # only Ава's player (or the referee) chooses for Ава; Бран has no 17+
    body = {"character_id": j.guide.pk, "choice": j.scout.pk}
    assert j.boris.post(j.url("miasma_choice"), body, format="json").status_code == 403
    assert j.watcher.post(j.url("miasma_choice"), body, format="json").status_code == 403
    own = {"character_id": j.scout.pk, "choice": "clear"}
    assert j.step(j.boris, "miasma_choice", own, status=400)["code"] == "not_17_plus"
    self_lift = {"character_id": j.guide.pk, "choice": j.guide.pk}
    assert j.step(j.alice, "miasma_choice", self_lift, status=400)["fields"]["choice"]
    assert TableEvent.objects.count() == before
    chose = j.step(j.alice, "miasma_choice", body)
    assert chose["choice"] == j.scout.pk and chose["type"] == "miasma_choice"
    pending = travel.pending_saves(j.campaign)
    assert pending["choices"] == {str(j.guide.pk): j.scout.pk}
    players_copy = TableEvent.objects.filter(kind="travel", visibility="players").last()
    assert players_copy.payload["type"] == "miasma_choice"
    scout_cruelty = j.scout.__class__.objects.get(pk=j.scout.pk).state.get("cruelty", 0)
    resolved = j.step(j.gm, "miasma_resolve", {})
    bran = next(r for r in resolved["results"] if r["name"] == "Бран")
    # lifted from a failure to 12–16: no cruelty gained, no table roll (A12)
    assert bran["tier"] == 2 and bran["cruelty"] == scout_cruelty and not bran["miasma"]
    assert travel.pending_saves(j.campaign) is None


def test_an_answered_role_choice_returns_the_day_as_players_see_it(journey):
    """Make camp 17+ offers a choice (L1022); the player's answer through the sheet's pending
    endpoint carries the day without encounter or drift rolls (the referee's keeps them)."""
    j = journey
    j.step(j.gm, "roles", {"roles": [{"character_id": j.guide.pk, "task": "make_camp"}]})
    _outcome, pending = travel.role_check(
        map=j.map,
        actor=j.table.player,
        role="player",
        character_id=j.guide.pk,
        task="make_camp",
        dice=ScriptedDice([10, 10]),
    )
    answer = j.alice.post(
        f"/api/characters/{j.guide.pk}/pending/{pending.pk}/",
        {"choices": ["rest_threshold"]},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    day = answer.json()["outcome"]["details"]["travel"]
    assert day["rest_threshold"] == 9 and "encounters" not in day and "drift" not in day
