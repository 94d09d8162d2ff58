"""Combat numbers and damage as pure functions.

[published edition] Everything here except the aces on damage rolls («Взрывной бросок»), the soak
roll's existence and cost («Фишки») and "wild cards can take several wounds" («Дикие карты и
статисты») comes from the published game the rulebook belongs to (Savage Worlds Deluxe /
Explorer's). Differences between editions are campaign settings (``sheet.SETTINGS``).

Sheet derived values [published edition]: Parry = 2 + half Fighting (2 without it), Toughness
= 2 + half Vigor + armor, Pace 6, Charisma 0, each plus the edges' and hindrances' modifiers.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any

from systems.core.dice import Dice
from systems.savage_worlds.traits import (
    DIE_SIDES,
    RAISE_STEP,
    Die,
    Explosion,
    parse_die,
    roll_exploding,
)

MAX_WOUNDS = 3  # [published edition] a wild card is incapacitated past 3 wounds
MAX_WOUND_PENALTY = -3  # [published edition]
MAX_FATIGUE = 2  # [published edition] Fatigued -1, Exhausted -2; a third level incapacitates
BASE_PACE = 6
BASE_PARRY = 2
BASE_TOUGHNESS = 2
RAISE_DAMAGE_DIE = 6  # [published edition] a raise on the attack adds +1d6 damage (it aces)
RANGE_PENALTY: dict[str, int] = {"short": 0, "medium": -2, "long": -4}  # [published edition]
MAX_DAMAGE_DICE = 10

STRENGTH_WORDS = frozenset({"str", "strength", "сила", "сил"})
FIGHTING_KEYS = frozenset({"fighting", "драка"})
MODIFIED = ("pace", "parry", "toughness", "charisma")


def wound_penalty(wounds: int) -> int:
    """[published edition] -1 per wound, at most -3."""
    return max(MAX_WOUND_PENALTY, -max(0, wounds))


def fatigue_penalty(fatigue: int) -> int:
    """[published edition] Fatigued -1, Exhausted -2."""
    return -min(MAX_FATIGUE, max(0, fatigue))


def find_skill(state: dict[str, Any], name: str) -> dict[str, Any] | None:
    """A skill on the sheet by key or by name, ignoring case."""
    wanted = name.strip().casefold()
    for skill in state["skills"]:
        if wanted and wanted in (skill["key"].casefold(), skill["name"].casefold()):
            return skill
    return None


def _modifier_sum(state: dict[str, Any], field: str) -> int:
    return sum(e[field] for e in state["edges"]) + sum(e[field] for e in state["hindrances"])


def parry(state: dict[str, Any]) -> int:
    """[published edition] Защита: 2 + half the Fighting die, 2 without Fighting."""
    fighting = next(
        (s for s in state["skills"] if {s["key"].casefold(), s["name"].casefold()} & FIGHTING_KEYS),
        None,
    )
    half = parse_die(fighting["die"]).half if fighting else 0
    return BASE_PARRY + half + _modifier_sum(state, "parry")


def toughness(state: dict[str, Any], *, ap: int = 0) -> int:
    """[published edition] Стойкость: 2 + half Vigor + armor; armor piercing (AP) ignores
    that many points of armor, never more than the armor there is."""
    vigor = parse_die(state["attributes"]["vigor"])
    armor = max(0, state["armor"] - max(0, ap))
    return BASE_TOUGHNESS + vigor.half + armor + _modifier_sum(state, "toughness")


def pace(state: dict[str, Any], *, wounds_reduce_pace: bool = False) -> int:
    """[published edition] Шаг 6 plus modifiers; SWADE also takes wounds off Pace (minimum 1)."""
    value = state["pace"] + _modifier_sum(state, "pace")
    if wounds_reduce_pace:
        value += wound_penalty(state["wounds"])
    return max(1, value)


def charisma(state: dict[str, Any]) -> int:
    """[published edition] Харизма: 0 plus the edges' and hindrances' modifiers."""
    return _modifier_sum(state, "charisma")


def derived(state: dict[str, Any], *, wounds_reduce_pace: bool = False) -> dict[str, int]:
    """The sheet's derived values and its current trait-roll penalties."""
    return {
        "pace": pace(state, wounds_reduce_pace=wounds_reduce_pace),
        "parry": parry(state),
        "toughness": toughness(state),
        "charisma": charisma(state),
        "wound_penalty": wound_penalty(state["wounds"]),
        "fatigue_penalty": fatigue_penalty(state["fatigue"]),
    }


