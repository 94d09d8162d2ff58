"""Sheets, their history, and moves at the table (`POST /api/characters/<id>/moves/<key>/`)."""

from __future__ import annotations

from django.db.models import Q
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from systems import RULESET_KEYS, get_ruleset
from vtt.campaigns import services as campaign_services
from vtt.campaigns.models import Role
from vtt.characters import commands, services
from vtt.characters.commands import (  # the commands' shapes, for the schema
    ChoiceRequest,
    MoveRequest,
    PartyMoveRequest,
    RevertRequest,
    UpdateRequest,
)
from vtt.characters.models import Character, CharacterChange, Kind, PendingMove
from vtt.characters.presenters import character_data, outcome_for  # noqa: F401  (re-exported)
from vtt.characters.visibility import can_see_full
from vtt.core import jsonsafe, serializers
from vtt.core.api import OBJECT_LIST
from vtt.core.commands import respond
from vtt.core.errors import Invalid
from vtt.permissions import Action, authorize, authorize_character


class CharacterSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    campaign_id = serializers.IntegerField()
    ruleset = serializers.CharField()
    name = serializers.CharField()
    kind = serializers.CharField()
    owner_id = serializers.IntegerField(allow_null=True)
    hidden = serializers.BooleanField()
    version = serializers.IntegerField()
    full = serializers.BooleanField(help_text="False: only the public part of the sheet.")
    state = serializers.DictField()
    updated_at = serializers.DateTimeField()


class CreateRequest(serializers.Serializer):
    name = serializers.CharField(max_length=services.NAME_MAX)
    kind = serializers.ChoiceField(choices=Kind.choices, default=Kind.PC)
    state = serializers.DictField(required=False)
    owner_id = serializers.IntegerField(required=False, allow_null=True)
    hidden = serializers.BooleanField(required=False, default=False)


class MoveResponse(serializers.Serializer):
    outcome = serializers.DictField()
    pending_id = serializers.IntegerField(allow_null=True)
    character = CharacterSerializer()


class CampaignCharacters(APIView):
    @extend_schema(responses=CharacterSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        membership = authorize(request.user, pk, Action.VIEW)
        qs = Character.objects.filter(campaign_id=pk)
        if membership.role != Role.REFEREE:
            qs = qs.filter(hidden=False)
        return Response([character_data(c, membership) for c in qs])

    @extend_schema(request=CreateRequest, responses={201: CharacterSerializer})
    def post(self, request: Request, pk: int) -> Response:
        """Players create their own characters; the referee creates NPCs (and PCs for others)."""
        membership = authorize(request.user, pk, Action.PLAY)
        data = _valid(CreateRequest, request)
        character = services.character_create(
            campaign=membership.campaign, actor=request.user, role=membership.role, **data
        )
        return Response(character_data(character, membership), status=status.HTTP_201_CREATED)


class CharacterImport(APIView):
    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: CharacterSerializer})
    def post(self, request: Request, pk: int) -> Response:
        """Import a file made by `GET /api/characters/<id>/export/`."""
        membership = authorize(request.user, pk, Action.PLAY)
        character = services.character_import(
            campaign=membership.campaign,
            actor=request.user,
            role=membership.role,
            data=request.data,
        )
        return Response(character_data(character, membership), status=status.HTTP_201_CREATED)


