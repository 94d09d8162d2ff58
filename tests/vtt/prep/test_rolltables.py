"""Table validation and rolling (pure): gaps, overlaps, weights, modifiers, nested loops refused
with the loop named, and deterministic nested chains with ScriptedDice."""

from __future__ import annotations

import pytest
from django.utils import translation

from systems.core.dice import ScriptedDice
from systems.tales import tables as tales_tables
from vtt.prep import rolltables as rt
from vtt.prep.library import library_pool


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def table(key="t", formula="1d6", entries=None, **extra):
    return {
        "key": key,
        "name": key.title(),
        "formula": formula,
        "entries": entries
        if entries is not None
        else [{"min": 1, "max": 3, "text": "low"}, {"min": 4, "max": 6, "text": "high"}],
        **extra,
    }


def problems(raw) -> list[tuple[str, str]]:
    with pytest.raises(rt.TableInvalid) as info:
        rt.clean_table(raw)
    return [(p.code, p.message) for p in info.value.problems]


# --- validation ----------------------------------------------------------------------------------


def test_a_sound_table_is_cleaned_and_sorted():
    clean = rt.clean_table(
        table(
            entries=[
                {"min": "4", "max": "6", "text": " high ", "roll": "a b"},
                {"min": 1, "max": 3, "text": "low", "amount": "2d6*100", "unit": "silver"},
            ]
        )
    )
    assert clean["entries"] == [
        {"min": 1, "max": 3, "text": "low", "amount": "2d6*100", "unit": "silver"},
        {"min": 4, "max": 6, "text": "high", "roll": ["a", "b"]},
    ]
    assert clean["formula"] == "1d6" and clean["weights"] is False


def test_gap_is_refused_with_the_missing_totals():
    found = problems(
        table(
            formula="1d10",
            entries=[
                {"min": 1, "max": 3, "text": "a"},
                {"min": 6, "max": 8, "text": "b"},
            ],
        )
    )
    assert found == [("table_gap", "No entry for 4–5, 9–10 (the table covers 1–10).")]


def test_overlap_is_refused_naming_both_entries():
    found = problems(
        table(
            entries=[
                {"min": 1, "max": 4, "text": "a"},
                {"min": 3, "max": 6, "text": "b"},
            ]
        )
    )
    assert found == [("table_overlap", "Entries 1 and 2 overlap on 3–4.")]


def test_rows_outside_the_formula_are_refused():
    found = problems(
        table(
            entries=[
                {"min": 0, "max": 3, "text": "a"},
                {"min": 4, "max": 7, "text": "b"},
            ]
        )
    )
    assert found == [
        ("table_out_of_range", "Entry 1 covers 0, outside 1–6 of the formula."),
        ("table_out_of_range", "Entry 2 covers 7, outside 1–6 of the formula."),
    ]


def test_bad_formula_keeps_the_notation_code():
    found = problems(table(formula="1d0"))
    assert found[0][0].startswith("notation_")
    assert found[0][1].startswith("Formula: ")


def test_formula_too_wide_for_a_table():
    found = problems(table(formula="100d1000"))
    assert found == [
        (
            "table_formula_span",
            "The formula gives 99901 different totals; a table handles at most 10000.",
        )
    ]


def test_entry_problems_are_all_listed():
    found = problems(
        table(
            key="bad key",
            entries=[
                {"min": 3, "max": 1, "text": "a"},
                {"min": 1, "max": 6, "text": ""},
                {"min": 1, "max": 6, "text": "c", "roll": "no/such"},
                {"min": 1, "max": 6, "text": "d", "amount": "2x"},
            ],
        )
    )
    codes = [code for code, _ in found]
    assert codes == [
        "table_key",
        "table_bad_range",
        "table_entry_text",
        "table_nested_key",
        "table_amount",
    ]
    assert found[1][1] == "Entry 1: min and max are whole numbers and min is not above max."


def test_an_empty_table_is_refused():
    assert problems(table(entries=[])) == [("table_empty", "A table needs at least one entry.")]


