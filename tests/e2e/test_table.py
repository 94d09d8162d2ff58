"""The live table in real browsers on a real daphne: two people at one table see each other's
rolls within 2 s, a reload keeps the log, hidden rolls show only a commitment until revealed and
then each browser verifies them itself, and the socket recovers from gaps and drops.

The demo campaign is shared with other browser tests, so every check looks for its own rolls
(a unique label) instead of counting the whole log.
"""

from __future__ import annotations

import json
import re
import time
import uuid

from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS, login
from vtt.table.services import ENTRY_VALUE_MAX

CAMPAIGN = "Демо: Dungeon World"
PHONE = {"width": 390, "height": 844}
# Browsers on plain-http LAN addresses have no crypto.subtle; the page must verify without it.
NO_SUBTLE = "Object.defineProperty(Crypto.prototype, 'subtle', {get() { return undefined; }});"


def open_table(page, campaign: str = CAMPAIGN) -> None:
    page.goto("/campaigns/")
    page.locator("a.title", has_text=campaign).first.click()
    page.click("a.button:has-text('За стол')")
    expect(page).to_have_url(re.compile(r"/campaigns/\d+/table/$"))
    expect(page.locator("#conn")).to_have_attribute("data-state", "connected")
    expect(page.locator("#conn")).to_contain_text("Подключено")


def tag() -> str:
    return f"e2e-{uuid.uuid4().hex[:8]}"


def roll(page, notation: str, label: str, visibility: str = "everyone") -> None:
    page.select_option("#visibility", visibility)
    page.fill("#notation", notation)
    page.fill("#roll-form input[name=label]", label)
    key = page.locator("#roll-key").input_value()
    page.click("#roll-form .roll-go")
    # the htmx answer replaces the idempotency key: the next submit is a new roll
    expect(page.locator("#roll-key")).not_to_have_value(key)


def entry(page, label: str, kind: str = "roll"):
    return page.locator(f"#log-list .entry-{kind}", has_text=label)


def faces_and_total(locator) -> tuple[list[int], int]:
    faces = [int(x) for x in locator.locator(".die").all_inner_texts()]
    total = int(locator.locator(".total").get_attribute("data-total"))
    return faces, total


def test_two_browsers_see_each_others_rolls_and_a_reload_keeps_the_log(new_page):
    gm = new_page()
    login(gm, "referee")
    open_table(gm)
    pc = new_page(viewport=PHONE)
    login(pc, "alice")
    open_table(pc)

    # odds preview for the notation being typed, exact; bad notation explains itself in place
    pc.fill("#notation", "2d6+2")
    expect(pc.locator("#odds")).to_contain_text("шанс 10+: 41,7%")
    pc.fill("#notation", "2d")
    expect(pc.locator("#odds .odds-error")).to_contain_text("граней")
    key = pc.locator("#roll-key").input_value()
    pc.click("#roll-form .roll-go")
    expect(pc.locator("#roll-result .msg.error")).to_contain_text("граней")
    expect(pc.locator("#roll-key")).to_have_value(key)  # nothing rolled: the key stays
    expect(pc.locator("#conn")).to_have_attribute("data-state", "connected")

    label = tag()
    roll(pc, "3d6+1", label)
    theirs = entry(gm, label)
    expect(theirs).to_be_visible(timeout=2000)
    mine = entry(pc, label)
    expect(mine).to_be_visible()
    faces, total = faces_and_total(mine)
    assert len(faces) == 3 and all(1 <= f <= 6 for f in faces)
    assert total == sum(faces) + 1
    assert faces_and_total(theirs) == (faces, total)
    expect(theirs.locator(".who")).to_have_text("Алиса")
    expect(theirs.locator(".vis")).to_have_text("всем")
    expect(theirs.locator("time")).to_have_attribute("datetime", re.compile(r"^\d{4}-"))

    # the referee's quick die reaches the player too
    label2 = tag()
    gm.fill("#roll-form input[name=label]", label2)
    gm.click("#roll-form .die-btn[value='1d20']")
    expect(entry(pc, label2)).to_be_visible(timeout=2000)
    (face,), total20 = faces_and_total(entry(pc, label2))
    assert face == total20 and 1 <= face <= 20

    # a double click on a quick die rolls once (htmx drops the second submit; the key would
    # make the server answer it with the first roll anyway)
    label3 = tag()
    pc.fill("#roll-form input[name=label]", label3)
    pc.dblclick("#roll-form .die-btn[value='1d6']")
    expect(entry(gm, label3)).to_have_count(1, timeout=2000)
    # A roll made after it reaches the referee's log only after anything the double click
    # sent (the log is delivered in order): once it shows, a second roll would have too.
    after = tag()
    pc.fill("#roll-form input[name=label]", after)
    pc.click("#roll-form .die-btn[value='1d4']")
    expect(entry(gm, after)).to_have_count(1, timeout=2000)
    expect(entry(gm, label3)).to_have_count(1)

    # chat, and a whisper only its recipient reads
    hello = f"Привет {tag()}"
    gm.select_option("#visibility", "everyone")
    gm.fill("#chat-form input[name=text]", hello)
    gm.press("#chat-form input[name=text]", "Enter")
    expect(entry(pc, hello, "chat")).to_be_visible(timeout=2000)
    expect(gm.locator("#chat-form input[name=text]")).to_have_value("")
    secret = f"Тсс {tag()}"
    gm.select_option("#visibility", "whisper")
    gm.select_option("#recipient", label="Алиса")
    gm.fill("#chat-form input[name=text]", secret)
    gm.press("#chat-form input[name=text]", "Enter")
    expect(entry(pc, secret, "chat").locator(".vis")).to_have_text("шёпот вам", timeout=2000)
    boris = new_page()
    login(boris, "boris")
    open_table(boris)
    expect(entry(boris, hello, "chat")).to_be_visible()
    expect(entry(boris, secret, "chat")).to_have_count(0)

    # presence: the referee sees Alice and Boris at the table
    expect(gm.locator("#presence")).to_contain_text("Алиса")
    expect(gm.locator("#presence")).to_contain_text("Борис")
    # Boris's snapshot on connect: those already at the table answered his join
    expect(boris.locator("#presence")).to_contain_text("Алиса")
    # a page that goes away is a leave, at once (no 75 s forgetting any more)
    boris.close()
    expect(gm.locator("#presence")).not_to_contain_text("Борис", timeout=3000)
    expect(pc.locator("#presence")).not_to_contain_text("Борис", timeout=3000)

    # a reload shows the same log
    pc.reload()
    expect(pc.locator("#conn")).to_have_attribute("data-state", "connected")
    assert faces_and_total(entry(pc, label)) == (faces, total)
    expect(entry(pc, label2)).to_be_visible()
    expect(entry(pc, secret, "chat")).to_be_visible()

    ARTIFACTS.mkdir(exist_ok=True)
    gm.screenshot(path=str(ARTIFACTS / "table-desktop.png"))
    pc.screenshot(path=str(ARTIFACTS / "table-phone.png"))


