"""Rules beyond the digest's acceptance cases: each test names the seed lines it checks."""

from __future__ import annotations

import json

import pytest
from tales_helpers import RS, choose, pc, run, skill, weapon

from systems.core.outcome import Option, Outcome, Text
from systems.core.ruleset import RulesError

# --- checks -----------------------------------------------------------------------------------


def test_very_hard_check_rolls_4d10():
    out = run("check", pc(dex=20), [5, 5, 5, 5], stat="dex", difficulty="very_hard")
    assert out.details["check"]["dice"] == 4 and out.band == "success"


@pytest.mark.parametrize(("difficulty", "band"), [("auto", "success"), ("impossible", "failure")])
def test_auto_and_impossible_roll_nothing(difficulty, band):
    out = run("check", pc(), [], stat="str", difficulty=difficulty)
    assert out.band == band and out.faces == [] and out.total is None


def test_skill_level_adds_to_the_check_l253():
    st = pc(dex=10, skills=[skill("stealth", 3)])
    out = run("check", st, [6, 7], stat="dex", skill="stealth")
    assert out.modifier == 13 and out.band == "success"


def test_gated_skill_is_needed_l249():
    with pytest.raises(RulesError):
        run("skill", pc(), [], skill="climbing")
    out = run("skill", pc(dex=10, skills=[skill("climbing")]), [5, 6], skill="climbing")
    assert out.modifier == 11 and out.band == "success"


def test_ice_makes_checks_hard_l390():
    out = run("check", pc(str_=14, conditions=["on_ice"]), [2, 2, 2], stat="str")
    assert out.details["check"]["difficulty"] == "hard"


def test_swimming_uses_str_and_craft_uses_dex_l269_l328():
    swimmer = pc(str_=15, dex=5, skills=[skill("swimming")])
    assert run("skill", swimmer, [8, 8], skill="swimming").modifier == 16
    smith = pc(str_=5, dex=14, skills=[skill("craft", 2, "кузнец")])
    assert run("skill", smith, [1, 1], skill="craft", detail="кузнец").modifier == 16


def test_spirit_point_rerolls_a_failed_check_l326():
    st = pc(str_=10, care={"spirit_points": 1})
    out = run("check", st, [9, 9], stat="str")
    assert out.pending and out.band == "failure"
    assert {o.key for o in out.options} == {"reroll", "accept"}
    done = choose(out, ["reroll"], [2, 3])
    assert done.band == "success" and done.state["care"]["spirit_points"] == 0
    accepted = choose(out, ["accept"])
    assert accepted.band == "failure" and accepted.state["care"]["spirit_points"] == 1


def test_leadership_bonus_goes_to_the_next_check_l289():
    leader = pc(mind=12, skills=[skill("leadership", 2)])
    follower = pc(str_=10)
    out = run("skill", leader, [3, 3], skill="leadership", target=follower)
    helped = out.details["target"]
    check = run("check", helped, [6, 6], stat="str")
    assert check.modifier == 12 and check.band == "success"
    assert check.state["stat_mods"] == []  # used up


def test_vigilance_failure_in_town_loses_half_the_money_l577():
    st = pc(mind=8, silver=101, gold=7, skills=[skill("vigilance")])
    out = run("skill", st, [10, 10], skill="vigilance", in_town=True)
    assert out.details["stolen"] == {"silver": 50, "gold": 3}
    assert (out.state["silver"], out.state["gold"]) == (51, 4)


def test_herbalism_and_alchemy_make_potions_l322_l338_l579():
    herbalist = pc(str_=12, mind=12, hp=5, skills=[skill("herbalism", 2)])
    out = run("skill", herbalist, [1, 1], skill="herbalism")
    drank = run("drink_potion", out.state, [], index=0)
    assert drank.state["hp"] == 7 and drank.state["potions"] == []
    alchemist = pc(mind=12, skills=[skill("alchemy", 3)])
    with pytest.raises(RulesError):
        run("skill", alchemist, [], skill="alchemy", stat="dex")
    brewed = run("skill", alchemist, [1, 1], skill="alchemy", stat="dex", in_town=True)
    st = run("drink_potion", brewed.state, [], index=0).state
    assert run("check", st, [1, 1], stat="dex").modifier == 15


