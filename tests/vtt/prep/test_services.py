"""Prep services: tables saved and checked across the campaign, rolls published with the chosen
visibility (and never to players when blind), dungeons, rooms, monsters, stat blocks."""

from __future__ import annotations

import pytest

from systems.core.dice import ScriptedDice
from tests.vtt.prep.conftest import simple_table
from vtt.characters.models import Character
from vtt.core.errors import Conflict, Invalid
from vtt.prep import services
from vtt.prep.models import RandomTable, RoomMonster, TableResult
from vtt.table.events import visible_events
from vtt.table.models import InitiativeEntry, TableEvent

pytestmark = pytest.mark.usefixtures("english")


def nested_tables(campaign):
    services.table_create(
        campaign=campaign,
        data={
            "key": "trap",
            "name": "Traps",
            "formula": "1d4",
            "entries": [
                {"min": 1, "max": 2, "text": "Dart"},
                {"min": 3, "max": 4, "text": "Pit"},
            ],
        },
    )
    return services.table_create(
        campaign=campaign,
        data={
            "key": "room",
            "name": "Room",
            "formula": "1d6",
            "entries": [
                {"min": 1, "max": 4, "text": "Empty"},
                {"min": 5, "max": 6, "text": "Trapped", "roll": ["trap"]},
            ],
        },
    )


# --- tables --------------------------------------------------------------------------------------


def test_create_and_the_key_is_unique(table):
    created = services.table_create(campaign=table.campaign, data=simple_table())
    assert created.formula == "1d6" and created.entries[1]["amount"] == "2d6"
    with pytest.raises(Conflict) as info:
        services.table_create(campaign=table.campaign, data=simple_table())
    assert info.value.code == "table_key_taken"
    assert info.value.message == "There is already a table with the key “loot”."


def test_nested_roll_on_a_missing_table_is_refused(table):
    with pytest.raises(Invalid) as info:
        services.table_create(
            campaign=table.campaign,
            data=simple_table(entries=[{"min": 1, "max": 6, "text": "x", "roll": ["ghost"]}]),
        )
    assert info.value.code == "table_unknown_nested"
    assert RandomTable.objects.count() == 0


def test_an_update_that_closes_a_loop_is_refused_and_nothing_changes(table):
    room = nested_tables(table.campaign)
    trap = RandomTable.objects.get(key="trap")
    looped = trap.as_data()
    looped["entries"][1]["roll"] = ["room"]
    with pytest.raises(Invalid) as info:
        services.table_update(table=trap, data=looped)
    assert info.value.code == "table_cycle"
    assert info.value.message == "Nested rolls form a loop: trap → room → trap."
    assert info.value.extra["problems"] == [
        {"code": "table_cycle", "message": "Nested rolls form a loop: trap → room → trap."}
    ]
    trap.refresh_from_db()
    assert "roll" not in trap.entries[1]
    assert room.entries[1]["roll"] == ["trap"]


def test_a_table_in_use_cannot_be_deleted_or_renamed(table):
    nested_tables(table.campaign)
    trap = RandomTable.objects.get(key="trap")
    with pytest.raises(Conflict) as info:
        services.table_delete(table=trap)
    assert info.value.code == "table_in_use"
    assert info.value.message == "Tables room roll on “trap”: change them before deleting it."
    renamed = {**trap.as_data(), "key": "traps"}
    with pytest.raises(Conflict) as info:
        services.table_update(table=trap, data=renamed)
    assert info.value.code == "table_in_use"
    services.table_delete(table=RandomTable.objects.get(key="room"))
    services.table_delete(table=trap)
    assert RandomTable.objects.count() == 0


def test_import_is_all_or_nothing(table):
    good = simple_table("good")
    bad = simple_table("bad", entries=[{"min": 1, "max": 5, "text": "gap at 6"}])
    with pytest.raises(Invalid) as info:
        services.tables_import(campaign=table.campaign, tables=[good, bad])
    assert info.value.code == "table_gap"
    assert info.value.message == "Table 2 (“bad”): No entry for 6 (the table covers 1–6)."
    assert RandomTable.objects.count() == 0


