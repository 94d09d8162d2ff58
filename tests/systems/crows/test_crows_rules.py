"""Rules of Crows part A beyond the digest's acceptance cases, one behaviour per test."""

from __future__ import annotations

import json

import pytest
from crows_helpers import (
    RS,
    campaign,
    choose,
    in_dungeon,
    inventory_with,
    lantern,
    monster,
    pc,
    potion,
    ring,
    rock,
    run,
    torch,
    with_items,
)

from systems import get_ruleset
from systems.core.dice import ScriptedDice
from systems.core.outcome import Option, Outcome, Text
from systems.core.ruleset import RulesError
from systems.crows import (
    end_dungeon_turn,
    finish_rest,
    interrupt_rest,
    pass_time_outside,
    place,
    rest_midpoint,
    start_rest,
)
from systems.crows.checks import d100_from_faces, net_advantage, tier_for_total
from systems.crows.conditions import speed
from systems.crows.dungeon import encounter_threshold
from systems.crows.inventory import (
    add_wounds,
    dump_backpack,
    equip_magic,
    move_cost,
    overloaded_slots,
    placement_of,
    retrieve_from_backpack,
    validate_inventory,
    wear_armour,
)
from systems.crows.items import corpse_card, make_item
from systems.crows.light import campfire, level_at_distance, light_level
from systems.crows.rest import town_activity, town_sleep, town_tend
from systems.crows.terms import EXPERTISES
from tests.playertext import LINE_REF

# --- the registry and description -------------------------------------------------------------


def test_registry_returns_the_crows_ruleset_and_describe_is_json():
    rs = get_ruleset("crows")
    assert rs.key == "crows"
    data = rs.describe()
    json.dumps(data)
    assert data["dice"] == "2d10"
    assert data["bands"] == ["1", "2", "3"]
    assert len(data["expertises"]) == 30
    cats = [e["category"] for e in data["expertises"]]
    assert (cats.count("general"), cats.count("magical"), cats.count("weapon")) == (18, 6, 6)
    assert {c["key"] for c in data["conditions"]} == {
        "blessed",
        "grabbed",
        "prone",
        "vulnerable",
        "unconscious",
        "weakened",
    }
    assert "end_dungeon_turn" in data["party_procedures"]


def test_every_expertise_has_ru_and_en_names_and_a_rulebook_section():
    assert len({e.key for e in EXPERTISES}) == 30
    for e in EXPERTISES:
        assert e.ru and e.en and e.source.startswith("«Проверки › ")


def test_unknown_move_is_a_clear_error():
    with pytest.raises(RulesError) as err:
        RS.resolve("fly", pc(), dice=ScriptedDice([]))
    assert err.value.errors["move"][0]["ru"].startswith("Нет такого хода")


# --- checks -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("total", "tier"), [(-3, 1), (11, 1), (12, 2), (16, 2), (17, 3), (30, 3)])
def test_tier_edges(total, tier):
    assert tier_for_total(total) == tier


@pytest.mark.parametrize(
    ("a", "d", "net"),
    [(1, 1, 0), (2, 2, 0), (3, 1, 1), (1, 3, -1), (2, 0, 2), (0, 5, -2), (0, 0, 0)],
)
def test_advantage_netting(a, d, net):
    assert net_advantage(a, d) == net


@pytest.mark.parametrize(("tier", "modifier"), [(1, -1), (2, 1), (3, 2)])
def test_help_gives_minus_1_plus_1_plus_2(tier, modifier):
    faces = {1: [3, 3], 2: [6, 6], 3: [9, 9]}[tier]
    out = run("help", pc(), faces, characteristic="strength", helping="Борис")
    assert out.band == str(tier)
    assert out.details["help_modifier"] == modifier


def test_help_is_a_flat_bonus_on_the_helped_check():
    out = run("check", pc(), [5, 5], characteristic="strength", help=[2])
    assert out.total == 12 and out.flags["net"] == 0


def test_group_check_tier_2_cost_falls_on_leader_and_helpers_who_gave_minus_1():
    helpers = [{"name": "Анна", "modifier": -1}, {"name": "Борис", "modifier": 2}]
    out = run("group_check", pc(name="Лидер"), [5, 6], characteristic="agility", helpers=helpers)
    assert out.total == 12 and out.band == "2"
    assert out.details["cost_payers"] == ["Лидер", "Анна"]


def test_resistance_forced_by_a_hidden_creature_has_disadvantage_and_doom_note():
    out = run("resistance", pc(), [1, 1], characteristic="strength", hidden_source=True)
    assert "hidden_source" in out.details["sources"]
    assert out.flags["doom"] and out.details["doom_may"] == "extra_1d10_damage"
    crit = run("resistance", pc(), [10, 10], characteristic="agility")
    assert crit.details["crit_may"] == ["harm_source", "ally_auto_tier3"]


def test_resistance_may_use_any_expertise():
    state = pc(expertises=[{"key": "bow", "uses": 1, "max": 1}])
    out = run("resistance", state, [3, 3], characteristic="agility")
    assert [o.key for o in out.options] == ["bow", "none"]


def test_expertise_categories_follow_the_kind_of_check():
    state = pc(
        expertises=[
            {"key": "stealth", "uses": 1, "max": 1},
            {"key": "chopping", "uses": 1, "max": 1},
            {"key": "elements", "uses": 1, "max": 1},
            {"key": "search", "uses": 0, "max": 1},
        ]
    )
    general = run("check", state, [3, 3], characteristic="agility")
    assert [o.key for o in general.options] == ["stealth", "none"]  # search has no use left
    attack = run("check", state, [3, 3], characteristic="strength", kind="attack", attack="melee")
    assert [o.key for o in attack.options] == ["chopping", "none"]
    spell = run(
        "check",
        state,
        [3, 3],
        characteristic="reason",
        kind="attack",
        attack="ranged",
        spell=True,
    )
    assert [o.key for o in spell.options] == ["elements", "none"]
    casting = run("check", state, [3, 3], characteristic="reason", kind="casting")
    assert [o.key for o in casting.options] == ["elements", "none"]
    allowed = run("check", state, [3, 3], characteristic="reason", any_expertise=True)
    assert {o.key for o in allowed.options} == {"stealth", "chopping", "elements", "none"}