def test_diplomacy_is_an_opposed_mind_check_l287():
    envoy = pc(mind=12, skills=[skill("diplomacy")])
    orc = pc(mind=9)
    out = run("skill", envoy, [5, 5, 10, 1], skill="diplomacy", target=orc)
    assert out.band == "success"
    assert out.details["attitude"] == {"from": "hostile", "to": "neutral"}
    hard = run("skill", envoy, [4, 4, 4], skill="diplomacy", difficulty="hard")
    assert hard.details["check"]["dice"] == 3


def test_opposed_tie_repeats_by_default_and_setting_changes_it():
    out = run("opposed_check", pc(str_=12), [4, 4, 5, 3], stat="str", opponent_value=10)
    assert out.band == "repeat" and out.details["opposed"]["reason"] == "tie"
    higher = run(
        "opposed_check",
        pc(str_=12),
        [4, 4, 5, 3],
        stat="str",
        opponent_value=10,
        settings={"opposed_tie": "higher_value"},
    )
    assert higher.band == "success"


def test_opposed_dice_count_limits_are_settings():
    with pytest.raises(RulesError):
        run("opposed_check", pc(), [], stat="str", opponent_value=10, dice_count=7)
    out = run(
        "opposed_check",
        pc(str_=50),
        [1] * 7 + [1],
        stat="str",
        opponent_value=10,
        dice_count=7,
        opponent_dice=1,
        settings={"opposed_max_dice": 8},
    )
    assert out.band == "success"


# --- battle -----------------------------------------------------------------------------------


def test_surprise_on_1_to_4_the_enemy_acts_first_l140():
    out = run("surprise", RS.default_battle(), [3], unaware="party")
    assert out.band == "failure" and out.details["acts_first"] == "enemies"
    assert out.state["phase"] == "surprise"
    calm = run("surprise", RS.default_battle(), [5], unaware="party")
    assert calm.band == "success" and calm.details["acts_first"] is None


def test_tactics_gives_the_initiative_without_rolling_l304():
    tactician = pc(mind=12, skills=[skill("tactics")])
    out = run("tactics", RS.default_battle(), [3, 4], character=tactician)
    assert out.band == "success" and out.state["first"] == "party"
    with pytest.raises(RulesError):
        run("tactics", out.state, [], character=tactician)
    init = run("initiative", out.state, [])
    assert init.band == "party" and init.details["by_tactics"] is True


def test_initiative_tie_is_rolled_again():
    out = run("initiative", RS.default_battle(), [5, 5])
    assert out.band == "repeat" and out.state["first"] is None
    assert run("initiative", out.state, [2, 9]).band == "enemies"


def test_movement_and_no_moving_after_an_attack_l148_l154():
    st = pc(dex=13)
    moved = run("move", st, [], units=4)
    assert moved.details["left"] == 2
    with pytest.raises(RulesError):
        run("move", moved.state, [], units=3)
    attacked = run("attack", moved.state, [1, 1, 1], weapon="unarmed").state
    with pytest.raises(RulesError):
        run("move", attacked, [], units=1)
    with pytest.raises(RulesError):  # one action a turn
        run("attack", attacked, [1, 1, 1], weapon="unarmed")
    fresh = run("start_turn", attacked, []).state
    assert run("attack", fresh, [1, 1, 1], weapon="unarmed").band == "success"


def test_bow_shooter_cannot_move_l166_and_crossbow_reloads_l172():
    archer = pc(str_=12, dex=14, weapons=[weapon("bow")])
    moved = run("move", archer, [], units=1).state
    with pytest.raises(RulesError):
        run("attack", moved, [], weapon="bow")
    xbow = pc(str_=12, dex=14, weapons=[weapon("heavy_crossbow")])
    shot = run("attack", xbow, [1, 1, 1, 1], weapon="heavy_crossbow").state
    assert shot["weapons"][0]["loaded"] is False
    st = run("start_turn", shot, []).state
    with pytest.raises(RulesError):
        run("attack", st, [], weapon="heavy_crossbow")
    st = run("reload", st, [], index=0).state
    assert not st["weapons"][0]["loaded"]
    st = run("reload", run("start_turn", st, []).state, [], index=0).state
    assert st["weapons"][0]["loaded"]


