"""``{% tablestate_panel %}``: the campaign-wide rules state's panel on the table page (the
ruleset's plugin names it in ``table_panels``) with its initial snapshot and translated labels;
the plugin's ``RulesState`` gives the title and extra configuration."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.translation import get_language

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
    declared = services.hooks(campaign.ruleset)
    extra = declared.panel_config(campaign) if declared.panel_config else {}
    config["urls"].update(extra.pop("urls", {}))
    config.update(extra)
    return {
        "supported": True,
        "ruleset": campaign.ruleset,
        "title": declared.panel_title,
        "wizard_url": config["urls"].get("wizard"),
        "config": config,
        "is_referee": is_referee,
        "can_play": can_play,
        "campaign": campaign,
    }