def test_no_expertise_offered_on_tier_3_and_none_keeps_the_use():
    state = pc(expertises=[{"key": "athletics", "uses": 1, "max": 1}])
    top = run("check", state, [9, 9], characteristic="strength")
    assert not top.pending and top.band == "3"
    low = run("check", state, [6, 6], characteristic="strength", choices=["none"])
    assert low.band == "2" and low.state["expertises"][0]["uses"] == 1
    assert low.details["choices"] == ["none"]


def test_choices_must_be_offered():
    state = pc(expertises=[{"key": "athletics", "uses": 1, "max": 1}])
    out = run("check", state, [3, 3], characteristic="strength")
    with pytest.raises(RulesError):
        choose(out, ["bow"])
    with pytest.raises(RulesError):
        choose(run("check", pc(), [3, 3], characteristic="strength"), ["none"])


def test_retry_is_locked_until_circumstances_change():
    first = run("check", pc(), [3, 3], characteristic="agility", task="Замок сундука")
    assert first.state["retry_locks"] == ["Замок сундука"]
    with pytest.raises(RulesError) as err:
        run("check", first.state, [3, 3], characteristic="agility", task="замок сундука")
    assert "cannot be retried" in err.value.errors["task"][0]["en"]  # L202
    again = run(
        "check",
        first.state,
        [9, 9],
        characteristic="agility",
        task="Замок сундука",
        circumstances_changed=True,
    )
    assert again.band == "3"
    cleared = run("clear_retry_lock", first.state, [], task="замок сундука")
    assert cleared.state["retry_locks"] == []


def test_hiding_only_unobserved_and_sneaking_fast_has_disadvantage():
    with pytest.raises(RulesError):
        run("hide", pc(), [], characteristic="agility", observed=True)
    slow = run("hide", pc(speed=6), [9, 9], characteristic="agility", moved=3)
    assert "sneaking_fast" not in slow.details["sources"]
    assert slow.state["hidden"] is True
    fast = run("hide", pc(speed=6), [9, 9], characteristic="agility", moved=4)
    assert "sneaking_fast" in fast.details["sources"]


def test_hide_tier_2_asks_the_referee_for_partial_or_cost():
    out = run("hide", pc(), [6, 6], characteristic="agility")
    assert out.pending and out.chooser == "referee"
    done = choose(out, ["hidden_at_cost"])
    assert done.state["hidden"] is True and not done.pending
    partial = choose(out, ["partial"])
    assert partial.state["hidden"] is False


def test_hidden_attacker_has_advantage_and_is_revealed():
    out = run(
        "check",
        pc(hidden=True),
        [5, 5],
        characteristic="strength",
        kind="attack",
        attack="melee",
    )
    assert "hidden" in out.details["sources"] and out.total == 12
    assert out.state["hidden"] is False


def test_own_conditions_add_sources():
    prone = pc(conditions=[{"key": "prone"}])
    out = run("check", prone, [5, 5], characteristic="strength", kind="attack", attack="melee")
    assert "prone_melee" in out.details["sources"] and out.total == 8
    asleep = pc(conditions=[{"key": "unconscious"}])
    notice = run("check", asleep, [9, 9], characteristic="reason", purpose="perceive")
    assert "unconscious_notice" in notice.details["sources"]
    assert notice.band == "2"  # 18 → tier 3, double disadvantage → tier 2


def test_grabbed_target_gives_advantage_on_attacks():
    out = run(
        "check",
        pc(),
        [5, 5],
        characteristic="agility",
        kind="attack",
        attack="ranged",
        target_conditions=["grabbed"],
    )
    assert out.details["sources"] == ["target_grabbed"] and out.total == 12


def test_blessed_attack_reports_extra_damage_never_negative():
    blessed = pc(strength=2, conditions=[{"key": "blessed"}])
    hit = run("check", blessed, [5, 5], characteristic="strength", kind="attack", attack="melee")
    assert hit.details["blessed_damage"] == 2
    weak = pc(strength=-1, conditions=[{"key": "blessed"}])
    hit = run("check", weak, [6, 6], characteristic="strength", kind="attack", attack="melee")
    assert "blessed_damage" not in hit.details


def test_unconscious_target_doom_setting():
    params = dict(
        characteristic="strength", kind="attack", attack="melee", target_conditions=["unconscious"]
    )
    assert run("check", pc(), [1, 1], **params).band == "3"
    strict = run("check", pc(), [1, 1], settings={"unconscious_tier3_on_doom": False}, **params)
    assert strict.band == "1"


@pytest.mark.parametrize(
    ("tens", "units", "value"), [(10, 10, 100), (10, 5, 5), (3, 10, 30), (1, 1, 11)]
)
def test_d100_reads_tens_and_units(tens, units, value):
    assert d100_from_faces(tens, units) == value
    assert run("d100", pc(), [tens, units]).total == value


def test_dead_creatures_make_no_checks():
    with pytest.raises(RulesError):
        run("check", pc(dead=True), [], characteristic="strength")


# --- odds -------------------------------------------------------------------------------------


def test_odds_of_a_plain_check_match_the_digest():
    odds = RS.odds("check", pc(), characteristic="agility")
    assert odds == pytest.approx({"1": 0.55, "2": 0.35, "3": 0.10, "crit": 0.03, "doom": 0.03})


