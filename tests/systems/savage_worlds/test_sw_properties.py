"""Invariants of the Savage Worlds rules, checked with hypothesis."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from sw_helpers import RS, extra, sheet, table

from systems.savage_worlds import deck as dk
from systems.savage_worlds.combat import apply_damage, damage_effect
from systems.savage_worlds.odds import natural_distribution, trait_odds_exact
from tests.systems.rulebook import savage_band, savage_raises


class HypoDice:
    """Dice and shuffles that hypothesis chooses (and shrinks)."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data
        self.shuffles = 0

    def roll(self, sides: int) -> int:
        return self.data.draw(st.integers(1, sides))

    def shuffle(self, items: list) -> None:
        self.shuffles += 1
        items[:] = self.data.draw(st.permutations(items))


DICE = st.sampled_from(["d4", "d6", "d8", "d10", "d12", "d12+1", "d12+3"])


@st.composite
def sheets(draw: st.DrawFn) -> dict[str, Any]:
    wild = draw(st.booleans())
    return sheet(
        wild_card=wild,
        role="pc" if wild and draw(st.booleans()) else "npc",
        attributes={k: draw(DICE) for k in ("agility", "smarts", "spirit", "strength", "vigor")},
        skills={"fighting": draw(DICE), "shooting": draw(DICE)},
        wounds=draw(st.integers(0, 3)) if wild else 0,
        fatigue=draw(st.integers(0, 2)),
        shaken=draw(st.booleans()),
        bennies=draw(st.integers(0, 3)),
        armor=draw(st.integers(0, 3)),
        edges=[{"name": "Беспощадный"}] if draw(st.booleans()) else [],
    )


TRAIT = st.sampled_from(["strength", "Сила", "fighting", "shooting", "boating", "vigor"])
CHOICE_ORDER = ("keep", "reroll", "reroll_pool", "accept", "soak", "soak_pool")


def _finish(out, data: st.DataObject, dice: HypoDice, limit: int = 8):
    """Answer pending choices as hypothesis likes, checking each step does not mutate."""
    for _ in range(limit):
        if not out.pending:
            return out
        keys = [o.key for o in out.options]
        pick = data.draw(st.sampled_from(sorted(keys, key=CHOICE_ORDER.index)))
        before, snapshot = out, copy.deepcopy(out.as_dict())
        out = RS.apply_choice(out, [pick], dice=dice)
        assert before.as_dict() == snapshot  # apply_choice leaves the pending outcome alone
    return RS.apply_choice(out, ["keep"], dice=dice) if out.pending else out


@settings(max_examples=150)
@given(
    state=sheets(),
    trait=TRAIT,
    modifier=st.integers(-6, 6),
    tn=st.integers(2, 10),
    pool=st.integers(0, 2),
    data=st.data(),
)
def test_trait_check_band_matches_total_and_input_is_untouched(
    state, trait, modifier, tn, pool, data
):
    frozen = copy.deepcopy(state)
    dice = HypoDice(data)
    out = RS.resolve(
        "trait_check", state, dice=dice, trait=trait, modifier=modifier, tn=tn, pool=pool
    )
    out = _finish(out, data, dice)
    assert state == frozen
    kept = out.details["attempts"][out.details["kept"]]
    assert out.total == kept["natural"] + out.modifier
    assert out.band == savage_band(out.total, tn, critical=out.flags["critical_failure"])
    assert out.flags["success"] == (out.band in ("success", "raise"))
    assert out.flags["raises"] == (
        0 if out.flags["critical_failure"] else savage_raises(out.total, tn)
    )
    assert out.flags["critical_failure"] == (
        state["wild_card"] and kept["trait_faces"][0] == 1 and kept["wild_faces"][0] == 1
    )
    spent = out.details["bennies_spent"]
    assert out.state["bennies"] == state["bennies"] - spent
    assert out.details["pool"] == pool - out.details["pool_spent"]
    assert all(a["total"] <= out.total or a["critical_failure"] for a in out.details["attempts"])
    json.dumps(out.as_dict(), ensure_ascii=False)


MOVES = {
    "opposed_check": lambda s: {"trait": "strength", "defender": extra()},
    "cooperative_check": lambda s: {"trait": "strength", "helpers": [extra(), sheet()]},
    "group_check": lambda s: {"trait": "spirit", "count": 5},
    "attack": lambda s: {"trait": "fighting", "target": extra(), "damage": "str+d6"},
    "damage_roll": lambda s: {"damage": "str+d8"},
    "take_damage": lambda s: {"damage": 9},
    "recover_shaken": lambda s: {},
    "spend_benny": lambda s: {"purpose": "soak"},
}


@settings(max_examples=150)
@given(state=sheets(), move=st.sampled_from(sorted(MOVES)), pool=st.integers(0, 2), data=st.data())
def test_no_move_mutates_its_input(state, move, pool, data):
    params = MOVES[move](state)
    if move == "group_check":
        state = extra()
    if move == "recover_shaken":
        state = {**state, "shaken": True}
    if move not in ("damage_roll",):
        params["pool"] = pool
    frozen_state, frozen_params = copy.deepcopy(state), copy.deepcopy(params)
    dice = HypoDice(data)
    try:
        out = RS.resolve(move, state, dice=dice, **params)
    except Exception as exc:  # only rule refusals are acceptable
        from systems.core.ruleset import RulesError

        assert isinstance(exc, RulesError)
        return
    _finish(out, data, dice)
    assert state == frozen_state
    assert params == frozen_params
    RS.validate_state(out.state)


