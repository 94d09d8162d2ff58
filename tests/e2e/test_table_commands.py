"""Table actions as socket commands in real browsers (issue 19): a roll from the roll bar and a
token drag leave the page as websocket `command` frames and reach the other browser; with the
socket closed, the roll bar still works by HTTP (htmx posts the form)."""

from __future__ import annotations

import json
import re
import uuid

from playwright.sync_api import expect

from tests.e2e.conftest import login
from tests.e2e.test_maps import call, cell_point, mouse_drag, token_at
from tests.e2e.test_table import entry, open_table, tag

MAP_CAMPAIGN = "Демо: Град Иуды"


def command_frames(page) -> list[dict]:
    """Every `command` frame the page sends on its websockets, from now on."""
    sent: list[dict] = []

    def on_socket(ws) -> None:
        def on_frame(payload) -> None:
            try:
                frame = json.loads(payload)
            except (TypeError, ValueError):
                return
            if frame.get("type") == "command":
                sent.append(frame)

        ws.on("framesent", on_frame)

    page.on("websocket", on_socket)
    return sent


def posts_to(page, fragment: str) -> list[str]:
    """The URLs of the page's POST requests whose path contains ``fragment``."""
    urls: list[str] = []
    page.on(
        "request",
        lambda r: urls.append(r.url) if r.method == "POST" and fragment in r.url else None,
    )
    return urls


def test_a_roll_from_the_roll_bar_is_a_socket_command_and_http_when_the_socket_is_down(
    new_page,
):
    gm = new_page()
    login(gm, "referee")
    open_table(gm)
    pc = new_page()
    login(pc, "alice")
    routes: list = []
    state = {"refuse": False}

    def route(ws) -> None:
        routes.append(ws)
        if state["refuse"]:
            ws.close(code=1011)  # the server is unreachable
            return
        ws.connect_to_server()

    pc.route_web_socket(re.compile(r"/ws/campaigns/\d+/$"), route)
    frames = command_frames(pc)
    posts = posts_to(pc, "/roll")
    open_table(pc)

    label = tag()
    pc.fill("#notation", "2d6+1")
    pc.fill("#roll-form input[name=label]", label)
    key = pc.locator("#roll-key").input_value()
    pc.click("#roll-form .roll-go")
    theirs = entry(gm, label)
    expect(theirs).to_be_visible(timeout=2000)
    total = int(theirs.locator(".total").get_attribute("data-total"))
    # the ack's result where the fragment would have been, and the form reset as it resets it
    expect(pc.locator("#roll-result .roll-done-text")).to_contain_text(str(total))
    expect(pc.locator("#roll-key")).not_to_have_value(key)
    expect(pc.locator("#roll-form input[name=label]")).to_have_value("")
    rolls = [f for f in frames if f["command"] == "roll"]
    assert len(rolls) == 1, frames
    assert rolls[0]["params"]["notation"] == "2d6+1" and rolls[0]["params"]["label"] == label
    assert rolls[0]["key"] == key  # the form's idempotency key
    assert posts == [], posts  # nothing went by HTTP

    # a refusal shows in place, in Russian, and keeps the key (nothing was rolled)
    pc.fill("#notation", "2d")
    key = pc.locator("#roll-key").input_value()
    pc.click("#roll-form .roll-go")
    expect(pc.locator("#roll-result .msg.error")).to_contain_text("граней")
    expect(pc.locator("#roll-key")).to_have_value(key)

    # chat goes the same way
    hello = f"Привет {tag()}"
    pc.fill("#chat-form input[name=text]", hello)
    pc.press("#chat-form input[name=text]", "Enter")
    expect(entry(gm, hello, "chat")).to_be_visible(timeout=2000)
    expect(pc.locator("#chat-form input[name=text]")).to_have_value("")
    assert any(f["command"] == "chat" and f["params"]["text"] == hello for f in frames)

    # the socket goes away and stays away: the roll bar posts the form by HTTP
    state["refuse"] = True
    routes[-1].close(code=1011)
    expect(pc.locator("#conn")).to_have_attribute(
        "data-state", re.compile("reconnecting|offline"), timeout=3000
    )
    sent_before = len(frames)
    offline = tag()
    pc.fill("#notation", "1d8")
    pc.fill("#roll-form input[name=label]", offline)
    key = pc.locator("#roll-key").input_value()
    pc.click("#roll-form .roll-go")
    expect(pc.locator("#roll-key")).not_to_have_value(key)  # htmx's fragment renewed it
    expect(pc.locator("#roll-result .roll-done")).to_be_visible()
    expect(entry(gm, offline)).to_be_visible(timeout=2000)
    assert len(frames) == sent_before
    assert any("/table/roll/" in url for url in posts), posts


def test_a_token_drag_on_the_map_is_a_socket_command(new_page):
    name = uuid.uuid4().hex[:6]
    gm = new_page()
    login(gm, "referee")
    gm.goto("/campaigns/")
    href = gm.locator("a.title", has_text=MAP_CAMPAIGN).first.get_attribute("href")
    cid = int(re.search(r"/campaigns/(\d+)/", href).group(1))
    made = call(
        gm,
        "POST",
        f"/api/campaigns/{cid}/maps/",
        {"name": f"Двор {name}", "width": 8, "height": 6, "fogged": False},
    )
    api = f"/api/campaigns/{cid}/maps/{made['map']['id']}/"
    call(gm, "POST", api + "activate/", {"active": True})
    pc = new_page()
    login(pc, "alice")
    character = call(pc, "POST", f"/api/campaigns/{cid}/characters/", {"name": f"Алиса-{name}"})
    own = call(
        gm,
        "POST",
        api + "tokens/",
        {"name": f"Алиса-{name}", "col": 1, "row": 1, "character_id": character["id"]},
    )
    try:
        frames = command_frames(pc)
        posts = posts_to(pc, "/move/")
        gm.goto(f"/campaigns/{cid}/table/")
        pc.goto(f"/campaigns/{cid}/table/")
        for page in (gm, pc):
            expect(page.locator("#conn")).to_have_attribute("data-state", "connected")
            expect(page.locator(f"[data-token='{own['id']}']")).to_be_visible()

        mouse_drag(pc, cell_point(pc, 1, 1), cell_point(pc, 3, 2))
        token_at(pc, own["id"], 3, 2)
        token_at(gm, own["id"], 3, 2)  # live in the referee's browser
        moves = [f for f in frames if f["command"] == "token.move"]
        assert len(moves) == 1, frames
        assert moves[0]["args"] == {"map_id": made["map"]["id"], "token_id": own["id"]}
        assert moves[0]["params"]["col"] == 3 and moves[0]["params"]["row"] == 2
        assert posts == [], posts
    finally:
        call(gm, "POST", api + "activate/", {"active": False})
