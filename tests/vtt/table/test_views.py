"""The table page and its htmx endpoints: roles, the roll bar (idempotency, rate limit, bad
notation), chat, and the exact odds preview."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from tests.helpers import js_catalogue
from vtt.table import services
from vtt.table.models import Roll, TableEvent
from vtt.table.models import Visibility as V

ROLES = ["anonymous", "outsider", "observer", "player", "referee"]
HTMX = {"HTTP_HX_REQUEST": "true"}


def page_url(table) -> str:
    return reverse("table", args=[table.campaign.pk])


def roll_url(table) -> str:
    return reverse("table_roll", args=[table.campaign.pk])


def chat_url(table) -> str:
    return reverse("table_chat", args=[table.campaign.pk])


def odds_url(table) -> str:
    return reverse("table_odds", args=[table.campaign.pk])


def page_config(response) -> dict:
    match = re.search(
        r'<script id="table-config" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    )
    assert match, "the page carries its config as json_script"
    return json.loads(match.group(1))


# --- the page -----------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_table_page_for_every_role(table, client_for, role):
    response = client_for(table.user(role)).get(page_url(table))
    if role == "anonymous":
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
        return
    if role == "outsider":
        assert response.status_code == 404
        return
    assert response.status_code == 200
    html = response.content.decode()
    plays = role in ("player", "referee")
    assert ('id="roll-form"' in html) is plays
    assert ('id="chat-form"' in html) is plays
    assert ('name="idempotency_key"' in html) is plays
    assert 'id="conn"' in html and 'id="log-list"' in html
    config = page_config(response)
    assert config["canPlay"] is plays
    assert config["isReferee"] is (role == "referee")
    assert config["me"]["role"] == role
    if not plays:
        assert "observers do not roll" in html or "не бросают" in html


def test_page_is_russian_by_default_and_english_on_request(table, client_for):
    client = client_for(table.player)
    html = client.get(page_url(table)).content.decode()
    assert "Бросить" in html and "Подключение…" in html
    assert js_catalogue(client, client.get(page_url(table)))["verified"] == "проверено"
    table.player.language = "en"
    table.player.save()
    html = client.get(page_url(table)).content.decode()
    assert ">Roll<" in html and "Connecting…" in html
    assert "verified" not in js_catalogue(client, client.get(page_url(table)))


def test_page_carries_the_log_the_user_may_see_and_the_head(table, client_for):
    services.roll_create(campaign=table.campaign, actor=table.player, notation="2d6")
    services.roll_create(
        campaign=table.campaign, actor=table.referee, notation="1d20", visibility=V.REFEREE
    )
    services.chat_post(
        campaign=table.campaign,
        actor=table.player,
        text="только тебе",
        visibility=V.WHISPER,
        target_id=table.other_player.pk,
    )
    player = page_config(client_for(table.player).get(page_url(table)))
    referee = page_config(client_for(table.referee).get(page_url(table)))
    assert player["head"] == referee["head"] == 4
    assert [e["kind"] for e in player["events"]] == ["roll", "roll.hidden", "chat"]
    assert [e["kind"] for e in referee["events"]] == ["roll", "roll", "roll.hidden"]
    hidden_roll = referee["events"][1]["payload"]
    assert hidden_roll["commitment"] == player["events"][1]["payload"]["commitment"]
    assert "total" not in player["events"][1]["payload"]
    # the whisper is the sender's and the recipient's, not even the referee's
    other = page_config(client_for(table.other_player).get(page_url(table)))
    assert [e["kind"] for e in other["events"]] == ["roll", "roll.hidden", "chat"]


def test_page_initiative_hides_hidden_npcs_from_players(table, client_for):
    services.initiative_add(
        campaign=table.campaign, actor=table.referee, role="referee", name="Тень", hidden=True
    )
    services.initiative_add(
        campaign=table.campaign, actor=table.player, role="player", name="Алиса", value=12
    )
    player = page_config(client_for(table.player).get(page_url(table)))["initiative"]
    referee = page_config(client_for(table.referee).get(page_url(table)))["initiative"]
    assert [e["name"] for e in player["entries"]] == ["Алиса"]
    assert [e["name"] for e in referee["entries"]] == ["Тень", "Алиса"]


def test_campaign_page_links_to_the_table(table, client_for):
    html = (
        client_for(table.observer)
        .get(reverse("campaign_detail", args=[table.campaign.pk]))
        .content.decode()
    )
    assert page_url(table) in html
    assert "За стол" in html


def test_archived_campaign_table_is_read_only(table, client_for):
    from vtt.campaigns import services as campaign_services

    campaign_services.campaign_archive(campaign=table.campaign)
    client = client_for(table.player)
    response = client.get(page_url(table))
    assert response.status_code == 200
    assert 'id="roll-form"' not in response.content.decode()
    posted = client.post(roll_url(table), {"notation": "1d6"}, **HTMX)
    assert posted.status_code == 409
    assert not Roll.objects.exists()


# --- the roll bar -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "expected"),
    [("anonymous", 302), ("outsider", 404), ("observer", 403), ("player", 201), ("referee", 201)],
)
def test_htmx_roll_permissions(table, client_for, role, expected):
    response = client_for(table.user(role)).post(
        roll_url(table), {"notation": "2d6", "idempotency_key": "k1"}, **HTMX
    )
    assert response.status_code == expected
    assert Roll.objects.count() == (1 if expected == 201 else 0)


def test_htmx_roll_returns_a_fragment_and_a_fresh_key(table, client_for):
    response = client_for(table.player).post(
        roll_url(table),
        {"notation": "2d6+1", "label": "Руби", "idempotency_key": "first-key"},
        **HTMX,
    )
    assert response.status_code == 201
    html = response.content.decode()
    roll = Roll.objects.get()
    assert roll.label == "Руби" and roll.idempotency_key == "first-key"
    assert f'data-roll-id="{roll.pk}"' in html
    assert roll.result["text"] in html
    assert "<html" not in html  # a fragment, not the page
    key = re.search(r'id="roll-key" name="idempotency_key" value="([0-9a-f]{32})"', html)
    assert key and key.group(1) != "first-key"
    assert 'hx-swap-oob="true"' in html
    event = TableEvent.objects.get()
    assert event.kind == "roll" and event.payload["roll_id"] == roll.pk


def test_quick_dice_button_rolls_its_notation(table, client_for):
    response = client_for(table.player).post(
        roll_url(table), {"notation": "", "quick": "1d20", "idempotency_key": "q"}, **HTMX
    )
    assert response.status_code == 201
    assert Roll.objects.get().notation == "1d20"


def test_a_roll_clears_its_label_for_the_next_one(table, client_for):
    """Issue 18 item 15: the label ("What for?") stayed in the form after a roll, so the next
    quick d20 went out under it. The answer swaps in an empty label field out of band."""
    response = client_for(table.player).post(
        roll_url(table),
        {"notation": "1d20", "label": "Скрытность", "idempotency_key": "label-key"},
        **HTMX,
    )
    assert response.status_code == 201
    field = re.search(r'<input id="roll-label"[^>]*>', response.content.decode())
    assert field and 'hx-swap-oob="true"' in field.group() and 'value=""' in field.group()
    page = client_for(table.player).get(page_url(table)).content.decode()
    assert (
        'id="roll-label"' in page
        and "hx-swap-oob" not in re.search(r'<input id="roll-label"[^>]*>', page).group()
    )


def test_resubmitting_the_same_key_rolls_once(table, client_for):
    client = client_for(table.player)
    data = {"notation": "4d6kh3", "idempotency_key": "double-click"}
    first = client.post(roll_url(table), data, **HTMX)
    second = client.post(roll_url(table), data, **HTMX)
    assert (first.status_code, second.status_code) == (201, 200)
    assert Roll.objects.count() == 1
    assert TableEvent.objects.count() == 1
    roll = Roll.objects.get()
    assert f'data-roll-id="{roll.pk}"' in second.content.decode()
    assert 'data-created="0"' in second.content.decode()


def test_resubmit_of_an_api_key_is_the_same_roll(table, client_for, api_for):
    """The page and the API share the idempotency keys (and the service)."""
    api = api_for(table.player).post(
        f"/api/campaigns/{table.campaign.pk}/rolls/",
        {"notation": "1d8"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="shared",
    )
    page = client_for(table.player).post(
        roll_url(table), {"notation": "1d8", "idempotency_key": "shared"}, **HTMX
    )
    assert api.status_code == 201 and page.status_code == 200
    assert Roll.objects.count() == 1


@pytest.mark.parametrize(
    ("notation", "code"),
    [("2d", "notation_syntax"), ("101d6", "notation_too_many_dice"), ("", "invalid")],
)
def test_bad_notation_is_400_with_the_message(table, client_for, notation, code):
    response = client_for(table.player).post(
        roll_url(table), {"notation": notation, "idempotency_key": "bad"}, **HTMX
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert 'class="msg error"' in html and f'data-code="{code}"' in html
    assert re.search(r"[а-яё]{4,}", html.lower()), "the message is in Russian"
    assert "hx-swap-oob" not in html  # the key stays: nothing was rolled under it
    assert not Roll.objects.exists() and not TableEvent.objects.exists()


def test_bad_notation_message_matches_the_parser(table, client_for):
    from systems.core.notation import NotationError, parse_notation

    with pytest.raises(NotationError) as caught:
        parse_notation("101d6")
    response = client_for(table.player).post(roll_url(table), {"notation": "101d6"}, **HTMX)
    assert caught.value.ru in response.content.decode()


def test_roll_rate_limit_is_the_api_bucket(table, client_for, api_for):
    client = client_for(table.player)
    codes = [
        client.post(
            roll_url(table), {"notation": "1d6", "idempotency_key": f"k{i}"}, **HTMX
        ).status_code
        for i in range(10)
    ]
    assert codes == [201] * 10
    limited = client.post(roll_url(table), {"notation": "1d6", "idempotency_key": "k10"}, **HTMX)
    assert limited.status_code == 429
    assert int(limited["Retry-After"]) >= 1
    assert 'class="msg error"' in limited.content.decode()
    # the same bucket as the API: the API is limited too
    api = api_for(table.player).post(
        f"/api/campaigns/{table.campaign.pk}/rolls/", {"notation": "1d6"}, format="json"
    )
    assert api.status_code == 429
    # a retry of a key that already rolled is an answer, not a new roll: it costs nothing
    replay = client.post(roll_url(table), {"notation": "1d6", "idempotency_key": "k3"}, **HTMX)
    assert replay.status_code == 200
    assert Roll.objects.count() == 10


def test_whisper_roll_needs_a_member(table, client_for):
    client = client_for(table.player)
    bad = client.post(
        roll_url(table),
        {"notation": "1d6", "visibility": "whisper", "target_id": table.outsider.pk},
        **HTMX,
    )
    assert bad.status_code == 400
    ok = client.post(
        roll_url(table),
        {"notation": "1d6", "visibility": "whisper", "target_id": table.referee.pk},
        **HTMX,
    )
    assert ok.status_code == 201
    assert TableEvent.objects.get().target_id == table.referee.pk


def test_blind_roll_answer_does_not_show_the_result(table, client_for):
    response = client_for(table.player).post(
        roll_url(table), {"notation": "1d20", "visibility": "blind"}, **HTMX
    )
    assert response.status_code == 201
    roll = Roll.objects.get()
    assert roll.result["text"] not in response.content.decode()
    assert roll.commitment


def test_plain_post_without_htmx_redirects_back(table, client_for):
    response = client_for(table.player).post(roll_url(table), {"notation": "1d6"})
    assert response.status_code == 302 and response["Location"] == page_url(table)
    assert Roll.objects.count() == 1


# --- chat ---------------------------------------------------------------------------------------


def test_chat_posts_and_returns_an_empty_form(table, client_for):
    response = client_for(table.player).post(chat_url(table), {"text": "Привет!"}, **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="chat-form"' in html and "Привет!" not in html
    event = TableEvent.objects.get()
    assert event.kind == "chat" and event.payload["text"] == "Привет!"


def test_chat_whisper_and_empty_message(table, client_for):
    client = client_for(table.referee)
    empty = client.post(chat_url(table), {"text": "  "}, **HTMX)
    assert empty.status_code == 400 and 'class="msg error"' in empty.content.decode()
    whisper = client.post(
        chat_url(table),
        {"text": "тсс", "visibility": "whisper", "target_id": table.player.pk},
        **HTMX,
    )
    assert whisper.status_code == 200
    assert TableEvent.objects.get().visibility == V.WHISPER


@pytest.mark.parametrize(
    ("role", "expected"),
    [("anonymous", 302), ("outsider", 404), ("observer", 403), ("player", 200)],
)
def test_chat_permissions(table, client_for, role, expected):
    response = client_for(table.user(role)).post(chat_url(table), {"text": "эй"}, **HTMX)
    assert response.status_code == expected


def test_chat_rate_limit(table, client_for):
    client = client_for(table.player)
    codes = [client.post(chat_url(table), {"text": f"{i}"}, **HTMX).status_code for i in range(21)]
    assert codes[:20] == [200] * 20 and codes[20] == 429
    # the text the user typed survives the refusal
    assert 'value="20"' in client.post(chat_url(table), {"text": "20"}, **HTMX).content.decode()


# --- odds ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("notation", "at_least", "fraction", "percent"),
    [
        ("2d6", 10, "1/6", 16.7),
        ("2d6+2", 10, "5/12", 41.7),
        ("1d20", 11, "1/2", 50.0),
        ("4d6kh3", 18, "7/432", 1.6),
        ("1d6!", 7, "1/6", 16.7),
    ],
)
def test_odds_json_is_exact(table, client_for, notation, at_least, fraction, percent):
    response = client_for(table.observer).get(
        odds_url(table), {"notation": notation, "at_least": at_least}
    )
    assert response.status_code == 200
    body = response.json()
    (chance,) = body["chances"]
    assert chance["label"] == f"{at_least}+"
    assert chance["fraction"] == fraction
    assert chance["percent"] == percent
    assert body["exact"] is True


def test_odds_pbta_bands(table, client_for):
    body = (
        client_for(table.player).get(odds_url(table), {"notation": "2d6", "bands": "pbta"}).json()
    )
    assert body["min"] == 2 and body["max"] == 12 and body["mean"] == 7
    chances = {c["label"]: c["fraction"] for c in body["chances"]}
    assert chances == {"10+": "1/6", "7–9": "5/12", "6−": "5/12"}


def test_odds_htmx_fragment(table, client_for):
    response = client_for(table.player).get(
        odds_url(table), {"notation": "2d6+2", "at_least": "10"}, **HTMX
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html
    assert "шанс 10+: 41,7%" in html


def test_odds_bad_notation_is_400(table, client_for):
    client = client_for(table.player)
    response = client.get(odds_url(table), {"notation": "2d"})
    assert response.status_code == 400
    assert response.json()["code"] == "notation_syntax"
    assert response.json()["detail"]
    fragment = client.get(odds_url(table), {"notation": "1d1001"}, **HTMX)
    assert fragment.status_code == 400
    assert 'class="odds-error"' in fragment.content.decode()
    assert client.get(odds_url(table), {"notation": ""}).status_code == 400
    assert client.get(odds_url(table), {"notation": "2d6", "at_least": "x"}).status_code == 400
    # an emptied field clears the preview
    assert client.get(odds_url(table), {"notation": ""}, **HTMX).content == b""


def test_odds_too_complex_is_not_an_error(table, client_for):
    body = client_for(table.player).get(odds_url(table), {"notation": "100d1000kh50"}).json()
    assert body["exact"] is False and body["detail"]


@pytest.mark.parametrize(
    ("role", "expected"), [("anonymous", 302), ("outsider", 404), ("observer", 200)]
)
def test_odds_permissions(table, client_for, role, expected):
    response = client_for(table.user(role)).get(odds_url(table), {"notation": "2d6"})
    assert response.status_code == expected
