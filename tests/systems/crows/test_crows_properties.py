"""Invariants of the Crows rules, checked with hypothesis: tiers match totals, odds are exact
and sum to 1, slot placement keeps every slot rule, damage is conserved, nothing is mutated."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from typing import Any

from crows_helpers import RS, in_dungeon, pc, ring, torch
from hypothesis import given, settings
from hypothesis import strategies as st

from systems.core.ruleset import RulesError
from systems.crows import end_dungeon_turn, finish_rest, place, start_rest
from systems.crows.checks import (
    check_odds_exact,
    evaluate,
    natural_counts,
)
from systems.crows.damage import apply_damage
from systems.crows.inventory import (
    AREA_SIZE,
    HANDS,
    empty_inventory,
    iter_items,
    span,
    validate_inventory,
)
from systems.crows.items import make_item, stack_kind
from systems.crows.terms import EXPERTISES
from tests.systems.rulebook import crows_tier


class HypoDice:
    """Dice whose faces hypothesis chooses (and shrinks)."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def roll(self, sides: int) -> int:
        return self.data.draw(st.integers(1, sides))


char_values = st.integers(-5, 5)
CONDITION_KEYS = ["blessed", "grabbed", "prone", "vulnerable", "unconscious", "weakened"]


@st.composite
def sheets(draw: st.DrawFn) -> dict[str, Any]:
    stamina_max = draw(st.integers(0, 12))
    picked = draw(st.lists(st.sampled_from(EXPERTISES), max_size=4, unique_by=lambda e: e.key))
    expertises = []
    for e in picked:
        top = draw(st.integers(0, 3))
        expertises.append({"key": e.key, "uses": draw(st.integers(0, top)), "max": top})
    conditions = draw(st.lists(st.sampled_from(CONDITION_KEYS), unique=True, max_size=3))
    state = pc(
        agility=draw(char_values),
        reason=draw(char_values),
        strength=draw(char_values),
        stamina_max=stamina_max,
        stamina=draw(st.integers(0, stamina_max)),
        speed=draw(st.integers(0, 8)),
        kind=draw(st.sampled_from(["pc", "pc", "hireling", "monster"])),
        expertises=expertises,
        conditions=[{"key": k} for k in conditions],
        hidden=draw(st.booleans()),
    )
    wounds = draw(st.lists(st.integers(1, 10), unique=True, max_size=6))
    state["inventory"]["wounds"] = [{"slot": s, "hunger": draw(st.booleans())} for s in wounds]
    if draw(st.booleans()):
        state = RS.validate_state(state)
        state["inventory"] = place(state["inventory"], torch(draw(st.integers(1, 3))), "hands:1")
    if draw(st.booleans()):
        state["inventory"] = place(
            state["inventory"],
            make_item("mail", "Кольчуга", slots=2, armour={"defence": draw(st.integers(0, 4))}),
            "backpack:1",
        )
        state["inventory"]["worn_armour"] = "mail"
    if draw(st.booleans()):
        state["inventory"]["magic"]["finger"] = [ring(1), ring(2)][: draw(st.integers(1, 2))]
    return RS.validate_state(state)


SOURCE_KEYS = ["flanking", "high_ground", "cover", "darkness", "dim_light", "advantage"]
check_params = st.fixed_dictionaries(
    {
        "characteristic": st.sampled_from(["agility", "reason", "strength"]),
        "sources": st.lists(st.sampled_from(SOURCE_KEYS), unique=True, max_size=4),
        "advantages": st.integers(0, 3),
        "disadvantages": st.integers(0, 3),
        "bonus": st.integers(-6, 6),
        "kind": st.sampled_from(["general", "attack", "casting"]),
        "attack": st.sampled_from(["", "melee", "ranged"]),
        "purpose": st.sampled_from(["", "perceive"]),
        "light": st.sampled_from(["bright", "dim", "dark"]),
        "target_conditions": st.lists(st.sampled_from(CONDITION_KEYS), unique=True, max_size=2),
    }
)


# --- tiers and odds ---------------------------------------------------------------------------


