"""Every acceptance case of ``shared/rules/dungeon_world.md`` §9, with the exact dice faces.

Test names carry the case number. "(rec)" cases use the digest's recommended readings.
"""

from __future__ import annotations

import pytest
from dw_helpers import RS, choose, monster, pc_a, run

from systems.core.dice import ScriptedDice
from systems.core.ruleset import RulesError
from systems.dungeon_world.damage import roll_damage


def test_case_01_seed_l21_str_plus_1_faces_1_4_is_a_miss_and_marks_xp():
    out = run("hack_and_slash", pc_a(), [1, 4])
    assert out.faces == [1, 4]
    assert out.modifier == 1
    assert out.total == 6
    assert out.band == "6-"
    assert out.state["xp"] == 1
    assert out.flags["xp_marked"] is True
    assert "damage" not in out.details  # no damage on a miss: the GM says what happens


def test_case_02_hack_and_slash_strong_hit_deals_d10_minus_armor_no_counter():
    orc = monster(hp=10, armor=1)
    out = run("hack_and_slash", pc_a(), [5, 4], target=orc)
    assert (out.total, out.band) == (10, "10+")
    assert out.pending and out.pick == 1 and out.chooser == "player"
    assert {o.key for o in out.options} == {"avoid", "extra_damage"}
    done = choose(out, ["avoid"], [7])
    assert done.details["damage"]["total"] == 7
    assert done.details["dealt"] == 6
    assert done.details["target"]["hp"] == 4
    assert done.flags["counter_attack"] is False
    assert "counter_attack" not in done.details
    assert done.state["hp"] == 18
    assert done.state["xp"] == 0


def test_case_02_strong_hit_with_extra_d6_takes_the_counter_attack():
    orc = monster(hp=20, armor=1, damage="к6")
    out = run("hack_and_slash", pc_a(), [5, 4, 7, 3, 4], target=orc, choices=["extra_damage"])
    assert out.details["damage"]["total"] == 10  # к10 7 + 1к6 3
    assert out.details["target"]["hp"] == 20 - 9
    assert out.flags["counter_attack"] is True
    assert out.state["hp"] == 18 - 3  # к6 = 4 minus A's armor 1


def test_case_04_hack_and_slash_weak_hit_monster_attacks_back():
    orc = monster(hp=10, armor=1, damage="к6")
    out = run("hack_and_slash", pc_a(), [3, 3, 5, 6], target=orc)
    assert (out.total, out.band) == (7, "7-9")
    assert out.details["target"]["hp"] == 10 - 4
    assert out.details["counter_attack"]["roll"]["total"] == 6
    assert out.details["counter_attack"]["final"] == 5
    assert out.state["hp"] == 13


@pytest.mark.parametrize(
    ("faces", "band", "xp"),
    [([4, 4, 1], "7-9", 0), ([5, 4], "10+", 0), ([3, 2], "6-", 1)],
)
def test_case_05_band_edges_str(faces, band, xp):
    out = run("hack_and_slash", pc_a(), faces)
    assert out.band == band
    assert out.total == sum(faces[:2]) + 1
    assert out.state["xp"] == xp


@pytest.mark.parametrize(("faces", "total", "band"), [([6, 6], 11, "10+"), ([1, 1], 1, "6-")])
def test_case_05_band_edges_int_minus_1(faces, total, band):
    out = run("spout_lore", pc_a(), faces)
    assert out.modifier == -1
    assert (out.total, out.band) == (total, band)


def test_case_07_defy_danger_by_agility_uses_dex():
    out = run("defy_danger", pc_a(), [1, 4], approach="agility")
    assert (out.modifier, out.total, out.band) == (2, 7, "7-9")
    assert out.flags["gm_may_offer_cost"] is True


def test_case_07_defy_danger_by_brute_force_uses_str():
    out = run("defy_danger", pc_a(), [1, 4], approach="force")
    assert (out.modifier, out.total, out.band) == (1, 6, "6-")
    assert out.state["xp"] == 1


@pytest.mark.parametrize(("faces", "hold", "xp"), [([6, 4], 3, 0), ([3, 4], 1, 0), ([3, 3], 0, 1)])
def test_case_08_defend_hold_by_band(faces, hold, xp):
    out = run("defend", pc_a(), faces, protecting="B")
    held = [h["amount"] for h in out.state["hold"] if h["move"] == "defend"]
    assert held == ([hold] if hold else [])
    assert out.state["xp"] == xp


