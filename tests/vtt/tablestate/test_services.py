"""The table-wide rules state through its services: scripted shuffles give exact rounds, the
session hands out bennies, benny choices spend them, and what players get never holds the draw
pile."""

from __future__ import annotations

import json

import pytest

from systems.core.dice import ScriptedDice
from systems.savage_worlds import deck as dk
from vtt.characters import services as character_services
from vtt.characters.models import Character
from vtt.core.errors import Conflict, Invalid, ServiceError
from vtt.rulesets.savage_worlds import table_state as bennies
from vtt.table.models import TableEvent
from vtt.tablestate import selectors, services
from vtt.tablestate.models import TableState

from .conftest import sw_character


def deck_with_top(*top: str) -> list[str]:
    """A full deck whose first cards (the top of the draw pile) are ``top``."""
    return list(top) + [c for c in dk.full_deck() if c not in top]


def move(table, key, params=None, dice=None, role="referee", actor=None, version=None):
    return services.table_move(
        campaign=table.campaign,
        actor=actor or table.referee,
        role=role,
        move=key,
        params=params,
        dice=dice,
        version=version,
    )


@pytest.fixture
def cast(sw):
    """A (PC), B (PC), a pack of wolves (extras, one sheet) and a hidden villain (a wild card)."""
    a = sw_character(sw, user=sw.player, name="Аня")
    b = sw_character(sw, user=sw.other_player, name="Борис")
    wolves = sw_character(sw, name="Волки", kind="npc", wild_card=False)
    villain = sw_character(sw, name="Злодей", kind="npc", hidden=True, wild_card=True)
    return a, b, wolves, villain


def test_a_round_with_a_scripted_shuffle_gives_the_order_of_the_cards(sw, cast):
    """P1: K♠ (A), K♥ (B), Q♣ (wolves), joker (villain) → the villain may act any time with
    +2, then A, B, the wolves; the next deal shuffles first."""
    a, b, wolves, villain = cast
    order = deck_with_top("KS", "KH", "QC", "RJ")
    with ScriptedDice([], shuffles=[order]) as dice:
        move(sw, "start_combat", dice=dice)
    participants = [{"character_id": c.pk} for c in (a, b, wolves, villain)]
    ts, outcome = move(sw, "deal_round", {"participants": participants}, dice=ScriptedDice([]))
    assert outcome.details["round"] == 1 and outcome.flags["joker"] is True
    full = selectors.snapshot(ts, referee=True)
    assert [(e["name"], e["card"]) for e in full["order"]] == [
        ("Злодей", "RJ"),
        ("Аня", "KS"),
        ("Борис", "KH"),
        ("Волки", "QC"),
    ]
    joker = full["order"][0]
    assert joker["joker"] and joker["bonus"] == 2 and joker["hidden"]
    assert full["shuffle_due"] and full["joker_round"]
    # players see the same order without the hidden villain
    public = selectors.snapshot(ts, referee=False)
    assert [e["name"] for e in public["order"]] == ["Аня", "Борис", "Волки"]
    assert "Злодей" not in json.dumps(public, ensure_ascii=False)

    # a joker was dealt: the next round is dealt from a freshly shuffled deck
    second = deck_with_top("2C", "AS", "3D", "10H")
    with ScriptedDice([], shuffles=[second]) as dice:
        ts, outcome = move(sw, "deal_round", dice=dice)  # same participants as last time
    assert outcome.details["shuffled"] is True and outcome.details["round"] == 2
    full = selectors.snapshot(ts, referee=True)
    assert [(e["name"], e["card"]) for e in full["order"]] == [
        ("Борис", "AS"),
        ("Злодей", "10H"),
        ("Волки", "3D"),
        ("Аня", "2C"),
    ]
    assert not full["shuffle_due"]
    assert dk.check_deck(TableState.objects.get(pk=sw.campaign.pk).state["deck"]) == []
    events = TableEvent.objects.filter(kind="tablestate", payload__action="deal_round")
    assert [e.visibility for e in events] == ["players", "blind", "players", "blind"]
    assert all(e.payload["log"] for e in events)
    assert events[2].payload["data"] == {
        "round": 2,
        "shuffled": True,
        "joker": False,
        "joker_bennies": False,
    }


