"""Every acceptance case of ``shared/rules/crows_a_checks_slots_dungeon.md`` §(b), with the
exact dice faces. Test names carry the case number; "nat" is the natural 2d10 sum."""

from __future__ import annotations

import pytest
from crows_helpers import (
    RS,
    choose,
    in_dungeon,
    inventory_with,
    lantern,
    lock,
    monster,
    oil,
    pc,
    potion,
    ring,
    rock,
    run,
    torch,
    with_items,
)

from systems.core.dice import ScriptedDice
from systems.core.ruleset import RulesError
from systems.crows import end_dungeon_turn, place
from systems.crows.conditions import speed
from systems.crows.inventory import occupied, placement_of, retrieve_from_backpack
from systems.crows.items import make_item


def athlete(**kw):
    return pc(expertises=[{"key": "athletics", "uses": 2, "max": 2}], **kw)


# --- checks -----------------------------------------------------------------------------------


def test_case_01_agility_plus_1_faces_4_6_is_11_tier_1():
    out = run("check", pc(agility=1), [4, 6], characteristic="agility")
    assert (out.total, out.band, out.faces) == (11, "1", [4, 6])
    assert out.flags["crit"] is False and out.flags["doom"] is False


@pytest.mark.parametrize(("faces", "total"), [([5, 6], 12), ([9, 6], 16)])
def test_case_02_agility_plus_1_totals_12_and_16_are_tier_2(faces, total):
    out = run("check", pc(agility=1), faces, characteristic="agility")
    assert (out.total, out.band) == (total, "2")


def test_case_04_double_disadvantage_nat_19_is_a_crit_tier_3_without_downgrade():
    out = run("check", pc(reason=-1), [9, 10], characteristic="reason", disadvantages=2)
    assert out.details["check"]["natural"] == 19
    assert out.total == 18  # no −2 for a double disadvantage
    assert out.band == "3"
    assert out.flags["crit"] is True
    assert out.flags["shift"] == -1  # the shift was there, the crit overrides it


def test_case_05_nat_3_is_a_doom_despite_strength_4_and_advantage_expertise_blocked():
    state = athlete(strength=4)
    out = run("check", state, [1, 2], characteristic="strength", sources=["advantage"])
    assert out.details["check"]["natural"] == 3
    assert out.total == 9  # 3 + 4 + 2
    assert out.band == "1"
    assert out.flags["doom"] is True
    assert out.flags["expertise_blocked"] is True
    assert not out.pending  # no expertise is even offered
    assert out.state["expertises"] == [{"key": "athletics", "uses": 2, "max": 2}]


def test_case_07_flanking_and_high_ground_are_a_double_advantage_tier_up_not_plus_2():
    out = run(
        "check",
        pc(),
        [4, 5],
        characteristic="strength",
        kind="attack",
        attack="melee",
        sources=["flanking", "high_ground"],
    )
    assert out.total == 9  # no +2
    assert out.details["check"]["base_tier"] == 1
    assert out.band == "2"
    assert out.flags["net"] == 2


def test_case_08_double_advantage_and_cover_leave_a_single_advantage():
    out = run(
        "check",
        pc(),
        [5, 5],
        characteristic="strength",
        kind="attack",
        attack="melee",
        sources=["flanking", "high_ground", "cover"],
    )
    assert out.flags["net"] == 1
    assert (out.total, out.band) == (12, "2")


def test_case_10_blessed_weakened_darkness_is_a_single_disadvantage():
    state = pc(
        conditions=[
            {"key": "blessed"},
            {"key": "weakened"},
        ]
    )
    out = run("check", state, [7, 7], characteristic="reason", purpose="perceive", light="dark")
    assert set(out.details["sources"]) == {"blessed", "weakened", "darkness"}
    assert out.details["check"]["advantages"] == 1
    assert out.details["check"]["disadvantages"] == 3
    assert out.flags["net"] == -1
    assert (out.total, out.band) == (12, "2")


def test_case_11_double_disadvantage_tier_1_stays_then_expertise_makes_tier_2():
    out = run("check", athlete(), [3, 4], characteristic="strength", disadvantages=2)
    assert (out.total, out.band) == (7, "1")
    assert out.pending and out.chooser == "player"
    assert [o.key for o in out.options] == ["athletics", "none"]
    done = choose(out, ["athletics"])
    assert done.band == "2"
    assert done.flags["expertise"] == "athletics"
    assert done.state["expertises"][0]["uses"] == 1
    assert not done.pending