def test_odds_count_the_sheet_conditions_and_automatic_results():
    weakened = RS.odds("check", pc(conditions=[{"key": "weakened"}]), characteristic="agility")
    plain_minus_2 = RS.odds("check", pc(), characteristic="agility", bonus=-2)
    assert weakened == plain_minus_2
    asleep = RS.odds(
        "resistance", pc(conditions=[{"key": "unconscious"}]), characteristic="agility"
    )
    assert asleep["1"] == 1.0 and asleep["doom"] == 1.0
    target = RS.odds(
        "check",
        pc(),
        characteristic="strength",
        kind="attack",
        attack="melee",
        target_conditions=["unconscious"],
    )
    assert target["3"] == 1.0
    assert RS.odds("take_damage", pc()) == {}


def test_odds_agree_with_every_face_pair():
    state = pc(agility=1)
    params = dict(characteristic="agility", sources=["flanking"], bonus=1)
    odds = RS.odds("check", state, **params)
    counts = {"1": 0, "2": 0, "3": 0}
    for a in range(1, 11):
        for b in range(1, 11):
            counts[run("check", state, [a, b], **params).band] += 1
    assert {k: v / 100 for k, v in counts.items()} == pytest.approx(
        {k: odds[k] for k in ("1", "2", "3")}
    )


# --- damage -----------------------------------------------------------------------------------


def test_referee_creature_dies_at_zero_or_is_knocked_out_and_wakes_at_turn_end():
    ghoul = monster(stamina=3, stamina_max=3)
    dead = run("take_damage", ghoul, [], amount=5)
    assert dead.flags["died"] and dead.state["dead"] and dead.state["inventory"]["wounds"] == []
    out = run("take_damage", ghoul, [], amount=5, knock_out=True)
    assert out.flags["knocked_out"] and out.state["stamina"] == 1
    assert out.state["conditions"][0]["key"] == "unconscious"
    ended = end_dungeon_turn(in_dungeon(1), [out.state], dice=ScriptedDice([1]))
    (woke,) = ended.of_type("woke")
    assert woke["reason"] == "knocked_out"
    assert ended.characters[0]["conditions"] == []


def test_monster_natural_armour_defence():
    ogre = monster(stamina=5, stamina_max=5, armour_defence={"value": 2, "max": 2})
    out = run("take_damage", ogre, [], amount=3)
    assert out.state["armour_defence"]["value"] == 0 and out.state["stamina"] == 4


def test_objects_are_destroyed_at_zero_and_take_no_conditions():
    door = pc(kind="object", name="Дверь", stamina=4, stamina_max=4)
    out = run("take_damage", door, [], amount=4)
    assert out.flags["destroyed"] and out.state["dead"]
    with pytest.raises(RulesError):
        run("add_condition", door, [], condition="prone")


def test_damage_wakes_a_sleeper():
    out = run("take_damage", pc(conditions=[{"key": "unconscious"}]), [], amount=1)
    assert out.flags["woke"] and out.state["conditions"] == []


def test_death_when_wounds_fill_the_backpack():
    state = pc(stamina=0)
    state["inventory"]["wounds"] = [{"slot": s, "hunger": False} for s in range(1, 9)]
    state = RS.validate_state(state)
    two = run("take_damage", state, [], amount=2)
    assert two.flags["died"] and len(two.state["inventory"]["wounds"]) == 10
    three = run("take_damage", state, [], amount=3)
    assert three.flags["died"]
    with pytest.raises(RulesError):
        run("take_damage", two.state, [], amount=1)


def test_no_spill_setting_stops_a_hit_in_its_first_pool():
    state = with_items(
        pc(stamina=3, stamina_max=3),
        (make_item("shield", "Щит", armour={"defence": 1, "shield": True}), "hands:1"),
    )
    out = run("take_damage", state, [], amount=4, settings={"damage_spill": False})
    assert out.details["damage"]["absorbed"] == {"shield": 1}
    assert out.details["damage"]["lost"] == 3 and out.state["stamina"] == 3


def test_damage_from_russian_dice_notation():
    out = run("take_damage", pc(stamina=9, stamina_max=9), [3, 4], damage_dice="2к6")
    assert out.details["roll"]["total"] == 7 and out.state["stamina"] == 2
    with pytest.raises(RulesError):
        run("take_damage", pc(), [], amount=1, damage_dice="1d6")


def test_hunger_wounds_and_a_ration_removes_them_all():
    state = with_items(pc(), (make_item("ration", "Паёк", kind="ration", stack=3), "belt:1"))
    hungry = run("hunger", state, [], days=2)
    assert [w["hunger"] for w in hungry.state["inventory"]["wounds"]] == [True, True]
    wounded = run("take_wounds", hungry.state, [], count=1)
    fed = run("eat", wounded.state, [], item_id="ration")
    assert [w["hunger"] for w in fed.state["inventory"]["wounds"]] == [False]
    assert placement_of(fed.state["inventory"], "ration") is None


def test_direct_wounds_by_dice():
    out = run("take_wounds", pc(), [4], wound_dice="1d6")
    assert len(out.details["wounds"]) == 4


def test_fall_without_reaction_and_short_falls():
    out = run("fall", pc(stamina=9, stamina_max=9), [2, 3], feet=20, resist=False)
    assert out.details["damage"]["total"] == 5
    short = run("fall", pc(), [], feet=5)
    assert short.details["fall_damage"] == 0
    asleep = run(
        "fall", pc(conditions=[{"key": "unconscious"}], stamina=9, stamina_max=9), [6], feet=10
    )
    assert "check" not in asleep.details  # no reactions while unconscious (L464)


