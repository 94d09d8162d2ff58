"""Rules beyond the digest's table: sheets, combat [published edition], settings, the deck."""

from __future__ import annotations

import json
import warnings
from fractions import Fraction

import pytest
from dyce import H, P, explode_n
from sw_helpers import RS, choose, extra, gm_wild_card, run, sheet, stacked, table

from systems.core.dice import ScriptedDice
from systems.core.notation import MAX_EXPLOSIONS
from systems.core.ruleset import RulesError
from systems.savage_worlds import deck as dk
from systems.savage_worlds.odds import (
    natural_distribution,
    p_at_least,
    raise_odds_exact,
    trait_odds_exact,
)
from systems.savage_worlds.traits import parse_die, roll_exploding

# --- description and sheets ------------------------------------------------------------------


def test_describe_is_json_and_marks_the_published_rules():
    d = RS.describe()
    json.dumps(d, ensure_ascii=False)
    keys = {m["key"] for m in d["moves"]} | {m["key"] for m in d["actions"]}
    assert {
        "trait_check",
        "opposed_check",
        "cooperative_check",
        "group_check",
        "attack",
        "take_damage",
        "deal_round",
        "spend_benny",
        "start_session",
    } <= keys
    by_key = {m["key"]: m for m in d["moves"] + d["actions"]}
    assert "source" not in by_key["trait_check"]  # rulebook lines stay in the code, never sent
    assert d["settings_defaults"]["damage_bennies"] == "no_mercy"
    assert [a["ru"] for a in d["attributes"]][3] == "Сила"
    assert len(d["cards"]) == 54


def test_default_state_is_valid_and_a_pc_is_a_wild_card():
    state = RS.default_state()
    assert state["wild_card"] is True and state["role"] == "pc"
    state["wild_card"] = False
    with pytest.raises(RulesError) as err:
        RS.validate_state(state)
    assert "wild_card" in err.value.errors


def test_die_fields_normalise_and_reject():
    state = sheet(attributes={"strength": "к8", "vigor": "D12 + 2"})
    assert state["attributes"]["strength"] == "d8"
    assert state["attributes"]["vigor"] == "d12+2"
    for bad in ("d7", "d8+1", "2d6", "", "d12+11"):
        with pytest.raises(RulesError):
            sheet(attributes={"strength": bad})


def test_skills_must_not_repeat_and_weapon_damage_must_parse():
    with pytest.raises(RulesError):
        RS.validate_state(
            {
                **RS.default_state(),
                "skills": [
                    {"key": "", "name": "Драка", "die": "d6"},
                    {"key": "", "name": "драка", "die": "d8"},
                ],
            }
        )
    with pytest.raises(RulesError):
        RS.validate_state({**RS.default_state(), "weapons": [{"name": "меч", "damage": "str+d7"}]})


def test_derived_values():
    state = sheet(
        skills={"fighting": "d8"},
        attributes={"vigor": "d12+1"},
        armor=2,
        edges=[{"name": "Ловкач", "parry": 1, "charisma": 2}],
        hindrances=[{"name": "Толстяк", "pace": -1, "toughness": 1, "major": True}],
        wounds=2,
    )
    d = RS.derived(state)
    assert d["parry"] == 2 + 4 + 1
    assert d["toughness"] == 2 + 6 + 0 + 2 + 1  # d12+1: half of 12, half of 1 rounds down
    assert d["pace"] == 5
    assert d["charisma"] == 2
    assert d["wound_penalty"] == -2
    assert RS.derived(state, {"wounds_reduce_pace": True})["pace"] == 3
    assert RS.derived(sheet())["parry"] == 2


def test_display_name_carries_the_glyph():
    assert RS.display_name(sheet(name="Весёлый Джек"), {"wild_card_glyph": "¤¤"}) == (
        "¤¤Весёлый Джек"
    )
    assert RS.display_name(extra(name="стражник")) == "стражник"


# --- trait checks --------------------------------------------------------------------------


def test_wound_and_fatigue_penalties_apply_to_trait_checks():
    out = run("trait_check", sheet(wounds=3, fatigue=1), [6, 5, 2], trait="agility")
    assert out.details["roll"]["parts"] == {"wounds": -3, "fatigue": -1}
    assert out.total == 11 - 4