def test_case_08_spend_defend_hold_damage_equal_to_level_rec():
    state = run("defend", pc_a(), [6, 4], protecting="B").state
    attacker = monster(hp=10, armor=1)
    out = run("spend_hold", state, [], for_move="defend", option="level_damage", attacker=attacker)
    assert out.details["amount"] == 1  # level 1, before the attacker's armor
    assert out.details["dealt"] == 0  # armor 1 applies (digest §8.4)
    assert out.state["hold"] == [{"move": "defend", "amount": 2, "target": "B"}]
    unarmored = run(
        "spend_hold",
        state,
        [],
        for_move="defend",
        option="level_damage",
        attacker=monster(hp=10, armor=0),
    )
    assert unarmored.details["target"]["hp"] == 9


def test_case_08_defend_hold_cannot_be_spent_on_anything_else():
    state = run("defend", pc_a(), [6, 4], protecting="B").state
    with pytest.raises(RulesError) as err:
        run("spend_hold", state, [], for_move="defend", option="recent")
    assert "option" in err.value.errors
    with pytest.raises(RulesError) as err:
        run("spend_hold", state, [], for_move="discern_realities", option="halve")
    assert "for_move" in err.value.errors


def test_case_10_discern_realities_strong_three_questions_and_forward():
    out = run("discern_realities", pc_a(), [5, 4])
    assert (out.total, out.band, out.pick) == (10, "10+", 3)
    assert len(out.options) == 6
    done = choose(out, ["recent", "beware", "in_charge"])
    assert done.details["questions"] == ["recent", "beware", "in_charge"]
    assert [f["value"] for f in done.state["forward"]] == [1]
    nxt = run("defy_danger", done.state, [2, 2], approach="force")
    assert nxt.modifier == 1 + 1 and nxt.state["forward"] == []


def test_case_10_discern_realities_weak_one_question():
    out = run("discern_realities", pc_a(), [3, 3])
    assert (out.total, out.band, out.pick) == (7, "7-9", 1)
    with pytest.raises(RulesError):
        choose(out, ["recent", "beware"])


def test_case_10_discern_realities_miss_no_questions_and_xp():
    out = run("discern_realities", pc_a(), [2, 3])
    assert (out.total, out.band) == (6, "6-")
    assert not out.pending
    assert out.state["xp"] == 1


def test_case_11_forward_is_used_once():
    state = pc_a(forward=[{"value": 1, "move": "", "note": ""}])
    first = run("defy_danger", state, [2, 2], approach="agility")
    assert (first.total, first.band) == (7, "7-9")
    assert first.details["modifiers"]["forward"] == 1
    assert first.state["forward"] == []
    second = run("defy_danger", first.state, [2, 2], approach="agility")
    assert (second.total, second.band) == (6, "6-")


def test_case_13_encumbrance_at_load_no_penalty():
    out = run("spout_lore", pc_a(weight=12), [5, 5])
    assert (out.total, out.band) == (9, "7-9")
    assert out.details["modifiers"]["encumbrance"] == 0


def test_case_13_encumbrance_up_to_load_plus_2_is_minus_1():
    out = run("hack_and_slash", pc_a(weight=14), [5, 4, 3])
    assert (out.total, out.band) == (9, "7-9")
    assert out.details["modifiers"]["encumbrance"] == -1


def test_case_13_encumbrance_over_load_plus_2_forces_a_choice():
    state = pc_a(weight=15)
    out = run("hack_and_slash", state, [])
    assert out.band is None and out.faces == []
    assert out.chooser == "player" and out.pick == 1
    assert {o.key for o in out.options} == {"drop", "auto_fail"}
    failed = choose(out, ["auto_fail"])
    assert failed.band == "6-" and failed.total is None and failed.faces == []
    assert failed.flags["auto_fail"] is True
    assert failed.state["xp"] == 0  # no roll, no XP (digest §8.7)
    dropped = choose(out, ["drop"], [5, 4, 2])
    assert dropped.state["weight"] == 14
    assert (dropped.total, dropped.band) == (9, "7-9")


def test_case_14_damage_to_zero_not_below_and_last_breath_at_once():
    out = run("take_damage", pc_a(hp=3), [], amount=9)
    assert out.state["hp"] == 0
    assert out.details["final"] == 8
    assert out.flags["last_breath"] is True
    assert out.state["status"] == "dying"
    with pytest.raises(RulesError):
        run("spout_lore", out.state, [3, 3])  # Last Breath comes first
    breath = run("last_breath", out.state, [6, 5])
    assert breath.band == "10+" and breath.state["status"] == "alive"


