"""What each viewer may see of the table state (pages, the API and the events share this).

Players never see the draw pile or its order, the discards, hidden NPCs (their cards, names
and sides) or other players' bennies; the referee sees everything but the draw order, which
no one needs to see.
"""

from __future__ import annotations

from typing import Any

from vtt.campaigns.models import Role
from vtt.characters.models import Character, Kind
from vtt.rulesets.registry import web_for


def characters_of(campaign_id: int) -> list[Character]:
    """The campaign's sheets, player characters first, by name."""
    chars = list(Character.objects.filter(campaign_id=campaign_id))
    chars.sort(key=lambda c: (c.kind != Kind.PC, c.name.casefold(), c.pk))
    return chars


def snapshot(ts, *, referee: bool) -> dict[str, Any]:
    """The table state as a player (``referee=False``) or the referee may see it."""
    return _declared(ts.ruleset).snapshot(ts, characters_of(ts.campaign_id), referee=referee)


def snapshot_for(ts, *, user_id: int, role: str) -> dict[str, Any]:
    """``snapshot`` plus what this user controls: own sheets' bennies, their open benny
    choices and the traits they can roll (Savage Worlds), or who can use Tactics (Tales)."""
    referee = role == Role.REFEREE
    data = snapshot(ts, referee=referee)
    chars = [
        c
        for c in characters_of(ts.campaign_id)
        if referee or (role == Role.PLAYER and c.owner_id == user_id and c.kind == Kind.PC)
    ]
    data["mine"] = _declared(ts.ruleset).mine(ts, chars, referee=referee)
    return data


def _declared(ruleset_key: str):  # -> RulesState
    declared = web_for(ruleset_key).rules_state()
    assert declared is not None, "a table state row of a ruleset that keeps none"
    return declared