# --- slots ------------------------------------------------------------------------------------


def test_case_13_full_backpack_rejects_a_one_slot_item():
    inv = inventory_with(*((rock(n), f"backpack:{n}") for n in range(1, 11)))
    with pytest.raises(RulesError) as err:
        place(inv, make_item("crowbar", "Лом"), "backpack")
    assert "No room in the backpack" in err.value.errors["target"][0]["en"]


def test_case_13_pole_in_backpack_slots_2_and_7_is_invalid():
    pole = make_item("pole", "Десятифутовый шест", slots=2)
    with pytest.raises(RulesError) as err:
        place(inventory_with(), pole, ["backpack:2", "backpack:7"])
    assert "contiguous" in err.value.errors["target"][0]["en"]  # L358, with no line ref shown
    with pytest.raises(RulesError):  # nor a hand and a belt slot
        place(inventory_with(), pole, ["hands:1", "belt:1"])
    ok = place(inventory_with(), pole, ["backpack:2", "backpack:3"])
    assert occupied(ok) == {("backpack", 2): 0, ("backpack", 3): 0}


def test_case_13_a_sixth_potion_needs_a_new_slot():
    inv = inventory_with(*((potion(n), "backpack:1") for n in range(1, 6)))
    assert len(inv["placed"][0]["items"]) == 5
    with pytest.raises(RulesError) as err:
        place(inv, potion(6), "backpack:1")
    assert "full (5)" in err.value.errors["target"][0]["en"]
    after = place(inv, potion(6), "backpack")
    assert placement_of(after, "potion6")["slot"] == 2


def test_case_13_potions_and_locks_never_share_a_slot():
    inv = inventory_with((potion(1), "backpack:1"), (potion(2), "backpack:1"))
    with pytest.raises(RulesError) as err:
        place(inv, lock(1), "backpack:1")
    assert "one kind" in err.value.errors["target"][0]["en"]
    mixed = {
        "placed": [{"area": "backpack", "slot": 1, "items": [potion(1), lock(1)]}],
    }
    with pytest.raises(RulesError):
        RS.validate_state({**pc(), "inventory": mixed})


def test_case_13_two_items_in_one_hand_are_invalid():
    inv = inventory_with((make_item("sword", "Меч"), "hands:1"))
    with pytest.raises(RulesError) as err:
        place(inv, make_item("dagger", "Кинжал"), "hands:1")
    assert "one item" in err.value.errors["target"][0]["en"]
    # Even items that stack elsewhere never stack in a hand (L360).
    d1 = make_item("d1", "Кинжал", kind="dagger", stack=3)
    d2 = make_item("d2", "Кинжал", kind="dagger", stack=3)
    with pytest.raises(RulesError):
        place(inventory_with((d1, "hands:1")), d2, "hands:1")
    bad = {"placed": [{"area": "hands", "slot": 1, "items": [d1, d2]}]}
    with pytest.raises(RulesError):
        RS.validate_state({**pc(), "inventory": bad})
    assert placement_of(place(inventory_with((d1, "belt:1")), d2, "belt:1"), "d2")["slot"] == 1


def test_case_14_retrieve_crowbar_from_slot_7():
    state = with_items(pc(), (make_item("crowbar", "Лом"), "backpack:7"))
    miss = run("retrieve", state, [6], item_id="crowbar")
    assert miss.flags["success"] is False
    assert placement_of(miss.state["inventory"], "crowbar")["area"] == "backpack"
    hit = run("retrieve", state, [7], item_id="crowbar")
    assert hit.flags["success"] is True
    assert placement_of(hit.state["inventory"], "crowbar")["area"] == "hands"


def test_case_14_two_slot_item_in_4_and_5_comes_out_on_a_4():
    inv = inventory_with((make_item("ladder", "Лестница", slots=2), "backpack:4"))
    got = retrieve_from_backpack(inv, "ladder", 4)
    assert got.success and got.needed == 4
    assert placement_of(got.inventory, "ladder") == {
        "area": "hands",
        "slot": 1,
        "items": [placement_of(inv, "ladder")["items"][0]],
    }
    assert not retrieve_from_backpack(inv, "ladder", 3).success


