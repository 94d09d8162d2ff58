"""The Crows travel day end to end through the API, on a flat-topped hex map
(vtt/rulesets/crows/travel.py).

The referee opens the day, assigns roles, checks for an encounter and moves the party; the
players make their own role checks. The guide (Reason −5, fast pace) takes a shortcut, so the
party gets lost (a T1 on 2d10 − 7 unless a 19–20 crit; the test starts new days until it does),
then wanders on hidden d6 rolls. From the players' side (their API answers, ``/events`` and the
socket's frames) nothing secret may show: no encounter roll, no drift roll, no true hex while
lost. Then the party finds its way, faces the Miasma after its rest, and arrives at a dungeon,
which starts dungeon turns with the day's threshold.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from systems import get_ruleset
from systems.core.dice import ScriptedDice
from systems.crows.dungeon import encounter_threshold
from tests.helpers import session_cookie
from vtt.campaigns import services as campaign_services
from vtt.campaigns.models import Membership, Role
from vtt.characters import services as character_services
from vtt.characters.models import Character
from vtt.maps import services as map_services
from vtt.routing import websocket_urlpatterns
from vtt.rulesets.crows import travel
from vtt.table.models import DungeonClock, TableEvent

RS = get_ruleset("crows")
SECRET_KEYS = {"referee_only", "encounters", "drift", "true"}


def sheet(name: str, reason: int = 0, agility: int = 0) -> dict:
    state = RS.default_state()
    state["name"] = name
    state["characteristics"] = {"agility": agility, "reason": reason, "strength": 0}
    return RS.validate_state(state)


def client(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


class Journey:
    """A Crows campaign on the road: Ава (alice's, the guide) and Бран (boris's, the scout)."""

    def __init__(self, table):
        self.table = table
        ref = table.referee
        self.campaign = campaign_services.campaign_create(user=ref, name="Путь", ruleset="crows")
        for user, role in (
            (table.player, Role.PLAYER),
            (table.other_player, Role.PLAYER),
            (table.observer, Role.OBSERVER),
        ):
            Membership.objects.create(campaign=self.campaign, user=user, role=role)

        def pc(owner, state):
            return character_services.character_create(
                campaign=self.campaign,
                actor=ref,
                role="referee",
                name=state["name"],
                state=state,
                owner_id=owner.pk,
            )

        self.guide = pc(table.player, sheet("Ава", reason=-5))
        self.scout = pc(table.other_player, sheet("Бран", agility=2))
        self.map = map_services.map_create(
            campaign=self.campaign, actor=ref, name="Пустоши", kind="hex", width=15, height=15
        )
        map_services.map_activate(campaign=self.campaign, actor=ref, map_id=self.map.pk)
        self.gm, self.alice = client(ref), client(table.player)
        self.boris, self.watcher = client(table.other_player), client(table.observer)

    def url(self, step: str = "") -> str:
        base = f"/api/campaigns/{self.campaign.pk}/maps/{self.map.pk}/travel/"
        return base + (f"{step}/" if step else "")

    def step(self, who: APIClient, step: str, body: dict | None = None, status: int = 200):
        response = who.post(self.url(step), body or {}, format="json")
        assert response.status_code == status, (step, response.status_code, response.content)
        return response.json()


def events_for(c: APIClient, campaign_id: int) -> list[dict[str, Any]]:
    out, since = [], 0
    while True:
        page = c.get(f"/api/campaigns/{campaign_id}/events/?since={since}&limit=500").json()
        out += page["events"]
        if not page["more"]:
            return out
        since = page["cursor"]


def assert_nothing_secret(payload: Any, true_cell: list[int] | None, lost: bool) -> None:
    """Walk a payload a player received: no secret keys anywhere; no hex while lost."""
    if isinstance(payload, dict):
        assert not (SECRET_KEYS & set(payload)), sorted(SECRET_KEYS & set(payload))
        if "travel" in payload and isinstance(payload["travel"], dict) and lost:
            assert payload["travel"]["hex"] is None
        for value in payload.values():
            assert_nothing_secret(value, true_cell, lost)
    elif isinstance(payload, list):
        for value in payload:
            assert_nothing_secret(value, true_cell, lost)


def get_lost(j: Journey, max_days: int = 8) -> dict[str, Any]:
    """New days until the guide's shortcut fails (L1066: ≤11 → lost)."""
    for _ in range(max_days):
        j.step(j.gm, "day", {"pace": "fast"})
        j.step(
            j.gm,
            "roles",
            {
                "roles": [
                    {"character_id": j.guide.pk, "task": "shortcut"},
                    {"character_id": j.scout.pk, "task": "watch_for_danger"},
                ]
            },
        )
        made = j.step(j.alice, "role", {"character_id": j.guide.pk, "task": "shortcut"}, status=201)
        if made["outcome"]["flags"]["lost"]:
            return made
    pytest.fail("the guide never failed")


