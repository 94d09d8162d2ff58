"""The Crows part of the map panel: the rules' terms for static/js/crows_panel.js and the
travel day and combat as a member may see them."""

from __future__ import annotations

from typing import Any

from systems.crows.sheet import QUARRY_MAX, READY_TEXT_MAX
from systems.crows.terms import COSTS, PACES, RIVER, ROLES, SIDES, TASKS
from vtt.campaigns.models import Membership, Role
from vtt.maps import selectors
from vtt.maps.models import Map
from vtt.rulesets.crows import battle, travel


def crows_config(membership: Membership, m: Map | None) -> dict[str, Any]:
    """What static/js/crows_panel.js needs: the rules' terms (Russian and English names from
    the rulebook) and the travel day and combat as this member may see them, with the log head
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
        "limits": {"quarry": QUARRY_MAX, "readyText": READY_TEXT_MAX},
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
    }