# --- damage -----------------------------------------------------------------------------------


def armoured(**kw):
    mail = make_item("mail", "Кольчуга", slots=2, armour={"defence": 2})
    shield = make_item("shield", "Щит", armour={"defence": 1, "shield": True})
    state = with_items(pc(**kw), (mail, "backpack:1"), (shield, "hands:1"))
    state["inventory"]["worn_armour"] = "mail"
    return RS.validate_state(state)


def test_case_16_shield_first_then_armour_then_stamina_spill_over():
    state = armoured(stamina=3, stamina_max=3)
    out = run("take_damage", state, [], amount=4, armour_order=["shield"])
    assert out.details["damage"]["absorbed"] == {"shield": 1, "mail": 2}
    cards = {c["id"]: c for p in out.state["inventory"]["placed"] for c in p["items"]}
    assert cards["shield"]["armour"]["defence"] == 0
    assert cards["mail"]["armour"]["defence"] == 0
    assert out.state["stamina"] == 2
    assert out.state["inventory"]["wounds"] == []


def test_case_17_piercing_skips_armour_and_wounds_cost_speed_where_items_lie():
    state = with_items(
        pc(stamina=1, stamina_max=5, speed=6),
        (make_item("mail", "Кольчуга", armour={"defence": 3}), "backpack:1"),
        (make_item("rope", "Верёвка"), "backpack:9"),
    )
    state["inventory"]["worn_armour"] = "mail"
    state = RS.validate_state(state)
    out = run("take_damage", state, [], amount=3, piercing=True, wound_slots=[9, 10])
    cards = {c["id"]: c for p in out.state["inventory"]["placed"] for c in p["items"]}
    assert cards["mail"]["armour"]["defence"] == 3
    assert out.state["stamina"] == 0
    assert out.details["damage"]["wounds"] == [9, 10]
    assert speed(out.state) == 5  # −1: slot 9 holds a wound and an item
    assert out.flags["died"] is False


def test_case_19_vulnerable_adds_1d6_to_the_hit():
    state = pc(stamina=5, stamina_max=5, conditions=[{"key": "vulnerable"}])
    out = run("take_damage", state, [4], amount=2)
    assert out.details["damage"]["vulnerable_extra"] == 4
    assert out.details["damage"]["total"] == 6
    assert out.state["stamina"] == 0
    assert len(out.state["inventory"]["wounds"]) == 1


def test_case_20_attack_on_unconscious_target_is_tier_3_even_at_net_minus_2():
    # Unconscious means prone (L464): a ranged attack has disadvantage, one more makes −2.
    out = run(
        "check",
        pc(),
        [3, 4],
        characteristic="agility",
        kind="attack",
        attack="ranged",
        disadvantages=1,
        target_conditions=["unconscious"],
    )
    assert "target_prone_ranged" in out.details["sources"]
    assert out.details["check"]["natural"] == 7
    assert out.flags["net"] == -2
    assert out.band == "3"
    assert out.flags["automatic"] == "tier3"
    assert "extra_action" not in out.flags


def test_case_20_nat_20_on_unconscious_target_is_tier_3_and_an_extra_action():
    out = run(
        "check",
        pc(),
        [10, 10],
        characteristic="strength",
        kind="attack",
        attack="melee",
        disadvantages=2,
        target_conditions=["unconscious"],
    )
    assert out.band == "3" and out.flags["crit"] is True
    assert out.flags["extra_action"] is True


def test_case_20_unconscious_strength_resistance_roll_is_an_automatic_doom():
    sleeper = monster(strength=3, conditions=[{"key": "unconscious"}])
    out = run("resistance", sleeper, [], characteristic="strength")  # no dice rolled
    assert out.band == "1"
    assert out.flags["doom"] is True
    assert out.flags["automatic"] == "doom"
    assert out.faces == []


# --- wear dice, light -------------------------------------------------------------------------


