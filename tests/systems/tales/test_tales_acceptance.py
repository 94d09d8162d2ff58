"""Every acceptance case of ``shared/rules/tales.md`` §10, with the exact dice faces.

Test names carry the case number; the digest numbers its cases with gaps (22 cases)."""

from __future__ import annotations

import pytest
from tales_helpers import RS, choose, pc, run, skill, weapon, wizard_at_picks

from systems.core.dice import ScriptedDice
from systems.core.ruleset import RulesError
from systems.tales.data import WEAPONS_BY_KEY
from systems.tales.rules import AttackPlan, roll_weapon_damage


def test_case_01_forcing_a_door_str_12():
    ok = run("check", pc(str_=12), [5, 7], stat="str")
    assert (ok.total, ok.band, ok.modifier) == (12, "success", 12)
    bad = run("check", pc(str_=12), [6, 7], stat="str")
    assert (bad.total, bad.band) == (13, "failure")


def test_case_02_hard_check_mind_14():
    ok = run("check", pc(mind=14), [2, 4, 8], stat="mind", difficulty="hard")
    assert (ok.total, ok.band) == (14, "success")
    assert ok.details["check"]["dice"] == 3
    bad = run("check", pc(mind=14), [3, 4, 8], stat="mind", difficulty="hard")
    assert (bad.total, bad.band) == (15, "failure")


def test_case_04_knight_with_dex_14_hits_on_10():
    knight = pc(dex=14)
    out = run("attack", knight, [4, 6, 2], weapon="unarmed")
    assert (out.total, out.band, out.modifier) == (10, "success", 14)
    assert out.flags["hit"] is True
    assert out.details["damage"]["final"] == 2  # the hit rolls damage (L112): d3 = 2


def test_case_05_combat_skill_adds_to_dex():
    fighter = pc(str_=12, dex=14, skills=[skill("combat_melee")], weapons=[weapon("ordinary")])
    out = run("attack", fighter, [7, 8, 3], weapon="ordinary")
    assert out.modifier == 15
    assert out.details["plan"]["parts"]["skill"] == 1
    assert (out.total, out.band) == (15, "success")
    assert out.details["damage"]["rolled"] == 5  # d6+2


def test_case_07_plate_caps_dex_and_movement():
    knight = pc(str_=14, dex=16, armour="plate")
    assert RS.derived(knight)["stats"]["dex"] == 13
    assert RS.derived(knight)["movement"] == 6
    out = run("attack", knight, [7, 7], weapon="unarmed")
    assert (out.total, out.modifier, out.band) == (14, 13, "failure")


def test_case_08_ordinary_weapon_against_mail_deals_at_least_1():
    attacker = pc(str_=12, dex=14, weapons=[weapon("ordinary")])
    target = pc(armour="mail")
    out = run("attack", attacker, [2, 3], weapon="ordinary", target=target)
    assert out.pending and {o.key for o in out.options} == {"dodge", "counter_attack", "none"}
    done = choose(out, ["none"], [1])
    assert done.details["damage"]["rolled"] == 3
    assert done.details["damage"]["armour"] == 2
    assert done.details["damage"]["final"] == 1
    assert done.details["target"]["hp"] == target["hp"] - 1
    # The same through the damage helper alone.
    plan = AttackPlan(WEAPONS_BY_KEY["ordinary"], "melee", 14, {}, "check", None, damage="1d6+2")
    assert roll_weapon_damage(plan, ScriptedDice([1]), 2)["final"] == 1


def test_case_10_military_skill_adds_damage():
    attacker = pc(
        str_=12, dex=14, skills=[skill("military_melee", 2)], weapons=[weapon("ordinary")]
    )
    target = pc(armour="leather")
    out = run("attack", attacker, [2, 3], weapon="ordinary", target=target)
    done = choose(out, ["none"], [4])
    dmg = done.details["damage"]
    assert (dmg["rolled"], dmg["military"], dmg["raw"], dmg["final"]) == (6, 2, 8, 7)


def test_case_11_zero_hp_is_death():
    out = run("take_damage", pc(hp=5), [], amount=5)
    assert out.state["hp"] == 0
    assert out.state["status"] == "dead"
    assert out.flags["died"] is True