def test_import_refuses_taken_keys_unless_replacing(table):
    services.table_create(campaign=table.campaign, data=simple_table())
    changed = simple_table(name="Loot v2")
    with pytest.raises(Conflict) as info:
        services.tables_import(campaign=table.campaign, tables=[changed])
    assert info.value.code == "table_key_taken"
    saved = services.tables_import(campaign=table.campaign, tables=[changed], replace=True)
    assert [t.name for t in saved] == ["Loot v2"]
    assert RandomTable.objects.count() == 1


def test_import_of_a_set_with_a_loop_names_it(table):
    a = simple_table("a", entries=[{"min": 1, "max": 6, "text": "x", "roll": ["b"]}])
    b = simple_table("b", entries=[{"min": 1, "max": 6, "text": "y", "roll": ["a"]}])
    with pytest.raises(Invalid) as info:
        services.tables_import(campaign=table.campaign, tables=[a, b])
    assert info.value.message == "Nested rolls form a loop: a → b → a."
    assert RandomTable.objects.count() == 0


# --- rolling and publishing ----------------------------------------------------------------------


def test_a_blind_roll_reaches_the_referee_only(table):
    room = nested_tables(table.campaign)
    result, created = services.table_roll(
        campaign=table.campaign,
        actor=table.referee,
        table=room,
        visibility="blind",
        dice=ScriptedDice([6, 3]),
    )
    assert created
    assert result.result["entry"]["text"] == "Trapped"
    assert result.result["nested"][0]["entry"]["text"] == "Pit"
    event = TableEvent.objects.get(seq=result.event_seq)
    assert event.kind == "random_table.roll" and event.visibility == "blind"
    assert event.payload["faces"] == [6, 3]
    assert event.payload["text"] == "Room: 1d6 = [6] = 6 → Trapped\n↳ Traps: 1d4 = [3] = 3 → Pit"
    for user, role, sees in [
        (table.referee, "referee", True),
        (table.player, "player", False),
        (table.observer, "observer", False),
    ]:
        seen = visible_events(table.campaign.pk, user_id=user.pk, role=role)
        assert seen.filter(pk=event.pk).exists() is sees


def test_an_open_roll_reaches_everyone(table):
    created = services.table_create(campaign=table.campaign, data=simple_table())
    result, _ = services.table_roll(
        campaign=table.campaign,
        actor=table.referee,
        table=created,
        visibility="everyone",
        dice=ScriptedDice([5, 2, 6]),
    )
    assert result.result["amount"]["total"] == 8
    event = TableEvent.objects.get(seq=result.event_seq)
    assert event.visibility == "everyone"
    seen = visible_events(table.campaign.pk, user_id=table.player.pk, role="player")
    assert seen.filter(pk=event.pk).exists()


def test_roll_visibility_and_modifier_are_checked(table):
    created = services.table_create(campaign=table.campaign, data=simple_table())
    with pytest.raises(Invalid) as info:
        services.table_roll(
            campaign=table.campaign, actor=table.referee, table=created, visibility="whisper"
        )
    assert info.value.code == "bad_visibility"
    with pytest.raises(Invalid) as info:
        services.table_roll(campaign=table.campaign, actor=table.referee, table=created, modifier=2)
    assert (info.value.code, info.value.message) == (
        "table_no_modifier",
        "This table takes no modifier.",
    )
    assert TableResult.objects.count() == 0 and TableEvent.objects.count() == 0


def test_an_idempotency_key_never_rolls_twice(table):
    created = services.table_create(campaign=table.campaign, data=simple_table())
    first, made = services.table_roll(
        campaign=table.campaign,
        actor=table.referee,
        table=created,
        idempotency_key="k1",
        dice=ScriptedDice([2]),
    )
    again, made_again = services.table_roll(
        campaign=table.campaign, actor=table.referee, table=created, idempotency_key="k1"
    )
    assert made and not made_again and again.pk == first.pk
    assert TableEvent.objects.filter(kind="random_table.roll").count() == 1


# --- dungeons, rooms, monsters -------------------------------------------------------------------


def a_map_id(campaign) -> int:
    """A map of the campaign: a real one when vtt.maps is installed (then ids are checked),
    else any positive id (kept as given)."""
    from django.apps import apps

    if not apps.is_installed("vtt.maps"):
        return 7
    return apps.get_model("maps", "Map").objects.create(campaign=campaign, name="M").pk


