"""Invariants of Crows combat, travel and spells (digest part B), checked with hypothesis: no input
is mutated, every target's tier matches its own total, odds sum to 1, a turn never exceeds its
budget, travel thresholds stay in 1..10, every backlash leaves a valid sheet, crafting points follow
their floors, and pending outcomes survive a JSON round trip."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from typing import Any

from crows_combat_helpers import armed, spellbook, sword
from crows_helpers import RS, pc, with_items
from hypothesis import given, settings
from hypothesis import strategies as st

from systems.core.dice import ScriptedDice
from systems.core.outcome import outcome_from_dict
from systems.core.ruleset import RulesError
from systems.crows import combat as cb
from systems.crows import travel as travel_rules
from systems.crows.checks import evaluate
from systems.crows.crafting import crafting_points
from systems.crows.spells import apply_backlash
from systems.crows.terms import BACKLASH_TABLE, TASKS
from tests.systems.rulebook import crows_doom, crows_tier


class HypoDice:
    """Dice whose faces hypothesis chooses (and shrinks)."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def roll(self, sides: int) -> int:
        return self.data.draw(st.integers(1, sides))

    def shuffle(self, items: list) -> None:
        items[:] = self.data.draw(st.permutations(items))


values = st.integers(-5, 5)
CONDITIONS = ["blessed", "grabbed", "prone", "vulnerable", "unconscious", "weakened"]


@st.composite
def fighters(draw: st.DrawFn, *, kind: str = "pc") -> dict[str, Any]:
    state = pc(
        name=draw(st.sampled_from(["Грета", "Ивар", "Гуль"])),
        kind=kind,
        agility=draw(values),
        reason=draw(values),
        strength=draw(values),
        stamina=draw(st.integers(0, 8)),
        stamina_max=8,
        conditions=[{"key": k} for k in draw(st.lists(st.sampled_from(CONDITIONS), unique=True))],
        expertises=[{"key": "slashing", "uses": draw(st.integers(0, 1)), "max": 1}],
    )
    if draw(st.booleans()):
        state = with_items(state, (sword(), "hands:1"))
    return state


SURPRISE_ROUND_1 = cb.start_round(
    cb.new_combat([{"id": "a", "side": "pcs"}, {"id": "g", "side": "enemies"}], surprised=["g"]),
    ScriptedDice([7]),
)[0]
situations = st.fixed_dictionaries(
    {
        "flanking": st.booleans(),
        "high_ground": st.booleans(),
        "cover": st.sampled_from(["none", "half"]),
        "light": st.sampled_from(["bright", "dim", "dark"]),
        "concealment": st.sampled_from(["none", "light", "heavy", "invisible"]),
        "combat": st.sampled_from([None, SURPRISE_ROUND_1]),
        "combatant": st.sampled_from(["", "g", "a"]),
        "squeezing": st.booleans(),
        "distance": st.none() | st.integers(0, 1),
    }
)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), attacker=fighters(), target=fighters(kind="monster"), where=situations)
def test_attack_never_mutates_and_each_tier_matches_its_total(data, attacker, target, where):
    weapon = "sword" if attacker["inventory"]["placed"] else ""
    before = copy.deepcopy((attacker, target))
    try:
        out = RS.resolve(
            "attack", attacker, dice=HypoDice(data), weapon_id=weapon, target=target, **where
        )
    except RulesError:
        return  # e.g. the attacker is dead
    assert (attacker, target) == before
    check = out.details["check"]
    if check["total"] is not None:
        assert check["total"] == sum(check["faces"]) + check["modifier"]
        assert check["base_tier"] == crows_tier(check["total"])
    for entry in out.details.get("targets", []):
        assert entry["tier"] in (1, 2, 3)
        assert entry["hit"] == (entry["tier"] >= 2)
    json.dumps(out.as_dict(), ensure_ascii=False)
    if out.pending:
        again = outcome_from_dict(json.loads(json.dumps(out.as_dict())))
        choice = out.options[-1].key
        RS.apply_choice(again, [choice], dice=HypoDice(data))
        assert (attacker, target) == before


@settings(max_examples=40, deadline=None)
@given(data=st.data(), rank=st.integers(0, 5), dice_left=st.integers(1, 3), reason=values)
def test_cast_never_mutates_and_the_book_never_gains_dice(data, rank, dice_left, reason):
    state = with_items(
        pc(reason=reason, stamina=20, stamina_max=20),
        (spellbook(rank=rank, dice=dice_left), "hands:1"),
    )
    before = copy.deepcopy(state)
    out = RS.resolve("cast", state, dice=HypoDice(data))
    assert state == before
    assert out.band in ("1", "2", "3")
    book = [c for p in out.state["inventory"]["placed"] for c in p["items"] if c["id"] == "book"]
    if book:
        assert book[0]["wear"]["dice"] <= dice_left
    RS.validate_state(out.state)


