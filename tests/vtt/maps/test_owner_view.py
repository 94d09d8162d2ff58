"""Issue 18 review: what each player's browser holds of a map follows the one per-viewer rule
(``selectors.token_visible``) through live events as well as through the snapshot.

Each viewer's socket is read through the real consumer and channel layer; its tokens start
from the viewer's own map state and follow the map events as static/js/map.js applies them.
After every step of the referee (or the player) the result must equal a fresh snapshot for
that viewer, so a stale token (one the viewer may no longer see) or a missing one fails.

- the referee relinks or unlinks a player character's token under the fog: its former owner
  loses it, its new owner gains it;
- the referee's ``hidden`` flag hides a token from everyone but the player whose character it
  stands for, who never receives the flag itself."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from tests.sockets import connect
from tests.vtt.maps.test_secrecy import hello
from vtt.campaigns.models import Role
from vtt.maps import selectors, services
from vtt.maps.models import Map
from vtt.table import services as table_services

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

VIEWERS = ("player", "other_player", "observer")


class Browser:
    """One viewer's socket and the tokens a map page would hold (static/js/map.js ``apply``)."""

    def __init__(self, user, comm, state: dict[str, Any]) -> None:
        self.user, self.comm = user, comm
        self.map_id, self.head = state["map"]["id"], state["head"]
        self.tokens = {t["id"]: t for t in state["tokens"]}
        self.frames: list[dict[str, Any]] = []

    def apply(self, event: dict[str, Any]) -> None:
        p = event["payload"]
        if not event["kind"].startswith("map.") or p.get("map_id") != self.map_id:
            return
        if event["seq"] <= self.head or p.get("audience") == "referee":
            return
        if event["kind"] == "map.token":
            self.tokens[p["token"]["id"]] = p["token"]
        elif event["kind"] == "map.token.gone":
            self.tokens.pop(p["token_id"], None)
        elif event["kind"] == "map.fog":
            for token_id in p.get("gone") or []:
                self.tokens.pop(token_id, None)
            for token in p.get("tokens") or []:
                self.tokens[token["id"]] = token

    async def read_until(self, marker: str) -> None:
        while True:
            frame = await self.comm.receive_json_from(timeout=5)
            self.frames.append(frame)
            events = frame.get("events") or ([frame["event"]] if "event" in frame else [])
            for event in events:
                self.apply(event)
                if marker in json.dumps(event["payload"], ensure_ascii=False):
                    return


def _state(map_id: int, user) -> dict[str, Any]:
    return selectors.map_state(Map.objects.get(pk=map_id), referee=False, viewer_id=user.pk)


state_for = sync_to_async(_state)


class Table:
    def __init__(self, table, scene) -> None:
        self.table, self.scene, self.map = table, scene, scene.map
        self.browsers: dict[str, Browser] = {}
        self.steps = 0

    async def open(self) -> None:
        for role in VIEWERS:
            user = self.table.user(role)
            comm = await connect(user, self.table.campaign.pk)
            await hello(comm)
            self.browsers[role] = Browser(user, comm, await state_for(self.map.pk, user))

    async def close(self) -> None:
        for browser in self.browsers.values():
            await browser.comm.disconnect()

    async def step(self, service, **kwargs) -> dict[str, dict[int, dict[str, Any]]]:
        """Run a map service, then let every browser read up to a chat marker; each browser's
        tokens must be what a fresh snapshot gives that viewer. Returns them by role."""
        kwargs.setdefault("actor", self.table.referee)
        await sync_to_async(service)(map=self.map, **kwargs)
        self.steps += 1
        marker = f"шаг-{self.steps}"
        campaign = self.table.campaign
        await sync_to_async(table_services.chat_post)(
            campaign=campaign, actor=self.table.referee, text=marker
        )
        views = {}
        for role, browser in self.browsers.items():
            await browser.read_until(marker)
            snapshot = await state_for(self.map.pk, browser.user)
            expected = {t["id"]: t for t in snapshot["tokens"]}
            assert browser.tokens == expected, (self.steps, role, service.__name__, kwargs)
            views[role] = browser.tokens
        return views


def _no_hidden_flag(browser: Browser) -> None:
    """Nothing a player received names the referee's ``hidden`` flag of a token."""

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if {"id", "name", "col", "row", "cells"} <= node.keys():
                assert "hidden" not in node, node
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(browser.frames)


