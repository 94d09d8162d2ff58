"""City of Judas rules beyond the acceptance table; each test names its seed lines."""

from __future__ import annotations

import json

import pytest
from coj_helpers import RS, choose, conflict, npc, pc, run

from systems.city_of_judas.ruleset import clamp_change, damage_through
from systems.core.dice import ScriptedDice
from systems.core.pbta import band_odds
from systems.core.ruleset import RulesError

# --- describe and validation -------------------------------------------------------------


def test_describe_moves_sheet_and_settings():
    d = RS.describe()
    json.dumps(d, ensure_ascii=False)
    keys = [m["key"] for m in d["moves"]]
    assert keys == [
        "decisive_strike",
        "take_damage",
        "engage_in_battle",
        "take_a_shot",
        "defy_danger",
        "face_death",
        "conflict",
    ]
    ds = d["moves"][0]
    assert ds["ru"] == "Решающий удар" and ds["subject"] == "npc"
    assert ds["options"]["10+"]["chooser"] == "player"
    assert ds["options"]["7-9"]["chooser"] == "referee"
    td = d["moves"][1]
    assert [o["key"] for o in td["options"]["6-"]["options"]] == [
        "serious",
        "scary",
        "critical",
        "deadly",
    ]
    assert d["settings_defaults"] == {
        "one_roll_rule": False,
        "superiority_min": 1,
        "superiority_max": 6,
        "conflict_miss_can_win": True,
        "ap_ignores_shield": False,
    }
    assert d["sheet"]["fields"]["health"]["max"] == 4
    assert d["sheet"]["fields"]["health"]["min"] == -3
    for move in d["moves"] + d["actions"]:
        assert move["trigger"]["ru"] and move["trigger"]["en"]
        for field in move["params"].values():
            assert field["ru"] and field["en"]


def test_sheet_validation_errors():
    with pytest.raises(RulesError) as err:
        RS.validate_state(pc(health=4) | {"health": 5})
    assert "health" in err.value.errors
    maim = {"key": "M", "name": "x", "stat": "steel", "penalty": -1, "marked": False}
    with pytest.raises(RulesError) as err:
        RS.validate_state(pc() | {"maims": [maim, maim]})
    assert "maims" in err.value.errors
    with pytest.raises(RulesError):
        RS.clean_settings({"superiority_min": 4, "superiority_max": 3})


# --- damage arithmetic (L11-L15) -----------------------------------------------------------


def test_ap_part_ignores_armor_but_leftover_armor_does_not_absorb_it():
    assert damage_through(4, 1, armor=5) == 1  # max(0, 3-5) + 1
    assert damage_through(4, 4, armor=5) == 4
    assert damage_through(5, 1, armor=2) == 3
    assert damage_through(2, 5, armor=0) == 2  # AP never exceeds the damage


def test_shield_still_counts_against_ap_unless_the_setting_says_otherwise():
    assert damage_through(3, 1, armor=1, shield=2) == 0  # 2-1-2 < 0, leftover shield eats AP
    assert damage_through(3, 1, armor=1, shield=2, ap_ignores_shield=True) == 1
    state = pc(armor=1, shield=2, health=3)
    none = run("take_damage", state, [], damage=3, ap=1)
    assert none.flags["no_damage"] is True
    some = run("take_damage", state, [4, 4], damage=3, ap=1, settings={"ap_ignores_shield": True})
    assert some.details["dealt"] == 1


def test_decisive_strike_defaults_to_the_attackers_weapon():
    attacker = pc(weapon_damage=4, weapon_ap=1)
    out = run("decisive_strike", npc(armor=2), [1, 1], attacker=attacker)
    assert out.details["dealt"] == 2  # max(0, 3-2) + 1 AP
    assert out.state["wounds"] == 2


def test_decisive_strike_allowed_with_zero_damage():
    out = run("decisive_strike", npc(armor=5, wounds=1), [3, 3], damage=2)
    assert out.details["dealt"] == 0 and out.state["wounds"] == 1
    assert out.total == 7


@pytest.mark.parametrize("kind", ["important", "monster", "demon", "rival"])
def test_decisive_strike_rolls_one_die_for_serious_foes(kind):
    out = run("decisive_strike", npc(kind=kind, wounds=4), [6])
    assert out.faces == [6] and out.total == 10 and out.flags["dice_count"] == 1


