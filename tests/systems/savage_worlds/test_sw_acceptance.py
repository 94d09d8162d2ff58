"""Every acceptance case of ``shared/rules/savage_worlds.md`` §8, with the exact dice faces.

Test names carry the case id; ``p1``..``p4`` are the published-game cases.
"""

from __future__ import annotations

import pytest
from sw_helpers import RS, choose, extra, gm_wild_card, run, sheet, stacked, table

from systems.core.dice import ScriptedDice
from systems.core.ruleset import RulesError
from systems.savage_worlds.traits import raises_for


def test_case_01_wild_card_strength_d6_keeps_the_better_die():
    out = run("trait_check", sheet(), [3, 5], trait="strength")
    assert out.faces == [3, 5]
    assert out.total == 5
    assert out.band == "success"
    assert out.flags["success"] is True
    assert out.flags["raises"] == 0
    assert out.details["attempts"][0]["kept"] == "wild"
    assert not out.pending


def test_case_02_extra_rolls_no_wild_die():
    with ScriptedDice([3]) as dice:
        out = RS.resolve("trait_check", extra(), dice=dice, trait="Сила")
    assert dice.rolled == [(6, 3)]  # the d6 trait die only
    assert out.total == 3
    assert out.band == "failure"
    assert out.details["attempts"][0]["wild_faces"] is None


@pytest.mark.parametrize(("total", "raises"), [(7, 0), (8, 1), (11, 1), (12, 2)])
def test_case_04_raises_per_full_four_over_tn(total, raises):
    assert raises_for(total, 4) == raises


@pytest.mark.parametrize(
    ("faces", "total", "raises", "band"),
    [
        ([7], 7, 0, "success"),
        ([8], 8, 1, "raise"),
        ([10, 1], 11, 1, "raise"),
        ([10, 2], 12, 2, "raise"),
    ],
)
def test_case_04_raises_through_a_roll(faces, total, raises, band):
    out = run("trait_check", extra(), faces, trait="x", die="d10")
    assert (out.total, out.flags["raises"], out.band) == (total, raises, band)


def test_case_05_ace_before_the_modifier():
    out = run("trait_check", extra(), [6, 2], trait="strength", difficulty="very_difficult")
    assert out.details["attempts"][0]["natural"] == 8
    assert out.modifier == -4
    assert out.total == 4
    assert out.band == "success"
    assert out.flags["raises"] == 0


def test_case_07_wild_card_unskilled_d4_aces_then_minus_2():
    out = run("trait_check", sheet(), [4, 3, 2], trait="boating")
    assert out.flags["unskilled"] is True
    assert out.details["roll"]["sides"] == 4
    assert out.details["attempts"][0]["natural"] == 7
    assert out.total == 5
    assert out.band == "success"
    assert out.flags["raises"] == 0
    assert "Судовождение" in out.text.ru


def test_case_08_extra_unskilled():
    out = run("trait_check", extra(), [3], trait="Судовождение")
    assert out.flags["unskilled"] is True
    assert out.total == 1
    assert out.band == "failure"


def test_case_10_wild_die_ace_is_not_a_critical_failure():
    out = run("trait_check", sheet(skills={"shooting": "d8"}), [1, 6, 1], trait="shooting")
    assert out.total == 7
    assert out.band == "success"
    assert out.flags["critical_failure"] is False


def test_case_11_double_one_unskilled_is_a_critical_failure():
    out = run("trait_check", sheet(), [1, 1], trait="piloting")
    assert out.total == -1
    assert out.band == "critical_failure"
    assert out.flags["critical_failure"] is True
    assert out.flags["success"] is False


def test_case_13_opposed_attacker_locks_then_defender_wins_with_a_raise():
    attacker = sheet(attributes={"strength": "d8"})
    defender = extra(attributes={"strength": "d6"})
    out = run("opposed_check", attacker, [5, 3, 6, 3], trait="strength", defender=defender)
    assert out.details["attacker"]["total"] == 5
    assert out.details["attacker"]["locked"] is True
    assert out.details["defender"]["total"] == 9
    assert out.band == "defender"
    assert out.flags["winner"] == "defender"
    assert out.details["raises"] == 1  # (9 - 5) // 4 with the loser's 5 as the TN (L49)


def test_case_13_attacker_spends_first_and_cannot_after_the_defender_rolls():
    attacker = sheet(attributes={"strength": "d8"}, bennies=2)
    defender = extra(attributes={"strength": "d6"})
    out = run("opposed_check", attacker, [5, 3], trait="strength", defender=defender)
    assert out.pending and out.chooser == "player"
    assert out.flags["roller"] == "self"
    done = choose(out, "keep", [6, 3])  # the attacker accepts: locked; the defender rolls
    assert not done.pending
    assert done.band == "defender"
    assert done.state["bennies"] == 2
    with pytest.raises(RulesError):
        RS.apply_choice(done, ["reroll"], dice=ScriptedDice([8, 6]))


