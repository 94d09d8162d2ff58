from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from systems import RULESET_KEYS
from vtt.accounts.models import User
from vtt.campaigns import demo_markers
from vtt.campaigns.models import Campaign, Invite, Membership, Role
from vtt.characters.models import Character
from vtt.maps.fog import Fog
from vtt.maps.models import Map, MapNote, Token
from vtt.prep.models import Dungeon, RandomTable, Room
from vtt.table.events import verify_chain
from vtt.table.models import InitiativeEntry, Roll, TableEvent

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    """The demo maps' backgrounds are files: keep them out of the working tree."""
    settings.MEDIA_ROOT = tmp_path / "media"


def test_seed_demo_is_idempotent_and_logins_work(settings, capsys):
    settings.DEBUG = True
    call_command("seed_demo")
    call_command("seed_demo")
    out = capsys.readouterr().out
    assert settings.DEMO_PASSWORD in out
    assert sorted(Campaign.objects.values_list("ruleset", flat=True)) == sorted(RULESET_KEYS)
    assert User.objects.count() == 3
    for campaign in Campaign.objects.all():
        roles = sorted(Membership.objects.filter(campaign=campaign).values_list("role", flat=True))
        assert roles == [Role.PLAYER, Role.PLAYER, Role.REFEREE]
    client = Client()
    assert client.login(username="alice", password=settings.DEMO_PASSWORD)
    page = client.get("/campaigns/").content.decode()
    assert page.count('class="card campaign"') == len(RULESET_KEYS)


def test_seed_demo_refuses_in_production(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError):
        call_command("seed_demo")
    assert not User.objects.exists()


# --- the referee's secrets in the demo data (issue 9: the browser tests scan for them) ---------

REFEREE_MARKERS = [
    value
    for name, value in vars(demo_markers).items()
    if isinstance(value, str) and name.isupper() and value.startswith(demo_markers.REFEREE)
]


@pytest.fixture
def seeded(settings):
    settings.DEBUG = True
    call_command("seed_demo")
    return {u.username: u for u in User.objects.all()}


def counts() -> dict[str, int]:
    return {
        "characters": Character.objects.count(),
        "maps": Map.objects.count(),
        "tokens": Token.objects.count(),
        "notes": MapNote.objects.count(),
        "entries": InitiativeEntry.objects.count(),
        "dungeons": Dungeon.objects.count(),
        "rooms": Room.objects.count(),
        "tables": RandomTable.objects.count(),
        "rolls": Roll.objects.count(),
        "events": TableEvent.objects.count(),
        "invites": Invite.objects.count(),
    }


def test_every_kind_of_hidden_data_holds_a_marker_in_every_campaign(seeded):
    for campaign in Campaign.objects.all():
        m = Map.objects.get(campaign=campaign, active=True)
        fog = Fog.for_map(m)
        hidden = Token.objects.get(map=m, name=demo_markers.TOKEN_HIDDEN)
        fogged = Token.objects.get(map=m, name=demo_markers.TOKEN_FOGGED)
        assert hidden.hidden and fog.is_revealed(hidden.col, hidden.row)
        assert not fogged.hidden and not fog.is_revealed(fogged.col, fogged.row)
        secret = MapNote.objects.get(map=m, text__startswith=demo_markers.MAP_NOTE_SECRET)
        assert secret.secret and fog.is_revealed(secret.col, secret.row)
        dark = MapNote.objects.get(map=m, text__startswith=demo_markers.MAP_NOTE_FOGGED)
        assert not dark.secret and not fog.is_revealed(dark.col, dark.row)
        assert m.background and 0 < fog.count() < m.width * m.height
        assert Map.objects.get(campaign=campaign, name=demo_markers.MAP_INACTIVE).active is False
        npc = Character.objects.get(campaign=campaign, name__startswith=demo_markers.NPC_HIDDEN)
        assert npc.hidden and npc.kind == "npc"
        keeper = Character.objects.get(
            campaign=campaign, state__notes__startswith=demo_markers.NPC_NOTES
        )
        assert keeper.kind == "npc" and not keeper.hidden
        owners = set(
            Character.objects.filter(campaign=campaign, kind="pc").values_list(
                "owner__username", flat=True
            )
        )
        assert owners == {"alice", "boris"}
        assert InitiativeEntry.objects.get(
            campaign=campaign, name__startswith=demo_markers.INITIATIVE_HIDDEN
        ).hidden
        room = Room.objects.get(dungeon__campaign=campaign, text__startswith=demo_markers.ROOM_TEXT)
        assert room.dungeon.name.startswith(demo_markers.DUNGEON)
        assert room.treasure[0].startswith(demo_markers.TREASURE)
        assert room.monsters.get().note.startswith(demo_markers.ROOM_MONSTER)
        omens = RandomTable.objects.get(campaign=campaign, key="secret-omens")
        assert omens.name.startswith(demo_markers.RANDOM_TABLE)
        labels = dict(Roll.objects.filter(campaign=campaign).values_list("label", "visibility"))
        assert labels[demo_markers.ROLL_REFEREE] == "referee"
        assert labels[demo_markers.ROLL_BLIND] == "blind"
        assert labels[demo_markers.BORIS_ROLL] == "referee"
        whisper = TableEvent.objects.get(
            campaign=campaign, payload__text__startswith=demo_markers.WHISPER_TO_BORIS
        )
        assert whisper.visibility == "whisper" and whisper.target.username == "boris"
        assert Invite.objects.filter(campaign=campaign).exists()
        assert verify_chain(campaign.pk)["ok"]
    crows = Campaign.objects.get(ruleset="crows")
    travel = Map.objects.get(campaign=crows, active=True)
    assert (travel.true_col, travel.true_row) != (travel.party_col, travel.party_row)
    assert TableEvent.objects.get(campaign=crows, kind="turn.encounter_check").visibility == "blind"


