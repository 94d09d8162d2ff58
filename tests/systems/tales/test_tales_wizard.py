"""The new-character wizard (seed 003 L17-L106, digest §2): steps, validation, resuming."""

from __future__ import annotations

import copy
import json

import pytest
from tales_helpers import RS, three_d6, wizard_at_origin, wizard_at_picks

from systems.core.dice import ScriptedDice
from systems.core.ruleset import RulesError
from systems.tales import wizard as wiz

LORE = {"kind": "skill", "key": "lore"}
STEALTH = {"kind": "skill", "key": "stealth"}


def finish_from_picks(w, picks, **eq):
    w = RS.wizard_step(w, "choose_picks", picks=picks)
    w = RS.wizard_step(w, "choose_equipment", **eq)
    return RS.wizard_step(w, "finish", name="Ивейн", languages=["всеобщий"])


def test_stats_are_rolled_and_assigned_in_order_l19():
    w = RS.wizard_start()
    assert w["step"] == "stats"
    with pytest.raises(RulesError):
        RS.wizard_step(w, "assign_stat", stat="str")
    w = RS.wizard_step(w, "roll_stat", dice=ScriptedDice([6, 6, 5]))
    assert wiz.pending_roll(w) == 17
    with pytest.raises(RulesError):
        RS.wizard_step(w, "roll_stat", dice=ScriptedDice([1, 1, 1]))
    w = RS.wizard_step(w, "assign_stat", stat="mind")
    w = RS.wizard_step(w, "roll_stat", dice=ScriptedDice([3, 3, 3]))
    with pytest.raises(RulesError):
        RS.wizard_step(w, "assign_stat", stat="mind")
    w = RS.wizard_step(w, "assign_stat", stat="str")
    w = RS.wizard_step(w, "roll_stat", dice=ScriptedDice([1, 2, 3]))
    assert wiz.stats_of(w) == {"str": 9, "dex": 6, "mind": 17}
    assert w["step"] == "origin"


def test_full_wizard_makes_a_valid_sheet():
    w = wizard_at_picks((1, 3), str_=11, dex=14, mind=13)
    preview = RS.wizard_preview(w)
    assert "fire" in preview["allowed_spells"] and "stone_skin" in preview["allowed_spells"]
    assert "iron_skin" not in preview["allowed_spells"]
    assert preview["derived"] == {
        "max_hp": 11,
        "stats": {"str": 11, "dex": 14, "mind": 13},
        "max_hp_from_str": 11,
        "movement": 7,
        "throw_range": 5,
        "spell_range": 6,
        "armour": 0,
        "dex_cap": None,
        "dodge": 14,
    }
    w = finish_from_picks(
        w,
        [{"kind": "spell", "key": "fire"}, {"kind": "skill", "key": "survival"}],
        armour="leather",
        weapons=["dagger", "ordinary"],
    )
    assert w["step"] == "done"
    sheet = RS.validate_state(w["sheet"])
    assert sheet["origin"] == 4 and sheet["may_take_spells"]
    assert (sheet["hp"], sheet["max_hp"]) == (11, 11)
    assert sheet["spells"] == ["fire"]
    assert {(s["key"], s["level"]) for s in sheet["skills"]} == {("survival", 2), ("herbalism", 1)}
    assert sheet["languages"] == ["всеобщий"]
    assert [x["state"] for x in sheet["weapons"]] == ["sheathed", "sheathed"]


def test_each_step_resumes_from_json():
    w = RS.wizard_start()
    actions = [
        ("roll_stat", {"dice": ScriptedDice([4, 4, 4])}),
        ("assign_stat", {"stat": "str"}),
        ("roll_stat", {"dice": ScriptedDice([4, 4, 4])}),
        ("assign_stat", {"stat": "dex"}),
        ("roll_stat", {"dice": ScriptedDice([4, 4, 4])}),
        ("roll_origin", {"dice": ScriptedDice([3, 4])}),
        ("choose_picks", {"picks": [LORE, STEALTH]}),
        ("choose_equipment", {}),
        ("finish", {"name": "Б"}),
    ]
    for action, params in actions:
        w = json.loads(json.dumps(w, ensure_ascii=False))
        before = copy.deepcopy(w)
        w = RS.wizard_step(w, action, **params)
        assert before != w
    assert w["step"] == "done"


def test_wizard_rejects_a_tampered_state():
    w = wizard_at_picks((4, 5))
    bad = copy.deepcopy(w)
    bad["step"] = "equipment"
    with pytest.raises(RulesError):
        RS.wizard_step(bad, "choose_equipment")
    bad = copy.deepcopy(w)
    bad["stat_rolls"][0]["faces"] = [7, 1, 1]
    with pytest.raises(RulesError):
        RS.wizard_step(bad, "choose_picks", picks=[LORE, STEALTH])
    done = RS.wizard_step(w, "choose_picks", picks=[LORE, STEALTH])
    forged = copy.deepcopy(done)
    forged["picks"][0] = {"kind": "spell", "key": "image", "detail": ""}
    with pytest.raises(RulesError):
        RS.wizard_preview(forged)


