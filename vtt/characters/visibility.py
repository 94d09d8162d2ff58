"""What of a sheet other players may see. Owners and the referee see everything."""

from __future__ import annotations

from typing import Any

from vtt.campaigns.models import Role

# Fields everyone at the table sees (the rest is the owner's and the referee's).
PUBLIC_FIELDS: dict[str, tuple[str, ...]] = {
    "dungeon_world": ("name", "class_name", "race", "level", "hp", "max_hp", "armor", "status"),
    "city_of_judas": ("name", "health", "unstable", "mortal_wound"),
    "savage_worlds": ("name", "role", "wild_card", "wounds", "fatigue", "shaken", "status"),
    "crows": ("name", "stamina", "max_stamina", "wounds", "conditions", "status"),
    "tales": ("name", "origin", "hp", "max_hp", "status"),
}


def public_keys(ruleset: str, kind: str = "pc") -> tuple[str, ...]:
    """An NPC's numbers are the referee's business: players see its name only."""
    return PUBLIC_FIELDS.get(ruleset, ("name",)) if kind == "pc" else ("name",)


def public_state(ruleset: str, state: dict[str, Any], kind: str = "pc") -> dict[str, Any]:
    return {k: state[k] for k in public_keys(ruleset, kind) if k in state}


def can_see_full(character, *, user_id: int, role: str) -> bool:
    return role == Role.REFEREE or character.owner_id == user_id


def can_see_at_all(character, *, role: str) -> bool:
    return role == Role.REFEREE or not character.hidden


def can_edit(character, *, user_id: int, role: str) -> bool:
    """Players edit their own sheets; the referee edits every sheet and NPC."""
    if role == Role.REFEREE:
        return True
    return role == Role.PLAYER and character.owner_id == user_id and character.kind == "pc"
