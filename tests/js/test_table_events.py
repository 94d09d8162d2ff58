"""The table page's modules applying events (table.js's log and initiative, clock.js, moves.js,
map.js), in Chromium: the real page rendered by Django for a member, events made by the real
services (so their payloads are those vtt/table/kinds.py declares and ``publish`` checks), fed
to the page as the socket's ``event`` frames."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from systems.core.dice import ScriptedDice
from vtt.table import services
from vtt.table.events import wire
from vtt.table.models import TableEvent

pytestmark = pytest.mark.django_db


class TablePage:
    """A member's table page in the browser, and the socket frames it is fed."""

    def __init__(self, page, campaign, head: int) -> None:
        self.page = page
        self.campaign = campaign
        self.position = head

    def feed(self, event: TableEvent, prev: int | None = None) -> None:
        """One ``event`` frame (vtt/table/consumers.py), through socket.js's handler."""
        frame = {"type": "event", "prev": self.position if prev is None else prev}
        frame["event"] = json.loads(json.dumps(wire(event)))
        self.page.evaluate(
            "async (frame) => (await import('/static/js/table.js')).table.handleFrame(frame)",
            frame,
        )
        if prev is None or prev <= self.position:
            self.position = max(self.position, event.seq)

    def feed_new(self) -> list[TableEvent]:
        """Every event after the page's position a player may see (not the referee's blind
        copies), as the socket sends them."""
        events = TableEvent.objects.filter(campaign=self.campaign, seq__gt=self.position)
        fed = [e for e in events.order_by("seq") if e.visibility != "blind"]
        for event in fed:
            self.feed(event)
        return fed

    def entry(self, event: TableEvent):
        return self.page.locator(f"#log-list li[data-seq='{event.seq}']")

    def latest(self) -> TableEvent:
        return TableEvent.objects.filter(campaign=self.campaign).order_by("-seq").first()


@pytest.fixture
def table_page(open_page, serve):
    """``table_page(table, user)``: the table page as ``user`` sees it, in Russian."""

    def _open(table, user) -> TablePage:
        client = Client()
        client.force_login(user)
        response = client.get(reverse("table", args=[table.campaign.pk]))
        assert response.status_code == 200
        path = f"/table/{table.campaign.pk}/{user.pk}.html"
        serve.page(path, response.content)
        catalogue = client.get(reverse("javascript-catalogue", args=["ru"])).content
        serve.page("/jsi18n/ru/", catalogue, "text/javascript")
        page = open_page(path)
        page.wait_for_function("async () => (await import('/static/js/table.js')).table !== null")
        head = TableEvent.objects.filter(campaign=table.campaign).order_by("-seq").first()
        return TablePage(page, table.campaign, head.seq if head else 0)

    return _open


def scripted_roll(table, actor, notation: str, faces: list[int], **extra) -> None:
    services.roll_create(
        campaign=table.campaign, actor=actor, notation=notation, dice=ScriptedDice(faces), **extra
    )


def test_a_roll_and_a_chat_line_join_the_log_in_order(table, table_page):
    tp = table_page(table, table.player)
    scripted_roll(table, table.player, "2d6+1", [3, 4], label="Атака")
    roll = tp.latest()
    services.chat_post(campaign=table.campaign, actor=table.referee, text="Гоблины близко")
    chat = tp.latest()
    tp.feed(roll)
    tp.feed(chat)

    entry = tp.entry(roll)
    assert entry.get_attribute("data-kind") == "roll"
    assert "(вы)" in entry.locator(".who").inner_text()  # the player's own roll
    assert "8" in entry.inner_text() and "Атака" in entry.inner_text()
    assert tp.entry(chat).locator(".chat-text").inner_text() == "Гоблины близко"
    seqs = tp.page.eval_on_selector_all("#log-list li", "(lis) => lis.map((li) => li.dataset.seq)")
    assert seqs[-2:] == [str(roll.seq), str(chat.seq)]
    assert tp.page.locator("#log-empty").is_hidden()


def test_an_event_seen_twice_is_shown_once_and_a_gap_is_not_applied(table, table_page):
    tp = table_page(table, table.player)
    services.chat_post(campaign=table.campaign, actor=table.referee, text="раз")
    first = tp.latest()
    tp.feed(first)
    tp.feed(first)  # a replay overlapping the live stream
    assert tp.page.locator("#log-list li[data-kind='chat']").count() == 1
    services.chat_post(campaign=table.campaign, actor=table.referee, text="два")
    services.chat_post(campaign=table.campaign, actor=table.referee, text="три")
    third = tp.latest()
    tp.feed(third, prev=third.seq - 1)  # "два" never arrived: ask for a replay, show nothing
    assert tp.entry(third).count() == 0
    assert tp.page.locator("#log-list li[data-kind='chat']").count() == 1