@settings(max_examples=40, deadline=None)
@given(attacker=fighters(), where=situations, move=st.sampled_from(["attack", "grab", "jump"]))
def test_odds_of_part_b_checks_sum_to_one(attacker, where, move):
    params: dict[str, Any] = {}
    if move == "attack":
        params = {"weapon_id": "sword" if attacker["inventory"]["placed"] else "", **where}
    if move == "jump":
        params = {"characteristic": "agility", "moved_before": 2}
    odds = RS.odds(move, attacker, **params)
    total = sum(Fraction(odds[b]).limit_denominator(10_000) for b in ("1", "2", "3"))
    assert total == 1


@settings(max_examples=60, deadline=None)
@given(costs=st.lists(st.sampled_from(["maneuver", "action", "extra"]), max_size=8))
def test_a_turn_never_exceeds_its_budget(costs):
    combat, _ = cb.start_round(
        cb.new_combat([{"id": "a", "side": "pcs"}, {"id": "g", "side": "enemies"}]),
        ScriptedDice([7]),
    )
    combat, _ = cb.start_turn(combat, "a")
    for cost in costs:
        try:
            if cost == "extra":
                combat, _ = cb.grant_extra_action(combat, "a", on_own_turn=True)
            else:
                combat, _ = cb.spend(combat, "a", cost)
        except RulesError:
            continue
        turn = combat["turn"]
        own = turn["actions"] - turn["extra_used"]
        assert 0 <= own <= 1
        assert own + turn["maneuvers"] <= 2
        assert turn["extra_used"] <= turn["extra_actions"]


@settings(max_examples=80, deadline=None)
@given(
    pace=st.sampled_from(["slow", "normal", "fast"]),
    speed=st.integers(0, 12),
    road=st.booleans(),
    river=st.sampled_from(["none", "cross", "upstream", "downstream"]),
    results=st.lists(st.tuples(st.sampled_from(TASKS), st.integers(1, 3)), max_size=8),
    data=st.data(),
)
def test_travel_thresholds_stay_in_1_to_10_and_hexes_never_negative(
    pace, speed, road, river, results, data
):
    travel = travel_rules.new_travel()
    before = copy.deepcopy(travel)
    travel, _ = travel_rules.start_day(
        travel, pace=pace, slowest_speed=speed, road=road, river=river
    )
    assert travel_rules.new_travel() == before
    for n, (task, tier) in enumerate(results):
        if task.key == "back_on_track":
            continue
        name = f"r{n}"
        travel["roles"].append(
            {
                "name": name,
                "role": task.role,
                "task": task.key,
                "done": False,
                "tier": None,
                "allies": ["r0"],
                "quarry": "волк",
            }
        )
        travel, _ = travel_rules.apply_task(travel, name, task.key, tier, dice=HypoDice(data))
        for key, _ru, _en in travel_rules.choice_options(task.key, tier)[:1]:
            travel, _ = travel_rules.apply_task_choice(travel, task.key, tier, key)
        assert 1 <= travel["travel_threshold"] <= 10
        assert 1 <= travel["rest_threshold"] <= 10
        assert travel["hexes"] >= 0


@settings(max_examples=60, deadline=None)
@given(data=st.data(), row=st.sampled_from(BACKLASH_TABLE))
def test_every_backlash_leaves_a_valid_sheet_and_never_mutates(data, row):
    state = with_items(
        pc(stamina=10, stamina_max=10, expertises=[{"key": "stealth", "uses": 1, "max": 1}]),
        (make_rock(), "backpack:1"),
    )
    before = copy.deepcopy(state)
    new, info = apply_backlash(state, row, HypoDice(data))
    assert state == before
    RS.validate_state(new)
    json.dumps(info, ensure_ascii=False)


def make_rock() -> dict[str, Any]:
    from systems.crows.items import make_item

    return make_item("rock", "Камень")


@given(
    a=st.integers(1, 10),
    b=st.integers(1, 10),
    reason=values,
    net=st.integers(-2, 2),
    bonus=st.integers(-8, 8),
    expertises=st.integers(0, 2),
)
def test_crafting_points_have_a_floor_of_1_and_a_doom_is_0(a, b, reason, net, bonus, expertises):
    roll = crafting_points((a, b), reason=reason, net=net, bonus=bonus, expertises=expertises)
    if crows_doom(a + b):
        assert roll["points"] == 0
    else:
        assert roll["points"] >= 1
        assert roll["points"] == max(1, roll["total"])


@settings(max_examples=60, deadline=None)
@given(data=st.data(), cruelty=st.integers(0, 6), reason=values)
def test_miasma_save_never_mutates_and_cruelty_never_goes_negative(data, cruelty, reason):
    state = pc(cruelty=cruelty, reason=reason)
    before = copy.deepcopy(state)
    out = RS.resolve("miasma_save", state, dice=HypoDice(data))
    assert state == before
    assert out.state["cruelty"] >= 0
    check = out.details["check"]
    assert check["total"] == sum(check["faces"]) + check["modifier"]
    r = evaluate(tuple(check["faces"]), value=reason, bonus=-cruelty)
    assert r.tier == check["tier"]


def test_fixtures_are_valid():
    RS.validate_state(armed())
