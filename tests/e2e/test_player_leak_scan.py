"""Issue 9: a player's browser never receives what the referee hides.

Alice walks every page and every GET endpoint of the OpenAPI schema for every demo campaign
(``manage.py seed_demo`` put a marked secret into every kind of hidden data, see
``vtt/campaigns/demo_markers.py``), with the table open, while the referee, in another browser,
rolls hidden and blind, whispers to Boris, adds a hidden initiative entry and a secret note,
moves the hidden token and the one in the fog, hides and shows a token, and fogs and reveals
cells. Everything Alice's and Boris's browsers received (pages, htmx fragments, JSON, the map
images served to them, socket frames) is then scanned (``tests/e2e/leakscan.py``): no marker,
no referee-only field, no hidden roll's result, no token or note in the fog, no unmasked
fogged cell. Positive controls make sure the recording really saw the live table.

The demo campaigns are shared with other browser tests: the referee's changes are undone and
the map on the table is put back as it was.
"""

from __future__ import annotations

import random
import re
import time
import uuid
from typing import Any

from playwright.sync_api import expect

from systems import get_ruleset
from tests.e2e import leakscan
from tests.e2e.conftest import current_secrets, login, recorder_of, register_secret
from vtt.campaigns import demo_markers as M

DEMO = "Демо: "
REFUSED = {403, 404}


def csrf(page) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")


def call(page, method: str, url: str, data: Any = None):
    """The REST API from ``page``'s session (CSRF and Referer as the browser sends them),
    waiting out rate limits; the call must succeed."""
    for _attempt in range(30):
        response = page.request.fetch(
            url,
            method=method,
            data=data,
            headers={"X-CSRFToken": csrf(page), "Referer": page.url or "/"},
        )
        if response.status != 429:
            break
        time.sleep(0.6)
    assert response.ok, (method, url, response.status, response.text()[:300])
    return response.json() if response.status != 204 and response.body() else None


def get(page, url: str) -> int:
    """A GET as this user; the server must answer without an error of its own."""
    response = page.request.get(url)
    assert response.status < 500, (url, response.status, response.text()[:300])
    return response.status


def visit(page, url: str) -> int:
    response = page.goto(url)
    assert response is not None and response.status < 500, (url, response and response.status)
    return response.status


class Inventory:
    """What the referee's API lists for one campaign: every id a player could try."""

    def __init__(self, gm, cid: int) -> None:
        api = f"/api/campaigns/{cid}"
        self.cid = cid
        self.ruleset = call(gm, "GET", f"{api}/")["ruleset"]
        self.characters = call(gm, "GET", f"{api}/characters/")
        self.maps = call(gm, "GET", f"{api}/maps/")
        self.states = {m["id"]: call(gm, "GET", f"{api}/maps/{m['id']}/") for m in self.maps}
        self.tables = call(gm, "GET", f"{api}/prep/tables/")
        self.dungeons = call(gm, "GET", f"{api}/prep/dungeons/")
        self.rooms = [
            room
            for d in self.dungeons
            for room in call(gm, "GET", f"{api}/prep/dungeons/{d['id']}/rooms/")
        ]
        self.invites = call(gm, "GET", f"{api}/invites/")
        self.journal = call(gm, "GET", f"{api}/journal/")  # the referee's entries, every one
        self.active = next((m["id"] for m in self.maps if m["active"]), None)
        self.secret_map = next(
            (
                map_id
                for map_id, state in self.states.items()
                if any(t["name"] == M.TOKEN_HIDDEN for t in state["tokens"])
            ),
            None,
        )

    def token(self, name: str) -> dict[str, Any]:
        return next(t for t in self.states[self.secret_map]["tokens"] if t["name"] == name)

    def hidden_ids(self) -> set[int]:
        return {c["id"] for c in self.characters if c["hidden"]}


def demo_campaigns(gm) -> list[int]:
    return [c["id"] for c in call(gm, "GET", "/api/campaigns/") if c["name"].startswith(DEMO)]


def open_table(page, cid: int) -> None:
    page.goto(f"/campaigns/{cid}/table/")
    expect(page.locator("#conn")).to_have_attribute("data-state", "connected")


