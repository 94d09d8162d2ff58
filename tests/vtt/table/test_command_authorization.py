"""Every registered command, over the socket, refuses those its action is not for.

Generic over ``vtt.core.commands.REGISTRY``, so a command another app declares tomorrow is
covered the day it is registered: an observer's socket gets 403 (404 where the object is
hidden or does not exist for them) for every write, with empty parameters, so the refusal must
come before the body is validated, and the database is left exactly as it was. A removed
member gets 404 for every command; a role change answers the next command with the new role's
rights (and the socket still gets ``reauth`` and closes 4000).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.apps import apps

from tests.sockets import command, connect, hello, next_of
from vtt.campaigns import services as campaign_services
from vtt.core import commands
from vtt.core.commands import REGISTRY
from vtt.table.models import Roll

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

# Commands an observer may run (reads, should any be declared): refused or not, they must
# write nothing. Every other command is a write.
OBSERVER_MAY = frozenset[str]()
# An id nothing has: an argument the fixture below does not know names no object (404).
NOBODY = 2**31 - 1


def database_state() -> dict[str, list[tuple]]:
    """Every row of every table (the test database is small): equal before and after means
    nothing was written, updated or deleted."""
    state = {}
    for model in apps.get_models():
        if model._meta.label in ("sessions.Session",):
            continue
        rows = model.objects.order_by("pk").values_list()
        state[model._meta.label] = [tuple(map(repr, row)) for row in rows]
    return state


def known_objects(table) -> dict[str, Any]:
    """Objects of the campaign every member may see, by argument name: an observer is then
    refused for its role (403), not because the object is missing. Arguments not listed here
    get an id that names nothing (404)."""
    referee = table.referee
    frame = commands.run_frame
    made = frame(
        {"type": "command", "command": "roll", "key": "fx-roll", "params": {"notation": "1d6"}},
        user=referee,
        campaign_id=table.campaign.pk,
        language="en",
    )
    entry = frame(
        {
            "type": "command",
            "command": "initiative.add",
            "key": "fx-entry",
            "params": {"name": "Орк", "value": 3},
        },
        user=referee,
        campaign_id=table.campaign.pk,
        language="en",
    )
    return {
        "roll_id": made["result"]["roll_id"],
        "entry_id": entry["result"]["entries"][0]["id"],
    }


def args_for(name: str, objects: dict[str, Any]) -> dict[str, Any]:
    declared = REGISTRY[name].args
    return {
        arg: objects.get(arg, NOBODY) if kind is int else objects.get(arg, "x")
        for arg, kind in declared.items()
    }


def expected_refusals(name: str, objects: dict[str, Any]) -> set[int]:
    """403, or also 404 when an argument names an object the fixture does not provide."""
    if all(arg in objects for arg in REGISTRY[name].args):
        return {403}
    return {403, 404}


async def test_the_registry_holds_the_tables_commands():
    assert {"roll", "chat", "initiative.step", "clock"} <= set(REGISTRY)


async def test_an_observer_is_refused_every_write_and_nothing_is_written(table):
    objects = await sync_to_async(known_objects)(table)
    before = await sync_to_async(database_state)()
    watcher = await connect(table.observer, table.campaign.pk)
    await hello(watcher)
    wrong = []
    for n, name in enumerate(sorted(REGISTRY)):
        answer = await command(watcher, name, f"obs-{n}", params={}, args=args_for(name, objects))
        if name in OBSERVER_MAY:
            continue
        allowed = expected_refusals(name, objects)
        if answer["type"] != "error" or answer["status"] not in allowed:
            wrong.append(f"{name}: {answer.get('status')} {answer.get('code')} (want {allowed})")
    await watcher.disconnect()
    assert not wrong, "refused late or not at all:\n" + "\n".join(wrong)
    assert await sync_to_async(database_state)() == before


async def test_a_removed_member_is_refused_every_command(table):
    objects = await sync_to_async(known_objects)(table)
    await sync_to_async(campaign_services.member_remove)(
        campaign=table.campaign, user_id=table.player.pk
    )
    before = await sync_to_async(database_state)()
    wrong = []
    for n, name in enumerate(sorted(REGISTRY)):
        answer = await sync_to_async(commands.run_frame)(
            {
                "type": "command",
                "command": name,
                "key": f"gone-{n}",
                "params": {},
                "args": args_for(name, objects),
            },
            user=table.player,
            campaign_id=table.campaign.pk,
            language="en",
        )
        if answer["type"] != "error" or answer["status"] != 404:
            wrong.append(f"{name}: {answer.get('status')} {answer.get('code')}")
    assert not wrong, "a former member was not refused with 404:\n" + "\n".join(wrong)
    assert await sync_to_async(database_state)() == before


async def test_a_promotion_reaches_the_next_command(table):
    watcher = await connect(table.observer, table.campaign.pk)
    await hello(watcher)
    refused = await command(watcher, "roll", "p-1", {"notation": "1d6"})
    assert refused["status"] == 403
    await sync_to_async(campaign_services.member_set_role)(
        campaign=table.campaign, user_id=table.observer.pk, role="player"
    )
    assert (await next_of(watcher, "reauth"))["type"] == "reauth"
    assert await watcher.receive_output(timeout=5) == {"type": "websocket.close", "code": 4000}
    again = await connect(table.observer, table.campaign.pk)
    await hello(again)
    made = await command(again, "roll", "p-2", {"notation": "1d6"})
    assert made["type"] == "ack" and made["status"] == 201
    await again.disconnect()


async def test_a_demotion_refuses_the_next_command_even_before_the_socket_closes(table):
    pc = await connect(table.player, table.campaign.pk)
    await hello(pc)
    await sync_to_async(campaign_services.member_set_role)(
        campaign=table.campaign, user_id=table.player.pk, role="observer"
    )
    # sent at once: the socket may handle it before or after the role change's message, and
    # either way the command reads the membership afresh
    await pc.send_json_to(
        {"type": "command", "command": "roll", "key": "d-1", "params": {"notation": "1d6"}}
    )
    frames = []
    while True:
        output = await pc.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            assert output["code"] == 4000
            break
        frames.append(json.loads(output["text"]))
    answers = [f for f in frames if f.get("key") == "d-1"]
    assert all(f["type"] == "error" and f["status"] == 403 for f in answers)
    assert any(f["type"] == "reauth" for f in frames)
    assert await sync_to_async(Roll.objects.count)() == 0