def test_fall_resistance_with_expertise_raises_the_tier():
    state = pc(stamina=20, stamina_max=20, expertises=[{"key": "gymnastics", "uses": 1, "max": 1}])
    out = run("fall", state, [6, 6, 6, 6, 6], feet=30)
    assert out.pending and out.band == "2"
    done = choose(out, ["gymnastics"], [2, 3])
    assert done.band == "3"
    assert done.details["reduction_faces"] == [2, 3]
    assert done.details["damage"]["total"] == 18 - 5


def test_suffocation_piercing_setting():
    state = with_items(
        pc(strength=-3, stamina=5, stamina_max=5),
        (make_item("shield", "Щит", armour={"defence": 2, "shield": True}), "hands:1"),
    )
    plain = run("suffocate", state, [2], round=1)
    assert plain.details["damage"]["absorbed"] == {"shield": 2}
    piercing = run("suffocate", state, [2], round=1, settings={"suffocation_piercing": True})
    assert piercing.state["stamina"] == 3


# --- conditions -------------------------------------------------------------------------------


def test_no_condition_twice():
    once = run("add_condition", pc(), [], condition="blessed")
    twice = run("add_condition", once.state, [], condition="blessed")
    assert twice.flags["already_had"] and len(twice.state["conditions"]) == 1
    with pytest.raises(RulesError):
        RS.validate_state({**pc(), "conditions": [{"key": "prone"}, {"key": "prone"}]})


def test_speed_grabbed_prone_and_wounds():
    assert speed(pc(speed=6, conditions=[{"key": "grabbed"}])) == 0
    assert speed(pc(speed=5, conditions=[{"key": "prone"}])) == 2
    assert speed(pc(speed=5, conditions=[{"key": "unconscious"}])) == 0


def test_stand_needs_prone_and_speed():
    up = run("stand", pc(conditions=[{"key": "prone"}]), [])
    assert up.state["conditions"] == []
    with pytest.raises(RulesError):
        run("stand", pc(), [])
    with pytest.raises(RulesError):
        run("stand", pc(speed=1, conditions=[{"key": "prone"}]), [])
    with pytest.raises(RulesError):
        run("stand", pc(conditions=[{"key": "unconscious"}]), [])
    assert run("drop_prone", pc(), []).state["conditions"][0]["key"] == "prone"


def test_loud_noise_wakes_within_10_squares():
    asleep = pc(conditions=[{"key": "unconscious"}])
    assert run("wake", asleep, [], distance=10).flags["woke"] is True
    assert run("wake", asleep, [], distance=11).flags["woke"] is False


# --- wear dice and light ----------------------------------------------------------------------


def test_extinguishing_a_torch_rolls_its_wear_dice():
    state = with_items(pc(), (torch(3), "hands:1"))
    out = run("extinguish", state, [1, 5, 6], item_id="torch")
    assert out.details["wear"]["after"] == 2
    card = out.state["inventory"]["placed"][0]["items"][0]
    assert card["light"]["lit"] is False and card["wear"]["dice"] == 2
    with pytest.raises(RulesError):
        run("extinguish", out.state, [], item_id="torch")


def test_activation_rolls_after_use_and_empty_items_refuse():
    wand = make_item(
        "wand", "Жезл", magic=True, wear={"dice": 1, "max": 1, "keywords": ["activation", "rest"]}
    )
    state = with_items(pc(), (wand, "hands:1"))
    out = run("use_item", state, [2], item_id="wand")
    assert out.details["wear"]["outcome"] == "needs_rest"
    with pytest.raises(RulesError):
        run("use_item", out.state, [], item_id="wand")
    rested = run("end_rest", out.state, [])
    assert rested.details["events"][0]["restored_items"] == ["wand"]


def test_refuel_needs_the_named_fuel():
    state = with_items(pc(), (lantern(0, lit=False), "hands:1"), (potion(1), "belt:1"))
    with pytest.raises(RulesError):
        run("refuel", state, [], item_id="lantern", fuel_id="potion1")


def test_effects_with_wear_dice_and_turn_durations():
    state = pc(
        effects=[
            {"id": "stench", "name": "Вонь", "duration": "wear_dice", "wear_dice": 1},
            {"id": "accordion", "name": "Аккордеон", "duration": "dungeon_turn"},
            {"id": "antlers", "name": "Рога", "duration": "permanent"},
        ]
    )
    camp = in_dungeon(1, effects=[{"id": "fog", "name": "Туман", "wear_dice": 2}])
    out = end_dungeon_turn(camp, [state], dice=ScriptedDice([2, 5, 1, 1]))
    assert [e["id"] for e in out.characters[0]["effects"]] == ["antlers"]
    assert out.campaign["effects"][0]["wear_dice"] == 1
    assert {e["effect"] for e in out.of_type("effect_ended")} == {"stench", "accordion"}


def test_light_levels_and_campfire():
    assert campfire("tiny") == {"bright": 0, "dim": 5}
    assert campfire("huge") == {"bright": 20, "dim": 20}
    with pytest.raises(RulesError):
        campfire("colossal")
    assert level_at_distance(0, 0, 5) == "dim"
    assert level_at_distance(6, 6, 6) == "bright"
    assert level_at_distance(12, 6, 6) == "dim"
    assert level_at_distance(13, 6, 6) == "dark"
    sources = [((0, 0), 2, 2), ((10, 0), 1, 0)]
    assert light_level((3, 3), sources) == "dim"  # Chebyshev 3
    assert light_level((9, 1), sources) == "bright"
    assert light_level((6, 6), sources) == "dark"


# --- inventory --------------------------------------------------------------------------------


