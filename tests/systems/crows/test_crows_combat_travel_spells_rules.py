"""Crows combat, travel and spell rules (digest part B) beyond the digest's acceptance cases: the
combat state, attacks and reactions, maneuvers, movement, pets, spells and backlash, the Miasma
flow, travel order and limits, crafting with several crafters, identification."""

from __future__ import annotations

import json

import pytest
from crows_combat_helpers import armed, arrows, bow, spellbook, sword, travel_day
from crows_helpers import RS, choose, in_dungeon, monster, pc, run, with_items

from systems.core.dice import ScriptedDice
from systems.core.outcome import outcome_from_dict
from systems.core.ruleset import RulesError
from systems.crows import combat as cb
from systems.crows import end_dungeon_turn
from systems.crows import movement as mv
from systems.crows.items import make_item
from systems.crows.spells import apply_backlash, roll_backlash
from systems.crows.terms import BACKLASH_TABLE, backlash_row, miasma_row

# --- describe ---------------------------------------------------------------------------------


def test_describe_lists_part_b_moves_actions_and_tables():
    data = RS.describe()
    json.dumps(data, ensure_ascii=False)
    moves = {m["key"] for m in data["moves"]}
    assert {"attack", "provoked_attack", "grab", "escape", "knockback", "jump"} <= moves
    assert {"cast", "miasma_save", "travel_role", "craft", "identify_check"} <= moves
    actions = {m["key"] for m in data["actions"]}
    assert {"counterattack", "move", "teleport", "forced_move", "falling_object"} <= actions
    campaign = {m["key"] for m in data["campaign_actions"]}
    assert {"combat_start", "combat_round", "combat_turn", "combat_spend"} <= campaign
    assert {"travel_day", "travel_roles", "travel_encounter", "travel_move"} <= campaign
    assert len(data["backlash_table"]) == 55
    assert len(data["miasma_table"]) == 7
    assert [t["key"] for t in data["tasks"] if t["role"] == "guide"] == [
        "regular_route",
        "safe_route",
        "shortcut",
        "back_on_track",
    ]
    assert "miasma_saves" in data["party_procedures"]


# --- combat state (L701-L773) -----------------------------------------------------------------

FIGHTERS = [
    {"id": "a", "name": "Грета", "side": "pcs"},
    {"id": "b", "name": "Ивар", "side": "pcs"},
    {"id": "g", "name": "Гуль", "side": "enemies"},
]


def test_initiative_6_plus_pcs_first_5_enemies_first():
    assert cb.initiative_side(6) == "pcs"
    assert cb.initiative_side(5) == "enemies"


def test_surprised_creatures_have_no_turn_in_round_1_only():
    combat = cb.new_combat(FIGHTERS, surprised=["g"])
    combat, event = cb.start_round(combat, ScriptedDice([3]))
    assert event["first"] == "enemies" and event["surprised_no_turn"] == ["g"]
    with pytest.raises(RulesError):
        cb.start_turn(combat, "g")
    # the enemies go first, but the only enemy is surprised: the PCs may act
    combat, _ = cb.start_turn(combat, "a")
    combat, _ = cb.end_turn(combat)
    combat, _ = cb.start_turn(combat, "b")
    combat, event = cb.end_turn(combat)
    assert event["round_over"] is True
    combat, event = cb.start_round(combat, ScriptedDice([8]))
    assert event["surprise_ended"] == ["g"]
    with pytest.raises(RulesError):
        cb.start_turn(combat, "g")  # the PCs go first this round
    combat, _ = cb.start_turn(combat, "a")


def test_turn_is_a_maneuver_and_an_action_or_two_maneuvers():
    combat, _ = cb.start_round(cb.new_combat(FIGHTERS), ScriptedDice([7]))
    combat, _ = cb.start_turn(combat, "a")
    combat, event = cb.spend(combat, "a", "maneuver", speed=6, squares=2)
    assert event["left"] == {"maneuvers": 1, "actions": 1}
    combat, _ = cb.spend(combat, "a", "action")
    with pytest.raises(RulesError):
        cb.spend(combat, "a", "maneuver")
    combat, _ = cb.walk(combat, "a", 4)  # the Move may be split around the action (L719)
    with pytest.raises(RulesError):
        cb.walk(combat, "a", 1)
    assert combat["turn"]["moved"] == 6
    # a crit on your own turn: one more action this turn (L815)
    combat, _ = cb.grant_extra_action(combat, "a", on_own_turn=True)
    combat, _ = cb.spend(combat, "a", "action")
    with pytest.raises(RulesError):
        cb.spend(combat, "a", "action")


def test_two_maneuvers_leave_no_action_and_turns_cannot_interleave():
    combat, _ = cb.start_round(cb.new_combat(FIGHTERS), ScriptedDice([7]))
    combat, _ = cb.start_turn(combat, "a")
    combat, _ = cb.spend(combat, "a", "maneuver")
    combat, _ = cb.spend(combat, "a", "maneuver")
    with pytest.raises(RulesError):
        cb.spend(combat, "a", "action")
    with pytest.raises(RulesError):
        cb.start_turn(combat, "b")