def test_decisive_strike_two_of_the_list_prolongs_the_fight():
    attacker = pc(superiority=2)
    out = run("decisive_strike", npc(wounds=3), [4, 4], attacker=attacker, damage=0)
    two = choose(out, ["two_of_list"])
    assert two.pending and two.pick == 2 and two.chooser == "player"
    with pytest.raises(RulesError):
        choose(two, ["panic", "panic"])
    done = choose(two, ["serious_wound", "advantage"])
    assert done.state["wounds"] == 4 and done.state["out"] == ""
    assert done.details["attacker"]["superiority"] == 3
    assert done.details["choices"] == ["two_of_list", "serious_wound", "advantage"]


def test_decisive_strike_kill_ends_the_fight_for_that_enemy():
    out = run("decisive_strike", npc(wounds=6), [4, 4], choices=["killed"])
    assert out.state["out"] == "killed" and out.flags["fight_over"] is True
    with pytest.raises(RulesError):
        run("decisive_strike", out.state, [4, 4])


# --- Take Damage ----------------------------------------------------------------------------


def test_health_never_goes_below_minus_3_and_overflow_is_logged():
    out = run("take_damage", pc(health=-2), [6, 6], dealt=4)
    assert out.state["health"] == -3
    assert out.details["overflow"] == 3


def test_seed_l147_l149_superiority_1_cannot_pay_for_less_damage():
    out = run("take_damage", pc(health=4, superiority=1), [4, 4], dealt=2)
    assert out.state["health"] == 2 and out.band == "10+"
    assert [o.key for o in out.options] == ["fight_on"]
    done = choose(out, ["fight_on"])
    assert done.state["superiority"] == 2 and done.state["health"] == 2


def test_seed_l161_health_2_takes_3_unstable_and_rolls_at_minus_1():
    out = run("take_damage", pc(health=2), [6, 4], dealt=3)
    assert out.state["health"] == -1 and out.state["unstable"] is True
    assert out.modifier == -1 and out.total == 9


def test_unstable_stays_when_health_climbs_back():
    out = run("take_damage", pc(health=0, superiority=3), [5, 6], dealt=1)
    done = choose(out, ["not_so_bad"])
    assert done.state["health"] == 0 and done.state["unstable"] is True
    cleared = run("clear_unstable", done.state, [])
    assert cleared.state["unstable"] is False


def test_critical_marks_unstable_and_pvp_lets_the_opponent_choose():
    out = run("take_damage", pc(health=3), [1, 2], dealt=1, from_pc=True)
    assert out.band == "6-" and out.flags["opponent_chooses"] is True
    done = choose(out, ["critical"])
    assert done.state["unstable"] is True


def test_maim_after_a_miss_cancels_its_results_but_keeps_the_damage():
    out = run("take_damage", pc(health=1, superiority=3), [1, 1], dealt=2)
    assert out.state["health"] == -1 and out.state["superiority"] == 2
    maimed = choose(out, ["maim:M"])
    assert maimed.state["health"] == -1 and maimed.state["unstable"] is True
    assert maimed.state["superiority"] == 3
    assert maimed.state["maims"][0]["marked"] is True
    assert not maimed.pending and maimed.flags["maim_taken"] == "M"


def test_a_marked_maim_is_not_offered_and_can_be_healed_then_taken_again():
    marked = run("mark_maim", pc(), [], maim="M").state
    out = run("take_damage", marked | {"health": 1}, [1, 1], dealt=1)
    assert out.details["maim_after"] == []
    with pytest.raises(RulesError):
        choose(out, ["maim:M"])
    healed = run("heal_maim", marked, [], maim="M").state
    again = run("mark_maim", healed, [], maim="M")
    assert again.state["maims"][0]["marked"] is True


def test_one_roll_rule_must_be_on_to_reuse_dice():
    with pytest.raises(RulesError) as err:
        run("take_damage", pc(), [], dealt=1, reuse_faces=[3, 6])
    assert "reuse_faces" in err.value.errors


# --- combat moves, conflict, superiority --------------------------------------------------


def test_engage_strong_picks_two_and_superior_tactics_adds_superiority():
    out = run("engage_in_battle", pc(superiority=3), [5, 5])
    assert out.band == "10+" and out.pick == 2 and out.flags["decisive_strike_allowed"]
    done = choose(out, ["ap_damage", "superior_tactics"])
    assert done.state["superiority"] == 4 and done.details["extra_ap"] == 1