def run_journey(j: Journey) -> dict[str, Any]:
    """The whole day through the API; returns what the test checks afterwards."""
    # the party on the map (the referee's Party tool), then set out
    party = j.gm.post(
        f"/api/campaigns/{j.campaign.pk}/maps/{j.map.pk}/party/",
        {"shown": [7, 7], "true": [7, 7], "reveal": 1},
        format="json",
    )
    assert party.status_code == 200
    begun = j.step(j.gm, "begin")
    assert begun["travel"]["hex"] == {"q": 7, "r": 4} and not begun["travel"]["lost"]
    lost = get_lost(j)
    assert lost["travel"]["hex"] is None and lost["travel"]["lost"]  # alice's own answer
    assert "pending" not in lost["outcome"]["details"]
    scout = j.step(
        j.boris, "role", {"character_id": j.scout.pk, "task": "watch_for_danger"}, status=201
    )
    assert scout["travel"]["hex"] is None
    encounter = j.step(j.gm, "encounter", {"kind": "travel"})
    assert 1 <= encounter["referee_only"]["roll"] <= 10
    moved = j.step(j.gm, "move", {"directions": ["n", "n", "n"]})
    assert moved["step"]["position"] == "unknown"
    drift = moved["referee_only"]["drift"]
    assert len(drift) == moved["travel"]["hexes"] and all(1 <= d["roll"] <= 6 for d in drift)
    true_cell = moved["referee_only"]["hex"]
    m = j.map
    m.refresh_from_db()
    assert [m.true_col, m.true_row] == true_cell and m.party_col is None
    # issue 18 item 9: the referee's line names the directions in the reader's language
    lost_line = TableEvent.objects.filter(kind="travel", visibility="blind").last()
    text = lost_line.payload["text"]
    assert re.search(r"\d \((С|СВ|ЮВ|Ю|ЮЗ|СЗ)\)", text["ru"]), text
    assert re.search(r"\d \((N|NE|SE|S|SW|NW)\)", text["en"]), text
    return {"true_cell": true_cell, "encounter": encounter, "drift": drift}


@pytest.fixture
def journey(table) -> Journey:
    return Journey(table)


def test_refusals_change_nothing(journey, api_for):
    j = journey
    assert j.alice.post(j.url("day"), {}, format="json").status_code == 403
    assert api_for(j.table.outsider).post(j.url("day"), {}, format="json").status_code == 404
    assert j.gm.post(j.url("fly"), {}, format="json").status_code == 404
    j.step(j.gm, "begin", status=400)  # nobody on the map yet
    assert j.step(j.gm, "day", status=409)["code"] == "not_travelling"
    j.gm.post(
        f"/api/campaigns/{j.campaign.pk}/maps/{j.map.pk}/party/", {"true": [2, 2]}, format="json"
    )
    j.step(j.gm, "begin")
    j.step(j.gm, "day", {"pace": "sprint"}, status=400)
    j.step(j.gm, "day", {"pace": "normal"})
    j.step(j.gm, "roles", {"roles": [{"character_id": 99999, "task": "forage"}]}, status=400)
    j.step(j.gm, "roles", {"roles": [{"character_id": j.guide.pk, "task": "hunt"}]})
    before = TableEvent.objects.count()
    body = {"character_id": j.guide.pk, "task": "hunt"}
    assert j.boris.post(j.url("role"), body, format="json").status_code == 403  # not his
    assert j.watcher.post(j.url("role"), body, format="json").status_code == 403
    wrong = j.alice.post(
        j.url("role"), {"character_id": j.guide.pk, "task": "forage"}, format="json"
    )
    assert wrong.status_code == 400 and wrong.json()["code"] == "no_role"
    none = j.boris.post(
        j.url("role"), {"character_id": j.scout.pk, "task": "forage"}, format="json"
    )
    assert none.status_code == 400
    # the sheet's generic move endpoint cannot make a role check with a made-up travel state
    generic = j.alice.post(
        f"/api/characters/{j.guide.pk}/moves/travel_role/",
        {"params": {"travel_task": "hunt", "travel": {}}},
        format="json",
    )
    assert generic.status_code == 400 and generic.json()["code"] == "routed_move"
    assert TableEvent.objects.count() == before
    hexes = map_services.map_create(
        campaign=j.campaign, actor=j.table.referee, name="Острые", kind="hex", orientation="pointy"
    )
    pointy = j.gm.post(
        f"/api/campaigns/{j.campaign.pk}/maps/{hexes.pk}/travel/day/", {}, format="json"
    )
    assert pointy.status_code == 400 and pointy.json()["code"] == "not_travel_map"


