"""Character pages: the campaign's list, the sheet and its print version for every role, the
create and import forms, the export download, and Russian by default."""

from __future__ import annotations

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.helpers import js_catalogue
from vtt.campaigns.models import Campaign
from vtt.characters import services
from vtt.characters.models import Character

ROLES = ["anonymous", "outsider", "observer", "player", "other_player", "referee"]
SECRET = "тайная-заметка-42"


@pytest.fixture
def sheets(table):
    pc = services.character_create(
        campaign=table.campaign,
        actor=table.player,
        role="player",
        name="Ава",
        state={
            "class_name": "Воин",
            "coins": 77,
            "notes": SECRET,
            "hp": 15,
            "bonds": [{"with": "Борин", "text": "спас мне жизнь"}],
        },
    )
    npc = services.character_create(
        campaign=table.campaign,
        actor=table.referee,
        role="referee",
        name="Орк",
        kind="npc",
        state={"hp": 7, "max_hp": 7, "armor": 1, "damage": "к6", "notes": "орк-заметка"},
    )
    lurker = services.character_create(
        campaign=table.campaign,
        actor=table.referee,
        role="referee",
        name="Тень",
        kind="npc",
        hidden=True,
    )
    return pc, npc, lurker


def sheet_config(response) -> dict:
    match = re.search(
        r'<script id="sheet-config" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    )
    assert match, "the sheet page carries its config as json_script"
    return json.loads(match.group(1))


def shows(html: str, text: str) -> bool:
    """The text as such or escaped inside the page's JSON config."""
    return text in html or json.dumps(text)[1:-1] in html


def _login_redirect(response) -> None:
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


# --- the list -----------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_list_page_for_every_role(table, client_for, sheets, role):
    pc, npc, lurker = sheets
    response = client_for(table.user(role)).get(reverse("character_list", args=[table.campaign.pk]))
    if role == "anonymous":
        _login_redirect(response)
        return
    if role == "outsider":
        assert response.status_code == 404
        return
    assert response.status_code == 200
    html = response.content.decode()
    assert response["Content-Language"] == "ru"
    assert "Персонажи" in html
    assert reverse("character_sheet", args=[pc.pk]) in html
    assert reverse("character_sheet", args=[npc.pk]) in html
    # public parts only: the class and HP are public, coins and notes are not
    assert "Воин" in html and "Монеты" not in html and not shows(html, SECRET)
    if role == "referee":
        assert reverse("character_sheet", args=[lurker.pk]) in html and "Тень" in html
        assert 'id="new-npc"' in html and "Новый персонаж ведущего" in html
    else:
        assert "Тень" not in html and reverse("character_sheet", args=[lurker.pk]) not in html
        assert 'id="new-npc"' not in html
    if role == "observer":
        assert 'id="new-pc"' not in html and 'id="import-form"' not in html
    else:
        assert 'id="new-pc"' in html and 'id="import-form"' in html
    if role == "player":
        mine = html.split('id="mine"', 1)[1].split("</section>", 1)[0]
        assert "Ава" in mine


def test_list_page_links_from_the_campaign_and_the_table(table, client_for):
    client = client_for(table.player)
    url = reverse("character_list", args=[table.campaign.pk])
    assert url in client.get(reverse("campaign_detail", args=[table.campaign.pk])).content.decode()
    assert url in client.get(reverse("table", args=[table.campaign.pk])).content.decode()


def test_a_player_creates_a_character_through_the_form(table, client_for):
    url = reverse("character_list", args=[table.campaign.pk])
    response = client_for(table.player).post(url, {"kind": "pc", "pc-name": "  Бран  "})
    character = Character.objects.get(name="Бран")
    assert response.status_code == 302
    assert response["Location"] == reverse("character_sheet", args=[character.pk])
    assert character.owner == table.player and character.kind == "pc" and not character.hidden


def test_a_player_cannot_create_an_npc(table, client_for):
    url = reverse("character_list", args=[table.campaign.pk])
    response = client_for(table.player).post(
        url, {"kind": "npc", "npc-name": "Дракон", "npc-hidden": "on"}
    )
    # a player's form is always the character form: the NPC fields mean nothing here
    assert response.status_code == 400
    assert not Character.objects.exists()


def test_the_referee_creates_hidden_and_visible_npcs_and_characters_for_players(table, client_for):
    client = client_for(table.referee)
    url = reverse("character_list", args=[table.campaign.pk])
    assert client.post(url, {"kind": "npc", "npc-name": "Гоблин"}).status_code == 302
    assert (
        client.post(url, {"kind": "npc", "npc-name": "Лич", "npc-hidden": "on"}).status_code == 302
    )
    response = client.post(url, {"kind": "pc", "pc-name": "Наёмник", "pc-owner": table.player.pk})
    assert response.status_code == 302
    goblin, lich = Character.objects.get(name="Гоблин"), Character.objects.get(name="Лич")
    assert goblin.kind == lich.kind == "npc" and not goblin.hidden and lich.hidden
    assert goblin.state["hp"] == 6  # the ruleset's NPC defaults
    hired = Character.objects.get(name="Наёмник")
    assert hired.kind == "pc" and hired.owner == table.player


def test_create_errors_are_shown_on_the_list(table, client_for):
    url = reverse("character_list", args=[table.campaign.pk])
    response = client_for(table.player).post(url, {"kind": "pc", "pc-name": ""})
    assert response.status_code == 400
    assert "Обязательное поле" in response.content.decode()
    assert client_for(table.observer).post(url, {"pc-name": "X"}).status_code == 403
    assert client_for(table.outsider).post(url, {"pc-name": "X"}).status_code == 404
    assert not Character.objects.exists()


def test_import_a_file_made_by_export(table, client_for, sheets):
    pc = sheets[0]
    exported = client_for(table.player).get(reverse("character_export", args=[pc.pk]))
    assert exported.status_code == 200
    assert exported["Content-Disposition"].startswith("attachment;")
    data = json.loads(exported.content)
    assert data["format"] == "vtt-character" and data["state"]["notes"] == SECRET
    upload = SimpleUploadedFile("ava.json", exported.content, content_type="application/json")
    response = client_for(table.other_player).post(
        reverse("character_import", args=[table.campaign.pk]), {"file": upload}
    )
    assert response.status_code == 302
    copy = Character.objects.exclude(pk=pc.pk).get(name="Ава")
    assert copy.owner == table.other_player and copy.state["coins"] == 77
    assert response["Location"] == reverse("character_sheet", args=[copy.pk])


def test_import_refuses_bad_files_with_a_message(table, client_for):
    url = reverse("character_import", args=[table.campaign.pk])
    client = client_for(table.player)
    bad = client.post(url, {"file": SimpleUploadedFile("x.json", b"not json")})
    assert bad.status_code == 400 and "JSON" in bad.content.decode()
    other = Campaign.objects.create(name="Другая", ruleset="crows", created_by=table.referee)
    wrong = json.dumps({"format": "vtt-character", "format_version": 1, "ruleset": other.ruleset})
    response = client.post(url, {"file": SimpleUploadedFile("y.json", wrong.encode())})
    assert response.status_code == 400 and "crows" in response.content.decode()
    assert client.post(url, {}).status_code == 400
    assert not Character.objects.exists()


# --- the sheet ----------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_sheet_page_for_every_role(table, client_for, sheets, role):
    pc = sheets[0]
    client = client_for(table.user(role))
    response = client.get(reverse("character_sheet", args=[pc.pk]))
    if role == "anonymous":
        _login_redirect(response)
        return
    if role == "outsider":
        assert response.status_code == 404
        return
    assert response.status_code == 200
    html = response.content.decode()
    config = sheet_config(response)
    owner_or_referee = role in ("player", "referee")
    assert config["canEdit"] is owner_or_referee
    assert config["full"] is owner_or_referee
    assert ('id="save-btn"' in html) is owner_or_referee
    assert ('data-move="hack_and_slash"' in html) is owner_or_referee
    assert ("Руби и кромсай" in html) is owner_or_referee
    assert ('id="history"' in html) is owner_or_referee
    assert (reverse("character_export", args=[pc.pk]) in html) is owner_or_referee
    if owner_or_referee:
        assert config["character"]["state"]["coins"] == 77 and shows(html, SECRET)
        # the schema drives the form: Russian labels from describe()
        assert config["schema"]["fields"]["stats"]["ru"] == "Характеристики (значения)"
        assert {m["key"] for m in config["moves"]} >= {"hack_and_slash", "volley"}
        assert all(m["key"] != "npc_take_damage" for m in config["moves"] + config["actions"])
    else:
        # the public part only, and nothing to edit or roll with
        assert set(config["character"]["state"]) <= {
            "name",
            "class_name",
            "race",
            "level",
            "hp",
            "max_hp",
            "armor",
            "status",
        }
        assert config["character"]["state"]["hp"] == 15
        assert not shows(html, SECRET) and "coins" not in config["character"]["state"]
        assert config["moves"] == [] and config["actions"] == []
        assert "только публичная часть" in html
    assert '<html lang="ru">' in html and response["Content-Language"] == "ru"
    assert config["lang"] == "ru" and js_catalogue(client, response)["Saving…"] == "Сохранение…"
    assert config["schema"]["ru"] == "Лист персонажа"


def test_npc_sheets_hidden_and_visible(table, client_for, sheets):
    _pc, npc, lurker = sheets
    for user in (table.player, table.other_player, table.observer):
        assert client_for(user).get(reverse("character_sheet", args=[lurker.pk])).status_code == 404
        assert client_for(user).get(reverse("character_print", args=[lurker.pk])).status_code == 404
        response = client_for(user).get(reverse("character_sheet", args=[npc.pk]))
        assert response.status_code == 200
        config = sheet_config(response)
        assert config["character"]["state"] == {"name": "Орк"} and not config["canEdit"]
        assert not shows(response.content.decode(), "орк-заметка")
    response = client_for(table.referee).get(reverse("character_sheet", args=[lurker.pk]))
    assert response.status_code == 200
    config = sheet_config(response)
    assert config["canEdit"] and config["character"]["hidden"]
    # an NPC block: its own schema and its own moves
    assert set(config["schema"]["fields"]) >= {"hp", "damage", "tags"}
    assert [m["key"] for m in config["actions"]] == ["npc_take_damage"]
    assert 'id="npc-hidden"' in response.content.decode()


def test_sheet_of_a_missing_character_is_404(table, client_for):
    assert (
        client_for(table.referee).get(reverse("character_sheet", args=[999999])).status_code == 404
    )


def test_sheet_page_is_english_for_a_user_who_chose_it(table, client_for, sheets):
    table.player.language = "en"
    table.player.save(update_fields=["language"])
    client = client_for(table.player)
    response = client.get(reverse("character_sheet", args=[sheets[0].pk]))
    html = response.content.decode()
    assert response["Content-Language"] == "en"
    assert "Save" in html and "Hack and Slash" in html and "Сохранить" not in html
    assert sheet_config(response)["lang"] == "en"


def test_archived_campaign_sheets_are_read_only(table, client_for, sheets):
    from vtt.campaigns import services as campaign_services

    campaign_services.campaign_archive(campaign=table.campaign)
    response = client_for(table.player).get(reverse("character_sheet", args=[sheets[0].pk]))
    assert response.status_code == 200
    config = sheet_config(response)
    assert config["full"] and not config["canEdit"] and config["moves"] == []
    assert 'id="save-btn"' not in response.content.decode()


# --- print and export ---------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_print_page_for_every_role(table, client_for, sheets, role):
    pc = sheets[0]
    response = client_for(table.user(role)).get(reverse("character_print", args=[pc.pk]))
    if role == "anonymous":
        _login_redirect(response)
        return
    if role == "outsider":
        assert response.status_code == 404
        return
    assert response.status_code == 200
    html = response.content.decode()
    # a clean page: no app chrome; one script, site.js, for the Print button (no inline code)
    assert html.count("<script") == 1 and "js/site.js" in html and "onclick" not in html
    assert "Ава" in html and "Воин" in html and "ОЗ" in html
    if role in ("player", "referee"):
        assert SECRET in html and "Характеристики (значения)" in html and "СИЛ" in html
        assert "Монеты" in html and "77" in html
        # a list of objects prints as a table across both columns; simple groups stay narrow
        assert '<section class="print-group wide" data-group="bonds">' in html
        assert "<td>Борин</td><td>спас мне жизнь</td>" in html
        assert '<section class="print-group" data-group="stats">' in html
    else:
        assert SECRET not in html and "Монеты" not in html and "СИЛ" not in html


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("anonymous", 302),
        ("outsider", 404),
        ("observer", 404),
        ("other_player", 404),
        ("player", 200),
        ("referee", 200),
    ],
)
def test_export_download_by_role(table, client_for, sheets, role, expected):
    response = client_for(table.user(role)).get(reverse("character_export", args=[sheets[0].pk]))
    assert response.status_code == expected


