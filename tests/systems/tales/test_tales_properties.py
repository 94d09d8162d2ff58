"""Invariants of the Сказания rules, checked with hypothesis."""

from __future__ import annotations

import copy
import itertools
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tales_helpers import RS, pc, skill, weapon

from systems.core.dice import ScriptedDice
from systems.core.ruleset import RulesError
from systems.tales import wizard as wiz
from systems.tales.checks import (
    check_chance,
    check_odds,
    opposed_odds,
    opposed_odds_exact,
    opposed_winner,
)
from systems.tales.data import (
    ART_KINDS,
    ORIGINS_BY_ROLL,
    SKILLS,
    SPELLS,
    WEAPONS,
)


class HypoDice:
    """Dice whose faces hypothesis chooses (and shrinks)."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def roll(self, sides: int) -> int:
        return self.data.draw(st.integers(1, sides))


@st.composite
def sheets(draw: st.DrawFn) -> dict[str, Any]:
    strength = draw(st.integers(3, 18))
    return pc(
        str_=strength,
        dex=draw(st.integers(3, 18)),
        mind=draw(st.integers(3, 18)),
        hp=draw(st.integers(1, strength)),
        armour=draw(st.sampled_from(["none", "leather", "mail", "plate"])),
        shield=draw(st.sampled_from(["none", "buckler", "shield"])),
        skills=[skill("combat_melee", draw(st.integers(1, 3))), skill("medicine")],
        weapons=[weapon("dagger")],
        conditions=draw(st.lists(st.sampled_from(["blurred", "on_ice", "prone"]), unique=True)),
        care={"spirit_points": draw(st.integers(0, 1))},
    )


MOVES = [
    ("check", {"stat": "str"}),
    ("check", {"stat": "dex", "difficulty": "hard"}),
    ("opposed_check", {"stat": "mind", "opponent_value": 11, "dice_count": 3}),
    ("attack", {"weapon": "dagger"}),
    ("attack", {"weapon": "dagger", "mode": "throw", "distance": 3}),
    ("fall", {"metres": 9}),
    ("trap", {}),
    ("push", {"stat": "dex", "opponent_value": 10}),
    ("hunger_day", {"ate": False}),
    ("take_damage", {"amount": 4}),
]


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(state=sheets(), target=sheets(), data=st.data(), which=st.integers(0, len(MOVES) - 1))
def test_resolve_never_mutates_its_inputs(state, target, data, which):
    move, params = MOVES[which]
    params = copy.deepcopy(params)
    if move == "attack":
        params["target"] = target
    frozen_state, frozen_params = copy.deepcopy(state), copy.deepcopy(params)
    try:
        out = RS.resolve(move, state, dice=HypoDice(data), **params)
    except RulesError:
        return
    assert state == frozen_state and params == frozen_params
    if out.pending:
        frozen_out = copy.deepcopy(out.as_dict())
        RS.apply_choice(out, [out.options[-1].key], dice=HypoDice(data))
        assert out.as_dict() == frozen_out
    RS.validate_state(out.state)


@settings(max_examples=200)
@given(
    state=sheets(),
    data=st.data(),
    stat=st.sampled_from(["str", "dex", "mind"]),
    difficulty=st.sampled_from(["check", "hard", "very_hard"]),
    bonus=st.integers(-5, 5),
)
def test_band_matches_total(state, data, stat, difficulty, bonus):
    out = RS.resolve(
        "check", state, dice=HypoDice(data), stat=stat, difficulty=difficulty, bonus=bonus
    )
    if out.pending:
        out = RS.apply_choice(out, ["accept"], dice=HypoDice(data))
    assert out.total == sum(out.faces)
    assert out.band == ("success" if out.total <= out.modifier else "failure")
    assert len(out.faces) == out.details["check"]["dice"]


@settings(max_examples=200)
@given(
    a=st.integers(1, 40),
    b=st.integers(1, 40),
    data=st.data(),
    an=st.integers(1, 4),
    bn=st.integers(1, 4),
)
def test_opposed_band_matches_totals(a, b, data, an, bn):
    out = RS.resolve(
        "opposed_check",
        pc(str_=a),
        dice=HypoDice(data),
        stat="str",
        opponent_value=b,
        dice_count=an,
        opponent_dice=bn,
    )
    roll = out.details["opposed"]
    ta, tb = roll["actor"]["total"], roll["opponent"]["total"]
    assert ta == sum(roll["actor"]["faces"]) and len(roll["actor"]["faces"]) == an
    if ta > a and tb > b:
        assert out.band == "repeat"
    elif ta > a:
        assert out.band == "failure"
    elif tb > b:
        assert out.band == "success"
    elif ta == tb:
        assert out.band == "repeat"
    else:
        assert out.band == ("success" if ta > tb else "failure")


@given(target=st.integers(-5, 45), difficulty=st.sampled_from(["check", "hard", "very_hard"]))
def test_check_odds_sum_to_one(target, difficulty):
    odds = check_odds(target, difficulty)
    assert abs(sum(odds.values()) - 1) < 1e-12
    assert 0 <= odds["success"] <= 1


@settings(max_examples=60)
@given(
    a=st.integers(0, 40),
    b=st.integers(0, 40),
    an=st.integers(1, 6),
    bn=st.integers(1, 6),
    tie=st.sampled_from(["repeat", "higher_value"]),
)
def test_opposed_odds_sum_to_exactly_one(a, b, an, bn, tie):
    exact = opposed_odds_exact(a, an, b, bn, tie=tie)
    assert sum(exact.values()) == 1
    assert abs(sum(opposed_odds(a, an, b, bn, tie=tie).values()) - 1) < 1e-12


@given(a=st.integers(0, 25), b=st.integers(0, 25), an=st.integers(1, 2), bn=st.integers(1, 2))
def test_opposed_odds_match_brute_force(a, b, an, bn):
    counts = {"success": 0, "failure": 0, "repeat": 0}
    for fa in itertools.product(range(1, 11), repeat=an):
        for fb in itertools.product(range(1, 11), repeat=bn):
            winner, _ = opposed_winner(sum(fa), a, sum(fb), b)
            counts[{"actor": "success", "opponent": "failure", None: "repeat"}[winner]] += 1
    whole = 10 ** (an + bn)
    assert opposed_odds_exact(a, an, b, bn) == {k: Fraction(v, whole) for k, v in counts.items()}


def test_reference_odds_from_the_digest():
    assert check_chance(10) == Fraction(45, 100)
    assert check_chance(14) == Fraction(79, 100)
    assert check_chance(16, "hard") == Fraction(1, 2)
    assert round(float(check_chance(20, "very_hard")), 2) == 0.40


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow])
@given(state=sheets(), target=sheets(), which=st.integers(0, 5))
def test_move_odds_sum_to_one(state, target, which):
    calls = [
        ("check", {"stat": "dex"}),
        ("attack", {"weapon": "dagger", "target": target}),
        ("opposed_check", {"stat": "str", "target": target}),
        ("push", {"stat": "str", "target": target}),
        ("skill", {"skill": "medicine"}),
        ("trap", {"trap": "pit"}),
    ]
    move, params = calls[which]
    try:
        odds = RS.odds(move, state, **params)
    except RulesError:
        return
    assert odds and abs(sum(odds.values()) - 1) < 1e-9


# --- the wizard ---------------------------------------------------------------------------

NON_WEAPON_SKILLS = [s.key for s in SKILLS]


@st.composite
def wizard_runs(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """Feed the wizard only choices the rules allow; return the wizard and the settings."""
    cfg = {"origin_weapon_skills": draw(st.sampled_from(["combat", "military"]))}
    w = RS.wizard_start()
    order = draw(st.permutations(["str", "dex", "mind"]))
    for stat in order:
        faces = [draw(st.integers(1, 6)) for _ in range(3)]
        w = RS.wizard_step(w, "roll_stat", dice=ScriptedDice(faces), settings=cfg)
        if w["step"] == "stats" and wiz.pending_roll(w) is not None:
            w = RS.wizard_step(w, "assign_stat", stat=stat, settings=cfg)
    origin_faces = [draw(st.integers(1, 10)), draw(st.integers(1, 10))]
    w = RS.wizard_step(w, "roll_origin", dice=ScriptedDice(origin_faces), settings=cfg)
    roll = sum(origin_faces)
    if w["step"] == "origin_details":
        n = {5: 0, 6: 2, 11: 1}[roll]
        crafts = [draw(st.sampled_from(["кузнец", "ткач", "гончар"])) for _ in range(n)]
        art = draw(st.sampled_from([c.key for c in ART_KINDS])) if roll == 5 else ""
        w = RS.wizard_step(w, "choose_origin_details", crafts=crafts, art=art, settings=cfg)
    mind = wiz.stats_of(w)["mind"]
    spells = [s.key for s in SPELLS if s.min_mind <= mind] if ORIGINS_BY_ROLL[roll].spells else []
    picks: list[dict[str, Any]] = []
    taken_literacy = any(s == "literacy" for s in ORIGINS_BY_ROLL[roll].skills)
    for _ in range(2):
        if spells and draw(st.booleans()):
            spell = draw(st.sampled_from([s for s in spells if s not in [p["key"] for p in picks]]))
            picks.append({"kind": "spell", "key": spell})
            continue
        allowed = [k for k in NON_WEAPON_SKILLS if not (k == "literacy" and taken_literacy)]
        key = draw(st.sampled_from(allowed))
        taken_literacy = taken_literacy or key == "literacy"
        detail = "резчик" if key == "craft" else ""
        picks.append({"kind": "skill", "key": key, "detail": detail})
    w = RS.wizard_step(w, "choose_picks", picks=picks, settings=cfg)
    strength = wiz.stats_of(w)["str"]
    usable = [x.key for x in WEAPONS if x.carried and x.min_str <= strength]
    kit = draw(st.lists(st.sampled_from(usable), max_size=3))
    armour = draw(st.sampled_from(["none", "leather", "mail", "plate"]))
    w = RS.wizard_step(w, "choose_equipment", armour=armour, weapons=kit, settings=cfg)
    return w, cfg


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(run=wizard_runs(), name=st.text(max_size=20))
def test_wizard_always_yields_a_valid_character(run, name):
    w, cfg = run
    frozen = copy.deepcopy(w)
    done = RS.wizard_step(w, "finish", name=name, settings=cfg)
    assert w == frozen
    assert done["step"] == "done"
    sheet = RS.validate_state(done["sheet"])
    assert sheet["hp"] == sheet["max_hp"] == sheet["stats"]["str"]
    assert min(sheet["stats"].values()) >= 3 and max(sheet["stats"].values()) <= 18
    assert sum(s["level"] for s in sheet["skills"]) + len(sheet["spells"]) == 4
    for key in sheet["spells"]:
        assert next(s for s in SPELLS if s.key == key).min_mind <= sheet["stats"]["mind"]
    assert RS.wizard_preview(done)["step"] == "done"