def test_corpses_take_their_size_plus_gear():
    rat = corpse_card("rat1", "Крыса", "tiny")
    assert (rat["slots"], rat["stack"]) == (1, 3)
    man = corpse_card(
        "bandit", "Разбойник", "medium", gear=[make_item("mail", "Кольчуга", slots=2)]
    )
    assert man["slots"] == 6
    bear = corpse_card("bear", "Медведь", "large")
    with pytest.raises(RulesError):
        place(inventory_with(), bear, "belt")
    assert placement_of(place(inventory_with(), bear, "backpack"), "bear")["slot"] == 1
    with pytest.raises(RulesError):
        place(inventory_with(), corpse_card("elephant", "Слон", "huge"), "backpack")
    rats = inventory_with(
        *((corpse_card(f"rat{n}", "Крыса", "tiny"), "backpack:1") for n in range(1, 4))
    )
    assert len(rats["placed"][0]["items"]) == 3


def test_worn_armour_sits_in_the_backpack_and_only_out_of_rounds():
    mail = make_item("mail", "Кольчуга", slots=2, armour={"defence": 3})
    shield = make_item("shield", "Щит", armour={"defence": 1, "shield": True})
    inv = inventory_with((mail, "backpack:1"), (shield, "backpack:3"))
    with pytest.raises(RulesError):
        wear_armour(inv, "mail", in_rounds=True)
    with pytest.raises(RulesError):
        wear_armour(inv, "shield")
    worn = wear_armour(inv, "mail")
    assert worn["worn_armour"] == "mail"
    moved = run("move_item", {**pc(), "inventory": worn}, [], item_id="mail", target="belt:1")
    assert moved.state["inventory"]["worn_armour"] == ""


def test_move_costs_in_rounds():
    assert move_cost("hands", "belt", in_rounds=False) == "free"
    assert move_cost("hands", "belt", in_rounds=True) == "maneuver"
    assert move_cost("backpack", "hands", in_rounds=True) == "retrieve"
    state = with_items(pc(), (rock(1), "backpack:1"), (rock(2), "belt:1"))
    with pytest.raises(RulesError):
        run("move_item", state, [], item_id="rock1", target="hands", in_rounds=True)
    out = run("move_item", state, [], item_id="rock2", target="hands:2", in_rounds=True)
    assert out.details["cost"] == "maneuver"


def test_retrieve_with_full_hands_swaps_or_drops():
    inv = inventory_with(
        (make_item("spear", "Копьё", slots=2), "hands:1"),
        (make_item("crowbar", "Лом"), "backpack:2"),
    )
    swapped = retrieve_from_backpack(inv, "crowbar", 5)
    assert placement_of(swapped.inventory, "spear")["area"] == "backpack"
    assert placement_of(swapped.inventory, "crowbar")["area"] == "hands"
    dropped = retrieve_from_backpack(inv, "crowbar", 5, make_room="drop")
    assert [c["id"] for c in dropped.dropped] == ["spear"]
    assert placement_of(dropped.inventory, "spear") is None


def test_dump_backpack_all_or_some():
    inv = inventory_with((rock(1), "backpack:1"), (rock(2), "backpack:5"), (rock(3), "belt:1"))
    all_out, dropped = dump_backpack(inv)
    assert {c["id"] for c in dropped} == {"rock1", "rock2"}
    assert [p["area"] for p in all_out["placed"]] == ["belt"]
    some, _ = dump_backpack(inv, ["rock2"])
    assert placement_of(some, "rock1") is not None
    with pytest.raises(RulesError):
        dump_backpack(inv, ["rock3"])


def test_magic_slots_overload_and_the_inventory_setting():
    inv = equip_magic(inventory_with(), ring(1), "finger")
    assert overloaded_slots(inv) == []
    inv2 = equip_magic(inv, ring(2), "finger")
    assert overloaded_slots(inv2) == ["finger"]
    with pytest.raises(RulesError):
        equip_magic(inv, make_item("hat", "Шляпа"), "head")
    with pytest.raises(RulesError):
        validate_inventory(inv, magic_in_inventory=True)
    state = with_items(pc(), (ring(3), "belt:1"))
    worn = run("equip_magic", state, [], item_id="ring3", magic_slot="finger")
    assert worn.state["inventory"]["magic"]["finger"][0]["id"] == "ring3"
    back = run("unequip_magic", worn.state, [], item_id="ring3", target="belt:2")
    assert placement_of(back.state["inventory"], "ring3")["slot"] == 2


def test_wounds_go_to_empty_slots_first_and_can_move():
    inv = inventory_with((rock(1), "backpack:1"), (rock(2), "backpack:2"))
    inv, used, overflow = add_wounds(inv, 9)
    assert used[:8] == [3, 4, 5, 6, 7, 8, 9, 10] and used[8] == 1 and overflow == 0
    state = pc(speed=6)
    state = RS.validate_state({**state, "inventory": inv})
    assert speed(state) == 5
    moved = run(
        "move_wound",
        RS.validate_state({**pc(), "inventory": add_wounds(inventory_with(), 1)[0]}),
        [],
        from_slot=1,
        to_slot=4,
    )
    assert moved.state["inventory"]["wounds"] == [{"slot": 4, "hunger": False}]


def test_items_keep_their_card_data():
    card = make_item(
        "sword",
        "Меч",
        damage={"type": "melee", "tier2": "1d6", "tier3": "2d6", "expertise": "slashing"},
    )
    assert card["damage"]["tier3"] == "2d6" and card["slots"] == 1
    with pytest.raises(RulesError):
        make_item("bad", "Плохой", wear={"dice": 3, "max": 2})
    with pytest.raises(RulesError):
        make_item("hat", "Шляпа", magic_slot="head")


# --- rest -------------------------------------------------------------------------------------


def party_for_rest():
    sore = pc(
        name="Раненый",
        stamina=1,
        stamina_max=6,
        expertises=[{"key": "search", "uses": 0, "max": 2}],
    )
    sore["inventory"] = add_wounds(sore["inventory"], 3)[0]
    medic = pc(name="Лекарь")
    return [RS.validate_state(sore), medic]