def test_reactions_one_per_round_and_reset_each_round():
    combat, _ = cb.start_round(cb.new_combat(FIGHTERS), ScriptedDice([7]))
    combat, _ = cb.spend(combat, "g", "reaction")
    with pytest.raises(RulesError):
        cb.spend(combat, "g", "reaction")
    combat, _ = cb.start_round(combat, ScriptedDice([2]))
    combat, _ = cb.spend(combat, "g", "reaction")


def test_off_turn_crit_extra_action_must_be_used_at_once():
    combat, _ = cb.start_round(cb.new_combat(FIGHTERS), ScriptedDice([7]))
    combat, event = cb.grant_extra_action(combat, "g", on_own_turn=False)
    assert event["use"] == "immediately"
    combat, event = cb.spend(combat, "g", "action")
    assert event["extra"] is True
    combat, _ = cb.start_round(combat, ScriptedDice([7]))
    assert cb.combatant(combat, "g")["extra_now"] == 0


def test_taunt_lasts_until_the_taunters_next_turn_and_ready_lapses():
    combat, _ = cb.start_round(cb.new_combat(FIGHTERS), ScriptedDice([7]))
    combat, _ = cb.start_turn(combat, "a")
    with pytest.raises(RulesError):
        cb.taunt(combat, "a", "g", distance=11)
    combat, _ = cb.taunt(combat, "a", "g", distance=10)
    assert cb.combatant(combat, "g")["taunted_by"] == "a"
    assert cb.taunt_applies("a", ["b"]) and not cb.taunt_applies("a", ["a", "b"])
    combat, _ = cb.end_turn(combat)
    combat, _ = cb.start_turn(combat, "b")
    combat, _ = cb.ready(combat, "b", what="атака мечом", trigger="враг подходит")
    combat, _ = cb.end_turn(combat)
    combat, _ = cb.start_turn(combat, "g")
    combat, event = cb.trigger_readied(combat, "b")
    assert cb.combatant(combat, "b")["reaction_used"] is True  # A2: it uses the reaction
    combat, _ = cb.end_turn(combat)
    combat, _ = cb.start_round(combat, ScriptedDice([9]))
    combat, event = cb.start_turn(combat, "a")
    assert event["taunts_ended"] == ["g"]


def test_combat_campaign_actions_round_trip():
    from crows_helpers import campaign

    camp = run("combat_start", campaign(), [], combatants=FIGHTERS, surprised=["g"]).state
    out = run("combat_round", camp, [6])
    assert (out.total, out.band) == (6, "pcs")
    camp = run("combat_turn", out.state, [], combatant="a").state
    camp = run("combat_spend", camp, [], combatant="a", cost="action").state
    assert camp["combat"]["turn"]["actions"] == 1
    camp = run("combat_end_turn", camp, []).state
    camp = run("combat_end", camp, []).state
    assert camp["combat"] is None


# --- attacks (L777-L831) ----------------------------------------------------------------------


def test_melee_hit_applies_the_weapons_tier_damage_to_the_target_sheet():
    target = monster(stamina=6, stamina_max=6)
    out = run("attack", armed(), [8, 7], weapon_id="sword", target=target)
    assert (out.total, out.band) == (15, "2")
    assert out.details["target"]["stamina"] == 3
    assert out.flags["hit"] is True and out.flags["cost"] == "action"


def test_unarmed_strike_is_1_or_2_plus_the_characteristic():
    out = run("attack", pc(strength=2), [8, 7], target=monster(stamina=9, stamina_max=9))
    assert out.band == "3" and out.details["targets"][0]["damage"] == 4


def test_melee_miss_lets_an_armed_target_counterattack_with_its_tier_2():
    attacker = pc(stamina=6, stamina_max=6)
    target = armed(name="Страж", kind="monster")
    out = run("attack", attacker, [3, 4], target=target)
    assert out.pending and out.chooser == "referee"
    assert out.flags["reaction_by"] == "Страж"
    saved = outcome_from_dict(json.loads(json.dumps(out.as_dict())))
    done = choose(saved, ["counterattack"])
    assert done.state["stamina"] == 3
    assert done.details["counterattack"]["tier"] == 2


def test_counterattack_after_a_doom_deals_tier_3():
    out = run("attack", pc(stamina=9, stamina_max=9), [1, 1], target=armed(kind="monster"))
    done = choose(out, ["counterattack"])
    assert done.details["counterattack"]["tier"] == 3
    assert done.state["stamina"] == 4


def test_an_empty_handed_pc_cannot_counterattack_unless_the_campaign_allows_it():
    out = run("attack", pc(), [3, 4], target=pc(name="Голый"))
    assert not out.pending
    allowed = run(
        "attack", pc(), [3, 4], target=pc(name="Голый"), settings={"counter_unarmed": True}
    )
    assert allowed.pending


def test_flanking_is_advantage_on_melee_unless_you_are_prone():
    out = run("attack", armed(), [5, 5], weapon_id="sword", flanking=True)
    assert "flanking" in out.details["sources"] and out.total == 12
    prone = armed(conditions=[{"key": "prone"}])
    out = run("attack", prone, [5, 5], weapon_id="sword", flanking=True)
    assert "flanking" not in out.details["sources"]


