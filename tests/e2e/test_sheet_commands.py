"""A move made on the character sheet travels as a command frame over the sheet's table socket
(docs/table-protocol.md, "Commands") and reaches the referee's table; with no socket the same
click goes by HTTP, with an idempotency key, and reaches the table all the same."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from tests.e2e.conftest import login
from tests.e2e.test_sheets import SHEET_URL, open_campaign, open_characters, sheet_ready, tag


def make_move(page) -> None:
    """Defy Danger from the sheet's dialog, and wait for its outcome."""
    page.click("button[data-move='defy_danger']")
    dialog = page.locator("#move-dialog")
    expect(dialog.locator("#move-title")).to_be_visible()
    dialog.locator('[data-path="approach"]:is(select)').select_option(index=1)
    dialog.locator("#move-go").click()
    expect(dialog.locator("#move-outcome .outcome").first).to_be_visible()
    page.click("#move-dialog [data-close] >> nth=0")
    expect(dialog).to_be_hidden()


def test_a_sheet_move_is_a_socket_command_and_falls_back_to_http(new_page):
    hero = f"Кира {tag()}"

    # The referee watches the table.
    gm = new_page()
    login(gm, "referee")
    open_campaign(gm)
    gm.click("a.button:has-text('За стол')")
    expect(gm.locator("#conn")).to_have_attribute("data-state", "connected")
    log = gm.locator("#log-list .entry-move", has_text=hero)

    # Alice opens her new sheet; every frame her page sends on a socket is recorded.
    pc = new_page()
    sent: list[str] = []
    pc.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(str(payload))))
    login(pc, "alice")
    open_characters(pc)
    pc.fill("#new-pc input[name='pc-name']", hero)
    pc.click("#new-pc button[type=submit]")
    expect(pc).to_have_url(SHEET_URL)
    sheet_ready(pc)
    sheet_url = pc.url
    posted: list[str] = []
    pc.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)

    make_move(pc)
    commands = [json.loads(f) for f in sent if '"type":"command"' in f]
    assert [c["command"] for c in commands] == ["character.move"], sent
    assert commands[0]["args"]["move"] == "defy_danger" and commands[0]["key"]
    assert not [u for u in posted if "/moves/" in u]  # not by HTTP
    expect(log).to_have_count(1, timeout=5000)

    # The socket down (the server refuses it): the same click goes by HTTP, with a key.
    offline = new_page()
    login(offline, "alice")
    offline.route_web_socket(re.compile(r"/ws/"), lambda ws: ws.close())
    offline.goto(sheet_url)
    expect(offline.locator("#sheet-groups .sheet-group").first).to_be_visible()
    expect(offline.locator("#conn")).not_to_have_attribute("data-state", "connected")
    with offline.expect_request(re.compile(r"/api/characters/\d+/moves/defy_danger/$")) as made:
        make_move(offline)
    assert made.value.method == "POST"
    assert made.value.headers.get("idempotency-key")
    expect(log).to_have_count(2, timeout=5000)
