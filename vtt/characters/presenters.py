"""How a sheet and a move's outcome look to one caller: the referee sees everything, others the
public part (``vtt.characters.visibility``). Shared by the API views, the commands and the
pages."""

from __future__ import annotations

from typing import Any

from systems import get_ruleset
from vtt.campaigns.models import Role
from vtt.characters import services
from vtt.characters.models import Character, PendingMove
from vtt.characters.visibility import can_see_full, public_state


def outcome_for(
    outcome: Any,
    membership: Any,
    target: Character | None = None,
    mover: Character | None = None,
    pending: PendingMove | None = None,
) -> dict:
    """The outcome as the caller may see it. The referee gets everything; anyone else never
    gets the stored step of a waiting choice (its parameters carry whole sheets), the sheet
    of a target they may not see in full (an NPC's hit points), nor the mover's sheet when
    they answer another's move (a reaction to a hidden creature's attack).

    With the choice it opened (``pending``), the outcome names who makes it as the table
    decided (the rules' "opponent" becomes the target's player or the referee) and whether it
    is this caller (``mine``): the page never guesses it from the rules' word."""
    data = outcome.as_dict()
    if pending is not None:
        data["chooser"] = pending.chooser
        data["mine"] = services.may_choose(
            pending, user_id=membership.user_id, role=membership.role
        )
    if membership.role == Role.REFEREE:
        return data
    if mover is not None and not can_see_full(
        mover, user_id=membership.user_id, role=membership.role
    ):
        data["state"] = {}
    details = dict(data.get("details") or {})
    details.pop("pending", None)
    if isinstance(details.get("travel"), dict):
        # a travel check's day (Crows) as players see it: no encounter or drift rolls, no
        # true hex while lost; an answered "choose one" returns it through here too
        public = getattr(get_ruleset(membership.campaign.ruleset), "public_travel", None)
        details["travel"] = public(details["travel"]) if public else {}
    if target is None or not can_see_full(target, user_id=membership.user_id, role=membership.role):
        details.pop("target", None)
        for entry in details.get("targets") or []:
            if isinstance(entry, dict):
                entry.pop("state", None)
                entry.pop("report", None)
    data["details"] = details
    return data


def character_data(character: Character, membership: Any) -> dict:
    """The sheet for this member: all of it, or its public part."""
    full = can_see_full(character, user_id=membership.user_id, role=membership.role)
    return {
        "id": character.pk,
        "campaign_id": character.campaign_id,
        "ruleset": character.ruleset,
        "name": character.name,
        "kind": character.kind,
        "owner_id": character.owner_id,
        "hidden": character.hidden,
        "version": character.version,
        "full": full,
        "state": character.state
        if full
        else public_state(character.ruleset, character.state, character.kind),
        "updated_at": character.updated_at,
    }