def test_case_16_stabilized_takes_damage_last_breath_again():
    state = pc_a(hp=0, status="stabilized")
    out = run("take_damage", state, [4], damage="к6")
    assert out.details["final"] == 3
    assert out.flags["last_breath"] is True
    assert out.state["status"] == "dying"


def test_case_16_stabilized_damage_absorbed_by_armor_no_last_breath_rec():
    state = pc_a(hp=0, status="stabilized")
    out = run("take_damage", state, [], amount=1)
    assert out.details["final"] == 0
    assert out.flags["last_breath"] is False
    assert out.state["status"] == "stabilized"


def test_case_17_armor_4_absorbs_3():
    out = run("take_damage", pc_a(armor=4), [], amount=3)
    assert out.details["final"] == 0
    assert out.state["hp"] == 18


def test_case_17_poison_ignores_armor():
    out = run("take_damage", pc_a(armor=2), [4], damage="к6", ignores_armor=True)
    assert out.details["final"] == 4
    assert out.state["hp"] == 14


def test_case_17_full_cover_stacks_with_armor_rec():
    out = run("take_damage", pc_a(armor=1), [5], damage="к8", cover="full")
    assert out.details["armor"] == 3
    assert out.details["final"] == 2
    assert out.state["hp"] == 16


@pytest.mark.parametrize(
    ("expression", "faces", "total"),
    [
        ("м[2к6]", [5, 2], 2),
        ("б[3к10]", [4, 9, 7], 9),
        ("к4-1к6", [1, 4], 0),
        ("к10+1к4", [6, 3], 9),
    ],
)
def test_case_19_damage_expressions(expression, faces, total):
    with ScriptedDice(faces) as dice:
        assert roll_damage(expression, dice).total == total
    out = run("npc_take_damage", monster(hp=20, armor=0), faces, damage=expression)
    assert out.state["hp"] == 20 - total


def test_case_20_stun_costs_an_npc_no_hp():
    out = run("npc_take_damage", monster(hp=7, max_hp=7), [], amount=5, stun=True)
    assert out.state["hp"] == 7


def test_case_20_stun_on_a_pc_prompts_defy_danger_rec():
    out = run("take_damage", pc_a(), [], amount=5, stun=True)
    assert out.state["hp"] == 18
    assert out.flags["defy_danger"] is True
    assert out.details["defy_danger"] == "stunned"


def test_case_22_recover_one_day_heals_all_hp():
    out = run("recover", pc_a(hp=4), [], days=1)
    assert out.state["hp"] == 18


def test_case_22_recover_three_days_heals_one_debility():
    state = pc_a(debilities={"weak": True, "sick": True})
    out = run("recover", state, [], days=3)
    assert out.pending and out.pick == 1 and out.chooser == "player"
    done = choose(out, ["sick"])
    assert done.state["debilities"]["sick"] is False
    assert done.state["debilities"]["weak"] is True
    short = run("recover", state, [], days=2)
    assert short.state["debilities"] == state["debilities"]


@pytest.mark.parametrize(("days", "healed"), [(2, 1), (4, 2)])
def test_case_22_recover_with_a_healer_rec(days, healed):
    state = pc_a(debilities={"weak": True, "sick": True, "scarred": True})
    out = run("recover", state, [], days=days, healer=True)
    assert out.pick == healed
    picked = [o.key for o in out.options][:healed]
    done = choose(out, picked)
    assert sum(done.state["debilities"].values()) == 3 - healed


def test_case_23_weak_lowers_str_and_does_not_stack():
    weak = run("take_debility", pc_a(), [], debility="weak").state
    assert RS.modifier(pc_a(), "str") == 1
    assert RS.modifier(weak, "str") == 0
    again = run("take_debility", weak, [], debility="weak")
    assert again.flags["already_had"] is True
    assert RS.modifier(again.state, "str") == 0


def test_case_23_sick_lowers_con_but_not_max_hp():
    sick = run("take_debility", pc_a(), [], debility="sick").state
    assert RS.modifier(sick, "con") == -1
    assert sick["max_hp"] == 18 and sick["stats"]["con"] == 10


def test_case_25_level_10_xp_17_chooses_instead_of_level_11():
    state = pc_a(level=10, xp=17)
    out = run("level_up", state, [], stat="str")
    assert out.pending and out.chooser == "player"
    assert {o.key for o in out.options} == {"retire", "apprentice", "change_class"}
    assert out.state["level"] == 10
    done = choose(out, ["apprentice"])
    assert done.state["level"] == 10 and done.state["career"] == "apprentice"
    no_more = run("mark_xp", done.state, [])
    assert no_more.state["xp"] == done.state["xp"]
    with pytest.raises(RulesError):
        run("level_up", pc_a(level=10, xp=16), [], stat="str")


