"""Reads shared by the prep pages and the API. Every caller has authorised the referee first."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from vtt.campaigns.models import Campaign
from vtt.characters.models import Character, Kind
from vtt.prep.models import Dungeon, RandomTable, Room, RoomMonster, TableResult, room_sort_key


def campaign_tables(campaign: Campaign | int) -> QuerySet[RandomTable]:
    return RandomTable.objects.filter(campaign=campaign).order_by("name", "id")


def table_pool(campaign: Campaign | int) -> dict[str, dict[str, Any]]:
    """Every table of the campaign in the rolling shape, by key (nested rolls name keys)."""
    return {t.key: t.as_data() for t in RandomTable.objects.filter(campaign=campaign)}


def table_for(campaign: Campaign | int, table_id: int | str) -> RandomTable:
    table = RandomTable.objects.filter(campaign=campaign, pk=_id(table_id)).first()
    if table is None:
        raise Http404(_("No such table."))
    return table


def referencing(campaign: Campaign | int, key: str) -> list[str]:
    """Keys of the tables whose entries roll on ``key``."""
    return sorted(
        t.key
        for t in RandomTable.objects.filter(campaign=campaign).exclude(key=key)
        if any(key in e.get("roll", []) for e in t.entries)
    )


def recent_results(campaign: Campaign | int, limit: int = 10) -> list[TableResult]:
    return list(TableResult.objects.filter(campaign=campaign).select_related("table")[:limit])


def campaign_dungeons(campaign: Campaign | int) -> QuerySet[Dungeon]:
    return (
        Dungeon.objects.filter(campaign=campaign)
        .annotate(room_count=Count("rooms"))
        .order_by("name", "id")
    )


def dungeon_for(campaign: Campaign | int, dungeon_id: int | str) -> Dungeon:
    dungeon = Dungeon.objects.filter(campaign=campaign, pk=_id(dungeon_id)).first()
    if dungeon is None:
        raise Http404(_("No such dungeon."))
    return dungeon


def dungeon_rooms(dungeon: Dungeon) -> list[Room]:
    rooms = list(dungeon.rooms.annotate(monster_count=Count("monsters")))
    rooms.sort(key=lambda r: room_sort_key(r.key))
    return rooms


def room_for(campaign: Campaign | int, room_id: int | str) -> Room:
    room = (
        Room.objects.select_related("dungeon")
        .filter(dungeon__campaign=campaign, pk=_id(room_id))
        .first()
    )
    if room is None:
        raise Http404(_("No such room."))
    return room


def room_monsters(room: Room) -> list[RoomMonster]:
    return list(room.monsters.select_related("character"))


def monster_for(room: Room, monster_id: int | str) -> RoomMonster:
    monster = room.monsters.select_related("character").filter(pk=_id(monster_id)).first()
    if monster is None:
        raise Http404(_("No such monster in this room."))
    return monster


def campaign_npcs(campaign: Campaign | int) -> QuerySet[Character]:
    return Character.objects.filter(campaign=campaign, kind=Kind.NPC).order_by("name", "id")


def _id(value: int | str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise Http404 from None
