"""The character sheet's actions at the table as commands (vtt/core/commands.py): a move from
the sheet, the choice it waits for, a party move, the sheet edit and its revert. The API views
in ``api.py`` and the table socket both run these.

Character routes carry no campaign in their path: on the socket, a sheet of another campaign
than the socket's is refused as not found (``Call.in_campaign``) after the usual
``authorize_character``. Creating, importing, deleting and exporting a sheet are not table
play and stay plain API views."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import status

from vtt.campaigns.models import Role
from vtt.characters import services
from vtt.characters.models import Character, PendingMove
from vtt.characters.presenters import character_data, outcome_for
from vtt.core import serializers
from vtt.core.commands import Answer, Call, command
from vtt.core.errors import Invalid
from vtt.core.ratelimit import TokenBucket
from vtt.permissions import Action, authorize, authorize_character

MOVE_BUCKET = TokenBucket("move", burst=10, per_second=2)


class UpdateRequest(serializers.Serializer):
    state = serializers.DictField()
    version = serializers.IntegerField(help_text="The version you read; stale → 409.")
    hidden = serializers.BooleanField(required=False)


class RevertRequest(serializers.Serializer):
    version = serializers.IntegerField(min_value=1)


class MoveRequest(serializers.Serializer):
    params = serializers.DictField(required=False, default=dict)
    target_id = serializers.IntegerField(
        required=False, allow_null=True, help_text="A sheet (usually an NPC) the move acts on."
    )


class ChoiceRequest(serializers.Serializer):
    choices = serializers.ListField(child=serializers.CharField(max_length=60), max_length=10)


class PartyMoveRequest(serializers.Serializer):
    character_ids = serializers.ListField(
        child=serializers.IntegerField(),
        max_length=services.MAX_PARTY,
        help_text="Every sheet the move acts on (the whole camp, every traveller).",
    )
    params = serializers.DictField(
        required=False,
        default=dict,
        help_text="The party move's parameters; a sheet is named by its id "
        '(`{"watcher": 12}`, `{"roles": {"scout": 12, "trailblazer": 14}}`).',
    )


def _sheet(call: Call, *, write: bool = False) -> tuple[Character, Any]:
    """The sheet named by ``cid`` and the caller's membership; on the socket, only a sheet of
    the socket's campaign (another campaign's is not found there)."""
    character, membership = authorize_character(call.user, call.args["cid"], write=write)
    call.in_campaign(character.campaign_id)
    return character, membership


@command("character.update", args={"cid": int})
def character_update(call: Call) -> Answer:
    """Save the sheet as edited; a stale ``version`` is a 409 carrying the current one."""
    character, membership = _sheet(call, write=True)
    data = call.valid(UpdateRequest)
    if data.get("hidden") is not None and membership.role != Role.REFEREE:
        raise Invalid("Only the referee hides NPCs.", code="hidden_referee_only")
    character = services.character_update(
        character=character,
        actor=call.user,
        state=data["state"],
        version=data["version"],
        hidden=data.get("hidden"),
    )
    return Answer(character_data(character, membership))


@command("character.revert", args={"cid": int})
def character_revert(call: Call) -> Answer:
    """Restore the sheet as it was at a version (recorded as a new version)."""
    character, membership = _sheet(call, write=True)
    data = call.valid(RevertRequest)
    character = services.character_revert(
        character=character, actor=call.user, to_version=data["version"]
    )
    return Answer(character_data(character, membership))


@command("character.move", args={"cid": int, "move": str})
def character_move(call: Call) -> Answer:
    """Make a move from the sheet; the server rolls. Choices to make come back as
    ``outcome.options``/``pick`` with a ``pending_id`` for ``character.choice``."""
    character, membership = _sheet(call, write=True)
    data = call.valid(MoveRequest)
    MOVE_BUCKET.hit(str(call.user.pk))
    target_id = data.get("target_id")
    if target_id is not None:
        authorize_character(call.user, target_id)  # the target must be visible too
    outcome, follow = services.move_make(
        character=character,
        actor=call.user,
        move=call.args["move"],
        params=data["params"],
        target_id=target_id,
    )
    character.refresh_from_db()
    target = Character.objects.filter(pk=target_id).first() if target_id else None
    return Answer(
        {
            "outcome": outcome_for(outcome, membership, target, pending=follow),
            "pending_id": follow.pk if follow else None,
            "character": character_data(character, membership),
        },
        status.HTTP_201_CREATED,
    )


@command("character.choice", args={"cid": int, "pending_id": int})
def character_choice(call: Call) -> Answer:
    """Make the choice a move is waiting for (the player or the referee, as it says)."""
    character, membership = _sheet(call)
    if membership.role == Role.OBSERVER:
        raise PermissionDenied(_("Observers make no choices."))
    # answered from the mover's sheet, or (a reaction) from the target's own sheet
    pending = PendingMove.objects.filter(
        Q(character=character) | Q(target=character, chooser=services.TARGET_CHOOSER),
        pk=call.args["pending_id"],
    ).first()
    if pending is None:
        raise Http404
    # who answers comes before the answer is read: another player gets a 403, not a 400
    services.choice_authorize(pending=pending, actor=call.user, role=membership.role)
    data = call.valid(ChoiceRequest)
    outcome, follow = services.move_choose(
        pending=pending, actor=call.user, role=membership.role, choices=data["choices"]
    )
    character.refresh_from_db()
    target = Character.objects.filter(pk=pending.target_id).first()
    mover = Character.objects.filter(pk=pending.character_id).first()
    return Answer(
        {
            "outcome": outcome_for(outcome, membership, target, mover, pending=follow),
            "pending_id": follow.pk if follow else None,
            "character": character_data(character, membership),
        }
    )


@command("party.move", args={"move": str})
def party_move(call: Call) -> Answer:
    """A move that acts on the party (Dungeon World: ``take_watch``, ``perilous_journey``); the
    server rolls and every sheet it changes is saved and published at once."""
    membership = authorize(call.user, call.campaign_id, Action.PLAY)
    # who may name whom comes before the body is checked: another player's character
    # named to roll is a 403 whatever else the body says
    body = call.params if isinstance(call.params, dict) else {}
    services.party_move_authorize(
        campaign=membership.campaign,
        actor=call.user,
        role=membership.role,
        move=call.args["move"],
        params=body.get("params"),
    )
    data = call.valid(PartyMoveRequest)
    MOVE_BUCKET.hit(str(call.user.pk))
    result = services.party_move_make(
        campaign=membership.campaign,
        actor=call.user,
        role=membership.role,
        move=call.args["move"],
        character_ids=data["character_ids"],
        params=data["params"],
    )
    return Answer(result, status.HTTP_201_CREATED)