def test_flanking_geometry_opposite_sides_and_corners():
    assert cb.flanking_geometry((0, 1, 1), (2, 1, 1), (1, 1, 1))
    assert cb.flanking_geometry((0, 0, 1), (2, 2, 1), (1, 1, 1))
    assert not cb.flanking_geometry((0, 0, 1), (2, 1, 1), (1, 1, 1))
    assert not cb.flanking_geometry((0, 0, 1), (3, 3, 1), (1, 1, 1))  # ally not adjacent


def test_several_targets_one_roll_per_target_modifiers_and_no_target_twice():
    targets = [
        {"name": "Гуль 1", "sheet": pc(name="Гуль 1", kind="monster", stamina=5, stamina_max=5)},
        {"name": "Гуль 2", "cover": "half"},
    ]
    out = run("attack", armed(), [6, 6], weapon_id="sword", targets=targets)
    first, second = out.details["targets"]
    assert (first["tier"], second["tier"]) == (2, 1)  # 12, and 10 behind cover
    assert first["state"]["stamina"] == 2
    with pytest.raises(RulesError):
        run("attack", armed(), [], weapon_id="sword", targets=[{"name": "X"}, {"name": "X"}])
    with pytest.raises(RulesError):
        run("attack", armed(), [], weapon_id="sword", cover="full")


def test_ranged_attack_beyond_range_adjacent_and_ammunition():
    shooter = with_items(pc(), (bow(range_=6), "hands:1"), (arrows(), "belt:1"))
    out = run("attack", shooter, [9, 9, 4], weapon_id="bow", distance=8, adjacent=True)
    assert out.details["parts"]["range"] == -4
    assert "ranged_adjacent" in out.details["sources"]
    assert out.details["ammo_used"] == "arrow1"
    with pytest.raises(RulesError):
        run("attack", out.state, [], weapon_id="bow")  # no ammunition left


def test_ranged_miss_hits_an_adjacent_ally_on_an_odd_die():
    shooter = with_items(pc(), (bow(), "hands:1"), (arrows(), "belt:1"))
    out = run("attack", shooter, [3, 4, 3, 5], weapon_id="bow", allies_adjacent=2)
    stray = out.details["targets"][0]["stray"]
    assert stray["ally_hit"] is True and stray["damage"] == 5


def _round(combat, n):
    for _ in range(n):
        combat, _event = cb.start_round(combat, ScriptedDice([7]))
    return combat


def test_crit_gives_an_extra_action_high_ground_and_surprise_bonus():
    combat = _round(cb.new_combat(FIGHTERS, surprised=["g"]), 1)
    out = run(
        "attack",
        armed(),
        [10, 9],
        weapon_id="sword",
        high_ground=True,
        combat=combat,
        combatant="g",
    )
    assert out.flags["extra_action"] is True and out.flags["use"] == "this_turn"
    assert "high_ground" in out.details["sources"]
    assert out.details["parts"]["surprised"] == 1


def test_taunted_attacker_has_disadvantage_unless_the_taunter_is_targeted():
    out = run("attack", armed(), [6, 6], weapon_id="sword", taunted_by="Ивар", target_name="Гуль")
    assert "taunted" in out.details["sources"]
    out = run("attack", armed(), [6, 6], weapon_id="sword", taunted_by="Ивар", target_name="Ивар")
    assert "taunted" not in out.details["sources"]


def test_fragile_improvised_weapon_breaks_and_thrown_weapons_leave_the_hand():
    lantern = make_item("lamp", "Фонарь", fragile=True)
    out = run("attack", with_items(pc(), (lantern, "hands:1")), [6, 6], weapon_id="lamp")
    assert out.flags["broke"] is True
    dagger = make_item(
        "dagger", "Кинжал", damage={"type": "thrown", "range": 5, "tier2": "2", "tier3": "3"}
    )
    with pytest.raises(RulesError):
        run("attack", with_items(pc(), (dagger, "hands:1")), [], weapon_id="dagger")
    out = run(
        "attack", with_items(pc(), (dagger, "hands:1")), [6, 6], weapon_id="dagger", attack="ranged"
    )
    assert out.details["thrown_item"]["id"] == "dagger"


def test_weapon_expertise_is_offered_after_the_roll():
    state = armed(expertises=[{"key": "slashing", "uses": 1, "max": 1}])
    out = run("attack", state, [5, 5], weapon_id="sword", target=monster(stamina=9, stamina_max=9))
    assert out.pending and "slashing" in {o.key for o in out.options}
    done = choose(out, ["slashing"])
    assert done.flags["tier"] == 2
    assert done.details["target"]["stamina"] == 6
    assert done.state["expertises"][0]["uses"] == 0


def test_counterattack_action_needs_a_weapon_and_a_reaction():
    with pytest.raises(RulesError):
        run("counterattack", pc(), [], target=pc())
    with pytest.raises(RulesError):
        run("counterattack", armed(), [], target=pc(), reaction_used=True)
    out = run("counterattack", armed(), [], target=pc(stamina=6, stamina_max=6), doom=True)
    assert out.details["target"]["stamina"] == 1
    assert out.flags["cost"] == "reaction"


