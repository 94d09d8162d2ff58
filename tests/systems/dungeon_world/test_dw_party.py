"""Dungeon World party moves (seed 000): Take Watch acts on the whole camp (L176-L177),
Perilous Journey gives each role to a different hero (L191-L194)."""

from __future__ import annotations

import pytest

from systems.core.dice import ScriptedDice
from systems.core.ruleset import RulesError
from tests.systems.dungeon_world.dw_helpers import RS, pc_a, run


def _party_move(move: str, party: dict, faces: list[int], **params):
    with ScriptedDice(faces) as dice:
        return RS.party_move(move, party, dice=dice, **params)


def test_take_watch_10_plus_gives_everyone_in_camp_plus_one_forward():
    """L176-L177: "все, кто в лагере, получают +1 на следующий ход"."""
    camp = {"a": pc_a(name="A"), "b": pc_a(name="B"), "c": pc_a(name="C")}
    result = _party_move("take_watch", camp, [5, 5], watcher="a")  # 10 + WIS 1 = 11
    assert result.rollers == ["a"] and result.rolls[0][1].band == "10+"
    assert result.summary["forward_to"] == ["a", "b", "c"]
    for key in camp:
        assert [e["value"] for e in result.characters[key]["forward"]] == [1], key
    # the next move of a camp member who did not roll reads the +1 and spends it
    nxt = run("spout_lore", result.characters["b"], [3, 3])  # 6 + INT -1 + forward 1
    assert nxt.total == 6 and nxt.state["forward"] == []
    assert run("spout_lore", camp["b"], [3, 3]).total == 5
    assert camp["b"]["forward"] == []  # the input is not changed


def test_take_watch_7_9_and_miss_give_nobody_forward():
    camp = {"a": pc_a(name="A"), "b": pc_a(name="B")}
    weak = _party_move("take_watch", camp, [3, 4], watcher="a")  # 7 + 1 = 8
    assert weak.rolls[0][1].band == "7-9" and weak.summary["forward_to"] == []
    assert all(s["forward"] == [] for s in weak.characters.values())
    miss = _party_move("take_watch", camp, [1, 2], watcher="b")
    assert miss.rolls[0][1].flags["surprised"] is True
    assert all(s["forward"] == [] for s in miss.characters.values())


def test_the_watcher_must_be_in_the_camp():
    with pytest.raises(RulesError) as err:
        _party_move("take_watch", {"a": pc_a()}, [], watcher="z")
    assert "watcher" in err.value.errors


def test_perilous_journey_each_role_rolls_in_order():
    """L191-L194: a trailblazer, a scout and a quartermaster, each a different hero, each
    rolls+WIS; a 10+ of each role helps the party."""
    party = {"a": pc_a(name="A"), "b": pc_a(name="B"), "c": pc_a(name="C")}
    result = _party_move(
        "perilous_journey",
        party,
        [5, 5, 3, 3, 1, 1],  # trailblazer 11, scout 7, quartermaster 3
        roles={"quartermaster": "c", "scout": "b", "trailblazer": "a"},
    )
    assert [(k, o.flags["role"], o.band) for k, o in result.rolls] == [
        ("a", "trailblazer", "10+"),
        ("b", "scout", "7-9"),
        ("c", "quartermaster", "6-"),
    ]
    assert result.summary["journey_shortened"] is True
    assert result.summary["spots_danger_first"] is False
    assert result.summary["rations_saved"] == 0
    assert result.characters["c"]["xp"] == party["c"]["xp"] + 1  # a miss marks XP


def test_perilous_journey_one_hero_holds_at_most_one_role():
    party = {"a": pc_a(name="A"), "b": pc_a(name="B")}
    with pytest.raises(RulesError) as err:
        _party_move("perilous_journey", party, [], roles={"trailblazer": "a", "scout": "a"})
    assert "roles" in err.value.errors
    assert "different hero" in err.value.errors["roles"][0]["en"]


def test_perilous_journey_refuses_unknown_roles_and_strangers():
    party = {"a": pc_a(name="A")}
    with pytest.raises(RulesError):
        _party_move("perilous_journey", party, [], roles={"cook": "a"})
    with pytest.raises(RulesError):
        _party_move("perilous_journey", party, [], roles={"scout": "z"})
    with pytest.raises(RulesError):
        _party_move("perilous_journey", party, [], roles={})


def test_a_role_nobody_holds_rolls_nothing():
    """Digest ambiguity 20: fewer than three heroes; an empty role gives no bonus."""
    party = {"a": pc_a(name="A"), "b": pc_a(name="B")}
    result = _party_move(
        "perilous_journey", party, [6, 6, 6, 6], roles={"scout": "a", "quartermaster": "b"}
    )
    assert [o.flags["role"] for _k, o in result.rolls] == ["scout", "quartermaster"]
    assert result.summary["journey_shortened"] is False
    assert result.summary["rations_saved"] == 1


def test_party_moves_are_described_and_unknown_ones_refused():
    described = RS.describe()["party_moves"]
    assert set(described) == {"take_watch", "perilous_journey"}
    with pytest.raises(RulesError):
        _party_move("carouse", {"a": pc_a()}, [])
    with pytest.raises(RulesError):
        _party_move("take_watch", {"a": pc_a()}, [], watcher="a", bonus=2)


def test_party_actors_name_the_rollers_only():
    """The watcher and the role holders roll; the camp or the other travellers do not. Read
    leniently: what cannot name a sheet is left for the move to refuse."""
    assert RS.party_actors("take_watch", {"watcher": 12}) == ["12"]
    assert RS.party_actors("take_watch", {"watcher": "a"}) == ["a"]
    assert RS.party_actors("take_watch", {}) == []
    assert RS.party_actors("take_watch", {"watcher": [1, 2]}) == []
    roles = {"scout": 3, "trailblazer": "4", "quartermaster": None, "cook": 5}
    assert RS.party_actors("perilous_journey", {"roles": roles}) == ["3", "4", "5"]
    assert RS.party_actors("perilous_journey", {"roles": [3, 4]}) == []
    assert RS.party_actors("perilous_journey", {"roles": {"scout": True}}) == []
    assert RS.party_actors("carouse", {"watcher": 1}) == []
    assert RS.party_actors("take_watch", "watcher") == []