def wait_received(page, needle: str, timeout: float = 5.0) -> None:
    """Until a socket frame holding ``needle`` reached this browser (a positive control: the
    recording sees the live table)."""
    recorder = recorder_of(page)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(i.source == "ws" and needle in (i.text or "") for i in recorder.items):
            return
        page.wait_for_timeout(100)
    frames = [(i.url, (i.text or "")[:80]) for i in recorder.items if i.source == "ws"]
    raise AssertionError(f"no socket frame with {needle!r} reached {recorder.user}: {frames[-8:]}")


def referee_keeps_secrets(gm, inv: Inventory, tag: str) -> str:
    """The referee's live secrets at the table; undone at the end. Returns the label of the
    public roll that every player must see."""
    api = f"/api/campaigns/{inv.cid}"
    public = f"ОТКРЫТО-{tag}"
    call(gm, "POST", f"{api}/rolls/", {"notation": "1d6", "label": public})
    call(
        gm,
        "POST",
        f"{api}/rolls/",
        {"notation": "3d6", "visibility": "referee", "label": f"{M.REFEREE}-ЖИВОЙ-БРОСОК-{tag}"},
    )
    call(
        gm,
        "POST",
        f"{api}/rolls/",
        {"notation": "1d20", "visibility": "blind", "label": f"{M.REFEREE}-ЖИВОЙ-СЛЕПОЙ-{tag}"},
    )
    revealed = call(
        gm,
        "POST",
        f"{api}/rolls/",
        {"notation": "2d8", "visibility": "referee", "label": f"раскрытый-{tag}"},
    )
    call(gm, "POST", f"{api}/rolls/{revealed['roll_id']}/reveal/")
    boris = next(m for m in call(gm, "GET", f"{api}/members/") if m["display_name"] == "Борис")
    call(
        gm,
        "POST",
        f"{api}/chat/",
        {
            "text": f"{M.BORIS}-ЖИВОЙ-ШЁПОТ-{tag}",
            "visibility": "whisper",
            "target_id": boris["user_id"],
        },
    )
    init = call(
        gm,
        "POST",
        f"{api}/initiative/",
        {"name": f"{M.REFEREE}-ЖИВАЯ-ИНИЦИАТИВА-{tag}", "value": 11, "hidden": True},
    )
    entry = next(e for e in init["entries"] if e["name"].endswith(tag))
    call(gm, "DELETE", f"{api}/initiative/{entry['id']}/")
    if inv.secret_map is not None:
        referee_works_the_map(gm, inv, tag)
    referee_wounds_the_innkeeper(gm, inv)
    return public


# The referee's bookkeeping on a visible NPC whose text would tell its hit points.
NPC_DAMAGE = {"dungeon_world": "npc_take_damage", "tales": "take_damage"}


def referee_wounds_the_innkeeper(gm, inv: Inventory) -> None:
    """The visible NPC gets distinctive hit points, then takes a point of damage: the text
    ("ОЗ: 613.") is the referee's, as the NPC's sheet is."""
    action = NPC_DAMAGE.get(inv.ruleset)
    keeper = next((c for c in inv.characters if c["name"] == "Трактирщик Гаврила"), None)
    if action is None or keeper is None:
        return
    url = f"/api/characters/{keeper['id']}/"
    sheet = call(gm, "GET", url)
    hp = random.randint(500, 990)
    wounded = {**sheet["state"], "hp": hp, "max_hp": 999}
    call(gm, "PUT", url, {"state": wounded, "version": sheet["version"]})
    result = call(gm, "POST", f"{url}moves/{action}/", {"params": {"amount": 1}})
    assert str(hp - 1) in result["outcome"]["text"]["ru"], result["outcome"]["text"]
    for text in result["outcome"]["text"].values():
        register_secret(text)
    latest = call(gm, "GET", url)
    call(gm, "PUT", url, {"state": sheet["state"], "version": latest["version"]})


