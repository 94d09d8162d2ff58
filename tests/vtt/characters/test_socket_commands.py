"""The character sheet's actions as socket commands: the same checks and answers as the API,
and a sheet of another campaign than the socket's is not found there."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from systems.core.dice import ScriptedDice
from tests.sockets import command, connect, next_of
from vtt.campaigns import services as campaign_services
from vtt.campaigns.models import Membership, Role
from vtt.characters import services
from vtt.characters.models import Character, PendingMove
from vtt.table.models import TableEvent

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

STATS = {"str": 16, "dex": 13, "con": 12, "int": 9, "wis": 10, "cha": 8}


def _pc(campaign, owner, name="Ава") -> Character:
    return services.character_create(
        campaign=campaign,
        actor=owner,
        role="player",
        name=name,
        state={"stats": STATS, "damage_die": "d10", "hp": 20, "max_hp": 20, "ammo": 3},
    )


@pytest.fixture
def fighter(table):
    return _pc(table.campaign, table.player)


async def hello(comm, last_seq: int = 0) -> None:
    """Start following the table (presence frames of the others may come first)."""
    await next_of(comm, "welcome")
    await comm.send_json_to({"type": "hello", "last_seq": last_seq})
    await next_of(comm, "replay")


async def event_of(comm, kind: str) -> dict:
    """The next event of this kind the socket delivers (a move publishes a few)."""
    while True:
        event = (await next_of(comm, "event"))["event"]
        if event["kind"] == kind:
            return event


def _count(kind: str) -> int:
    return TableEvent.objects.filter(kind=kind).count()


async def test_a_move_over_the_socket_is_acked_and_reaches_the_table(table, fighter):
    gm = await connect(table.referee, table.campaign.pk)
    pc = await connect(table.player, table.campaign.pk)
    await hello(gm)
    await hello(pc)
    args = {"cid": fighter.pk, "move": "defy_danger"}
    params = {"params": {"approach": "agility"}}
    ack = await command(pc, "character.move", "m-1", params, args)
    assert ack["type"] == "ack" and ack["status"] == 201 and not ack["replayed"]
    assert ack["result"]["outcome"]["band"] in {"10+", "7-9", "6-"}
    assert ack["result"]["character"]["id"] == fighter.pk
    event = await event_of(gm, "move")
    assert event["payload"]["character_id"] == fighter.pk
    # the same key again: the first answer, never a second move
    again = await command(pc, "character.move", "m-1", params, args)
    assert again["type"] == "ack" and again["replayed"] and again["status"] == 200
    assert again["result"]["outcome"] == ack["result"]["outcome"]
    assert await sync_to_async(_count)("move") == 1
    await gm.disconnect()
    await pc.disconnect()


async def test_move_refusals_answer_as_the_api_does(table, fighter):
    other = await connect(table.other_player, table.campaign.pk)
    pc = await connect(table.player, table.campaign.pk)
    await hello(other)
    await hello(pc)
    args = {"cid": fighter.pk, "move": "defy_danger"}
    params = {"params": {"approach": "agility"}}
    theirs = await command(other, "character.move", "r-1", params, args)
    assert theirs["type"] == "error" and theirs["status"] == 403
    unknown = await command(pc, "character.move", "r-2", {}, {**args, "move": "no_such_move"})
    assert unknown["status"] == 400 and unknown["message"]
    missing = await command(pc, "character.move", "r-3", params, {"cid": fighter.pk})
    assert missing["code"] == "bad_args"
    nobody = await command(pc, "character.move", "r-4", params, {**args, "cid": 999999})
    assert nobody["status"] == 404
    assert await sync_to_async(_count)("move") == 0
    await other.disconnect()
    await pc.disconnect()


async def test_a_sheet_of_another_campaign_is_not_found_on_this_socket(table, api_for):
    def elsewhere() -> Character:
        campaign = campaign_services.campaign_create(
            user=table.referee, name="Другая", ruleset="dungeon_world"
        )
        Membership.objects.create(campaign=campaign, user=table.player, role=Role.PLAYER)
        return _pc(campaign, table.player, "Бо")

    theirs = await sync_to_async(elsewhere)()
    pc = await connect(table.player, table.campaign.pk)
    await hello(pc)
    params = {"params": {"approach": "agility"}}
    move = await command(
        pc, "character.move", "x-1", params, {"cid": theirs.pk, "move": "defy_danger"}
    )
    assert move["type"] == "error" and move["status"] == 404 and move["code"] == "not_found"
    update = await command(
        pc, "character.update", "x-2", {"state": theirs.state, "version": 1}, {"cid": theirs.pk}
    )
    assert update["status"] == 404
    revert = await command(pc, "character.revert", "x-3", {"version": 1}, {"cid": theirs.pk})
    assert revert["status"] == 404
    assert await sync_to_async(_count)("move") == 0
    await pc.disconnect()
    # the same move by HTTP (no campaign in the path) is the player's to make
    made = await sync_to_async(
        lambda: api_for(table.player).post(
            f"/api/characters/{theirs.pk}/moves/defy_danger/", params, format="json"
        )
    )()
    assert made.status_code == 201


async def test_a_choice_over_the_socket_resolves_the_move(table, fighter):
    _outcome, pending = await sync_to_async(services.move_make)(
        character=fighter, actor=table.player, move="volley", dice=ScriptedDice([3, 3])
    )
    gm = await connect(table.referee, table.campaign.pk)
    other = await connect(table.other_player, table.campaign.pk)
    pc = await connect(table.player, table.campaign.pk)
    for comm in (gm, other, pc):
        await hello(comm)
    args = {"cid": fighter.pk, "pending_id": pending.pk}
    # another player: the 403 the API gives, before the answer is read
    refused = await command(other, "character.choice", "c-1", {"choices": "junk"}, args)
    assert refused["status"] == 403 and refused["code"] == "player_chooses"
    bad = await command(pc, "character.choice", "c-2", {"choices": ["nonsense"]}, args)
    assert bad["status"] == 400
    made = await command(pc, "character.choice", "c-3", {"choices": ["ammo"]}, args)
    assert made["type"] == "ack" and made["status"] == 200
    await event_of(gm, "move")
    assert await sync_to_async(
        lambda: PendingMove.objects.get(pk=pending.pk).resolved_at is not None
    )()
    again = await command(pc, "character.choice", "c-3", {"choices": ["ammo"]}, args)
    assert again["replayed"] and again["result"] == made["result"]
    for comm in (gm, other, pc):
        await comm.disconnect()


async def test_sheet_edit_and_revert_over_the_socket_keep_the_409(table, fighter):
    gm = await connect(table.referee, table.campaign.pk)
    pc = await connect(table.player, table.campaign.pk)
    await hello(gm)
    await hello(pc)
    args = {"cid": fighter.pk}
    saved = await command(
        pc, "character.update", "u-1", {"state": {**fighter.state, "xp": 3}, "version": 1}, args
    )
    assert saved["type"] == "ack" and saved["result"]["version"] == 2
    event = await event_of(gm, "character.updated")
    assert event["payload"]["character_id"] == fighter.pk
    stale = await command(
        gm, "character.update", "u-2", {"state": {**fighter.state, "xp": 9}, "version": 1}, args
    )
    assert stale["type"] == "error" and stale["status"] == 409
    assert stale["code"] == "stale_version" and stale["data"]["version"] == 2
    assert stale["data"]["state"]["xp"] == 3
    hidden = await command(
        pc,
        "character.update",
        "u-3",
        {"state": fighter.state, "version": 2, "hidden": True},
        args,
    )
    assert hidden["status"] == 400 and hidden["code"] == "hidden_referee_only"
    reverted = await command(pc, "character.revert", "u-4", {"version": 1}, args)
    assert reverted["type"] == "ack" and reverted["result"]["version"] == 3
    assert reverted["result"]["state"]["xp"] == fighter.state.get("xp", 0)
    observer = await connect(table.observer, table.campaign.pk)
    await hello(observer)
    watched = await command(observer, "character.revert", "u-5", {"version": 2}, args)
    assert watched["status"] == 403
    await observer.disconnect()
    await gm.disconnect()
    await pc.disconnect()


async def test_a_party_move_over_the_socket(table):
    def camp() -> list[Character]:
        return [_pc(table.campaign, table.player, "Ава"), _pc(table.campaign, table.player, "Сю")]

    ava, cy = await sync_to_async(camp)()
    gm = await connect(table.referee, table.campaign.pk)
    pc = await connect(table.player, table.campaign.pk)
    other = await connect(table.other_player, table.campaign.pk)
    for comm in (gm, pc, other):
        await hello(comm)
    body = {"character_ids": [ava.pk, cy.pk], "params": {"watcher": ava.pk}}
    # another player names this player's watcher: 403, whatever the body's other fields say
    refused = await command(
        other, "party.move", "p-1", {**body, "character_ids": "junk"}, {"move": "take_watch"}
    )
    assert refused["type"] == "error" and refused["status"] == 403
    made = await command(pc, "party.move", "p-2", body, {"move": "take_watch"})
    assert made["type"] == "ack" and made["status"] == 201
    await event_of(gm, "move")
    again = await command(pc, "party.move", "p-2", body, {"move": "take_watch"})
    assert again["replayed"]
    assert await sync_to_async(_count)("move") == 1
    for comm in (gm, pc, other):
        await comm.disconnect()
