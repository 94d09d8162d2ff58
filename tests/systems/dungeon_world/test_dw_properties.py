"""Invariants of the Dungeon World rules, checked with hypothesis."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from typing import Any

import pytest
from dw_helpers import RS, pc_a
from hypothesis import given, settings
from hypothesis import strategies as st

from systems.core.pbta import band_odds_exact
from tests.systems.rulebook import pbta_band, pbta_odds

ROLLED = {
    "hack_and_slash": {},
    "volley": {},
    "defy_danger": {"approach": "charm"},
    "defend": {"protecting": "B"},
    "spout_lore": {},
    "discern_realities": {},
    "parley": {},
    "carouse": {"coins_spent": 250},
    "take_watch": {},
    "aid_or_interfere": {"target": "B"},
    "perilous_journey": {"role": "scout"},
    "supply": {"unusual": True},
    "recruit": {"generous_pay": True, "loot_share": True},
    "outstanding_warrants": {},
}


class HypoDice:
    """Dice whose faces hypothesis chooses (and shrinks)."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def roll(self, sides: int) -> int:
        return self.data.draw(st.integers(1, sides))


modifier_entry = st.fixed_dictionaries(
    {
        "value": st.integers(-3, 3),
        "move": st.sampled_from(["", "hack_and_slash", "volley"]),
        "note": st.just(""),
    }
)


@st.composite
def sheets(draw: st.DrawFn) -> dict[str, Any]:
    stats = {k: draw(st.integers(1, 18)) for k in ("str", "dex", "con", "int", "wis", "cha")}
    max_hp = draw(st.integers(1, 30))
    return pc_a(
        stats=stats,
        max_hp=max_hp,
        hp=draw(st.integers(0, max_hp)),
        armor=draw(st.integers(0, 4)),
        load=draw(st.integers(5, 12)),
        weight=draw(st.integers(0, 14)),
        xp=draw(st.integers(0, 20)),
        preparation=draw(st.integers(0, 2)),
        ammo=draw(st.integers(0, 2)),
        debilities={
            k: draw(st.booleans())
            for k in ("weak", "shaky", "sick", "stunned", "confused", "scarred")
        },
        forward=draw(st.lists(modifier_entry, max_size=3)),
        ongoing=draw(st.lists(modifier_entry, max_size=2)),
        bonds=[{"with": "B", "text": "t"}] * draw(st.integers(0, 3)),
    )


npcs = st.builds(
    lambda hp, armor, dmg: RS.validate_npc(
        {"name": "n", "hp": hp, "max_hp": 30, "armor": armor, "damage": dmg}
    ),
    st.integers(0, 30),
    st.integers(0, 4),
    st.sampled_from(["к6", "к10+1", "б[2к8]", "м[2к6]"]),
)


@settings(max_examples=300, deadline=None)
@given(state=sheets(), move=st.sampled_from(sorted(ROLLED)), data=st.data())
def test_rolled_moves_never_mutate_band_matches_total_and_odds_agree(state, move, data):
    params = dict(ROLLED[move])
    if move == "carouse":
        state = RS.validate_state({**state, "coins": 1000})
    if move in ("hack_and_slash", "volley") and data.draw(st.booleans()):
        params["target"] = data.draw(npcs)
    if state["weight"] > state["load"] + 2:
        params["overload"] = data.draw(st.sampled_from(["drop", "auto_fail"]))
        params["drop_weight"] = state["weight"] - state["load"] - 2
    before = copy.deepcopy(state)
    frozen_params = copy.deepcopy(params)
    odds = RS.odds(move, state, **params)
    out = RS.resolve(move, state, dice=HypoDice(data), **params)
    assert state == before and params == frozen_params  # no mutation of the inputs
    json.dumps(out.as_dict(), ensure_ascii=False)  # an outcome can go into the event log
    assert abs(sum(odds.values()) - 1) < 1e-12
    assert all(0 <= p <= 1 for p in odds.values())
    if out.flags.get("auto_fail"):
        assert out.band == "6-" and out.total is None and odds["6-"] == 1.0
    else:
        assert out.total == sum(out.faces) + out.modifier
        assert out.band == pbta_band(out.total)
        # the odds use exactly the roll's modifiers
        assert odds == pytest.approx(pbta_odds(out.modifier))
    assert out.state["xp"] == before["xp"] + (
        1 if out.band == "6-" and out.total is not None else 0
    )
    # the new state is a valid sheet and HP stays in range even after a counter-attack
    clean = RS.validate_state(out.state)
    assert 0 <= clean["hp"] <= clean["max_hp"]
    if out.pending:
        keys = [o.key for o in out.options][: out.pick]
        if len(keys) == out.pick:
            done = RS.apply_choice(out, keys, dice=HypoDice(data))
            RS.validate_state(done.state)
            assert not done.pending or done.options != out.options


@settings(max_examples=300, deadline=None)
@given(
    state=sheets(),
    amount=st.integers(0, 40),
    ignores=st.booleans(),
    cover=st.sampled_from(["none", "partial", "full"]),
)
def test_take_damage_arithmetic_and_hp_floor(state, amount, ignores, cover):
    before = copy.deepcopy(state)
    out = RS.resolve(
        "take_damage", state, dice=HypoDiceNone(), amount=amount, ignores_armor=ignores, cover=cover
    )
    assert state == before
    armor = 0 if ignores else state["armor"] + {"none": 0, "partial": 1, "full": 2}[cover]
    final = max(0, amount - armor)
    assert out.details["final"] == final
    assert out.state["hp"] == max(0, state["hp"] - final)
    assert out.flags["last_breath"] == (final > 0 and out.state["hp"] == 0)


@settings(max_examples=200, deadline=None)
@given(npc=npcs, data=st.data(), stun=st.booleans())
def test_npc_hp_stays_in_range(npc, data, stun):
    before = copy.deepcopy(npc)
    expr = data.draw(st.sampled_from(["к4", "2к6+3", "б[3к10]", "к4-1к6", "10"]))
    out = RS.resolve("npc_take_damage", npc, dice=HypoDice(data), damage=expr, stun=stun)
    assert npc == before
    assert 0 <= out.state["hp"] <= npc["hp"]
    if stun:
        assert out.state["hp"] == npc["hp"]


@given(modifier=st.integers(-10, 10))
def test_band_odds_are_exact_and_sum_to_one(modifier):
    exact = band_odds_exact(modifier)
    assert sum(exact.values()) == 1
    brute = {b: Fraction(0) for b in exact}
    for a in range(1, 7):
        for b in range(1, 7):
            brute[pbta_band(a + b + modifier)] += Fraction(1, 36)
    assert exact == brute


class HypoDiceNone:
    def roll(self, sides: int) -> int:  # pragma: no cover - must never be called
        raise AssertionError("a fixed amount of damage rolls no dice")
