"""Every acceptance case of ``shared/rules/crows_b_combat_travel_spells.md`` §7 with the exact
dice faces. Test names carry the case number; "a+b" are the natural faces of 2d10."""

from __future__ import annotations

import pytest
from crows_combat_helpers import armed, sword, travel_day, travelling
from crows_helpers import RS, choose, pc, run, with_items

from systems.core.dice import ScriptedDice
from systems.core.ruleset import RulesError
from systems.crows.items import make_item
from systems.crows.modifiers import weapon_damage_bonus
from systems.crows.travel import public_view

# --- pace and encounters ----------------------------------------------------------------------


def test_case_01_normal_pace_two_hexes_threshold_7_plain_checks():
    travel = travel_day("normal", slowest_speed=5)["travel"]
    assert travel["hexes"] == 2
    assert (travel["travel_threshold"], travel["rest_threshold"]) == (7, 7)
    assert travel["role_net"] == 0


def test_case_02_fast_on_a_road_six_hexes_threshold_5_disadvantage():
    travel = travel_day("fast", slowest_speed=10, road=True)["travel"]
    assert travel["hexes"] == 6  # 3 + 2 + 1
    assert (travel["travel_threshold"], travel["rest_threshold"]) == (5, 5)
    assert travel["role_net"] == -1
    guide = pc(name="Гид")
    out = run(
        "travel_role", guide, [9, 8], travel=travel, travel_task="regular_route", choices=["hex"]
    )
    assert "fast_pace" in out.details["sources"]
    assert out.total == 15  # 17 − 2 for the disadvantage


def _role(sheet, travel, task, faces, **kw):
    return run("travel_role", sheet, faces, travel=travel, travel_task=task, **kw)


def test_case_04_threshold_capped_at_10():
    travel = travel_day("slow")["travel"]
    assert travel["travel_threshold"] == 8
    guide = _role(pc(name="Гид"), travel, "safe_route", [8, 7])  # 15 + 2 (slow) = 17
    assert guide.band == "3"
    scout = _role(pc(name="Разведчик"), guide.details["travel"], "watch_for_danger", [8, 7])
    assert scout.band == "3"
    travel = scout.details["travel"]
    assert travel["travel_threshold"] == 10  # 8 + 2 + 2 = 12, capped
    camp = RS.validate_campaign({**RS.default_campaign(), "travel": travel})
    hit = run("travel_encounter", camp, [10])
    assert hit.details["events"][0]["referee_only"]["encounter"] is True
    miss = run("travel_encounter", camp, [9])
    assert miss.details["events"][0]["referee_only"]["encounter"] is False
    assert hit.flags["hidden"] is True and hit.faces == []


def test_case_05_hunt_tier_1_lowers_the_threshold_to_6():
    travel = travel_day("normal")["travel"]
    hunt = _role(pc(name="Охотник"), travel, "hunt", [3, 4])
    assert hunt.band == "1"
    travel = hunt.details["travel"]
    assert travel["travel_threshold"] == 6
    camp = RS.validate_campaign({**RS.default_campaign(), "travel": travel})
    assert run("travel_encounter", camp, [6]).details["events"][0]["referee_only"]["encounter"]
    assert not run("travel_encounter", camp, [5]).details["events"][0]["referee_only"]["encounter"]


# --- getting lost -----------------------------------------------------------------------------


def test_case_07_drift_se_then_nw_is_back_at_the_start_and_players_see_unknown():
    camp = travel_day("normal")
    camp["travel"]["lost"] = True
    camp = RS.validate_campaign(camp)
    start = dict(camp["travel"]["hex"])
    out = run("travel_move", camp, [3, 6])
    travel = out.state["travel"]
    event = out.details["events"][0]
    assert [d["direction"] for d in event["referee_only"]["drift"]] == ["se", "nw"]
    assert travel["hex"] == start
    assert event["position"] == "unknown"
    assert event["hidden"] is True
    assert public_view(travel)["hex"] is None
    assert "drift" not in public_view(travel)


def _lost_day():
    camp = travelling(lost=True)
    return run("travel_day", camp, [], pace="normal", slowest_speed=5).state["travel"]


