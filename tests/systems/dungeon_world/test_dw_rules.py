"""Dungeon World rules beyond the digest's acceptance cases: each test cites the seed line."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from dw_helpers import RS, choose, monster, pc_a, run

from systems.core.dice import ScriptedDice
from systems.core.outcome import Option, Outcome, Text
from systems.core.pbta import band_odds
from systems.core.ruleset import RulesError

# --- describe() ------------------------------------------------------------------------------


def test_describe_lists_the_21_seed_moves_with_ru_en_triggers_and_params():
    d = RS.describe()
    json.dumps(d, ensure_ascii=False)  # JSON-able
    keys = [m["key"] for m in d["moves"]]
    assert len(keys) == 21 and len(set(keys)) == 21
    assert keys[0] == "hack_and_slash" and keys[-1] == "end_of_session"
    for move in d["moves"] + d["actions"]:
        assert move["ru"] and move["en"] and move["trigger"]["ru"] and move["trigger"]["en"]
        for name, field in move["params"].items():
            assert field["ru"] and field["en"], (move["key"], name)
            assert name not in {"move", "state", "dice", "settings", "choices"}
    hack = next(m for m in d["moves"] if m["key"] == "hack_and_slash")
    assert hack["ru"] == "Руби и кромсай" and hack["roll"] == "str"
    assert hack["params"]["target"]["type"] == "object"
    volley = next(m for m in d["moves"] if m["key"] == "volley")
    assert [o["key"] for o in volley["options"]["7-9"]["options"]] == [
        "danger",
        "less_damage",
        "ammo",
    ]
    defend = next(m for m in d["moves"] if m["key"] == "defend")
    assert len(defend["hold"]["options"]) == 4


def test_describe_settings_have_defaults_and_the_stat_table_is_one():
    d = RS.describe()
    fields = d["settings"]["fields"]
    assert fields["stat_modifiers"]["default"][12] == 1  # score 13 -> +1 ([published])
    for name in (
        "defend_halve_order",
        "defend_halve_rounding",
        "encumbrance_drop_penalty",
        "auto_fail_marks_xp",
        "aid_requires_bond",
        "hp_from_con",
    ):
        assert name in fields and "default" in fields[name]
    assert d["settings_defaults"]["defend_halve_rounding"] == "down"
    assert d["sheet"]["fields"]["stats"]["fields"]["str"]["max"] == 18


# --- validation ------------------------------------------------------------------------------


def test_validate_state_reports_field_errors_in_ru_and_en():
    bad = pc_a()
    bad["stats"]["str"] = 19
    bad["level"] = "high"
    bad["extra"] = 1
    with pytest.raises(RulesError) as err:
        RS.validate_state(bad)
    errors = err.value.errors
    assert set(errors) == {"stats.str", "level", "extra"}
    assert errors["stats.str"][0]["ru"] and errors["stats.str"][0]["en"]


def test_hp_above_max_is_rejected():
    with pytest.raises(RulesError) as err:
        RS.validate_state(pc_a(hp=19))
    assert "hp" in err.value.errors


def test_unknown_move_and_unknown_param_are_errors():
    with pytest.raises(RulesError):
        run("fireball", pc_a(), [])
    with pytest.raises(RulesError) as err:
        run("spout_lore", pc_a(), [3, 3], weapon="sword")
    assert "weapon" in err.value.errors


def test_npc_damage_expression_is_validated():
    with pytest.raises(RulesError) as err:
        RS.validate_npc({"name": "x", "damage": "2к1000"})
    assert "damage" in err.value.errors


# --- moves -------------------------------------------------------------------------------


def test_volley_weak_less_damage_subtracts_a_d6_and_ammo_costs_one():
    target = monster(hp=10, armor=0)
    out = run("volley", pc_a(), [3, 2], target=target)  # 5+2 = 7
    assert out.band == "7-9" and {o.key for o in out.options} == {"danger", "less_damage", "ammo"}
    less = choose(out, ["less_damage"], [8, 3])
    assert less.details["damage"]["total"] == 5 and less.details["target"]["hp"] == 5
    ammo = choose(out, ["ammo"], [8])
    assert ammo.state["ammo"] == 2 and ammo.details["target"]["hp"] == 2


def test_volley_without_ammo_cannot_pick_the_ammo_option():
    out = run("volley", pc_a(ammo=0), [3, 2])
    assert "ammo" not in {o.key for o in out.options}
    with pytest.raises(RulesError):
        choose(out, ["ammo"], [5])


def test_volley_strong_deals_damage_at_once():
    out = run("volley", pc_a(), [5, 5, 4], target=monster(hp=10, armor=1))
    assert out.band == "10+" and not out.pending
    assert out.details["target"]["hp"] == 7


def test_carouse_spends_coins_and_extra_hundreds_add_one_each():
    out = run("carouse", pc_a(), [3, 3], coins_spent=300)
    assert out.modifier == 2 and out.total == 8
    assert out.state["coins"] == 200
    assert out.pick == 1
    strong = run("carouse", pc_a(), [5, 4], coins_spent=200)
    assert strong.band == "10+" and strong.pick == 3
    done = choose(strong, ["befriend", "rumours", "unharmed"])
    assert done.details["choices"] == ["befriend", "rumours", "unharmed"]
    with pytest.raises(RulesError):
        choose(strong, ["befriend", "befriend", "rumours"])


def test_carouse_miss_still_chooses_one_and_marks_xp():
    out = run("carouse", pc_a(), [1, 2])
    assert out.band == "6-" and out.pick == 1
    assert out.flags["something_goes_wrong"] is True and out.state["xp"] == 1


def test_carouse_needs_the_coins():
    with pytest.raises(RulesError):
        run("carouse", pc_a(coins=99), [3, 3])


def test_last_breath_ignores_all_bonuses_and_keeps_forward():
    state = pc_a(
        hp=0,
        status="dying",
        forward=[{"value": 3, "move": "", "note": ""}],
        ongoing=[{"value": 2, "move": "", "note": ""}],
        weight=14,
    )
    out = run("last_breath", state, [3, 3])
    assert out.modifier == 0 and out.total == 6 and out.band == "6-"
    assert out.state["status"] == "deaths_mark" and out.state["xp"] == 1
    assert out.state["forward"] == state["forward"]


def test_last_breath_weak_accept_stabilizes_refuse_dies():
    out = run("last_breath", pc_a(hp=0, status="dying"), [4, 4])
    assert out.band == "7-9" and out.chooser == "player"
    assert choose(out, ["accept"]).state["status"] == "stabilized"
    assert choose(out, ["refuse"]).state["status"] == "dead"


def test_last_breath_only_when_dying():
    with pytest.raises(RulesError):
        run("last_breath", pc_a(), [4, 4])


def test_make_camp_eats_a_ration_and_heals_half_max_rounded_down():
    out = run("make_camp", pc_a(hp=2, max_hp=17), [])
    assert out.state["rations"] == 2 and out.state["hp"] == 2 + 8
    full = run("make_camp", pc_a(hp=15), [])
    assert full.state["hp"] == 18
    with pytest.raises(RulesError):
        run("make_camp", pc_a(rations=0), [])


def test_take_watch_strong_gives_forward():
    out = run("take_watch", pc_a(), [4, 5])
    assert out.band == "10+" and out.details["camp_forward"] == 1
    assert [f["value"] for f in out.state["forward"]] == [1]


def test_perilous_journey_roles():
    out = run("perilous_journey", pc_a(), [5, 4], role="quartermaster")
    assert out.flags["rations_saved"] == 1
    scout = run("perilous_journey", pc_a(), [5, 4], role="scout")
    assert scout.flags["spots_danger_first"] is True
    with pytest.raises(RulesError):
        run("perilous_journey", pc_a(), [5, 4], role="scout", party_roles=["scout"])
    with pytest.raises(RulesError) as err:
        run("perilous_journey", pc_a(), [5, 4])
    assert "role" in err.value.errors


def test_supply_market_price_without_roll_and_unusual_roll():
    plain = run("supply", pc_a(), [], price=40)
    assert plain.band is None and plain.state["coins"] == 460
    odd = run("supply", pc_a(), [5, 5], unusual=True, price=40)
    assert odd.band == "10+" and odd.state["coins"] == 460
    weak = run("supply", pc_a(), [4, 4], unusual=True, price=40)
    assert weak.flags["gm_lists_options"] is True and weak.state["coins"] == 500


def test_outstanding_warrants_weak_referee_picks_a_complication():
    out = run("outstanding_warrants", pc_a(), [4, 4])
    assert out.band == "7-9" and out.chooser == "referee" and out.flags["recognised"]
    done = choose(out, ["bounty"])
    assert done.details["choices"] == ["bounty"]
    miss = run("outstanding_warrants", pc_a(), [1, 1])
    assert miss.flags["recognised"] is False


def test_bolster_under_a_week_gives_nothing():
    assert run("bolster", pc_a(), [], days=6).state["preparation"] == 0
    assert run("bolster", pc_a(), [], days=7).state["preparation"] == 1
    assert run("bolster", pc_a(), [], days=30).state["preparation"] == 3


def test_preparation_needs_points():
    with pytest.raises(RulesError):
        run("parley", pc_a(), [3, 3], preparation=1)


def test_level_up_needs_xp_and_a_stat_and_caps_at_18():
    with pytest.raises(RulesError):
        run("level_up", pc_a(xp=7), [], stat="str")
    with pytest.raises(RulesError) as err:
        run("level_up", pc_a(xp=8, stats={**pc_a()["stats"], "dex": 18}), [], stat="dex")
    assert "stat" in err.value.errors
    with pytest.raises(RulesError) as err:
        run("level_up", pc_a(xp=8, class_name="Маг"), [], stat="int")
    assert "new_spell" in err.value.errors
    wiz = run("level_up", pc_a(xp=9, class_name="Маг"), [], stat="int", new_spell="Свет")
    assert wiz.state["spellbook"] == ["Свет"] and wiz.state["xp"] == 1


def test_end_of_session_bond_needs_agreement():
    state = pc_a(bonds=[{"with": "B", "text": "x"}])
    out = run("end_of_session", state, [], resolve_bond=0, bond_agreed=False)
    assert out.state["xp"] == 0 and out.state["bonds"] == state["bonds"]


# --- damage -------------------------------------------------------------------------------


def test_several_attackers_seed_l329_warlock_and_three_goblins():
    attackers = [{"damage": "к10+1", "ignores_armor": True}] + [{"damage": "к6"}] * 3
    out = run("take_damage", pc_a(hp=18, armor=2), [3, 8, 1, 5], attackers=attackers)
    assert out.details["attackers"]["expression"] == "к10+1"
    assert [r["total"] for r in out.details["attackers"]["rolls"]] == [4, 9, 2, 6]
    assert out.details["final"] == 9  # ignores armor
    assert out.state["hp"] == 9


def test_several_attackers_same_die_takes_the_higher_bonus():
    attackers = [{"damage": "к6"}, {"damage": "к6+2"}]
    out = run("take_damage", pc_a(armor=0), [1, 2], attackers=attackers)
    assert out.details["attackers"]["expression"] == "к6+2"
    assert out.details["final"] == 4


def test_take_damage_needs_exactly_one_source():
    with pytest.raises(RulesError):
        run("take_damage", pc_a(), [])
    with pytest.raises(RulesError):
        run("take_damage", pc_a(), [3], amount=2, damage="к6")


def test_deal_damage_uses_class_die_and_weapon_bonus():
    out = run("deal_damage", pc_a(weapon_bonus=1), [6], target=monster(hp=10, armor=2))
    assert out.details["damage"]["expression"] == "к10+1"
    assert out.details["amount"] == 7 and out.details["target"]["hp"] == 5
    fixed = run("deal_damage", pc_a(), [], amount=3, target=monster(hp=10, armor=2))
    assert fixed.details["target"]["hp"] == 9


def test_heal_caps_at_max_and_wakes_a_stabilized_pc():
    out = run("heal", pc_a(hp=0, status="stabilized"), [], amount=40)
    assert out.state["hp"] == 18 and out.state["status"] == "alive"
    with pytest.raises(RulesError):
        run("heal", pc_a(hp=0, status="dead"), [], full=True)


def test_spend_hold_halve_settings():
    state = run("defend", pc_a(), [6, 4], protecting="B").state
    out = run("spend_hold", state, [], for_move="defend", option="halve", damage=7, armor=2)
    assert out.details["damage"] == 2  # (7-2)//2
    up = run(
        "spend_hold",
        state,
        [],
        for_move="defend",
        option="halve",
        damage=7,
        armor=2,
        settings={"defend_halve_rounding": "up", "defend_halve_order": "before_armor"},
    )
    assert up.details["damage"] == 2  # ceil(7/2) - 2
    down_before = run(
        "spend_hold",
        state,
        [],
        for_move="defend",
        option="halve",
        damage=8,
        armor=1,
        settings={"defend_halve_order": "before_armor"},
    )
    assert down_before.details["damage"] == 3


def test_new_defend_replaces_old_hold():
    state = run("defend", pc_a(), [6, 4], protecting="B").state
    again = run("defend", state, [3, 4], protecting="C")
    assert again.state["hold"] == [{"move": "defend", "amount": 1, "target": "C"}]


# --- forward, ongoing, settings ----------------------------------------------------------


def test_conditional_forward_only_for_its_move_and_ongoing_stays():
    state = pc_a(
        forward=[{"value": 1, "move": "hack_and_slash", "note": ""}],
        ongoing=[
            {"value": 1, "move": "volley", "note": "пока не развеете"},
            {"value": -1, "move": "", "note": "проклятие"},
        ],
    )
    lore = run("spout_lore", state, [4, 4])
    assert lore.details["modifiers"] == {
        "int": -1,
        "forward": 0,
        "ongoing": -1,
        "encumbrance": 0,
        "preparation": 0,
        "aid": 0,
        "bonus": 0,
    }
    assert lore.state["forward"] == state["forward"]
    shot = run("volley", state, [5, 5, 3])
    assert shot.details["modifiers"]["ongoing"] == 0
    hack = run("hack_and_slash", state, [4, 4, 2])
    assert hack.details["modifiers"]["forward"] == 1 and hack.state["forward"] == []
    assert hack.state["ongoing"] == state["ongoing"]


def test_add_and_end_ongoing_actions():
    out = run("add_ongoing", pc_a(), [], value=1, for_move="volley", note="пока горит")
    assert out.state["ongoing"] == [{"value": 1, "move": "volley", "note": "пока горит"}]
    assert run("end_ongoing", out.state, [], index=0).state["ongoing"] == []
    fwd = run("add_forward", pc_a(), [], value=-1)
    assert fwd.state["forward"] == [{"value": -1, "move": "", "note": ""}]


def test_stat_table_setting_changes_modifiers():
    table = [0] * 17 + [5]
    out = run("hack_and_slash", pc_a(), [1, 4], settings={"stat_modifiers": table})
    assert out.modifier == 0
    with pytest.raises(RulesError) as err:
        RS.clean_settings({"stat_modifiers": [0] * 17})
    assert "settings.stat_modifiers" in err.value.errors


def test_encumbrance_drop_penalty_setting_and_auto_fail_xp_setting():
    state = pc_a(weight=15)
    plain = run("spout_lore", state, [4, 4], overload="drop", drop_weight=3)
    assert plain.details["modifiers"]["encumbrance"] == 0 and plain.state["weight"] == 12
    published = run(
        "spout_lore",
        state,
        [4, 4],
        overload="drop",
        drop_weight=3,
        settings={"encumbrance_drop_penalty": True},
    )
    assert published.details["modifiers"]["encumbrance"] == -1
    with pytest.raises(RulesError) as err:
        run("spout_lore", state, [4, 4], overload="drop", drop_weight=0)
    assert "drop_weight" in err.value.errors
    xp = run("spout_lore", state, [], overload="auto_fail", settings={"auto_fail_marks_xp": True})
    assert xp.band == "6-" and xp.state["xp"] == 1


def test_aid_without_bonds_is_plus_zero_unless_the_setting_forbids():
    out = run("aid_or_interfere", pc_a(), [4, 4], target="B")
    assert out.modifier == 0
    with pytest.raises(RulesError):
        run("aid_or_interfere", pc_a(), [4, 4], target="B", settings={"aid_requires_bond": True})


def test_aid_bonus_and_other_bonuses_are_added():
    out = run("spout_lore", pc_a(), [3, 3], aid=1, bonus=2)
    assert out.total == 6 - 1 + 1 + 2


def test_multiclass_move_level_strictly_lower():
    with pytest.raises(RulesError):
        run("multiclass", pc_a(level=2), [], move_name="Сотворить заклинание", move_level=2)
    out = run("multiclass", pc_a(level=2), [], move_name="Сотворить заклинание", move_level=1)
    assert out.state["moves"][-1]["level_taken"] == 2
    assert out.details["effective_level"] == 1
    lax = run(
        "multiclass",
        pc_a(level=2),
        [],
        move_name="x",
        move_level=2,
        settings={"multiclass_strictly_lower": False},
    )
    assert lax.state["moves"][-1]["name"] == "x"


# --- choices ------------------------------------------------------------------------------


def test_apply_choice_rejects_wrong_keys_counts_and_finished_outcomes():
    out = run("discern_realities", pc_a(), [3, 3])
    with pytest.raises(RulesError):
        choose(out, ["nope"])
    with pytest.raises(RulesError):
        choose(out, [])
    done = choose(out, ["recent"])
    with pytest.raises(RulesError):
        choose(done, ["recent"])
    with pytest.raises(RulesError):
        RS.apply_choice(Outcome(move="spout_lore"), ["x"])


def test_a_choice_that_rolls_needs_dice():
    out = run("hack_and_slash", pc_a(), [5, 5])
    with pytest.raises(RulesError):
        RS.apply_choice(out, ["avoid"])


def test_pending_outcome_survives_json_roundtrip():
    out = run("hack_and_slash", pc_a(), [5, 5], target=monster())
    data = json.loads(json.dumps(out.as_dict(), ensure_ascii=False))
    data.pop("pending")
    data["options"] = [Option(**o) for o in data["options"]]
    data["text"] = Text(**data["text"])
    with ScriptedDice([4]) as dice:
        done = RS.apply_choice(Outcome(**data), ["avoid"], dice=dice)
    assert done.details["target"]["hp"] == 10 - 3


# --- odds -----------------------------------------------------------------------------------


def test_odds_include_forward_ongoing_debility_and_encumbrance():
    state = pc_a(
        debilities={"weak": True},
        forward=[{"value": 2, "move": "", "note": ""}],
        ongoing=[{"value": 1, "move": "hack_and_slash", "note": ""}],
        weight=13,
    )
    odds = RS.odds("hack_and_slash", state)
    assert odds == band_odds(0 + 2 + 1 - 1)
    assert odds["10+"] == pytest.approx(float(Fraction(15, 36)))  # 2d6 >= 8


def test_odds_last_breath_auto_fail_and_no_roll():
    assert RS.odds(
        "last_breath", pc_a(forward=[{"value": 3, "move": "", "note": ""}])
    ) == band_odds(0)
    assert RS.odds("spout_lore", pc_a(weight=20), overload="auto_fail") == {
        "10+": 0.0,
        "7-9": 0.0,
        "6-": 1.0,
    }
    assert RS.odds("spout_lore", pc_a(weight=20)) == band_odds(-1 - 1)
    assert RS.odds("make_camp", pc_a()) == {}
    assert RS.odds("supply", pc_a()) == {}
    assert RS.odds("carouse", pc_a(), coins_spent=450) == band_odds(3)


def test_take_damage_from_an_npc_block_uses_its_damage_and_tag():
    warlock = monster(damage="к10+1", ignores_armor=True)
    out = run("take_damage", pc_a(armor=3), [8], attacker=warlock)
    assert out.details["roll"]["total"] == 9 and out.details["final"] == 9
    assert out.state["hp"] == 9


def test_lasting_con_change_moves_hp_but_a_temporary_one_does_not():
    lasting = run("change_stat", pc_a(), [], stat="con", score=12)
    assert (lasting.state["max_hp"], lasting.state["hp"]) == (20, 20)
    temporary = run("change_stat", pc_a(), [], stat="con", score=12, temporary=True)
    assert (temporary.state["max_hp"], temporary.state["hp"]) == (18, 18)
    lower = run("change_stat", pc_a(hp=5), [], stat="con", score=6)
    assert (lower.state["max_hp"], lower.state["hp"]) == (14, 1)


def test_cannot_drop_more_weight_than_carried():
    with pytest.raises(RulesError) as err:
        run("spout_lore", pc_a(weight=15), [4, 4], overload="drop", drop_weight=16)
    assert "drop_weight" in err.value.errors