def test_weapon_needs_min_str_l194_and_drawing_is_an_action_l180():
    weak = pc(str_=10, weapons=[weapon("ordinary")])
    with pytest.raises(RulesError) as exc:
        run("attack", weak, [], weapon="ordinary")
    assert "needs Str 11" in exc.value.errors["weapon"][0]["en"]  # L194
    sheathed = pc(str_=12, weapons=[weapon("ordinary", "sheathed")])
    with pytest.raises(RulesError):
        run("attack", sheathed, [], weapon="ordinary")
    drew = run("handle_weapon", sheathed, [], op="draw", index=0)
    assert drew.flags["action"] and drew.state["combat"]["action_used"]
    dropped = run("handle_weapon", drew.state, [], op="drop", index=0)
    assert dropped.flags["action"] is False
    duster = pc(weapons=[weapon("knuckle_duster", "sheathed")])
    assert run("attack", duster, [1, 1, 1], weapon="knuckle_duster").band == "success"


def test_two_handed_weapon_and_shield_l196():
    st = pc(str_=15, shield="shield", weapons=[weapon("flail", "sheathed")])
    with pytest.raises(RulesError):
        run("handle_weapon", st, [], op="draw", index=0)


def test_improvised_and_thrown_only_weapons_l213_l218():
    st = pc(dex=14, weapons=[weapon("javelin")])
    out = run("attack", st, [1, 1, 1], weapon="javelin", mode="melee")
    assert out.details["plan"]["parts"]["weapon"] == -2
    assert out.details["plan"]["damage"] == "1d6-2"
    big = run("attack", pc(dex=14), [1, 1, 1, 1], weapon="improvised_large")
    assert big.details["plan"]["parts"]["weapon"] == -6


def test_hit_always_deals_at_least_1_l194():
    out = run(
        "attack",
        pc(dex=14, weapons=[weapon("dagger")]),
        [1, 1, 1],
        weapon="dagger",
        target_armour=3,
    )
    assert out.details["damage"]["raw"] == -1 and out.details["damage"]["final"] == 1


def test_shield_penalty_is_bigger_at_range_l235_l237():
    st = pc(str_=12, dex=14, weapons=[weapon("bow")])
    out = run("attack", st, [1, 1, 1], weapon="bow", target_shield="shield")
    assert out.details["plan"]["parts"]["target_shield"] == -3


@pytest.mark.parametrize(
    ("condition", "difficulty"),
    [
        ("in_darkness", "hard"),
        ("blurred", "hard"),
        ("levitating", "hard"),
        ("invisible", "very_hard"),
    ],
)
def test_spells_make_attacks_harder(condition, difficulty):
    faces = [1] * {"hard": 3, "very_hard": 4}[difficulty] + [1]
    out = run("attack", pc(dex=14), faces, weapon="unarmed", target_conditions=[condition])
    assert out.details["check"]["difficulty"] == difficulty


def test_hardest_difficulty_only_unless_stacking():
    out = run(
        "attack",
        pc(dex=30),
        [1, 1, 1, 1],
        weapon="unarmed",
        target_conditions=["blurred", "in_darkness"],
    )
    assert out.details["check"]["dice"] == 3 and out.faces == [1, 1, 1]
    stacked = run(
        "attack",
        pc(dex=30),
        [1, 1, 1, 1, 1],
        weapon="unarmed",
        target_conditions=["blurred", "in_darkness"],
        settings={"difficulty_stacking": "stack"},
    )
    assert stacked.details["check"]["dice"] == 4


def test_counter_attack_after_surviving_l164():
    attacker = pc(str_=12, dex=14, weapons=[weapon("ordinary")])
    defender = pc(str_=12, dex=12, weapons=[weapon("dagger")])
    out = run("attack", attacker, [3, 3], weapon="ordinary", target=defender)
    # Damage d6+2 = 4 to the defender, then the dagger (d6-2) back: [2, 2] hits, d6 = 6.
    done = choose(out, ["counter_attack"], [2, 2, 2, 6])
    assert done.details["target"]["hp"] == 8
    counter = done.details["counter_attack"]
    assert counter["hit"] and counter["damage"]["final"] == 4
    assert done.state["hp"] == 8
    assert done.details["target"]["combat"]["skip_activation"]