def test_engage_weak_both_sides_deal_damage_and_miss_gives_the_gm_a_move():
    weak = run("engage_in_battle", pc(), [3, 3])
    assert weak.band == "7-9" and weak.pick == 1 and weak.flags["both_deal_damage"] is True
    miss = run("engage_in_battle", pc(), [1, 2])
    assert miss.band == "6-" and miss.flags["gm_move"] and not miss.flags["decisive_strike_allowed"]


def test_a_marked_maim_lowers_the_stat_roll():
    maimed = run("mark_maim", pc(), [], maim="M").state
    assert run("engage_in_battle", maimed, [3, 3]).modifier == 1


def test_other_combat_moves_roll_a_named_stat():
    state = pc(
        stats=[
            {"key": "steel", "ru": "Сталь", "en": "Steel", "value": 2},
            {"key": "eye", "ru": "Глаз", "en": "Eye", "value": 1},
        ]
    )
    shot = run("take_a_shot", state, [4, 4], stat="eye")
    assert shot.total == 9 and shot.flags["decisive_strike_allowed"]
    death = run("face_death", state, [4, 4])
    assert death.total == 10 and not death.flags["decisive_strike_allowed"]
    with pytest.raises(RulesError):
        run("defy_danger", state, [4, 4], stat="luck")


def test_conflict_opponent_wins_and_both_miss_setting():
    a, b = pc(superiority=2), pc(superiority=2)
    lost = conflict(a, b, [2, 3], [4, 4])  # 7 against 10
    assert lost.details["winner"] == "opponent" and lost.state["superiority"] == 2
    assert lost.details["target"]["superiority"] == 3
    miss = conflict(a, b, [2, 2], [1, 1])  # 6 against 4
    assert miss.details["winner"] == "self" and miss.state["superiority"] == 3
    strict = conflict(a, b, [2, 2], [1, 1], settings={"conflict_miss_can_win": False})
    assert strict.details["winner"] == "none" and strict.state["superiority"] == 2


def test_superiority_limits():
    assert clamp_change(6, 1, 1, 6) == 6
    assert clamp_change(1, -1, 1, 6) == 1
    assert clamp_change(0, -1, 1, 6) == 0  # already below: never pushed up by a loss
    assert clamp_change(8, 1, 1, 6) == 8
    top = run("adjust_superiority", pc(superiority=6), [], delta=1)
    assert top.state["superiority"] == 6
    wide = run(
        "adjust_superiority", pc(superiority=6), [], delta=2, settings={"superiority_max": 10}
    )
    assert wide.state["superiority"] == 8


# --- odds ------------------------------------------------------------------------------------


def test_odds():
    assert RS.odds("decisive_strike", npc(wounds=1), damage=2) == band_odds(3)
    assert RS.odds("decisive_strike", npc(kind="demon", wounds=3)) == band_odds(3, count=1)
    assert RS.odds("take_damage", pc(health=3), dealt=4) == band_odds(-1)
    assert RS.odds("take_damage", pc(armor=3), damage=3) == {}
    assert RS.odds("take_damage", pc(), dealt=1, maim_before="M") == {}
    assert RS.odds(
        "take_damage", pc(health=0), dealt=1, reuse_faces=[1, 2], settings={"one_roll_rule": True}
    ) == {"10+": 0.0, "7-9": 0.0, "6-": 1.0}
    assert RS.odds("engage_in_battle", pc()) == band_odds(2)
    assert RS.odds("conflict", pc(), target=pc()) == {}  # the opponent rolls too


def test_registry_returns_this_ruleset():
    from systems import get_ruleset

    rs = get_ruleset("city_of_judas")
    assert rs is RS and rs.key == "city_of_judas" and rs.name_ru == "Град Иуды"


def test_pvp_miss_is_chosen_by_the_opponent_not_the_gm():
    """L127, L203: damage from another PC, 6- → the attacking player picks the fate."""
    attacker = pc(name="Саул")
    out = run("take_damage", pc(health=3), [1, 2], dealt=1, target=attacker)
    assert out.band == "6-" and out.chooser == "opponent"
    assert out.flags["opponent_chooses"] is True
    flagged = run("take_damage", pc(health=3), [1, 2], dealt=1, from_pc=True)
    assert flagged.chooser == "opponent"
    by_gm = run("take_damage", pc(health=3), [1, 2], dealt=1)
    assert by_gm.chooser == "referee"


