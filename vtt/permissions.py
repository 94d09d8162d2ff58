"""Who may do what in a campaign. Every view, API endpoint and websocket consumer asks here.

Outsiders (and anonymous users) get 404 for a campaign they are not in, never 403, so a
campaign's existence does not leak. Members who lack the role get 403.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _

from vtt.campaigns.models import Campaign, Membership, Role
from vtt.core.errors import Conflict

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser


class Action(Enum):
    VIEW = "view"  # read the campaign, the table log, public sheets
    PLAY = "play"  # roll, move own tokens, edit own sheets
    MANAGE = "manage"  # rename, archive, invite, remove members, see referee-only data


ROLE_ACTIONS: dict[str, frozenset[Action]] = {
    Role.REFEREE: frozenset({Action.VIEW, Action.PLAY, Action.MANAGE}),
    Role.PLAYER: frozenset({Action.VIEW, Action.PLAY}),
    Role.OBSERVER: frozenset({Action.VIEW}),
}


def membership_for(
    user: AbstractBaseUser | AnonymousUser | None, campaign_id: int | str
) -> Membership | None:
    """The user's membership with its campaign, or None (anonymous, outsider, bad id)."""
    if user is None or not user.is_authenticated:
        return None
    try:
        campaign_id = int(campaign_id)
    except (TypeError, ValueError):
        return None
    if not 0 < campaign_id < 2**63:
        return None
    return _membership_row(campaign_id, user.pk)


def _membership_row(campaign_id: int, user_id: int) -> Membership | None:
    """Every request and socket asks this: the membership and its campaign in one query."""
    return (
        Membership.objects.select_related("campaign")
        .filter(campaign_id=campaign_id, user_id=user_id)
        .first()
    )


def can(membership: Membership | None, action: Action) -> bool:
    return membership is not None and action in ROLE_ACTIONS.get(membership.role, frozenset())


def authorize(
    user: AbstractBaseUser | AnonymousUser | None,
    campaign_id: int | str,
    action: Action = Action.VIEW,
    *,
    allow_archived: bool | None = None,
) -> Membership:
    """Return the membership if ``user`` may do ``action``; raise 404 / 403 / 409 otherwise.

    Writes (PLAY, MANAGE) on an archived campaign are refused with 409 unless
    ``allow_archived`` (unarchiving is the one write an archived campaign accepts).
    """
    membership = membership_for(user, campaign_id)
    if membership is None:
        raise Http404(_("Campaign not found."))
    if not can(membership, action):
        raise PermissionDenied(_("Your role in this campaign does not allow this."))
    if allow_archived is None:
        allow_archived = action is Action.VIEW
    if membership.campaign.is_archived and not allow_archived:
        raise Conflict(
            _("The campaign is archived: restore it from the archive first."),
            code="campaign_archived",
        )
    return membership


def is_referee(membership: Membership | None) -> bool:
    return membership is not None and membership.role == Role.REFEREE


def visible_campaigns(user: AbstractBaseUser | AnonymousUser | None):
    """Campaigns the user belongs to (the only ones that exist for them)."""
    if user is None or not user.is_authenticated:
        return Campaign.objects.none()
    return Campaign.objects.filter(memberships__user_id=user.pk)


def authorize_character(
    user: AbstractBaseUser | AnonymousUser | None, character_id: int | str, *, write: bool = False
):
    """A sheet and the caller's membership. Sheets of other campaigns and hidden NPCs (for
    anyone but the referee) do not exist (404); editing others' sheets is 403."""
    from vtt.characters.selectors import character_row
    from vtt.characters.visibility import can_edit

    try:
        character_id = int(character_id)
    except (TypeError, ValueError):
        raise Http404(_("Character not found.")) from None
    character = character_row(character_id)
    membership = membership_for(user, character.campaign_id) if character else None
    if membership is None or (character.hidden and membership.role != Role.REFEREE):
        raise Http404(_("Character not found."))
    # the membership's campaign is the sheet's: no second read (select_related's cache)
    character._state.fields_cache["campaign"] = membership.campaign
    if write:
        if not can_edit(character, user_id=user.pk, role=membership.role):
            raise PermissionDenied(_("You may change only your own characters."))
        if membership.campaign.is_archived:
            raise Conflict(
                _("The campaign is archived: restore it first."), code="campaign_archived"
            )
    return character, membership