# --- grab, escape, knockback (L735-L757) ------------------------------------------------------


def test_grab_17_grabs_the_target_and_12_16_offers_push_or_shift():
    target = pc(name="Цель")
    out = run("grab", pc(name="Борец", strength=2), [8, 7], target=target)
    assert out.band == "3"
    assert out.details["target"]["conditions"][0]["key"] == "grabbed"
    assert out.flags["grabbing"] == "Цель"
    out = run("grab", pc(strength=2), [5, 5], target=target)
    assert out.pending
    assert choose(out, ["push_1"]).flags["push"] == 1
    with pytest.raises(RulesError):
        run("grab", pc(), [], target=pc(size="large"))
    with pytest.raises(RulesError):
        run("grab", pc(), [], target=target, grabbing="Другой")


def test_grab_miss_opens_a_counterattack_by_an_armed_target():
    out = run("grab", pc(stamina=6, stamina_max=6), [1, 2], target=armed(kind="monster"))
    assert out.pending
    assert choose(out, ["counterattack"]).state["stamina"] == 1  # doom: tier 3 = 5


def test_escape_12_16_break_free_then_the_grabber_may_counterattack():
    grabbed = pc(stamina=6, stamina_max=6, conditions=[{"key": "grabbed", "by": "Гуль"}])
    out = run("escape", grabbed, [6, 6], target=armed(name="Гуль", kind="monster"))
    assert out.band == "2" and out.pending
    free = choose(out, ["break_free"])
    assert free.flags["free"] is True
    assert not any(c["key"] == "grabbed" for c in free.state["conditions"])
    assert free.pending  # L748: now the grabber may counterattack
    hit = choose(free, ["counterattack"])
    assert hit.state["stamina"] == 3
    out = run("escape", grabbed, [9, 9])
    assert out.flags["free_step"] == 1
    with pytest.raises(RulesError):
        run("escape", pc(), [])


def test_knockback_pushes_1_or_2():
    assert run("knockback", pc(), [6, 6]).flags["push"] == 1
    assert run("knockback", pc(), [9, 9]).flags["push"] == 2


# --- movement (L851-L886) ---------------------------------------------------------------------


def test_difficult_terrain_swimming_climbing_and_speeds():
    assert mv.step_cost({"difficult": True}, {}) == (2, [])
    assert mv.step_cost({"swim": True}, {}) == (2, ["swim"])
    assert mv.step_cost({"swim": True}, {"swim": 4}) == (1, [])
    assert mv.step_cost({"climb": True, "ceiling": True}, {"climb": 4}) == (2, ["climb_ceiling"])
    assert mv.step_cost({"ceiling": True}, {"climb": 4, "upside_down": True}) == (1, [])
    out = run("move", pc(speed=4), [], path=[{"difficult": True}, {"enemy": True}])
    assert out.flags["squares"] == 4
    with pytest.raises(RulesError):
        run("move", pc(speed=3), [], path=[{"difficult": True}, {"difficult": True}])
    with pytest.raises(RulesError):
        run("move", pc(), [], path=[{"difficult": True}], mode="shift")
    with pytest.raises(RulesError):
        run("move", pc(), [], path=[{"air": True}])


def test_prone_halves_and_squeezing_halves_speed():
    out = run("move", pc(speed=6, conditions=[{"key": "prone"}]), [], path=[{}, {}, {}])
    assert out.details["limit"] == 3
    with pytest.raises(RulesError):
        run("move", pc(speed=6), [], path=[{}] * 4, squeezing=True)


def test_teleport_ends_a_grab_keeps_prone_and_needs_line_of_effect():
    state = pc(conditions=[{"key": "grabbed"}, {"key": "prone"}])
    out = run("teleport", state, [], distance=5, reach=6)
    assert out.flags["grab_ended"] is True and out.flags["prone"] is True
    with pytest.raises(RulesError):
        run("teleport", pc(), [], distance=5, reach=6, line_of_effect=False)
    with pytest.raises(RulesError):
        run("teleport", pc(), [], distance=7, reach=6)


def test_magical_forced_movement_ignores_size_and_hazards_apply():
    out = run(
        "forced_move",
        pc(size="huge"),
        [],
        distance=2,
        magical=True,
        kind="slide",
        path=[{"hazard": "огонь"}, {}],
    )
    assert out.details["forced"]["hazards"] == ["огонь"]
    with pytest.raises(RulesError):
        run("forced_move", pc(), [], distance=2, path=[{}, {"occupied": True}])
    with pytest.raises(RulesError):
        run("forced_move", pc(), [], distance=1, path=[{"height": 2}])


# --- pets (L890-L902) -------------------------------------------------------------------------


def test_command_a_pet_checks_only_when_hard_and_never_for_a_summoned_creature():
    goat = pc(name="Коза", kind="pet")
    out = run("command_pet", pc(), [6, 6], target=goat, check=True)
    assert out.flags["obeys"] is True and out.flags["pet_weakened"] is True
    assert out.details["target"]["conditions"][0]["key"] == "weakened"
    assert run("command_pet", pc(), [2, 5], target=goat, check=True).flags["obeys"] is False
    summoned = pc(name="Бес", kind="pet", companion={"owner": "Маг", "summoned": True})
    assert run("command_pet", pc(), [], target=summoned, check=True).flags["checked"] is False
    assert cb.can_ride("medium", "large") and not cb.can_ride("medium", "medium")


