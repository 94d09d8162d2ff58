"""Shared fixtures for the Сказания волшебного мира tests."""

from __future__ import annotations

from typing import Any

from systems import get_ruleset
from systems.core.dice import ScriptedDice

RS = get_ruleset("tales")


def pc(str_: int = 12, dex: int = 12, mind: int = 12, **changes: Any) -> dict[str, Any]:
    """A valid sheet with the given stats; HP = max HP = Str unless ``changes`` say otherwise."""
    state = RS.default_state()
    state.update(stats={"str": str_, "dex": dex, "mind": mind}, hp=str_, max_hp=str_)
    state.update(changes)
    return RS.validate_state(state)


def weapon(key: str, state: str = "drawn", **extra: Any) -> dict[str, Any]:
    return {"key": key, "state": state, "loaded": True, "reload_progress": 0, **extra}


def skill(key: str, level: int = 1, detail: str = "") -> dict[str, Any]:
    return {"key": key, "level": level, "detail": detail}


def run(move: str, state: Any, faces: list[int], **params: Any):
    """Resolve with exactly these faces; fails if a face is left over."""
    with ScriptedDice(faces) as dice:
        return RS.resolve(move, state, dice=dice, **params)


def choose(outcome, choices: list[str], faces: list[int] | None = None):
    with ScriptedDice(faces or []) as dice:
        return RS.apply_choice(outcome, choices, dice=dice)


def three_d6(total: int) -> list[int]:
    """Faces of 3d6 summing to ``total`` (3..18)."""
    faces = [1, 1, 1]
    left = total - 3
    for i in range(3):
        step = min(5, left)
        faces[i] += step
        left -= step
    return faces


def wizard_at_origin(str_: int = 12, dex: int = 12, mind: int = 12) -> dict[str, Any]:
    """A wizard with the three stats assigned (str, then dex, then mind by itself)."""
    w = RS.wizard_start()
    w = RS.wizard_step(w, "roll_stat", dice=ScriptedDice(three_d6(str_)))
    w = RS.wizard_step(w, "assign_stat", stat="str")
    w = RS.wizard_step(w, "roll_stat", dice=ScriptedDice(three_d6(dex)))
    w = RS.wizard_step(w, "assign_stat", stat="dex")
    return RS.wizard_step(w, "roll_stat", dice=ScriptedDice(three_d6(mind)))


def wizard_at_picks(
    origin_faces: tuple[int, int], str_: int = 12, dex: int = 12, mind: int = 12, **details: Any
) -> dict[str, Any]:
    w = wizard_at_origin(str_, dex, mind)
    w = RS.wizard_step(w, "roll_origin", dice=ScriptedDice(list(origin_faces)))
    if w["step"] == "origin_details":
        w = RS.wizard_step(w, "choose_origin_details", **details)
    return w