# --- damage rolls ------------------------------------------------------------------------------

_TERM = re.compile(r"^(\d{0,2})\s*[dDкК]\s*(\d{1,2})$")


@dataclass(frozen=True)
class DamageExpr:
    """A damage expression resolved against a sheet: exploding dice and a constant."""

    dice: tuple[int, ...]
    constant: int = 0
    text: str = ""


def parse_damage(text: str, state: dict[str, Any] | None = None) -> DamageExpr:
    """``"str+d6"``, ``"Сила+к8"``, ``"2d6+1"``, ``"d8+d6"``: Strength is the wielder's die
    (its d12+N bonus a constant). ``ValueError`` for anything else."""
    raw = (text or "").strip()
    if not raw or len(raw) > 40:
        raise ValueError("damage must be like str+d6 or 2d6+1")
    dice: list[int] = []
    constant = 0
    for part in re.split(r"(?=[+-])", raw.replace(" ", "")):
        if not part:
            continue
        sign = -1 if part[0] == "-" else 1
        body = part.lstrip("+-")
        if body.casefold() in STRENGTH_WORDS:
            if sign < 0:
                raise ValueError("Strength cannot be subtracted")
            if state is not None:
                die: Die = parse_die(state["attributes"]["strength"])
                dice.append(die.sides)
                constant += die.bonus
            else:
                dice.append(0)  # placeholder: checked for syntax only
            continue
        if body.isdigit():
            constant += sign * int(body)
            continue
        match = _TERM.match(body)
        if not match or sign < 0:
            raise ValueError(f"bad damage term {part!r}")
        count, sides = int(match.group(1) or 1), int(match.group(2))
        if sides not in DIE_SIDES or count < 1:
            raise ValueError(f"damage dice are d4..d12, not {body!r}")
        dice.extend([sides] * count)
    if not dice or len(dice) > MAX_DAMAGE_DICE:
        raise ValueError(f"damage needs 1 to {MAX_DAMAGE_DICE} dice")
    return DamageExpr(tuple(dice), constant, raw)


def check_damage(text: str) -> dict[str, str] | None:
    """A sheet-field check: ``None`` if the damage text parses."""
    if not text:
        return None
    try:
        parse_damage(text)
    except ValueError:
        return {
            "ru": "Урон записывается так: Сила+к6, str+d8, 2d6+1.",
            "en": "Write damage like str+d6, Сила+к8 or 2d6+1.",
        }
    return None


def roll_damage(
    dice: Dice, expr: DamageExpr, *, raise_die: bool = False, modifier: int = 0
) -> dict[str, Any]:
    """Проверка урона («Взрывной бросок»; «Фишки»): every die aces on its own, no wild die (our
    reading); a raise on the attack adds +1d6 [published edition]; the joker's +2 is part of
    ``modifier``."""
    sides = list(expr.dice) + ([RAISE_DAMAGE_DIE] if raise_die else [])
    rolls: list[Explosion] = [roll_exploding(dice, s) for s in sides]
    total = sum(r.total for r in rolls) + expr.constant + modifier
    return {
        "kind": "damage",
        "dice": sides,
        "faces": [list(r.faces) for r in rolls],
        "constant": expr.constant,
        "modifier": modifier,
        "raise_die": raise_die,
        "total": total,
    }


# --- damage effects --------------------------------------------------------------------------


@dataclass(frozen=True)
class DamageEffect:
    """What a damage total does against Toughness before any soak roll."""

    damage: int
    toughness: int
    shaken: bool  # damage reached Toughness
    raises: int
    wounds: int  # wounds this hit causes (before soaking)

    def as_dict(self) -> dict[str, Any]:
        return {
            "damage": self.damage,
            "toughness": self.toughness,
            "shaken": self.shaken,
            "raises": self.raises,
            "wounds": self.wounds,
        }


def damage_effect(damage: int, toughness_value: int, *, already_shaken: bool) -> DamageEffect:
    """[published edition] Damage >= Toughness: Shaken; each raise: a wound; Shaken again without
    a raise: one wound instead."""
    if damage < toughness_value:
        return DamageEffect(damage, toughness_value, False, 0, 0)
    raises = (damage - toughness_value) // RAISE_STEP
    wounds = raises if raises else (1 if already_shaken else 0)
    return DamageEffect(damage, toughness_value, True, raises, wounds)