@given(
    a=st.integers(1, 10),
    b=st.integers(1, 10),
    value=char_values,
    adv=st.integers(0, 4),
    dis=st.integers(0, 4),
    bonus=st.integers(-10, 10),
)
def test_tier_matches_total(a, b, value, adv, dis, bonus):
    r = evaluate((a, b), value=value, advantages=adv, disadvantages=dis, bonus=bonus)
    assert r.total == a + b + r.modifier
    assert r.base_tier == crows_tier(r.total)
    assert 1 <= r.tier <= 3
    if r.crit:
        assert r.tier == 3
    elif r.doom:
        assert r.tier == 1
    else:
        assert r.tier == min(3, max(1, crows_tier(r.total) + r.shift))
        if abs(r.net) < 2:
            assert r.tier == crows_tier(r.total)


@given(
    value=char_values,
    adv=st.integers(0, 4),
    dis=st.integers(0, 4),
    bonus=st.integers(-10, 10),
    force=st.booleans(),
    expertise=st.booleans(),
)
def test_odds_are_exact_and_sum_to_one(value, adv, dis, bonus, force, expertise):
    odds = check_odds_exact(
        value=value,
        advantages=adv,
        disadvantages=dis,
        bonus=bonus,
        force_tier3=force,
        expertise=expertise,
    )
    assert odds["1"] + odds["2"] + odds["3"] == 1
    assert odds["crit"] == Fraction(3, 100) and odds["doom"] == Fraction(3, 100)
    counts = {1: 0, 2: 0, 3: 0}
    for a in range(1, 11):
        for b in range(1, 11):
            r = evaluate(
                (a, b),
                value=value,
                advantages=adv,
                disadvantages=dis,
                bonus=bonus,
                force_tier3=force,
            )
            tier = r.tier + (1 if expertise and not r.doom and r.tier < 3 else 0)
            counts[tier] += 1
    assert {str(k): Fraction(v, 100) for k, v in counts.items()} == {
        k: odds[k] for k in ("1", "2", "3")
    }


def test_natural_counts_cover_100_pairs():
    counts = natural_counts()
    assert sum(counts.values()) == 100 and counts[11] == 10 and counts[2] == counts[20] == 1


@settings(max_examples=60)
@given(state=sheets(), params=check_params)
def test_ruleset_odds_sum_to_one_for_any_sheet(state, params):
    odds = RS.odds("check", state, **params)
    assert abs(odds["1"] + odds["2"] + odds["3"] - 1) < 1e-12


@settings(max_examples=80)
@given(state=sheets(), params=check_params, data=st.data())
def test_check_never_mutates_and_band_matches_the_result(state, params, data):
    before = copy.deepcopy(state)
    try:
        out = RS.resolve("check", state, dice=HypoDice(data), **params)
    except RulesError:
        assert state == before
        return
    assert state == before
    check = out.details["check"]
    assert out.band == str(check["tier"]) and out.band in ("1", "2", "3")
    if check["total"] is not None and not check["automatic"]:
        assert check["base_tier"] == crows_tier(check["total"])
    json.dumps(out.as_dict(), ensure_ascii=False)
    if out.pending:
        snapshot = copy.deepcopy(out)
        key = data.draw(st.sampled_from([o.key for o in out.options]))
        done = RS.apply_choice(out, [key], dice=HypoDice(data))
        assert out.details == snapshot.details and out.state == snapshot.state
        assert int(done.band) >= int(out.band)


# --- slots ------------------------------------------------------------------------------------


@st.composite
def cards(draw: st.DrawFn, n: int) -> dict[str, Any]:
    kind = draw(st.sampled_from(["potion", "lock", "oil", "rope", "pole", "ladder"]))
    size = {"pole": 2, "ladder": 3}.get(kind, 1)
    stack = {"potion": 5, "lock": 3, "oil": 2}.get(kind, 1)
    return make_item(f"{kind}{n}", kind, kind=kind, slots=size, stack=stack)


targets = st.one_of(
    st.sampled_from(["hands", "belt", "backpack"]),
    st.builds(
        lambda a, s: f"{a}:{s}", st.sampled_from(["hands", "belt", "backpack"]), st.integers(0, 11)
    ),
)


def assert_slot_rules(inv: dict[str, Any]) -> None:
    seen: set[tuple[str, int]] = set()
    for p in inv["placed"]:
        cells = span(p)
        assert cells == list(range(cells[0], cells[-1] + 1))  # contiguous, one type
        assert cells[0] >= 1 and cells[-1] <= AREA_SIZE[p["area"]]  # capacity
        for c in cells:
            assert (p["area"], c) not in seen  # no overlap
            seen.add((p["area"], c))
        assert len({stack_kind(c) for c in p["items"]}) == 1
        limit = 1 if p["area"] == HANDS else min(c["stack"] for c in p["items"])
        assert len(p["items"]) <= limit
    ids = [c["id"] for _a, _s, c in iter_items(inv)]
    assert len(ids) == len(set(ids))