# --- spells (L1212-L1365) ---------------------------------------------------------------------


def test_a_spell_in_wear_dice_ticks_at_the_end_of_the_dungeon_turn():
    book = spellbook(duration="wear_dice", duration_dice=2)
    state = with_items(pc(name="Маг"), (book, "hands:1"))
    out = run("cast", state, [8, 7, 5, 5])  # tier 2, book dice 5 and 5 stay
    effect = out.state["effects"][0]
    assert (effect["key"], effect["wear_dice"], effect["caster"]) == ("spell", 2, "Маг")
    with ScriptedDice([1, 4, 1]) as dice:  # the effect's two dice, then the encounter d10
        turn = end_dungeon_turn(in_dungeon(), [out.state], dice=dice, settings=None)
    assert turn.characters[0]["effects"][0]["wear_dice"] == 1


def test_the_discipline_expertise_only_and_a_crit_skips_the_book_dice():
    state = with_items(
        pc(
            expertises=[
                {"key": "elements", "uses": 1, "max": 1},
                {"key": "necromancy", "uses": 1, "max": 1},
            ]
        ),
        (spellbook(), "hands:1"),
    )
    out = run("cast", state, [5, 5])
    assert {o.key for o in out.options} == {"elements", "none"}
    with ScriptedDice([6, 6]) as dice:
        done = RS.apply_choice(out, ["elements"], dice=dice)
    assert done.band == "2"
    crit = run("cast", state, [10, 10])
    assert crit.flags["crit"] is True and "book_wear" not in crit.details["cast"]


def test_backlash_99_100_lowers_the_tier_and_makes_tier_1_a_doom():
    lower = {
        "id": "b",
        "name": "x",
        "duration": "wear_dice",
        "wear_dice": 2,
        "key": "backlash:99-100",
    }
    state = with_items(pc(effects=[lower]), (spellbook(rank=1, dice=1), "hands:1"))
    out = run("cast", state, [9, 9, 6])  # 18: tier 3 → 2
    assert out.band == "2" and out.flags["backlash"] is False
    out = run("cast", state, [7, 7, 1, 1, 2, 6])  # 14: tier 2 → 1; chaos 1; d100 12 + 1
    assert out.flags["backlash"] is True
    out = run("cast", state, [3, 4, 1, 3, 6])  # 7: tier 1 → doom: backlash, no chaos
    assert out.flags["doom"] is True and "chaos" not in out.details["cast"]


def test_out_of_combat_spells_and_targets_are_validated():
    state = with_items(pc(name="Маг"), (spellbook(casting_time="out_of_combat"), "hands:1"))
    with pytest.raises(RulesError):
        run("cast", state, [], in_combat=True)
    state = with_items(pc(name="Маг"), (spellbook(target="creature", count=1), "hands:1"))
    with pytest.raises(RulesError):
        run("cast", state, [], target_name="Маг")
    with pytest.raises(RulesError):
        run("cast", state, [], target_name="Гуль", distance=11)
    with pytest.raises(RulesError):
        run("cast", state, [], targets=[{"name": "a"}, {"name": "b"}])


def test_summoning_spell_returns_pet_sheets():
    book = spellbook(
        target="summoned",
        discipline="summoning",
        summon={"name": "Бес", "size": "small", "stamina": 3, "speed": 5, "count": 2},
    )
    out = run("cast", with_items(pc(name="Маг"), (book, "hands:1")), [8, 7, 5, 5])
    pets = out.details["cast"]["summoned"]
    assert [p["name"] for p in pets] == ["Бес 1", "Бес 2"]
    assert pets[0]["companion"] == {"owner": "Маг", "summoned": True, "spell": "Огненная искра"}
    RS.validate_state(pets[0])


def test_attack_spell_damages_its_target():
    book = spellbook(attack="ranged", tier2="1d6", tier3="2d6")
    target = monster(stamina=9, stamina_max=9)
    out = run("cast", with_items(pc(), (book, "hands:1")), [8, 7, 4, 5, 5], target=target)
    assert out.details["target"]["stamina"] == 5


def test_every_backlash_value_has_one_row():
    for value in range(1, 106):
        assert backlash_row(value).lo <= value <= backlash_row(value).hi
    assert backlash_row(62).key == "61-62" and backlash_row(63).key == "63-64"
    assert len(BACKLASH_TABLE) == 55


class SteadyDice:
    """Every die shows 4 (or its top face); decks keep their order."""

    def roll(self, sides: int) -> int:
        return min(4, sides)

    def shuffle(self, items: list) -> None:
        return None