async def test_relinking_or_unlinking_a_token_in_the_fog_moves_it_between_owners(table, scene):
    t = Table(table, scene)
    await t.open()
    pc_token, update = scene.pc_token.pk, services.token_update
    try:
        views = await t.step(update, token_id=pc_token, col=8, row=1)  # into the fog
        assert pc_token in views["player"] and pc_token not in views["other_player"]
        # relinked to the other player's character: it moves from one player's view to the other's
        views = await t.step(update, token_id=pc_token, character_id=scene.other_pc.pk)
        assert pc_token not in views["player"] and pc_token in views["other_player"]
        assert views["other_player"][pc_token]["owner_id"] == table.other_player.pk
        # unlinked: nobody's character, nobody sees it under the fog
        views = await t.step(update, token_id=pc_token, character_id=None)
        assert all(pc_token not in view for view in views.values())
        # a token in the fog linked to a player's character: its new owner sees it
        fogged = scene.fogged_token.pk
        views = await t.step(update, token_id=fogged, character_id=scene.pc.pk)
        assert fogged in views["player"] and fogged not in views["other_player"]
        # relinked while it also steps into the light: everyone sees it
        views = await t.step(update, token_id=fogged, character_id=scene.other_pc.pk, col=3)
        assert all(fogged in view for view in views.values())
        # relinked and moved back into the fog at once: only the new owner keeps it
        views = await t.step(update, token_id=fogged, character_id=scene.pc.pk, col=9)
        assert fogged in views["player"] and fogged not in views["other_player"]
        # one player's character to another's within the light: nobody loses it
        views = await t.step(update, token_id=scene.other_token.pk, character_id=scene.pc.pk)
        assert all(scene.other_token.pk in view for view in views.values())
        # a deleted token in the fog leaves its owner's view too
        views = await t.step(services.token_delete, token_id=fogged)
        assert all(fogged not in view for view in views.values())
    finally:
        await t.close()


async def test_the_owner_sees_their_hidden_token_everyone_else_does_not(table, scene):
    t = Table(table, scene)
    await t.open()
    pc_token, update, ref = scene.pc_token.pk, services.token_update, table.referee
    try:
        # hidden in the light: gone for the others, still the owner's (without the flag)
        views = await t.step(update, token_id=pc_token, hidden=True)
        assert pc_token in views["player"] and pc_token not in views["other_player"]
        assert pc_token not in views["observer"]
        # the referee moves it: the owner follows it, nobody else learns a thing
        move = services.token_move
        views = await t.step(move, role=Role.REFEREE, token_id=pc_token, col=3, row=2)
        assert views["player"][pc_token]["col"] == 3 and pc_token not in views["other_player"]
        # its owner moves it (they see it, so they may)
        views = await t.step(
            move, actor=table.player, role=Role.PLAYER, token_id=pc_token, col=2, row=2
        )
        assert (views["player"][pc_token]["col"], views["player"][pc_token]["row"]) == (2, 2)
        # the fog falls on it and the referee shows it again: still only its owner's
        views = await t.step(services.fog_change, reveal=False, rect=[2, 2, 2, 2])
        views = await t.step(update, token_id=pc_token, hidden=False)
        assert pc_token in views["player"] and pc_token not in views["other_player"]
        # the fog lifts: everyone's again
        views = await t.step(services.fog_change, reveal=True, rect=[2, 2, 2, 2])
        assert all(pc_token in view for view in views.values())
        # a hidden token placed for the other player's character: theirs alone
        hidden = await sync_to_async(services.token_create)(
            map=scene.map, actor=ref, name="Тень", col=0, row=3, hidden=True,
            character_id=scene.other_pc.pk,
        )  # fmt: skip
        views = await t.step(update, token_id=hidden.pk, name="Тень Брана")
        assert hidden.pk in views["other_player"] and hidden.pk not in views["player"]
        assert views["other_player"][hidden.pk]["name"] == "Тень Брана"
        # relinked to the first player's character, still hidden: it changes hands
        views = await t.step(update, token_id=hidden.pk, character_id=scene.pc.pk)
        assert hidden.pk in views["player"] and hidden.pk not in views["other_player"]
        # a hidden NPC-less token stays the referee's alone
        views = await t.step(update, token_id=scene.hidden_token.pk, col=1, row=0)
        assert all(scene.hidden_token.pk not in view for view in views.values())
        views = await t.step(services.token_delete, token_id=hidden.pk)
        assert all(hidden.pk not in view for view in views.values())
    finally:
        await t.close()
    for browser in t.browsers.values():
        _no_hidden_flag(browser)