def test_case_14_equal_totals_continue():
    out = run(
        "opposed_check",
        extra(),
        [6, 6],
        trait="strength",
        die="d8",
        defender=extra(),
        defender_die="d8",
    )
    assert out.details["attacker"]["total"] == out.details["defender"]["total"] == 6
    assert out.band == "stalemate"
    assert out.flags["winner"] is None
    assert out.flags["continues"] is True
    assert out.details["raises"] == 0


def test_case_14_against_a_defender_total():
    out = run("opposed_check", extra(), [6], trait="strength", die="d8", defender_total=6)
    assert out.band == "stalemate"


def test_case_16_cooperative_bonus_from_helper_totals():
    leader = sheet(skills={"notice": "d6"})
    out = run("cooperative_check", leader, [3, 2], trait="notice", helper_totals=[9, 5, 2])
    assert [h["bonus"] for h in out.details["helpers"]] == [2, 1, 0]
    assert out.details["cooperation_bonus"] == 3
    assert out.details["attempts"][0]["natural"] == 3
    assert out.total == 6
    assert out.band == "success"


def test_case_16_helpers_roll_the_same_skill_first():
    leader = sheet(skills={"notice": "d6"})
    helpers = [extra(name=n, skills={"notice": "d8"}) for n in ("a", "b", "c")]
    # helpers: [8, 1] = 9, [5], [2]; then the leader: trait 3, wild 2
    out = run("cooperative_check", leader, [8, 1, 5, 2, 3, 2], trait="notice", helpers=helpers)
    assert [h["total"] for h in out.details["helpers"]] == [9, 5, 2]
    assert out.total == 6


def test_case_16_a_helper_without_the_skill_cannot_help():
    with pytest.raises(RulesError) as err:
        run(
            "cooperative_check",
            sheet(skills={"boating": "d6"}),
            [],
            trait="boating",
            helpers=[extra()],
        )
    assert "cannot help" in str(err.value.errors)  # L55


def test_case_17_bonus_capped_at_4_except_strength():
    leader = sheet(skills={"notice": "d6"})
    out = run("cooperative_check", leader, [3, 2], trait="notice", helper_totals=[12, 8])
    assert [h["bonus"] for h in out.details["helpers"]] == [3, 2]
    assert out.details["cooperation_bonus"] == 4
    out = run("cooperative_check", leader, [3, 2], trait="strength", helper_totals=[12, 8])
    assert out.details["cooperation_bonus"] == 5
    assert out.total == 3 + 5


def test_case_19_group_check_one_result_for_all():
    out = run("group_check", extra(), [2, 4], trait="spirit", count=50)
    assert out.total == 4
    assert out.band == "success"
    assert out.flags["group"] is True
    assert out.details["count"] == 50
    assert out.details["attempts"][0]["wild_faces"] == [4]


def test_case_19_group_check_not_in_combat():
    with pytest.raises(RulesError):
        run("group_check", extra(), [], trait="spirit", in_combat=True)


def test_case_20_rerolls_keep_the_best_of_all_attempts():
    pc = sheet(skills={"shooting": "d8"}, bennies=3)
    out = run("trait_check", pc, [5, 2], trait="shooting", difficulty="difficult")
    assert out.pending and out.total == 3
    assert {o.key for o in out.options} == {"keep", "reroll"}
    out = choose(out, "reroll", [4, 1])
    assert out.total == 3  # the best so far is still the first
    assert out.details["attempts"][1]["total"] == 2
    stopped = choose(out, "keep")
    assert (stopped.total, stopped.band, stopped.state["bennies"]) == (3, "failure", 2)
    out = choose(out, "reroll", [7, 3])
    assert out.pending  # one benny left: the player may still re-roll
    out = choose(out, "keep")
    assert [a["total"] for a in out.details["attempts"]] == [3, 2, 5]
    assert out.details["kept"] == 2
    assert out.total == 5
    assert out.band == "success"
    assert out.flags["raises"] == 0
    assert out.state["bennies"] == 1
    assert out.details["bennies_spent"] == 2


def test_case_20_bennies_left_is_one():
    pc = sheet(skills={"shooting": "d8"}, bennies=3)
    out = run(
        "trait_check",
        pc,
        [5, 2, 4, 1, 7, 3],
        trait="shooting",
        difficulty="difficult",
        choices=["reroll", "reroll", "keep"],
    )
    assert out.total == 5
    assert out.state["bennies"] == 1


def test_case_22_no_benny_on_a_table_result():
    with pytest.raises(RulesError) as err:
        RS.resolve("spend_benny", sheet(bennies=3), dice=ScriptedDice([]), purpose="table_result")
    assert "table results" in err.value.errors["purpose"][0]["en"]  # L87