def test_rest_start_ends_the_turn_without_an_encounter_check():
    lit = with_items(pc(conditions=[{"key": "blessed"}]), (torch(3), "hands:1"))
    out = start_rest(in_dungeon(4), [lit], dice=ScriptedDice([5, 5, 5]))
    kinds = [e["type"] for e in out.events]
    assert kinds[0] == "turn_ended" and "encounter_check" not in kinds
    assert "encounter_check_skipped" in kinds and "turn_started" not in kinds
    assert "lights_burning" in kinds
    assert out.campaign["turn"] == 4 and out.campaign["rest"]["threshold"] == 9


def test_rest_midpoint_ends_turn_effects():
    state = pc(
        conditions=[{"key": "weakened"}, {"key": "prone"}],
        effects=[{"id": "stench", "name": "Вонь", "wear_dice": 2}],
    )
    camp = start_rest(in_dungeon(1), [state], dice=ScriptedDice([5, 5])).campaign
    out = rest_midpoint(camp, [state])
    assert [c["key"] for c in out.characters[0]["conditions"]] == ["prone"]
    assert out.characters[0]["effects"] == []


def test_finish_rest_benefits_tend_wounds_and_next_turn():
    party = party_for_rest()
    camp = start_rest(in_dungeon(2), party, dice=ScriptedDice([])).campaign
    plans = [None, {"activity": "tend_wounds", "target": 0}]
    out = finish_rest(camp, party, plans, dice=ScriptedDice([]))
    sore = out.characters[0]
    assert sore["stamina"] == 6
    assert len(sore["inventory"]["wounds"]) == 1  # 3 − 2
    assert sore["expertises"][0]["uses"] == 2
    assert out.campaign["rest"] is None and out.campaign["turn"] == 3
    assert out.of_type("turn_started")[0]["turn"] == 3


def test_rest_in_the_miasma_keeps_expertise_spent():
    party = party_for_rest()
    camp = start_rest(campaign(), party, dice=ScriptedDice([]), place="wild", miasma=True)
    out = finish_rest(camp.campaign, party, [None, None], dice=ScriptedDice([]))
    assert out.characters[0]["expertises"][0]["uses"] == 0
    assert len(out.of_type("miasma_check_due")) == 2
    assert not out.of_type("turn_started")


def test_rest_requirements_and_overload_block_benefits():
    hungry = pc(stamina=1)
    out = run("end_rest", hungry, [], rations=0)
    assert out.flags["failed"] and out.state["stamina"] == 1
    greedy = pc(stamina=1)
    greedy["inventory"]["magic"]["finger"] = [ring(1), ring(2)]
    greedy = RS.validate_state(greedy)
    started = start_rest(in_dungeon(1), [greedy], dice=ScriptedDice([1]))  # overload 1d6
    assert started.of_type("cannot_rest") and started.of_type("overload_wounds")
    done = finish_rest(started.campaign, started.characters, [None], dice=ScriptedDice([]))
    assert done.characters[0]["stamina"] == 1
    assert "magic slot" in json.dumps(  # L375
        done.of_type("rest_failed")[0]["reasons"], ensure_ascii=False
    )


def test_lights_left_burning_roll_every_two_hours_of_rest():
    state = with_items(pc(), (torch(3), "hands:1"))
    camp = start_rest(in_dungeon(1), [state], dice=ScriptedDice([6, 6, 6])).campaign
    state = start_rest(in_dungeon(1), [state], dice=ScriptedDice([6, 6, 6])).characters[0]
    out = finish_rest(camp, [state], [None], dice=ScriptedDice([6, 6, 6, 1, 6, 6, 2, 6]))
    rolls = [e for e in out.of_type("wear_rolled") if e["reason"] == "rest"]
    assert [e["after"] for e in rolls] == [3, 2, 1]


def test_rest_encounter_check_with_hidden_camp():
    camp = start_rest(in_dungeon(3), [pc()], dice=ScriptedDice([])).campaign
    hidden = run("hide_camp", camp, [], by="Анна")
    assert hidden.details["events"][0]["threshold"] == 10
    with pytest.raises(RulesError):
        run("hide_camp", hidden.state, [], by="Борис")
    quiet = run("rest_encounter", hidden.state, [9])
    assert quiet.band == "none"
    with pytest.raises(RulesError):
        run("rest_encounter", quiet.state, [9])
    loud = run("rest_encounter", camp, [10])
    assert loud.band == "immediate" and loud.flags["interrupts_rest"]
    sign = run("rest_encounter", camp, [9])
    assert sign.state["pending_encounters"][0]["due_turn"] == 4


def test_interrupted_rest_gives_nothing_and_starts_a_turn():
    party = party_for_rest()
    camp = start_rest(in_dungeon(2), party, dice=ScriptedDice([])).campaign
    out = interrupt_rest(camp, party)
    assert out.characters[0]["stamina"] == 1
    assert out.campaign["rest"] is None and out.campaign["turn"] == 3


def test_rest_activities():
    corpse = corpse_card("wolf", "Волк", "large")
    mail = make_item("mail", "Кольчуга", slots=2, armour={"defence": 0, "max": 3})
    amulet = make_item("amulet", "Амулет", magic=True, identified=False)
    state = with_items(pc(), (corpse, "backpack:1"), (mail, "hands:1"), (amulet, "belt:1"))
    butcher = run("end_rest", state, [3, 4], activity="butcher", item_id="wolf")
    event = butcher.details["events"][1]
    assert (event["parts"], event["faces"]) == (7, [3, 4])
    assert placement_of(butcher.state["inventory"], "wolf") is None
    loose = run("end_rest", pc(), [5], activity="butcher", corpse_size="medium")
    assert loose.details["events"][1]["parts"] == 5
    repaired = run("end_rest", state, [], activity="repair", item_id="mail")
    assert repaired.details["events"][1]["defence"] == 3
    known = run("end_rest", state, [], activity="identify", item_id="amulet")
    assert placement_of(known.state["inventory"], "amulet")["items"][0]["identified"] is True
    craft = run("end_rest", state, [], activity="craft")
    assert craft.details["events"][1]["type"] == "crafting_roll_due"