@pytest.mark.parametrize("value", range(1, 106))
def test_every_backlash_row_applies_to_a_fresh_caster(value):
    state = with_items(
        pc(stamina=30, stamina_max=30, expertises=[{"key": "stealth", "uses": 2, "max": 2}]),
        (make_item("rock", "Камень"), "backpack:1"),
        (make_item("ration", "Паёк", kind="ration"), "backpack:2"),
    )
    row = backlash_row(value)
    new, _info = apply_backlash(state, row, SteadyDice())
    RS.validate_state(new)
    if row.lasting and row.key != "105":
        assert any(e.get("key") == f"backlash:{row.key}" for e in new["effects"])


def test_a_repeated_lasting_backlash_is_rerolled_unless_it_stacks():
    donkey = {"id": "d", "name": "Осёл", "wear_dice": 1, "key": "backlash:01-02"}
    with ScriptedDice([10, 1, 10, 3]) as dice:  # 01 → rerolled; 03 dancing
        state, event = roll_backlash(pc(effects=[donkey]), 0, dice)
    assert [r["row"] for r in event["rolls"]] == ["01-02", "03-04"]
    slime = {
        "id": "backlash:37-38",
        "name": "Слизь",
        "duration": "dungeon_turn",
        "key": "backlash:37-38",
    }
    with ScriptedDice([3, 7]) as dice:
        state, event = roll_backlash(pc(speed=6, effects=[slime]), 0, dice)
    assert state["effects"][0]["stacks"] == 2
    from systems.crows.conditions import speed

    assert speed(state) == 2


def test_characteristic_backlash_lowers_checks_until_a_rest():
    with ScriptedDice([8, 7]) as dice:
        state, _ = roll_backlash(pc(strength=1), 0, dice)
    assert run("check", state, [6, 6], characteristic="strength").total == 12
    rested = run("end_rest", state, []).state
    assert rested["effects"] == []


def test_quicksand_needs_the_ground_and_porcelain_doubles_damage():
    with ScriptedDice([6, 3, 1, 3]) as dice:  # 63 off the ground is rolled again: 13
        state, event = roll_backlash(pc(), 0, dice, touching_ground=False)
    assert [r["row"] for r in event["rolls"]] == ["63-64", "13-14"]
    assert state["conditions"][0]["key"] == "weakened"
    porcelain = {"id": "p", "name": "Фарфор", "wear_dice": 1, "key": "backlash:57-58"}
    out = run("take_damage", pc(stamina=9, stamina_max=9, effects=[porcelain]), [], amount=2)
    assert out.state["stamina"] == 5
    out = run(
        "take_damage",
        pc(stamina=9, stamina_max=9, effects=[porcelain]),
        [],
        amount=2,
        piercing=True,
    )
    assert out.state["stamina"] == 7


# --- the Miasma (L1162-L1188) -----------------------------------------------------------------


def test_counter_the_miasma_gives_advantage_on_the_save():
    travel = travel_day()["travel"]
    helper = run(
        "travel_role",
        pc(name="Сказитель"),
        [9, 9],
        travel=travel,
        travel_task="counter_miasma",
        allies=["Грета"],
    )
    travel = helper.details["travel"]
    assert travel["miasma_advantage"] == [{"name": "Грета", "count": 2}]
    out = run("miasma_save", pc(name="Грета"), [5, 5], travel=travel)
    assert out.flags["shift"] == 1 and out.band == "2"


def test_miasma_party_flow_a_17_lifts_another_from_tier_1():
    chars = [pc(name="А", reason=3), pc(name="Б"), pc(name="Пёс", kind="pet")]
    with ScriptedDice([8, 7, 3, 3]) as dice:
        saves = RS.miasma_saves(chars, dice=dice)
    assert [s.flags.get("tier") for s in saves] == [3, 1, None]
    with ScriptedDice([]) as dice:
        results = RS.miasma_resolve(chars, saves, {0: 1}, dice=dice)
    assert results[1].flags["tier"] == 2
    assert results[1].state["cruelty"] == 0


def test_tier_3_save_may_clear_cruelty():
    out = run("miasma_save", pc(cruelty=2), [10, 9])
    assert out.pending
    done = choose(out, ["clear_cruelty"])
    assert done.state["cruelty"] == 0


def test_lying_grants_an_expertise_lost_on_leaving():
    out = run("miasma_save", pc(cruelty=0), [2, 5, 7])  # 7: tier 1; 7 + 1 = 8: lying
    assert out.details["miasma"]["row"]["key"] == "lying"
    state = run("miasma_expertise", out.state, [], expertise="stealth").state
    assert any(e["key"] == "stealth" for e in state["expertises"])
    left = run("leave_miasma", state, []).state
    assert not any(e["key"] == "stealth" for e in left["expertises"])
    assert left["cruelty"] == 1  # cruelty clears only after a full rest there (L1174)


def test_sloth_refuses_roles_and_rests_remove_two_wounds():
    sloth = {"id": "miasma:sloth", "name": "Лень", "duration": "miasma", "key": "miasma:sloth"}
    state = pc(name="Лентяй", effects=[sloth])
    with pytest.raises(RulesError):
        run("travel_role", state, [], travel=travel_day()["travel"], travel_task="forage")
    state["inventory"]["wounds"] = [{"slot": 9}, {"slot": 10}]
    rested = run("end_rest", RS.validate_state(state), [], miasma=True).state
    assert rested["inventory"]["wounds"] == []