@settings(max_examples=120)
@given(data=st.data())
def test_placement_keeps_every_slot_rule_and_never_mutates(data):
    inv = empty_inventory()
    placed = 0
    for n in range(data.draw(st.integers(1, 25))):
        card = data.draw(cards(n))
        target = data.draw(targets)
        before = copy.deepcopy(inv)
        try:
            new = place(inv, card, target)
        except RulesError as exc:
            assert inv == before
            assert exc.errors and all(
                "ru" in m and "en" in m for v in exc.errors.values() for m in v
            )
            continue
        assert inv == before
        assert_slot_rules(new)
        assert validate_inventory(new) == new
        ids = [c["id"] for _a, _s, c in iter_items(new)]
        assert card["id"] in ids and len(ids) == placed + 1
        placed += 1
        inv = new


# --- damage -----------------------------------------------------------------------------------


@settings(max_examples=120)
@given(state=sheets(), amount=st.integers(0, 25), piercing=st.booleans(), data=st.data())
def test_damage_is_conserved_and_pools_stay_in_range(state, amount, piercing, data):
    if state["dead"]:
        return
    before = copy.deepcopy(state)
    new, report = apply_damage(state, amount, piercing=piercing, dice=HypoDice(data))
    assert state == before
    wounds_before = len(state["inventory"]["wounds"])
    stamina_lost = state["stamina"] - report.stamina_after
    if report.knocked_out:
        stamina_lost = state["stamina"]  # set to 1 instead of 0, nothing more was taken
    accounted = sum(report.absorbed.values()) + stamina_lost + len(report.wounds) + report.lost
    assert accounted == report.total
    assert 0 <= new["stamina"] <= new["stamina_max"]
    assert len(new["inventory"]["wounds"]) <= 10
    assert len(new["inventory"]["wounds"]) >= wounds_before
    if piercing:
        assert report.absorbed == {}
    validate_inventory(new["inventory"])


# --- turns and rests --------------------------------------------------------------------------


@settings(max_examples=60)
@given(party=st.lists(sheets(), max_size=3), turn=st.integers(1, 6), data=st.data())
def test_end_of_turn_never_mutates_and_only_wears_down(party, turn, data):
    camp = in_dungeon(turn, populated=data.draw(st.booleans()))
    before = copy.deepcopy((camp, party))
    result = end_dungeon_turn(camp, party, dice=HypoDice(data))
    assert (camp, party) == before
    assert result.campaign["turn"] == turn + 1
    assert result.events[0]["type"] == "turn_ended" and result.events[-1]["type"] == "turn_started"
    for old, new in zip(party, result.characters, strict=True):
        old_dice = {
            c["id"]: c["wear"]["dice"] for _a, _s, c in iter_items(old["inventory"]) if c["wear"]
        }
        for _a, _s, c in iter_items(new["inventory"]):
            if c["wear"]:
                assert c["wear"]["dice"] <= old_dice[c["id"]]
        assert not {c["key"] for c in new["conditions"]} & {"blessed", "vulnerable", "weakened"}
        RS.validate_state(new)
    json.dumps(result.as_dict(), ensure_ascii=False)


@settings(max_examples=40)
@given(party=st.lists(sheets(), min_size=1, max_size=3), data=st.data())
def test_a_full_rest_never_mutates_and_heals(party, data):
    camp = in_dungeon(2)
    before = copy.deepcopy((camp, party))
    started = start_rest(camp, party, dice=HypoDice(data))
    done = finish_rest(
        started.campaign, started.characters, [None] * len(party), dice=HypoDice(data)
    )
    assert (camp, party) == before
    for old, new in zip(started.characters, done.characters, strict=True):
        if old["dead"] or old["inventory"]["magic"]["finger"][1:]:
            continue
        assert new["stamina"] == new["stamina_max"]
        assert len(new["inventory"]["wounds"]) == max(0, len(old["inventory"]["wounds"]) - 1)
        assert all(e["uses"] == e["max"] for e in new["expertises"])
    assert done.campaign["turn"] == 3 and done.campaign["rest"] is None
