"""The Tales battle record: surprise, the sides' initiative, Tactics and whose side acts.

The row, the lock and the log are the generic campaign-wide rules state's
(``vtt.tablestate``); this module declares the moves, who may make them, their hooks and what
each viewer may see.
"""

from __future__ import annotations

import copy
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from systems import get_ruleset
from systems.tales.sheet import skill_level
from vtt.campaigns.models import Campaign, Role
from vtt.characters import services as character_services
from vtt.characters.models import Character, Kind
from vtt.core.errors import Conflict, Invalid
from vtt.rulesets.base import RULES_STATE_CONTROLLER as CONTROLLER
from vtt.rulesets.base import RULES_STATE_REFEREE as REFEREE
from vtt.rulesets.base import RulesState
from vtt.tablestate.services import default_state, save_state

KEY = "tales"


def snapshot(ts, chars: list[Character], *, referee: bool) -> dict[str, Any]:
    sides: dict[str, list[dict[str, Any]]] = {"party": [], "enemies": []}
    for c in chars:
        if c.hidden and not referee:
            continue
        side = "party" if c.kind == Kind.PC else "enemies"
        sides[side].append(
            {
                "character_id": c.pk,
                "name": c.name,
                "owner_id": c.owner_id,
                "hidden": c.hidden,
                "dead": (c.state or {}).get("status") == "dead",
            }
        )
    return {"ruleset": KEY, "version": ts.version, "battle": dict(ts.state), "sides": sides}


def mine(ts, chars: list[Character], *, referee: bool) -> list[dict[str, Any]]:
    out = []
    for c in chars:
        try:
            level = skill_level(c.state or {}, "tactics")
        except (KeyError, TypeError, AttributeError):
            level = 0
        out.append({"character_id": c.pk, "name": c.name, "kind": c.kind, "tactics": level})
    return out


def _tactics_params(*, ts, campaign, actor, role, params):
    unknown = set(params) - {"character_id", "bonus"}
    if unknown:
        raise Invalid(_("Unknown parameters: %(p)s.") % {"p": ", ".join(sorted(unknown))})
    character = (
        Character.objects.select_for_update()
        .filter(campaign=campaign, pk=params.get("character_id") or 0)
        .first()
    )
    if character is None or (character.hidden and role != Role.REFEREE):
        raise Invalid(
            _("Choose who uses Tactics."), code="no_character", fields={"character_id": ["?"]}
        )
    if role != Role.REFEREE and character.owner_id != actor.pk:
        raise Conflict(
            _("Players use Tactics with their own characters."), code="not_owner", status=403
        )
    try:
        bonus = int(params.get("bonus") or 0)
    except (TypeError, ValueError):
        bonus = 0
    return (
        {"character": copy.deepcopy(character.state), "bonus": bonus},
        {"_character": character, "character_id": character.pk, "name": character.name},
    )


def _tactics_after(*, ts, campaign, actor, outcome, extra):
    """A check may use up a one-shot bonus on the sheet; keep the sheet in step."""
    character = extra["_character"]
    sheet = outcome.details.get("character")
    if isinstance(sheet, dict) and sheet != character.state:
        character_services.character_update(
            character=character,
            actor=actor,
            state=sheet,
            version=character.version,
            reason="move:tactics",
        )
    return {"success": outcome.band == "success"}


def _reset_battle(*, ts, campaign, actor, role, params):
    if params:
        raise Invalid(_("This move takes no parameters."), code="bad_params")
    save_state(ts, default_state(KEY))
    return {}, None


def panel_config(campaign: Campaign) -> dict[str, Any]:
    """Phase and side names as the ruleset gives them, and the character wizard's page."""
    described = get_ruleset(KEY).describe()
    phases = described["battle"]["fields"]["phase"]["choices"]
    return {
        "phases": {c["key"]: {"ru": c["ru"], "en": c["en"]} for c in phases},
        "sides": {c["key"]: {"ru": c["ru"], "en": c["en"]} for c in described["sides"]},
        "urls": {"wizard": reverse("tales_wizard", args=[campaign.pk])},
    }


# Tactics is a character's skill, so its player may roll it; everything else steers the battle.
RULES_STATE = RulesState(
    procedures="battle",
    panel_title=gettext_lazy("Battle"),
    roles={
        "surprise": REFEREE,
        "tactics": CONTROLLER,
        "initiative": REFEREE,
        "next_side": REFEREE,
        "reset_battle": REFEREE,
    },
    prepare={"tactics": _tactics_params},
    after={"tactics": _tactics_after},
    actions={"reset_battle": _reset_battle},
    snapshot=snapshot,
    mine=mine,
    panel_config=panel_config,
)
