"""Table state API: the rules state of the whole table (the Savage Worlds action deck and GM's
pool, the Tales battle record).

* ``GET  /api/campaigns/<id>/table-state/``: what the caller may see (members).
* ``POST /api/campaigns/<id>/table-moves/<key>/`` ``{params, version?}``: a table move; deck,
  session and battle control is the referee's, Tactics also a player's with their own sheet.
* ``POST /api/campaigns/<id>/table-state/choices/`` ``{character_id, pending_id, choice}``:
  answer a Savage Worlds benny choice (keep / reroll / reroll_pool ...) from the table.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from vtt.campaigns.models import Role
from vtt.characters.api import character_data
from vtt.core import serializers
from vtt.core.errors import Invalid
from vtt.core.ratelimit import TokenBucket
from vtt.permissions import Action, authorize, authorize_character
from vtt.tablestate import selectors, services

TABLE_MOVE_BUCKET = TokenBucket("table_move", burst=20, per_second=4)


class TableMoveRequest(serializers.Serializer):
    params = serializers.DictField(required=False, default=dict)
    version = serializers.IntegerField(
        required=False, allow_null=True, help_text="The version you saw; stale → 409."
    )


class TableChoiceRequest(serializers.Serializer):
    character_id = serializers.IntegerField()
    pending_id = serializers.IntegerField()
    choice = serializers.CharField(max_length=40)


def _valid(serializer_class, request: Request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _snapshot(membership, ts) -> dict:
    return selectors.snapshot_for(ts, user_id=membership.user_id, role=membership.role)


class TableStateView(APIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT, 404: OpenApiResponse()})
    def get(self, request: Request, pk: int) -> Response:
        """The table state as you may see it: the dealt cards and the turn order (never the
        draw pile), the GM's pool, and for your own sheets their bennies and open choices."""
        membership = authorize(request.user, pk, Action.VIEW)
        ts = services.get_or_create_state(membership.campaign)
        return Response(_snapshot(membership, ts))


class TableMoveView(APIView):
    @extend_schema(
        request=TableMoveRequest,
        responses={
            200: OpenApiTypes.OBJECT,
            400: OpenApiResponse(description="Refused by the rules, with fields"),
            403: OpenApiResponse(description="Referee only"),
            409: OpenApiResponse(description="Stale version"),
        },
    )
    def post(self, request: Request, pk: int, move: str) -> Response:
        """Make a table move; the server shuffles and deals. Savage Worlds: `start_session`,
        `end_session`, `start_combat`, `deal_round` (`participants`: `[{character_id} |
        {name, hidden}]`), `end_combat`, `adjust_pool` (`delta`). Tales: `surprise`
        (`unaware`), `tactics` (`character_id`, `bonus`), `initiative`, `next_side`,
        `reset_battle`."""
        membership = authorize(request.user, pk, Action.PLAY)
        data = _valid(TableMoveRequest, request)
        TABLE_MOVE_BUCKET.hit(str(request.user.pk))
        ts, outcome = services.table_move(
            campaign=membership.campaign,
            actor=request.user,
            role=membership.role,
            move=move,
            params=data["params"],
            version=data.get("version"),
        )
        body = _snapshot(membership, ts)
        body["outcome"] = None
        if outcome is not None:
            # Never the new state itself: for Savage Worlds it holds the draw pile's order.
            body["outcome"] = outcome.as_dict()
            body["outcome"].pop("state", None)
            if membership.role != Role.REFEREE:
                body["outcome"].pop("details", None)
        return Response(body)


class TableChoiceView(APIView):
    @extend_schema(request=TableChoiceRequest, responses={200: OpenApiTypes.OBJECT})
    def post(self, request: Request, pk: int) -> Response:
        """Keep the roll, or spend a benny (your own, or the GM's pool for an NPC) on a
        re-roll or a soak roll. The sheet's owner or the referee chooses."""
        membership = authorize(request.user, pk, Action.PLAY)
        data = _valid(TableChoiceRequest, request)
        character, _member = authorize_character(request.user, data["character_id"])
        if character.campaign_id != membership.campaign_id:
            raise Invalid(_("No such character in this campaign."), code="no_character")
        TABLE_MOVE_BUCKET.hit(str(request.user.pk))
        outcome, follow, ts = services.benny_choice(
            campaign=membership.campaign,
            actor=request.user,
            role=membership.role,
            character=character,
            pending_id=data["pending_id"],
            choice=data["choice"],
        )
        body = _snapshot(membership, ts)
        body["outcome"] = outcome.as_dict()
        body["pending_id"] = follow.pk if follow else None
        body["character"] = character_data(character, membership)
        return Response(body, status=status.HTTP_200_OK)