def test_the_players_never_see_hidden_rolls_or_the_true_position(journey):
    j = journey
    found = run_journey(j)
    true_cell = found["true_cell"]
    # their API answers: the travel state and the map
    for c in (j.alice, j.boris, j.watcher):
        view = c.get(j.url()).json()
        assert view["audience"] == "players" and view["travel"]["lost"]
        assert_nothing_secret(view, true_cell, lost=True)
        state = c.get(f"/api/campaigns/{j.campaign.pk}/maps/{j.map.pk}/").json()
        assert state["party"] == {"shown": None}
    referee_view = j.gm.get(j.url()).json()
    assert referee_view["travel"]["drift"] and referee_view["travel"]["encounters"]
    # /events: the referee's copies (with the rolls) never reach a player
    theirs = events_for(j.alice, j.campaign.pk)
    ours = events_for(j.gm, j.campaign.pk)
    blind = {e["seq"] for e in ours if e["visibility"] == "blind"}
    assert blind and not blind & {e["seq"] for e in theirs}
    lost_since = None
    for e in theirs:
        payload = e["payload"]
        if e["kind"] == "travel":
            assert payload["audience"] == "players"
            if payload["travel"] and payload["travel"]["lost"] and lost_since is None:
                lost_since = e["seq"]
        if e["kind"] == "map.party":
            assert set(payload) <= {"map_id", "shown", "audience"}
        if e["kind"] == "move.details":
            pytest.fail("a player got a move's details")
        assert_nothing_secret(payload, true_cell, lost=lost_since is not None)
    kinds = [e["payload"]["type"] for e in theirs if e["kind"] == "travel"]
    assert "travel_encounter_check" in kinds and "travel_moved" in kinds
    check = next(
        e
        for e in theirs
        if e["kind"] == "travel" and e["payload"]["type"] == "travel_encounter_check"
    )
    assert check["payload"]["hidden"] and "roll" not in json.dumps(check["payload"])
    moved = [e for e in theirs if e["kind"] == "travel" and e["payload"]["type"] == "travel_moved"]
    assert moved[-1]["payload"]["position"] == "unknown"
    # the role checks' rolls are everyone's (digest §2.7 step 5)
    rolls = [
        e
        for e in theirs
        if e["kind"] == "move" and e["payload"]["outcome"]["move"] == "travel_role"
    ]
    assert len(rolls) >= 2 and all(len(r["payload"]["outcome"]["faces"]) == 2 for r in rolls)
    referee_moved = [
        e
        for e in ours
        if e["kind"] == "travel"
        and e["payload"].get("type") == "travel_moved"
        and e["payload"]["audience"] == "referee"
    ]
    assert referee_moved[-1]["payload"]["referee_only"]["hex"] == true_cell


def test_found_again_then_miasma_then_arrival_switches_to_dungeon_turns(journey):
    j = journey
    found = run_journey(j)
    back = j.step(j.gm, "found")
    assert not back["travel"]["lost"]
    view = j.alice.get(j.url()).json()["travel"]
    assert view["hex"] == view["seen_hex"] and view["hex"] is not None
    state = j.alice.get(f"/api/campaigns/{j.campaign.pk}/maps/{j.map.pk}/").json()
    assert state["party"]["shown"] == found["true_cell"]
    # the Miasma after the rest: every person's save is public; the referee resolves them
    saves = j.step(j.gm, "miasma")
    assert {s["name"] for s in saves["saves"]} == {"Ава", "Бран"}
    assert j.alice.post(j.url("miasma_resolve"), {}, format="json").status_code == 403
    resolved = j.step(j.gm, "miasma_resolve", {"choices": {}})
    assert {r["name"] for r in resolved["results"]} == {"Ава", "Бран"}
    for r in resolved["results"]:
        tier = next(s["tier"] for s in saves["saves"] if s["name"] == r["name"])
        if tier == 1:
            assert r["cruelty"] >= 1 and r["miasma"]  # L1170: +1 cruelty and a table roll
    j.step(j.gm, "miasma_resolve", status=409)  # once a day
    arrived = j.step(j.gm, "arrive", {"place": "Склеп"})
    threshold = arrived["travel"]["travel_threshold"]
    row = DungeonClock.objects.get(campaign=j.campaign)
    assert row.ruleset_state["in_dungeon"] and row.ruleset_state["dungeon"] == "Склеп"
    assert row.state == "running" and row.turn == 1
    assert encounter_threshold(row.ruleset_state) == threshold  # L1204: the day's threshold


