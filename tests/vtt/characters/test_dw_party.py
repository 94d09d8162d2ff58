"""Dungeon World party moves at the table: Take Watch's 10+ lands on every sheet in the camp
and Perilous Journey's roles go to different heroes, each in one transaction with events."""

from __future__ import annotations

import re

import pytest

from systems.core.dice import ScriptedDice
from vtt.characters import services
from vtt.characters.models import Character, CharacterChange
from vtt.core.errors import ServiceError
from vtt.table.models import TableEvent

STATS = {"str": 10, "dex": 10, "con": 10, "int": 10, "wis": 13, "cha": 10}  # WIS +1


def _pc(table, owner, name):
    return services.character_create(
        campaign=table.campaign,
        actor=owner,
        role="player",
        name=name,
        state={"name": name, "stats": STATS, "hp": 10, "max_hp": 10},
    )


@pytest.fixture
def camp(table):
    return [
        _pc(table, table.player, "Ава"),
        _pc(table, table.other_player, "Бо"),
        _pc(table, table.player, "Сю"),
    ]


def _url(table, move):
    return f"/api/campaigns/{table.campaign.pk}/party-moves/{move}/"


def test_take_watch_10_plus_writes_forward_on_every_sheet_in_camp(table, camp):
    ava, bo, cy = camp
    before = TableEvent.objects.count()
    with ScriptedDice([5, 5]) as dice:  # 10 + WIS 1 → 10+
        result = services.party_move_make(
            campaign=table.campaign,
            actor=table.player,
            role="player",
            move="take_watch",
            character_ids=[ava.pk, bo.pk, cy.pk],
            params={"watcher": ava.pk},
            dice=dice,
        )
    assert result["result"]["forward"] == 1
    for c in camp:
        c.refresh_from_db()
        assert [e["value"] for e in c.state["forward"]] == [1], c.name
        assert c.version == 2
        assert CharacterChange.objects.get(character=c, version=2).reason == "party:take_watch"
    kinds = list(
        TableEvent.objects.filter(seq__gt=before).order_by("seq").values_list("kind", flat=True)
    )
    assert kinds.count("character.updated") == 3
    assert kinds[-2:] == ["move", "party.move"]
    party = TableEvent.objects.get(kind="party.move").payload
    assert party["rollers"] == [ava.pk] and party["result"]["forward"] == 1
    assert not {"summary", "text"} & set(party)  # the log would print them as raw text
    roll = TableEvent.objects.get(kind="move")
    assert roll.payload["character_id"] == ava.pk and roll.payload["outcome"]["band"] == "10+"
    # Bo did not roll, and his next move reads the +1 and spends it
    with ScriptedDice([3, 3]) as dice:  # 6 + INT 0 + forward 1
        outcome, _pending = services.move_make(
            character=bo, actor=table.other_player, move="spout_lore", dice=dice
        )
    assert outcome.total == 7
    bo.refresh_from_db()
    assert bo.state["forward"] == []


def test_journey_roles_go_to_different_heroes(table, api_for, camp):
    ava, bo, cy = camp
    ids = [ava.pk, bo.pk, cy.pk]
    events = TableEvent.objects.count()
    response = api_for(table.player).post(
        _url(table, "perilous_journey"),
        {"character_ids": ids, "params": {"roles": {"scout": ava.pk, "trailblazer": ava.pk}}},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["fields"]["roles"] == [
        "Каждую роль играет другой герой: один герой — не больше одной роли."
    ]
    assert TableEvent.objects.count() == events
    with ScriptedDice([6, 6, 1, 1, 3, 4]) as dice:  # trailblazer 13, scout 3, quartermaster 8
        result = services.party_move_make(
            campaign=table.campaign,
            actor=table.referee,
            role="referee",
            move="perilous_journey",
            character_ids=ids,
            params={"roles": {"scout": bo.pk, "trailblazer": cy.pk, "quartermaster": ava.pk}},
            dice=dice,
        )
    assert result["rollers"] == [cy.pk, bo.pk, ava.pk]
    assert [o["outcome"]["band"] for o in result["outcomes"]] == ["10+", "6-", "7-9"]
    assert result["result"]["journey_shortened"] is True
    bo.refresh_from_db()
    assert bo.state["xp"] == 1  # a miss marks XP, saved on the scout's sheet
    assert TableEvent.objects.filter(kind="move").count() == 3


def test_party_moves_are_not_made_from_one_sheet(table, camp):
    with pytest.raises(ServiceError) as err:
        services.move_make(character=camp[0], actor=table.player, move="take_watch")
    assert err.value.code == "party_move"
    assert "панели группы" in str(err.value)  # Russian by default


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 403), ("outsider", 404), ("observer", 403), ("other_player", 403)],
)
def test_who_may_make_a_party_move(table, api_for, camp, who, status):
    """Only the referee, or a player whose character rolls (Ава is Pc1's)."""
    ava, bo, _cy = camp
    user = None if who == "anonymous" else getattr(table, who)
    response = api_for(user).post(
        _url(table, "take_watch"),
        {"character_ids": [ava.pk, bo.pk], "params": {"watcher": ava.pk}},
        format="json",
    )
    assert response.status_code in ((status, 401) if who == "anonymous" else (status,))
    ava.refresh_from_db()
    assert ava.version == 1
    assert not TableEvent.objects.filter(kind="party.move").exists()