@settings(max_examples=200)
@given(
    sides=st.sampled_from([4, 6, 8, 10, 12]),
    wild=st.booleans(),
    modifier=st.integers(-10, 10),
    tn=st.integers(-5, 40),
)
def test_odds_sum_to_one_and_match_the_distribution(sides, wild, modifier, tn):
    odds = trait_odds_exact(sides, wild=wild, modifier=modifier, tn=tn)
    assert sum(odds.values()) == 1
    assert all(p >= 0 for p in odds.values())
    dist = natural_distribution(sides, wild=wild)
    lowest_plain = 2 if wild else 1  # a wild card's natural 1 is always the double 1
    ok = sum((p for v, p in dist.items() if v >= lowest_plain and v + modifier >= tn), Fraction(0))
    assert odds["success"] + odds["raise"] == ok


@settings(max_examples=40)
@given(
    a=st.tuples(st.sampled_from([4, 6, 8]), st.booleans(), st.integers(-4, 4)),
    d=st.tuples(st.sampled_from([4, 6, 8]), st.booleans(), st.integers(-4, 4)),
)
def test_opposed_odds_sum_to_one(a, d):
    attacker = extra(die="d4", attributes={"strength": f"d{a[0]}"})
    attacker["wild_card"] = a[1]
    defender = extra(attributes={"strength": f"d{d[0]}"})
    defender["wild_card"] = d[1]
    odds = RS.odds_exact(
        "opposed_check",
        attacker,
        trait="strength",
        modifier=a[2],
        defender=defender,
        defender_modifier=d[2],
    )
    assert sum(odds.values()) == 1


@settings(max_examples=200)
@given(
    damage=st.integers(-5, 40),
    toughness=st.integers(2, 15),
    state=sheets(),
    soaked=st.integers(0, 5),
)
def test_damage_keeps_the_sheet_valid(damage, toughness, state, soaked):
    frozen = copy.deepcopy(state)
    effect = damage_effect(damage, toughness, already_shaken=state["shaken"])
    new, info = apply_damage(state, effect, soaked=soaked)
    assert state == frozen
    RS.validate_state(new)
    assert new["wounds"] >= state["wounds"]
    if not state["wild_card"]:
        assert new["wounds"] == 0
    if info["wounds_taken"] and not state["wild_card"]:
        assert new["status"] == "incapacitated"
    assert (damage >= toughness) == effect.shaken


participants = st.lists(
    st.fixed_dictionaries(
        {
            "id": st.text("abcdefgh", min_size=1, max_size=3),
            "edge": st.sampled_from(
                ["", "level_headed", "improved_level_headed", "quick", "hesitant"]
            ),
        }
    ),
    min_size=1,
    max_size=12,
    unique_by=lambda p: p["id"],
)


@settings(max_examples=60)
@given(rounds=st.lists(participants, min_size=1, max_size=12), data=st.data())
def test_deck_deals_every_card_at_most_once_between_shuffles(rounds, data):
    dice = HypoDice(data)
    deck = dk.new_deck()
    seen: list[str] = []  # cards drawn since the last shuffle
    for people in rounds:
        frozen = copy.deepcopy(deck)
        shuffles = dice.shuffles
        new = dk.deal_round(deck, people, dice)
        assert deck == frozen
        assert not dk.check_deck(new)
        assert [e["id"] for e in new["dealt"]] == [p["id"] for p in people]
        if dice.shuffles == shuffles:
            # No shuffle: the round took cards off the top of the same draw pile.
            taken = len(deck["draw"]) - len(new["draw"])
            assert new["draw"] == deck["draw"][taken:]
            drawn = deck["draw"][:taken]
            assert not set(drawn) & set(seen)
            seen.extend(drawn)
            assert len(seen) == len(set(seen)) <= 54
        else:
            seen = []
        deck = new


@settings(max_examples=30)
@given(data=st.data())
def test_a_shuffled_deck_deals_all_54_cards_exactly_once(data):
    dice = HypoDice(data)
    deck = dk.shuffle(dk.new_deck(), dice)
    cards: list[str] = []
    for _ in range(54):
        deck, drawn = dk.draw(deck, 1, dice)
        cards += drawn
    assert sorted(cards) == sorted(dk.full_deck())
    assert dice.shuffles == 1


@settings(max_examples=40)
@given(people=participants, data=st.data())
def test_deal_round_through_resolve_keeps_the_table_valid(people, data):
    state = table()
    frozen = copy.deepcopy(state)
    out = RS.resolve("deal_round", state, dice=HypoDice(data), participants=people)
    assert state == frozen
    RS.validate_table(out.state)
    order = out.details["initiative"]
    values = [dk.card_value(e["card"]) for e in order]
    assert values == sorted(values, reverse=True)
