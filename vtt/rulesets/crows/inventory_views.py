"""The Crows inventory slot board (issue 5): `/characters/<id>/inventory/`.

The page is a thin shell: it authorises like the sheet API, then hands the sheet and the slot
layout to ``static/js/inventory.js``. Every drop on the board is a character action
(`POST /api/characters/<id>/moves/<action>/`: place_item, move_item, retrieve, …), so the
rules in ``systems/crows/inventory.py`` decide; a refused drop is the API's 400 and changes
nothing. Other browsers on the same board follow `character.updated` over the table socket.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from systems import get_ruleset
from systems.crows import inventory as slot_rules
from systems.crows.terms import MAGIC_SLOT_KEYS
from vtt.campaigns.models import Role
from vtt.characters.api import character_data
from vtt.characters.visibility import can_edit, can_see_full
from vtt.permissions import Action, authorize_character, can
from vtt.table.models import EventCursor

RULESET = "crows"
# Copies one "Add an item" places at once: the page sends one place_item per copy.
ADD_COPIES_MAX = 10


@login_required
@require_GET
def inventory_page(request: HttpRequest, cid: int) -> HttpResponse:
    """Owner and referee edit; anyone else who may see the full sheet reads; the rest get the
    API's answer (404: a sheet they may not read in full does not exist for them)."""
    character, membership = authorize_character(request.user, cid)
    if character.ruleset != RULESET:
        raise Http404(_("This board is for Crows characters."))
    if not can_see_full(character, user_id=request.user.pk, role=membership.role):
        raise Http404(_("Character not found."))
    campaign = membership.campaign
    editable = (
        can_edit(character, user_id=request.user.pk, role=membership.role)
        and can(membership, Action.PLAY)
        and not campaign.is_archived
    )
    cursor = EventCursor.objects.filter(campaign_id=campaign.pk).first()
    config = {
        "character": character_data(character, membership),
        "editable": editable,
        "isReferee": membership.role == Role.REFEREE,
        "head": cursor.last_seq if cursor else 0,
        "lang": get_language() or "ru",
        "csrf": get_token(request),
        "settings": get_ruleset(RULESET).clean_settings(campaign.rules or None),
        "areas": [
            {"key": key, "slots": slot_rules.AREA_SIZE[key], "columns": cols}
            for key, cols in area_layout()
        ],
        "magicSlots": list(MAGIC_SLOT_KEYS),
        "urls": {
            "character": reverse("api-character", args=[character.pk]),
            "move": reverse("api-character-move", args=[character.pk, "MOVE"]),
            "ws": f"/ws/campaigns/{campaign.pk}/",
        },
    }
    context: dict[str, Any] = {
        "character": character,
        "campaign": campaign,
        "membership": membership,
        "editable": editable,
        "config": config,
    }
    return render(request, "crows/inventory.html", context)


def area_layout() -> list[tuple[str, int]]:
    """Areas in the rulebook's order and the columns each is drawn in: the backpack in two rows
    of five, as the rulebook lays cards out without a sheet (their names: inventory.js)."""
    return [(slot_rules.HANDS, 2), (slot_rules.BELT, 4), (slot_rules.BACKPACK, 5)]