def test_russian_messages():
    with translation.override("ru"), pytest.raises(rt.TableInvalid) as info:
        rt.clean_table(table(entries=[{"min": 1, "max": 4, "text": "a"}]))
    assert info.value.code == "table_gap"
    assert info.value.message == "Нет строки для 5–6 (таблица охватывает 1–6)."


def test_weights_become_ranges_of_a_d_sum():
    clean = rt.clean_table(
        table(
            formula="ignored",
            weights=True,
            entries=[
                {"weight": 3, "text": "common"},
                {"weight": "2", "text": "uncommon"},
                {"weight": 1, "text": "rare"},
            ],
        )
    )
    assert clean["formula"] == "1d6"
    assert [(e["min"], e["max"], e["weight"]) for e in clean["entries"]] == [
        (1, 3, 3),
        (4, 5, 2),
        (6, 6, 1),
    ]


def test_bad_weights():
    found = problems(
        table(weights=True, entries=[{"weight": 0, "text": "a"}, {"weight": 2, "text": "b"}])
    )
    assert found == [("table_weight", "Entry 1: a weight is a whole number from 1 to 1000.")]
    found = problems(table(weights=True, entries=[{"weight": 900, "text": "a"}] * 2))
    assert found == [("table_weight_total", "The weights add up to 1800; at most 1000 (a d1000).")]


def test_modifier_tables_may_run_past_the_formula_but_not_leave_gaps():
    clean = rt.clean_table(
        table(
            formula="1d10",
            modifier_label="cruelty",
            entries=[{"min": 1, "max": 10, "text": "a"}, {"min": 11, "max": 13, "text": "b"}],
        )
    )
    assert clean["modifier_label"] == "cruelty"
    found = problems(
        table(
            formula="1d10",
            modifier_label="cruelty",
            entries=[{"min": 1, "max": 10, "text": "a"}, {"min": 12, "max": 13, "text": "b"}],
        )
    )
    assert found == [("table_gap", "No entry for 11 (the table covers 1–13).")]


# --- nesting -------------------------------------------------------------------------------------


def pool_of(*tables):
    return {t["key"]: rt.clean_table(t) for t in tables}


def test_a_nested_loop_is_refused_naming_the_loop():
    pool = pool_of(
        table("a", entries=[{"min": 1, "max": 6, "text": "to b", "roll": ["b"]}]),
        table("b", entries=[{"min": 1, "max": 6, "text": "to c", "roll": ["c"]}]),
        table("c", entries=[{"min": 1, "max": 6, "text": "back to a", "roll": ["a"]}]),
    )
    with pytest.raises(rt.TableInvalid) as info:
        rt.check_pool(pool, ["b"])
    assert info.value.code == "table_cycle"
    assert info.value.message == "Nested rolls form a loop: b → c → a → b."
    with translation.override("ru"), pytest.raises(rt.TableInvalid) as info:
        rt.check_pool(pool, ["a"])
    assert info.value.message == "Вложенные броски образуют петлю: a → b → c → a."


def test_a_table_rolling_on_itself_is_a_loop():
    pool = pool_of(table("a", entries=[{"min": 1, "max": 6, "text": "again", "roll": ["a"]}]))
    with pytest.raises(rt.TableInvalid) as info:
        rt.check_pool(pool, ["a"])
    assert info.value.message == "Nested rolls form a loop: a → a."


def test_unknown_nested_table():
    pool = pool_of(table("a", entries=[{"min": 1, "max": 6, "text": "x", "roll": ["ghost"]}]))
    with pytest.raises(rt.TableInvalid) as info:
        rt.check_pool(pool, ["a"])
    assert info.value.code == "table_unknown_nested"
    assert info.value.message == "“a”, entry 1: there is no table “ghost” to roll on."


def test_fan_out_is_bounded():
    leaf = table("leaf")
    mid = table("mid", entries=[{"min": 1, "max": 6, "text": "x", "roll": ["leaf"] * 10}])
    top = table("top", entries=[{"min": 1, "max": 6, "text": "x", "roll": ["mid"] * 10}])
    pool = pool_of(leaf, mid, top)
    with pytest.raises(rt.TableInvalid) as info:
        rt.check_pool(pool, ["top"])
    assert info.value.message == "One roll on “top” can lead to 111 rolls; at most 100."