def test_suits_break_ties_spades_hearts_diamonds_clubs(sw):
    people = [sw_character(sw, name=n, kind="npc") for n in ("Трефа", "Бубна", "Черва", "Пика")]
    with ScriptedDice([], shuffles=[deck_with_top("9C", "9D", "9H", "9S")]) as dice:
        move(sw, "start_combat", dice=dice)
    ts, _out = move(sw, "deal_round", {"participants": [{"character_id": c.pk} for c in people]})
    names = [e["name"] for e in selectors.snapshot(ts, referee=False)["order"]]
    assert names == ["Пика", "Черва", "Бубна", "Трефа"]


def test_players_never_get_the_draw_pile(sw, cast, api_for):
    _a, _b, _wolves, _villain = cast
    order = deck_with_top("KS", "KH", "QC", "RJ")
    with ScriptedDice([], shuffles=[order]) as dice:
        move(sw, "start_combat", dice=dice)
    move(sw, "deal_round", {"participants": [{"character_id": c.pk} for c in cast]})
    visible_cards = {"KS", "KH", "QC"}  # the villain's joker is hidden
    url = f"/api/campaigns/{sw.campaign.pk}/"
    for user in (sw.player, sw.other_player, sw.observer):
        client = api_for(user)
        got = client.get(url + "table-state/").json()
        events = client.get(url + "events/?since=0&limit=1000").json()["events"]
        blob = json.dumps([got, events], ensure_ascii=False)
        assert "draw" not in got and "discard_count" not in got
        codes = {card for card in dk.full_deck() if f'"{card}"' in blob}
        assert codes <= visible_cards, codes - visible_cards
        assert "Злодей" not in blob
    referee = api_for(sw.referee).get(url + "table-state/").json()
    assert [e["card"] for e in referee["order"]] == ["RJ", "KS", "KH", "QC"]
    assert "draw" not in referee  # nobody needs the order of the draw pile
    assert referee["draw_count"] == 50


def test_session_hands_out_bennies_and_the_end_takes_them(sw, cast):
    _a, _b, _wolves, _villain = cast
    ts, _out = move(sw, "start_session")
    bennies = {c.name: c.state["bennies"] for c in Character.objects.all()}
    assert bennies == {"Аня": 3, "Борис": 3, "Волки": 0, "Злодей": 2}  # L77, L95
    assert ts.state["pool"] == 2  # one per player character (L93)
    assert ts.meta["session"] is True
    ts, _out = move(sw, "end_session")
    assert {c.state["bennies"] for c in Character.objects.all()} == {0}
    assert ts.state["pool"] == 0


def test_a_player_spends_a_benny_on_a_reroll_and_the_log_says_so(sw):
    ava = sw_character(sw, user=sw.player, name="Ава", bennies=2)
    # Agility d8: trait 2, wild 3 → 3, a failure; a benny is at hand, so the choice waits
    outcome, pending = character_services.move_make(
        character=ava,
        actor=sw.player,
        move="trait_check",
        params={"trait": "agility"},
        dice=ScriptedDice([2, 3]),
    )
    assert outcome.pending and pending is not None
    mine = selectors.snapshot_for(
        services.get_or_create_state(sw.campaign), user_id=sw.player.pk, role="player"
    )["mine"]
    assert mine[0]["pending"][0]["id"] == pending.pk
    assert {o["key"] for o in mine[0]["pending"][0]["options"]} == {"keep", "reroll"}
    # another player cannot spend her benny (a 403: the choice is not theirs)
    with pytest.raises(ServiceError) as refused:
        bennies.benny_choice(
            campaign=sw.campaign,
            actor=sw.other_player,
            role="player",
            character=ava,
            pending_id=pending.pk,
            choice="reroll",
            dice=ScriptedDice([6, 5, 4]),
        )
    assert refused.value.status == 403 and refused.value.code == "player_chooses"
    with ScriptedDice([8, 3, 4]) as dice:  # d8 aces: 8 + 3 = 11, wild 4
        outcome, follow, _ts = bennies.benny_choice(
            campaign=sw.campaign,
            actor=sw.player,
            role="player",
            character=ava,
            pending_id=pending.pk,
            choice="reroll",
            dice=dice,
        )
    ava.refresh_from_db()
    assert ava.state["bennies"] == 1
    assert outcome.total == 11 and follow is not None  # one benny left: may re-roll again
    spent = TableEvent.objects.get(kind="tablestate", payload__action="benny")
    assert spent.visibility == "everyone"
    assert spent.payload["data"]["name"] == "Ава" and spent.payload["data"]["source"] == "own"
    outcome, follow, _ts = bennies.benny_choice(
        campaign=sw.campaign,
        actor=sw.player,
        role="player",
        character=ava,
        pending_id=follow.pk,
        choice="keep",
    )
    assert follow is None and outcome.band in ("success", "raise")
    assert TableEvent.objects.filter(kind="tablestate", payload__action="benny").count() == 1


