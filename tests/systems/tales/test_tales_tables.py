"""The random tables (seed 003 L21-L102, L140, L499-L577): generic shape, no gaps, no overlaps."""

from __future__ import annotations

import copy
import json

import pytest
from tales_helpers import run

from systems.core.dice import ScriptedDice
from systems.core.notation import parse_notation
from systems.tales.data import ORIGINS, TRAPS
from systems.tales.tables import (
    TABLE_KEYS,
    TABLES,
    TABLES_BY_KEY,
    all_tables,
    check_table,
    check_tables,
    get_table,
    roll_table,
)

ENTRY_FIELDS = {"min", "max", "text", "key", "roll_on", "roll_each", "amount", "unit"}
TABLE_FIELDS = {"key", "name", "formula", "entries", "source", "note", "template"}


def test_all_tables_are_sound_together():
    assert check_tables(TABLES) == []
    assert len(TABLE_KEYS) == len(set(TABLE_KEYS))


@pytest.mark.parametrize("key", TABLE_KEYS)
def test_each_table_covers_its_formula_exactly_once(key):
    table = TABLES_BY_KEY[key]
    parsed = parse_notation(table["formula"])
    hits = {v: 0 for v in range(parsed.min_total, parsed.max_total + 1)}
    for entry in table["entries"]:
        for v in range(entry["min"], entry["max"] + 1):
            assert v in hits, f"{key}: {v} outside the formula's range"
            hits[v] += 1
    assert set(hits.values()) == {1}
    assert check_table(table, set(TABLE_KEYS)) == []


@pytest.mark.parametrize("key", TABLE_KEYS)
def test_each_table_has_the_generic_shape(key):
    table = TABLES_BY_KEY[key]
    assert set(table) <= TABLE_FIELDS
    assert table["name"]["ru"] and table["name"]["en"]
    for entry in table["entries"]:
        assert set(entry) <= ENTRY_FIELDS
        assert entry["text"]["ru"] and entry["text"]["en"]
        assert isinstance(entry.get("roll_on", ""), str)
    json.dumps(table, ensure_ascii=False)


def test_check_table_finds_gaps_and_overlaps():
    table = get_table("room_treasure")
    table["entries"][1]["max"] = 6  # 4-6 overlaps 6
    assert any("6 is in entries" in p for p in check_table(table))
    table = get_table("room_treasure")
    del table["entries"][0]
    assert any("no entry for [1, 2, 3]" in p for p in check_table(table))
    table = get_table("trap")
    table["entries"][0]["roll_on"] = "nowhere"
    assert any("unknown table" in p for p in check_table(table, set(TABLE_KEYS)))
    looped = [
        {**get_table("corridor_trap"), "key": "a"},
        {
            "key": "b",
            "name": {"ru": "б", "en": "b"},
            "formula": "1d2",
            "entries": [{"min": 1, "max": 2, "text": {"ru": "x", "en": "x"}, "roll_on": "a"}],
        },
    ]
    looped[0]["entries"][0]["roll_on"] = "b"
    assert any("cycle" in p for p in check_tables(looped))


def test_tables_match_the_data_they_come_from():
    origin = TABLES_BY_KEY["origin"]
    assert [(e["min"], e["key"]) for e in origin["entries"]] == [(o.roll, o.key) for o in ORIGINS]
    trap = TABLES_BY_KEY["trap"]
    assert [(e["min"], e["key"]) for e in trap["entries"]] == [(t.roll, t.key) for t in TRAPS]


def test_get_table_is_a_copy():
    table = get_table("trap")
    table["entries"].clear()
    assert TABLES_BY_KEY["trap"]["entries"]
    tables = all_tables()
    tables[0]["key"] = "x"
    assert TABLES[0]["key"] == "origin"


def test_nested_roll_on_and_amount():
    before = copy.deepcopy(TABLES_BY_KEY)
    result = roll_table("corridor_trap", ScriptedDice([1, 10, 4]))
    assert result.entry["key"] == "trap"
    spiked = result.find("trap")
    assert spiked.entry["key"] == "spiked_pit" and spiked.amount["total"] == 7
    assert before == TABLES_BY_KEY


def test_surprise_table_and_small_treasure():
    assert roll_table("surprise", ScriptedDice([4])).entry["key"] == "surprised"
    out = run("treasure", {}, [3, 5, 7, 6, 9, 1, 1, 3, 4], size="small")
    assert out.details["loot"] == {
        "silver": 200,
        "gold": 300,
        "gems": 4,
        "jewellery": None,
        "magic": 1,
    }


def test_roll_table_move_reports_the_entry():
    out = run("roll_table", {"keep": "me"}, [9, 10], table="origin")
    assert out.band == "sage" and out.total == 19
    assert out.state == {"keep": "me"}
    assert out.text.ru.startswith("Мудрец")
