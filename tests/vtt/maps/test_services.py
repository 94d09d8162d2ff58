"""Map services: every write publishes the referee's full copy (blind) and, for the active map,
a players' copy that carries only what players may see."""

from __future__ import annotations

import pytest

from tests.vtt.maps.conftest import (
    FOGGED_NOTE,
    FOGGED_TOKEN,
    HIDDEN_TOKEN,
    SECRET_NOTE,
)
from vtt.campaigns import services as campaign_services
from vtt.campaigns.models import Membership, Role
from vtt.core.errors import Invalid, ServiceError
from vtt.maps import services
from vtt.maps.fog import Fog
from vtt.maps.models import Map, Token
from vtt.table.events import verify_chain
from vtt.table.models import TableEvent


def head(table) -> int:
    last = TableEvent.objects.filter(campaign=table.campaign).order_by("-seq").first()
    return last.seq if last else 0


def events_after(table, seq):
    return list(TableEvent.objects.filter(campaign=table.campaign, seq__gt=seq).order_by("seq"))


def split(events):
    referee = [e for e in events if e.visibility == "blind"]
    players = [e for e in events if e.visibility == "players"]
    assert all(e.payload["audience"] == "referee" for e in referee)
    assert all(e.payload["audience"] == "players" for e in players)
    assert len(referee) + len(players) == len(events)
    return referee, players


def test_create_map_defaults_and_referee_only_event(table):
    start = head(table)
    m = services.map_create(campaign=table.campaign, actor=table.referee, name="Пещера")
    assert (m.kind, m.width, m.height, m.cell_px, m.distance_unit) == ("square", 30, 20, 50, "ft")
    assert m.cell_distance == 5 and m.fogged and Fog.for_map(m).count() == 0
    referee, players = split(events_after(table, start))
    assert [e.kind for e in referee] == ["map.saved"] and players == []


def test_crows_defaults_hex_five_miles_and_sizes(table):
    crows = campaign_services.campaign_create(user=table.referee, name="Вороны", ruleset="crows")
    m = services.map_create(
        campaign=crows, actor=table.referee, name="Пустошь", kind="hex", fogged=False
    )
    assert (m.orientation, m.cell_distance, m.distance_unit) == ("flat", 5, "mi")
    assert Fog.for_map(m).count() == 30 * 20
    token = services.token_create(map=m, actor=table.referee, name="Дракон", size="colossal")
    assert token.cells == 4
    with pytest.raises(Invalid):
        services.token_create(map=m, actor=table.referee, name="Х", size="gargantuan")


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": "x", "width": 0}, "width"),
        ({"name": "x", "height": 201}, "height"),
        ({"name": "x", "cell_px": 8}, "cell_px"),
        ({"name": "x", "kind": "triangle"}, "kind"),
        ({"name": "x", "orientation": "sideways"}, "orientation"),
        ({"name": "x", "cell_distance": "-1"}, "cell_distance"),
        ({"name": "x", "distance_unit": "parsec"}, "distance_unit"),
    ],
)
def test_map_validation(table, data, field):
    with pytest.raises(Invalid) as exc:
        services.map_create(campaign=table.campaign, actor=table.referee, **data)
    assert field in exc.value.fields
    assert not Map.objects.exists()


def test_activate_publishes_to_both_audiences(table):
    m = services.map_create(campaign=table.campaign, actor=table.referee, name="A")
    other = services.map_create(campaign=table.campaign, actor=table.referee, name="B")
    services.map_activate(campaign=table.campaign, actor=table.referee, map_id=m.pk)
    start = head(table)
    services.map_activate(campaign=table.campaign, actor=table.referee, map_id=other.pk)
    assert list(Map.objects.filter(active=True)) == [other]
    referee, players = split(events_after(table, start))
    assert [e.payload["map_id"] for e in referee + players] == [other.pk, other.pk]
    services.map_activate(campaign=table.campaign, actor=table.referee, map_id=None)
    assert not Map.objects.filter(active=True).exists()


def test_player_moves_own_token_and_movement_adds_up(scene, table):
    start = head(table)
    token, distance = services.token_move(
        map=scene.map,
        actor=table.player,
        role=Role.PLAYER,
        token_id=scene.pc_token.pk,
        col=4,
        row=3,
    )
    assert (token.col, token.row, distance, token.moved) == (4, 3, 3, 3)  # Chebyshev
    token, distance = services.token_move(
        map=scene.map, actor=table.player, role=Role.PLAYER, token_id=token.pk, col=4, row=9
    )
    assert (distance, token.moved) == (6, 9)
    referee, players = split(events_after(table, start))
    assert [e.kind for e in referee] == ["map.token", "map.token"]
    assert referee[0].payload["token"]["moved"] == 3 and "hidden" in referee[0].payload["token"]
    assert [e.kind for e in players] == ["map.token", "map.token"]
    assert players[1].payload["token"]["col"] == 4 and "hidden" not in players[1].payload["token"]
    assert referee[0].actor_id == table.player.pk
    services.movement_reset(map=scene.map, actor=table.referee)
    assert not Token.objects.filter(map=scene.map).exclude(moved=0).exists()
    assert verify_chain(table.campaign.pk)["ok"]