def test_conflict_winner_picks_first_and_the_loser_cannot_contradict():
    """L197: the winner picks first; the loser picks after and may not take the position the
    winner took (the excellent manoeuvre)."""
    a, b = pc(name="Саул", weapon_damage=2), pc(name="Алаир", weapon_damage=2)
    out = conflict(a, b, [2, 3], [4, 4])  # 7 against 10
    assert out.details["winner"] == "opponent" and out.chooser == "opponent" and out.pick == 2
    assert out.details["target"]["superiority"] == 4
    second = choose(out, ["maneuver", "superior_tactics"])
    assert second.chooser == "player" and second.pick == 1
    assert {o.key for o in second.options} == {"ap_damage", "superior_tactics"}
    assert second.details["target"]["superiority"] == 5  # superior tactics: +1 more
    with pytest.raises(RulesError):
        choose(second, ["maneuver"])
    done = choose(second, ["ap_damage"])
    assert not done.pending and done.details["picks"] == {
        "self": ["ap_damage"],
        "opponent": ["maneuver", "superior_tactics"],
    }


def test_conflict_tie_both_pick_with_no_limits():
    """L199: equal totals, the options resolve at once with no limits."""
    a, b = pc(name="A"), pc(name="B")
    out = conflict(a, b, [3, 3], [3, 3])  # 8 against 8
    assert out.chooser == "player"
    second = choose(out, ["maneuver"])
    assert second.chooser == "opponent"
    assert "maneuver" in {o.key for o in second.options}


def test_conflict_damage_makes_take_damage_follow_at_once():
    """L201: nobody makes a Decisive Strike; a character damaged after armor rolls Take
    Damage at once (the table makes ``follow_moves``), the other side's +1 AP included."""
    a = pc(name="Ханна", weapon_damage=2, weapon_ap=0)
    b = pc(name="Давид", weapon_damage=2, weapon_ap=0, armor=1)
    out = conflict(a, b, [4, 4], [3, 3])  # 10 against 8
    second = choose(out, ["ap_damage", "maneuver"])
    done = choose(second, ["superior_tactics"])
    assert done.details["damage"] == {
        "opponent": {"damage": 3, "ap": 1, "through": 2},
        "self": {"damage": 2, "ap": 0, "through": 2},
    }
    assert done.details["follow_moves"] == [
        {"subject": "target", "move": "take_damage", "params": {"hits": [{"damage": 3, "ap": 1}]}},
        {"subject": "self", "move": "take_damage", "params": {"hits": [{"damage": 2, "ap": 0}]}},
    ]
    missed = conflict(a, b, [2, 2], [1, 2])  # 6 against 5
    assert not missed.pending and "follow_moves" not in missed.details


def test_conflict_the_server_rolls_both_sides():
    """«Оба бойца делают броски своих ходов»: no total comes from the caller. The mover rolls
    at once; the opponent's player picks the stat of their own move, and the server rolls it
    (a marked maim's penalty included)."""
    a = pc(name="Саул")
    b = pc(
        name="Алаир",
        stats=[
            {"key": "steel", "ru": "Сталь", "en": "Steel", "value": 2},
            {"key": "luck", "ru": "Удача", "en": "Luck", "value": 1},
        ],
        maims=[{"key": "M", "name": "Рука", "stat": "steel", "penalty": -1, "marked": True}],
    )
    with pytest.raises(RulesError):
        run("conflict", a, [6, 6], total=12, opponent_total=2, target=b)
    with pytest.raises(RulesError) as refused:
        run("conflict", a, [6, 6])
    assert "target" in refused.value.errors
    waiting = run("conflict", a, [3, 4], target=b)
    assert (waiting.total, waiting.faces, waiting.chooser) == (9, [3, 4], "opponent")
    assert [(o.key, o.ru) for o in waiting.options] == [
        ("steel", "Сталь (+1)"),
        ("luck", "Удача (+1)"),
    ]
    with pytest.raises(RulesError):
        choose(waiting, ["wits"])
    with ScriptedDice([5, 3]) as dice:
        out = RS.apply_choice(waiting, ["luck"], dice=dice)
    assert out.details["opponent_roll"] == {
        "stat": "luck",
        "faces": [5, 3],
        "modifier": 1,
        "total": 9,
        "band": "7-9",
    }
    assert out.details["winner"] == "tie" and out.total == 9
    assert "9" in out.text.ru and "Удача" in out.text.ru