def test_seeding_again_adds_nothing(seeded, settings):
    before = counts()
    call_command("seed_demo")
    assert counts() == before


def test_a_player_sees_none_of_it(seeded, settings):
    """What the browser tests check in depth, here on the main reads: Alice gets no referee
    marker and none of Boris's private ones."""
    client = Client()
    client.force_login(seeded["alice"])
    forbidden = [*REFEREE_MARKERS, demo_markers.BORIS]
    for campaign in Campaign.objects.all():
        m = Map.objects.get(campaign=campaign, active=True)
        urls = [
            f"/campaigns/{campaign.pk}/",
            f"/campaigns/{campaign.pk}/table/",
            f"/campaigns/{campaign.pk}/characters/",
            f"/campaigns/{campaign.pk}/maps/panel/",
            f"/api/campaigns/{campaign.pk}/events/?since=0&limit=1000",
            f"/api/campaigns/{campaign.pk}/characters/",
            f"/api/campaigns/{campaign.pk}/initiative/",
            f"/api/campaigns/{campaign.pk}/maps/",
            f"/api/campaigns/{campaign.pk}/maps/{m.pk}/",
            f"/api/campaigns/{campaign.pk}/table-state/",
        ]
        for url in urls:
            response = client.get(url)
            assert response.status_code in (200, 404), (url, response.status_code)
            text = response.content.decode()
            decoded = re.sub(r"\\u([0-9a-fA-F]{4})", lambda g: chr(int(g.group(1), 16)), text)
            for marker in forbidden:
                assert marker.casefold() not in decoded.casefold(), (url, marker)
        for url in (
            f"/campaigns/{campaign.pk}/prep/",
            f"/api/campaigns/{campaign.pk}/prep/tables/",
        ):
            assert client.get(url).status_code in (403, 404), url


def test_demo_users_have_display_names(seeded):
    assert {u.username: u.display_name for u in seeded.values()} == {
        "referee": "Ведущий",
        "alice": "Алиса",
        "boris": "Борис",
    }


def test_dungeon_world_demo_characters_have_a_class_stats_and_class_moves(seeded):
    campaign = Campaign.objects.get(ruleset="dungeon_world")
    for pc in Character.objects.filter(campaign=campaign, kind="pc"):
        state = pc.state
        assert state["class_name"] in {"Маг", "Воин"}
        assert sorted(state["stats"].values()) == [8, 9, 12, 13, 15, 16]  # the standard array
        class_moves = [
            m["name"] for m in state["moves"] if m["source_class"] == state["class_name"]
        ]
        assert len(class_moves) >= 3
        assert state["max_hp"] == state["hp_base"] + state["stats"]["con"]
    wizard = Character.objects.get(campaign=campaign, state__class_name="Маг")
    assert "Сотворить заклинание" in [m["name"] for m in wizard.state["moves"]]
    assert wizard.state["spellbook"]


def test_crows_demo_characters_have_characteristics_and_gear_in_slots(seeded):
    campaign = Campaign.objects.get(ruleset="crows")
    for pc in Character.objects.filter(campaign=campaign, kind="pc"):
        state = pc.state
        assert any(state["characteristics"].values())
        assert state["expertises"]
        areas = {p["area"] for p in state["inventory"]["placed"]}
        assert {"hands", "belt", "backpack"} <= areas


def test_every_demo_dungeon_has_keyed_rooms_and_a_wired_encounter_table(seeded, client_for):
    for campaign in Campaign.objects.all():
        dungeon = Dungeon.objects.get(campaign=campaign)
        rooms = list(Room.objects.filter(dungeon=dungeon))
        assert len(rooms) >= 4 and all(r.key and r.name and r.text and r.cells for r in rooms)
        table = dungeon.encounter_table
        assert table is not None and table.campaign_id == campaign.pk
        html = (
            client_for(seeded["referee"])
            .get(reverse("prep_dungeon", args=[campaign.pk, dungeon.pk]))
            .content.decode()
        )
        assert "Встречи в склепе" in html and "Колокольня" in html


def test_every_demo_player_character_is_filled_in(seeded):
    from systems import get_ruleset

    for campaign in Campaign.objects.all():
        default = get_ruleset(campaign.ruleset).default_state()
        for pc in Character.objects.filter(campaign=campaign, kind="pc"):
            changed = {
                key
                for key in default
                if key not in ("name", "notes") and pc.state.get(key) != default[key]
            }
            assert len(changed) >= 3, (campaign.ruleset, pc.name, changed)
