"""``{% moves_config campaign %}``: the labels and URLs ``static/js/moves.js`` needs on the
table page, as a JSON script element (translated here: there is no JavaScript catalogue)."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import json_script

register = template.Library()


@register.simple_tag
def moves_config(campaign) -> str:
    from vtt.characters.views import move_labels

    config = move_labels()
    config["list_url"] = reverse("api-characters", args=[campaign.pk])
    return json_script(config, "moves-config")