def _with_bonds(n: int) -> dict:
    return pc_a(bonds=[{"with": "B", "text": f"bond {i}"} for i in range(n)])


def test_case_26_aid_strong_plus_1_or_minus_2():
    out = run("aid_or_interfere", _with_bonds(2), [4, 4], target="B")
    assert (out.modifier, out.total, out.band) == (2, 10, "10+")
    assert out.flags["exposed"] is False
    assert choose(out, ["aid"]).details["target_modifier"] == 1
    assert choose(out, ["interfere"]).details["target_modifier"] == -2


def test_case_26_aid_weak_exposes_the_helper():
    out = run("aid_or_interfere", _with_bonds(2), [2, 3], target="B", choices=["aid"])
    assert (out.total, out.band) == (7, "7-9")
    assert out.flags["exposed"] is True
    assert out.details["target_modifier"] == 1


def test_case_26_aid_miss_marks_xp():
    out = run("aid_or_interfere", _with_bonds(2), [1, 2], target="B")
    assert (out.total, out.band) == (5, "6-")
    assert out.state["xp"] == 1 and not out.pending


def test_case_28_recruit_miss_and_sending_away_gives_minus_1_next_time():
    out = run("recruit", pc_a(), [1, 2], generous_pay=True, loot_share=True, reputation=True)
    assert (out.modifier, out.total, out.band) == (3, 6, "6-")
    assert {o.key for o in out.options} == {"take", "send_away"}
    sent = choose(out, ["send_away"])
    nxt = run("recruit", sent.state, [4, 4])
    assert nxt.details["modifiers"]["forward"] == -1
    assert (nxt.total, nxt.band) == (7, "7-9")
    assert nxt.state["forward"] == []
    other = run("spout_lore", sent.state, [4, 4])
    assert other.details["modifiers"]["forward"] == 0  # bound to Recruit only


def test_case_28_recruit_strong_refusing_some_costs_nothing():
    out = run("recruit", pc_a(), [5, 5], generous_pay=True)
    assert out.band == "10+" and not out.pending
    assert out.state["forward"] == []


@pytest.mark.parametrize(("days", "points"), [(10, 1), (35, 3)])
def test_case_29_bolster_points(days, points):
    assert run("bolster", pc_a(), [], days=days).state["preparation"] == points


def test_case_29_bolster_spend_two_rejected_and_one_adds_1():
    state = pc_a(preparation=3)
    with pytest.raises(RulesError) as err:
        run("parley", state, [3, 3], preparation=2)
    assert "preparation" in err.value.errors
    out = run("parley", state, [3, 3], preparation=1)
    assert (out.total, out.band) == (7, "7-9")
    assert out.state["preparation"] == 2


def test_case_31_end_of_session_xp():
    state = _with_bonds(1)
    out = run(
        "end_of_session",
        state,
        [],
        resolve_bond=0,
        bond_agreed=True,
        new_bond_with="C",
        new_bond_text="new",
        alignment_fulfilled=True,
        learned=True,
        defeated=True,
    )
    assert out.state["xp"] == 4
    assert out.details["party_xp"] == 2
    assert out.state["bonds"] == [{"with": "C", "text": "new"}]
    other = run("end_of_session", pc_a(name="B"), [], learned=True, defeated=True)
    assert other.state["xp"] == 2


@pytest.mark.parametrize(
    ("score", "mod"),
    [
        (3, -3),
        (4, -2),
        (5, -2),
        (6, -1),
        (8, -1),
        (9, 0),
        (12, 0),
        (13, 1),
        (15, 1),
        (16, 2),
        (17, 2),
        (18, 3),
    ],
)
def test_case_32_stat_table_edges(score, mod):
    assert RS.modifier(pc_a(stats={**pc_a()["stats"], "str": score}), "str") == mod


def test_case_32_raising_12_to_13_changes_the_modifier():
    state = pc_a(xp=8, stats={**pc_a()["stats"], "str": 12})
    assert RS.modifier(state, "str") == 0
    up = run("level_up", state, [], stat="str")
    assert up.state["stats"]["str"] == 13 and up.state["level"] == 2 and up.state["xp"] == 0
    assert RS.modifier(up.state, "str") == 1


def test_case_32_con_15_to_16_adds_max_and_current_hp():
    state = pc_a(xp=8, stats={**pc_a()["stats"], "con": 15}, hp=20, max_hp=23)
    up = run("level_up", state, [], stat="con")
    assert (up.state["max_hp"], up.state["hp"]) == (24, 21)