def referee_works_the_map(gm, inv: Inventory, tag: str) -> None:
    api = f"/api/campaigns/{inv.cid}/maps/{inv.secret_map}"
    hidden, fogged = inv.token(M.TOKEN_HIDDEN), inv.token(M.TOKEN_FOGGED)
    guard = inv.token("Страж у ворот")
    note = call(
        gm,
        "POST",
        f"{api}/notes/",
        {"col": 3, "row": 1, "text": f"{M.REFEREE}-ЖИВАЯ-ЗАМЕТКА-{tag}", "secret": True},
    )
    # the hidden token walks through revealed cells; the one in the fog stays in the fog
    for col, row in ((4, 5), (hidden["col"], hidden["row"])):
        call(gm, "POST", f"{api}/tokens/{hidden['id']}/move/", {"col": col, "row": row})
    for col, row in ((10, 3), (fogged["col"], fogged["row"])):
        call(gm, "POST", f"{api}/tokens/{fogged['id']}/move/", {"col": col, "row": row})
    # the guard steps into the fog and back; then is hidden and shown again
    for col, row in ((8, 2), (guard["col"], guard["row"])):
        call(gm, "POST", f"{api}/tokens/{guard['id']}/move/", {"col": col, "row": row})
    for flag in (True, False):
        call(gm, "PATCH", f"{api}/tokens/{guard['id']}/", {"hidden": flag})
    # fog: a revealed corner goes dark and comes back; a fogged strip is shown and hidden
    for mode in ("hide", "reveal"):
        call(gm, "POST", f"{api}/fog/", {"mode": mode, "cells": [[0, 7], [1, 7]]})
    for mode in ("reveal", "hide"):
        call(gm, "POST", f"{api}/fog/", {"mode": mode, "rect": [6, 0, 6, 2]})
    call(gm, "DELETE", f"{api}/notes/{note['id']}/")


def player_walks(page, inv: Inventory, schema: dict[str, Any]) -> None:
    """Every page and GET endpoint of the campaign, including ids only the referee knows."""
    cid = inv.cid
    hidden = inv.hidden_ids()
    map_ids = [m["id"] for m in inv.maps]
    assert visit(page, f"/campaigns/{cid}/") == 200
    assert visit(page, f"/campaigns/{cid}/characters/") == 200
    for c in inv.characters:
        for suffix in ("", "print/") + (("inventory/",) if inv.ruleset == "crows" else ()):
            status = visit(page, f"/characters/{c['id']}/{suffix}")
            if c["id"] in hidden:
                assert status in REFUSED, (c["name"], suffix, status)
        status = get(page, f"/characters/{c['id']}/export/")
        assert c["id"] not in hidden or status in REFUSED
    assert visit(page, f"/campaigns/{cid}/maps/") in REFUSED
    assert visit(page, f"/campaigns/{cid}/maps/panel/") == 200
    for map_id in map_ids:
        assert visit(page, f"/campaigns/{cid}/maps/{map_id}/") in REFUSED
        status = get(page, f"/campaigns/{cid}/maps/{map_id}/background/")
        assert map_id == inv.active or status in REFUSED
        for token in inv.states[map_id]["tokens"]:
            get(page, f"/campaigns/{cid}/maps/{map_id}/tokens/{token['id']}/image/")
    prep = [f"/campaigns/{cid}/prep/", f"/campaigns/{cid}/prep/library/"]
    prep += [f"/campaigns/{cid}/prep/tables/export/"]
    prep += [f"/campaigns/{cid}/prep/dungeons/{d['id']}/" for d in inv.dungeons]
    prep += [f"/campaigns/{cid}/prep/rooms/{r['id']}/" for r in inv.rooms]
    prep += [f"/campaigns/{cid}/prep/tables/{t['id']}/" for t in inv.tables]
    for url in prep:
        assert visit(page, url) in REFUSED, url
    assert visit(page, f"/campaigns/{cid}/journal/") == 200
    for entry in inv.journal:
        visit(page, f"/campaigns/{cid}/journal/{entry['id']}/")
        for image in entry["images"]:
            get(page, image["url"])
    wizard = visit(page, f"/campaigns/{cid}/tales/wizard/")
    assert wizard == 200 if inv.ruleset == "tales" else wizard in REFUSED
    walk_api(page, inv, schema)