def test_wizard_never_mutates_its_input():
    w = wizard_at_origin()
    frozen = copy.deepcopy(w)
    RS.wizard_step(w, "roll_origin", dice=ScriptedDice([5, 5]))
    assert w == frozen


def test_artisan_two_crafts_or_one_at_level_2_digest_9_3():
    same = wizard_at_picks((3, 3), crafts=["кузнец", "Кузнец"])
    sheet = finish_from_picks(same, [LORE, STEALTH])["sheet"]
    assert [s for s in sheet["skills"] if s["key"] == "craft"] == [
        {"key": "craft", "level": 2, "detail": "кузнец"}
    ]
    two = wizard_at_picks((3, 3), crafts=["кузнец", "ткач"])
    sheet = finish_from_picks(two, [LORE, STEALTH])["sheet"]
    assert len([s for s in sheet["skills"] if s["key"] == "craft"]) == 2
    w = wizard_at_origin()
    w = RS.wizard_step(w, "roll_origin", dice=ScriptedDice([3, 3]))
    with pytest.raises(RulesError):
        RS.wizard_step(w, "choose_origin_details", crafts=["кузнец"])
    with pytest.raises(RulesError):
        RS.wizard_step(w, "choose_picks", picks=[LORE, STEALTH])


def test_artist_chooses_painting_or_sculpture():
    w = wizard_at_origin()
    w = RS.wizard_step(w, "roll_origin", dice=ScriptedDice([2, 3]))
    with pytest.raises(RulesError):
        RS.wizard_step(w, "choose_origin_details", art="pottery")
    w = RS.wizard_step(w, "choose_origin_details", art="sculpture")
    sheet = finish_from_picks(w, [LORE, STEALTH])["sheet"]
    assert {"key": "art", "level": 1, "detail": "sculpture"} in sheet["skills"]
    assert {"key": "appraisal", "level": 1, "detail": ""} in sheet["skills"]


def test_picks_raise_levels_l253_but_not_literacy_l291():
    novice = wizard_at_picks((5, 7))  # 12: charisma, literacy
    with pytest.raises(RulesError) as exc:
        RS.wizard_step(novice, "choose_picks", picks=[{"kind": "skill", "key": "literacy"}, LORE])
    assert "no levels" in exc.value.errors["picks.0"][0]["en"]  # L291
    w = RS.wizard_step(novice, "choose_picks", picks=[{"kind": "skill", "key": "charisma"}] * 2)
    w = RS.wizard_step(w, "choose_equipment")
    sheet = RS.wizard_step(w, "finish")["sheet"]
    assert {"key": "charisma", "level": 3, "detail": ""} in sheet["skills"]


def test_origin_weapon_skills_are_combat_unless_set_digest_9_2():
    exile = wizard_at_picks((1, 2))  # 3: survival, brawling
    keys = [s["key"] for s in RS.wizard_preview(exile)["origin_skills"]]
    assert keys == ["survival", "combat_brawl"]
    military = RS.wizard_preview(exile, {"origin_weapon_skills": "military"})
    assert [s["key"] for s in military["origin_skills"]] == ["survival", "military_brawl"]


def test_craft_pick_needs_its_name():
    w = wizard_at_picks((4, 5))
    with pytest.raises(RulesError):
        RS.wizard_step(w, "choose_picks", picks=[{"kind": "skill", "key": "craft"}, LORE])


def test_exactly_two_picks():
    w = wizard_at_picks((4, 5))
    with pytest.raises(RulesError):
        RS.wizard_step(w, "choose_picks", picks=[LORE])


def test_equipment_needs_min_str_and_the_kit_l194():
    w = RS.wizard_step(wizard_at_picks((4, 5), str_=10), "choose_picks", picks=[LORE, STEALTH])
    with pytest.raises(RulesError) as exc:
        RS.wizard_step(w, "choose_equipment", weapons=["ordinary"])
    assert "needs Str" in exc.value.errors["weapons.0"][0]["en"]  # L194
    kit = {"starting_weapons": ["dagger"], "starting_armour": ["none", "leather"]}
    with pytest.raises(RulesError):
        RS.wizard_step(w, "choose_equipment", weapons=["spear"], settings=kit)
    with pytest.raises(RulesError):
        RS.wizard_step(w, "choose_equipment", armour="plate", settings=kit)
    done = RS.wizard_step(w, "choose_equipment", weapons=["dagger"], settings=kit)
    assert done["step"] == "finish"


def test_unknown_action_and_extra_params_are_errors():
    w = RS.wizard_start()
    with pytest.raises(RulesError):
        RS.wizard_step(w, "reroll")
    with pytest.raises(RulesError):
        RS.wizard_step(w, "roll_stat", dice=ScriptedDice([1, 1, 1]), stat="str")


def test_three_d6_helper():
    assert all(sum(three_d6(t)) == t and max(three_d6(t)) <= 6 for t in range(3, 19))