def test_dead_defender_makes_no_counter_attack():
    attacker = pc(str_=12, dex=14, weapons=[weapon("ordinary")])
    defender = pc(str_=3, dex=12)
    out = run("attack", attacker, [3, 3], weapon="ordinary", target=defender)
    done = choose(out, ["counter_attack"], [4])
    assert done.details["target"]["status"] == "dead" and "counter_attack" not in done.details


def test_reaction_only_once_per_round_l156():
    defender = pc(dex=12, combat={"reaction_used": True})
    out = run("attack", pc(dex=14), [3, 3, 2], weapon="unarmed", target=defender)
    assert not out.pending and out.details["damage"]["final"] == 2
    again = run("new_round", defender, [])
    assert again.state["combat"]["reaction_used"] is False


def test_opportunity_attack_costs_the_next_action_l182():
    guard = pc(dex=14)
    out = run("opportunity_attack", guard, [1, 1, 2], weapon="unarmed", target=pc())
    assert out.state["combat"]["skip_activation"] and out.state["combat"]["reaction_used"]
    assert not out.pending
    with pytest.raises(RulesError):
        run("opportunity_attack", out.state, [], weapon="unarmed")


def test_attack_wakes_a_sleeper_and_breaks_a_freeze_l396_l420():
    out = run("attack", pc(dex=14), [1], weapon="unarmed", target=pc(conditions=["asleep"]))
    assert out.band == "success" and out.details["target"]["conditions"] == []
    out = run("attack", pc(dex=14), [1], weapon="unarmed", target=pc(conditions=["frozen"]))
    assert out.details["target"]["conditions"] == []


def test_spatial_mirror_turns_a_shot_back_l392():
    archer = pc(str_=12, dex=14, weapons=[weapon("bow")])
    out = run("attack", archer, [2, 2, 5], weapon="bow", target=pc(conditions=["spatial_mirror"]))
    assert out.flags["mirrored"] and out.state["hp"] == 12 - 5
    assert out.details["target"]["hp"] == 12


def test_push_knocks_down_l174():
    out = run("push", pc(str_=14), [5, 5, 6, 6], stat="str", goal="knock_down", target=pc(str_=11))
    assert out.band == "success" and "prone" in out.details["target"]["conditions"]


def test_grapple_then_damage_then_break_free_l176():
    grappler = pc(str_=14, skills=[skill("military_brawl")])
    victim = pc(str_=10, armour="leather")
    out = run("grapple", grappler, [5, 5, 6, 6], target=victim)
    assert "grappling" in out.state["conditions"]
    held = out.details["target"]
    assert "grappled" in held["conditions"]
    with pytest.raises(RulesError):
        run("attack", held, [], weapon="unarmed")
    turn = run("start_turn", out.state, []).state
    hurt = run("grapple_action", turn, [3], op="damage", target=held)
    assert hurt.details["damage"] == {"faces": [3], "raw": 4, "armour": 1, "final": 3}
    freed = run("break_free", hurt.details["target"], [2, 2, 9, 9], target=hurt.state)
    assert freed.band == "success" and "grappled" not in freed.state["conditions"]
    assert "grappling" not in freed.details["target"]["conditions"]


def test_break_strong_bonds_needs_a_hard_check_l371():
    out = run("break_bonds", pc(str_=15, conditions=["strongly_bound"]), [5, 5, 5])
    assert out.details["check"]["dice"] == 3 and out.state["conditions"] == []


def test_fire_at_the_start_of_a_turn_ignores_armour_l357():
    out = run("start_turn", pc(armour="plate", str_=14), [], in_fire=True)
    assert out.state["hp"] == 12


# --- magic ------------------------------------------------------------------------------------


def caster(**changes):
    base = {"mind": 16, "may_take_spells": True, "spells": [s.key for s in SPELLS]}
    base.update(changes)
    return pc(**base)


from systems.tales.data import SPELLS  # noqa: E402


def test_only_known_spells_l344_and_no_two_handed_weapon_l196():
    with pytest.raises(RulesError):
        run("cast", pc(mind=16, may_take_spells=True), [], spell="image")
    halberd = caster(str_=14, weapons=[weapon("halberd")])
    with pytest.raises(RulesError):
        run("cast", halberd, [], spell="image")


