"""Maps over REST: `/api/campaigns/<id>/maps/...`. Reads are filtered by ``selectors`` (players
see only the active map and what is revealed on it); writes call ``services``.

Roles: the referee does everything; players move their own characters' tokens; observers read.
Outsiders get 404 for everything (``authorize``).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from systems.crows import travel as travel_rules
from vtt.characters.api import outcome_for
from vtt.characters.models import Character
from vtt.core import serializers
from vtt.core.api import OBJECT_LIST
from vtt.core.errors import Invalid
from vtt.core.jsonsafe import FormParser, MultiPartParser
from vtt.core.ratelimit import TokenBucket
from vtt.maps import battle, combat, selectors, services, travel, uploads
from vtt.maps.fog import Fog
from vtt.maps.models import DistanceUnit, GridKind, HexOrientation, Light, Map, Metric, Token
from vtt.permissions import Action, authorize

ATTACK_BUCKET = TokenBucket("move", burst=10, per_second=2)  # shared with sheet moves


def cell() -> serializers.ListField:
    """A square, [column, row]. Lists of squares are capped by the largest map's squares (or
    the longest path) before any square is read."""
    return serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)


class MapSettingsRequest(serializers.Serializer):
    name = serializers.CharField(max_length=100, required=False)
    kind = serializers.ChoiceField(choices=GridKind.choices, required=False)
    orientation = serializers.ChoiceField(choices=HexOrientation.choices, required=False)
    metric = serializers.ChoiceField(choices=Metric.choices, required=False)
    width = serializers.IntegerField(required=False, help_text="1–200 cells")
    height = serializers.IntegerField(required=False, help_text="1–200 cells")
    cell_px = serializers.IntegerField(required=False, help_text="16–256 px")
    cell_distance = serializers.DecimalField(max_digits=8, decimal_places=2, required=False)
    distance_unit = serializers.ChoiceField(choices=DistanceUnit.choices, required=False)
    fogged = serializers.BooleanField(required=False, help_text="Cells start hidden")
    ambient_light = serializers.ChoiceField(
        choices=Light.choices, required=False, help_text="Light where nothing else is painted"
    )


class MapActivateRequest(serializers.Serializer):
    active = serializers.BooleanField(default=True)


class MapFogRequest(serializers.Serializer):
    mode = serializers.ChoiceField(choices=["reveal", "hide"])
    cells = serializers.ListField(
        child=cell(), max_length=services.MAX_CELLS_PER_REQUEST, required=False
    )
    rect = serializers.ListField(
        child=serializers.IntegerField(), min_length=4, max_length=4, required=False
    )
    all = serializers.BooleanField(required=False, default=False)


class MapTokenRequest(serializers.Serializer):
    name = serializers.CharField(max_length=60, required=False)
    color = serializers.CharField(max_length=7, required=False)
    size = serializers.CharField(max_length=16, required=False)
    character_id = serializers.IntegerField(required=False, allow_null=True)
    hidden = serializers.BooleanField(required=False, allow_null=True, default=None)
    col = serializers.IntegerField(required=False)
    row = serializers.IntegerField(required=False)
    speed = serializers.IntegerField(required=False, allow_null=True)
    moved = serializers.IntegerField(required=False)


class MapTokenMoveRequest(serializers.Serializer):
    col = serializers.IntegerField()
    row = serializers.IntegerField()
    path = serializers.ListField(
        child=cell(),
        required=False,
        max_length=battle.MAX_PATH,
        help_text="Crows combat: the squares entered, [[col, row], …], ending on col, row",
    )


class MapNoteRequest(serializers.Serializer):
    col = serializers.IntegerField(required=False)
    row = serializers.IntegerField(required=False)
    text = serializers.CharField(max_length=2000, required=False, allow_blank=True)
    secret = serializers.BooleanField(required=False, allow_null=True, default=None)


class MapTerrainRequest(serializers.Serializer):
    terrain = serializers.CharField(allow_blank=True, help_text="A terrain key; empty clears")
    cells = serializers.ListField(child=cell(), max_length=services.MAX_CELLS_PER_REQUEST)


class MapFeaturesRequest(serializers.Serializer):
    cells = serializers.ListField(child=cell(), max_length=services.MAX_CELLS_PER_REQUEST)
    cover = serializers.CharField(required=False, allow_blank=True, help_text="wall, low or ''")
    height = serializers.IntegerField(required=False, help_text="Squares above the floor")
    light = serializers.CharField(required=False, allow_blank=True, help_text="bright, dim, dark")
    concealment = serializers.CharField(
        required=False, allow_blank=True, help_text="light, heavy or ''"
    )
    ground = serializers.CharField(
        required=False, allow_blank=True, help_text="difficult, water or '' (a Move costs +1)"
    )


class MapAttackRequest(serializers.Serializer):
    attacker = serializers.IntegerField(help_text="The attacking token")
    target = serializers.IntegerField(help_text="The target token")
    weapon_id = serializers.CharField(
        max_length=64,
        required=False,
        allow_blank=True,
        default="",
        help_text="A held item's id; empty: an unarmed strike",
    )
    attack = serializers.ChoiceField(
        choices=["", "melee", "ranged"],
        required=False,
        default="",
        help_text="For a thrown weapon: melee or ranged",
    )
    characteristic = serializers.CharField(max_length=20, required=False, allow_blank=True)


class MapPartyRequest(serializers.Serializer):
    shown = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=2,
        max_length=2,
        required=False,
        allow_null=True,
    )
    true = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=2,
        max_length=2,
        required=False,
        allow_null=True,
    )
    reveal = serializers.IntegerField(required=False, allow_null=True, default=0)


def _given(serializer_class, request: Request) -> dict[str, Any]:
    """Validated fields that the request actually sent (PATCH semantics)."""
    serializer = serializer_class(data=request.data, partial=True)
    serializer.is_valid(raise_exception=True)
    return {k: v for k, v in serializer.validated_data.items() if k in request.data}


def _move_body(request: Request) -> dict[str, Any]:
    """``_given(MapTokenMoveRequest)``, without building the serializer for the common body.

    A drag sends ``{"col": <int>, "row": <int>}`` many times a minute per player, and the
    serializer's per-request copies of its fields cost more than the move's own checks. That
    exact shape is taken as it is; anything else (a path, strings, nulls, extra or missing
    fields) goes through the serializer, so every error reads as before."""
    data = request.data
    if (
        isinstance(data, dict)
        and data.keys() == {"col", "row"}
        and type(data["col"]) is int
        and type(data["row"]) is int
    ):
        return {"col": data["col"], "row": data["row"]}
    return _given(MapTokenMoveRequest, request)


def _state(m, membership) -> dict[str, Any]:
    return selectors.map_state(
        m, referee=selectors.is_referee(membership), viewer_id=membership.user_id
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
        data = _given(MapSettingsRequest, request)
        m = services.map_create(campaign=membership.campaign, actor=request.user, **data)
        return Response(_state(m, membership), status=status.HTTP_201_CREATED)


class MapDetail(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT, operation_id="campaigns_maps_detail")
    def get(self, request: Request, pk: int, map_id: int) -> Response:
        """Everything to draw the map, filtered for the caller (`head` = the event sequence
        number the state is at least as new as)."""
        membership = authorize(request.user, pk, Action.VIEW)
        return Response(_state(selectors.map_for(membership, map_id), membership))

    @extend_schema(request=MapSettingsRequest, responses=OpenApiTypes.OBJECT)
    def patch(self, request: Request, pk: int, map_id: int) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE)
        m = selectors.map_for(membership, map_id)
        m = services.map_update(map=m, actor=request.user, **_given(MapSettingsRequest, request))
        return Response(_state(m, membership))

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, map_id: int) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE)
        services.map_delete(map=selectors.map_for(membership, map_id), actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MapActivate(APIView):
    @extend_schema(request=MapActivateRequest, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request, pk: int, map_id: int) -> Response:
        """Put the map on the table (`active: true`) or take it off (`false`)."""
        membership = authorize(request.user, pk, Action.MANAGE)
        m = selectors.map_for(membership, map_id)
        active = _given(MapActivateRequest, request).get("active", True)
        if active or m.active:
            services.map_activate(
                campaign=membership.campaign, actor=request.user, map_id=m.pk if active else None
            )
        m.refresh_from_db()
        return Response(selectors.map_summary(m))


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
        return Response(_state(m, membership))

    post = put

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT})
    def delete(self, request: Request, pk: int, map_id: int) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE)
        m = services.background_clear(map=selectors.map_for(membership, map_id), actor=request.user)
        return Response(_state(m, membership))


class MapFog(APIView):
    @extend_schema(request=MapFogRequest, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request, pk: int, map_id: int) -> Response:
        """Reveal or hide `cells` (a brush stroke), a `rect` [c0, r0, c1, r1], or `all`."""
        membership = authorize(request.user, pk, Action.MANAGE)
        m = selectors.map_for(membership, map_id)
        serializer = MapFogRequest(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if not (data.get("cells") is not None or data.get("rect") or data.get("all")):
            raise Invalid("Give cells, rect or all.", code="no_cells")
        result = services.fog_change(
            map=m,
            actor=request.user,
            reveal=data["mode"] == "reveal",
            cells=data.get("cells"),
            rect=data.get("rect"),
            everything=bool(data.get("all")),
        )
        return Response(result)


class Tokens(APIView):
    @extend_schema(responses=OBJECT_LIST, operation_id="campaigns_maps_tokens_list")
    def get(self, request: Request, pk: int, map_id: int) -> Response:
        membership = authorize(request.user, pk, Action.VIEW)
        m = selectors.map_for(membership, map_id)
        return Response(_state(m, membership)["tokens"])

    @extend_schema(request=MapTokenRequest, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, pk: int, map_id: int) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE)
        m = selectors.map_for(membership, map_id)
        token = services.token_create(map=m, actor=request.user, **_given(MapTokenRequest, request))
        return Response(
            selectors.token_data(token, m, referee=True), status=status.HTTP_201_CREATED
        )


def _visible_token(membership, m, token_id: int) -> Token:
    """The token if the caller may see it; players get 404 for hidden or fogged ones."""
    token = selectors.token_row(m.pk, int(token_id))
    if token is None:
        raise Http404
    if not selectors.is_referee(membership) and not selectors.token_visible(
        token, m, Fog.for_map(m), viewer_id=membership.user_id
    ):
        raise Http404
    return token


class TokenDetail(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT, operation_id="campaigns_maps_tokens_detail")
    def get(self, request: Request, pk: int, map_id: int, token_id: int) -> Response:
        membership = authorize(request.user, pk, Action.VIEW)
        m = selectors.map_for(membership, map_id)
        token = _visible_token(membership, m, token_id)
        return Response(selectors.token_data(token, m, referee=selectors.is_referee(membership)))

    @extend_schema(request=MapTokenRequest, responses=OpenApiTypes.OBJECT)
    def patch(self, request: Request, pk: int, map_id: int, token_id: int) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE)
        m = selectors.map_for(membership, map_id)
        _visible_token(membership, m, token_id)
        token = services.token_update(
            map=m, actor=request.user, token_id=token_id, **_given(MapTokenRequest, request)
        )
        return Response(selectors.token_data(token, m, referee=True))

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, map_id: int, token_id: int) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE)
        m = selectors.map_for(membership, map_id)
        _visible_token(membership, m, token_id)
        services.token_delete(map=m, actor=request.user, token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


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
        membership = authorize(request.user, pk, Action.PLAY)
        data = _move_body(request)
        if "col" not in data or "row" not in data:
            raise Invalid("col and row are required.", fields={"col": ["required"]})
        services.MOVE_BUCKET.hit(str(request.user.pk))
        try:
            m, token, distance = services.token_move_on(
                campaign_id=membership.campaign_id,
                map_id=map_id,
                actor=request.user,
                role=membership.role,
                token_id=token_id,
                col=data["col"],
                row=data["row"],
                path=data.get("path"),
            )
        except Map.DoesNotExist:
            raise Http404(_("Map not found.")) from None
        except Invalid as exc:
            if exc.code == "no_token":  # hidden, fogged or absent: it does not exist (404)
                raise Http404(exc.message) from None
            raise
        return Response(
            {
                "token": selectors.token_data(token, m, referee=selectors.is_referee(membership)),
                "distance": distance,
            }
        )


class TokenImage(APIView):
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        request={"multipart/form-data": {"type": "object", "properties": {"image": {}}}},
        responses={200: OpenApiTypes.OBJECT, 400: OpenApiResponse(), 413: OpenApiResponse()},
    )
    def put(self, request: Request, pk: int, map_id: int, token_id: int) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE)
        m = selectors.map_for(membership, map_id)
        _visible_token(membership, m, token_id)
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
        _visible_token(membership, m, token_id)
        token = services.token_image_clear(map=m, actor=request.user, token_id=token_id)
        return Response(selectors.token_data(token, m, referee=True))


class MapRound(APIView):
    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request, pk: int, map_id: int) -> Response:
        """A new round: every token's movement is reset to its full speed."""
        membership = authorize(request.user, pk, Action.MANAGE)
        count = services.movement_reset(
            map=selectors.map_for(membership, map_id), actor=request.user
        )
        return Response({"reset": count})


