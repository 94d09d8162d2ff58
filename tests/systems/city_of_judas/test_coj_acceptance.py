"""Every acceptance case of ``shared/rules/city_of_judas.md`` §9, with the exact dice faces."""

from __future__ import annotations

import pytest
from coj_helpers import RS, choose, conflict, npc, pc, run

from systems.city_of_judas.ruleset import damage_through
from systems.core.ruleset import RulesError

ONE_ROLL = {"one_roll_rule": True}


def test_case_01_decisive_strike_minor_enemy_strong_hit():
    out = run("decisive_strike", npc(kind="minor", armor=1, wounds=0), [4, 4], damage=3)
    assert out.state["wounds"] == 2
    assert out.faces == [4, 4] and out.modifier == 2
    assert (out.total, out.band) == (10, "10+")
    assert out.chooser == "player" and out.pick == 1
    assert [o.key for o in out.options] == ["killed", "defeated", "two_of_list"]
    assert out.flags["gm_move"] is False


def test_case_02_decisive_strike_monster_one_die_weak_hit():
    out = run("decisive_strike", npc(kind="monster", armor=2, wounds=1), [5], damage=4)
    assert out.state["wounds"] == 3
    assert out.faces == [5]
    assert (out.total, out.band) == (8, "7-9")
    assert out.chooser == "referee" and out.pick == 1
    assert [o.key for o in out.options] == ["serious_wound", "advantage", "panic"]
    assert out.flags["gm_move"] is True


def test_case_04_decisive_strike_miss_keeps_the_wounds():
    out = run("decisive_strike", npc(kind="minor", wounds=2), [1, 2], dealt=1)
    assert out.state["wounds"] == 3
    assert (out.total, out.band) == (6, "6-")
    assert out.flags["gm_moves_first"] is True
    assert not out.pending


def test_case_05_gm_picks_serious_wound_adds_one_without_a_new_roll():
    out = run("decisive_strike", npc(kind="monster", armor=2, wounds=1), [5], damage=4)
    done = choose(out, ["serious_wound"])  # ScriptedDice([]) proves no new roll
    assert done.state["wounds"] == 4
    assert done.band == "7-9" and not done.pending


def test_case_07_armor_is_subtracted_from_each_hit():
    assert damage_through(3, 0, armor=2) + damage_through(3, 0, armor=2) == 2
    hits = [{"damage": 3, "ap": 0}, {"damage": 3, "ap": 0}]
    out = run("decisive_strike", npc(armor=2, wounds=0), [1, 1], hits=hits)
    assert out.details["dealt"] == 2 and out.state["wounds"] == 2
    hurt = run("take_damage", pc(armor=2, health=3), [3, 3], hits=hits)
    assert hurt.details["dealt"] == 2 and hurt.state["health"] == 1


def test_case_08_take_damage_from_unmarked_strong_hit():
    out = run("take_damage", pc(health=4, superiority=3), [4, 4], dealt=2)
    assert out.state["health"] == 2
    assert (out.modifier, out.total, out.band) == (2, 10, "10+")
    assert [o.key for o in out.options] == ["not_so_bad", "fight_on"]
    a = choose(out, ["not_so_bad"])
    assert (a.state["superiority"], a.state["health"]) == (2, 3)
    b = choose(out, ["fight_on"])
    assert (b.state["superiority"], b.state["health"]) == (4, 2)


def test_case_10_take_damage_weak_offer_accepted_or_refused():
    out = run("take_damage", pc(health=3, superiority=3), [3, 5], dealt=3)
    assert out.state["health"] == 0
    assert (out.total, out.band) == (8, "7-9")
    assert [o.key for o in out.options] == ["really_hurts", "cost_something"]
    keep = choose(out, ["really_hurts"])
    assert keep.state["health"] == 0 and keep.state["superiority"] == 3
    offered = choose(out, ["cost_something"])
    assert offered.chooser == "referee"
    accepted = choose(offered, ["gm_accepts"])
    assert accepted.state["health"] == 1 and accepted.state["superiority"] == 3
    refused = choose(offered, ["gm_refuses"])
    assert refused.state["health"] == 0 and refused.state["superiority"] == 2