def test_the_watchers_player_and_the_referee_may(table, api_for, camp):
    ava, bo, _cy = camp
    body = {"character_ids": [ava.pk, bo.pk], "params": {"watcher": ava.pk}}
    for user in (table.player, table.referee):
        response = api_for(user).post(_url(table, "take_watch"), body, format="json")
        assert response.status_code == 201, response.json()
    assert TableEvent.objects.filter(kind="party.move").count() == 2


def test_bad_party_requests_are_refused(table, api_for, camp):
    ava, bo, _cy = camp
    client = api_for(table.referee)
    cases = [
        ("carouse", {"character_ids": [ava.pk], "params": {}}),
        ("take_watch", {"character_ids": [ava.pk, ava.pk], "params": {"watcher": ava.pk}}),
        ("take_watch", {"character_ids": [ava.pk, 999999], "params": {"watcher": ava.pk}}),
        ("take_watch", {"character_ids": [ava.pk], "params": {"watcher": bo.pk}}),
        ("take_watch", {"character_ids": [ava.pk], "params": {}}),
        ("take_watch", {"character_ids": [], "params": {"watcher": ava.pk}}),
    ]
    for move, body in cases:
        response = client.post(_url(table, move), body, format="json")
        assert response.status_code == 400, (move, body, response.json())
    assert not TableEvent.objects.filter(kind="party.move").exists()


def test_the_table_offers_the_party_moves_to_those_who_play(table, client_for, camp):
    url = f"/campaigns/{table.campaign.pk}/table/"
    page = client_for(table.player).get(url).content.decode()
    assert 'id="party-moves"' in page and "Ходы группы" in page
    assert "Нести дозор (весь лагерь)" in page and "Проводник" in page
    assert all(f'value="{c.pk}"' in page for c in camp)
    assert f"/api/campaigns/{table.campaign.pk}/party-moves/MOVE/" in page
    assert 'id="party-moves"' in client_for(table.referee).get(url).content.decode()
    assert 'id="party-moves"' not in client_for(table.observer).get(url).content.decode()


def test_the_panel_alone_is_what_the_table_page_includes(table, client_for, camp):
    """party.js fetches the panel again when a sheet is created, renamed or deleted."""
    url = f"/campaigns/{table.campaign.pk}/table/party/"
    page = client_for(table.player).get(url).content.decode()
    assert 'id="party-moves"' in page and 'id="party-characters"' in page
    assert all(f'value="{c.pk}"' in page for c in camp)
    table_page = client_for(table.player).get(f"/campaigns/{table.campaign.pk}/table/")
    assert f'data-panel-url="{url}"' in table_page.content.decode()
    watching = client_for(table.observer).get(url)
    assert watching.status_code == 200 and 'id="party-moves"' not in watching.content.decode()


def test_the_sheet_page_does_not_offer_party_moves(table, client_for, camp):
    page = client_for(table.player).get(f"/characters/{camp[0].pk}/").content.decode()
    assert 'data-move="spout_lore"' in page
    assert 'data-move="take_watch"' not in page
    assert 'data-move="perilous_journey"' not in page


# --- whose characters a player may name (issue 18 review) -------------------------------------


def _refused_untouched(response, camp, events):
    assert response.status_code == 403, response.content
    data = response.json()
    assert data["code"] == "not_your_character"
    assert "только своих персонажей" in data["detail"]  # Russian by default
    for c in camp:
        c.refresh_from_db()
        assert c.version == 1, c.name
    assert TableEvent.objects.count() == events


def test_a_player_may_not_put_another_players_character_in_a_journey_role(table, api_for, camp):
    """Ава and Сю are the player's, Бо the other player's: a journey with Бо in a role is
    refused even though Ава rolls too, and nothing is rolled, saved or published."""
    ava, bo, cy = camp
    events = TableEvent.objects.count()
    response = api_for(table.player).post(
        _url(table, "perilous_journey"),
        {
            "character_ids": [ava.pk, bo.pk],
            "params": {"roles": {"scout": ava.pk, "trailblazer": bo.pk}},
        },
        format="json",
    )
    _refused_untouched(response, camp, events)
    # with only their own heroes in the roles it goes ahead
    with_own = api_for(table.player).post(
        _url(table, "perilous_journey"),
        {
            "character_ids": [ava.pk, cy.pk],
            "params": {"roles": {"scout": ava.pk, "trailblazer": cy.pk}},
        },
        format="json",
    )
    assert with_own.status_code == 201, with_own.content


