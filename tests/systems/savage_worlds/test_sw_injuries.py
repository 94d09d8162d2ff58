"""Таблица травм [published edition: Savage Worlds Deluxe p. 78] and GM characters as extras.

Every row of the table with exact faces: 2d6 for the location, then a d6 for the guts and the
head. The effect lands on the sheet (a die type lower, or a hindrance) and healing a temporary
injury undoes it.
"""

from __future__ import annotations

import pytest
from sw_helpers import RS, choose, extra, gm_wild_card, run, sheet

from systems.core.ruleset import RulesError
from systems.savage_worlds import injuries as inj


def hero(**changes):
    """A wild card with distinct attribute dice, so a lowered one is easy to see."""
    attributes = {"agility": "d8", "smarts": "d10", "spirit": "d6", "strength": "d12+1"}
    attributes.update(changes.pop("attributes", {}))
    return sheet(attributes={"vigor": "d6", **attributes}, **changes)


ROWS = [
    # faces, result key, location
    ([1, 1], "unmentionables", "unmentionables"),
    ([1, 2], "arm", "arm"),
    ([2, 2], "arm", "arm"),
    ([2, 3, 1], "guts_broken", "guts"),
    ([4, 5, 2], "guts_broken", "guts"),
    ([3, 3, 3], "guts_battered", "guts"),
    ([1, 6, 4], "guts_battered", "guts"),
    ([5, 2, 5], "guts_busted", "guts"),
    ([3, 4, 6], "guts_busted", "guts"),
    ([4, 6], "leg", "leg"),
    ([5, 5], "leg", "leg"),
    ([5, 6, 1], "head_scar", "head"),
    ([6, 5, 2], "head_scar", "head"),
    ([6, 6, 3], "head_blinded", "head"),
    ([5, 6, 4], "head_blinded", "head"),
    ([6, 6, 5], "head_brain", "head"),
    ([5, 6, 6], "head_brain", "head"),
]


@pytest.mark.parametrize(("faces", "key", "location"), ROWS)
def test_every_row_of_the_table_with_exact_faces(faces, key, location):
    out = run("injury_roll", hero(bennies=3), faces, duration="permanent")
    injury = out.details["injury"]
    assert out.band == key and injury["key"] == key and injury["location"] == location
    assert injury["faces"] == faces[:2] and injury["total"] == faces[0] + faces[1]
    assert injury["sub_face"] == (faces[2] if len(faces) == 3 else None)
    assert out.faces == faces
    assert out.state["injuries"][-1]["key"] == key
    assert out.state["injuries"][-1]["roll"] == faces
    # a table result is never re-rolled with a benny (L87): nothing waits, nothing is spent
    assert not out.pending and out.state["bennies"] == 3


@pytest.mark.parametrize(
    ("faces", "attribute", "before", "after"),
    [
        ([4, 3, 2], "agility", "d8", "d6"),  # guts: broken
        ([4, 3, 4], "vigor", "d6", "d4"),  # guts: battered
        ([4, 3, 6], "strength", "d12+1", "d12"),  # guts: busted
        ([6, 6, 6], "smarts", "d10", "d8"),  # head: brain damage
    ],
)
def test_an_attribute_drops_a_die_type_and_healing_gives_it_back(faces, attribute, before, after):
    state = hero()
    out = run("injury_roll", state, faces, duration="until_healed")
    assert out.state["attributes"][attribute] == after
    assert out.state["injuries"][0]["reduced"] is True
    healed = run("heal_injury", out.state, [])
    assert healed.state["attributes"][attribute] == before
    assert healed.state["injuries"] == []


def test_a_lowered_vigor_lowers_toughness():
    state = hero(attributes={"vigor": "d8"})
    assert RS.derived(state)["toughness"] == 6
    out = run("injury_roll", state, [3, 3, 3])  # guts: battered
    assert RS.derived(out.state)["toughness"] == 5