def test_case_11_take_damage_to_minus_1_unstable_miss_no_deadly():
    out = run("take_damage", pc(health=2, superiority=3), [2, 3], dealt=3)
    assert out.state["health"] == -1 and out.state["unstable"] is True
    assert (out.total, out.band) == (4, "6-")
    assert out.state["superiority"] == 2
    assert out.chooser == "referee"
    assert [o.key for o in out.options] == ["serious", "scary", "critical"]


def test_case_13_take_damage_at_minus_3_offers_deadly_then_maim_or_mortal_wound():
    out = run("take_damage", pc(health=-2, superiority=3), [1, 1], dealt=1)
    assert out.state["health"] == -3
    assert (out.total, out.band) == (-1, "6-")
    assert "deadly" in [o.key for o in out.options]
    deadly = choose(out, ["deadly"])
    assert deadly.chooser == "player" and deadly.pick == 1
    assert [o.key for o in deadly.options] == ["mortal_wound", "maim:M"]
    mortal = choose(deadly, ["mortal_wound"])
    assert mortal.state["mortal_wound"] is True
    maimed = choose(deadly, ["maim:M"])
    assert maimed.state["mortal_wound"] is False
    assert maimed.state["maims"][0]["marked"] is True
    assert maimed.state["health"] == -3  # the marked damage stays (L137)
    assert maimed.state["superiority"] == 3  # the move's results are cancelled (§8.13)


def test_case_14_maim_before_marking_damage_means_no_damage_and_no_roll():
    state = pc(health=1)
    assert RS.stat_value(state, "steel") == 2
    out = run("take_damage", state, [], dealt=3, maim_before="M")
    assert out.state["health"] == 1
    assert out.band is None and out.faces == []
    assert out.state["maims"][0]["marked"] is True
    assert RS.stat_value(out.state, "steel") == 1  # the stat penalty applies
    with pytest.raises(RulesError) as err:
        run("take_damage", out.state, [], dealt=3, maim_before="M")
    assert "maim_before" in err.value.errors


def test_case_16_armor_absorbs_everything_no_take_damage():
    out = run("take_damage", pc(armor=3, health=2), [], damage=3)
    assert out.details["dealt"] == 0
    assert out.band is None and out.flags["no_damage"] is True
    assert out.state["health"] == 2


def test_case_17_one_roll_rule_reuses_the_engage_dice():
    engage = run("engage_in_battle", pc(), [3, 6], settings=ONE_ROLL)
    assert (engage.total, engage.band) == (11, "10+")
    natural = engage.details["natural"]
    assert natural == [3, 6]
    hurt = run("take_damage", pc(health=3), [], dealt=3, reuse_faces=natural, settings=ONE_ROLL)
    assert hurt.state["health"] == 0
    assert (hurt.total, hurt.band) == (9, "7-9")
    minor = run(
        "decisive_strike", npc(kind="minor", wounds=2), [], reuse_faces=natural, settings=ONE_ROLL
    )
    assert (minor.total, minor.band) == (11, "10+")
    beast = run(
        "decisive_strike", npc(kind="monster", wounds=2), [], reuse_faces=natural, settings=ONE_ROLL
    )
    assert beast.faces == [3]
    assert (beast.total, beast.band) == (5, "6-")


def test_case_19_conflict_tie_changes_no_superiority():
    a, b = pc(name="A", superiority=3), pc(name="B", superiority=3)
    out = conflict(a, b, [3, 3], [4, 2])  # 3 + 3 + 2 = 8 against 4 + 2 + 2 = 8
    assert out.details["winner"] == "tie"
    assert out.flags["simultaneous"] is True
    assert out.state["superiority"] == 3
    assert out.details["target"]["superiority"] == 3


def test_case_20_conflict_higher_total_wins_even_in_the_same_band():
    a, b = pc(name="A", superiority=3), pc(name="B", superiority=3)
    out = conflict(a, b, [3, 4], [2, 3])  # 9 against 7
    assert out.details["winner"] == "self"
    assert out.state["superiority"] == 4
    assert out.details["target"]["superiority"] == 3
    assert out.flags["decisive_strike_allowed"] is False


def test_case_22_many_wounds_make_a_strong_hit_likely():
    out = run("decisive_strike", npc(kind="minor", wounds=8), [1, 1])
    assert (out.total, out.band) == (10, "10+")