def test_d12_plus_bonus_is_a_modifier():
    out = run("trait_check", extra(attributes={"strength": "d12+2"}), [3], trait="strength")
    assert out.total == 5


def test_no_chance_without_training_rolls_nothing():
    out = run("trait_check", sheet(), [], trait="хирургия", no_chance=True)
    assert out.band == "failure" and out.total is None and out.flags["no_chance"]


def test_critical_failure_fails_even_with_big_modifiers():
    out = run("trait_check", sheet(), [1, 1], trait="strength", modifier=10)
    assert out.total == 11
    assert out.band == "critical_failure"
    assert out.flags["success"] is False


def test_best_attempt_prefers_a_plain_failure_to_a_critical_one():
    out = run(
        "trait_check",
        sheet(bennies=1),
        [1, 1, 2, 1],
        trait="strength",
        modifier=2,
        choices=["reroll"],
    )
    assert [a["total"] for a in out.details["attempts"]] == [3, 4]
    assert out.band == "success"
    out = run(
        "trait_check",
        sheet(bennies=1),
        [1, 1, 1, 2],
        trait="strength",
        modifier=-1,
        choices=["reroll"],
    )
    assert out.total == 1 and out.band == "failure"  # 1 beats the critical 0


def test_swade_setting_forbids_rerolling_a_critical_failure():
    out = run("trait_check", sheet(bennies=3), [1, 1], trait="strength")
    assert out.pending  # seed: allowed (digest §7.5)
    out = run(
        "trait_check",
        sheet(bennies=3),
        [1, 1],
        trait="strength",
        settings={"reroll_critical_failure": False},
    )
    assert not out.pending and out.band == "critical_failure"


def test_pool_is_for_gm_characters_only():
    out = run("trait_check", sheet(bennies=0), [1, 2], trait="strength", pool=5)
    assert not out.pending
    with pytest.raises(RulesError):
        RS.resolve("spend_benny", sheet(bennies=1), dice=ScriptedDice([]), source="pool", pool=3)


def test_extras_may_use_the_pool():
    out = run("trait_check", extra(), [2], trait="strength", pool=1)
    assert out.chooser == "referee"
    out = choose(out, "reroll_pool", [5])
    assert not out.pending and out.total == 5 and out.details["pool"] == 0


def test_bad_choices_are_rejected():
    out = run("trait_check", sheet(bennies=1), [2, 1], trait="strength")
    with pytest.raises(RulesError):
        RS.apply_choice(out, ["reroll_pool"], dice=ScriptedDice([]))
    with pytest.raises(RulesError):
        RS.apply_choice(out, ["keep", "keep"])
    done = choose(out, "keep")
    with pytest.raises(RulesError):
        RS.apply_choice(done, ["keep"])
    with pytest.raises(RulesError):
        run("trait_check", sheet(), [2, 1], trait="strength", choices=["keep"])


def test_group_check_double_one_and_wild_cards():
    out = run("group_check", extra(), [1, 1], trait="spirit")
    assert out.band == "critical_failure"
    out = run("group_check", extra(), [1, 1], trait="spirit", settings={"group_check_crit": False})
    assert out.band == "failure"
    with pytest.raises(RulesError):
        run("group_check", gm_wild_card(), [], trait="spirit")


def test_cooperative_strength_helpers_need_no_skill_and_helper_crit_counts_nothing():
    leader = sheet()
    helpers = [sheet(name="a"), extra(name="b")]
    # helper a: 1, 1 (critical) -> 0; helper b: [6, 6, 1] = 13 -> +3; leader 2, 3 -> 3 + 3
    out = run("cooperative_check", leader, [1, 1, 6, 6, 1, 2, 3], trait="strength", helpers=helpers)
    assert [h["bonus"] for h in out.details["helpers"]] == [0, 3]
    assert out.total == 6


def test_opposed_settings():
    # SWADE-style: the attacker needs 4 to win even against a lower total.
    out = run("opposed_check", extra(), [3], trait="strength", defender_total=2)
    assert out.band == "attacker" and out.details["raises"] == 0
    out = run(
        "opposed_check",
        extra(),
        [3],
        trait="strength",
        defender_total=2,
        settings={"opposed_needs_tn": True},
    )
    assert out.band == "defender"
    # L49: the loser's 1 is the TN: 9 - 1 = 8 -> 2 raises; with the floor of 4 only 1.
    out = run("opposed_check", extra(), [6, 3], trait="strength", defender_total=1)
    assert out.details["raises"] == 2
    out = run(
        "opposed_check",
        extra(),
        [6, 3],
        trait="strength",
        defender_total=1,
        settings={"opposed_raise_floor": True},
    )
    assert out.details["raises"] == 1


