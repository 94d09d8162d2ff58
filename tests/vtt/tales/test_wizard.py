"""The Tales new-character wizard as pages: the server rolls, every step is checked, a refused
step saves nothing, a half-made character waits for its player, and the last step makes a
valid character sheet."""

from __future__ import annotations

import pytest
from django.urls import reverse

from systems import get_ruleset
from systems.core.dice import ScriptedDice
from vtt.characters.models import Character
from vtt.rulesets.tales import services
from vtt.rulesets.tales.models import CharacterWizard

ROLES = ["anonymous", "outsider", "observer", "player", "referee"]


@pytest.fixture
def tales(table):
    table.campaign.ruleset = "tales"
    table.campaign.save(update_fields=["ruleset"])
    return table


@pytest.fixture
def scripted(monkeypatch):
    """The pages roll with these faces (each roll step takes the next list)."""
    queue: list[list[int]] = []

    def dice():
        return ScriptedDice(queue.pop(0))

    monkeypatch.setattr(services, "RandomDice", dice)
    return queue


def url(t) -> str:
    return reverse("tales_wizard", args=[t.campaign.pk])


def post(client, t, action, **fields):
    return client.post(url(t), {"action": action, **fields}, HTTP_HX_REQUEST="true")


def stored(t, user):
    return CharacterWizard.objects.get(campaign=t.campaign, user=user).state


@pytest.mark.parametrize(
    ("role", "expected"),
    [("anonymous", 302), ("outsider", 404), ("observer", 403), ("player", 200), ("referee", 200)],
)
def test_wizard_page_for_every_role(role, expected, tales, client_for):
    response = client_for(tales.user(role)).get(url(tales))
    assert response.status_code == expected
    if expected == 200:
        html = response.content.decode()
        assert "Новый персонаж" in html and "Бросить 3d6" in html


def test_other_rulesets_have_no_wizard(table, client_for):
    assert client_for(table.player).get(url(table)).status_code == 404


def test_a_whole_character_through_the_pages(tales, client_for, scripted):
    client = client_for(tales.player)
    scripted += [[6, 5, 4], [3, 3, 3], [5, 5, 4], [1, 3]]
    assert post(client, tales, "roll_stat").status_code == 200  # 15
    page = post(client, tales, "assign_stat", stat="str")
    assert page.status_code == 200 and "15" in page.content.decode()
    post(client, tales, "roll_stat")  # 9
    post(client, tales, "assign_stat", stat="dex")
    page = post(client, tales, "roll_stat")  # 14 goes to Mind by itself
    assert stored(tales, tales.player)["step"] == "origin"
    page = post(client, tales, "roll_origin")  # 1 + 3 = 4: Wanderer, may take spells
    html = page.content.decode()
    assert "Странник" in html and stored(tales, tales.player)["step"] == "picks"
    page = post(
        client,
        tales,
        "choose_picks",
        pick0_kind="spell",
        pick0_spell="fire",
        pick1_kind="skill",
        pick1_skill="craft",
        pick1_detail="кузнец",
    )
    assert page.status_code == 200, page.content.decode()[:500]
    page = post(
        client,
        tales,
        "choose_equipment",
        armour="leather",
        shield="buckler",
        weapons=["dagger", "spear"],
    )
    assert page.status_code == 200
    page = post(client, tales, "finish", name="Ива", languages="эльфийский, гномий")
    assert page.status_code == 200
    character = Character.objects.get(campaign=tales.campaign, name="Ива")
    assert character.owner_id == tales.player.pk and character.kind == "pc"
    sheet = get_ruleset("tales").validate_state(character.state)  # a valid sheet
    assert sheet["stats"] == {"str": 15, "dex": 9, "mind": 14}
    assert sheet["hp"] == sheet["max_hp"] == 15  # HP = Str (L186)
    assert sheet["origin"] == 4 and sheet["spells"] == ["fire"]
    assert {s["key"] for s in sheet["skills"]} == {"survival", "herbalism", "craft"}
    assert sheet["languages"] == ["эльфийский", "гномий"]
    assert [w["key"] for w in sheet["weapons"]] == ["dagger", "spear"]
    wizard = CharacterWizard.objects.get(campaign=tales.campaign, user=tales.player)
    assert wizard.character_id == character.pk and wizard.state["step"] == "done"
    done = client.get(url(tales)).content.decode()
    assert "Готово" in done and "Ива" in done
    # another character starts afresh; the finished one stays
    client.post(reverse("tales_wizard_restart", args=[tales.campaign.pk]))
    assert stored(tales, tales.player)["step"] == "stats"
    assert Character.objects.filter(pk=character.pk).exists()