def test_case_13_opposed_check_bust_and_repeat():
    a = pc(str_=12)
    b = pc(str_=15)
    out = run("opposed_check", a, [5, 6, 4, 5], stat="str", target=b)
    assert out.details["opposed"]["actor"]["total"] == 11
    assert out.details["opposed"]["opponent"]["total"] == 9
    assert (out.band, out.details["winner"]) == ("success", "actor")
    both = run("opposed_check", a, [6, 7, 8, 8], stat="str", target=b)
    assert both.band == "repeat" and both.details["winner"] is None
    assert both.details["opposed"]["reason"] == "both_bust"
    assert both.pending and [o.key for o in both.options] == ["repeat"]
    again = choose(both, ["repeat"], [5, 6, 4, 5])
    assert again.band == "success" and len(again.details["rounds"]) == 2


def test_case_13_seed_example_knight_and_demon():
    """L130: the knight (Str 18) rolls 3d10 = 14, the demon (Str 16) rolls 2d10 = 20."""
    out = run(
        "opposed_check",
        pc(str_=18),
        [4, 5, 5, 10, 10],
        stat="str",
        dice_count=3,
        opponent_value=16,
        opponent_dice=2,
    )
    assert out.band == "success"
    assert out.details["opposed"]["opponent"]["bust"] is True


def test_case_14_initiative_order():
    out = run("initiative", RS.default_battle(), [7, 3])
    assert out.band == "party"
    assert out.details["order"] == ["party", "enemies"]
    b = out.state
    sides = [b["current"]]
    for _ in range(3):
        b = run("next_side", b, []).state
        sides.append(b["current"])
    assert sides == ["party", "enemies", "party", "enemies"]
    assert b["round"] == 2


def test_case_16_dodge_with_buckler_costs_the_next_activation():
    attacker = pc(dex=14)
    defender = pc(dex=12, shield="buckler")
    assert RS.derived(defender)["dodge"] == 13
    out = run("attack", attacker, [3, 4], weapon="unarmed", target=defender)
    assert out.band == "success"
    assert out.details["plan"]["parts"]["target_shield"] == -1
    assert out.chooser == "player"
    done = choose(out, ["dodge"], [6, 7])
    assert done.details["dodge"]["total"] == 13 and done.details["dodge"]["success"]
    assert done.band == "failure" and done.flags["dodged"] is True
    assert "damage" not in done.details
    tgt = done.details["target"]
    assert tgt["combat"]["skip_activation"] and tgt["combat"]["reaction_used"]
    turn = run("start_turn", tgt, [])
    assert turn.flags["skipped"] is True
    assert turn.state["combat"]["action_used"] is True


def test_case_17_throw_beyond_range_misses_without_a_roll():
    thrower = pc(str_=9, weapons=[weapon("dagger")])
    out = run("attack", thrower, [], weapon="dagger", mode="throw", distance=5)
    assert RS.derived(thrower)["throw_range"] == 4
    assert out.band == "failure" and out.faces == [] and out.total is None
    assert out.details["plan"]["auto"] == "miss"


def test_case_19_origin_roll():
    w = wizard_at_picks((10, 10))
    preview = RS.wizard_preview(w)
    assert preview["origin"]["key"] == "politician"
    assert [s["key"] for s in preview["origin_skills"]] == ["charisma", "diplomacy"]
    assert preview["origin"]["spells"] is False
    w = wizard_at_picks((1, 3))
    preview = RS.wizard_preview(w)
    assert preview["origin"]["key"] == "wanderer" and preview["origin"]["spells"] is True


def test_case_20_spell_picks_need_origin_and_mind():
    wanderer = wizard_at_picks((1, 3), mind=8)
    fire = [{"kind": "spell", "key": "fire"}, {"kind": "skill", "key": "lore"}]
    with pytest.raises(RulesError) as exc:
        RS.wizard_step(wanderer, "choose_picks", picks=fire)
    assert "needs Mind 9" in exc.value.errors["picks.0"][0]["en"]  # L350
    blurred = [{"kind": "spell", "key": "blurred_image"}, {"kind": "skill", "key": "lore"}]
    w = RS.wizard_step(wanderer, "choose_picks", picks=blurred)
    assert w["step"] == "equipment"
    soldier = wizard_at_picks((4, 5), mind=18)
    with pytest.raises(RulesError):
        RS.wizard_step(soldier, "choose_picks", picks=blurred)