def test_a_whisper_is_marked_for_its_reader(table, table_page):
    tp = table_page(table, table.player)
    services.chat_post(
        campaign=table.campaign,
        actor=table.referee,
        text="Только тебе",
        visibility="whisper",
        target_id=table.player.pk,
    )
    whisper = tp.latest()
    tp.feed(whisper)
    entry = tp.entry(whisper)
    assert "vis-whisper" in entry.get_attribute("class")
    assert "шёпот вам" in entry.locator(".vis").inner_text()


def test_the_initiative_event_redraws_the_tracker(table, table_page):
    tp = table_page(table, table.player)
    services.initiative_add(
        campaign=table.campaign, actor=table.referee, role="referee", name="Гоблин", value=12
    )
    services.initiative_add(
        campaign=table.campaign,
        actor=table.referee,
        role="referee",
        name="Тень",
        value=20,
        hidden=True,
    )
    # the players' copy of the snapshot, without the hidden entry
    players = (
        TableEvent.objects.filter(campaign=table.campaign, kind="initiative")
        .exclude(visibility="blind")
        .order_by("-seq")
        .first()
    )
    tp.feed_new()
    names = tp.page.locator("#init-list li").all_inner_texts()
    assert any("Гоблин" in name for name in names)
    assert not any("Тень" in name for name in names)
    assert players.payload["entries"][0]["name"] == "Гоблин"


def test_the_clock_module_draws_the_clock_and_its_log_entries(table, table_page):
    from datetime import timedelta

    from django.utils import timezone

    from vtt.table import clock as dungeon_clock
    from vtt.table.models import DungeonClock

    table.campaign.ruleset = "crows"  # the dungeon turn is a Crows rule
    table.campaign.save(update_fields=["ruleset"])
    tp = table_page(table, table.player)
    dungeon_clock.clock_start(campaign=table.campaign, actor=table.referee)
    started = tp.latest()
    assert started.kind == "clock"
    tp.feed_new()
    assert tp.page.locator("#clock-turn").inner_text() == "Ход 1"
    assert tp.page.locator("#clock-state").inner_text() == "идут"
    assert tp.entry(started).inner_text().count("Часы подземелья: ход 1, идут.") == 1

    DungeonClock.objects.filter(campaign=table.campaign).update(
        deadline=timezone.now() - timedelta(seconds=1)
    )
    assert dungeon_clock.end_turn(table.campaign.pk, 1) == dungeon_clock.ENDED
    tp.feed_new()
    ended = TableEvent.objects.get(campaign=table.campaign, kind="turn.ended")
    assert "Ход подземелья 1 окончен." in tp.entry(ended).inner_text()
    assert tp.page.locator("#clock-turn").inner_text() == "Ход 2"  # the next turn's snapshot
    results = TableEvent.objects.filter(campaign=table.campaign, kind__startswith="turn.").exclude(
        kind="turn.ended"
    )
    shown = [e for e in results if e.visibility != "blind"]
    assert shown and all(tp.entry(e).count() == 1 for e in shown)
    assert not tp.page.locator("#clock-results").is_hidden()
    assert not [e for e in tp.page.errors if e.startswith("pageerror")]