def test_hidden_roll_shows_only_a_commitment_until_revealed_then_verified(new_page):
    gm = new_page()
    login(gm, "referee")
    open_table(gm)
    player = new_page(viewport=PHONE)
    player.context.add_init_script(NO_SUBTLE)
    login(player, "alice")
    open_table(player)
    assert player.evaluate("window.crypto.subtle === undefined")

    label = tag()
    roll(gm, "2d10+3", label, visibility="referee")
    mine = entry(gm, label)
    expect(mine).to_be_visible()
    roll_id = mine.get_attribute("data-roll-id")
    commitment = mine.locator(".commitment").get_attribute("data-commitment")
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    faces, total = faces_and_total(mine)

    hidden = player.locator(f"#log-list .entry-hidden[data-roll-id='{roll_id}']")
    expect(hidden).to_have_count(1, timeout=2000)
    expect(hidden.locator(".commitment")).to_have_attribute("data-commitment", commitment)
    expect(hidden.locator(".total")).to_have_count(0)
    expect(hidden.locator(".die")).to_have_count(0)
    expect(player.locator("#log-list")).not_to_contain_text(label)
    expect(player.locator(".reveal-btn")).to_have_count(0)  # referee only

    mine.locator(".reveal-btn").click()
    revealed = player.locator(f"#log-list .entry-reveal[data-roll-id='{roll_id}']")
    badge = revealed.locator(".verify")
    expect(badge).to_have_attribute("data-state", "verified", timeout=3000)
    expect(badge).to_contain_text("проверено")
    expect(badge).to_have_attribute("data-via", "js")  # the pure-JS SHA-256
    assert faces_and_total(revealed) == (faces, total)
    expect(revealed).to_contain_text(label)
    expect(hidden.locator(".revealed-mark")).to_be_visible()

    gm_badge = gm.locator(f"#log-list .entry-reveal[data-roll-id='{roll_id}'] .verify")
    expect(gm_badge).to_have_attribute("data-state", "verified")
    expect(gm_badge).to_have_attribute("data-via", "subtle")
    expect(mine.locator(".reveal-btn")).to_have_count(0)

    # after a reload the browser verifies again from the log it loads
    player.reload()
    expect(badge).to_have_attribute("data-state", "verified")
    player.screenshot(path=str(ARTIFACTS / "table-phone-verified.png"))