@pytest.mark.parametrize(
    ("action", "fields"),
    [
        ("roll_stat", {}),  # the last roll is not assigned yet: no second try
        ("assign_stat", {"stat": "luck"}),  # no such stat
        ("roll_origin", {}),  # not this step
        ("finish", {"name": "Рано"}),  # not this step
        ("choose_picks", {"pick0_skill": "lore", "pick1_skill": "lore"}),
        ("nonsense", {}),
    ],
)
def test_a_step_out_of_turn_is_refused_and_saves_nothing(tales, client_for, action, fields):
    client = client_for(tales.player)
    services.wizard_step(
        campaign=tales.campaign,
        actor=tales.player,
        role="player",
        action="roll_stat",
        dice=ScriptedDice([2, 2, 2]),
    )
    before = stored(tales, tales.player)
    response = post(client, tales, action, **fields)
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    assert stored(tales, tales.player) == before
    assert not Character.objects.exists()


def test_rules_refusals_explain_themselves_and_keep_the_step(tales, client_for):
    client = client_for(tales.player)
    for faces, stat in (([3, 3, 3], "str"), ([3, 3, 2], "dex"), ([2, 2, 2], None)):
        services.wizard_step(
            campaign=tales.campaign,
            actor=tales.player,
            role="player",
            action="roll_stat",
            dice=ScriptedDice(faces),
        )
        if stat:
            services.wizard_step(
                campaign=tales.campaign,
                actor=tales.player,
                role="player",
                action="assign_stat",
                params={"stat": stat},
            )
    services.wizard_step(  # 10 + 10 = 20: Politician, no spells
        campaign=tales.campaign,
        actor=tales.player,
        role="player",
        action="roll_origin",
        dice=ScriptedDice([10, 10]),
    )
    before = stored(tales, tales.player)
    spell = post(
        client, tales, "choose_picks", pick0_kind="spell", pick0_spell="image", pick1_skill="lore"
    )
    assert spell.status_code == 400
    assert "заклинания" in spell.content.decode()
    twice = post(client, tales, "choose_picks", pick0_skill="literacy", pick1_skill="literacy")
    assert twice.status_code == 400 and "Грамотность" in twice.content.decode()
    assert stored(tales, tales.player) == before
    ok = post(client, tales, "choose_picks", pick0_skill="lore", pick1_skill="lore")
    assert ok.status_code == 200
    # Str 9: a flail (min Str 15) is refused with the reason
    heavy = post(client, tales, "choose_equipment", armour="none", shield="none", weapons="flail")
    assert heavy.status_code == 400
    assert stored(tales, tales.player)["equipment"] is None
    nameless = post(client, tales, "choose_equipment", armour="none", shield="none")
    assert nameless.status_code == 200
    unnamed = post(client, tales, "finish", name="   ")
    assert unnamed.status_code == 400 and not Character.objects.exists()


def test_the_wizard_waits_for_its_player(tales, client_for):
    services.wizard_step(
        campaign=tales.campaign,
        actor=tales.player,
        role="player",
        action="roll_stat",
        dice=ScriptedDice([6, 6, 5]),
    )
    # a new visit, another day: the roll waits to be assigned
    html = client_for(tales.player).get(url(tales)).content.decode()
    assert 'data-total="17"' in html and 'name="stat"' in html
    # each player has a wizard of their own
    other = client_for(tales.other_player).get(url(tales)).content.decode()
    assert 'data-total="17"' not in other and "Бросить 3d6" in other
    # without htmx a step is post/redirect/get
    response = client_for(tales.player).post(url(tales), {"action": "assign_stat", "stat": "mind"})
    assert response.status_code == 302 and response["Location"] == url(tales)
    assert stored(tales, tales.player)["stat_rolls"][0]["stat"] == "mind"


def test_observers_cannot_make_characters(tales, client_for):
    response = client_for(tales.observer).post(url(tales), {"action": "roll_stat"})
    assert response.status_code == 403
    assert not CharacterWizard.objects.exists()
