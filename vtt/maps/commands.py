"""The map's table-play actions as commands (vtt/core/commands.py): tokens, notes, fog,
terrain, battle features, the party marker, rounds and the active map. The API views in
``api.py`` and the table socket both run these (a ruleset's own map commands live in its
plugin, for example vtt/rulesets/crows/commands.py).

Map preparation (creating, configuring and deleting maps, background and token images, which
are multipart uploads) stays in plain API views.

The campaign is the socket's (or the API path's): every map is looked up within it, so another
campaign's map is 404, as it is to a non-member.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import status

from vtt.core import serializers
from vtt.core.commands import Answer, Call, command
from vtt.core.errors import Invalid
from vtt.maps import selectors, services
from vtt.maps.fog import Fog
from vtt.maps.models import Map, Token
from vtt.permissions import Action, authorize

MAP = {"map_id": int}
MAP_TOKEN = {"map_id": int, "token_id": int}
MAP_NOTE = {"map_id": int, "note_id": int}
MAP_STEP = {"map_id": int, "step": str}


def cell() -> serializers.ListField:
    """A square, [column, row]. Lists of squares are capped by the largest map's squares (or
    the longest path) before any square is read."""
    return serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)


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
    name = serializers.CharField(max_length=services.TOKEN_NAME_MAX, required=False)
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
        max_length=services.MAX_PATH,
        help_text="Crows combat: the squares entered, [[col, row], …], ending on col, row",
    )


class MapNoteRequest(serializers.Serializer):
    col = serializers.IntegerField(required=False)
    row = serializers.IntegerField(required=False)
    text = serializers.CharField(max_length=services.NOTE_MAX, required=False, allow_blank=True)
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


def given(serializer_class: type[serializers.Serializer], params: Any) -> dict[str, Any]:
    """Validated fields that the request actually sent (PATCH semantics)."""
    serializer = serializer_class(data=params, partial=True)
    serializer.is_valid(raise_exception=True)
    return {k: v for k, v in serializer.validated_data.items() if k in params}


def _move_body(params: Any) -> dict[str, Any]:
    """``given(MapTokenMoveRequest)``, without building the serializer for the common body.

    A drag sends ``{"col": <int>, "row": <int>}`` many times a minute per player, and the
    serializer's per-request copies of its fields cost more than the move's own checks. That
    exact shape is taken as it is; anything else (a path, strings, nulls, extra or missing
    fields) goes through the serializer, so every error reads as before."""
    if (
        isinstance(params, dict)
        and params.keys() == {"col", "row"}
        and type(params["col"]) is int
        and type(params["row"]) is int
    ):
        return {"col": params["col"], "row": params["row"]}
    return given(MapTokenMoveRequest, params)


def object_params(params: Any) -> dict[str, Any]:
    """The parameters as a plain dict (a form's QueryDict flattened; anything else empty)."""
    if hasattr(params, "dict"):
        return params.dict()
    return params if isinstance(params, dict) else {}


def state(m: Map, membership: Any) -> dict[str, Any]:
    """The map as this member may see it."""
    return selectors.map_state(
        m, referee=selectors.is_referee(membership), viewer_id=membership.user_id
    )


def _managed_map(call: Call) -> tuple[Any, Map]:
    """The referee's membership and the map of ``args.map_id`` in the call's campaign."""
    membership = authorize(call.user, call.campaign_id, Action.MANAGE)
    return membership, selectors.map_for(membership, call.args["map_id"])


def visible_token(membership: Any, m: Map, token_id: int) -> Token:
    """The token if the caller may see it; players get 404 for hidden or fogged ones."""
    token = selectors.token_row(m.pk, int(token_id))
    if token is None:
        raise Http404
    if not selectors.is_referee(membership) and not selectors.token_visible(
        token, m, Fog.for_map(m), viewer_id=membership.user_id
    ):
        raise Http404
    return token


# --- the map on the table ------------------------------------------------------------------


@command("map.activate", args=MAP)
def map_activate(call: Call) -> Answer:
    """Put the map on the table (`active: true`) or take it off (`false`)."""
    membership, m = _managed_map(call)
    active = given(MapActivateRequest, call.params).get("active", True)
    if active or m.active:
        services.map_activate(
            campaign=membership.campaign, actor=call.user, map_id=m.pk if active else None
        )
    m.refresh_from_db()
    return Answer(selectors.map_summary(m))


@command("map.fog", args=MAP)
def map_fog(call: Call) -> Answer:
    """Reveal or hide `cells` (a brush stroke), a `rect` [c0, r0, c1, r1], or `all`."""
    _membership, m = _managed_map(call)
    data = call.valid(MapFogRequest)
    if not (data.get("cells") is not None or data.get("rect") or data.get("all")):
        raise Invalid("Give cells, rect or all.", code="no_cells")
    return Answer(
        services.fog_change(
            map=m,
            actor=call.user,
            reveal=data["mode"] == "reveal",
            cells=data.get("cells"),
            rect=data.get("rect"),
            everything=bool(data.get("all")),
        )
    )


@command("map.round", args=MAP)
def map_round(call: Call) -> Answer:
    """A new round: every token's movement is reset to its full speed."""
    _membership, m = _managed_map(call)
    return Answer({"reset": services.movement_reset(map=m, actor=call.user)})


@command("map.terrain", args=MAP)
def map_terrain(call: Call) -> Answer:
    """Paint terrain on cells (`terrain: ""` clears it)."""
    _membership, m = _managed_map(call)
    data = call.valid(MapTerrainRequest)
    changed = services.terrain_paint(
        map=m, actor=call.user, terrain=data["terrain"], cells=data["cells"]
    )
    return Answer({"changed": changed})


@command("map.features", args=MAP)
def map_features(call: Call) -> Answer:
    """Paint battle features on square cells (cover, height, light, concealment, ground)."""
    _membership, m = _managed_map(call)
    data = dict(call.valid(MapFeaturesRequest))
    cells = data.pop("cells")
    return Answer({"changed": services.features_paint(map=m, actor=call.user, cells=cells, **data)})


@command("map.party", args=MAP)
def map_party(call: Call) -> Answer:
    """Set the party's shown position, its true position (the referee's secret) and how far
    around the shown position the party has seen."""
    membership, m = _managed_map(call)
    data = given(MapPartyRequest, call.params)
    kwargs: dict[str, Any] = {key: data[key] for key in ("shown", "true", "reveal") if key in data}
    m = services.party_set(map=m, actor=call.user, **kwargs)
    return Answer(state(m, membership)["party"])


# --- tokens and notes ----------------------------------------------------------------------


@command("token.add", args=MAP)
def token_add(call: Call) -> Answer:
    _membership, m = _managed_map(call)
    token = services.token_create(map=m, actor=call.user, **given(MapTokenRequest, call.params))
    return Answer(selectors.token_data(token, m, referee=True), status.HTTP_201_CREATED)


@command("token.update", args=MAP_TOKEN)
def token_update(call: Call) -> Answer:
    membership, m = _managed_map(call)
    token_id = call.args["token_id"]
    visible_token(membership, m, token_id)
    token = services.token_update(
        map=m, actor=call.user, token_id=token_id, **given(MapTokenRequest, call.params)
    )
    return Answer(selectors.token_data(token, m, referee=True))


@command("token.delete", args=MAP_TOKEN)
def token_delete(call: Call) -> Answer:
    membership, m = _managed_map(call)
    token_id = call.args["token_id"]
    visible_token(membership, m, token_id)
    services.token_delete(map=m, actor=call.user, token_id=token_id)
    return Answer(None, status.HTTP_204_NO_CONTENT)


@command("token.move", args=MAP_TOKEN)
def token_move(call: Call) -> Answer:
    """Move to a cell; in a Crows combat the move spends the Move maneuver's squares. Players
    move their own characters' tokens (and only on their turn in a combat)."""
    membership = authorize(call.user, call.campaign_id, Action.PLAY)
    data = _move_body(call.params)
    if "col" not in data or "row" not in data:
        raise Invalid("col and row are required.", fields={"col": ["required"]})
    services.MOVE_BUCKET.hit(str(call.user.pk))
    try:
        m, token, distance = services.token_move_on(
            campaign_id=membership.campaign_id,
            map_id=call.args["map_id"],
            actor=call.user,
            role=membership.role,
            token_id=call.args["token_id"],
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
    return Answer(
        {
            "token": selectors.token_data(token, m, referee=selectors.is_referee(membership)),
            "distance": distance,
        }
    )


@command("note.add", args=MAP)
def note_add(call: Call) -> Answer:
    _membership, m = _managed_map(call)
    data = given(MapNoteRequest, call.params)
    note = services.note_create(
        map=m,
        actor=call.user,
        col=data.get("col"),
        row=data.get("row"),
        text=data.get("text"),
        secret=data.get("secret") if data.get("secret") is not None else True,
    )
    return Answer(selectors.note_data(note, referee=True), status.HTTP_201_CREATED)


@command("note.update", args=MAP_NOTE)
def note_update(call: Call) -> Answer:
    _membership, m = _managed_map(call)
    note = services.note_update(
        map=m,
        actor=call.user,
        note_id=call.args["note_id"],
        **given(MapNoteRequest, call.params),
    )
    return Answer(selectors.note_data(note, referee=True))


@command("note.delete", args=MAP_NOTE)
def note_delete(call: Call) -> Answer:
    _membership, m = _managed_map(call)
    services.note_delete(map=m, actor=call.user, note_id=call.args["note_id"])
    return Answer(None, status.HTTP_204_NO_CONTENT)