def test_tend_wounds_rules():
    party = party_for_rest()
    camp = start_rest(in_dungeon(1), party, dice=ScriptedDice([])).campaign
    with pytest.raises(RulesError):  # not yourself
        finish_rest(
            camp, party, [{"activity": "tend_wounds", "target": 0}, None], dice=ScriptedDice([])
        )
    with pytest.raises(RulesError):  # the target needs 2 wounds
        finish_rest(
            camp, party, [{"activity": "tend_wounds", "target": 1}, None], dice=ScriptedDice([])
        )
    with pytest.raises(RulesError):  # one hider per group
        finish_rest(
            camp,
            party,
            [{"activity": "hide_camp"}, {"activity": "hide_camp"}],
            dice=ScriptedDice([]),
        )


def test_town_activities_four_a_day_and_tending_after_sleep():
    from systems.crows.rest import RestPlan

    state = pc()
    for n in range(4):
        state, _ = town_activity(state, RestPlan(activity="prepare", task=f"задача {n}"), day=1)
    with pytest.raises(RulesError):
        town_activity(state, RestPlan(activity="craft"), day=1)
    state, _ = town_activity(state, RestPlan(activity="craft"), day=2)
    hurt = RS.validate_state({**pc(), "inventory": add_wounds(inventory_with(), 3)[0]})
    tended, _ = town_tend(hurt, day=5)
    with pytest.raises(RulesError):
        town_tend(tended, day=5)
    napped, event = town_sleep(tended, 3)
    assert event["wounds_removed"] == []
    slept, event = town_sleep(napped, 4)
    assert len(event["wounds_removed"]) == 2 and len(slept["inventory"]["wounds"]) == 1


# --- the dungeon clock ------------------------------------------------------------------------


def test_threshold_limits():
    assert encounter_threshold(campaign(threshold_bonus=5)) == 10
    assert encounter_threshold(campaign(threshold_bonus=-9)) == 1
    assert encounter_threshold(campaign(populated=True), hide_camp=True) == 9


def test_rooms_variant():
    settings = {"turn_mode": "rooms"}
    out = run("enter_dungeon", campaign(), [2], dungeon="Пещера", settings=settings)
    assert out.state["rooms_left"] == 2
    one = run("room_explored", out.state, [], settings=settings)
    two = run("room_explored", one.state, [], settings=settings)
    assert (one.flags["turn_over"], two.flags["turn_over"]) == (False, True)
    ended = end_dungeon_turn(two.state, [], dice=ScriptedDice([1, 5]), settings=settings)
    assert ended.campaign["rooms_left"] == 5
    with pytest.raises(RulesError):
        run("room_explored", in_dungeon(1), [])


def test_end_turn_refused_outside_and_during_rest():
    with pytest.raises(RulesError):
        end_dungeon_turn(campaign(), [], dice=ScriptedDice([]))
    resting = start_rest(in_dungeon(1), [], dice=ScriptedDice([])).campaign
    with pytest.raises(RulesError):
        end_dungeon_turn(resting, [], dice=ScriptedDice([]))


def test_overdue_signs_and_the_pending_setting():
    camp = in_dungeon(
        3, pending_encounters=[{"signed_turn": 2, "due_turn": 3, "roll": 9, "source": "x"}]
    )
    out = end_dungeon_turn(camp, [], dice=ScriptedDice([1]))
    assert out.of_type("encounter_overdue")[0]["due_turn"] == 3
    skip = end_dungeon_turn(
        camp, [], dice=ScriptedDice([]), settings={"roll_with_pending_encounter": False}
    )
    assert skip.of_type("encounter_check_skipped")
    played = run("resolve_encounter", camp, [], index=0)
    assert played.state["pending_encounters"] == []


def test_greed_window_closes_after_turn_3_of_a_first_visit():
    out = end_dungeon_turn(in_dungeon(3), [], dice=ScriptedDice([1]))
    assert out.of_type("greed_window_closed")
    assert out.of_type("turn_started")[0]["greed_percent"] == 0
    early = end_dungeon_turn(in_dungeon(1), [], dice=ScriptedDice([1]))
    assert early.of_type("turn_started")[0]["greed_percent"] == 20


def test_conspicuous_act_calls_for_an_encounter_check():
    out = run("encounter_check", in_dungeon(2), [9], reason="Выбили дверь молотом")
    assert out.band == "sign" and out.state["pending_encounters"][0]["due_turn"] == 3


def test_two_hours_outside_count_as_a_turn():
    state = with_items(pc(conditions=[{"key": "weakened"}]), (torch(3), "hands:1"))
    out = pass_time_outside(campaign(), [state], 5, dice=ScriptedDice([6, 6, 6, 6, 6, 6]))
    assert len(out.of_type("outside_turn")) == 2
    assert out.campaign["outside_hours"] == 1
    assert out.characters[0]["conditions"] == []
    more = pass_time_outside(out.campaign, out.characters, 1, dice=ScriptedDice([6, 6, 6]))
    assert len(more.of_type("outside_turn")) == 1 and more.campaign["outside_hours"] == 0
    with pytest.raises(RulesError):
        pass_time_outside(in_dungeon(1), [], 2, dice=ScriptedDice([]))


