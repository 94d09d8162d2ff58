"""Shared fixtures for the Savage Worlds tests: sheets, scripted runs, stacked decks."""

from __future__ import annotations

from typing import Any

from systems import get_ruleset
from systems.core.dice import ScriptedDice
from systems.savage_worlds import deck as dk

RS = get_ruleset("savage_worlds")


def sheet(
    *,
    wild_card: bool = True,
    role: str = "pc",
    die: str = "d6",
    skills: dict[str, str] | None = None,
    **changes: Any,
) -> dict[str, Any]:
    """A sheet with every attribute at ``die``, the given skills (name -> die) and changes."""
    state = RS.default_state()
    state.update(
        name=changes.pop("name", "Весёлый Джек"),
        role=role,
        wild_card=wild_card,
        attributes={k: die for k in ("agility", "smarts", "spirit", "strength", "vigor")},
        skills=[{"key": k, "name": k, "die": v} for k, v in (skills or {}).items()],
    )
    attributes = changes.pop("attributes", None)
    if attributes:
        state["attributes"].update(attributes)
    state.update(changes)
    return RS.validate_state(state)


def extra(**changes: Any) -> dict[str, Any]:
    """A GM extra (статист, L7)."""
    return sheet(wild_card=False, role="npc", **changes)


def gm_wild_card(**changes: Any) -> dict[str, Any]:
    return sheet(wild_card=True, role="npc", **changes)


def run(
    move: str,
    state: dict[str, Any],
    faces: list[int],
    *,
    shuffles: list[list[str]] | None = None,
    **params: Any,
):
    """Resolve with exactly these faces (and shuffles); fails if any is left over."""
    with ScriptedDice(faces, shuffles=shuffles) as dice:
        return RS.resolve(move, state, dice=dice, **params)


def choose(outcome, choice: str, faces: list[int] | None = None):
    with ScriptedDice(faces or []) as dice:
        return RS.apply_choice(outcome, [choice], dice=dice)


def stacked(*top: str) -> list[str]:
    """A full deck order with ``top`` cards first (what a scripted shuffle returns)."""
    rest = [c for c in dk.full_deck() if c not in top]
    return list(top) + rest


def table(pool: int = 0, deck: dict[str, Any] | None = None) -> dict[str, Any]:
    state = RS.default_table()
    state["pool"] = pool
    if deck is not None:
        state["deck"] = deck
    return RS.validate_table(state)
