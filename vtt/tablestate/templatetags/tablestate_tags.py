"""``{% tablestate_panel %}``: the table-state panel on the table page (the Savage Worlds action
deck, or the Tales battle record) with its initial snapshot and translated labels."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.translation import get_language

from systems import get_ruleset
from vtt.campaigns.models import Role
from vtt.tablestate import selectors, services

register = template.Library()


@register.inclusion_tag("tablestate/_panel.html", takes_context=True)
def tablestate_panel(context: dict[str, Any]) -> dict[str, Any]:
    campaign = context.get("campaign")
    membership = context.get("membership")
    request = context.get("request")
    if campaign is None or membership is None or not services.supported(campaign):
        return {"supported": False}
    ts = services.get_or_create_state(campaign)
    snapshot = selectors.snapshot_for(ts, user_id=request.user.pk, role=membership.role)
    is_referee = membership.role == Role.REFEREE
    can_play = bool(context.get("can_play"))
    config = {
        "campaign": campaign.pk,
        "ruleset": campaign.ruleset,
        "lang": "ru" if (get_language() or "ru").startswith("ru") else "en",
        "me": request.user.pk,
        "isReferee": is_referee,
        "canPlay": can_play,
        "snapshot": snapshot,
        "urls": {
            "state": reverse("api-table-state", args=[campaign.pk]),
            "move": reverse("api-table-move", args=[campaign.pk, "MOVE"]).replace(
                "/MOVE/", "/{move}/"
            ),
            "choice": reverse("api-table-choice", args=[campaign.pk]),
            "characterMove": reverse("api-character-move", args=[0, "MOVE"])
            .replace("/0/", "/{id}/")
            .replace("/MOVE/", "/{move}/"),
        },
    }
    if campaign.ruleset == services.TALES:
        config["phases"], config["sides"] = _tales_names()
        config["urls"]["wizard"] = reverse("tales_wizard", args=[campaign.pk])
    return {
        "supported": True,
        "ruleset": campaign.ruleset,
        "config": config,
        "is_referee": is_referee,
        "can_play": can_play,
        "campaign": campaign,
    }


def _tales_names() -> tuple[dict[str, dict[str, str]], dict[str, dict[str, str]]]:
    """Phase and side names as the ruleset gives them (Russian terms from the seed)."""
    described = get_ruleset("tales").describe()
    phases = described["battle"]["fields"]["phase"]["choices"]
    return (
        {c["key"]: {"ru": c["ru"], "en": c["en"]} for c in phases},
        {c["key"]: {"ru": c["ru"], "en": c["en"]} for c in described["sides"]},
    )