def test_case_23_no_bennies_no_spend():
    with pytest.raises(RulesError):
        RS.resolve("spend_benny", sheet(bennies=0), dice=ScriptedDice([]))
    out = run("trait_check", sheet(bennies=0), [1, 2], trait="strength")
    assert not out.pending  # no re-roll offered


def test_case_25_pool_benny_spent_and_own_bennies_not_shared():
    villain = gm_wild_card(bennies=2)
    out = RS.resolve("spend_benny", villain, dice=ScriptedDice([]), source="pool", pool=4)
    assert out.details["pool"] == 3
    assert out.state["bennies"] == 2
    with pytest.raises(RulesError) as err:
        RS.resolve("give_benny", villain, dice=ScriptedDice([]), recipient=gm_wild_card())
    assert "own bennies" in err.value.errors["role"][0]["en"]  # L95


def test_case_25_pool_benny_on_a_reroll():
    villain = gm_wild_card(bennies=0)
    out = run("trait_check", villain, [2, 1], trait="strength", pool=4)
    assert out.chooser == "referee"
    assert {o.key for o in out.options} == {"keep", "reroll_pool"}
    out = choose(out, "reroll_pool", [5, 1])
    out = choose(out, "keep")
    assert out.details["pool"] == 3
    assert out.details["pool_spent"] == 1
    assert out.total == 5


def test_case_26_session_end_and_start():
    pcs = [sheet(name=f"pc{i}", bennies=i) for i in range(4)]
    npcs = [gm_wild_card(name="Скыч", bennies=1), extra(name="стражник")]
    out = RS.resolve("end_session", table(pool=2), dice=ScriptedDice([]), characters=pcs + npcs)
    assert out.state["pool"] == 0
    assert all(s["bennies"] == 0 for s in out.details["characters"])
    out = RS.resolve(
        "start_session", out.state, dice=ScriptedDice([]), characters=out.details["characters"]
    )
    assert out.state["pool"] == 4
    assert [s["bennies"] for s in out.details["characters"]] == [3, 3, 3, 3, 2, 0]


def test_seed_l71_buck_savage_two_aces():
    buck = sheet(skills={"Стрельба": "d10"})
    out = run("trait_check", buck, [10, 10, 3, 4], trait="Стрельба")
    assert out.total == 23
    assert out.details["attempts"][0]["trait_faces"] == [10, 10, 3]


# --- published game (digest §4, "P" cases) -------------------------------------------------


def test_case_p1_action_deck_order_joker_and_reshuffle():
    state = table()
    people = [{"id": "A"}, {"id": "B"}, {"id": "wolves"}, {"id": "villain"}]
    out = run(
        "deal_round", state, [], shuffles=[stacked("KS", "KH", "QC", "RJ")], participants=people
    )
    assert out.details["shuffled"] is True
    assert out.details["order"] == ["A", "B", "wolves"]
    assert out.details["jokers"] == ["villain"]
    villain = out.details["initiative"][0]
    assert villain["id"] == "villain" and villain["any_time"] and villain["bonus"] == 2
    assert out.flags["shuffle_next"] is True
    again = run(
        "deal_round",
        out.state,
        [],
        shuffles=[stacked("2C", "3C", "4C", "5C")],
        participants=people,
    )
    assert again.details["shuffled"] is True
    assert again.details["order"] == ["villain", "wolves", "B", "A"]
    assert again.state["deck"]["shuffle_due"] is False


def test_case_p1_joker_gives_plus_2_to_trait_and_damage():
    out = run("trait_check", extra(), [2], trait="strength", joker=True)
    assert out.total == 4 and out.details["roll"]["parts"]["joker"] == 2
    out = run("damage_roll", extra(), [3, 2], damage="str+d6", joker=True)
    assert out.total == 3 + 2 + 2


@pytest.mark.parametrize(
    ("damage", "result", "shaken", "wounds"),
    [
        (4, "none", False, 0),
        (5, "shaken", True, 0),
        (9, "wounded", True, 1),
        (13, "wounded", True, 2),
    ],
)
def test_case_p2_damage_against_toughness_5(damage, result, shaken, wounds):
    target = sheet(attributes={"vigor": "d6"})
    assert RS.derived(target)["toughness"] == 5
    out = run("take_damage", target, [], damage=damage)
    assert out.band == result
    assert out.state["shaken"] is shaken
    assert out.state["wounds"] == wounds


def test_case_p3_shaken_again_is_a_wound():
    target = sheet(attributes={"vigor": "d6"}, shaken=True)
    out = run("take_damage", target, [], damage=6)
    assert out.state["wounds"] == 1
    assert out.band == "wounded"


def test_case_p4_extra_is_out_at_the_first_wound():
    target = extra(attributes={"vigor": "d6"})
    out = run("take_damage", target, [], damage=9)
    assert out.band == "incapacitated"
    assert out.state["status"] == "incapacitated"
    assert out.flags["incapacitation_roll_due"] is False