def test_a_player_may_not_put_another_players_character_on_watch(table, api_for, camp):
    ava, bo, _cy = camp
    events = TableEvent.objects.count()
    response = api_for(table.player).post(
        _url(table, "take_watch"),
        {"character_ids": [ava.pk, bo.pk], "params": {"watcher": bo.pk}},
        format="json",
    )
    _refused_untouched(response, camp, events)


@pytest.mark.parametrize(
    ("move", "body"),
    [
        # each body is wrong in another way too: who may be named is checked first
        ("take_watch", lambda ava, bo: {"character_ids": [], "params": {"watcher": bo}}),
        ("take_watch", lambda ava, bo: {"character_ids": "all", "params": {"watcher": bo}}),
        ("perilous_journey", lambda ava, bo: {"params": {"roles": {"scout": bo, "cook": ava}}}),
        (
            "perilous_journey",
            lambda ava, bo: {"character_ids": ["x"], "params": {"roles": {"scout": str(bo)}}},
        ),
    ],
)
def test_naming_another_players_character_is_a_403_before_the_body_is_checked(
    table, api_for, camp, move, body
):
    ava, bo, _cy = camp
    events = TableEvent.objects.count()
    response = api_for(table.player).post(_url(table, move), body(ava.pk, bo.pk), format="json")
    _refused_untouched(response, camp, events)
    # the same body naming the player's own character is refused on its content only
    own = api_for(table.player).post(_url(table, move), body(ava.pk, ava.pk), format="json")
    assert own.status_code == 400, own.content


def test_the_referee_may_name_anyone_to_roll(table, api_for, camp):
    ava, bo, cy = camp
    response = api_for(table.referee).post(
        _url(table, "perilous_journey"),
        {
            "character_ids": [ava.pk, bo.pk],
            "params": {"roles": {"scout": ava.pk, "trailblazer": bo.pk}},
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    watch = api_for(table.referee).post(
        _url(table, "take_watch"),
        {"character_ids": [ava.pk, bo.pk, cy.pk], "params": {"watcher": bo.pk}},
        format="json",
    )
    assert watch.status_code == 201, watch.content


def test_the_service_refuses_another_players_roller_too(table, camp):
    """The same rule when the service is called directly (the API is not the only caller)."""
    ava, bo, _cy = camp
    with pytest.raises(ServiceError) as err:
        services.party_move_make(
            campaign=table.campaign,
            actor=table.player,
            role="player",
            move="perilous_journey",
            character_ids=[ava.pk, bo.pk],
            params={"roles": {"quartermaster": ava.pk, "scout": bo.pk}},
            dice=ScriptedDice([]),
        )
    assert err.value.status == 403 and err.value.code == "not_your_character"
    bo.refresh_from_db()
    assert bo.version == 1


def _options(page: str, select: str) -> list[str]:
    """The option values of the first ``<select ...select...>`` of the page."""
    start = page.index(select)
    block = page[start : page.index("</select>", start)]
    return [v for v in re.findall(r'<option value="([^"]*)"', block) if v]


def test_the_panel_offers_a_player_only_their_own_characters_to_roll(table, client_for, camp):
    ava, bo, cy = camp
    url = f"/campaigns/{table.campaign.pk}/table/"
    page = client_for(table.player).get(url).content.decode()
    own = sorted([str(ava.pk), str(cy.pk)])
    assert sorted(_options(page, 'name="watcher"')) == own
    for role in ("trailblazer", "scout", "quartermaster"):
        assert sorted(_options(page, f'data-role="{role}"')) == own, role
    # the camp (carried along, +1 forward on a 10+) still lists every sheet
    assert f'name="party" value="{bo.pk}"' in page
    # the referee may name anyone
    page = client_for(table.referee).get(url).content.decode()
    everyone = sorted(str(c.pk) for c in camp)
    assert sorted(_options(page, 'name="watcher"')) == everyone
    assert sorted(_options(page, 'data-role="scout"')) == everyone


def test_a_player_without_a_character_is_told_so(table, client_for, camp):
    page = client_for(table.other_player).get(f"/campaigns/{table.campaign.pk}/table/")
    assert 'name="watcher"' in page.content.decode()  # Бо is theirs
    Character.objects.filter(pk=camp[1].pk).update(owner=table.player)
    page = client_for(table.other_player).get(f"/campaigns/{table.campaign.pk}/table/")
    text = page.content.decode()
    assert 'id="party-moves"' in text and 'name="watcher"' not in text
    assert "У вас нет своего персонажа, чтобы сделать ход группы." in text