def test_opposed_defender_may_reroll_after_the_lock():
    attacker = extra()
    defender = sheet(bennies=1, name="D")
    out = run("opposed_check", attacker, [5, 2, 1], trait="strength", defender=defender)
    assert out.pending and out.flags["roller"] == "defender" and out.chooser == "player"
    assert out.details["attacker"]["locked"] is True
    out = choose(out, "reroll", [6, 2, 3])
    assert out.band == "defender"
    assert out.details["defender_state"]["bennies"] == 0
    assert out.state["bennies"] == attacker["bennies"]


# --- combat [published edition] ------------------------------------------------------------


def fighter(**changes):
    return extra(
        skills={"fighting": "d8", "shooting": "d6"},
        attributes={"strength": "d8"},
        weapons=[
            {"name": "Меч", "damage": "str+d8", "skill": "fighting"},
            {"name": "Лук", "damage": "2d6", "skill": "shooting", "ap": 1},
        ],
        **changes,
    )


def test_attack_hit_rolls_damage_and_previews_the_target():
    target = sheet(skills={"fighting": "d6"}, attributes={"vigor": "d6"})  # Parry 5, T 5
    out = run("attack", fighter(), [7, 3, 4], weapon="Меч", target=target)
    assert out.details["roll"]["tn"] == 5
    assert out.band == "success" and out.flags["hit"]
    assert out.details["damage_roll"]["dice"] == [8, 8]
    assert out.details["damage"] == 7
    assert out.details["target_effect"] == {
        "damage": 7,
        "toughness": 5,
        "shaken": True,
        "raises": 0,
        "wounds": 0,
    }


def test_attack_raise_adds_an_exploding_d6():
    out = run("attack", fighter(), [8, 1, 3, 4, 6, 2], weapon="Меч", target_parry=5)
    assert out.flags["raises"] == 1
    assert out.details["damage_roll"]["dice"] == [8, 8, 6]
    assert out.details["damage"] == 3 + 4 + 8


def test_attack_miss_rolls_no_damage():
    out = run("attack", fighter(), [2], weapon="Меч", target_parry=5)
    assert out.band == "failure" and "damage" not in out.details


def test_ranged_attack_uses_tn_4_and_range():
    out = run("attack", fighter(), [5], weapon="Лук", range="long")
    assert out.details["roll"]["tn"] == 4 and out.details["roll"]["parts"]["range"] == -4
    assert out.band == "failure"  # 5 - 4 = 1
    out = run("attack", fighter(), [5, 2, 3], weapon="Лук")
    assert out.details["damage"] == 5 and out.details["ap"] == 1


def test_shaken_or_incapacitated_cannot_attack():
    with pytest.raises(RulesError):
        run("attack", fighter(shaken=True), [], weapon="Меч", target_parry=5)
    with pytest.raises(RulesError):
        run("attack", fighter(status="incapacitated"), [], weapon="Меч", target_parry=5)


def test_damage_bennies_need_no_mercy_or_the_swade_setting():
    pc = sheet(skills={"fighting": "d8"}, bennies=2)
    out = run("damage_roll", pc, [2, 1], damage="str+d6")
    assert not out.pending and out.total == 3
    merciless = sheet(skills={"fighting": "d8"}, bennies=2, edges=[{"name": "Беспощадный"}])
    out = run("damage_roll", merciless, [2, 1], damage="str+d6")
    assert out.pending
    out = choose(out, "reroll", [5, 4])
    out = choose(out, "keep")
    assert out.total == 9 and out.state["bennies"] == 1
    out = run("damage_roll", pc, [2, 1], damage="str+d6", settings={"damage_bennies": "anyone"})
    assert out.pending
    with pytest.raises(RulesError):
        RS.resolve("spend_benny", pc, dice=ScriptedDice([]), purpose="damage_reroll")
    RS.resolve("spend_benny", merciless, dice=ScriptedDice([]), purpose="damage_reroll")