def test_case_22_torch_burns_down_then_goes_out_and_it_is_dark():
    state = with_items(pc(), (torch(3), "hands:1"))
    first = end_dungeon_turn(in_dungeon(1), [state], dice=ScriptedDice([1, 4, 2, 1]))
    rolled = first.of_type("wear_rolled")
    assert rolled[0]["faces"] == [1, 4, 2]
    assert rolled[0]["after"] == 1
    assert not first.of_type("darkness")
    second = end_dungeon_turn(first.campaign, first.characters, dice=ScriptedDice([2, 1]))
    (event,) = second.of_type("wear_rolled")
    assert (event["after"], event["outcome"], event["light_out"]) == (0, "useless", True)
    card = second.characters[0]["inventory"]["placed"][0]["items"][0]
    assert card["useless"] is True and card["light"]["lit"] is False
    (dark,) = second.of_type("darkness")
    assert dark["silent"] == "guess_square"
    # In darkness attacks and search checks have double disadvantage (L590).
    attack = run(
        "check",
        second.characters[0],
        [6, 6],
        characteristic="strength",
        kind="attack",
        attack="melee",
        light="dark",
    )
    search = run(
        "check",
        second.characters[0],
        [6, 6],
        characteristic="reason",
        purpose="perceive",
        light="dark",
    )
    for out in (attack, search):
        assert out.flags["net"] == -2 and out.band == "1"  # 12 → tier 2 → shifted to tier 1
    with pytest.raises(RulesError):  # a useless torch cannot be lit again
        run("light", second.characters[0], [], item_id="torch")


def test_case_23_lantern_runs_dry_and_a_pint_of_oil_refills_2_dice():
    state = with_items(pc(), (lantern(2), "hands:1"), (oil(1), "belt:1"))
    out = end_dungeon_turn(in_dungeon(1), [state], dice=ScriptedDice([1, 2, 1]))
    (event,) = out.of_type("wear_rolled")
    assert (event["faces"], event["after"], event["outcome"]) == ([1, 2], 0, "needs_refuel")
    refuelled = run("refuel", out.characters[0], [], item_id="lantern", fuel_id="oil1")
    assert refuelled.details["wear"]["dice"] == 2
    assert refuelled.details["fuel_used"] == "oil1"
    relit = run("light", refuelled.state, [], item_id="lantern")
    assert relit.details["light"]["lit"] is True


# --- the end of a dungeon turn ----------------------------------------------------------------


def turn_2_party():
    lucky = with_items(
        pc(
            name="Кольценосец",
            conditions=[{"key": "blessed"}, {"key": "vulnerable"}, {"key": "weakened"}],
        ),
        (torch(2), "hands:1"),
    )
    lucky["inventory"]["magic"]["finger"] = [ring(1), ring(2)]
    return [RS.validate_state(lucky)]


def test_case_25_end_of_turn_2_in_order_and_a_9_is_a_sign():
    result = end_dungeon_turn(in_dungeon(2), turn_2_party(), dice=ScriptedDice([5, 6, 3, 9]))
    kinds = [e["type"] for e in result.events]
    assert kinds == [
        "turn_ended",
        "wear_rolled",
        "condition_ended",
        "condition_ended",
        "condition_ended",
        "overload_wounds",
        "encounter_check",
        "turn_started",
    ]
    assert {e["condition"] for e in result.of_type("condition_ended")} == {
        "blessed",
        "vulnerable",
        "weakened",
    }
    (overload,) = result.of_type("overload_wounds")
    assert (overload["roll"], len(overload["wounds"]), overload["magic_slots"]) == (
        3,
        3,
        ["finger"],
    )
    assert len(result.characters[0]["inventory"]["wounds"]) == 3
    (check,) = result.of_type("encounter_check")
    assert (check["roll"], check["threshold"], check["result"]) == (9, 9, "sign")
    (started,) = result.of_type("turn_started")
    assert (started["turn"], started["minutes"]) == (3, 30)
    assert started["pending_encounters"][0]["due_turn"] == 3
    assert result.campaign["turn"] == 3
    assert result.campaign["pending_encounters"][0]["signed_turn"] == 2


@pytest.mark.parametrize(
    ("roll", "populated", "chaos", "threshold", "expected"),
    [
        (10, False, False, 9, "immediate"),
        (8, False, False, 9, "none"),
        (8, True, True, 7, "sign"),
        (8, True, False, 8, "sign"),
    ],
)
def test_case_25_encounter_variants(roll, populated, chaos, threshold, expected):
    camp = in_dungeon(2, populated=populated, chaos=chaos)
    result = end_dungeon_turn(camp, turn_2_party(), dice=ScriptedDice([5, 6, 3, roll]))
    (check,) = result.of_type("encounter_check")
    assert (check["threshold"], check["result"]) == (threshold, expected)
    assert bool(result.campaign["pending_encounters"]) == (expected == "sign")