def test_staff_makes_indirect_spells_a_normal_check_l342():
    out = run("cast", caster(weapons=[weapon("staff")]), [4, 4], spell="image")
    assert out.details["check"]["dice"] == 2 and out.band == "success"
    strict = caster(weapons=[weapon("staff")])
    with pytest.raises(RulesError):
        run("cast", strict, [], spell="image", settings={"staff_allows_casting": False})


def test_spell_range_is_half_mind_l352():
    with pytest.raises(RulesError):
        run("cast", caster(), [], spell="fire", distance=9)
    assert run("cast", caster(), [1, 1, 1], spell="fire", distance=8).band == "success"


def test_magic_strike_pays_only_on_success_l448():
    target = pc(str_=20)
    won = run("cast", caster(), [1, 1, 1, 2, 3, 4], spell="magic_strike", x=3, target=target)
    assert won.state["hp"] == 9 and won.details["target"]["hp"] == 20 - 9
    lost = run("cast", caster(), [10, 10, 10], spell="magic_strike", x=3, target=target)
    assert lost.state["hp"] == 12 and lost.details["target"]["hp"] == 20


def test_self_targeting_only_for_marked_spells():
    with pytest.raises(RulesError):
        run("cast", caster(hp=5), [], spell="heal_wounds", x=1, on_self=True)
    out = run("cast", caster(), [1, 1, 1], spell="stone_skin", on_self=True)
    assert "stone_skin" in out.state["conditions"]
    assert RS.derived(out.state)["armour"] == 4
    with pytest.raises(RulesError):
        run("cast", out.state, [], spell="iron_skin", on_self=True)


def test_magic_shield_blocks_direct_and_touch_spells_l410():
    shielded = pc(conditions=["magic_shield"])
    with pytest.raises(RulesError):
        run("cast", caster(), [], spell="sleep", target=shielded)


def test_direct_spell_repeat_keeps_the_paid_cost():
    target = pc(mind=5)
    out = run("cast", caster(), [9, 9, 6, 6], spell="mind_strike", x=2, target=target)
    assert out.band == "repeat" and out.state["hp"] == 10
    done = choose(out, ["repeat"], [3, 3, 4, 4])
    assert done.band == "success" and done.state["hp"] == 10
    assert RS.derived(done.details["target"])["stats"]["mind"] == 3


def test_teleport_on_a_willing_target_needs_no_roll():
    out = run("cast", caster(), [], spell="teleport", target=pc(), target_resists=False)
    assert out.band == "success" and out.faces == []


def test_return_to_life_costs_one_minus_hp_l446():
    dead = pc(hp=-3, status="dead")
    out = run("cast", caster(), [1, 1, 1], spell="return_to_life", target=dead)
    assert out.state["hp"] == 12 - 4
    assert out.details["target"]["hp"] == 1 and out.details["target"]["status"] == "alive"


def test_werebear_damage_vanishes_and_gargoyle_damage_stays_l432_l434():
    body = pc(str_=10, hp=8, max_hp=10)
    bear = run("cast", caster(), [1, 1, 1], spell="werebear_form", target=body).details["target"]
    assert (bear["max_hp"], bear["hp"]) == (30, 28)
    assert RS.derived(bear)["stats"]["dex"] == 11
    hurt = run("take_damage", bear, [], amount=20, ignores_armour=True).state
    back = run("end_form", hurt, []).state
    assert (back["hp"], back["max_hp"]) == (8, 10)
    garg = run("cast", caster(), [1, 1, 1], spell="gargoyle_form", target=body).details["target"]
    hurt = run("take_damage", garg, [], amount=9, ignores_armour=True).state
    ended = run("end_form", hurt, [])
    assert ended.state["status"] == "dead" and ended.flags["died"]


def test_summons_are_valid_sheets_l435_l439():
    wolf = run("cast", caster(), [1, 1, 1], spell="summon_wolf").details["summoned"]
    assert RS.validate_state(wolf)["stats"] == {"str": 10, "dex": 13, "mind": 6}
    assert RS.derived(wolf)["armour"] == 1
    bite = run("attack", wolf, [1, 1, 6], weapon="natural")
    assert bite.details["damage"]["rolled"] == 7