def test_attack_with_bennies_rerolls_the_hit_then_damage_is_final():
    pc = sheet(skills={"fighting": "d8"}, attributes={"strength": "d6"}, bennies=1)
    out = run("attack", pc, [2, 1], target_parry=4)
    assert out.pending
    out = choose(out, "reroll", [8, 3, 1, 5, 2])  # 11 vs 4: one raise; str d6 [5] + d6 [2]
    assert not out.pending
    assert out.flags["raises"] == 1
    assert out.details["damage"] == 7
    assert out.details["bennies_spent"] == 1


def test_soak_every_wound_also_clears_the_shaken_it_caused():
    target = sheet(attributes={"vigor": "d6"}, bennies=1)
    out = run("take_damage", target, [], damage=9)
    assert out.pending and {o.key for o in out.options} == {"accept", "soak"}
    done = choose(out, "soak", [4, 2])
    assert done.details["soaked"] == 1
    assert done.state["wounds"] == 0 and done.state["shaken"] is False
    assert done.state["bennies"] == 0
    accepted = choose(out, "accept")
    assert accepted.state["wounds"] == 1 and accepted.state["shaken"] is True


def test_partial_soak_and_soak_rerolls():
    target = sheet(attributes={"vigor": "d6"}, bennies=2)
    out = run("take_damage", target, [], damage=13)  # two wounds
    out = choose(out, "soak", [2, 1])  # failure: one benny left, may roll again
    assert out.pending and {o.key for o in out.options} == {"keep", "reroll"}
    out = choose(out, "reroll", [5, 3])
    assert out.details["soaked"] == 1
    assert out.state["wounds"] == 1 and out.state["shaken"] is True


def test_wild_card_past_three_wounds_is_incapacitated_and_rolls_vigor():
    target = sheet(attributes={"vigor": "d6"}, wounds=2)
    out = run("take_damage", target, [], damage=13)
    assert out.state["wounds"] == 3 and out.state["status"] == "incapacitated"
    assert out.flags["incapacitation_roll_due"] is True
    # Each roll that injures then rolls the Injury Table: 2d6 (and a d6 for guts and head).
    roll = run("incapacitation_roll", out.state, [6, 2, 3, 1, 1])  # 8 - 3 = 5: success
    assert roll.state["status"] == "incapacitated" and roll.flags["injury"] == "until_healed"
    assert roll.flags["injury_result"] == "unmentionables"
    roll = run("incapacitation_roll", out.state, [4, 2])  # 4 - 3 = 1: dies (Deluxe), no table
    assert roll.state["status"] == "dead" and "injury_result" not in roll.flags
    roll = run("incapacitation_roll", out.state, [5, 2, 2, 2])  # 2: failure
    assert roll.state["status"] == "bleeding_out" and roll.flags["injury"] == "permanent"
    assert roll.flags["injury_result"] == "arm"
    roll = run("incapacitation_roll", out.state, [6, 5, 2, 5, 5])  # 11 - 3 = 8: raise
    assert roll.flags["injury"] == "24_hours" and roll.flags["injury_result"] == "leg"
    roll = run(
        "incapacitation_roll",
        out.state,
        [6, 5, 2, 6, 6, 6],
        settings={"incapacitation": "explorer"},
    )
    assert roll.state["status"] == "active" and roll.state["shaken"] is True
    assert roll.flags["injury"] == "until_combat_ends"
    assert roll.flags["injury_result"] == "head_brain"


def test_bleeding_out():
    state = sheet(status="bleeding_out", wounds=3)
    assert run("bleeding_out", state, [5, 2]).state["status"] == "dead"
    assert run("bleeding_out", state, [6, 1, 2]).state["status"] == "bleeding_out"
    assert run("bleeding_out", state, [6, 5, 2]).state["status"] == "incapacitated"
    with pytest.raises(RulesError):
        run("bleeding_out", sheet(), [])


@pytest.mark.parametrize(
    ("rule", "faces", "shaken", "can_act"),
    [
        ("deluxe", [4, 1], False, False),
        ("deluxe", [6, 2, 1], False, True),
        ("deluxe", [2, 3], True, False),
        ("swade", [4, 1], False, True),
    ],
)
def test_recover_shaken_by_edition(rule, faces, shaken, can_act):
    out = run("recover_shaken", sheet(shaken=True), faces, settings={"shaken_recovery": rule})
    assert out.state["shaken"] is shaken
    assert out.flags["can_act"] is can_act