def test_case_26_greed_reward_on_a_first_visit():
    def found(turn: int, value: int, first: bool = True) -> int:
        camp = in_dungeon(turn, first_visit=first)
        return run("treasure_found", camp, [], value=value).total

    assert found(1, 150) == 195
    assert found(2, 150) == 180
    assert found(4, 150) == 150
    assert found(1, 150, first=False) == 150
    assert found(3, 155) == 170  # 170.5 rounds down (L118)


def test_case_26_second_visit_gets_no_greed_reward():
    camp = RS.default_campaign()
    first = run("enter_dungeon", camp, [], dungeon="Склеп")
    assert first.state["first_visit"] is True
    left = run("leave_dungeon", first.state, [])
    again = run("enter_dungeon", left.state, [], dungeon="склеп")
    assert again.state["first_visit"] is False
    assert run("treasure_found", again.state, [], value=150).total == 150


# --- hazards ----------------------------------------------------------------------------------


def test_case_28_fall_of_25_ft_with_a_tier_2_resistance_roll():
    out = run("fall", pc(stamina=10, stamina_max=10), [5, 4, 6, 6, 3], feet=25)
    assert out.details["fall_faces"] == [5, 4]
    assert (out.total, out.band) == (12, "2")
    assert out.details["reduction_faces"] == [3]
    assert out.details["damage"]["total"] == 6
    assert out.details["damage"]["piercing"] is True
    assert out.state["stamina"] == 4


def test_case_29_suffocation_strength_1_four_safe_rounds_then_1d6_each_round():
    state = pc(strength=1, stamina=10, stamina_max=10)
    for rnd in range(1, 5):
        out = run("suffocate", state, [], round=rnd)
        assert "damage" not in out.details
        assert out.details["hold_rounds"] == 4
    fifth = run("suffocate", state, [2], round=5)
    assert fifth.details["damage"]["total"] == 2
    sixth = run("suffocate", fifth.state, [3], round=6)
    assert sixth.state["stamina"] == 5


# --- attacks (overlap with part B) ------------------------------------------------------------


def test_case_31_ranged_miss_next_to_allies_rolls_parity():
    odd = run("ranged_miss", pc(), [3], allies_adjacent=2)
    assert odd.flags["ally_hit"] is True and odd.details["damage_tier"] == 2
    even = run("ranged_miss", pc(), [4], allies_adjacent=2)
    assert even.flags["ally_hit"] is False
    doom = run("ranged_miss", pc(), [], allies_adjacent=1, doom=True)
    assert doom.flags["ally_hit"] is True and doom.details["damage_tier"] == 3


def test_case_31_range_6_at_8_squares_is_minus_4():
    out = run(
        "check",
        pc(),
        [8, 8],
        characteristic="agility",
        kind="attack",
        attack="ranged",
        weapon_range=6,
        distance=8,
    )
    assert out.details["parts"]["range"] == -4
    assert out.total == 12


def test_case_32_crit_extra_action_on_and_off_your_turn():
    own = run("check", pc(), [10, 9], characteristic="strength", kind="attack", attack="melee")
    assert own.flags["extra_action"] is True and own.flags["use"] == "this_turn"
    readied = run(
        "check",
        pc(),
        [9, 10],
        characteristic="strength",
        kind="attack",
        attack="melee",
        on_own_turn=False,
    )
    assert readied.flags["use"] == "immediately"


# --- rest -------------------------------------------------------------------------------------


def test_case_34_prepare_for_a_task_gives_a_flat_plus_2_until_the_next_rest_ends():
    task = "Вскрыть замок на двери в северном зале"
    rested = run("end_rest", pc(agility=1), [], activity="prepare", task=task)
    assert rested.state["prepared"] == [{"task": task, "bonus": 2}]
    out = run("check", rested.state, [5, 4], characteristic="agility", task=task)
    assert out.details["parts"]["prepared"] == 2
    assert out.flags["net"] == 0  # a bonus, not an advantage
    assert out.total == 12 and out.band == "2"
    other = run("check", rested.state, [5, 4], characteristic="agility", task="Другой замок")
    assert "prepared" not in other.details["parts"]
    next_rest = run("end_rest", rested.state, [])
    assert next_rest.state["prepared"] == []
