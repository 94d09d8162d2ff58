"""``{% map_panel %}``: the table page's map panel, rendered with the page (one request)."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string

from vtt.maps import selectors
from vtt.maps.views import panel_context

register = template.Library()


@register.simple_tag(takes_context=True)
def map_panel(context) -> str:
    request = context["request"]
    membership = context["membership"]
    m = selectors.active_map(membership.campaign_id)
    return render_to_string("maps/_panel.html", panel_context(request, membership, m), request)