def test_case_08_back_on_track_still_lost_found_with_a_hex_and_doom():
    guide = pc(name="Гид", reason=1)
    still = _role(guide, _lost_day(), "back_on_track", [5, 5])
    assert (still.total, still.band) == (11, "1")
    assert still.details["travel"]["lost"] is True
    found = _role(guide, _lost_day(), "back_on_track", [9, 8])
    assert (found.total, found.band) == (18, "3")
    assert found.pending and {o.key for o in found.options} == {"hex", "travel_threshold"}
    found = choose(found, ["hex"])
    assert found.details["travel"]["lost"] is False
    assert found.details["travel"]["hexes"] == 3
    doom = _role(guide, _lost_day(), "back_on_track", [1, 1])
    assert doom.flags["doom"] is True
    assert doom.details["travel"]["lost"] is True


def test_case_08_a_lost_guide_must_try_back_on_track():
    with pytest.raises(RulesError):
        _role(pc(name="Гид"), _lost_day(), "shortcut", [5, 5])


# --- travel roles -----------------------------------------------------------------------------


def test_case_10_make_camp_17_gives_crafting_plus_4_and_a_crafter_rolls_13():
    camper = pc(name="Лагерщик", strength=2)
    out = _role(camper, travel_day()["travel"], "make_camp", [9, 6])
    assert (out.total, out.band) == (17, "3")
    out = choose(out, ["crafting"])
    bonus = out.details["travel"]["crafting_bonus"]
    assert bonus == 4
    crafter = pc(name="Мастер", reason=1)
    crafter = run(
        "start_project",
        crafter,
        [],
        project={"id": "p", "name": "Зелье", "goal": 30, "expertise": "alchemy", "uses": 0},
    ).state
    rolled = run("craft", crafter, [4, 4], project_id="p", camp_bonus=bonus, tools_in_camp=True)
    assert rolled.total == 13


def test_case_11_help_everyone_tier_1_gives_the_scout_minus_1():
    travel = travel_day()["travel"]
    helper = pc(name="Помощник", strength=1)
    helped = _role(
        helper, travel, "help_everyone", [3, 5], characteristic="strength", allies=["Разведчик"]
    )
    assert (helped.total, helped.band) == (9, "1")
    scout = pc(name="Разведчик", agility=2)
    out = _role(
        scout, helped.details["travel"], "watch_for_danger", [6, 4], characteristic="agility"
    )
    assert out.details["parts"]["help_everyone"] == -1
    assert (out.total, out.band) == (11, "1")
    assert out.details["travel"]["travel_threshold"] == 7  # no effect


def test_case_13_safe_route_tier_2_threshold_plus_1_one_hex_fewer():
    out = _role(pc(name="Гид", reason=1), travel_day()["travel"], "safe_route", [7, 5])
    assert (out.total, out.band) == (13, "2")
    travel = out.details["travel"]
    assert travel["travel_threshold"] == 8
    assert travel["hexes"] == 1


def test_case_14_find_shelter_crit_and_search_for_treasure_minor():
    travel = travel_day()["travel"]
    shelter = _role(pc(name="Разведчик"), travel, "find_shelter", [10, 9])
    assert shelter.flags["crit"] is True and shelter.band == "3"
    travel = shelter.details["travel"]
    assert travel["rest_threshold"] == 9
    assert travel["travel_threshold"] == 7
    treasure = _role(pc(name="Искатель"), travel, "search_treasure", [7, 6])
    assert (treasure.total, treasure.band) == (13, "2")
    assert treasure.flags["referee_prompt"] == "minor_curiosities"
    assert treasure.details["travel"]["prompts"][0]["kind"] == "minor_curiosities"


def test_case_16_track_a_creature():
    tracker = pc(name="Следопыт")
    low = _role(tracker, travel_day()["travel"], "track_creature", [4, 3], quarry="медведь")
    assert low.details["travel"]["travel_threshold"] == 6
    met = _role(tracker, travel_day()["travel"], "track_creature", [10, 8], quarry="медведь")
    assert met.band == "3"
    assert met.flags["referee_prompt"] == "track_meeting"
    assert met.details["travel"]["prompts"] == [
        {"kind": "track_meeting", "by": "Следопыт", "note": "медведь"}
    ]


# --- the Miasma -------------------------------------------------------------------------------


def _tired(**kw):
    return pc(expertises=[{"key": "endurance", "uses": 0, "max": 2}], **kw)


