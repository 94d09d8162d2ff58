"""The Crows part of the map panel: the rules' terms for static/js/crows_panel.js and the
travel day and combat as a member may see them."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from systems.crows.terms import COSTS, PACES, RIVER, ROLES, SIDES, TASKS
from vtt.campaigns.models import Membership, Role
from vtt.maps import selectors
from vtt.maps.models import Map
from vtt.rulesets.crows import battle, travel


def crows_config(membership: Membership, m: Map | None) -> dict[str, Any]:
    """What static/js/crows_panel.js needs: the rules' terms (Russian and English names from
    the seed) and the travel day and combat as this member may see them, with the log head
    they were read at (later ``travel``/``combat`` events replace them)."""
    referee = membership.role == Role.REFEREE
    campaign = membership.campaign
    head = selectors.current_head(campaign.pk)  # before the reads: a later event re-applies
    travel_state = travel.travel_view(campaign, referee=referee)["travel"]
    combat_state = (
        battle.combat_view(m, referee=referee)["combat"]
        if m is not None and m.kind == "square"
        else None
    )
    players = (
        [
            {"id": x.user_id, "name": x.user.display_name}
            for x in Membership.objects.filter(campaign=campaign, role=Role.PLAYER)
            .select_related("user")
            .order_by("user__username")
        ]
        if referee
        else []
    )
    return {
        "head": head,
        "travel": travel_state,
        "miasma": travel.pending_saves(campaign),
        "combat": combat_state,
        "players": players,
        "paces": [{"key": p.key, "ru": p.ru, "en": p.en} for p in PACES],
        "rivers": [c.as_dict() for c in RIVER],
        "roles": [c.as_dict() for c in ROLES],
        "tasks": [
            {
                "key": t.key,
                "role": t.role,
                "ru": t.ru,
                "en": t.en,
                "results": {k: {"ru": v[0], "en": v[1]} for k, v in t.results.items()},
            }
            for t in TASKS
        ],
        "costs": [c.as_dict() for c in COSTS],
        "sides": [c.as_dict() for c in SIDES],
        "directions": [
            {"key": k, "ru": ru, "en": en}
            for k, ru, en in (
                ("nw", "СЗ", "NW"),
                ("n", "С", "N"),
                ("ne", "СВ", "NE"),
                ("sw", "ЮЗ", "SW"),
                ("s", "Ю", "S"),
                ("se", "ЮВ", "SE"),
            )
        ],
        "labels": crows_labels(),
    }


def crows_labels() -> dict[str, str]:
    """Every string crows_panel.js shows (``{name}`` tokens filled in JS)."""
    return {
        "day": _("Day {n}"),
        "notTravelling": _("The party is not travelling."),
        "pace": _("Pace"),
        "hexes": _("Hexes today: {moved} of {hexes}"),
        "thresholds": _("Encounter threshold: {travel} on the road, {rest} at rest"),
        "position": _("Position"),
        "unknown": _("unknown"),
        "lost": _("The party is lost"),
        "hex": _("hex {col}, {row}"),
        "noRoles": _("No travel roles yet."),
        "check": _("Check"),
        "checkDone": _("done"),
        "tier": _("tier {n}"),
        "arrived": _("Arrived at {place}"),
        "prompts": _("For the referee"),
        "secret": _("Referee only"),
        "encounterYes": _("Encounter check {roll} against {threshold}: an encounter!"),
        "encounterNo": _("Encounter check {roll} against {threshold}: nothing."),
        "driftTo": _("Truly at {col}, {row}"),
        "saves": _("Miasma saves"),
        "noTask": _("— no role —"),
        "combatNone": _("No combat."),
        "round": _("Round {n}"),
        "noRound": _("No round yet"),
        "first": _("Acting first: {side}"),
        "waiting": _("Waiting to act: {side}"),
        "turnOf": _("{name}'s turn"),
        "hiddenTurn": _("The enemies act"),
        "spent": _("Spent: maneuvers {m}, actions {a}"),
        "left": _("Left: maneuvers {m}, actions {a}"),
        "moveLeft": _("{n} squares of the Move left"),
        "reactionSpent": _("reaction spent"),
        "acted": _("has acted"),
        "surprised": _("surprised"),
        "startTurn": _("Start the turn"),
        "moveManeuver": _("Move (maneuver)"),
        "maneuver": _("Maneuver"),
        "action": _("Action"),
        "reaction": _("Reaction"),
        "endTurn": _("End the turn"),
        "squares": _("Squares"),
        "allies": _("Allies"),
        "quarry": _("Quarry"),
        "helps": _("Helps instead"),
        "helpsNobody": _("— takes a role —"),
        "chooseOne": _("Choose:"),
        "miasmaChoice": _("17+ on the Miasma save: clear your cruelty or lift another's save"),
        "clearCruelty": _("Clear my cruelty"),
        "liftSave": _("Lift {name}'s save"),
        "chosen": _("Chosen: {choice}"),
        "rollInitiative": _("Roll the initiative (1d10)"),
        "rollerIs": _("Initiative: {name} rolls"),
        "taunt": _("Taunt"),
        "ready": _("Ready an action"),
        "trigger": _("Trigger"),
        "triggerPlaceholder": _("When… (the trigger)"),
        "whatPlaceholder": _("What (e.g. attack)"),
        "fire": _("Trigger fired: act"),
        "readied": _("readied"),
        "grab": _("Grab"),
        "release": _("Let go"),
        "extraAction": _("Extra action"),
        "join": _("Join the fight"),
        "target": _("Target"),
        "taunted": _("taunted"),
        "grabbing": _("grabbing {name}"),
        "extraNow": _("extra action now"),
    }
