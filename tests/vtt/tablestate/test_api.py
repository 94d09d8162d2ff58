"""The table-state API for every role, with exact status codes."""

from __future__ import annotations

import pytest

from systems.core.dice import ScriptedDice
from vtt.characters import services as character_services
from vtt.table.models import TableEvent

from .conftest import sw_character

ROLES = ["anonymous", "outsider", "observer", "player", "referee"]


def codes(anonymous, outsider, observer, player, referee):
    return dict(zip(ROLES, [anonymous, outsider, observer, player, referee], strict=True))


SW_CASES = [
    ("get", "table-state/", None, codes(401, 404, 200, 200, 200)),
    ("post", "table-moves/start_session/", {}, codes(401, 404, 403, 403, 200)),
    ("post", "table-moves/end_session/", {}, codes(401, 404, 403, 403, 200)),
    ("post", "table-moves/start_combat/", {}, codes(401, 404, 403, 403, 200)),
    ("post", "table-moves/deal_round/", {}, codes(401, 404, 403, 403, 200)),
    ("post", "table-moves/end_combat/", {}, codes(401, 404, 403, 403, 200)),
    ("post", "table-moves/adjust_pool/", {"params": {"delta": 1}}, codes(401, 404, 403, 403, 200)),
    ("post", "table-moves/no_such_move/", {}, codes(401, 404, 403, 400, 400)),
]


@pytest.mark.parametrize(("method", "path", "data", "expected"), SW_CASES)
@pytest.mark.parametrize("role", ROLES)
def test_savage_worlds_table_api(role, method, path, data, expected, sw, api_for):
    sw_character(sw, user=sw.player, name="Ава")
    url = f"/api/campaigns/{sw.campaign.pk}/{path}"
    client = api_for(sw.user(role))
    response = client.get(url) if method == "get" else client.post(url, data, format="json")
    assert response.status_code == expected[role], response.content[:400]
    if expected[role] in (400, 403, 404):
        assert response.json()["detail"]
    if expected[role] == 200 and method == "post":
        body = response.json()
        assert body["version"] >= 1 and "mine" in body
        assert "state" not in (body["outcome"] or {})  # never the deck itself


TALES_CASES = [
    ("get", "table-state/", None, codes(401, 404, 200, 200, 200)),
    (
        "post",
        "table-moves/surprise/",
        {"params": {"unaware": "enemies"}},
        codes(401, 404, 403, 403, 200),
    ),
    ("post", "table-moves/initiative/", {}, codes(401, 404, 403, 403, 200)),
    ("post", "table-moves/reset_battle/", {}, codes(401, 404, 403, 403, 200)),
]


@pytest.mark.parametrize(("method", "path", "data", "expected"), TALES_CASES)
@pytest.mark.parametrize("role", ROLES)
def test_tales_table_api(role, method, path, data, expected, tales, api_for):
    url = f"/api/campaigns/{tales.campaign.pk}/{path}"
    client = api_for(tales.user(role))
    response = client.get(url) if method == "get" else client.post(url, data, format="json")
    assert response.status_code == expected[role], response.content[:400]


@pytest.mark.parametrize("role", ROLES)
def test_rulesets_without_table_state_answer_404(role, table, api_for):
    url = f"/api/campaigns/{table.campaign.pk}/table-state/"
    expected = codes(401, 404, 404, 404, 404)[role]
    assert api_for(table.user(role)).get(url).status_code == expected
    move = f"/api/campaigns/{table.campaign.pk}/table-moves/deal_round/"
    expected = codes(401, 404, 403, 404, 404)[role]
    assert api_for(table.user(role)).post(move, {}, format="json").status_code == expected


def test_archived_campaign_refuses_moves(sw, api_for):
    sw.campaign.archived_at = sw.campaign.updated_at
    sw.campaign.save(update_fields=["archived_at"])
    url = f"/api/campaigns/{sw.campaign.pk}/table-moves/start_combat/"
    assert api_for(sw.referee).post(url, {}, format="json").status_code == 409
    assert (
        api_for(sw.player).get(f"/api/campaigns/{sw.campaign.pk}/table-state/").status_code == 200
    )


def test_stale_version_is_a_409_and_deals_nothing(sw, api_for):
    sw_character(sw, user=sw.player, name="Ава")
    base = f"/api/campaigns/{sw.campaign.pk}/"
    client = api_for(sw.referee)
    state = client.get(base + "table-state/").json()
    first = client.post(
        base + "table-moves/start_combat/", {"version": state["version"]}, format="json"
    )
    assert first.status_code == 200
    again = client.post(
        base + "table-moves/start_combat/", {"version": state["version"]}, format="json"
    )
    assert again.status_code == 409 and again.json()["code"] == "stale_version"
    started = TableEvent.objects.filter(kind="tablestate", payload__action="start_combat")
    assert started.exclude(visibility="blind").count() == 1


def test_benny_choice_api_by_role(sw, api_for):
    ava = sw_character(sw, user=sw.player, name="Ава", bennies=3)
    _outcome, pending = character_services.move_make(
        character=ava,
        actor=sw.player,
        move="trait_check",
        params={"trait": "agility"},
        dice=ScriptedDice([2, 3]),
    )
    url = f"/api/campaigns/{sw.campaign.pk}/table-state/choices/"
    body = {"character_id": ava.pk, "pending_id": pending.pk, "choice": "reroll"}
    assert api_for(None).post(url, body, format="json").status_code == 401
    assert api_for(sw.outsider).post(url, body, format="json").status_code == 404
    assert api_for(sw.observer).post(url, body, format="json").status_code == 403
    assert api_for(sw.other_player).post(url, body, format="json").status_code == 403
    bad = api_for(sw.player).post(url, {**body, "choice": "nonsense"}, format="json")
    assert bad.status_code == 400
    made = api_for(sw.player).post(url, body, format="json")
    assert made.status_code == 200, made.content
    data = made.json()
    assert data["character"]["state"]["bennies"] == 2
    assert data["mine"][0]["bennies"] == 2
    assert data["pending_id"] == data["mine"][0]["pending"][0]["id"]
    again = api_for(sw.player).post(url, body, format="json")  # that choice is made already
    assert again.status_code == 409
    spent = TableEvent.objects.filter(kind="tablestate", payload__action="benny")
    assert [e.payload["data"]["name"] for e in spent] == ["Ава"]


def test_table_page_carries_the_panel_for_its_ruleset(sw, client_for):
    page = client_for(sw.player).get(f"/campaigns/{sw.campaign.pk}/table/")
    html = page.content.decode()
    assert page.status_code == 200
    assert 'id="tablestate"' in html and "js/deck.js" in html
    assert "Колода действий" in html
    assert '"draw"' not in html  # the draw pile stays on the server


def test_table_page_of_other_rulesets_has_no_panel(table, client_for):
    html = client_for(table.player).get(f"/campaigns/{table.campaign.pk}/table/").content
    assert b'id="tablestate"' not in html and b"deck.js" not in html


def test_tales_table_page_links_the_wizard(tales, client_for):
    html = client_for(tales.player).get(f"/campaigns/{tales.campaign.pk}/table/").content.decode()
    assert f"/campaigns/{tales.campaign.pk}/tales/wizard/" in html
    assert "Битва" in html