def test_never_below_d4_and_healing_then_does_not_raise_it():
    state = hero(attributes={"agility": "d4"})
    out = run("injury_roll", state, [2, 3, 1], duration="24_hours")  # broken
    assert out.state["attributes"]["agility"] == "d4"
    assert out.state["injuries"][0]["reduced"] is False
    assert out.details["injury"]["change"]["en"] == "already d4"
    healed = run("heal_injury", out.state, [])
    assert healed.state["attributes"]["agility"] == "d4"


def test_hindrances_from_the_table_and_their_modifiers():
    state = hero()
    leg = run("injury_roll", state, [4, 6])
    lame = leg.state["hindrances"][-1]
    assert (lame["name"], lame["pace"], lame["injury"], lame["major"]) == ("Хромой", -2, True, True)
    assert RS.derived(leg.state)["pace"] == 4
    # already lame: the leg gives One Leg instead, Pace 2
    again = run("injury_roll", leg.state, [5, 5])
    assert [h["name"] for h in again.state["hindrances"]] == ["Хромой", "Одноногий"]
    assert RS.derived(again.state)["pace"] == 2
    scar = run("injury_roll", state, [6, 5, 1])
    assert scar.state["hindrances"][-1]["name"] == "Уродливый"
    assert RS.derived(scar.state)["charisma"] == -2
    eye = run("injury_roll", state, [6, 6, 3])
    assert eye.state["hindrances"][-1]["name"] == "Одноглазый"
    blind = run("injury_roll", eye.state, [6, 6, 4])
    assert blind.state["hindrances"][-1]["name"] == "Слепой"
    arm = run("injury_roll", state, [1, 2])
    assert arm.state["hindrances"][-1]["name"] == "Однорукий"


def test_healing_removes_the_hindrance_the_injury_gave_and_no_other():
    state = hero(hindrances=[{"name": "Хромой", "major": True}])  # lame from birth
    out = run("injury_roll", state, [5, 5], duration="until_combat_ends")
    assert [h["name"] for h in out.state["hindrances"]] == ["Хромой", "Одноногий"]
    healed = run("heal_injury", out.state, [])
    assert [h["name"] for h in healed.state["hindrances"]] == ["Хромой"]
    assert healed.state["hindrances"][0]["injury"] is False


def test_permanent_injuries_stay_unless_magic_or_surgery():
    state = hero()
    out = run("injury_roll", state, [2, 3, 1], duration="permanent")
    out = run("injury_roll", out.state, [6, 5, 1], duration="until_healed")
    healed = run("heal_injury", out.state, [])  # every temporary one: the scar
    assert [r["key"] for r in healed.state["injuries"]] == ["guts_broken"]
    assert healed.state["attributes"]["agility"] == "d6"
    with pytest.raises(RulesError):
        run("heal_injury", healed.state, [])  # no temporary injury left
    with pytest.raises(RulesError):
        run("heal_injury", healed.state, [], number=1)  # permanent
    with pytest.raises(RulesError):
        run("heal_injury", healed.state, [], number=2)  # no such injury
    cured = run("heal_injury", healed.state, [], number=1, permanent=True)
    assert cured.state["injuries"] == [] and cured.state["attributes"]["agility"] == "d8"


def test_a_called_shot_names_the_location_and_skips_the_2d6():
    out = run("injury_roll", hero(), [4], location="head")  # only the head's d6
    assert out.details["injury"]["key"] == "head_blinded"
    assert out.details["injury"]["called"] is True and out.details["injury"]["faces"] == []
    out = run("injury_roll", hero(), [], location="leg")
    assert out.details["injury"]["key"] == "leg"


def test_extras_do_not_roll_on_the_table():
    with pytest.raises(RulesError):
        run("injury_roll", extra(), [])


