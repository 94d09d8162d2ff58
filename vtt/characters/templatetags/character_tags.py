"""``{% moves_config campaign %}``: the URLs ``static/js/moves.js`` needs on the table page, as
a JSON script element (its text comes from the JavaScript catalogue)."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import json_script

register = template.Library()


@register.simple_tag
def moves_config(campaign) -> str:
    from vtt.characters.views import move_urls

    config = move_urls()
    config["list_url"] = reverse("api-characters", args=[campaign.pk])
    return json_script(config, "moves-config")


@register.inclusion_tag("characters/_party_panel.html", takes_context=True)
def party_panel(context) -> dict:
    """The party moves of the campaign's ruleset (Dungeon World: Take Watch, Perilous
    Journey) for those who may play: the sheets to name and the roles, in the page's language.
    Nothing for a ruleset without party moves.

    ``characters`` are the sheets a move may carry along (the camp): every one the viewer
    sees. ``actors`` are those the viewer may name to roll (on watch, in a role): the
    referee's are all of them, a player's only their own (as ``party_move_authorize``)."""
    from django.utils.translation import get_language

    from systems import get_ruleset
    from vtt.characters.models import Character, Kind
    from vtt.characters.services import _party_moves

    campaign, can_play = context["campaign"], context.get("can_play")
    moves = _party_moves(campaign.ruleset)
    if not moves or not can_play:
        return {"show": False}
    lang = "ru" if (get_language() or "ru").startswith("ru") else "en"
    pcs = Character.objects.filter(campaign=campaign, kind=Kind.PC).order_by("name", "pk")
    if not context.get("is_referee"):
        pcs = pcs.filter(hidden=False)
    roles = get_ruleset(campaign.ruleset).describe().get("party_roles", [])
    characters = [{"id": c.pk, "name": c.name, "owner_id": c.owner_id} for c in pcs]
    user = context.get("user")
    user_id = user.pk if user is not None else None
    return {
        "show": True,
        "campaign": campaign,
        "characters": characters,
        "actors": [c for c in characters if context.get("is_referee") or c["owner_id"] == user_id],
        "moves": {key: spec.get(lang, key) for key, spec in moves.items()},
        "roles": [{"key": r["key"], "name": r.get(lang, r["key"])} for r in roles],
        "csrf_token": context.get("csrf_token"),
    }