def test_case_17_failed_save_cruelty_2_bloodlust_no_expertise_refresh():
    state = pc(cruelty=1)
    out = run("miasma_save", state, [4, 5, 9])
    assert (out.total, out.band) == (8, "1")
    assert out.state["cruelty"] == 2
    assert out.details["miasma"]["rolls"] == [{"roll": 9, "value": 11, "row": "bloodlust"}]
    assert [e["key"] for e in out.state["effects"]] == ["miasma:bloodlust"]
    assert weapon_damage_bonus(out.state) == 1
    hit = run("attack", armed(**_pc_fields(out.state)), [6, 6], weapon_id="sword")
    assert hit.details["targets"][0]["damage"] == 4
    rested = run("end_rest", _tired(cruelty=1), [], miasma=True)
    assert rested.state["expertises"][0]["uses"] == 0


def _pc_fields(state):
    return {k: state[k] for k in ("cruelty", "effects")}


def test_case_19_rest_in_a_crypt_clears_cruelty_and_bloodlust_and_refreshes_expertise():
    state = _tired(cruelty=1)
    state = run("miasma_save", state, [4, 5, 9]).state
    assert state["cruelty"] == 2
    out = run("end_rest", state, [], miasma=False)
    assert out.state["cruelty"] == 0
    assert out.state["effects"] == []
    assert out.state["expertises"][0]["uses"] == 2


def test_case_20_lost_to_the_miasma_becomes_an_npc():
    out = run("miasma_save", pc(cruelty=3), [4, 5, 9])
    assert out.band == "1"
    assert out.details["miasma"]["rolls"][0]["value"] == 13
    assert out.state["miasma_lost"] is True
    assert out.flags["npc"] is True
    assert out.state["cruelty"] == 0


# --- casting and wear dice --------------------------------------------------------------------


def test_case_22_tier_1_chaos_4_then_book_empty_until_a_rest():
    from crows_combat_helpers import spellbook

    state = with_items(pc(), (spellbook(dice=2), "hands:1"))
    out = run("cast", state, [3, 4, 4, 1, 1])
    assert out.band == "1" and out.flags["doom"] is False
    assert out.details["cast"]["chaos"] == 4
    assert out.flags["backlash"] is False
    assert out.details["cast"]["effect"] == "Искра гаснет у вас в руках."
    assert out.flags["book_empty"] is True
    with pytest.raises(RulesError):
        run("cast", out.state, [5, 5])
    rested = run("end_rest", out.state, [])
    assert run("cast", rested.state, [6, 6, 4, 5]).band == "2"


def test_case_23_doom_on_rank_5_is_hell_and_the_book_still_rolls():
    from crows_combat_helpers import spellbook

    state = with_items(
        pc(expertises=[{"key": "elements", "uses": 1, "max": 1}]),
        (spellbook(rank=5, dice=1), "hands:1"),
    )
    out = run("cast", state, [2, 1, 10, 10, 3])
    assert out.flags["doom"] is True and not out.pending
    assert out.flags["expertise_blocked"] is True
    assert "chaos" not in out.details["cast"]
    backlash = out.details["cast"]["backlash"]
    assert backlash["rolls"][0]["value"] == 105
    assert backlash["row"]["key"] == "105"
    assert out.state["dead"] is True and out.flags["gone"] is True
    assert out.details["cast"]["book_wear"]["faces"] == [3]


# --- crafting ---------------------------------------------------------------------------------


def _crafter(copies: int):
    herbs = [make_item(f"herb{i}", "Трава", kind="herb", stack=5) for i in range(copies)]
    tools = make_item("tools", "Инструменты алхимика", kind="alchemist_tools")
    state = pc(reason=1, expertises=[{"key": "alchemy", "uses": 1, "max": 1}])
    state = with_items(state, (tools, "backpack:1"), *[(h, "backpack:2") for h in herbs])
    project = {
        "id": "elixir",
        "name": "Эликсир",
        "goal": 20,
        "expertise": "alchemy",
        "uses": 1,
        "materials": [{"kind": "herb", "count": 1}],
    }
    return run("start_project", state, [], project=project).state


def test_case_25_points_accumulate_and_overflow_to_a_second_copy():
    state = _crafter(2)
    first = run("craft", state, [6, 3], project_id="elixir")
    assert first.total == 10
    second = run("craft", first.state, [7, 7], project_id="elixir")
    assert second.total == 15
    project = second.details["project"]
    assert (project["done"], project["points"]) == (1, 5)
    assert second.flags["done"] == 1
    kinds = [c["kind"] for p in second.state["inventory"]["placed"] for c in p["items"]]
    assert kinds.count("herb") == 1  # one copy's materials spent


def test_case_25_overflow_without_materials_is_lost():
    state = _crafter(1)
    state = run("craft", state, [6, 3], project_id="elixir").state
    out = run("craft", state, [7, 7], project_id="elixir")
    project = out.details["project"]
    assert (project["done"], project["points"]) == (1, 0)
    assert any(e["type"] == "crafting_overflow_lost" for e in out.details["events"])