def test_incapacitation_rolls_the_table_on_the_server_and_applies_it():
    target = hero(wounds=3, status="incapacitated")
    # Vigor d6 [2], wild [1]: 2 - 3 = -1 → dies (Deluxe, 1 or less): no injury
    assert "injury" not in run("incapacitation_roll", target, [2, 1]).details
    # Vigor [6, 3] = 9 - 3 = 6: success → injury until the wounds heal; 2d6 [4, 3] → guts, d6 5
    out = run("incapacitation_roll", target, [6, 3, 1, 4, 3, 5])
    assert out.state["status"] == "incapacitated"
    assert out.state["attributes"]["strength"] == "d12"
    assert out.state["injuries"] == [
        {
            "key": "guts_busted",
            "duration": "until_healed",
            "attribute": "strength",
            "reduced": True,
            "hindrance": "",
            "roll": [4, 3, 5],
            "note": "d12+1 → d12",
        }
    ]
    assert "Корпус: разрывы" in out.text.ru and "Guts: busted" in out.text.en
    # a called shot at the arm: no 2d6 at all
    out = run("incapacitation_roll", target, [6, 3, 1], location="arm")
    assert out.flags["injury_result"] == "arm"


def test_the_table_waits_until_the_vigor_roll_is_kept():
    target = hero(wounds=3, status="incapacitated", bennies=1)
    out = run("incapacitation_roll", target, [3, 2])  # 3 - 3 = 0: failure, a benny at hand
    assert out.pending and "injury" not in out.details
    out = choose(out, "reroll", [6, 4, 2, 1, 1])  # 10 - 3 = 7: success; then the table: 2
    assert not out.pending and out.flags["injury_result"] == "unmentionables"
    assert out.flags["injury"] == "until_healed" and out.state["bennies"] == 0


def test_the_injury_record_validates_as_part_of_the_sheet():
    out = run("injury_roll", hero(), [1, 1])
    assert RS.validate_state(out.state) == out.state
    bad = dict(out.state, injuries=[{"key": "elbow"}])
    with pytest.raises(RulesError):
        RS.validate_state(bad)


def test_describe_lists_the_table_and_its_moves():
    d = RS.describe()
    assert [r["key"] for r in d["injury_table"]["results"]] == list(inj.INJURIES)
    keys = {m["key"] for m in d["moves"]} | {m["key"] for m in d["actions"]}
    assert {"injury_roll", "heal_injury"} <= keys
    assert d["sheet"]["fields"]["bennies"]["show_if"] == {"wild_card": True}
    assert any(r["key"] == "injury_table" for r in d["edition"]["published_rules"])


# --- GM characters: extras unless marked wild cards ----------------------------------------------


def test_a_gm_character_defaults_to_an_extra():
    npc = RS.default_npc()
    assert npc["role"] == "npc" and npc["wild_card"] is False and npc["bennies"] == 0


def test_an_npc_sheet_is_the_gms_whatever_its_role_field_says():
    copied = sheet()  # a player's template: role pc, wild card
    assert RS.validate_npc(copied)["role"] == "npc"
    assert RS.validate_npc({**copied, "wild_card": False})["wild_card"] is False
    assert RS.validate_pc(extra(name="x") | {"wild_card": True})["role"] == "pc"
    with pytest.raises(RulesError):
        RS.validate_pc(extra())  # a player's character is always a wild card (L7)


def test_an_extra_keeps_no_bennies_and_gets_none():
    assert extra(bennies=2)["bennies"] == 0
    with pytest.raises(RulesError):
        run("award_benny", extra(), [])
    assert run("award_benny", gm_wild_card(), []).state["bennies"] == 1


def test_an_extra_rolls_no_wild_die_and_is_out_at_its_first_wound():
    out = run("trait_check", extra(), [3], trait="strength")  # one die, no wild die
    assert out.total == 3 and out.band == "failure" and not out.pending
    hit = run("take_damage", extra(), [], damage=9)  # T 5: a raise → a wound
    assert hit.state["status"] == "incapacitated" and hit.state["wounds"] == 0
    assert hit.flags["incapacitation_roll_due"] is False
