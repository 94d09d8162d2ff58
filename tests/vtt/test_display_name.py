"""Issue 18, item 14: a display name asked at sign-up, editable on a profile page, and shown
wherever a person is named (the header, members, the table's log, presence and whispers)."""

from __future__ import annotations

import json
import unicodedata

import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import make_user
from vtt.accounts.models import User
from vtt.accounts.services import clean_public_name, public_name_key, user_update_profile
from vtt.campaigns import services as campaign_services
from vtt.campaigns.archive import _archived_public_name
from vtt.campaigns.models import Membership, Role
from vtt.core.errors import Conflict, Invalid
from vtt.table import services as table_services
from vtt.table.events import wire
from vtt.table.models import TableEvent

pytestmark = pytest.mark.django_db

SIGNUP = {
    "username": "vera1669",
    "password1": "vtt-strong-pass-9",
    "password2": "vtt-strong-pass-9",
}


def test_signup_asks_a_display_name_and_the_header_shows_it():
    client = Client()
    form = client.get(reverse("signup")).content.decode()
    assert 'name="public_name"' in form and "Имя за столом" in form
    missing = client.post(reverse("signup"), SIGNUP)
    assert missing.status_code == 200 and not User.objects.exists()
    assert client.post(reverse("signup"), {**SIGNUP, "public_name": "  Вера  "}).status_code == 302
    user = User.objects.get(username="vera1669")
    assert user.public_name == "Вера" and user.display_name == "Вера"
    page = client.get(reverse("campaign_list")).content.decode()
    assert f'href="{reverse("profile")}"' in page and ">Вера</a>" in page
    assert "vera1669" not in page


def test_profile_page_changes_the_display_name(table, client_for):
    client = client_for(table.player)
    url = reverse("profile")
    page = client.get(url)
    assert page.status_code == 200 and 'name="public_name"' in page.content.decode()
    assert client.post(url, {"public_name": "Алиса", "email": ""}).status_code == 302
    table.player.refresh_from_db()
    assert table.player.display_name == "Алиса"
    blank = client.post(url, {"public_name": "   ", "email": ""})
    assert blank.status_code == 400
    table.player.refresh_from_db()
    assert table.player.public_name == "Алиса"
    too_long = client.post(url, {"public_name": "Я" * 41, "email": ""})
    assert too_long.status_code == 400