def test_dungeon_and_rooms(table):
    map_id = a_map_id(table.campaign)
    dungeon = services.dungeon_create(campaign=table.campaign, name="Склеп", map_id=map_id)
    crypt = services.room_create(
        dungeon=dungeon, key="12.", name="Склеп", cells="3,4; 3,5; 3,4", treasure="Кубок\n\n"
    )
    assert (crypt.key, crypt.cells, crypt.treasure) == ("12", [[3, 4], [3, 5]], ["Кубок"])
    assert crypt.effective_map_id == map_id
    services.room_create(dungeon=dungeon, key="2")
    with pytest.raises(Conflict) as info:
        services.room_create(dungeon=dungeon, key="12")
    assert info.value.code == "room_key_taken"
    with pytest.raises(Invalid) as info:
        services.room_update(room=crypt, cells="3;4")
    assert info.value.code == "bad_cells"
    services.room_update(room=crypt, cells=[[1, 1], {"q": 2, "r": 1}])
    crypt.refresh_from_db()
    assert crypt.cells == [[1, 1], [2, 1]]
    from vtt.prep.selectors import dungeon_rooms

    assert [r.key for r in dungeon_rooms(dungeon)] == ["2", "12"]


def test_a_map_of_another_campaign_is_refused_when_maps_are_installed(table, db):
    from django.apps import apps

    if not apps.is_installed("vtt.maps"):
        pytest.skip("vtt.maps is not installed")
    from vtt.campaigns import services as campaign_services

    Map = apps.get_model("maps", "Map")
    other = campaign_services.campaign_create(user=table.outsider, name="B", ruleset="tales")
    foreign = Map.objects.create(campaign=other, name="Elsewhere")
    mine = Map.objects.create(campaign=table.campaign, name="Here", width=10, height=10)
    with pytest.raises(Invalid) as info:
        services.dungeon_create(campaign=table.campaign, name="D", map_id=foreign.pk)
    assert info.value.code == "no_map"
    dungeon = services.dungeon_create(campaign=table.campaign, name="D", map_id=mine.pk)
    with pytest.raises(Invalid) as info:
        services.room_create(dungeon=dungeon, key="1", cells="10,0")
    assert info.value.code == "cell_off_map"
    assert services.room_create(dungeon=dungeon, key="1", cells="9,9").cells == [[9, 9]]


def test_library_stat_block_into_room_and_hidden_initiative(table):
    dungeon = services.dungeon_create(campaign=table.campaign, name="D")
    room = services.room_create(dungeon=dungeon, key="1")
    goblins = services.npc_place(
        campaign=table.campaign,
        actor=table.referee,
        block_key="goblin",
        count=2,
        hidden=True,
        initiative=True,
        initiative_value=12,
        room=room,
    )
    assert [g.name for g in goblins] == ["Goblin 1", "Goblin 2"]
    assert all(g.hidden and g.kind == "npc" for g in goblins)
    assert goblins[0].state["damage"] == "к6"
    entries = InitiativeEntry.objects.filter(campaign=table.campaign)
    assert [(e.name, e.value, e.hidden) for e in entries] == [
        ("Goblin 1", 12, True),
        ("Goblin 2", 12, True),
    ]
    assert RoomMonster.objects.filter(room=room).count() == 2
    # players saw neither the sheets nor the initiative entries
    player_view = visible_events(table.campaign.pk, user_id=table.player.pk, role="player")
    for event in player_view:
        assert "Goblin" not in str(event.payload)


def test_an_open_npc_into_a_room_and_to_initiative(table):
    room = services.room_create(
        dungeon=services.dungeon_create(campaign=table.campaign, name="D"), key="1"
    )
    (orc,) = services.npc_place(
        campaign=table.campaign, actor=table.referee, block_key="orc", name="Грыз", hidden=False
    )
    monster = services.room_monster_add(room=room, character_id=orc.pk, count=3, note="спят")
    entry = services.room_monster_initiative(
        campaign=table.campaign, actor=table.referee, monster=monster, value=9
    )
    assert (entry.name, entry.hidden) == ("Грыз ×3", False)
    with pytest.raises(Invalid) as info:
        services.room_monster_add(room=room, character_id=999_999)
    assert info.value.code == "no_npc"


def test_an_unknown_stat_block(table):
    with pytest.raises(Invalid) as info:
        services.npc_place(campaign=table.campaign, actor=table.referee, block_key="dragon")
    assert info.value.code == "no_block"
    assert Character.objects.count() == 0
