"""Invariants of the City of Judas damage rules, checked with hypothesis."""

from __future__ import annotations

import copy
import json

import pytest
from coj_helpers import RS, pc
from hypothesis import given, settings
from hypothesis import strategies as st

from systems.city_of_judas.ruleset import damage_through
from tests.systems.rulebook import pbta_band, pbta_odds


class HypoDice:
    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def roll(self, sides: int) -> int:
        return self.data.draw(st.integers(1, sides))


sheets = st.builds(
    lambda health, sup, armor, shield, unstable, marked: pc(
        health=health,
        superiority=sup,
        armor=armor,
        shield=shield,
        unstable=unstable,
        maims=[{"key": "M", "name": "m", "stat": "steel", "penalty": -1, "marked": marked}],
    ),
    st.integers(-3, 4),
    st.integers(0, 8),
    st.integers(0, 3),
    st.integers(0, 2),
    st.booleans(),
    st.booleans(),
)

npcs = st.builds(
    lambda kind, wounds, armor: RS.validate_npc({"kind": kind, "wounds": wounds, "armor": armor}),
    st.sampled_from(["minor", "important", "monster", "demon", "rival"]),
    st.integers(0, 12),
    st.integers(0, 4),
)


@settings(max_examples=400, deadline=None)
@given(state=sheets, damage=st.integers(0, 9), ap=st.integers(0, 3), data=st.data())
def test_take_damage_keeps_health_in_range_and_never_mutates(state, damage, ap, data):
    before = copy.deepcopy(state)
    odds = RS.odds("take_damage", state, damage=damage, ap=ap)
    out = RS.resolve("take_damage", state, dice=HypoDice(data), damage=damage, ap=ap)
    assert state == before
    assert -3 <= out.state["health"] <= 4
    dealt = damage_through(damage, ap, armor=state["armor"], shield=state["shield"])
    assert out.details["dealt"] == dealt
    if dealt <= 0:
        assert out.band is None and odds == {} and out.state == before
        return
    assert out.state["health"] == max(-3, state["health"] - dealt)
    assert out.state["health"] < 4  # a roll never uses the unmarked +4 (L87)
    assert out.total == sum(out.faces) + out.state["health"]
    assert out.band == pbta_band(out.total)
    assert odds == pytest.approx(pbta_odds(out.modifier))
    assert abs(sum(odds.values()) - 1) < 1e-12
    assert out.state["unstable"] == (state["unstable"] or out.state["health"] <= -1)
    low, high = 1, 6
    # resolve every pending step with a drawn option and check the ranges again
    step = out
    while step.pending:
        keys = [o.key for o in step.options]
        if step.details.get("maim_after") and data.draw(st.booleans()):
            pick = [step.details["maim_after"][0]["key"]]
        else:
            pick = data.draw(st.permutations(keys))[: step.pick]
        step = RS.apply_choice(step, pick, dice=HypoDice(data))
        json.dumps(step.as_dict(), ensure_ascii=False)
        RS.validate_state(step.state)
        assert out.state["health"] <= step.state["health"] <= max(state["health"], -3)
        assert step.state["health"] >= -3
        sup = step.state["superiority"]
        assert min(state["superiority"], low) <= sup <= max(state["superiority"], high)
        assert step.state["superiority"] >= state["superiority"] - 1
        assert step.state["superiority"] <= state["superiority"] + 1


@settings(max_examples=300, deadline=None)
@given(block=npcs, damage=st.integers(0, 8), data=st.data())
def test_decisive_strike_wounds_only_grow_and_band_matches(block, damage, data):
    before = copy.deepcopy(block)
    odds = RS.odds("decisive_strike", block, damage=damage)
    out = RS.resolve("decisive_strike", block, dice=HypoDice(data), damage=damage)
    assert block == before
    assert out.state["wounds"] == block["wounds"] + max(0, damage - block["armor"])
    assert len(out.faces) == (2 if block["kind"] == "minor" else 1)
    assert out.total == sum(out.faces) + out.state["wounds"]
    assert out.band == pbta_band(out.total)
    assert odds == pytest.approx(pbta_odds(out.modifier, count=len(out.faces)))
    assert abs(sum(odds.values()) - 1) < 1e-12
    if out.pending:
        keys = [o.key for o in out.options][: out.pick]
        done = RS.apply_choice(out, keys, dice=HypoDice(data))
        assert done.state["wounds"] >= out.state["wounds"]


@given(
    damage=st.integers(0, 30),
    ap=st.integers(0, 30),
    armor=st.integers(0, 10),
    shield=st.integers(0, 5),
    other=st.integers(0, 5),
    ignores=st.booleans(),
)
def test_damage_through_bounds(damage, ap, armor, shield, other, ignores):
    dealt = damage_through(
        damage, ap, armor=armor, shield=shield, other=other, ap_ignores_shield=ignores
    )
    assert 0 <= dealt <= damage
    assert dealt >= max(0, damage - armor - shield - other)  # AP only ever helps
    assert dealt >= (min(ap, damage) if ignores else 0)