# --- rolling -------------------------------------------------------------------------------------


def chain_pool():
    return pool_of(
        table(
            "room",
            formula="1d10",
            entries=[
                {"min": 1, "max": 6, "text": "Empty"},
                {"min": 7, "max": 10, "text": "Guarded hoard", "roll": ["guard", "hoard"]},
            ],
        ),
        table(
            "guard",
            formula="1d4",
            entries=[
                {"min": 1, "max": 2, "text": "Rats"},
                {"min": 3, "max": 4, "text": "A trap", "roll": ["trap"]},
            ],
        ),
        table(
            "hoard",
            entries=[
                {"min": 1, "max": 6, "text": "Silver", "amount": "2d6*10", "unit": "coins"},
            ],
        ),
        table("trap", formula="2d6", entries=[{"min": 2, "max": 12, "text": "Pit"}]),
    )


def test_a_nested_chain_with_every_face():
    # room 8; then guard and hoard formulas (3, 5); guard follows: trap 2d6 (4, 6);
    # hoard follows: amount 2d6*10 (2, 3).
    dice = ScriptedDice([8, 3, 5, 4, 6, 2, 3])
    node = rt.roll("room", chain_pool(), dice=dice)
    dice.assert_done()
    assert node["total"] == 8 and node["entry"]["text"] == "Guarded hoard"
    guard, hoard = node["nested"]
    assert (guard["table"], guard["faces"], guard["entry"]["text"]) == ("guard", [3], "A trap")
    assert guard["nested"][0]["faces"] == [4, 6] and guard["nested"][0]["total"] == 10
    assert hoard["faces"] == [5] and hoard["amount"]["total"] == 50
    assert hoard["amount"]["faces"] == [2, 3] and hoard["amount"]["unit"] == "coins"
    assert rt.all_faces(node) == [8, 3, 5, 4, 6, 2, 3]
    assert rt.summary_lines(node) == [
        "Room: 1d10 = [8] = 8 → Guarded hoard",
        "↳ Guard: 1d4 = [3] = 3 → A trap",
        "  ↳ Trap: 2d6 = [4, 6] = 10 → Pit",
        "↳ Hoard: 1d6 = [5] = 5 → Silver · 50 coins (2d6*10 = [2, 3] * 10 = 50)",
    ]


def test_a_modifier_is_added_and_clamped_to_the_last_row():
    pool = pool_of(
        table(
            "miasma",
            formula="1d10",
            modifier_label="cruelty",
            entries=[
                {"min": 1, "max": 12, "text": "effect"},
                {"min": 13, "max": 13, "text": "13+"},
            ],
        )
    )
    node = rt.roll("miasma", pool, dice=ScriptedDice([9]), modifier=6)
    assert (node["rolled"], node["modifier"], node["total"]) == (9, 6, 15)
    assert node["entry"]["text"] == "13+"
    assert rt.summary_lines(node) == ["Miasma: 1d10 = [9] = 9 + 6 (cruelty) = 15 → 13+"]


def test_same_faces_same_result_as_the_tales_engine():
    """The library copy of Tales' tables rolls exactly like systems/tales/tables.py (digest
    case 31: room treasure 6 → normal treasure, lines 7, 3, 9, 5, 1, then the amounts)."""
    pool = {k: rt.clean_table(t) for k, t in library_pool("tales", "en").items()}
    faces = [6, 7, 3, 9, 5, 1, 4, 5, 8, 2]
    ours = rt.roll("room_treasure", pool, dice=ScriptedDice(faces))
    theirs = tales_tables.roll_table("room_treasure", ScriptedDice(faces)).as_dict()

    def flat(node, key_total="total"):
        return [
            (node["table"], node[key_total], node["faces"], (node.get("amount") or {}).get("total"))
        ] + [x for child in node["nested"] for x in flat(child, key_total)]

    assert flat(ours) == flat(theirs)
    assert ours["entry"]["key"] == "normal"