def test_a_pool_benny_comes_off_the_tables_pool(sw):
    orc = sw_character(sw, name="Орк", kind="npc", wild_card=False)
    move(sw, "adjust_pool", {"delta": 2})
    _outcome, pending = character_services.move_make(
        character=orc,
        actor=sw.referee,
        move="trait_check",
        params={"trait": "strength", "pool": bennies.pool(sw.campaign)},
        dice=ScriptedDice([1]),
    )
    assert {o["key"] for o in pending.outcome["options"]} == {"keep", "reroll_pool"}
    with pytest.raises(ServiceError) as refused:  # only the referee spends the pool
        bennies.benny_choice(
            campaign=sw.campaign,
            actor=sw.player,
            role="player",
            character=orc,
            pending_id=pending.pk,
            choice="reroll_pool",
        )
    assert refused.value.status == 403 and refused.value.code == "referee_chooses"
    _outcome, _follow, ts = bennies.benny_choice(
        campaign=sw.campaign,
        actor=sw.referee,
        role="referee",
        character=orc,
        pending_id=pending.pk,
        choice="reroll_pool",
        dice=ScriptedDice([3]),
    )
    assert ts.state["pool"] == 1
    spent = TableEvent.objects.filter(kind="tablestate", payload__action="benny").last()
    assert spent.payload["data"]["source"] == "pool"


def test_refusals_change_nothing(sw, cast):
    with pytest.raises(Conflict) as referee_only:
        move(sw, "deal_round", role="player", actor=sw.player)
    assert referee_only.value.status == 403
    move(sw, "start_combat")
    before = TableState.objects.get(pk=sw.campaign.pk)
    with pytest.raises(Conflict) as stale:
        move(sw, "deal_round", version=before.version - 1)
    assert stale.value.code == "stale_version"
    with pytest.raises(Invalid):
        move(sw, "deal_round", {"participants": [{"character_id": 999999}]})
    with pytest.raises(Invalid):
        move(sw, "deal_round", {"participants": []})
    with pytest.raises(Invalid):
        move(sw, "no_such_move")
    with pytest.raises(Invalid):
        move(sw, "adjust_pool", {"delta": 0})
    after = TableState.objects.get(pk=sw.campaign.pk)
    assert (after.version, after.state) == (before.version, before.state)


def test_named_groups_of_extras_get_one_card_and_can_be_hidden(sw, cast):
    a = cast[0]
    with ScriptedDice([], shuffles=[deck_with_top("5S", "AH", "7C")]) as dice:
        move(sw, "start_combat", dice=dice)
    participants = [
        {"character_id": a.pk},
        {"name": "Бандиты", "hidden": False},
        {"name": "Засада", "hidden": True},
    ]
    ts, _out = move(sw, "deal_round", {"participants": participants})
    public = selectors.snapshot(ts, referee=False)
    assert [(e["name"], e["card"], e["kind"]) for e in public["order"]] == [
        ("Бандиты", "AH", "group"),
        ("Аня", "5S", "pc"),
    ]
    full = selectors.snapshot(ts, referee=True)
    assert [e["name"] for e in full["order"]] == ["Бандиты", "Засада", "Аня"]
    assert {g["name"] for g in full["extras"]} == {"Бандиты", "Засада"}
    move(sw, "end_combat")
    ts = TableState.objects.get(pk=sw.campaign.pk)
    assert ts.state["deck"]["dealt"] == [] and ts.meta["combat"] is False


