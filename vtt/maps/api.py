"""Maps over REST: `/api/campaigns/<id>/maps/...`. Reads are filtered by ``selectors`` (players
see only the active map and what is revealed on it). The table-play writes are commands
(``commands.py``), run alike here and on the table socket; map preparation (create, settings,
delete, background and token images) writes through ``services`` here only.

Roles: the referee does everything; players move their own characters' tokens; observers read.
Outsiders get 404 for everything (``authorize``).
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from vtt.core import serializers
from vtt.core.api import OBJECT_LIST
from vtt.core.commands import respond
from vtt.core.jsonsafe import FormParser, MultiPartParser
from vtt.maps import commands, selectors, services, uploads
from vtt.maps.commands import (  # the commands' shapes, for the schema
    MapActivateRequest,
    MapFeaturesRequest,
    MapFogRequest,
    MapNoteRequest,
    MapPartyRequest,
    MapTerrainRequest,
    MapTokenMoveRequest,
    MapTokenRequest,
    given,
    state,
    visible_token,
)
from vtt.maps.models import MAX_SIDE, DistanceUnit, GridKind, HexOrientation, Light, Metric
from vtt.permissions import Action, authorize


class MapSettingsRequest(serializers.Serializer):
    name = serializers.CharField(max_length=services.NAME_MAX, required=False)
    kind = serializers.ChoiceField(choices=GridKind.choices, required=False)
    orientation = serializers.ChoiceField(choices=HexOrientation.choices, required=False)
    metric = serializers.ChoiceField(choices=Metric.choices, required=False)
    width = serializers.IntegerField(required=False, help_text=f"1–{MAX_SIDE} cells")
    height = serializers.IntegerField(required=False, help_text=f"1–{MAX_SIDE} cells")
    cell_px = serializers.IntegerField(
        required=False, help_text="{}–{} px".format(*services.CELL_PX)
    )
    cell_distance = serializers.DecimalField(max_digits=8, decimal_places=2, required=False)
    distance_unit = serializers.ChoiceField(choices=DistanceUnit.choices, required=False)
    fogged = serializers.BooleanField(required=False, help_text="Cells start hidden")
    ambient_light = serializers.ChoiceField(
        choices=Light.choices, required=False, help_text="Light where nothing else is painted"
    )


class Maps(APIView):
    @extend_schema(responses=OBJECT_LIST, operation_id="campaigns_maps_list")
    def get(self, request: Request, pk: int) -> Response:
        """The maps this member may see: all for the referee, the active one for others."""
        membership = authorize(request.user, pk, Action.VIEW)
        return Response([selectors.map_summary(m) for m in selectors.maps_for(membership)])

    @extend_schema(request=MapSettingsRequest, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, pk: int) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE)
        data = given(MapSettingsRequest, request.data)
        m = services.map_create(campaign=membership.campaign, actor=request.user, **data)
        return Response(state(m, membership), status=status.HTTP_201_CREATED)


class MapDetail(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT, operation_id="campaigns_maps_detail")
    def get(self, request: Request, pk: int, map_id: int) -> Response:
        """Everything to draw the map, filtered for the caller (`head` = the event sequence
        number the state is at least as new as)."""
        membership = authorize(request.user, pk, Action.VIEW)
        return Response(state(selectors.map_for(membership, map_id), membership))

    @extend_schema(request=MapSettingsRequest, responses=OpenApiTypes.OBJECT)
    def patch(self, request: Request, pk: int, map_id: int) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE)
        m = selectors.map_for(membership, map_id)
        m = services.map_update(
            map=m, actor=request.user, **given(MapSettingsRequest, request.data)
        )
        return Response(state(m, membership))

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, map_id: int) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE)
        services.map_delete(map=selectors.map_for(membership, map_id), actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MapActivate(APIView):
    @extend_schema(request=MapActivateRequest, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request, pk: int, map_id: int) -> Response:
        """Put the map on the table (`active: true`) or take it off (`false`)."""
        return respond(request, commands.map_activate, pk=pk, map_id=map_id)


class MapBackground(APIView):
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        request={"multipart/form-data": {"type": "object", "properties": {"image": {}}}},
        responses={
            200: OpenApiTypes.OBJECT,
            400: OpenApiResponse(description="Not a PNG, JPEG or WebP image, or damaged"),
            413: OpenApiResponse(description="Over 20 MB or 100 megapixels (a bomb)"),
        },
    )
    def put(self, request: Request, pk: int, map_id: int) -> Response:
        """Upload the background (multipart field `image`). POST works too."""
        membership = authorize(request.user, pk, Action.MANAGE)
        m = selectors.map_for(membership, map_id)
        handler = uploads.guard(request._request)
        upload = request.data.get("image") if hasattr(request.data, "get") else None
        uploads.check(handler)
        m = services.background_set(map=m, actor=request.user, upload=upload)
        return Response(state(m, membership))

    post = put

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT})
    def delete(self, request: Request, pk: int, map_id: int) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE)
        m = services.background_clear(map=selectors.map_for(membership, map_id), actor=request.user)
        return Response(state(m, membership))


class MapFog(APIView):
    @extend_schema(request=MapFogRequest, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request, pk: int, map_id: int) -> Response:
        """Reveal or hide `cells` (a brush stroke), a `rect` [c0, r0, c1, r1], or `all`."""
        return respond(request, commands.map_fog, pk=pk, map_id=map_id)


class Tokens(APIView):
    @extend_schema(responses=OBJECT_LIST, operation_id="campaigns_maps_tokens_list")
    def get(self, request: Request, pk: int, map_id: int) -> Response:
        membership = authorize(request.user, pk, Action.VIEW)
        m = selectors.map_for(membership, map_id)
        return Response(state(m, membership)["tokens"])

    @extend_schema(request=MapTokenRequest, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, pk: int, map_id: int) -> Response:
        return respond(request, commands.token_add, pk=pk, map_id=map_id)


class TokenDetail(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT, operation_id="campaigns_maps_tokens_detail")
    def get(self, request: Request, pk: int, map_id: int, token_id: int) -> Response:
        membership = authorize(request.user, pk, Action.VIEW)
        m = selectors.map_for(membership, map_id)
        token = visible_token(membership, m, token_id)
        return Response(selectors.token_data(token, m, referee=selectors.is_referee(membership)))

    @extend_schema(request=MapTokenRequest, responses=OpenApiTypes.OBJECT)
    def patch(self, request: Request, pk: int, map_id: int, token_id: int) -> Response:
        return respond(request, commands.token_update, pk=pk, map_id=map_id, token_id=token_id)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, map_id: int, token_id: int) -> Response:
        return respond(request, commands.token_delete, pk=pk, map_id=map_id, token_id=token_id)


class TokenMove(APIView):
    @extend_schema(
        request=MapTokenMoveRequest,
        responses={
            200: OpenApiTypes.OBJECT,
            400: OpenApiResponse(description="Outside the map, or (players) onto fog"),
            403: OpenApiResponse(description="Not your character's token"),
            409: OpenApiResponse(description="Crows combat: not its turn, or too far"),
        },
    )
    def post(self, request: Request, pk: int, map_id: int, token_id: int) -> Response:
        """Move to a cell (the anchor: top-left on squares, centre on hexes). The distance by
        the map's rule is added to the token's movement this round. In a Crows combat the move
        spends the Move maneuver's squares (`path`: the squares entered; difficult ground,
        water and enemies' spaces cost one more); a player's token moves only on its turn."""
        return respond(request, commands.token_move, pk=pk, map_id=map_id, token_id=token_id)


class TokenImage(APIView):
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        request={"multipart/form-data": {"type": "object", "properties": {"image": {}}}},
        responses={200: OpenApiTypes.OBJECT, 400: OpenApiResponse(), 413: OpenApiResponse()},
    )
    def put(self, request: Request, pk: int, map_id: int, token_id: int) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE)
        m = selectors.map_for(membership, map_id)
        visible_token(membership, m, token_id)
        handler = uploads.guard(request._request)
        upload = request.data.get("image") if hasattr(request.data, "get") else None
        uploads.check(handler)
        token = services.token_image_set(
            map=m, actor=request.user, token_id=token_id, upload=upload
        )
        return Response(selectors.token_data(token, m, referee=True))

    post = put

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT})
    def delete(self, request: Request, pk: int, map_id: int, token_id: int) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE)
        m = selectors.map_for(membership, map_id)
        visible_token(membership, m, token_id)
        token = services.token_image_clear(map=m, actor=request.user, token_id=token_id)
        return Response(selectors.token_data(token, m, referee=True))


class MapRound(APIView):
    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request, pk: int, map_id: int) -> Response:
        """A new round: every token's movement is reset to its full speed."""
        return respond(request, commands.map_round, pk=pk, map_id=map_id)