def test_mass_sleep_opposes_each_target():
    a, b = pc(mind=5), pc(mind=18)
    out = run("cast", caster(), [2, 2, 6, 6, 2, 2, 9, 8], spell="mass_sleep", targets=[a, b])
    asleep = [t["asleep"] for t in out.details["targets"]]
    assert asleep == [True, False]


def test_end_scene_ends_charms_l346():
    st = caster()
    st = run("cast", st, [1, 1, 1], spell="levitation", on_self=True).state
    assert RS.derived(st)["movement"] == 12
    st = run("end_scene", st, []).state
    assert st["conditions"] == [] and RS.derived(st)["movement"] == 6


# --- hazards and advancement ------------------------------------------------------------------


def test_falling_and_acrobatics_l272_l489():
    out = run("fall", pc(str_=12), [1, 2], metres=7)
    assert out.details["dice"] == 2 and out.state["hp"] == 9
    nimble = pc(skills=[skill("acrobatics")])
    assert run("fall", nimble, [4], metres=7).details["dice"] == 1


def test_hunger_l491():
    st = pc(str_=10)
    st = run("hunger_day", st, [], ate=False).state
    assert st["stats"]["str"] == 10
    st = run("hunger_day", st, [], ate=False).state
    assert (st["stats"]["str"], st["max_hp"], st["hp"]) == (9, 9, 9)
    st = run("hunger_day", st, [], ate=True).state
    assert (st["stats"]["str"], st["max_hp"], st["hp"]) == (10, 10, 9)


def test_descending_ceiling_can_be_held_l547():
    out = run("trap", pc(str_=16, dex=5), [2, 5, 5, 4, 4, 4])
    assert out.band == "failure" and out.details["effect"]["hold"]["success"]
    assert out.state["status"] == "alive"
    dead = run("trap", pc(str_=10, dex=5), [2, 5, 5, 4, 4, 4])
    assert dead.state["status"] == "dead"


def test_xp_from_money_and_buying_l470_l477():
    st = pc(gold=1500, silver=50)
    st = run("spend_money", st, [], gold=1500, silver=50).state
    assert st["xp"] == 1500 and st["gold"] == 0
    st = run("buy_skill", st, [], skill="lore").state
    assert st["xp"] == 500 and st["skills"] == [skill("lore")]
    with pytest.raises(RulesError):
        run("buy_skill", st, [], skill="lore")
    rich = run("add_xp", st, [], amount=13_000).state
    raised = run("raise_stat", rich, [], stat="str").state
    assert raised["xp"] == 13_500 - 13_000
    assert (raised["stats"]["str"], raised["max_hp"], raised["hp"]) == (13, 13, 13)


def test_literacy_only_once_l291():
    st = pc(xp=5000, skills=[skill("literacy")])
    with pytest.raises(RulesError):
        run("buy_skill", st, [], skill="literacy")


def test_buy_spell_needs_origin_and_mind_l350_l475():
    with pytest.raises(RulesError):
        run("buy_spell", pc(xp=1000, mind=18), [], spell="image")
    with pytest.raises(RulesError):
        run("buy_spell", pc(xp=1000, mind=8, may_take_spells=True), [], spell="fire")
    out = run("buy_spell", pc(xp=1000, mind=9, may_take_spells=True), [], spell="fire")
    assert out.state["spells"] == ["fire"] and out.state["xp"] == 0


# --- plumbing -----------------------------------------------------------------------------


def test_pending_outcome_survives_json():
    attacker = pc(str_=12, dex=14, weapons=[weapon("ordinary")])
    out = run("attack", attacker, [2, 3], weapon="ordinary", target=pc(armour="mail"))
    data = json.loads(json.dumps(out.as_dict(), ensure_ascii=False))
    fields = {k: v for k, v in data.items() if k in Outcome.__dataclass_fields__}
    fields["options"] = [Option(**o) for o in data["options"]]
    fields["text"] = Text(**data["text"])
    rebuilt = Outcome(**fields)
    done = choose(rebuilt, ["none"], [1])
    assert done.details["damage"]["final"] == 1