def test_a_benny_removes_shaken():
    out = RS.resolve(
        "spend_benny", sheet(shaken=True, bennies=1), dice=ScriptedDice([]), purpose="unshake"
    )
    assert out.state["shaken"] is False and out.state["bennies"] == 0


def test_give_benny_with_common_bond_and_award():
    giver = sheet(bennies=2, edges=[{"name": "Общее дело", "rule": "common_bond"}])
    out = RS.resolve("give_benny", giver, dice=ScriptedDice([]), recipient=sheet(bennies=0))
    assert out.state["bennies"] == 1 and out.details["recipient"]["bennies"] == 1
    with pytest.raises(RulesError):
        RS.resolve("give_benny", sheet(bennies=2), dice=ScriptedDice([]), recipient=sheet())
    out = RS.resolve("award_benny", sheet(bennies=2), dice=ScriptedDice([]))
    assert out.state["bennies"] == 3


# --- the action deck [published edition] ----------------------------------------------------


def _dealt(deck):
    return {e["id"]: e["card"] for e in deck["dealt"]}


def test_level_headed_quick_and_hesitant():
    deck = dk.shuffle(
        dk.new_deck(),
        ScriptedDice([], shuffles=[stacked("3C", "KD", "4H", "2S", "9C", "JD", "2D", "RJ", "5S")]),
    )
    people = [
        {"id": "lh", "edge": "level_headed"},
        {"id": "quick", "edge": "quick"},
        {"id": "hes", "edge": "hesitant"},
        {"id": "q2", "edge": "quick"},
        {"id": "x"},
    ]
    new = dk.deal_round(deck, people, ScriptedDice([]))
    assert _dealt(new) == {"lh": "KD", "quick": "9C", "hes": "2D", "q2": "RJ", "x": "5S"}
    assert not dk.check_deck(new)
    assert set(new["discard"]) == {"3C", "4H", "2S", "JD"}
    assert new["shuffle_due"] is True


def test_hesitant_keeps_a_joker():
    deck = dk.shuffle(dk.new_deck(), ScriptedDice([], shuffles=[stacked("BJ", "2C")]))
    new = dk.deal_round(deck, [{"id": "h", "edge": "hesitant"}], ScriptedDice([]))
    assert _dealt(new) == {"h": "BJ"}


def test_suits_break_ties():
    deck = dk.shuffle(dk.new_deck(), ScriptedDice([], shuffles=[stacked("7C", "7D", "7H", "7S")]))
    new = dk.deal_round(deck, [{"id": s} for s in "cdhs"], ScriptedDice([]))
    assert [e["id"] for e in dk.initiative(new)] == ["s", "h", "d", "c"]


def test_empty_draw_pile_takes_the_shuffled_discards():
    deck = dk.shuffle(dk.new_deck(), ScriptedDice([], shuffles=[dk.full_deck()]))
    people = [{"id": str(i)} for i in range(20)]
    shuffles = []
    deck = dk.deal_round(deck, people, ScriptedDice([]))
    deck = dk.deal_round(deck, people, ScriptedDice([]))  # 40 dealt, 14 left (no joker yet)
    assert len(deck["draw"]) == 14 and not deck["shuffle_due"]
    discards = [c for e in deck["dealt"] for c in e["drawn"]]  # become discards next deal
    old = list(deck["discard"]) + discards
    shuffles.append(list(reversed(old)))
    deck = dk.deal_round(deck, people, ScriptedDice([], shuffles=shuffles))
    assert not dk.check_deck(deck)
    assert len(deck["dealt"]) == 20


def test_start_and_end_combat_and_table_validation():
    out = run("start_combat", table(), [], shuffles=[stacked("AS")])
    assert out.state["deck"]["draw"][0] == "AS" and not out.state["deck"]["shuffle_due"]
    out = run("deal_round", out.state, [], participants=[{"id": "A"}])
    assert out.details["order"] == ["A"] and out.details["shuffled"] is False
    out = run("end_combat", out.state, [])
    assert out.state["deck"]["shuffle_due"] is True and out.state["deck"]["dealt"] == []
    broken = table()
    broken["deck"]["draw"] = [*broken["deck"]["draw"][:-1], "AS"]
    with pytest.raises(RulesError):
        RS.validate_table(broken)
    with pytest.raises(RulesError):
        run(
            "deal_round", table(), [], shuffles=[stacked()], participants=[{"id": "A"}, {"id": "A"}]
        )


