"""The table socket with WebsocketCommunicator: visibility, replay, bad frames, removal."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async

from systems.core.dice import ScriptedDice
from tests.sockets import connect, events_until_chat, hello, next_of
from vtt.campaigns import services as campaign_services
from vtt.table import services
from vtt.table.models import Visibility as V

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def roll(table, user, notation="2d6", visibility=V.EVERYONE, faces=(3, 4), **kw):
    return await sync_to_async(services.roll_create)(
        campaign=table.campaign,
        actor=user,
        notation=notation,
        visibility=visibility,
        dice=ScriptedDice(list(faces)),
        **kw,
    )


async def test_public_roll_reaches_everyone_with_faces(table):
    gm = await connect(table.referee, table.campaign.pk)
    pc = await connect(table.player, table.campaign.pk)
    await hello(gm)
    await hello(pc)
    await roll(table, table.player, "2d6+1", faces=(3, 5))
    for comm in (gm, pc):
        frame = await next_of(comm, "event")
        event = frame["event"]
        assert frame["prev"] == 0 and event["seq"] == 1
        assert event["kind"] == "roll" and event["payload"]["total"] == 9
        assert event["payload"]["terms"][0]["faces"] == [3, 5]
        assert event["actor"]["id"] == table.player.pk
    await gm.disconnect()
    await pc.disconnect()


async def test_visibility_whisper_referee_blind(table):
    socks = {}
    for role in ("referee", "player", "other_player", "observer"):
        socks[role] = await connect(getattr(table, role), table.campaign.pk)
        await hello(socks[role])
    await roll(table, table.player, visibility=V.WHISPER, target_id=table.other_player.pk)
    await roll(table, table.player, visibility=V.REFEREE)
    await roll(table, table.player, visibility=V.BLIND)
    await roll(table, table.referee, visibility=V.EVERYONE)

    async def kinds(comm):
        seen = []
        while True:
            frame = await next_of(comm, "event")
            seen.append((frame["event"]["seq"], frame["event"]["kind"]))
            if frame["event"]["seq"] == 6:
                return seen

    # seq: 1 whisper, 2 referee roll, 3 its commitment, 4 blind roll, 5 commitment, 6 public
    assert await kinds(socks["referee"]) == [
        (2, "roll"),
        (3, "roll.hidden"),
        (4, "roll"),
        (5, "roll.hidden"),
        (6, "roll"),
    ]
    assert await kinds(socks["player"]) == [
        (1, "roll"),
        (2, "roll"),
        (3, "roll.hidden"),
        (5, "roll.hidden"),
        (6, "roll"),
    ]
    assert await kinds(socks["other_player"]) == [
        (1, "roll"),
        (3, "roll.hidden"),
        (5, "roll.hidden"),
        (6, "roll"),
    ]
    assert await kinds(socks["observer"]) == [(3, "roll.hidden"), (5, "roll.hidden"), (6, "roll")]
    for comm in socks.values():
        await comm.disconnect()


async def test_hidden_roll_commitment_then_reveal_verifies(table):
    import hashlib

    pc = await connect(table.player, table.campaign.pk)
    await hello(pc)
    hidden, _ = await roll(table, table.referee, "1d20", visibility=V.REFEREE, faces=(17,))
    commit = (await next_of(pc, "event"))["event"]
    assert commit["kind"] == "roll.hidden"
    assert set(commit["payload"]) == {"roll_id", "commitment", "visibility"}  # no result
    await sync_to_async(services.roll_reveal)(campaign=table.campaign, roll_id=hidden.pk)
    reveal = (await next_of(pc, "event"))["event"]
    preimage = reveal["payload"]["preimage"]
    assert hashlib.sha256(preimage.encode()).hexdigest() == commit["payload"]["commitment"]
    assert json.loads(preimage)["roll"]["total"] == 17
    await pc.disconnect()


async def test_outsider_and_anonymous_are_closed_with_4403(table):
    for user in (table.outsider, None):
        comm = await connect(user, table.campaign.pk)
        closed = await comm.receive_output(timeout=2)
        assert closed == {"type": "websocket.close", "code": 4403}


async def test_reconnect_replays_missed_events_once_in_order(table):
    pc = await connect(table.player, table.campaign.pk)
    await hello(pc)
    await roll(table, table.player)
    first = await next_of(pc, "event")
    assert first["event"]["seq"] == 1
    await pc.disconnect()
    for _ in range(5):  # published while the player was away
        await roll(table, table.referee)
    await roll(table, table.referee, visibility=V.BLIND)  # seq 7 hidden, 8 commitment
    back = await connect(table.player, table.campaign.pk)
    replay = await hello(back, last_seq=1)
    assert replay["after"] == 1 and replay["cursor"] == 8
    assert [e["seq"] for e in replay["events"]] == [2, 3, 4, 5, 6, 8]
    await roll(table, table.player)
    live = await next_of(back, "event")
    assert live["prev"] == 8 and live["event"]["seq"] == 9
    # an explicit replay request returns the same events again, for a browser that lost them
    await back.send_json_to({"type": "replay", "since": 5})
    again = await next_of(back, "replay")
    assert [e["seq"] for e in again["events"]] == [6, 8, 9]
    await back.disconnect()


async def test_server_fills_a_gap_left_by_the_channel_layer(table):
    """A group message that never arrives is fetched from the database before the next one."""
    pc = await connect(table.player, table.campaign.pk)
    await hello(pc)

    original = services.push
    dropped = []

    def lossy(campaign_id, message):
        if message["seq"] == 2:
            dropped.append(message["seq"])
            return
        original(campaign_id, message)

    services.push = lossy
    try:
        for _ in range(3):
            await roll(table, table.referee)
    finally:
        services.push = original
    assert dropped == [2]
    got = []
    while len(got) < 3:
        frame = await pc.receive_json_from(timeout=2)
        if frame["type"] == "replay":
            got += [e["seq"] for e in frame["events"]]
        elif frame["type"] == "event":
            got.append(frame["event"]["seq"])
    assert got == [1, 2, 3]
    await pc.disconnect()


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("{not json", "bad_json"),
        ('["a list"]', "bad_frame"),
        ('{"type": "roll", "notation": "2d6"}', "unknown_type"),
        ('{"type": "hello", "last_seq": -1}', "bad_seq"),
        ('{"type": "x", "pad": "' + "я" * 9000 + '"}', "too_large"),
    ],
)
async def test_bad_frames_get_an_error_and_the_socket_stays_open(table, raw, code):
    pc = await connect(table.player, table.campaign.pk)
    await pc.receive_json_from()  # welcome
    await pc.send_to(text_data=raw)
    error = await pc.receive_json_from()
    assert error == {"type": "error", "code": code, "message": error["message"]}
    assert error["message"]
    await pc.send_json_to({"type": "ping", "t": 1})
    assert await next_of(pc, "pong") == {"type": "pong", "t": 1}
    await pc.disconnect()


async def test_removed_member_is_disconnected_at_once(table):
    pc = await connect(table.player, table.campaign.pk)
    await hello(pc)
    await sync_to_async(campaign_services.member_remove)(
        campaign=table.campaign, user_id=table.player.pk
    )
    error = await next_of(pc, "error")
    assert error["code"] == "removed"
    assert await pc.receive_output(timeout=2) == {"type": "websocket.close", "code": 4403}


async def next_presence(comm, op: str) -> dict:
    """The next presence frame of ``op``. On the pub/sub layer a join published just before
    another socket subscribed may still reach it (it answers "here"): extra presence frames,
    never a missing one."""
    while True:
        frame = await next_of(comm, "presence")
        if frame["op"] == op:
            return frame


async def test_presence_join_and_leave(table):
    gm = await connect(table.referee, table.campaign.pk)
    await hello(gm)
    pc = await connect(table.player, table.campaign.pk)
    await hello(pc)
    joined = await next_presence(gm, "join")
    assert joined["user"]["id"] == table.player.pk
    here = await next_presence(pc, "here")  # the referee answers the newcomer's join
    assert here["user"]["id"] == table.referee.pk
    await pc.disconnect()
    left = await next_presence(gm, "leave")
    assert left["user"]["id"] == table.player.pk
    await gm.disconnect()


async def test_events_a_player_may_not_see_leave_no_gap_in_prev(table):
    """``prev`` is the browser's own position: a referee-only event in between must not look
    like a missed event (which would cost every player a replay after each one)."""
    pc = await connect(table.player, table.campaign.pk)
    start = (await hello(pc))["cursor"]
    for _ in range(2):  # referee-only events (as a token's referee copy is)
        await sync_to_async(services.publish)(
            campaign=table.campaign,
            kind="chat",
            payload={"text": "секрет"},
            actor=table.referee,
            visibility=V.REFEREE,
        )
    public, _ = await roll(table, table.referee)
    frame = await next_of(pc, "event")
    assert frame["event"]["payload"]["roll_id"] == public.pk
    assert frame["prev"] == start  # the two hidden events are not a gap for this player
    after, _ = await roll(table, table.player)
    frame = await next_of(pc, "event")
    assert frame["event"]["payload"]["roll_id"] == after.pk
    assert frame["prev"] == frame["event"]["seq"] - 1
    await pc.disconnect()


async def test_one_append_of_several_events_arrives_in_order_once(table):
    """A token move appends its referee copy and players' copy together (here after a chat
    line) and pushes them as one channel-layer message: each browser gets, in order, the
    events of it meant for it, and only its own copy of the token."""
    gm = await connect(table.referee, table.campaign.pk)
    pc = await connect(table.player, table.campaign.pk)
    await hello(gm)
    start = (await hello(pc))["cursor"]

    def token(audience: str) -> dict:
        return {"map_id": 1, "token": {"id": 1, "who": audience}, "audience": audience}

    await sync_to_async(services.publish_many)(
        campaign=table.campaign,
        events=[
            services.Draft("chat", {"text": "сейчас"}),
            services.Draft("map.token", token("referee"), V.BLIND),
            services.Draft("map.token", token("players"), V.PLAYERS),
        ],
        actor=table.referee,
    )
    first, second = await next_of(gm, "event"), await next_of(gm, "event")
    assert first["event"]["kind"] == "chat"
    assert second["event"]["payload"]["audience"] == "referee"
    assert second["event"]["seq"] == first["event"]["seq"] + 1
    first = await next_of(pc, "event")
    assert first["event"]["kind"] == "chat"
    assert first["prev"] == start
    frame = await next_of(pc, "event")
    assert frame["event"]["payload"]["audience"] == "players"
    assert frame["prev"] == first["event"]["seq"]
    later, _ = await roll(table, table.player)
    frame = await next_of(pc, "event")  # nothing else came in between
    assert frame["event"]["payload"]["roll_id"] == later.pk
    frame = await next_of(gm, "event")  # the referee never got the players' copy
    assert frame["event"]["payload"]["roll_id"] == later.pk
    assert frame["prev"] == second["event"]["seq"]
    await gm.disconnect()
    await pc.disconnect()


@pytest.mark.parametrize(
    ("language", "expected"), [("ru", "Сначала отправьте hello."), ("en", "Send hello first.")]
)
async def test_error_frames_speak_the_users_language(table, language, expected):
    table.player.language = language
    await sync_to_async(table.player.save)(update_fields=["language"])
    pc = await connect(table.player, table.campaign.pk)
    assert (await pc.receive_json_from())["type"] == "welcome"
    await pc.send_json_to({"type": "replay", "since": 0})
    frame = await next_of(pc, "error")
    assert (frame["code"], frame["message"]) == ("not_ready", expected)
    await pc.disconnect()


async def test_each_initiative_change_reaches_each_socket_once(table):
    """Issue 19: the referee's and the players' copies are audiences. With a hidden entry the
    referee's socket gets only the full copy, a player's only the copy without it; with none
    hidden, one copy for everyone."""
    gm = await connect(table.referee, table.campaign.pk)
    pc = await connect(table.player, table.campaign.pk)
    await hello(gm)
    await hello(pc)
    c = table.campaign
    add = sync_to_async(services.initiative_add)
    await add(campaign=c, actor=table.player, role="player", name="Алиса", value=12)
    await add(campaign=c, actor=table.referee, role="referee", name="Тайный убийца", hidden=True)
    await sync_to_async(services.initiative_step)(campaign=c, actor=table.referee, direction=1)
    await sync_to_async(services.chat_post)(campaign=c, actor=table.referee, text="конец")
    referee = await events_until_chat(gm)
    player = await events_until_chat(pc)
    assert [e["kind"] for e in referee] == ["initiative"] * 3
    assert [e["kind"] for e in player] == ["initiative"] * 3
    assert [e["visibility"] for e in referee] == ["everyone", "blind", "blind"]
    assert [e["visibility"] for e in player] == ["everyone", "players", "players"]
    assert [e["name"] for e in referee[-1]["payload"]["entries"]] == ["Алиса", "Тайный убийца"]
    for event in player:
        assert "Тайный убийца" not in json.dumps(event, ensure_ascii=False)
    await gm.disconnect()
    await pc.disconnect()