def test_bad_input_gives_ru_and_en_field_errors():
    with pytest.raises(RulesError) as exc:
        run("check", pc(), [], stat="luck")
    message = exc.value.errors["stat"][0]
    assert message["ru"] and message["en"]
    with pytest.raises(RulesError):
        RS.validate_state({**pc(), "hp": 0})
    with pytest.raises(RulesError):
        run("no_such_move", pc(), [])


def test_choices_param_answers_at_once():
    out = run("attack", pc(dex=14), [2, 2, 3], weapon="unarmed", target=pc(), choices=["none"])
    assert not out.pending and out.details["damage"]["final"] == 3
    assert out.details["choices"] == ["none"]


def test_counter_attack_after_a_push_but_no_dodge_digest_9_7():
    pusher = pc(str_=14)
    target = pc(str_=11, dex=12, weapons=[weapon("dagger")])
    out = run("push", pusher, [5, 5, 6, 6], stat="str", goal="push_back", target=target)
    assert out.band == "success" and out.details["pushed_units"] == 1
    assert [o.key for o in out.options] == ["counter_attack", "none"]
    done = choose(out, ["counter_attack"], [1, 1, 5])
    assert done.details["counter_attack"]["hit"] and done.state["hp"] == 14 - 3
    assert done.details["target"]["combat"]["skip_activation"]


def test_a_grappled_target_cannot_counter_attack():
    out = run("grapple", pc(str_=14), [5, 5, 6, 6], target=pc(str_=10))
    assert not out.pending


def test_picking_up_puts_the_weapon_in_hand():
    st = pc(weapons=[weapon("dagger", "dropped")])
    out = run("handle_weapon", st, [], op="pick_up", index=0)
    assert out.state["weapons"][0]["state"] == "drawn" and out.flags["action"]


def test_return_to_the_world_of_the_living_l466():
    soul = pc(str_=8, dex=16, mind=15, hp=-2, status="dead", skills=[skill("lore", 3)])
    body = pc(str_=14, dex=9, mind=7, hp=10)
    out = run("cast", caster(), [2, 2, 5, 5], spell="return_to_the_living", target=body, soul=soul)
    assert out.state["hp"] == 12 - 7  # the target's Mind, before the check
    assert out.band == "success"
    assert out.details["target"]["status"] == "dead"
    reborn = RS.validate_state(out.details["reborn"])
    assert reborn["stats"] == {"str": 14, "dex": 16, "mind": 15}
    assert reborn["skills"] == [skill("lore", 3)] and reborn["hp"] == 10


def test_caster_killed_by_the_cost_still_casts_unless_set():
    target = pc(str_=20, mind=5)
    out = run("cast", caster(hp=2), [1, 1, 9, 9], spell="death_spell", x=5, target=target)
    assert out.flags["caster_died"] and out.details["target"]["hp"] == 10
    stop = run(
        "cast",
        caster(hp=2),
        [],
        spell="death_spell",
        x=5,
        target=target,
        settings={"spell_after_caster_death": False},
    )
    assert stop.band == "failure" and stop.state["status"] == "dead"


def test_odds_for_cast_initiative_and_surprise():
    direct = RS.odds("cast", caster(), spell="sleep", target=pc(mind=10))
    assert set(direct) == {"success", "failure", "repeat"}
    assert abs(sum(direct.values()) - 1) < 1e-12
    staff = RS.odds("cast", caster(weapons=[weapon("staff")]), spell="image")
    plain = RS.odds("cast", caster(), spell="image")
    assert staff["success"] > plain["success"]
    assert RS.odds("initiative", RS.default_battle()) == {
        "party": 0.45,
        "enemies": 0.45,
        "repeat": 0.1,
    }
    assert RS.odds("surprise", RS.default_battle())["failure"] == 4 / 6
    assert RS.odds("take_damage", pc(), amount=1) == {}


def test_describe_is_json_and_lists_everything():
    data = json.loads(json.dumps(RS.describe(), ensure_ascii=False))
    assert data["key"] == "tales" and data["name"]["ru"] == "Сказания волшебного мира"
    assert len(data["weapons"]) == 26 and len(data["spells"]) == 55
    assert {m["key"] for m in data["moves"]} >= {"check", "opposed_check", "attack", "cast"}
    assert data["wizard"]["actions"][0] == "roll_stat"
    assert data["tables"][0]["key"] == "origin"