def test_players_cannot_move_other_tokens_or_into_fog(scene, table):
    move = services.token_move
    with pytest.raises(ServiceError) as exc:
        move(
            map=scene.map, actor=table.player, role=Role.PLAYER,
            token_id=scene.other_token.pk, col=0, row=0,
        )  # fmt: skip
    assert exc.value.status == 403
    for token in (scene.hidden_token, scene.fogged_token):
        with pytest.raises(Invalid) as exc:
            move(
                map=scene.map, actor=table.player, role=Role.PLAYER, token_id=token.pk, col=0, row=0
            )
        assert exc.value.code == "no_token"  # it does not exist for them
    with pytest.raises(Invalid) as exc:
        move(
            map=scene.map, actor=table.player, role=Role.PLAYER,
            token_id=scene.pc_token.pk, col=5, row=1,
        )  # fmt: skip
    assert exc.value.code == "fogged"
    with pytest.raises(Invalid):
        move(
            map=scene.map,
            actor=table.player,
            role=Role.PLAYER,
            token_id=scene.pc_token.pk,
            col=10,
            row=1,
        )
    scene.pc_token.refresh_from_db()
    assert (scene.pc_token.col, scene.pc_token.row, scene.pc_token.moved) == (1, 1, 0)


def test_a_token_entering_fog_is_gone_for_players(scene, table):
    start = head(table)
    services.token_move(
        map=scene.map, actor=table.referee, role=Role.REFEREE,
        token_id=scene.visible_token.pk, col=7, row=3,
    )  # fmt: skip
    referee, players = split(events_after(table, start))
    assert referee[0].kind == "map.token" and referee[0].payload["token"]["col"] == 7
    assert [(e.kind, e.payload) for e in players] == [
        (
            "map.token.gone",
            {"map_id": scene.map.pk, "token_id": scene.visible_token.pk, "audience": "players"},
        )
    ]
    # moving inside the fog tells players nothing at all
    start = head(table)
    services.token_move(
        map=scene.map, actor=table.referee, role=Role.REFEREE,
        token_id=scene.fogged_token.pk, col=9, row=9,
    )  # fmt: skip
    _referee, players = split(events_after(table, start))
    assert players == []


def test_reveal_carries_what_came_into_view(scene, table):
    start = head(table)
    result = services.fog_change(map=scene.map, actor=table.referee, reveal=True, rect=[5, 0, 9, 9])
    assert result["changed"] == 50
    referee, players = split(events_after(table, start))
    assert referee[0].kind == "map.fog" and referee[0].payload["runs"] == [
        [r * 10 + 5, 5] for r in range(10)
    ]
    assert "tokens" not in referee[0].payload
    p = players[0].payload
    assert [t["name"] for t in p["tokens"]] == [FOGGED_TOKEN]
    assert [n["text"] for n in p["notes"]] == [FOGGED_NOTE]
    assert p["terrain"] == {"7,7": "swamp"}
    assert p["gone"] == [] and p["background"] is None  # no background on this map
    # hiding it again: the goblin and the inscription are gone for players
    start = head(table)
    services.fog_change(map=scene.map, actor=table.referee, reveal=False, rect=[5, 0, 9, 9])
    _referee, players = split(events_after(table, start))
    assert players[0].payload["gone"] == [scene.fogged_token.pk]
    assert players[0].payload["notes_gone"] == [scene.fogged_note.pk]


def test_no_change_no_event(scene, table):
    start = head(table)
    assert (
        services.fog_change(map=scene.map, actor=table.referee, reveal=True, cells=[[0, 0]])[
            "changed"
        ]
        == 0
    )
    assert events_after(table, start) == []


def test_hidden_tokens_and_secret_notes_stay_with_the_referee(scene, table):
    start = head(table)
    services.token_update(
        map=scene.map, actor=table.referee, token_id=scene.hidden_token.pk, name="Огр 2"
    )
    services.note_update(map=scene.map, actor=table.referee, note_id=scene.secret_note.pk, text="x")
    _referee, players = split(events_after(table, start))
    assert players == []
    # showing the ogre publishes it; hiding it again makes it gone
    start = head(table)
    services.token_update(
        map=scene.map, actor=table.referee, token_id=scene.hidden_token.pk, hidden=False
    )
    services.token_update(
        map=scene.map, actor=table.referee, token_id=scene.hidden_token.pk, hidden=True
    )
    _referee, players = split(events_after(table, start))
    assert [e.kind for e in players] == ["map.token", "map.token.gone"]