def apply_damage(
    state: dict[str, Any], effect: DamageEffect, *, soaked: int = 0
) -> tuple[dict[str, Any], dict[str, Any]]:
    """[published edition] Put a hit on a sheet after ``soaked`` wounds were soaked.

    Soaking every wound of the hit also removes the Shaken it caused (not a Shaken the
    character already had). An extra is incapacitated by its first wound; a wild card past
    three wounds, keeping three on the sheet, and then rolls Vigor (``incapacitation_roll``).
    """
    st = copy.deepcopy(state)
    soaked = max(0, min(soaked, effect.wounds))
    wounds = effect.wounds - soaked
    all_soaked = effect.wounds > 0 and wounds == 0
    if effect.shaken and not all_soaked:
        st["shaken"] = True
    # An extra is out at its first wound; a wild card past three (kept at three).
    incapacitated = (
        bool(wounds)
        and st["status"] == "active"
        and (not st["wild_card"] or st["wounds"] + wounds > MAX_WOUNDS)
    )
    if wounds and st["wild_card"]:
        st["wounds"] = min(MAX_WOUNDS, st["wounds"] + wounds)
    if incapacitated:
        st["status"] = "incapacitated"
    info = {
        **effect.as_dict(),
        "soaked": soaked,
        "wounds_taken": wounds,
        "incapacitated": incapacitated,
        "incapacitation_roll_due": incapacitated and st["wild_card"],
        "result": _result(effect, wounds, incapacitated, st),
    }
    return st, info


def _result(effect: DamageEffect, wounds: int, incapacitated: bool, st: dict[str, Any]) -> str:
    if incapacitated:
        return "incapacitated"
    if wounds:
        return "wounded"
    if effect.shaken and st["shaken"]:
        return "shaken"
    return "none"


# --- rolls after damage ------------------------------------------------------------------------

SHAKEN_RULES = ("deluxe", "swade")
INCAPACITATION_RULES = ("deluxe", "explorer", "swade")


def shaken_recovery(band: str, rule: str) -> dict[str, bool]:
    """[published edition] Spirit roll at the start of the character's action.

    Deluxe: a success clears Shaken but allows free actions only; a raise allows acting.
    SWADE: a success clears Shaken and the character acts normally.
    """
    cleared = band in ("success", "raise")
    can_act = band == "raise" or (rule == "swade" and cleared)
    return {"shaken": not cleared, "can_act": can_act}


def incapacitation_result(band: str, total: int, rule: str) -> dict[str, Any]:
    """[published edition] A wild card's Vigor roll on becoming incapacitated.

    Deluxe: total 1 or less dies; failure: permanent injury and Bleeding Out; success: injury
    until the wounds heal; raise: injury for 24 hours. Explorer's: raise: only stunned (Shaken,
    not incapacitated); success: unconscious; failure: Bleeding Out; critical failure: dead.
    SWADE: as Deluxe, but death on a critical failure. Injuries come from the Injury Table
    (2d6, not in the rulebook; bennies do not change table results, «Фишки»).
    """
    if rule == "explorer":
        if band == "critical_failure":
            return {"status": "dead", "injury": None}
        if band == "failure":
            return {"status": "bleeding_out", "injury": "permanent"}
        if band == "success":
            return {"status": "incapacitated", "injury": "until_healed"}
        return {"status": "active", "injury": "until_combat_ends", "shaken": True}
    if (rule == "deluxe" and total <= 1) or (rule == "swade" and band == "critical_failure"):
        return {"status": "dead", "injury": None}
    if band in ("failure", "critical_failure"):
        return {"status": "bleeding_out", "injury": "permanent"}
    if band == "success":
        return {"status": "incapacitated", "injury": "until_healed"}
    return {"status": "incapacitated", "injury": "24_hours"}


def bleeding_out_result(band: str, total: int, rule: str) -> str:
    """[published edition] Vigor roll at the start of each round while Bleeding Out.

    Deluxe and SWADE: failure dies, success rolls again next round, raise stabilises.
    Explorer's: 1 or less dies, failure rolls again, success stabilises.
    """
    if rule == "explorer":
        if total <= 1 or band == "critical_failure":
            return "dead"
        return "bleeding_out" if band == "failure" else "incapacitated"
    if band in ("failure", "critical_failure"):
        return "dead"
    return "bleeding_out" if band == "success" else "incapacitated"