def walk_api(page, inv: Inventory, schema: dict[str, Any]) -> None:
    """Every GET path of /api/schema/, its parameters filled with this campaign's ids (all of
    them, the referee's included)."""
    move = next(iter(get_ruleset(inv.ruleset).describe()["moves"]), {"key": "none"})
    pools: dict[str, list[Any]] = {
        "id": [inv.cid],
        "map_id": [m["id"] for m in inv.maps],
        "cid": [c["id"] for c in inv.characters],
        "did": [d["id"] for d in inv.dungeons],
        "rid": [r["id"] for r in inv.rooms],
        "tid": [t["id"] for t in inv.tables],
        "key": [inv.ruleset],
        "move": [move["key"] if isinstance(move, dict) else move],
        "token": ["no-such-invite"],
        "jid": [e["id"] for e in inv.journal],
        "image_id": [i["id"] for e in inv.journal for i in e["images"]],
    }
    queries = {
        "/api/campaigns/{id}/events/": ["?since=0&limit=1000", "?before=1000000&limit=1000"],
        "/api/campaigns/{id}/prep/tables/export/": ["?format=json", "?format=csv"],
        "/api/campaigns/{id}/prep/tables/{tid}/export/": ["?format=json"],
    }
    referee_only = ("/invites/", "/prep/")
    hidden = inv.hidden_ids()
    for path, operations in schema["paths"].items():
        if "get" not in operations:
            continue
        names = re.findall(r"{(\w+)}", path)
        if any(n not in pools and n != "token_id" for n in names):
            raise AssertionError(f"no values for {path}: teach walk_api its parameters")
        for url, values in _fill(path, names, pools, inv):
            for query in queries.get(path, [""]):
                status = get(page, url + query)
                if any(part in path for part in referee_only) and "{token}" not in path:
                    assert status in REFUSED, (url, status)
                if values.get("cid") in hidden:
                    assert status in REFUSED, (url, status)
                if values.get("map_id") not in (None, inv.active):
                    assert status in REFUSED, (url, status)


def _fill(path: str, names: list[str], pools: dict[str, list[Any]], inv: Inventory):
    combos: list[dict[str, Any]] = [{}]
    for name in names:
        if name == "token_id":  # the tokens of the map in the same path
            combos = [
                {**c, name: t["id"]} for c in combos for t in inv.states[c["map_id"]]["tokens"]
            ]
        else:
            combos = [{**c, name: v} for c in combos for v in pools[name]]
    for values in combos:
        url = path
        for name, value in values.items():
            url = url.replace("{" + name + "}", str(value))
        yield url, values


def test_a_player_receives_nothing_the_referee_hides(new_page):
    tag = uuid.uuid4().hex[:6]
    gm = new_page()
    login(gm, "referee")
    alice = new_page()
    login(alice, "alice")
    boris = new_page(viewport={"width": 390, "height": 844})
    login(boris, "boris")
    schema = call(alice, "GET", "/api/schema/?format=json")
    campaigns = demo_campaigns(gm)
    assert len(campaigns) == 5, campaigns

    for cid in campaigns:
        inv = Inventory(gm, cid)
        for invite in inv.invites:  # an invite link is the referee's to hand out
            register_secret(invite["token"])
        was_active = inv.active
        if inv.secret_map is not None and was_active != inv.secret_map:
            activate(gm, cid, inv.secret_map, True)
            inv.active = inv.secret_map
        try:
            open_table(alice, cid)
            open_table(boris, cid)
            public = referee_keeps_secrets(gm, inv, tag)
            whisper = f"{M.BORIS}-ЖИВОЙ-ШЁПОТ-{tag}"
            expect(alice.locator("#log-list .entry-roll", has_text=public)).to_be_visible()
            expect(boris.locator("#log-list .entry-chat", has_text=whisper)).to_be_visible()
            wait_received(alice, public)  # what the page shows came through the recorded socket
            wait_received(boris, whisper)
            revealed = alice.locator("#log-list .entry-reveal", has_text=f"раскрытый-{tag}")
            expect(revealed.locator(".verify")).to_have_attribute("data-state", "verified")
            if inv.secret_map is not None:
                expect(alice.locator(".map-bg-image")).to_have_count(1)
            player_walks(alice, inv, schema)
        finally:
            if inv.active != was_active:  # the map on the table goes back to how it was
                if was_active is None:
                    activate(gm, cid, inv.active, False)
                else:
                    activate(gm, cid, was_active, True)

    report = leakscan.scan_all([recorder_of(alice), recorder_of(boris)], current_secrets())
    print(leakscan.format_leaks(report))
    assert report.images_checked >= 5, report.summary()  # a masked background per campaign
    assert report.snapshots >= 5 and report.events > 50, report.summary()
    assert not report.leaks, leakscan.format_leaks(report)


def activate(gm, cid: int, map_id: int, active: bool) -> None:
    call(gm, "POST", f"/api/campaigns/{cid}/maps/{map_id}/activate/", {"active": active})
