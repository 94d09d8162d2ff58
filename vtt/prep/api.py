"""The referee's preparation over REST, under ``/api/campaigns/<id>/prep/``.

Every endpoint is the referee's (``Action.MANAGE``): players and observers get 403, outsiders
404, anonymous callers 401. Reads work on an archived campaign; writes get 409 there.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse
from django.utils.http import content_disposition_header
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from vtt.characters.api import character_data
from vtt.core import serializers
from vtt.core.api import OBJECT_LIST
from vtt.core.errors import Invalid
from vtt.core.jsonsafe import FormParser, JSONParser, MultiPartParser
from vtt.permissions import Action, authorize
from vtt.prep import library, rolltables, selectors, services, transfer
from vtt.prep.models import (
    MONSTER_NOTE_MAX,
    NAME_MAX,
    ROOM_KEY_MAX,
    TEXT_MAX,
    Dungeon,
    RandomTable,
    Room,
    RoomMonster,
    TableResult,
)
from vtt.table.commands import ROLL_BUCKET
from vtt.table.models import Visibility as V
from vtt.table.services import ENTRY_VALUE_MAX


def referee(request: Request, pk: int, *, write: bool = False):
    """The referee's membership (403 for other members, 404 for outsiders, 409 on an
    archived campaign for writes)."""
    return authorize(request.user, pk, Action.MANAGE, allow_archived=not write)


def lang() -> str:
    return "ru" if (get_language() or "ru").startswith("ru") else "en"


def _valid(serializer_class, data: Any) -> dict:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# --- serialised shapes ---------------------------------------------------------------------------


def table_data(table: RandomTable) -> dict[str, Any]:
    return {
        "id": table.pk,
        **table.as_data(),
        "source": table.source,
        "updated_at": table.updated_at,
    }


def result_data(result: TableResult) -> dict[str, Any]:
    return {
        "id": result.pk,
        "table_id": result.table_id,
        "visibility": result.visibility,
        "modifier": result.modifier,
        "event_seq": result.event_seq,
        "faces": rolltables.all_faces(result.result),
        "text": "\n".join(rolltables.summary_lines(result.result)),
        "result": result.result,
        "created_at": result.created_at,
    }


def dungeon_data(dungeon: Dungeon, *, rooms: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": dungeon.pk,
        "name": dungeon.name,
        "description": dungeon.description,
        "map_id": dungeon.map_id,
        "encounter_table_id": dungeon.encounter_table_id,
        "updated_at": dungeon.updated_at,
    }
    if rooms:
        data["rooms"] = [room_data(r) for r in selectors.dungeon_rooms(dungeon)]
    return data


def room_data(room: Room) -> dict[str, Any]:
    return {
        "id": room.pk,
        "dungeon_id": room.dungeon_id,
        "key": room.key,
        "name": room.name,
        "title": str(room),
        "text": room.text,
        "map_id": room.map_id,
        "effective_map_id": room.effective_map_id,
        "cells": room.cells,
        "treasure": room.treasure,
        "monsters": [monster_data(m) for m in selectors.room_monsters(room)],
        "updated_at": room.updated_at,
    }


def monster_data(monster: RoomMonster) -> dict[str, Any]:
    return {
        "id": monster.pk,
        "character_id": monster.character_id,
        "name": monster.character.name,
        "hidden": monster.character.hidden,
        "count": monster.count,
        "note": monster.note,
    }


class PrepTableSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    key = serializers.CharField(help_text="Unique in the campaign; nested rolls name it.")
    name = serializers.CharField()
    formula = serializers.CharField(help_text="Dice notation; ignored with weights (1d<sum>).")
    weights = serializers.BooleanField(required=False)
    modifier_label = serializers.CharField(required=False, allow_blank=True)
    note = serializers.CharField(required=False, allow_blank=True)
    entries = serializers.ListField(
        child=serializers.DictField(), max_length=rolltables.MAX_ENTRIES
    )


class PrepRollRequest(serializers.Serializer):
    visibility = serializers.ChoiceField(
        choices=[V.BLIND, V.EVERYONE],
        default=V.BLIND,
        help_text="blind: the referee only (default); everyone: the whole table.",
    )
    modifier = serializers.IntegerField(
        required=False,
        default=0,
        min_value=-rolltables.MAX_MODIFIER,
        max_value=rolltables.MAX_MODIFIER,
    )


class PrepCopyRequest(serializers.Serializer):
    key = serializers.CharField(required=False, help_text="Omit to copy the whole library.")
    lang = serializers.ChoiceField(choices=["ru", "en"], required=False)


class PrepPlaceRequest(serializers.Serializer):
    name = serializers.CharField(
        required=False, allow_blank=True, max_length=services.PLACE_NAME_MAX
    )
    count = serializers.IntegerField(
        required=False, default=1, min_value=1, max_value=services.MAX_PLACE
    )
    hidden = serializers.BooleanField(required=False, default=True)
    initiative = serializers.BooleanField(required=False, default=False)
    initiative_value = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=-ENTRY_VALUE_MAX,
        max_value=ENTRY_VALUE_MAX,
    )
    room_id = serializers.IntegerField(required=False, allow_null=True)


class PrepDungeonRequest(serializers.Serializer):
    name = serializers.CharField(required=False, max_length=NAME_MAX)
    description = serializers.CharField(required=False, allow_blank=True, max_length=TEXT_MAX)
    map_id = serializers.IntegerField(required=False, allow_null=True)
    encounter_table_id = serializers.IntegerField(required=False, allow_null=True)


class PrepRoomRequest(serializers.Serializer):
    key = serializers.CharField(required=False, max_length=ROOM_KEY_MAX)
    name = serializers.CharField(required=False, allow_blank=True, max_length=NAME_MAX)
    text = serializers.CharField(required=False, allow_blank=True, max_length=TEXT_MAX)
    map_id = serializers.IntegerField(required=False, allow_null=True)
    cells = serializers.JSONField(required=False, help_text='[[x, y], ...] or "3,4; 3,5"')
    treasure = serializers.JSONField(required=False, help_text="A list of lines, or text.")


class PrepMonsterRequest(serializers.Serializer):
    character_id = serializers.IntegerField()
    count = serializers.IntegerField(
        required=False, default=1, min_value=1, max_value=services.MONSTER_COUNT_MAX
    )
    note = serializers.CharField(required=False, allow_blank=True, max_length=MONSTER_NOTE_MAX)


class PrepInitiativeRequest(serializers.Serializer):
    value = serializers.IntegerField(
        required=False, allow_null=True, min_value=-ENTRY_VALUE_MAX, max_value=ENTRY_VALUE_MAX
    )


# --- tables --------------------------------------------------------------------------------------


class Tables(APIView):
    @extend_schema(operation_id="prep_tables_list", responses=PrepTableSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        referee(request, pk)
        return Response([table_data(t) for t in selectors.campaign_tables(pk)])

    @extend_schema(
        request=PrepTableSerializer,
        responses={
            201: PrepTableSerializer,
            400: OpenApiResponse(description="Gaps, overlaps, bad formula…: `code`, `problems`"),
            409: OpenApiResponse(description="The key is taken"),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        """Create a table. Ranges must cover every total of the formula exactly once; nested
        rolls must name existing tables and never loop."""
        membership = referee(request, pk, write=True)
        table = services.table_create(campaign=membership.campaign, data=_object(request.data))
        return Response(table_data(table), status=status.HTTP_201_CREATED)


class TableDetail(APIView):
    @extend_schema(operation_id="prep_table_retrieve", responses=PrepTableSerializer)
    def get(self, request: Request, pk: int, tid: int) -> Response:
        referee(request, pk)
        return Response(table_data(selectors.table_for(pk, tid)))

    @extend_schema(request=PrepTableSerializer, responses=PrepTableSerializer)
    def put(self, request: Request, pk: int, tid: int) -> Response:
        referee(request, pk, write=True)
        table = services.table_update(
            table=selectors.table_for(pk, tid), data=_object(request.data)
        )
        return Response(table_data(table))

    @extend_schema(request=None, responses={204: None, 409: OpenApiResponse(description="In use")})
    def delete(self, request: Request, pk: int, tid: int) -> Response:
        referee(request, pk, write=True)
        services.table_delete(table=selectors.table_for(pk, tid))
        return Response(status=status.HTTP_204_NO_CONTENT)


class TableRoll(APIView):
    @extend_schema(
        request=PrepRollRequest,
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                str,
                OpenApiParameter.HEADER,
                required=False,
                description="A retry with the same key returns the first result.",
            )
        ],
        responses={
            201: OpenApiTypes.OBJECT,
            200: OpenApiResponse(OpenApiTypes.OBJECT, description="Replay of an earlier key"),
        },
    )
    def post(self, request: Request, pk: int, tid: int) -> Response:
        """Roll on the table on the server, with every nested roll, and publish the result
        (`random_table.roll`) to the referee only (`blind`) or to `everyone`."""
        membership = referee(request, pk, write=True)
        table = selectors.table_for(pk, tid)
        data = _valid(PrepRollRequest, request.data)
        key = request.headers.get("Idempotency-Key") or None
        replay = services.result_for_key(
            campaign=membership.campaign, actor=request.user, idempotency_key=key
        )
        if replay is None:
            ROLL_BUCKET.hit(str(request.user.pk))
        result, created = services.table_roll(
            campaign=membership.campaign,
            actor=request.user,
            table=table,
            visibility=data["visibility"],
            modifier=data["modifier"],
            idempotency_key=key,
        )
        response = Response(
            result_data(result), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK
        )
        if not created:
            response["Idempotent-Replayed"] = "true"
        return response


class Results(APIView):
    @extend_schema(operation_id="prep_results_list", responses=OBJECT_LIST)
    def get(self, request: Request, pk: int) -> Response:
        """The latest table rolls of the campaign (the referee's history)."""
        referee(request, pk)
        return Response([result_data(r) for r in selectors.recent_results(pk, limit=50)])


def export_response(tables: list[dict[str, Any]], fmt: str, stem: str) -> HttpResponse:
    if fmt == "csv":
        response = HttpResponse(
            "\ufeff" + transfer.export_csv(tables), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = content_disposition_header(True, f"{stem}.csv")
        return response
    response = HttpResponse(
        _json(transfer.export_json(tables)), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = content_disposition_header(True, f"{stem}.json")
    return response


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2, cls=DjangoJSONEncoder)


def _fmt(request) -> str:
    fmt = (request.GET.get("format") or "json").lower()
    if fmt not in ("json", "csv"):
        raise Invalid(
            _("The format is json or csv."), code="bad_format", fields={"format": ["json, csv"]}
        )
    return fmt


def table_export_bundle(campaign_id: int, table: RandomTable | None) -> list[dict[str, Any]]:
    pool = selectors.table_pool(campaign_id)
    if table is None:
        return [pool[k] for k in sorted(pool, key=lambda k: (pool[k]["name"], k))]
    return [pool[k] for k in rolltables.dependencies(pool, table.key)]


class FileNegotiation(DefaultContentNegotiation):
    """Exports answer with a file of their own; ``?format=csv`` is ours, not DRF's renderer
    override (which would 404 on a format it has no renderer for)."""

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


class TablesExport(APIView):
    content_negotiation_class = FileNegotiation

    @extend_schema(
        operation_id="prep_tables_export",
        parameters=[OpenApiParameter("format", str, enum=["json", "csv"])],
        responses={(200, "application/json"): OpenApiTypes.OBJECT, (200, "text/csv"): str},
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        """Every table of the campaign as one JSON or CSV file."""
        referee(request, pk)
        return export_response(table_export_bundle(int(pk), None), _fmt(request), "tables")


class TableExport(APIView):
    content_negotiation_class = FileNegotiation

    @extend_schema(
        operation_id="prep_table_export",
        parameters=[OpenApiParameter("format", str, enum=["json", "csv"])],
        responses={(200, "application/json"): OpenApiTypes.OBJECT, (200, "text/csv"): str},
    )
    def get(self, request: Request, pk: int, tid: int) -> HttpResponse:
        """The table and every table its nested rolls reach, so the file stands alone."""
        referee(request, pk)
        table = selectors.table_for(pk, tid)
        return export_response(table_export_bundle(int(pk), table), _fmt(request), table.key)


class TablesImport(APIView):
    parser_classes = [MultiPartParser, FormParser, JSONParser]

    @extend_schema(
        request={
            "multipart/form-data": {
                "type": "object",
                "properties": {
                    "file": {"type": "string", "format": "binary"},
                    "format": {"type": "string", "enum": ["json", "csv"]},
                    "replace": {"type": "boolean"},
                    "key": {"type": "string"},
                    "name": {"type": "string"},
                    "formula": {"type": "string"},
                },
            },
            "application/json": OpenApiTypes.OBJECT,
        },
        responses={
            201: OpenApiTypes.OBJECT,
            400: OpenApiResponse(description="A bad file: nothing was saved"),
            409: OpenApiResponse(description="Keys taken (send replace=true to overwrite)"),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        """Import tables from a JSON or CSV file (multipart `file`) or a JSON body. All or
        nothing: one bad table and nothing is saved."""
        membership = referee(request, pk, write=True)
        replace = str(request.query_params.get("replace") or "").lower() in ("1", "true", "yes")
        upload = request.FILES.get("file") if hasattr(request, "FILES") else None
        if upload is not None:
            params = request.data
            replace = replace or str(params.get("replace") or "").lower() in ("1", "true", "on")
            tables = parse_upload(
                upload,
                fmt=params.get("format") or "",
                key=params.get("key") or "",
                name=params.get("name") or "",
                formula=params.get("formula") or "",
            )
        elif request.content_type.startswith("application/json"):
            tables = transfer.tables_from_data(request.data, lang=lang())
        else:
            raise Invalid(_("Send a file or a JSON body."), code="import_no_file")
        saved = services.tables_import(campaign=membership.campaign, tables=tables, replace=replace)
        return Response({"tables": [table_data(t) for t in saved]}, status=status.HTTP_201_CREATED)


def parse_upload(upload, *, fmt: str = "", key: str = "", name: str = "", formula: str = ""):
    """A file from a form or the API as raw tables (``Invalid`` for a bad file)."""
    transfer.check_size(upload.size)
    text = transfer.decode(upload.read())
    fmt = fmt if fmt in ("json", "csv") else transfer.detect_format(upload.name, text)
    if fmt == "json":
        return transfer.parse_json(text, lang=lang())
    return transfer.parse_csv(text, key=key, name=name, formula=formula, filename=upload.name)


# --- the library ---------------------------------------------------------------------------------


class Library(APIView):
    @extend_schema(operation_id="prep_library_retrieve", responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, pk: int) -> Response:
        """Ready-made tables and stat blocks for the campaign's ruleset (names in ru and en)."""
        membership = referee(request, pk)
        ruleset = membership.campaign.ruleset
        have = set(selectors.table_pool(pk))
        return Response(
            {
                "ruleset": ruleset,
                "tables": [
                    {**t, "in_campaign": t["key"] in have} for t in library.library_tables(ruleset)
                ],
                "npcs": library.npc_blocks(ruleset),
            }
        )


class LibraryCopy(APIView):
    @extend_schema(request=PrepCopyRequest, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, pk: int) -> Response:
        """Copy a ready-made table (with the tables its nested rolls need) into the campaign;
        without `key`, the whole library. Keys the campaign has already are kept."""
        membership = referee(request, pk, write=True)
        data = _valid(PrepCopyRequest, request.data)
        created, kept = services.library_copy(
            campaign=membership.campaign, key=data.get("key"), lang=data.get("lang") or lang()
        )
        return Response(
            {"created": [table_data(t) for t in created], "kept": kept},
            status=status.HTTP_201_CREATED,
        )


class LibraryPlace(APIView):
    @extend_schema(request=PrepPlaceRequest, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, pk: int, key: str) -> Response:
        """Drop a stat block into the campaign as NPC sheets (hidden by default), optionally
        into the initiative (hidden if the sheet is) and a room."""
        membership = referee(request, pk, write=True)
        data = _valid(PrepPlaceRequest, request.data)
        room = selectors.room_for(pk, data["room_id"]) if data.get("room_id") else None
        characters = services.npc_place(
            campaign=membership.campaign,
            actor=request.user,
            block_key=key,
            name=data.get("name") or "",
            count=data["count"],
            hidden=data["hidden"],
            initiative=data["initiative"],
            initiative_value=data.get("initiative_value"),
            room=room,
        )
        return Response(
            {"characters": [character_data(c, membership) for c in characters]},
            status=status.HTTP_201_CREATED,
        )


# --- dungeons and rooms --------------------------------------------------------------------------


class Dungeons(APIView):
    @extend_schema(operation_id="prep_dungeons_list", responses=OBJECT_LIST)
    def get(self, request: Request, pk: int) -> Response:
        referee(request, pk)
        return Response([dungeon_data(d) for d in selectors.campaign_dungeons(pk)])

    @extend_schema(request=PrepDungeonRequest, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, pk: int) -> Response:
        membership = referee(request, pk, write=True)
        data = _valid(PrepDungeonRequest, request.data)
        dungeon = services.dungeon_create(
            campaign=membership.campaign,
            name=data.get("name", ""),
            description=data.get("description", ""),
            map_id=data.get("map_id"),
            encounter_table_id=data.get("encounter_table_id"),
        )
        return Response(dungeon_data(dungeon, rooms=True), status=status.HTTP_201_CREATED)


class DungeonDetail(APIView):
    @extend_schema(operation_id="prep_dungeon_retrieve", responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, pk: int, did: int) -> Response:
        referee(request, pk)
        return Response(dungeon_data(selectors.dungeon_for(pk, did), rooms=True))

    @extend_schema(request=PrepDungeonRequest, responses=OpenApiTypes.OBJECT)
    def put(self, request: Request, pk: int, did: int) -> Response:
        """Change the fields given (a missing field stays as it is)."""
        referee(request, pk, write=True)
        data = _valid(PrepDungeonRequest, request.data)
        dungeon = services.dungeon_update(dungeon=selectors.dungeon_for(pk, did), **data)
        return Response(dungeon_data(dungeon, rooms=True))

    patch = put

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, did: int) -> Response:
        referee(request, pk, write=True)
        services.dungeon_delete(dungeon=selectors.dungeon_for(pk, did))
        return Response(status=status.HTTP_204_NO_CONTENT)


class Rooms(APIView):
    @extend_schema(operation_id="prep_rooms_list", responses=OBJECT_LIST)
    def get(self, request: Request, pk: int, did: int) -> Response:
        referee(request, pk)
        return Response(
            [room_data(r) for r in selectors.dungeon_rooms(selectors.dungeon_for(pk, did))]
        )

    @extend_schema(request=PrepRoomRequest, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, pk: int, did: int) -> Response:
        referee(request, pk, write=True)
        dungeon = selectors.dungeon_for(pk, did)
        data = _valid(PrepRoomRequest, request.data)
        room = services.room_create(dungeon=dungeon, key=data.pop("key", ""), **data)
        return Response(room_data(room), status=status.HTTP_201_CREATED)


class RoomDetail(APIView):
    @extend_schema(operation_id="prep_room_retrieve", responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, pk: int, rid: int) -> Response:
        """A room as the referee sees it: keyed text, map cells, monsters, treasure."""
        referee(request, pk)
        return Response(room_data(selectors.room_for(pk, rid)))

    @extend_schema(request=PrepRoomRequest, responses=OpenApiTypes.OBJECT)
    def put(self, request: Request, pk: int, rid: int) -> Response:
        """Change the fields given (a missing field stays as it is)."""
        referee(request, pk, write=True)
        data = _valid(PrepRoomRequest, request.data)
        room = services.room_update(room=selectors.room_for(pk, rid), **data)
        return Response(room_data(room))

    patch = put

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, rid: int) -> Response:
        referee(request, pk, write=True)
        services.room_delete(room=selectors.room_for(pk, rid))
        return Response(status=status.HTTP_204_NO_CONTENT)


class RoomMonsters(APIView):
    @extend_schema(request=PrepMonsterRequest, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, pk: int, rid: int) -> Response:
        """Place an NPC sheet of the campaign in the room."""
        referee(request, pk, write=True)
        room = selectors.room_for(pk, rid)
        data = _valid(PrepMonsterRequest, request.data)
        monster = services.room_monster_add(room=room, **data)
        return Response(monster_data(monster), status=status.HTTP_201_CREATED)


class RoomMonsterDetail(APIView):
    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, rid: int, mid: int) -> Response:
        referee(request, pk, write=True)
        monster = selectors.monster_for(selectors.room_for(pk, rid), mid)
        services.room_monster_remove(monster=monster)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RoomMonsterInitiative(APIView):
    @extend_schema(request=PrepInitiativeRequest, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, pk: int, rid: int, mid: int) -> Response:
        """Put the room's monster into the initiative (hidden if its sheet is hidden)."""
        membership = referee(request, pk, write=True)
        monster = selectors.monster_for(selectors.room_for(pk, rid), mid)
        data = _valid(PrepInitiativeRequest, request.data)
        entry = services.room_monster_initiative(
            campaign=membership.campaign,
            actor=request.user,
            monster=monster,
            value=data.get("value"),
        )
        return Response(
            {"id": entry.pk, "name": entry.name, "value": entry.value, "hidden": entry.hidden},
            status=status.HTTP_201_CREATED,
        )


def _object(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise rolltables.TableInvalid(
            [rolltables.Problem("table_bad_shape", _("A table is a JSON object."))], field="table"
        )
    return dict(data)