def test_a_gap_asks_for_a_replay_and_a_dropped_socket_reconnects(new_page):
    page = new_page(viewport=PHONE)
    login(page, "boris")
    sent: list[dict] = []
    routes: list = []
    state = {"drop": None, "dropped": 0, "refuse": False}

    def route(ws):
        routes.append(ws)
        if state["refuse"]:
            ws.close(code=1011)  # the server is unreachable
            return
        server = ws.connect_to_server()

        def from_server(message):
            frame = json.loads(message)
            event = frame.get("event") or {}
            if (
                frame.get("type") == "event"
                and state["drop"]
                and state["drop"] in json.dumps(event.get("payload"), ensure_ascii=False)
            ):
                state["dropped"] += 1  # lost on the way, like a full channel-layer buffer
                return
            ws.send(message)

        def from_page(message):
            sent.append(json.loads(message))
            server.send(message)

        server.on_message(from_server)
        ws.on_message(from_page)

    page.route_web_socket(re.compile(r"/ws/campaigns/\d+/$"), route)
    open_table(page)
    assert sent[0]["type"] == "hello"

    lost, after = tag(), tag()
    state["drop"] = lost
    roll(page, "1d6", lost)
    roll(page, "1d8", after)
    # the next event's `prev` is ahead of the browser: it asks for a replay and gets both
    expect(entry(page, after)).to_be_visible(timeout=3000)
    expect(entry(page, lost)).to_be_visible()
    assert state["dropped"] == 1
    replays = [f for f in sent if f["type"] == "replay"]
    assert replays, sent
    seqs = page.eval_on_selector_all(
        "#log-list .entry", "(els) => els.map((e) => Number(e.dataset.seq))"
    )
    assert seqs == sorted(seqs)
    state["drop"] = None

    # the socket drops and the server stays away: reconnecting with back-off, then back
    state["refuse"] = True
    routes[-1].close(code=1011)
    expect(page.locator("#conn")).to_have_attribute(
        "data-state", re.compile("reconnecting|offline"), timeout=3000
    )
    missed = tag()
    other = new_page()
    login(other, "alice")
    open_table(other)
    roll(other, "2d4", missed)
    expect(entry(other, missed)).to_be_visible()
    tries = len(routes)
    deadline = time.monotonic() + 10
    while len(routes) <= tries and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    assert len(routes) > tries, "the browser tries again by itself"
    state["refuse"] = False
    # back-off has grown by now (1, 2, 4, 8 … s); "Retry now" skips the wait. Clicked from the
    # page so a retry that wins the race (and hides the button) cannot fail the test.
    expect(page.locator("#conn .conn-retry")).to_be_visible()
    page.evaluate("document.querySelector('#conn .conn-retry').click()")
    expect(page.locator("#conn")).to_have_attribute("data-state", "connected", timeout=10_000)
    # hello carried the last position; the roll made while away is replayed
    expect(entry(page, missed)).to_be_visible(timeout=3000)
    hellos = [f for f in sent if f["type"] == "hello"]
    assert len(hellos) >= 2 and hellos[-1]["last_seq"] > 0


def test_initiative_tracker_with_a_hidden_npc(new_page):
    gm = new_page()
    login(gm, "referee")
    open_table(gm)
    gm.on("dialog", lambda dialog: dialog.accept())
    gm.click("[data-init=clear]")
    expect(gm.locator("#init-list .init-entry")).to_have_count(0)
    pc = new_page(viewport=PHONE)
    login(pc, "alice")
    open_table(pc)

    npc = f"Гоблин {uuid.uuid4().hex[:4]}"
    gm.fill("#init-add input[name=name]", npc)
    gm.fill("#init-add input[name=value]", "18")
    gm.check("#init-add input[name=hidden]")
    gm.click("#init-add button")
    expect(gm.locator("#init-list .init-entry", has_text=npc)).to_have_class(
        re.compile("is-hidden")
    )
    pc.fill("#init-add input[name=value]", "12")
    pc.click("#init-add button")
    expect(gm.locator("#init-list .init-entry", has_text="Алиса")).to_be_visible(timeout=2000)
    expect(pc.locator("#init-list .init-entry", has_text="Алиса")).to_be_visible()
    gm.click("[data-init=sort]")
    expect(gm.locator("#init-list .init-entry").first).to_contain_text(npc)
    gm.click("[data-init=next]")
    expect(gm.locator("#init-round")).to_have_text("Раунд 1")
    expect(pc.locator("#init-round")).to_have_text("Раунд 1", timeout=2000)
    # the player never sees the hidden NPC, only that a hidden participant acts
    expect(pc.locator("#init-list")).not_to_contain_text(npc)
    expect(pc.locator("#init-hidden-turn")).to_be_visible()
    gm.click("[data-init=next]")
    expect(pc.locator("#init-list .init-entry.current")).to_contain_text("Алиса", timeout=2000)
    # a player edits their own value; the referee sees it
    value = pc.locator("#init-list .init-entry", has_text="Алиса").locator("input")
    expect(value).to_have_attribute("max", str(ENTRY_VALUE_MAX))  # from the page's config
    expect(value).to_have_attribute("min", str(-ENTRY_VALUE_MAX))
    pc.locator("#init-list .init-entry", has_text="Алиса").locator("input").fill("20")
    pc.locator("#init-list .init-entry", has_text="Алиса").locator("input").press("Enter")
    pc.locator("#notation").focus()
    expect(gm.locator("#init-list .init-entry", has_text="Алиса").locator("input")).to_have_value(
        "20", timeout=2000
    )
    gm.screenshot(path=str(ARTIFACTS / "table-initiative.png"))