def test_miasma_table_rows():
    assert miasma_row(2).key == "gloom"
    assert miasma_row(12).key == "bloodlust"
    assert miasma_row(25).key == "lost"


# --- travel (L953-L1208) ----------------------------------------------------------------------


def test_roles_in_order_and_limits():
    travel = travel_day()["travel"]
    with pytest.raises(RulesError):
        RS.resolve(
            "travel_role",
            pc(name="Гид"),
            dice=ScriptedDice([]),
            travel={
                **travel,
                "roles": [
                    {"name": "Гид", "role": "guide", "task": "shortcut"},
                    {"name": "Пом", "role": "helper", "task": "make_camp"},
                ],
            },
            travel_task="shortcut",
        )
    from crows_combat_helpers import travelling

    camp = run("travel_day", travelling(), [], pace="normal").state
    roles = [{"name": f"Г{i}", "role": "guide", "task": "shortcut"} for i in range(2)]
    with pytest.raises(RulesError):
        run("travel_roles", camp, [], roles=roles)
    scouts = [{"name": f"Р{i}", "role": "scout", "task": "find_shelter"} for i in range(4)]
    with pytest.raises(RulesError):
        run("travel_roles", camp, [], roles=scouts)


def test_forage_and_hunt_roll_rations():
    travel = travel_day()["travel"]
    out = run("travel_role", pc(name="С"), [9, 8, 4], travel=travel, travel_task="forage")
    assert out.details["travel"]["rations_found"] == 5
    out = run("travel_role", pc(name="О"), [9, 8, 1, 2, 3], travel=travel, travel_task="hunt")
    assert out.details["travel"]["rations_found"] == 6
    assert out.details["travel"]["hides_found"] == 1


def test_shortcut_tier_1_gets_the_party_lost_and_arrival_switches_to_dungeon_turns():
    from crows_combat_helpers import travelling

    camp = run("travel_day", travelling(), [], pace="normal").state
    out = run("travel_role", pc(name="Г"), [2, 5], travel=camp["travel"], travel_task="shortcut")
    assert out.details["travel"]["lost"] is True
    camp = RS.validate_campaign({**camp, "travel": out.details["travel"]})
    arrived = run("travel_arrive", camp, [], place="Курган")
    assert arrived.state["in_dungeon"] is True
    from systems.crows.dungeon import encounter_threshold

    assert encounter_threshold(arrived.state) == 7


def test_travel_move_follows_directions_when_not_lost():
    camp = travel_day()
    out = run("travel_move", camp, [], directions=["n", "ne"])
    assert out.state["travel"]["hex"] == {"q": 1, "r": -2}
    assert out.details["events"][0]["position"] == {"q": 1, "r": -2}


# --- crafting and identification (L1369-L1423) ------------------------------------------------


def test_crafting_needs_tools_expertise_uses_and_materials():
    project = {"id": "p", "name": "Бомба", "goal": 10, "expertise": "alchemy", "uses": 2}
    state = run("start_project", pc(), [], project=project).state
    with pytest.raises(RulesError):
        run("craft", state, [5, 5], project_id="p", tools_in_camp=True)


def test_crafting_crit_chains_and_expertise_adds_4_each():
    project = {"id": "p", "name": "Меч", "goal": 99, "expertise": "blacksmithing", "uses": 0}
    state = pc(
        expertises=[
            {"key": "blacksmithing", "uses": 1, "max": 1},
            {"key": "endurance", "uses": 1, "max": 1},
        ]
    )
    state = run("start_project", state, [], project=project).state
    out = run(
        "craft",
        state,
        [10, 9, 10, 10, 3, 4],
        project_id="p",
        tools_in_camp=True,
        expertises=["blacksmithing", "endurance"],
    )
    assert [r["points"] for r in out.details["rolls"]] == [27, 20, 7]
    assert out.total == 54
    assert [e["uses"] for e in out.state["expertises"]] == [0, 0]


def test_several_crafters_add_to_one_project():
    project = {"id": "p", "name": "Зелье", "goal": 15, "expertise": "alchemy", "uses": 0}
    owner = run("start_project", pc(name="Хозяин"), [], project=project).state
    helper = pc(name="Подмастерье")
    with ScriptedDice([4, 4, 5, 5]) as dice:
        states, outs = RS.crafting_session(
            [owner, helper],
            0,
            "p",
            [{"tools_in_camp": True}, {"tools_in_camp": True}],
            dice=dice,
        )
    assert states[0]["projects"][0]["done"] == 1
    assert states[0]["projects"][0]["points"] == 3
    assert len(outs) == 2


def test_identify_a_held_magic_item():
    ring = make_item("ring", "Кольцо", magic=True, identified=False)
    state = with_items(pc(), (ring, "hands:1"))
    out = run("identify_check", state, [9, 9], item_id="ring")
    assert out.flags["identified"] is True
    card = out.state["inventory"]["placed"][0]["items"][0]
    assert card["identified"] is True
    bad = run("identify_check", state, [2, 5], item_id="ring")
    assert bad.flags["harmful_activation"] is True
    with pytest.raises(RulesError):
        run("identify_check", bad.state, [5, 5], item_id="ring")  # no retry (L202)