def test_case_22_no_casting_in_mail():
    caster = pc(mind=14, may_take_spells=True, spells=["image"], armour="mail")
    with pytest.raises(RulesError) as exc:
        run("cast", caster, [], spell="image")
    assert "No casting in mail" in exc.value.errors["armour"][0]["en"]  # L348


def test_case_23_death_spell_pays_before_the_check():
    caster = pc(str_=10, mind=16, may_take_spells=True, spells=["death_spell"])
    target = pc(str_=12, mind=10)
    # Direct: opposed Mind. Caster 2d10 = 9 (≤16), target 2d10 = 12 (bust over 10).
    won = run("cast", caster, [4, 5, 6, 6], spell="death_spell", x=3, target=target)
    assert won.details["paid"]["hp_before"] == 10 and won.state["hp"] == 7
    assert won.band == "success"
    assert won.details["target"]["hp"] == 12 - 6
    lost = run("cast", caster, [10, 10, 2, 3], spell="death_spell", x=3, target=target)
    assert lost.band == "failure"
    assert lost.state["hp"] == 7
    assert lost.details["target"]["hp"] == 12


@pytest.mark.parametrize(("x", "after"), [(3, 10), (5, 12)])
def test_case_25_heal_wounds_up_to_max(x, after):
    caster = pc(str_=12, mind=12, may_take_spells=True, spells=["heal_wounds"])
    target = pc(str_=12, hp=4)
    out = run("cast", caster, [3, 3, 3], spell="heal_wounds", x=x, target=target)
    assert out.details["check"]["dice"] == 3  # indirect: a hard Mind check (L342)
    assert out.band == "success"
    assert out.state["hp"] == 12 - x
    assert out.details["target"]["hp"] == after


def test_case_26_attack_on_a_grappled_target_hits_automatically():
    attacker = pc(str_=12, dex=10, weapons=[weapon("ordinary")])
    target = pc(conditions=["grappled"])
    out = run("attack", attacker, [4], weapon="ordinary", target=target)
    assert out.band == "success" and out.total is None
    assert out.details["plan"]["auto"] == "hit"
    assert not out.pending  # a grappled creature cannot react
    assert out.details["damage"]["rolled"] == 6
    assert out.details["target"]["hp"] == 12 - 6


def test_case_28_medicine_once_per_wound():
    healer = pc(str_=12, mind=11, hp=6, skills=[skill("medicine", 2)])
    out = run("skill", healer, [6, 6], skill="medicine")
    assert out.modifier == 13 and out.total == 12 and out.band == "success"
    assert out.state["hp"] == 8
    with pytest.raises(RulesError) as exc:
        run("skill", out.state, [], skill="medicine")
    assert "already used" in exc.value.errors["target"][0]["en"]  # L330
    wounded_again = run("take_damage", out.state, [], amount=1).state
    again = run("skill", wounded_again, [1, 1], skill="medicine")
    assert again.state["hp"] == 9


def test_case_29_seven_days_of_rest():
    st = pc(str_=12, hp=3)
    for _ in range(4):
        st = run("rest_day", st, []).state
    assert st["care"]["rest_days"] == 4
    st = run("rest_day", st, [], interrupted=True).state
    assert st["care"]["rest_days"] == 0 and st["hp"] == 3
    for day in range(7):
        out = run("rest_day", st, [])
        st = out.state
        assert out.flags["recovered"] is (day == 6)
    assert st["hp"] == 12


def test_case_31_room_special_with_normal_treasure():
    out = run("dungeon_room", {}, [10, 6, 7, 3, 9, 5, 1, 4, 5, 8])
    assert out.band == "special"
    assert out.details["treasure"]["key"] == "normal"
    loot = out.details["loot"]
    assert loot == {"silver": 900, "gold": None, "gems": 8, "jewellery": None, "magic": None}
    lines = [n["total"] for n in out.details["treasure"]["nested"]]
    assert lines == [7, 3, 9, 5, 1]


def test_case_32_pit_trap():
    victim = pc(str_=12, dex=10)
    out = run("trap", victim, [3, 5, 6, 6, 2, 3, 4])
    assert out.details["trap"] == "pit"
    assert out.details["depth"] == 8
    assert out.band == "failure"
    fall = out.details["effect"]["fall"]
    assert fall["dice"] == 3 and fall["damage"] == 9
    assert out.state["hp"] == 3
