"""Table actions sent as socket commands: the same command, checks and answers as the API."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from tests.sockets import command, connect, hello, next_of
from vtt.campaigns import services as campaign_services
from vtt.table.models import Roll, TableEvent

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_a_roll_sent_on_the_socket_is_acked_and_reaches_the_table(table):
    gm = await connect(table.referee, table.campaign.pk)
    pc = await connect(table.player, table.campaign.pk)
    await hello(gm)
    await hello(pc)
    ack = await command(pc, "roll", "k-1", {"notation": "2d6+1", "label": "Удар"})
    assert ack["type"] == "ack" and ack["status"] == 201 and not ack["replayed"]
    assert ack["result"]["notation"] == "2d6+1" and 3 <= ack["result"]["total"] <= 13
    event = (await next_of(gm, "event"))["event"]
    assert event["kind"] == "roll" and event["payload"]["total"] == ack["result"]["total"]
    # the same key again: the first roll, never a second one
    again = await command(pc, "roll", "k-1", {"notation": "2d6+1", "label": "Удар"})
    assert again["type"] == "ack" and again["replayed"] and again["status"] == 200
    assert again["result"]["roll_id"] == ack["result"]["roll_id"]
    assert await sync_to_async(Roll.objects.count)() == 1
    await gm.disconnect()
    await pc.disconnect()


async def test_a_refused_command_answers_as_the_api_does_and_changes_nothing(table):
    pc = await connect(table.player, table.campaign.pk)
    await hello(pc)
    bad = await command(pc, "roll", "k-2", {"notation": "2d6+"})
    assert bad["type"] == "error" and bad["status"] == 400 and bad["message"]
    # referee-only command from a player: 403, in Russian (the default language)
    step = await command(pc, "initiative.step", "k-3", {"direction": "next"})
    assert step["status"] == 403 and "не разрешено" in step["message"]
    unknown = await command(pc, "no.such", "k-4")
    assert unknown["status"] == 400 and unknown["code"] == "unknown_command"
    no_key = await command(pc, "roll", "", {"notation": "1d6"})
    assert no_key["code"] == "bad_key"
    bad_args = await command(pc, "roll.reveal", "k-5", args={"roll_id": "x"})
    assert bad_args["code"] == "bad_args"
    field = await command(pc, "chat", "k-6", {"text": ""})
    assert field["status"] == 400 and "text" in field["fields"]
    assert await sync_to_async(TableEvent.objects.count)() == 0
    await pc.disconnect()


async def test_chat_with_a_key_posts_once(table):
    pc = await connect(table.player, table.campaign.pk)
    await hello(pc)
    first = await command(pc, "chat", "c-1", {"text": "привет"})
    again = await command(pc, "chat", "c-1", {"text": "привет"})
    assert first["status"] == 201 and again["replayed"]
    assert again["result"]["seq"] == first["result"]["seq"]
    assert await sync_to_async(TableEvent.objects.filter(kind="chat").count)() == 1
    await pc.disconnect()


async def test_a_removed_member_cannot_act_on_an_open_socket(table):
    pc = await connect(table.player, table.campaign.pk)
    await hello(pc)
    await sync_to_async(campaign_services.member_remove)(
        campaign=table.campaign, user_id=table.player.pk
    )
    # whether or not the removal frame came first, no roll is made
    await pc.send_json_to(
        {"type": "command", "command": "roll", "key": "r-1", "params": {"notation": "1d6"}}
    )
    frames = []
    try:
        while True:
            frames.append(await pc.receive_json_from(timeout=2))
    except Exception:
        pass
    assert await sync_to_async(Roll.objects.count)() == 0
    assert not any(f["type"] == "ack" for f in frames)


async def test_a_key_in_progress_is_refused_not_acted_twice(table):
    """The socket's copy of an action still running when the same key comes again by HTTP:
    409 in_progress, and the retry after it gets the first answer."""
    from django.core.cache import cache

    from vtt.core.commands import IN_PROGRESS

    pc = await connect(table.player, table.campaign.pk)
    await hello(pc)
    memo = f"cmd:chat:{table.player.pk}:busy-1"
    await sync_to_async(cache.set)(memo, IN_PROGRESS, 60)
    busy = await command(pc, "chat", "busy-1", {"text": "раз"})
    assert busy["status"] == 409 and busy["code"] == "in_progress"
    assert busy["data"]["retry_after"] == 1
    await sync_to_async(cache.delete)(memo)
    done = await command(pc, "chat", "busy-1", {"text": "раз"})
    assert done["status"] == 201
    again = await command(pc, "chat", "busy-1", {"text": "раз"})
    assert again["replayed"] and again["result"]["seq"] == done["result"]["seq"]
    # a refused command frees its key: the corrected retry acts
    refused = await command(pc, "chat", "k-empty", {"text": ""})
    assert refused["status"] == 400
    fixed = await command(pc, "chat", "k-empty", {"text": "два"})
    assert fixed["status"] == 201 and not fixed["replayed"]
    assert await sync_to_async(TableEvent.objects.filter(kind="chat").count)() == 2
    await pc.disconnect()