def test_profile_needs_a_login():
    response = Client().get(reverse("profile"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_the_table_names_people_by_display_name(table, client_for):
    table.player.public_name = "Алиса"
    table.player.save(update_fields=["public_name"])
    table_services.roll_create(
        campaign=table.campaign, actor=table.player, notation="1d6", visibility="everyone"
    )
    event = TableEvent.objects.filter(campaign=table.campaign, kind="roll").last()
    assert wire(event)["actor"]["name"] == "Алиса"
    html = client_for(table.other_player).get(reverse("table", args=[table.campaign.pk]))
    html = html.content.decode()
    config = json.loads(html.split('id="table-config" type="application/json">')[1].split("<")[0])
    names = {m["id"]: m["name"] for m in config["members"]}
    assert names[table.player.pk] == "Алиса"
    assert ">Алиса</option>" in html  # the whisper recipient list
    members = client_for(table.referee).get(reverse("campaign_detail", args=[table.campaign.pk]))
    assert "Алиса" in members.content.decode()


def test_without_a_display_name_the_login_still_names_someone():
    assert make_user("ivan").display_name == "ivan"


# --- issue 18 review: no invisible characters, no two members with one name ------------------


@pytest.mark.parametrize(
    "name",
    [
        "Ал\u202eиса",  # RIGHT-TO-LEFT OVERRIDE: reorders what follows
        "\u2066Алиса\u2069",  # bidi isolates
        "Али\u200bса",  # ZERO WIDTH SPACE
        "Али\u200dса",  # ZERO WIDTH JOINER
        "Алиса\u2060",  # WORD JOINER
        "\ufeffАлиса",  # BYTE ORDER MARK
        "Али\u00adса",  # SOFT HYPHEN (Cf)
        "Али\u2028са",  # LINE SEPARATOR
        "Али\u2029са",  # PARAGRAPH SEPARATOR
        "Али\x07са",  # a control character
        "Али\ue000са",  # private use
        "Али\U000e0041са",  # a tag character
        "\u3164",  # HANGUL FILLER: a letter that draws nothing
    ],
)
def test_clean_public_name_refuses_invisible_characters(name):
    with pytest.raises(Invalid) as caught:
        clean_public_name(name)
    assert caught.value.code == "bad_public_name"
    assert "U+" in caught.value.message and caught.value.fields["public_name"]


def test_clean_public_name_normalises_to_nfc_and_tidies_spaces():
    decomposed = "И\u0306е\u0308ж"  # Й and ё as base letter + combining mark
    assert decomposed != unicodedata.normalize("NFC", decomposed)
    assert clean_public_name(f"  {decomposed}\u00a0 Ёлкин ") == "Йёж Ёлкин"
    assert clean_public_name("😀 Вера") == "😀 Вера"


def test_an_imported_placeholder_keeps_only_a_clean_display_name():
    assert _archived_public_name("  Борис ") == "Борис"
    assert _archived_public_name("Бо\u202eрис") == ""  # the login names them instead
    assert _archived_public_name("Я" * 41) == "" and _archived_public_name(None) == ""


def test_signup_refuses_a_bidi_override_in_the_display_name():
    client = Client()
    response = client.post(reverse("signup"), {**SIGNUP, "public_name": "Вера\u202eарев"})
    assert response.status_code == 200 and not User.objects.exists()
    page = response.content.decode()
    assert "невидимые" in page and "U+202E" in page


def test_profile_refuses_a_bidi_override_and_keeps_the_old_name(table, client_for):
    client = client_for(table.player)
    response = client.post(reverse("profile"), {"public_name": "\u202eасилА", "email": ""})
    assert response.status_code == 400
    assert "U+202E" in response.content.decode()
    table.player.refresh_from_db()
    assert table.player.public_name == ""


def test_public_name_key_folds_case_and_compatibility_forms():
    assert public_name_key("АЛИСА") == public_name_key("алиса")
    assert public_name_key("Straße") == public_name_key("STRASSE")
    assert public_name_key("Ａｌｉｃｅ") == public_name_key("alice")
    assert public_name_key("Алиса") != public_name_key("Алиса 2")


def _named(user, name):
    user.public_name = name
    user.save(update_fields=["public_name"])


def test_profile_refuses_a_name_another_member_uses_in_any_case(table, client_for):
    _named(table.other_player, "Алиса")
    client = client_for(table.player)
    for taken in ("алиса", "АЛИСА", " Алиса "):
        response = client.post(reverse("profile"), {"public_name": taken, "email": ""})
        assert response.status_code == 400, taken
        page = response.content.decode()
        assert "уже" in page and "Тестовая" in page  # who is called so, and where
    table.player.refresh_from_db()
    assert table.player.public_name == ""


def test_profile_refuses_a_zero_width_joined_duplicate(table, client_for):
    _named(table.other_player, "Алиса")
    response = client_for(table.player).post(
        reverse("profile"), {"public_name": "Али\u200dса", "email": ""}
    )
    assert response.status_code == 400
    table.player.refresh_from_db()
    assert table.player.public_name == ""


def test_profile_rename_is_checked_against_every_shared_campaign_only(table, client_for):
    # The outsider shares no campaign with the player: their name is free for the player.
    _named(table.outsider, "Борис")
    client = client_for(table.player)
    assert client.post(reverse("profile"), {"public_name": "борис", "email": ""}).status_code == 302
    # A second campaign the player is in: its members count too.
    other = campaign_services.campaign_create(
        user=table.outsider, name="Вторая", ruleset="dungeon_world"
    )
    Membership.objects.create(campaign=other, user=table.player, role=Role.PLAYER)
    _named(table.outsider, "Вера")
    response = client.post(reverse("profile"), {"public_name": "ВЕРА", "email": ""})
    assert response.status_code == 400 and "Вторая" in response.content.decode()
    # A login shown as a name (no display name set) is a name too.
    response = client.post(reverse("profile"), {"public_name": "PC2", "email": ""})
    assert response.status_code == 400


def test_keeping_ones_own_name_is_always_allowed(table, client_for):
    # An older duplicate (from before the check) does not stop the e-mail from being changed.
    _named(table.player, "Алиса")
    _named(table.other_player, "алиса")
    response = client_for(table.player).post(
        reverse("profile"), {"public_name": "АЛИСА", "email": "a@example.org"}
    )
    assert response.status_code == 302
    table.player.refresh_from_db()
    assert table.player.public_name == "АЛИСА" and table.player.email == "a@example.org"


def test_the_service_refuses_a_duplicate_with_409(table):
    _named(table.referee, "Ведущий")
    with pytest.raises(Conflict) as caught:
        user_update_profile(user=table.player, public_name="ведущий")
    assert caught.value.status == 409 and caught.value.code == "public_name_taken"


def test_joining_is_refused_when_the_display_name_clashes(table, api_for, client_for):
    _named(table.other_player, "Алиса")
    newcomer = make_user("newcomer")
    _named(newcomer, "алиса")
    invite = campaign_services.invite_create(campaign=table.campaign, created_by=table.referee)
    response = api_for(newcomer).post(f"/api/invites/{invite.token}/accept/")
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "public_name_taken" and "алиса" in body["detail"]
    page = client_for(newcomer).post(reverse("invite_accept", args=[invite.token]))
    assert page.status_code == 409
    html = page.content.decode()
    assert "уже" in html and f'href="{reverse("profile")}"' in html
    assert not Membership.objects.filter(campaign=table.campaign, user=newcomer).exists()
    invite.refresh_from_db()
    assert invite.uses == 0
    # After a rename the same invite works.
    _named(newcomer, "Алиса Вторая")
    assert api_for(newcomer).post(f"/api/invites/{invite.token}/accept/").status_code == 200


def test_joining_with_a_login_that_is_a_members_name_is_refused(table, api_for):
    _named(table.other_player, "Newcomer")
    newcomer = make_user("newcomer")  # no display name: the login names them
    invite = campaign_services.invite_create(campaign=table.campaign, created_by=table.referee)
    assert api_for(newcomer).post(f"/api/invites/{invite.token}/accept/").status_code == 409


def test_members_api_sends_no_logins(table, api_for):
    _named(table.player, "Алиса")
    for user in (table.referee, table.player, table.observer):
        response = api_for(user).get(f"/api/campaigns/{table.campaign.pk}/members/")
        assert response.status_code == 200
        members = response.json()
        assert all("username" not in m for m in members)
        names = {m["user_id"]: m["display_name"] for m in members}
        assert names[table.player.pk] == "Алиса"
        text = json.dumps(members, ensure_ascii=False)
        assert '"username"' not in text
    newcomer = make_user("secretlogin")
    _named(newcomer, "Гость")
    invite = campaign_services.invite_create(campaign=table.campaign, created_by=table.referee)
    joined = api_for(newcomer).post(f"/api/invites/{invite.token}/accept/").json()
    assert "username" not in joined and "secretlogin" not in json.dumps(joined)
    transfer = api_for(table.referee).post(
        f"/api/campaigns/{table.campaign.pk}/referee/", {"user_id": table.player.pk}
    )
    assert transfer.status_code == 200 and "username" not in transfer.json()