def test_joker_bennies_setting():
    out = run(
        "deal_round",
        table(),
        [],
        shuffles=[stacked("RJ")],
        participants=[{"id": "A"}],
        settings={"joker_bennies": True},
    )
    assert out.details["joker_bennies"] is True


# --- odds --------------------------------------------------------------------------------------


def _oracle_natural(sides: int, wild: bool) -> dict[int, Fraction]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trait = explode_n(H(sides), n=MAX_EXPLOSIONS)
        h = P(trait, explode_n(H(6), n=MAX_EXPLOSIONS)).at(-1) if wild else trait
    return {int(k): Fraction(v, h.total) for k, v in h.items() if v}


@pytest.mark.parametrize(("sides", "wild"), [(4, True), (6, False), (8, True), (12, True)])
def test_natural_distribution_matches_dyce(sides, wild):
    assert natural_distribution(sides, wild=wild) == _oracle_natural(sides, wild)


@pytest.mark.parametrize(
    ("sides", "wild", "modifier", "tn"),
    [(4, True, -2, 4), (6, True, 0, 4), (8, False, -4, 4), (10, True, 2, 7), (12, True, -6, 4)],
)
def test_band_odds_match_dyce(sides, wild, modifier, tn):
    dist = _oracle_natural(sides, wild)
    crit = Fraction(1, 6 * sides) if wild else Fraction(0)
    odds = trait_odds_exact(sides, wild=wild, modifier=modifier, tn=tn)
    ok = sum(p for v, p in dist.items() if v + modifier >= tn and v > (1 if wild else 0))
    ok_raise = sum(p for v, p in dist.items() if v + modifier >= tn + 4 and v > (1 if wild else 0))
    assert odds["critical_failure"] == crit
    assert odds["success"] + odds["raise"] == ok
    assert odds["raise"] == ok_raise
    assert sum(odds.values()) == 1


def test_known_odds():
    assert trait_odds_exact(6, wild=True)["success"] + trait_odds_exact(6, wild=True)[
        "raise"
    ] == Fraction(3, 4)
    assert p_at_least(6, 7) == Fraction(1, 6)
    assert p_at_least(6, 8) == Fraction(5, 36)
    assert (
        sum(raise_odds_exact(8, wild=True).values())
        == 1 - Fraction(1, 48) - trait_odds_exact(8, wild=True)["failure"]
    )


def test_move_odds():
    odds = RS.odds("trait_check", sheet(), trait="strength")
    assert set(odds) == {"critical_failure", "failure", "success", "raise"}
    assert abs(sum(odds.values()) - 1) < 1e-12
    assert RS.odds("trait_check", sheet(), trait="x", no_chance=True) == {}
    odds = RS.odds_exact("opposed_check", sheet(), trait="strength", defender=extra())
    assert sum(odds.values()) == 1
    fixed = RS.odds_exact("opposed_check", extra(), trait="strength", defender_total=3)
    assert fixed == {
        "attacker": Fraction(1, 2),
        "defender": Fraction(1, 3),
        "stalemate": Fraction(1, 6),
    }
    swade = RS.odds_exact(
        "opposed_check",
        extra(),
        trait="strength",
        defender_total=2,
        settings={"opposed_needs_tn": True},
    )
    assert swade == {"attacker": Fraction(1, 2), "defender": Fraction(1, 2), "stalemate": 0}
    coop = RS.odds_exact("cooperative_check", sheet(), trait="strength", helper_totals=[8])
    plain = RS.odds_exact("trait_check", sheet(), trait="strength", modifier=2)
    assert coop == plain
    assert RS.odds("cooperative_check", sheet(), trait="strength", helpers=[extra()]) == {}
    attack = RS.odds_exact("attack", fighter(), weapon="Меч", target_parry=6)
    assert attack == trait_odds_exact(8, wild=False, tn=6)


def test_roll_exploding_is_capped():
    faces = [6] * (MAX_EXPLOSIONS + 1)
    roll = roll_exploding(ScriptedDice(faces), 6)
    assert roll.capped and roll.total == 6 * (MAX_EXPLOSIONS + 1)
    assert parse_die("к10").label == "d10"
