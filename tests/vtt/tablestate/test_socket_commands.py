"""The Savage Worlds deck and bennies as socket commands: the same checks and answers as the
table-state API, and one deal per idempotency key."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async

from systems.core.dice import ScriptedDice
from tests.sockets import command, connect, events_until_chat
from tests.vtt.characters.test_socket_commands import event_of, hello
from vtt.campaigns import services as campaign_services
from vtt.characters import services as character_services
from vtt.table.models import TableEvent
from vtt.table.services import chat_post

from .conftest import sw_character

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _started() -> int:
    return TableEvent.objects.filter(
        kind="tablestate", payload__action="start_combat", visibility="players"
    ).count()


async def test_a_deal_over_the_socket_reaches_the_table_once_per_key(sw):
    await sync_to_async(sw_character)(sw, user=sw.player, name="Ава")
    gm = await connect(sw.referee, sw.campaign.pk)
    pc = await connect(sw.player, sw.campaign.pk)
    await hello(gm)
    await hello(pc)
    ack = await command(gm, "deck.move", "d-1", {}, {"move": "start_combat"})
    assert ack["type"] == "ack" and ack["status"] == 200 and not ack["replayed"]
    assert ack["result"]["version"] >= 1 and "mine" in ack["result"]
    assert "state" not in (ack["result"]["outcome"] or {})  # never the deck itself
    event = await event_of(pc, "tablestate")
    assert event["payload"]["action"] == "start_combat"
    again = await command(gm, "deck.move", "d-1", {}, {"move": "start_combat"})
    assert again["replayed"] and again["result"]["version"] == ack["result"]["version"]
    assert await sync_to_async(_started)() == 1
    # a stale version, as over HTTP: 409 with its code, and nothing dealt
    stale = await command(gm, "deck.move", "d-2", {"version": 0}, {"move": "deal_round"})
    assert stale["type"] == "error" and stale["status"] == 409
    assert stale["code"] == "stale_version"
    await gm.disconnect()
    await pc.disconnect()


async def test_deck_refusals_answer_as_the_api_does(sw):
    pc = await connect(sw.player, sw.campaign.pk)
    await hello(pc)
    dealt = await command(pc, "deck.move", "r-1", {}, {"move": "deal_round"})
    assert dealt["type"] == "error" and dealt["status"] == 403 and dealt["message"]
    unknown = await command(pc, "deck.move", "r-2", {}, {"move": "no_such_move"})
    assert unknown["status"] == 400
    no_args = await command(pc, "deck.move", "r-3", {})
    assert no_args["code"] == "bad_args"
    await pc.disconnect()


async def test_a_benny_spent_over_the_socket(sw):
    def waiting():
        ava = sw_character(sw, user=sw.player, name="Ава", bennies=3)
        _outcome, pending = character_services.move_make(
            character=ava,
            actor=sw.player,
            move="trait_check",
            params={"trait": "agility"},
            dice=ScriptedDice([2, 3]),
        )
        return ava, pending

    ava, pending = await sync_to_async(waiting)()
    gm = await connect(sw.referee, sw.campaign.pk)
    other = await connect(sw.other_player, sw.campaign.pk)
    pc = await connect(sw.player, sw.campaign.pk)
    for comm in (gm, other, pc):
        await hello(comm)
    body = {"character_id": ava.pk, "pending_id": pending.pk, "choice": "reroll"}
    theirs = await command(other, "deck.choice", "b-1", body)
    assert theirs["type"] == "error" and theirs["status"] == 403
    made = await command(pc, "deck.choice", "b-2", body)
    assert made["type"] == "ack" and made["result"]["character"]["state"]["bennies"] == 2
    event = await event_of(gm, "tablestate")
    assert event["payload"]["action"] == "benny"
    again = await command(pc, "deck.choice", "b-2", body)
    assert again["replayed"] and again["result"]["character"]["state"]["bennies"] == 2
    spent = await command(pc, "deck.choice", "b-3", body)  # a new key: that choice is made
    assert spent["status"] == 409
    for comm in (gm, other, pc):
        await comm.disconnect()


async def test_a_sheet_of_another_campaign_is_refused_as_over_http(sw):
    def elsewhere():
        campaign = campaign_services.campaign_create(
            user=sw.referee, name="Другая", ruleset="savage_worlds"
        )
        return character_services.character_create(
            campaign=campaign,
            actor=sw.referee,
            role="referee",
            name="Бо",
            kind="npc",
            state={"role": "npc"},
        )

    theirs = await sync_to_async(elsewhere)()
    gm = await connect(sw.referee, sw.campaign.pk)
    await hello(gm)
    body = {"character_id": theirs.pk, "pending_id": 1, "choice": "keep"}
    refused = await command(gm, "deck.choice", "o-1", body)
    # the campaign is the socket's, as it is the path's over HTTP: no such character in it
    assert refused["type"] == "error" and refused["status"] == 400
    assert refused["code"] == "no_character"
    await gm.disconnect()


async def test_each_table_state_change_reaches_each_socket_once(sw):
    """Issue 19: a change whose referee view differs (a hidden NPC) reaches the referee's
    socket as one full copy and a player's as one public copy, each with its log line."""
    await sync_to_async(sw_character)(sw, user=sw.player, name="Ава")
    villain = await sync_to_async(sw_character)(sw, name="Злодей", kind="npc", hidden=True)
    gm = await connect(sw.referee, sw.campaign.pk)  # sends; ``watch`` reads what arrives
    watch = await connect(sw.referee, sw.campaign.pk)
    pc = await connect(sw.player, sw.campaign.pk)
    for comm in (gm, watch, pc):
        await hello(comm)
    ack = await command(gm, "deck.move", "s-1", {}, {"move": "start_combat"})
    assert ack["status"] == 200
    participants = [{"character_id": villain.pk}, {"name": "Засада", "hidden": True}]
    dealt = await command(
        gm, "deck.move", "s-2", {"participants": participants}, {"move": "deal_round"}
    )
    assert dealt["status"] == 200
    await sync_to_async(chat_post)(campaign=sw.campaign, actor=sw.referee, text="конец")
    referee = await events_until_chat(watch)
    player = await events_until_chat(pc)
    assert [(e["payload"]["action"], e["visibility"]) for e in referee] == [
        ("start_combat", "blind"),
        ("deal_round", "blind"),
    ]
    assert [(e["payload"]["action"], e["visibility"]) for e in player] == [
        ("start_combat", "players"),
        ("deal_round", "players"),
    ]
    assert all(e["payload"]["log"] for e in referee + player)
    assert "Злодей" in json.dumps(referee[-1], ensure_ascii=False)
    for event in player:
        blob = json.dumps(event, ensure_ascii=False)
        assert "Злодей" not in blob and "Засада" not in blob
    for comm in (gm, watch, pc):
        await comm.disconnect()
