"""The prep pages: referee only (403 for players and observers, 404 for outsiders), htmx forms,
the roll button, the table form's refusals, import, the library, and the campaign page link."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse

from tests.vtt.prep.conftest import simple_table
from vtt.characters.models import Character
from vtt.prep import services
from vtt.prep.models import Dungeon, RandomTable, Room, RoomMonster, TableResult
from vtt.table.models import InitiativeEntry, TableEvent

ROLES = ["anonymous", "outsider", "observer", "player", "referee"]
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def prepared(table):
    """A dungeon with a room holding a hidden NPC, and a table."""
    dungeon = services.dungeon_create(campaign=table.campaign, name="Склеп")
    room = services.room_create(dungeon=dungeon, key="12", name="Склеп", text="Тайна")
    (npc,) = services.npc_place(
        campaign=table.campaign, actor=table.referee, block_key="goblin", room=room
    )
    loot = services.table_create(campaign=table.campaign, data=simple_table())
    monster = RoomMonster.objects.get(room=room)
    return {"dungeon": dungeon, "room": room, "npc": npc, "table": loot, "monster": monster}


def page_urls(t, p) -> list[str]:
    pk = t.campaign.pk
    return [
        reverse("prep", args=[pk]),
        reverse("prep_dungeon", args=[pk, p["dungeon"].pk]),
        reverse("prep_room", args=[pk, p["room"].pk]),
        reverse("prep_table", args=[pk, p["table"].pk]),
        reverse("prep_table_new", args=[pk]),
        reverse("prep_table_edit", args=[pk, p["table"].pk]),
        reverse("prep_tables_import", args=[pk]),
        reverse("prep_library", args=[pk]),
        reverse("prep_table_export", args=[pk, p["table"].pk]) + "?format=csv",
        reverse("prep_tables_export", args=[pk]) + "?format=json",
    ]


def post_urls(t, p) -> list[tuple[str, dict]]:
    pk = t.campaign.pk
    return [
        (reverse("prep_dungeon_create", args=[pk]), {"name": "X"}),
        (reverse("prep_dungeon_edit", args=[pk, p["dungeon"].pk]), {"name": "Y"}),
        (reverse("prep_room_create", args=[pk, p["dungeon"].pk]), {"key": "13"}),
        (reverse("prep_room_edit", args=[pk, p["room"].pk]), {"key": "12", "text": "x"}),
        (reverse("prep_room_monster_add", args=[pk, p["room"].pk]), {"block": "orc"}),
        (
            reverse("prep_room_monster_initiative", args=[pk, p["room"].pk, p["monster"].pk]),
            {},
        ),
        (reverse("prep_table_roll", args=[pk, p["table"].pk]), {"visibility": "blind"}),
        (reverse("prep_library_copy", args=[pk]), {"key": "nonexistent"}),
        (reverse("prep_library_place", args=[pk, "orc"]), {}),
        (reverse("prep_table_delete", args=[pk, p["table"].pk]), {}),
    ]


@pytest.mark.parametrize("role", ROLES)
def test_every_page_is_the_referees(table, prepared, client_for, role):
    client = client_for(table.user(role))
    for url in page_urls(table, prepared):
        response = client.get(url)
        expected = {"anonymous": 302, "outsider": 404, "observer": 403, "player": 403}
        assert response.status_code == expected.get(role, 200), url
        if role == "anonymous":
            assert response["Location"].startswith(reverse("login"))
        if role in ("observer", "player"):
            body = response.content.decode()
            assert "Тайна" not in body and "Склеп" not in body


@pytest.mark.parametrize("role", ["anonymous", "outsider", "observer", "player"])
def test_no_write_for_anyone_but_the_referee(table, prepared, client_for, role):
    client = client_for(table.user(role))
    before = (
        Dungeon.objects.count(),
        Room.objects.count(),
        Character.objects.count(),
        RandomTable.objects.count(),
        TableResult.objects.count(),
        InitiativeEntry.objects.count(),
    )
    for url, data in post_urls(table, prepared):
        response = client.post(url, data)
        expected = {"anonymous": 302, "outsider": 404}.get(role, 403)
        assert response.status_code == expected, url
    after = (
        Dungeon.objects.count(),
        Room.objects.count(),
        Character.objects.count(),
        RandomTable.objects.count(),
        TableResult.objects.count(),
        InitiativeEntry.objects.count(),
    )
    assert after == before


def test_referee_pages_render(table, prepared, client_for):
    client = client_for(table.referee)
    index = client.get(reverse("prep", args=[table.campaign.pk])).content.decode()
    assert "Подготовка" in index and "Склеп" in index and "Loot" in index
    room = client.get(reverse("prep_room", args=[table.campaign.pk, prepared["room"].pk]))
    html = room.content.decode()
    assert ("Тайна" in html and "Goblin" not in html) or "Гоблин" in html
    assert "скрыт" in html  # the hidden badge


def test_campaign_page_links_to_prep_for_the_referee_only(table, client_for):
    url = reverse("campaign_detail", args=[table.campaign.pk])
    prep = reverse("prep", args=[table.campaign.pk])
    assert prep in client_for(table.referee).get(url).content.decode()
    assert prep not in client_for(table.player).get(url).content.decode()


def test_roll_button_shows_the_result_and_publishes_blind(table, prepared, client_for):
    client = client_for(table.referee)
    url = reverse("prep_table_roll", args=[table.campaign.pk, prepared["table"].pk])
    response = client.post(url, {"visibility": "blind", "idempotency_key": "a1"}, **HTMX)
    assert response.status_code == 201
    html = response.content.decode()
    assert 'class="result"' in html and "видите только вы" not in html
    assert "только вы" in html
    result = TableResult.objects.get()
    assert result.visibility == "blind"
    assert TableEvent.objects.get(seq=result.event_seq).visibility == "blind"
    again = client.post(url, {"visibility": "blind", "idempotency_key": "a1"}, **HTMX)
    assert again.status_code == 200 and TableResult.objects.count() == 1


def test_roll_for_everyone_and_bad_modifier(table, prepared, client_for):
    client = client_for(table.referee)
    url = reverse("prep_table_roll", args=[table.campaign.pk, prepared["table"].pk])
    response = client.post(url, {"visibility": "everyone"}, **HTMX)
    assert response.status_code == 201
    assert TableResult.objects.get().visibility == "everyone"
    response = client.post(url, {"visibility": "everyone", "modifier": "3"}, **HTMX)
    assert response.status_code == 400
    assert "не берёт модификатор" in response.content.decode()


def test_table_form_creates_and_refuses_a_gap_in_place(table, client_for):
    client = client_for(table.referee)
    url = reverse("prep_table_new", args=[table.campaign.pk])
    data = {
        "name": "Погода",
        "key": "weather",
        "formula": "1d6",
        "e_min": ["1", "4", ""],
        "e_max": ["3", "5", ""],
        "e_weight": ["", "", ""],
        "e_text": ["Ясно", "Дождь", ""],
        "e_roll": ["", "", ""],
        "e_amount": ["", "", ""],
        "e_unit": ["", "", ""],
        "e_key": ["", "", ""],
    }
    refused = client.post(url, data, **HTMX)
    assert refused.status_code == 400
    html = refused.content.decode()
    assert 'id="table-form"' in html and "Нет строки для 6" in html
    assert 'value="Погода"' in html and "Дождь" in html  # what was typed stays
    assert RandomTable.objects.count() == 0
    data["e_max"] = ["3", "6", ""]
    saved = client.post(url, data, **HTMX)
    assert saved.status_code == 204
    created = RandomTable.objects.get()
    assert saved["HX-Redirect"] == reverse("prep_table", args=[table.campaign.pk, created.pk])
    assert [e["text"] for e in created.entries] == ["Ясно", "Дождь"]


def test_table_form_with_weights(table, client_for):
    client = client_for(table.referee)
    url = reverse("prep_table_new", args=[table.campaign.pk])
    response = client.post(
        url,
        {
            "name": "Встречи",
            "key": "enc",
            "weights": "on",
            "e_min": ["", ""],
            "e_max": ["", ""],
            "e_weight": ["3", "1"],
            "e_text": ["Волки", "Медведь"],
            "e_roll": ["", ""],
            "e_amount": ["1d6", ""],
            "e_unit": ["", ""],
            "e_key": ["", ""],
        },
    )
    assert response.status_code == 302
    created = RandomTable.objects.get()
    assert created.formula == "1d4" and created.weights
    assert [(e["min"], e["max"]) for e in created.entries] == [(1, 3), (4, 4)]


def test_import_page_reports_a_bad_file_and_saves_nothing(table, client_for):
    client = client_for(table.referee)
    url = reverse("prep_tables_import", args=[table.campaign.pk])
    bad = io.BytesIO(b"min,max,text\n1,2,a\n4,6,b\n")
    bad.name = "weather.csv"
    response = client.post(url, {"file": bad, "formula": "1d6"})
    assert response.status_code == 400
    assert "Ничего не импортировано" in response.content.decode()
    assert RandomTable.objects.count() == 0
    good = io.BytesIO("min;max;text\n1;3;Ясно\n4;6;Дождь\n".encode("cp1251"))
    good.name = "Погода.csv"
    response = client.post(url, {"file": good})
    assert response.status_code == 302
    created = RandomTable.objects.get()
    assert (created.key, created.name, created.formula) == ("погода", "Погода", "1d6")


def test_library_copy_and_place_from_the_page(table, client_for, as_ruleset):
    as_ruleset("tales")
    client = client_for(table.referee)
    page = client.get(reverse("prep_library", args=[table.campaign.pk])).content.decode()
    assert "Подземелье: содержимое комнаты" in page and "Волк" in page
    copy = client.post(
        reverse("prep_library_copy", args=[table.campaign.pk]), {"key": "room_contents"}, **HTMX
    )
    assert copy.status_code == 201
    assert set(RandomTable.objects.values_list("key", flat=True)) == {"room_contents", "trap"}
    assert RandomTable.objects.get(key="trap").name == "Ловушки"
    place = client.post(
        reverse("prep_library_place", args=[table.campaign.pk, "wolf"]),
        {"count": "2", "hidden": "on", "initiative": "on", "initiative_value": "13"},
        **HTMX,
    )
    assert place.status_code == 201
    assert list(Character.objects.values_list("name", "hidden")) == [
        ("Волк 1", True),
        ("Волк 2", True),
    ]
    assert InitiativeEntry.objects.filter(hidden=True, value=13).count() == 2


def test_room_monster_forms_swap_the_monster_list(table, prepared, client_for):
    client = client_for(table.referee)
    pk, room = table.campaign.pk, prepared["room"]
    response = client.post(
        reverse("prep_room_monster_initiative", args=[pk, room.pk, prepared["monster"].pk]),
        {"value": "7"},
        **HTMX,
    )
    assert response.status_code == 200
    assert 'id="room-monsters"' in response.content.decode()
    entry = InitiativeEntry.objects.get()
    assert entry.hidden and entry.value == 7
    response = client.post(
        reverse("prep_room_monster_remove", args=[pk, room.pk, prepared["monster"].pk]), **HTMX
    )
    assert response.status_code == 200
    assert RoomMonster.objects.count() == 0


def test_archived_campaign_is_read_only(table, prepared, client_for):
    from django.utils import timezone

    table.campaign.archived_at = timezone.now()
    table.campaign.save()
    client = client_for(table.referee)
    assert client.get(reverse("prep", args=[table.campaign.pk])).status_code == 200
    url = reverse("prep_table_roll", args=[table.campaign.pk, prepared["table"].pk])
    assert client.post(url, {"visibility": "blind"}).status_code == 409
