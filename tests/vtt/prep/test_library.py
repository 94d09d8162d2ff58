"""The library: every ready-made table loads and validates in both languages, as a set with
its nested rolls; every stat block passes its ruleset's validation; copying works."""

from __future__ import annotations

import pytest

from systems import RULESET_KEYS
from systems.tales.tables import TABLE_KEYS as TALES_KEYS
from systems.tales.tables import check_tables
from vtt.characters.models import Character
from vtt.core.errors import Conflict
from vtt.prep import library, rolltables, services
from vtt.prep.models import RandomTable


@pytest.mark.parametrize("ruleset", RULESET_KEYS)
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_ready_made_table_validates(ruleset, lang):
    pool = library.library_pool(ruleset, lang)
    cleaned = {key: rolltables.clean_table(t) for key, t in pool.items()}
    rolltables.check_pool(cleaned)
    for key, table in cleaned.items():
        assert table["name"] and all(e["text"] for e in table["entries"]), key
        cyrillic = any("\u0400" <= c <= "\u04ff" for c in table["name"])
        assert cyrillic is (lang == "ru"), key


def test_what_ships():
    assert [t["key"] for t in library.library_tables("tales")] == list(TALES_KEYS)
    assert check_tables(library.library_tables("tales")) == []
    assert [t["key"] for t in library.library_tables("crows")] == [
        "encounter_check",
        "encounter_check_8",
        "encounter_check_7",
        "lost_direction",
        "miasma",
        "chaos",
        "backlash",
    ]
    for ruleset in ("dungeon_world", "city_of_judas", "savage_worlds"):
        assert library.library_tables(ruleset) == []  # their digests have no random tables


def test_crows_backlash_covers_1_to_105_and_reads_105_past_it():
    from systems.core.dice import ScriptedDice

    pool = {k: rolltables.clean_table(t) for k, t in library.library_pool("crows", "en").items()}
    backlash = pool["backlash"]
    assert backlash["entries"][0]["min"] == 1 and backlash["entries"][-1]["max"] == 105
    node = rolltables.roll("backlash", pool, dice=ScriptedDice([100]), modifier=5)
    assert node["total"] == 105 and node["entry"]["text"].startswith("105+")
    node = rolltables.roll("miasma", pool, dice=ScriptedDice([9]), modifier=2)
    assert node["entry"]["key"] == "bloodlust"


@pytest.mark.parametrize("ruleset", RULESET_KEYS)
def test_every_stat_block_passes_its_ruleset(ruleset):
    blocks = library.npc_blocks(ruleset)
    assert len(blocks) >= 3
    keys = [b["key"] for b in blocks]
    assert len(keys) == len(set(keys))
    for block in blocks:
        state = library.block_state(ruleset, block, library.pick(block["name"], "ru"))
        assert state["name"] == block["name"]["ru"]
        assert block["note"]["ru"] and block["note"]["en"]


def test_tales_summons_follow_the_seed():
    wolf = library.npc_block("tales", "wolf")
    assert wolf["state"]["stats"] == {"str": 10, "dex": 13, "mind": 6}
    assert wolf["state"]["natural"]["damage"] == "1d6+1"


@pytest.mark.parametrize("ruleset", RULESET_KEYS)
def test_every_block_drops_into_a_campaign(table, as_ruleset, ruleset):
    campaign = as_ruleset(ruleset)
    for block in library.npc_blocks(ruleset):
        (npc,) = services.npc_place(
            campaign=campaign, actor=table.referee, block_key=block["key"], hidden=True
        )
        assert npc.kind == "npc" and npc.hidden and npc.ruleset == ruleset
    assert Character.objects.filter(campaign=campaign).count() == len(library.npc_blocks(ruleset))


def test_copy_one_table_brings_its_nested_tables(table, as_ruleset):
    campaign = as_ruleset("tales")
    created, kept = services.library_copy(campaign=campaign, key="room_treasure", lang="ru")
    assert [t.key for t in created] == [
        "room_treasure",
        "treasure_small_silver",
        "treasure_small_gold",
        "treasure_small_gems",
        "treasure_small_jewellery",
        "treasure_small_magic",
        "treasure_normal_silver",
        "treasure_normal_gold",
        "treasure_normal_gems",
        "treasure_normal_jewellery",
        "treasure_normal_magic",
    ]
    assert kept == []
    assert created[0].name == "Подземелье: сокровище комнаты"
    assert created[0].source == "tales:room_treasure"
    with pytest.raises(Conflict):
        services.library_copy(campaign=campaign, key="room_treasure", lang="ru")


def test_copy_keeps_the_referees_own_version_of_a_nested_table(table, as_ruleset):
    campaign = as_ruleset("tales")
    services.table_create(
        campaign=campaign,
        data={
            "key": "trap",
            "name": "Мои ловушки",
            "formula": "1d2",
            "entries": [{"min": 1, "max": 2, "text": "Сеть"}],
        },
    )
    created, kept = services.library_copy(campaign=campaign, key="corridor_trap", lang="en")
    assert [t.key for t in created] == ["corridor_trap"] and kept == ["trap"]
    assert RandomTable.objects.get(key="trap").name == "Мои ловушки"


def test_copy_the_whole_library(table, as_ruleset):
    campaign = as_ruleset("crows")
    created, kept = services.library_copy(campaign=campaign, lang="ru")
    assert len(created) == 7 and kept == []
    again, kept = services.library_copy(campaign=campaign, lang="ru")
    assert again == [] and len(kept) == 7