def test_butcher_a_large_corpse():
    out = run("butcher", pc(), [3, 4], corpse_size="large")
    assert out.total == 7


def test_no_move_mutates_its_input():
    state = armed(expertises=[{"key": "slashing", "uses": 1, "max": 1}])
    target = armed(name="Страж", kind="monster")
    before = json.dumps([state, target], sort_keys=True)
    out = run("attack", state, [3, 4], weapon_id="sword", target=target)
    choose(out, ["none"], [])
    assert json.dumps([state, target], sort_keys=True) == before
    assert sword()["id"] == "sword"


def test_a_dead_casters_spell_ends_at_the_turn_end_and_fliers_fall():
    spell = {"id": "spell:book", "name": "Щит", "wear_dice": 3, "key": "spell", "caster": "Маг"}
    mage = pc(name="Маг", dead=True)
    friend = pc(name="Друг", effects=[spell])
    with ScriptedDice([5]) as dice:
        turn = end_dungeon_turn(in_dungeon(), [mage, friend], dice=dice, settings=None)
    assert turn.characters[1]["effects"] == []
    assert any(e.get("reason") == "caster_died" for e in turn.events)
    bird = pc(speeds={"fly": 6}, conditions=[{"key": "prone"}])
    assert mv.flier_falls(bird) and not mv.flier_falls(pc())


def test_a_rest_while_travelling_uses_the_rest_threshold():
    camp = travel_day()
    camp["travel"]["rest_mod"] = 2
    from systems.crows.travel import recompute

    recompute(camp["travel"])
    with ScriptedDice([]) as dice:
        started = RS.start_rest(RS.validate_campaign(camp), [], dice=dice, place="wild")
    out = run("rest_encounter", started.campaign, [8])
    assert out.details["events"][0]["threshold"] == 9
    assert out.band == "none"


def test_attack_reads_surprise_from_the_combat_in_round_1_only():
    """L703: attacks against a surprised creature get +1; after round 1 nobody is surprised.
    The combat says who is surprised; the attacker's word is not a parameter."""
    start = cb.new_combat(FIGHTERS, surprised=["g"])
    one, two = _round(start, 1), _round(start, 2)
    assert one["round"] == 1 and two["round"] == 2

    def bonus(combat, who):
        out = run("attack", armed(), [5, 4], weapon_id="sword", combat=combat, combatant=who)
        return out.details["parts"].get("surprised", 0), out.total

    assert bonus(one, "g") == (1, 9 + 1 + armed()["characteristics"]["strength"])
    assert bonus(one, "b")[0] == 0  # not surprised
    assert bonus(two, "g")[0] == 0  # round 2
    assert bonus(start, "g")[0] == 0  # no round started yet
    assert bonus(None, "g")[0] == 0  # no combat
    with pytest.raises(RulesError):
        run("attack", armed(), [5, 4], weapon_id="sword", surprised=True)


def test_check_of_the_attack_kind_and_the_attack_move_agree_on_every_modifier():
    """One rule for both: a prone attacker cannot flank (L825) whoever claims it, and the
    combat's surprise (L703) gives the same +1; the same faces give the same total."""
    combat = _round(cb.new_combat(FIGHTERS, surprised=["g"]), 1)
    for attacker in (armed(), armed(conditions=[{"key": "prone"}])):
        move = run(
            "attack",
            attacker,
            [5, 4],
            weapon_id="sword",
            attack="melee",
            characteristic="strength",
            flanking=True,
            combat=combat,
            combatant="g",
        )
        check = run(
            "check",
            attacker,
            [5, 4],
            characteristic="strength",
            kind="attack",
            attack="melee",
            sources=["flanking"],
            combat=combat,
            target_combatant="g",
            any_expertise=False,
        )
        assert move.details["sources"] == check.details["sources"]
        assert move.details["parts"] == check.details["parts"]
        assert move.total == check.total
        assert move.details["parts"]["surprised"] == 1
    prone = armed(conditions=[{"key": "prone"}])
    claimed = run(
        "check",
        prone,
        [5, 4],
        characteristic="strength",
        kind="attack",
        attack="melee",
        sources=["flanking"],
    )
    assert "flanking" not in claimed.details["sources"]  # L825
    listed = run(
        "attack",
        prone,
        [5, 4],
        weapon_id="sword",
        target_sources=["flanking"],
        sources=["flanking"],
    )
    assert "flanking" not in listed.details["sources"]
    ranged = run(
        "check",
        armed(),
        [5, 4],
        characteristic="agility",
        kind="attack",
        attack="ranged",
        sources=["flanking"],
    )
    assert "flanking" not in ranged.details["sources"]  # flanking is for melee attacks


def test_a_check_of_the_attack_kind_that_names_no_attack_flanks_as_melee():
    def flank(state):
        out = run(
            "check", state, [5, 4], characteristic="strength", kind="attack", sources=["flanking"]
        )
        return "flanking" in out.details["sources"]

    assert flank(armed()) is True
    assert flank(armed(conditions=[{"key": "prone"}])) is False
