"""What of a sheet other players may see. Owners and the referee see everything."""

from __future__ import annotations

from typing import Any

from vtt.campaigns.models import Role
from vtt.rulesets.registry import web_for


def public_keys(ruleset: str, kind: str = "pc") -> tuple[str, ...]:
    """Fields everyone at the table sees (the ruleset's plugin names them; the rest is the
    owner's and the referee's). An NPC's numbers are the referee's business: players see its
    name only."""
    return web_for(ruleset).public_fields if kind == "pc" else ("name",)


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