def test_events_of_an_inactive_map_are_the_referees(scene, table):
    services.map_activate(campaign=table.campaign, actor=table.referee, map_id=None)
    scene.map.refresh_from_db()
    start = head(table)
    services.fog_change(map=scene.map, actor=table.referee, reveal=True, everything=True)
    services.token_move(
        map=scene.map, actor=table.referee, role=Role.REFEREE,
        token_id=scene.visible_token.pk, col=0, row=0,
    )  # fmt: skip
    _referee, players = split(events_after(table, start))
    assert players == []


def test_party_true_position_is_never_published_to_players(table):
    m = services.map_create(
        campaign=table.campaign, actor=table.referee, name="Пустошь", kind="hex", width=8, height=8
    )
    services.map_activate(campaign=table.campaign, actor=table.referee, map_id=m.pk)
    start = head(table)
    services.party_set(map=m, actor=table.referee, shown=[3, 3], true=[3, 3], reveal=1)
    m.refresh_from_db()
    fog = Fog.for_map(m)
    assert fog.count() == 7 and fog.is_revealed(3, 3) and fog.is_revealed(3, 2)
    referee, players = split(events_after(table, start))
    assert [e.kind for e in players] == ["map.party", "map.fog"]
    assert players[0].payload == {"map_id": m.pk, "shown": [3, 3], "audience": "players"}
    assert referee[0].payload["true"] == [3, 3]
    # lost: the referee moves the true position only; players hear nothing
    start = head(table)
    services.party_set(map=m, actor=table.referee, true=[5, 6], reveal=None)
    referee, players = split(events_after(table, start))
    assert players == [] and referee[0].payload["true"] == [5, 6]
    assert all(
        "true" not in e.payload
        for e in TableEvent.objects.filter(visibility__in=("everyone", "players"))
    )


def test_resize_keeps_fog_and_pulls_tokens_back(scene, table):
    services.map_update(map=scene.map, actor=table.referee, width=6, height=6)
    scene.map.refresh_from_db()
    fogged = Token.objects.get(pk=scene.fogged_token.pk)
    assert (fogged.col, fogged.row) == (5, 5)
    fog = Fog.for_map(scene.map)
    assert fog.is_revealed(4, 5) and not fog.is_revealed(5, 5)
    assert scene.map.terrain == {}  # (0, 9) and (7, 7) are gone with their rows


def test_token_validation(scene, table):
    m = scene.map
    for data in ({"name": ""}, {"name": "x", "color": "red"}, {"name": "x", "size": "planet"}):
        with pytest.raises(Invalid):
            services.token_create(map=m, actor=table.referee, **data)
    outsider_campaign = campaign_services.campaign_create(
        user=table.outsider, name="Чужая", ruleset="dungeon_world"
    )
    from vtt.characters.models import Character

    stranger = Character.objects.create(
        campaign=outsider_campaign, ruleset="dungeon_world", name="Чужак"
    )
    with pytest.raises(Invalid):
        services.token_create(map=m, actor=table.referee, name="x", character_id=stranger.pk)


def test_hidden_npc_makes_a_hidden_token_by_default(scene, table):
    token = services.token_create(
        map=scene.map, actor=table.referee, name="Тень", character_id=scene.hidden_npc.pk
    )
    assert token.hidden


def test_delete_map_tells_players_it_is_off_the_table(scene, table):
    start = head(table)
    services.map_delete(map=scene.map, actor=table.referee)
    referee, players = split(events_after(table, start))
    assert [e.kind for e in referee] == ["map.deleted", "map.active"]
    assert [(e.kind, e.payload["map_id"]) for e in players] == [("map.active", None)]
    assert not Token.objects.exists()


def test_player_events_never_name_secrets(scene, table):
    services.fog_change(map=scene.map, actor=table.referee, reveal=True, cells=[[6, 6]])
    services.token_move(
        map=scene.map, actor=table.referee, role=Role.REFEREE,
        token_id=scene.hidden_token.pk, col=0, row=5,
    )  # fmt: skip
    text = " ".join(
        str(e.payload) for e in TableEvent.objects.filter(visibility__in=("everyone", "players"))
    )
    for secret in (HIDDEN_TOKEN, FOGGED_TOKEN, SECRET_NOTE, FOGGED_NOTE):
        assert secret not in text
    assert Membership.objects.filter(campaign=table.campaign).count() == 4