class Notes(APIView):
    @extend_schema(responses=OBJECT_LIST, operation_id="campaigns_maps_notes_list")
    def get(self, request: Request, pk: int, map_id: int) -> Response:
        membership = authorize(request.user, pk, Action.VIEW)
        m = selectors.map_for(membership, map_id)
        return Response(_state(m, membership)["notes"])

    @extend_schema(request=MapNoteRequest, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, pk: int, map_id: int) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE)
        m = selectors.map_for(membership, map_id)
        data = _given(MapNoteRequest, request)
        note = services.note_create(
            map=m,
            actor=request.user,
            col=data.get("col"),
            row=data.get("row"),
            text=data.get("text"),
            secret=data.get("secret") if data.get("secret") is not None else True,
        )
        return Response(selectors.note_data(note, referee=True), status=status.HTTP_201_CREATED)


class NoteDetail(APIView):
    @extend_schema(request=MapNoteRequest, responses=OpenApiTypes.OBJECT)
    def patch(self, request: Request, pk: int, map_id: int, note_id: int) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE)
        m = selectors.map_for(membership, map_id)
        note = services.note_update(
            map=m, actor=request.user, note_id=note_id, **_given(MapNoteRequest, request)
        )
        return Response(selectors.note_data(note, referee=True))

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, map_id: int, note_id: int) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE)
        m = selectors.map_for(membership, map_id)
        services.note_delete(map=m, actor=request.user, note_id=note_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MapTerrain(APIView):
    @extend_schema(request=MapTerrainRequest, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request, pk: int, map_id: int) -> Response:
        """Paint terrain on cells (`terrain: ""` clears it)."""
        membership = authorize(request.user, pk, Action.MANAGE)
        m = selectors.map_for(membership, map_id)
        serializer = MapTerrainRequest(data=request.data)
        serializer.is_valid(raise_exception=True)
        changed = services.terrain_paint(
            map=m,
            actor=request.user,
            terrain=serializer.validated_data["terrain"],
            cells=serializer.validated_data["cells"],
        )
        return Response({"changed": changed})


class MapParty(APIView):
    @extend_schema(request=MapPartyRequest, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request, pk: int, map_id: int) -> Response:
        """Set the party's shown position (`shown`, what players see), its true position
        (`true`, the referee's secret), either `null` to clear; `reveal` = steps around the
        shown position that the party has seen (null: none)."""
        membership = authorize(request.user, pk, Action.MANAGE)
        m = selectors.map_for(membership, map_id)
        data = _given(MapPartyRequest, request)
        kwargs: dict[str, Any] = {}
        for key in ("shown", "true"):
            if key in data:
                kwargs[key] = data[key]
        if "reveal" in data:
            kwargs["reveal"] = data["reveal"]
        m = services.party_set(map=m, actor=request.user, **kwargs)
        return Response(_state(m, membership)["party"])


class MapFeatures(APIView):
    @extend_schema(request=MapFeaturesRequest, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request, pk: int, map_id: int) -> Response:
        """Paint battle features on square cells: `cover` (`wall` blocks line of effect,
        `low` gives cover), `height` in squares (high ground), `light` and `concealment`.
        An empty value (height 0) clears that feature."""
        membership = authorize(request.user, pk, Action.MANAGE)
        m = selectors.map_for(membership, map_id)
        serializer = MapFeaturesRequest(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        cells = data.pop("cells")
        changed = services.features_paint(map=m, actor=request.user, cells=cells, **data)
        return Response({"changed": changed})


class MapAttack(APIView):
    @extend_schema(
        request=MapAttackRequest,
        responses={
            201: OpenApiResponse(description="The outcome, the map's sources, a pending choice"),
            400: OpenApiResponse(description="No line of effect, no sheet, a refused attack"),
            403: OpenApiResponse(description="Not your character's token"),
        },
    )
    def post(self, request: Request, pk: int, map_id: int) -> Response:
        """Attack from one token at another (Crows). The server reads cover, light,
        concealment, height and flanking from the map and rolls; `context.sources` lists what
        the map added (each with `side` +1/−1 and `weight`), `context.net` the check's net
        advantage (−2…+2)."""
        membership = authorize(request.user, pk, Action.PLAY)
        m = selectors.map_for(membership, map_id)
        # whose token attacks comes before the body is checked: another player's is a 403
        body = request.data if isinstance(request.data, dict) else {}
        combat.attack_authorize(
            map=m, actor=request.user, role=membership.role, attacker_token=body.get("attacker")
        )
        serializer = MapAttackRequest(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        ATTACK_BUCKET.hit(str(request.user.pk))
        outcome, follow, context = combat.map_attack(
            map=m,
            actor=request.user,
            role=membership.role,
            attacker_token=data["attacker"],
            target_token=data["target"],
            weapon_id=data.get("weapon_id", ""),
            attack=data.get("attack", ""),
            characteristic=data.get("characteristic") or None,
        )
        return _attack_response(outcome, follow, context, membership)


class MapTravel(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, pk: int, map_id: int) -> Response:
        """The travel day (Crows) as this viewer may see it: players never get encounter or
        drift rolls, nor the true hex while the party is lost (`hex: null`)."""
        membership = authorize(request.user, pk, Action.VIEW)
        m = selectors.map_for(membership, map_id)
        return Response(travel.travel_view(m.campaign, referee=selectors.is_referee(membership)))


class MapTravelStep(APIView):
    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={
            200: OpenApiTypes.OBJECT,
            201: OpenApiResponse(description="A role check: the outcome and its pending choice"),
            403: OpenApiResponse(description="Not the referee (or not your character)"),
            409: OpenApiResponse(description="The party is not travelling; stale day"),
        },
    )
    def post(self, request: Request, pk: int, map_id: int, step: str) -> Response:
        """One step of the travel day on a flat-topped hex map (Crows, digest §2.7):
        `begin` {goal?: [col, row]}, `day` {pace, slowest_speed?, road, river, in_miasma},
        `roles` {roles: [{character_id, task, allies?, quarry?}], helping?}, `role`
        {character_id, task, characteristic?} (a player for their own character),
        `encounter` {kind: travel|rest}, `move` {directions: [n, ne, se, s, sw, nw],
        stop_at?}, `found`, `arrive` {place}, `end`, `miasma`, `miasma_choice`
        {character_id, choice: "clear" | character_id} (a 17+ roller's player), and
        `miasma_resolve` {choices?: {character_id: "clear" | character_id}} (the players'
        recorded choices apply unless overridden). `role` and `miasma_choice` are also the
        players' (for their own characters); everything else is the referee's."""
        if step not in travel.STEPS:
            raise Http404
        action = Action.PLAY if step in travel.STEPS_FOR_PLAYERS else Action.MANAGE
        membership = authorize(request.user, pk, action)
        m = selectors.map_for(membership, map_id)
        body = request.data if isinstance(request.data, dict) else {}
        if step == "role":
            ATTACK_BUCKET.hit(str(request.user.pk))
            outcome, follow = travel.role_check(
                map=m,
                actor=request.user,
                role=membership.role,
                character_id=body.get("character_id"),
                task=str(body.get("task") or ""),
                characteristic=body.get("characteristic") or None,
            )
            shown = outcome_for(outcome, membership, pending=follow)
            details = shown.get("details") or {}
            if not selectors.is_referee(membership) and isinstance(details.get("travel"), dict):
                # the day as the check left it: a failed shortcut makes the party lost here
                details["travel"] = travel_rules.public_view(details["travel"])
            return Response(
                {
                    "outcome": shown,
                    "pending_id": follow.pk if follow else None,
                    **travel.travel_view(m.campaign, referee=selectors.is_referee(membership)),
                },
                status=status.HTTP_201_CREATED,
            )
        if step == "miasma":
            return Response(travel.miasma_saves(map=m, actor=request.user, role=membership.role))
        if step == "miasma_choice":
            return Response(
                travel.miasma_choice(
                    map=m,
                    actor=request.user,
                    role=membership.role,
                    character_id=body.get("character_id"),
                    choice=body.get("choice"),
                )
            )
        if step == "miasma_resolve":
            choices = body.get("choices") or {}
            if not isinstance(choices, dict):
                raise Invalid("choices is an object.", fields={"choices": ["{}"]})
            return Response(
                travel.miasma_resolve(
                    map=m, actor=request.user, role=membership.role, choices=choices
                )
            )
        return Response(
            travel.travel_step(
                map=m, actor=request.user, role=membership.role, step=step, params=dict(body)
            )
        )


class MapCombat(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, pk: int, map_id: int) -> Response:
        """The combat round (Crows) as this viewer may see it: players never get the creatures
        they cannot see on the map (hidden tokens, hidden NPCs, tokens under fog)."""
        membership = authorize(request.user, pk, Action.VIEW)
        m = selectors.map_for(membership, map_id)
        return Response(battle.combat_view(m, referee=selectors.is_referee(membership)))


class MapCombatStep(APIView):
    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={
            200: OpenApiTypes.OBJECT,
            400: OpenApiResponse(description="Refused by the rules (not your side's turn, …)"),
            403: OpenApiResponse(description="Not the referee (or not your character)"),
            409: OpenApiResponse(description="No combat (or one already under way)"),
        },
    )
    def post(self, request: Request, pk: int, map_id: int, step: str) -> Response:
        """One step of a Crows combat on a square map (seed L701-L773): `start` {tokens?,
        surprised?, sides?: {token_id: pcs|enemies}}, `round` {roller_id?} (1d10: 6+ the PCs
        act first), `roller` {roller_id} (the player who rolls), `initiative` (that player
        rolls between rounds), `turn` {combatant, force?}, `spend` {combatant?, cost:
        maneuver|action|reaction|free, move?, squares?}, `taunt` {combatant?, target}, `ready`
        {combatant?, what?, trigger, kind?: action|maneuver}, `trigger` {combatant} (the
        readied action, as the reaction), `extra_action` {combatant} (referee), `grab`
        {attacker, target} (tokens; the `grab` move, a maneuver), `release` {combatant?},
        `join` {token, side?}, `end_turn`, `end`. Combatants are `"t<token id>"`. Players act
        only for their own characters' tokens; `roller`, `round`, `start`, `extra_action` and
        `end` are the referee's."""
        if step not in battle.STEPS and step != "grab":
            raise Http404
        action = Action.PLAY if step in battle.PLAYER_STEPS | {"grab"} else Action.MANAGE
        membership = authorize(request.user, pk, action)
        m = selectors.map_for(membership, map_id)
        data = request.data
        body = data.dict() if hasattr(data, "dict") else data if isinstance(data, dict) else {}
        ATTACK_BUCKET.hit(str(request.user.pk))
        if step == "grab":
            outcome, follow, context = combat.map_grab(
                map=m,
                actor=request.user,
                role=membership.role,
                attacker_token=body.get("attacker"),
                target_token=body.get("target"),
            )
            return _attack_response(
                outcome,
                follow,
                context,
                membership,
                battle.combat_view(m, referee=selectors.is_referee(membership)),
            )
        return Response(
            battle.combat_step(
                map=m, actor=request.user, membership=membership, step=step, params=dict(body)
            )
        )


def _attack_response(
    outcome: Any, follow: Any, context: dict[str, Any], membership: Any, extra: dict | None = None
) -> Response:
    """A map attack's answer: the outcome as this member may see it (the target's sheet only
    for whoever may see it), the pending choice it opened, and what the map contributed."""
    target_token = Token.objects.filter(pk=context["target_token"]).first()
    target = (
        Character.objects.filter(pk=target_token.character_id).first()
        if target_token and target_token.character_id
        else None
    )
    return Response(
        {
            "outcome": outcome_for(outcome, membership, target, pending=follow),
            "pending_id": follow.pk if follow else None,
            "context": context,
            **(extra or {}),
        },
        status=status.HTTP_201_CREATED,
    )