def test_a_choice_made_later_is_replayed_onto_the_day(journey):
    """Make camp 17+ asks its roller to choose (L1022): the choice, made through the sheet's
    pending endpoint, changes the campaign's day; a second check meanwhile is not lost."""
    j = journey
    j.gm.post(
        f"/api/campaigns/{j.campaign.pk}/maps/{j.map.pk}/party/", {"true": [3, 3]}, format="json"
    )
    j.step(j.gm, "begin")
    j.step(j.gm, "day", {"pace": "normal"})
    j.step(
        j.gm,
        "roles",
        {
            "roles": [
                {"character_id": j.guide.pk, "task": "make_camp"},
                {"character_id": j.scout.pk, "task": "find_shelter"},
            ]
        },
    )
    _outcome, pending = travel.role_check(
        map=j.map,
        actor=j.table.player,
        role="player",
        character_id=j.guide.pk,
        task="make_camp",
        dice=ScriptedDice([10, 10]),  # crit → T3: choose rest threshold +2 or crafting +4
    )
    assert pending is not None and pending.chooser == "player"
    before = travel.current_travel(j.campaign)
    assert before["rest_threshold"] == 7
    travel.role_check(
        map=j.map,
        actor=j.table.other_player,
        role="player",
        character_id=j.scout.pk,
        task="find_shelter",
        dice=ScriptedDice([9, 9]),  # 18 → T3: rest threshold +2
    )
    assert travel.current_travel(j.campaign)["rest_threshold"] == 9
    url = f"/api/characters/{j.guide.pk}/pending/{pending.pk}/"
    chose = j.alice.post(url, {"choices": ["rest_threshold"]}, format="json")
    assert chose.status_code == 200, chose.content
    after = travel.current_travel(j.campaign)
    assert after["rest_threshold"] == 10  # 7 + 2 + 2 = 11, capped at 10 (L1198)
    assert all(r["done"] for r in after["roles"])
    assert Character.objects.get(pk=j.guide.pk).version >= 1


# --- the socket -------------------------------------------------------------------------------

application = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))


async def _connect(user, campaign_id: int) -> tuple[WebsocketCommunicator, int]:
    cookie = await sync_to_async(session_cookie)(user)
    comm = WebsocketCommunicator(
        application,
        f"/ws/campaigns/{campaign_id}/",
        headers=[(b"origin", b"http://localhost"), (b"cookie", cookie.encode())],
    )
    connected, _ = await comm.connect()
    assert connected
    assert (await comm.receive_json_from())["type"] == "welcome"
    await comm.send_json_to({"type": "hello", "last_seq": 0})
    replay = await comm.receive_json_from()
    assert replay["type"] == "replay"
    return comm, replay["cursor"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_players_socket_carries_nothing_secret(table):
    j = await sync_to_async(Journey)(table)
    player, head = await _connect(table.player, j.campaign.pk)
    found = await sync_to_async(run_journey)(j)
    theirs = await sync_to_async(events_for)(j.alice, j.campaign.pk)
    last = theirs[-1]["seq"]
    frames: list[dict[str, Any]] = []
    seen = 0
    while seen < last:  # every frame up to the last event this player may see
        frame = await player.receive_json_from(timeout=10)
        frames.append(frame)
        if frame["type"] == "event":
            seen = frame["event"]["seq"]
        elif frame["type"] == "replay" and frame["events"]:
            seen = frame["events"][-1]["seq"]
    events = [f["event"] for f in frames if f["type"] == "event"]
    events += [e for f in frames if f["type"] == "replay" for e in f["events"]]
    assert {e["seq"] for e in events} == {e["seq"] for e in theirs if e["seq"] > head}
    assert any(e["kind"] == "travel" for e in events)
    assert all(e["visibility"] != "blind" for e in events)
    for e in events:
        assert_nothing_secret(e["payload"], found["true_cell"], lost=False)
        if e["kind"] == "travel" and e["payload"]["travel"] and e["payload"]["travel"]["lost"]:
            assert e["payload"]["travel"]["hex"] is None
    # a late joiner's replay is filtered the same way
    late, _head = await _connect(table.other_player, j.campaign.pk)
    await late.send_json_to({"type": "replay", "since": 0})
    replay = await late.receive_json_from(timeout=2)
    assert replay["type"] == "replay" and replay["events"]
    for e in replay["events"]:
        assert e["visibility"] != "blind"
        assert_nothing_secret(e["payload"], found["true_cell"], lost=False)
    await player.disconnect()
    await late.disconnect()