class CharacterDetail(APIView):
    @extend_schema(responses=CharacterSerializer)
    def get(self, request: Request, cid: int) -> Response:
        character, membership = authorize_character(request.user, cid)
        return Response(character_data(character, membership))

    @extend_schema(
        request=UpdateRequest,
        responses={
            200: CharacterSerializer,
            409: OpenApiResponse(description="Stale version; carries `version` and `state`"),
        },
    )
    def put(self, request: Request, cid: int) -> Response:
        return respond(request, commands.character_update, cid=cid)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, cid: int) -> Response:
        character, _membership = authorize_character(request.user, cid, write=True)
        services.character_delete(character=character, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class CharacterHistory(APIView):
    @extend_schema(responses=OBJECT_LIST)
    def get(self, request: Request, cid: int) -> Response:
        """Every saved version: who, when, why, which fields from what to what."""
        character, membership = authorize_character(request.user, cid)
        if not can_see_full(character, user_id=request.user.pk, role=membership.role):
            raise Http404
        changes = CharacterChange.objects.filter(character=character).select_related("actor")
        return Response(
            [
                {
                    "version": c.version,
                    "actor": c.actor.display_name if c.actor else None,
                    "reason": c.reason,
                    "diff": c.diff,
                    "created_at": c.created_at,
                }
                for c in changes[:500]
            ]
        )


class CharacterRevert(APIView):
    @extend_schema(request=RevertRequest, responses=CharacterSerializer)
    def post(self, request: Request, cid: int) -> Response:
        """Restore the sheet as it was at a version (recorded as a new version)."""
        return respond(request, commands.character_revert, cid=cid)


class CharacterExport(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, cid: int) -> Response:
        character, membership = authorize_character(request.user, cid)
        if not can_see_full(character, user_id=request.user.pk, role=membership.role):
            raise Http404
        response = Response(services.character_export(character))
        response["Content-Disposition"] = f'attachment; filename="character-{character.pk}.json"'
        return response


class CharacterMove(APIView):
    @extend_schema(
        request=MoveRequest,
        responses={201: MoveResponse, 400: OpenApiResponse(description="Refused, with fields")},
    )
    def post(self, request: Request, cid: int, move: str) -> Response:
        """Make a move from the sheet; the server rolls. Choices to make come back as
        `outcome.options`/`pick` with a `pending_id` for the follow-up call."""
        return respond(request, commands.character_move, cid=cid, move=move)


class PartyMove(APIView):
    @extend_schema(
        request=PartyMoveRequest,
        responses={201: OpenApiTypes.OBJECT, 400: OpenApiResponse(description="Refused")},
    )
    def post(self, request: Request, pk: int, move: str) -> Response:
        """A move that acts on the party (Dungeon World: `take_watch`, `perilous_journey`,
        listed under `party_moves` in the ruleset's description); the server rolls and every
        sheet it changes is saved and published at once."""
        return respond(request, commands.party_move, pk=pk, move=move)


class CharacterMoveOdds(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("params", str, description="Move parameters as JSON")],
        responses=OpenApiTypes.OBJECT,
    )
    def get(self, request: Request, cid: int, move: str) -> Response:
        """Exact chance of each band for this sheet, before rolling."""
        character, _membership = authorize_character(request.user, cid, write=True)
        raw = request.query_params.get("params") or "{}"
        try:
            params = jsonsafe.loads(raw)
        except ValueError:
            message = _("The move parameters must be a JSON object.")
            raise Invalid(message, code="bad_params", fields={"params": [message]}) from None
        if not isinstance(params, dict):
            message = _("The move parameters must be a JSON object.")
            raise Invalid(message, code="bad_params", fields={"params": [message]})
        return Response(services.move_odds(character, move, params))


def _pending_for(character: Character):
    """Choices waiting on this sheet's moves, and reactions waiting for this sheet (a move
    that targeted it opened a counterattack for its player)."""
    return PendingMove.objects.select_related("character", "target").filter(
        Q(character=character) | Q(target=character, chooser=services.TARGET_CHOOSER),
        resolved_at__isnull=True,
    )


class PendingList(APIView):
    @extend_schema(responses=OBJECT_LIST)
    def get(self, request: Request, cid: int) -> Response:
        """What this sheet waits for: its moves' choices and the reactions its player may
        make (`reaction: true`); `mine` says whether the caller answers it."""
        character, membership = authorize_character(request.user, cid)
        referee = membership.role == Role.REFEREE
        rows = list(_pending_for(character))
        return Response(
            [
                {
                    "id": p.pk,
                    "move": p.move,
                    # a hidden creature's reaction prompt does not name the creature
                    "character_id": p.character_id if referee or not p.character.hidden else None,
                    "chooser": p.chooser,
                    "reaction": p.chooser == services.TARGET_CHOOSER,
                    "mine": services.may_choose(p, user_id=request.user.pk, role=membership.role),
                    "options": p.outcome.get("options", []),
                    "pick": p.outcome.get("pick", 0),
                    "text": p.outcome.get("text"),
                }
                for p in rows
            ]
        )


class PendingChoose(APIView):
    @extend_schema(request=ChoiceRequest, responses={200: MoveResponse})
    def post(self, request: Request, cid: int, pending_id: int) -> Response:
        """Make the choice a move is waiting for (the player or the referee, as it says)."""
        return respond(request, commands.character_choice, cid=cid, pending_id=pending_id)


class RulesetDescribe(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, key: str) -> Response:
        """Moves, their parameters, the sheet schema and settings, in Russian and English."""
        if key not in RULESET_KEYS:
            raise Http404
        return Response(get_ruleset(key).describe())


class CampaignRules(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, pk: int) -> Response:
        membership = authorize(request.user, pk, Action.VIEW)
        ruleset = get_ruleset(membership.campaign.ruleset)
        return Response(ruleset.clean_settings(membership.campaign.rules or None))

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def put(self, request: Request, pk: int) -> Response:
        """Change the campaign's rule options (referee only)."""
        membership = authorize(request.user, pk, Action.MANAGE)
        if not isinstance(request.data, dict):
            raise Invalid("Settings are a JSON object.", code="bad_settings")
        campaign = campaign_services.campaign_set_rules(
            campaign=membership.campaign, settings=dict(request.data)
        )
        return Response(campaign.rules)


def _valid(serializer_class, request: Request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