class Notes(APIView):
    @extend_schema(responses=OBJECT_LIST, operation_id="campaigns_maps_notes_list")
    def get(self, request: Request, pk: int, map_id: int) -> Response:
        membership = authorize(request.user, pk, Action.VIEW)
        m = selectors.map_for(membership, map_id)
        return Response(state(m, membership)["notes"])

    @extend_schema(request=MapNoteRequest, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, pk: int, map_id: int) -> Response:
        return respond(request, commands.note_add, pk=pk, map_id=map_id)


class NoteDetail(APIView):
    @extend_schema(request=MapNoteRequest, responses=OpenApiTypes.OBJECT)
    def patch(self, request: Request, pk: int, map_id: int, note_id: int) -> Response:
        return respond(request, commands.note_update, pk=pk, map_id=map_id, note_id=note_id)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, map_id: int, note_id: int) -> Response:
        return respond(request, commands.note_delete, pk=pk, map_id=map_id, note_id=note_id)


class MapTerrain(APIView):
    @extend_schema(request=MapTerrainRequest, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request, pk: int, map_id: int) -> Response:
        """Paint terrain on cells (`terrain: ""` clears it)."""
        return respond(request, commands.map_terrain, pk=pk, map_id=map_id)


class MapParty(APIView):
    @extend_schema(request=MapPartyRequest, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request, pk: int, map_id: int) -> Response:
        """Set the party's shown position (`shown`, what players see), its true position
        (`true`, the referee's secret), either `null` to clear; `reveal` = steps around the
        shown position that the party has seen (null: none)."""
        return respond(request, commands.map_party, pk=pk, map_id=map_id)


class MapFeatures(APIView):
    @extend_schema(request=MapFeaturesRequest, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request, pk: int, map_id: int) -> Response:
        """Paint battle features on square cells: `cover` (`wall` blocks line of effect,
        `low` gives cover), `height` in squares (high ground), `light` and `concealment`.
        An empty value (height 0) clears that feature."""
        return respond(request, commands.map_features, pk=pk, map_id=map_id)