def test_moves_module_shows_a_move_its_choice_and_the_resolution(table, table_page, serve):
    from rest_framework.test import APIClient

    from vtt.characters import services as characters

    fighter = characters.character_create(
        campaign=table.campaign,
        actor=table.player,
        role="player",
        name="Ава",
        state={
            "stats": {"str": 16, "dex": 13, "con": 12, "int": 9, "wis": 10, "cha": 8},
            "damage_die": "d10",
            "hp": 20,
            "max_hp": 20,
            "ammo": 3,
        },
    )
    # moves.js asks the API whose sheets these are (the real answer, served to the page)
    api = APIClient()
    api.force_authenticate(table.player)
    list_url = reverse("api-characters", args=[table.campaign.pk])
    serve.page(list_url, api.get(list_url).content, "application/json")
    tp = table_page(table, table.player)

    outcome, pending = characters.move_make(
        character=fighter, actor=table.player, move="volley", dice=ScriptedDice([3, 3])
    )
    assert outcome.band == "7-9" and pending is not None
    tp.feed_new()
    move = TableEvent.objects.get(campaign=table.campaign, kind="move")
    entry = tp.entry(move)
    assert entry.locator(".move-char").inner_text() == "Ава"
    assert entry.get_attribute("data-pending-id") == str(pending.pk)
    assert "7–9" in entry.inner_text()  # the band as players write it
    buttons = entry.locator(".choices button")
    buttons.first.wait_for()
    assert buttons.count() >= 2  # her own choice: one button per option

    characters.move_choose(pending=pending, actor=table.player, role="player", choices=["ammo"])
    tp.feed_new()
    assert "is-resolved" in entry.get_attribute("class")
    assert entry.locator(".resolved-mark").inner_text() == "✓ выбор сделан"
    assert not [e for e in tp.page.errors if e.startswith("pageerror")]


def test_map_module_follows_token_events(table, table_page):
    from vtt.maps import services as maps

    m = maps.map_create(
        campaign=table.campaign, actor=table.referee, name="Склеп", width=10, height=10
    )
    maps.map_activate(campaign=table.campaign, actor=table.referee, map_id=m.pk)
    maps.fog_change(map=m, actor=table.referee, reveal=True, rect=[0, 0, 4, 9])
    tp = table_page(table, table.player)
    assert tp.page.evaluate("() => Object.keys(window.VTTMap.tokens()).length") == 0

    guard = maps.token_create(map=m, actor=table.referee, name="Стражник", col=3, row=3)
    maps.token_create(map=m, actor=table.referee, name="Гоблин в тумане", col=8, row=8)
    fed = tp.feed_new()
    assert {e.kind for e in fed} == {"map.token"}
    tokens = tp.page.evaluate("() => Object.values(window.VTTMap.tokens())")
    assert [(t["name"], t["col"], t["row"]) for t in tokens] == [("Стражник", 3, 3)]
    assert tp.entry(fed[0]).count() == 0  # map events are drawn on the map, not in the log

    maps.token_move(
        map=m, actor=table.referee, role="referee", token_id=guard.pk, col=4, row=2, path=None
    )
    tp.feed_new()
    moved = tp.page.evaluate(f"() => window.VTTMap.tokens()[{guard.pk}]")
    assert (moved["col"], moved["row"]) == (4, 2)


def test_deck_module_shows_the_dealt_order_without_hidden_sheets(table, table_page):
    from systems.savage_worlds import deck as cards
    from vtt.characters import services as characters
    from vtt.tablestate import services as tablestate

    table.campaign.ruleset = "savage_worlds"
    table.campaign.save(update_fields=["ruleset"])
    traits = {
        "attributes": {k: "d6" for k in ("agility", "smarts", "spirit", "strength", "vigor")},
        "skills": [{"key": "fighting", "name": "Драка", "die": "d8"}],
    }

    def sheet(name, user=None, **extra):
        return characters.character_create(
            campaign=table.campaign,
            actor=user or table.referee,
            role="player" if user else "referee",
            name=name,
            kind="npc" if user is None else "pc",
            state={**traits, **({"role": "npc"} if user is None else {})},
            **extra,
        )

    cast = [sheet("Аня", table.player), sheet("Борис", table.other_player)]
    cast.append(sheet("Злодей", hidden=True))
    tp = table_page(table, table.player)
    top = ["KS", "KH", "QC"]
    deck = top + [c for c in cards.full_deck() if c not in top]

    def move(key, params=None, dice=None):
        tablestate.table_move(
            campaign=table.campaign,
            actor=table.referee,
            role="referee",
            move=key,
            params=params,
            dice=dice or ScriptedDice([]),
        )

    move("start_combat", dice=ScriptedDice([], shuffles=[deck]))
    move("deal_round", {"participants": [{"character_id": c.pk} for c in cast]})
    fed = tp.feed_new()
    assert "tablestate" in {e.kind for e in fed}
    body = tp.page.locator("#ts-body")
    body.get_by_text("Борис").first.wait_for()
    text = body.inner_text()
    assert text.index("Аня") < text.index("Борис")
    assert "Злодей" not in text  # the hidden villain's card is the referee's
    assert "1" in tp.page.locator("#ts-round").inner_text()
    assert not [e for e in tp.page.errors if e.startswith("pageerror")]