# --- the table page loads the move renderer -----------------------------------------------------


def test_table_page_loads_the_move_renderer_as_a_module(table, client_for):
    client = client_for(table.player)
    response = client.get(reverse("table", args=[table.campaign.pk]))
    html = response.content.decode()
    assert '<script type="module" src="/static/js/moves.js">' in html
    match = re.search(
        r'<script id="moves-config" type="application/json">(.*?)</script>', html, re.S
    )
    assert match
    config = json.loads(match.group(1))
    assert config["list_url"] == reverse("api-characters", args=[table.campaign.pk])
    assert js_catalogue(client, response)["Waiting for the player's choice"] == (
        "Ждёт выбора игрока"
    )


def test_pages_load_their_scripts_as_modules(table, client_for, sheets):
    """The modules import api.js, socket.js and moves.js themselves: no order to keep."""
    client = client_for(table.player)
    for url in (
        reverse("table", args=[table.campaign.pk]),
        reverse("character_sheet", args=[sheets[0].pk]),
    ):
        html = client.get(url).content.decode()
        tags = re.findall(r"<script[^>]*/static/js/[^>]*>", html)
        assert tags and all('type="module"' in tag for tag in tags), tags
    html = client.get(reverse("character_sheet", args=[sheets[0].pk])).content.decode()
    assert '<script type="module" src="/static/js/sheet.js">' in html