def test_turn_result_is_json():
    result = end_dungeon_turn(
        in_dungeon(1), [with_items(pc(), (torch(1), "hands:1"))], dice=ScriptedDice([5, 3])
    )
    json.dumps(result.as_dict(), ensure_ascii=False)


def _from_json(data: dict) -> Outcome:
    """What the web layer does with a stored pending outcome (JSON in, Outcome out)."""
    fields = {k: v for k, v in data.items() if k in Outcome.__dataclass_fields__}
    fields["options"] = [Option(**o) for o in data["options"]]
    fields["text"] = Text(**data["text"])
    return Outcome(**fields)


def test_pending_outcomes_survive_a_json_round_trip():
    state = pc(stamina=20, stamina_max=20, expertises=[{"key": "gymnastics", "uses": 1, "max": 1}])
    out = run("fall", state, [6, 6, 6, 6, 6], feet=30)
    stored = json.loads(json.dumps(out.as_dict(), ensure_ascii=False))
    done = choose(_from_json(stored), ["gymnastics"], [2, 3])
    assert done.band == "3" and done.details["damage"]["total"] == 13
    hide = run("hide", pc(), [6, 6], characteristic="agility")
    stored = json.loads(json.dumps(hide.as_dict(), ensure_ascii=False))
    assert choose(_from_json(stored), ["hidden_at_cost"]).state["hidden"] is True


def test_conditions_end_only_for_their_own_reasons():
    grabbed = pc(conditions=[{"key": "grabbed", "by": "Гуль", "range": 1}])
    free = run("remove_condition", grabbed, [], condition="grabbed", reason="teleport")
    assert free.state["conditions"] == []
    with pytest.raises(RulesError):
        run("remove_condition", grabbed, [], condition="grabbed", reason="stand")
    assert run("remove_condition", grabbed, [], condition="grabbed").flags["removed"]
    with pytest.raises(RulesError):  # Stand still needs speed 1 or more
        run(
            "remove_condition",
            pc(speed=1, conditions=[{"key": "prone"}]),
            [],
            condition="prone",
            reason="stand",
        )


def test_road_threshold_for_a_rest_in_the_wild_keeps_the_hidden_camp_bonus():
    camp = start_rest(campaign(), [pc()], dice=ScriptedDice([]), place="wild").campaign
    hidden = run("hide_camp", camp, [], by="Анна").state
    out = run("rest_encounter", hidden, [8], threshold=7)
    assert out.details["events"][0]["threshold"] == 8 and out.band == "sign"
    capped = run("rest_encounter", hidden, [9], threshold=10)
    assert capped.details["events"][0]["threshold"] == 10 and capped.band == "none"


def test_magic_items_may_also_take_inventory_slots_by_campaign_rule():
    rule = {"magic_in_inventory": True}
    charm = make_item(
        "charm",
        "Оберег",
        magic=True,
        magic_slot="neck",
        wear={"dice": 1, "max": 1, "keywords": ["dungeon_turn"]},
    )
    state = with_items(pc(), (charm, "belt:1"))
    worn = run("equip_magic", state, [], item_id="charm", magic_slot="neck", settings=rule)
    assert placement_of(worn.state["inventory"], "charm")["area"] == "belt"
    assert worn.state["inventory"]["magic"]["neck"][0]["id"] == "charm"
    with pytest.raises(RulesError):  # it cannot leave its slot while worn
        run("drop_item", worn.state, [], item_id="charm", settings=rule)
    turn = end_dungeon_turn(in_dungeon(1), [worn.state], dice=ScriptedDice([1, 1]), settings=rule)
    assert len(turn.of_type("wear_rolled")) == 1  # one item, rolled once
    inv = turn.characters[0]["inventory"]
    assert inv["magic"]["neck"][0]["wear"]["dice"] == 0
    assert placement_of(inv, "charm")["items"][0]["wear"]["dice"] == 0
    off = run("unequip_magic", worn.state, [], item_id="charm", settings=rule)
    assert off.state["inventory"]["magic"]["neck"] == []
    assert placement_of(off.state["inventory"], "charm")["area"] == "belt"


def test_inventory_actions_name_their_item_in_the_log_text():
    """Issue 18 item 15: placing an item logged «Положить предмет / Положить предмет» and
    never said which item."""
    rope = make_item("rope", "Верёвка")
    placed = run("place_item", pc(), [], item=rope, target="backpack:1")
    assert (
        placed.text.ru == "Предмет «Верёвка» уложен" and placed.text.en == "Item “Верёвка” placed"
    )
    moved = run("move_item", placed.state, [], item_id="rope", target="belt:1")
    assert "Верёвка" in moved.text.ru and "Верёвка" in moved.text.en
    dropped = run("drop_item", moved.state, [], item_id="rope")
    assert "Верёвка" in dropped.text.ru and "Верёвка" in dropped.text.en


def test_rest_events_carry_no_rulebook_line_reference():
    """The rest's events reach every browser at the table: no "L542" rides along (issue 18)."""
    greedy = pc(name="Жадный", stamina=1)
    greedy["inventory"]["magic"]["finger"] = [ring(1), ring(2)]
    party = [*party_for_rest(), RS.validate_state(greedy)]
    started = start_rest(in_dungeon(1), party, dice=ScriptedDice([1]), miasma=True)
    plans = [{"activity": "craft"}, {"activity": "prepare", "task": "вскрыть дверь"}, None]
    done = finish_rest(started.campaign, started.characters, plans, dice=ScriptedDice([]))
    events = started.events + done.events
    assert {"cannot_rest", "crafting_roll_due", "task_prepared", "miasma_check_due"} <= {
        e["type"] for e in events
    }
    assert not LINE_REF.search(json.dumps(events, ensure_ascii=False))