def test_case_26_minimum_1_point_and_doom_0():
    state = run(
        "start_project",
        pc(reason=-1),
        [],
        project={"id": "p", "name": "Верёвка", "goal": 10, "expertise": "athletics", "uses": 0},
    ).state
    low = run("craft", state, [1, 3], project_id="p", sources=["disadvantage"])
    assert low.total == 1
    assert low.details["rolls"][0]["total"] == 1
    doom = run("craft", state, [2, 1], project_id="p", sources=["disadvantage"])
    assert doom.total == 0 and doom.flags["doom"] is True


# --- combat -----------------------------------------------------------------------------------

PIT = [{}, {"void": 20}, {}]


def test_case_28_push_over_a_pit():
    target = pc(agility=1, stamina=20, stamina_max=20)
    over = run("forced_move", target, [], distance=3, squares=3, path=PIT)
    assert over.flags["fell"] is False
    fall = run("forced_move", target, [4, 5, 6, 5, 3], distance=3, squares=2, path=PIT)
    assert fall.flags["fell"] is True
    assert fall.details["fall_damage"] == 9
    assert fall.total == 12 and fall.band == "2"
    assert fall.details["reduction_faces"] == [3]
    assert fall.details["damage"]["total"] == 6
    no_reaction = run(
        "forced_move",
        target,
        [4, 5],
        distance=3,
        squares=2,
        path=PIT,
        reaction_available=False,
    )
    assert no_reaction.details["damage"]["total"] == 9
    with pytest.raises(RulesError):
        run("forced_move", pc(size="large"), [], distance=3, squares=3, path=PIT)


def test_case_29_jumps():
    out = run("jump", pc(agility=3, speed=6), [6, 6], characteristic="agility", moved_before=2)
    assert (out.total, out.band) == (17, "3")
    assert out.flags["table_length"] == 5
    assert out.flags["length"] == 4
    short = run("jump", pc(speed=6), [9, 8], characteristic="strength")
    assert short.flags["length"] == 3
    none = run("jump", pc(speed=6), [5, 6], characteristic="strength")
    assert (none.total, none.flags["length"]) == (11, 0)


def test_case_31_provoked_attack_tier_1_opens_no_counterattack_and_a_shift_provokes_nothing():
    path = [{"leaves_reach_of": ["A"]}]
    moved = run("move", pc(name="E"), [], path=path)
    assert moved.details["provoked_attacks"] == [{"by": "A", "pause_before": 0}]
    enemy = armed(name="E")
    attack = run("provoked_attack", armed(name="A"), [4, 4], target=enemy, weapon_id="sword")
    assert (attack.total, attack.band) == (8, "1")
    assert attack.flags["cost"] == "reaction"
    assert not attack.pending
    assert "counter" not in attack.details["targets"][0]
    with pytest.raises(RulesError):
        run("counterattack", enemy, [], target=armed(name="A"), provoked=True)
    shifted = run("move", pc(name="E"), [], path=path, mode="shift")
    assert shifted.details["provoked_attacks"] == []


def test_case_32_tipping_a_large_statue():
    out = run("tip_object", pc(strength=2, stamina=10, stamina_max=10), [8, 7], object_size="large")
    assert "object_larger" in out.details["sources"]
    assert (out.total, out.band) == (15, "2")
    assert out.pending
    with ScriptedDice([4]) as dice:
        tipped = RS.apply_choice(out, ["tip"], dice=dice)
    assert tipped.flags["tipped"] is True
    assert tipped.state["stamina"] == 6  # 1d6 piercing
    medium = run("falling_object", pc(stamina=40, stamina_max=40), [1, 2, 3], object_size="large")
    assert medium.details["dice"] == 3 and medium.total == 6
    large = run(
        "falling_object", pc(size="large", stamina=40, stamina_max=40), [7], object_size="large"
    )
    assert large.details["dice"] == 1 and large.total == 7


def test_every_case_is_covered():
    names = [n for n in globals() if n.startswith("test_case_")]
    numbers = {int(n.split("_")[2]) for n in names}
    assert numbers == {
        1,
        2,
        4,
        5,
        7,
        8,
        10,
        11,
        13,
        14,
        16,
        17,
        19,
        20,
        22,
        23,
        25,
        26,
        28,
        29,
        31,
        32,
    }
    assert sword()  # fixtures import cleanly