def test_the_players_deal_text_names_no_hidden_participant(sw, cast, api_for):
    """The rules' deal text lists every participant and card ("Раунд 1: c12 (Джокер),
    x:засада (7♣), ..."); a player's copy of the event must not name the hidden villain, the
    hidden group nor their cards. The referee's copy keeps the whole text."""
    a, b, _wolves, villain = cast
    with ScriptedDice([], shuffles=[deck_with_top("KS", "KH", "RJ", "7C")]) as dice:
        move(sw, "start_combat", dice=dice)
    participants = [
        {"character_id": a.pk},
        {"character_id": b.pk},
        {"character_id": villain.pk},
        {"name": "Засада", "hidden": True},
    ]
    move(sw, "deal_round", {"participants": participants})
    events = TableEvent.objects.filter(kind="tablestate", payload__action="deal_round")
    public = next(e for e in events if e.visibility == "players")
    full = next(e for e in events if e.visibility == "blind")
    # issue 18 item 9: the log names the participants instead of their ids ("c12")
    assert public.payload["outcome"]["text"] == {
        "ru": f"Раунд 1: {a.name} (К♠), {b.name} (К♥).",
        "en": f"Round 1: {a.name} (K♠), {b.name} (K♥).",
    }
    assert villain.name in full.payload["outcome"]["text"]["ru"]
    assert "Засада (7♣)" in full.payload["outcome"]["text"]["ru"]
    url = f"/api/campaigns/{sw.campaign.pk}/events/?since=0&limit=1000"
    blob = json.dumps(api_for(sw.player).get(url).json(), ensure_ascii=False).casefold()
    assert "засада" not in blob and villain.name.casefold() not in blob and "джокер" not in blob


def test_level_headed_draws_two_and_keeps_the_best(sw):
    cool = sw_character(
        sw,
        name="Хладнокровная",
        kind="npc",
        edges=[{"name": "Хладнокровие", "rule": "level_headed"}],
    )
    with ScriptedDice([], shuffles=[deck_with_top("3C", "QD")]) as dice:
        move(sw, "start_combat", dice=dice)
    ts, _out = move(sw, "deal_round", {"participants": [{"character_id": cool.pk}]})
    assert selectors.snapshot(ts, referee=True)["order"][0]["card"] == "QD"


# --- Tales: the battle record ----------------------------------------------------------------


def tales_character(table, *, user, name, tactics=0):
    from systems import get_ruleset

    state = get_ruleset("tales").default_state()
    state.update(stats={"str": 12, "dex": 12, "mind": 14}, hp=12, max_hp=12)
    if tactics:
        state["skills"] = [{"key": "tactics", "level": tactics, "detail": ""}]
    return character_services.character_create(
        campaign=table.campaign, actor=user, role="player", name=name, state=state
    )


def test_tales_battle_surprise_initiative_and_sides(tales):
    ts, out = move(tales, "surprise", {"unaware": "party"}, dice=ScriptedDice([3]))
    assert out.band == "failure" and ts.state["phase"] == "surprise"
    ts, out = move(tales, "initiative", dice=ScriptedDice([4, 4]))  # a tie: roll again
    assert out.band == "repeat" and ts.state["phase"] == "initiative"
    ts, out = move(tales, "initiative", dice=ScriptedDice([7, 3]))
    assert out.band == "party" and ts.state["current"] == "party" and ts.state["round"] == 1
    ts, _ = move(tales, "next_side")
    ts, _ = move(tales, "next_side")
    assert (ts.state["current"], ts.state["round"]) == ("party", 2)
    last = TableEvent.objects.filter(kind="tablestate").last()
    assert last.visibility == "everyone" and last.payload["snapshot"]["battle"]["round"] == 2
    ts, _ = move(tales, "reset_battle")
    assert ts.state["phase"] == "start" and ts.state["round"] == 0


def test_tales_tactics_by_its_player_only(tales):
    mine = tales_character(tales, user=tales.player, name="Тактик", tactics=2)
    with pytest.raises(Conflict):
        move(
            tales,
            "tactics",
            {"character_id": mine.pk},
            role="player",
            actor=tales.other_player,
            dice=ScriptedDice([1, 1]),
        )
    ts, out = move(
        tales,
        "tactics",
        {"character_id": mine.pk},
        role="player",
        actor=tales.player,
        dice=ScriptedDice([5, 6]),  # 11 ≤ Mind 14 + Tactics 2
    )
    assert out.band == "success" and ts.state["first"] == "party" and ts.state["tactics_tried"]
    with pytest.raises(Invalid):  # one try per battle
        move(tales, "tactics", {"character_id": mine.pk}, dice=ScriptedDice([1, 1]))
    ts, out = move(tales, "initiative", dice=ScriptedDice([]))  # no roll: tactics decided it
    assert out.band == "party" and ts.state["phase"] == "rounds"
