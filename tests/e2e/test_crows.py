"""Crows in real browsers: the dungeon-turn clock on the table page and the inventory slot board.

- Two browsers (the referee on a desktop, a player on a phone) see one countdown; the referee
  starts a 3-second turn; at the deadline both show the end-of-turn results (the encounter
  roll only for the referee).
- A player drags items between slots with a mouse and the referee's board follows without a
  reload; a refused drop (a 2-slot item on the last backpack slot, a second item in a hand)
  shows the server's reason and moves nothing; a touch drag on a phone and the tap and
  keyboard fallbacks work too.

The demo campaign is shared with other browser tests: each test makes its own character.
Screenshots of the board and the clock land in test-results/ for a look.
"""

from __future__ import annotations

import re
import time
import uuid

from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS, login

CAMPAIGN = "Демо: Crows: Удача или смерть"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

API_JS = """async ([method, url, body]) => {
  const csrf = (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || "";
  const response = await fetch(url, {
    method, credentials: "same-origin",
    headers: {
      "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrf,
    },
    body: body === null ? undefined : JSON.stringify(body),
  });
  return {status: response.status, data: await response.json().catch(() => null)};
}"""

SWORD = {"name": "Меч", "damage": {"tier1": "1d4", "tier2": "1d6", "tier3": "1d8"}}
POLE = {"name": "Шест", "slots": 2}
POTION = {"name": "Зелье", "kind": "potion", "stack": 5}
ROPE = {"name": "Верёвка"}
TORCH = {
    "name": "Факел",
    "wear": {"dice": 6, "max": 6, "keywords": ["dungeon_turn", "useless"]},
    "light": {"bright": 2, "dim": 4, "lit": True},
}


def tag() -> str:
    return uuid.uuid4().hex[:8]


def api(page, method: str, url: str, body: dict | None = None) -> dict:
    """Call the REST API from inside the page (its session and CSRF cookie); retry on 429."""
    for _attempt in range(20):
        result = page.evaluate(API_JS, [method, url, body])
        if result["status"] != 429:
            return result
        time.sleep(1)
    return result


def campaign_id(page) -> int:
    page.goto("/campaigns/")
    href = page.locator("a.title", has_text=CAMPAIGN).first.get_attribute("href")
    return int(re.search(r"/campaigns/(\d+)/", href).group(1))


def make_character(page, cid: int, items: list[tuple[str, dict, str]]) -> int:
    """A new character of the logged-in player with ``items`` (id, card, target) placed."""
    created = api(page, "POST", f"/api/campaigns/{cid}/characters/", {"name": f"Грач {tag()}"})
    assert created["status"] == 201, created
    character = created["data"]["id"]
    for item_id, card, target in items:
        placed = api(
            page,
            "POST",
            f"/api/characters/{character}/moves/place_item/",
            {"params": {"item": {"id": item_id, **card}, "target": target}},
        )
        assert placed["status"] == 201, placed
    return character


def open_board(page, character: int) -> None:
    page.goto(f"/characters/{character}/inventory/")
    expect(page.locator("#inv-conn")).to_have_attribute("data-state", "connected")


def open_table(page, cid: int) -> None:
    page.goto(f"/campaigns/{cid}/table/")
    expect(page.locator("#conn")).to_have_attribute("data-state", "connected")
    expect(page.locator("#clock-state")).not_to_have_text("Загрузка…")


def item(page, item_id: str):
    return page.locator(f'.inv-item[data-item="{item_id}"]').first


def slot(page, target: str):
    return page.locator(f'.inv-slot[data-drop="{target}"]')


def expect_at(page, item_id: str, area: str, number: int) -> None:
    expect(item(page, item_id)).to_have_attribute("data-area", area)
    expect(item(page, item_id)).to_have_attribute("data-slot", str(number))


def mouse_drag(page, source, target, *, grab_x: float | None = None) -> None:
    """Press on ``source``, move in steps (pointer events, not HTML5 drag and drop), release
    over ``target``."""
    box = source.bounding_box()
    x = box["x"] + (grab_x if grab_x is not None else box["width"] / 2)
    y = box["y"] + box["height"] / 2
    goal = target.bounding_box()
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2, steps=12)
    page.mouse.up()


def touch_drag(context, page, source, target) -> None:
    """A finger on a phone: press and hold, then drag, as Chromium gets it from a touch screen
    (CDP touch events become pointer events of type "touch", with scrolling and all)."""
    source.evaluate("node => node.scrollIntoView({block: 'center'})")
    box, goal = source.bounding_box(), target.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    tx, ty = goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2
    cdp = context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    time.sleep(0.5)  # hold: a quick swipe scrolls the page instead
    for i in range(1, 13):
        point = {"x": x + (tx - x) * i / 12, "y": y + (ty - y) * i / 12}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
        time.sleep(0.02)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"crows-{name}.png"), full_page=True)


# --- the dungeon-turn clock ---------------------------------------------------------------


def test_two_browsers_share_the_dungeon_clock_and_see_the_end_of_turn(new_page):
    pc = new_page(viewport=PHONE)
    login(pc, "alice")
    cid = campaign_id(pc)
    # a lit torch whose wear dice roll at every turn's end: a result everyone sees
    make_character(pc, cid, [(f"torch-{tag()}", TORCH, "hands:1")])
    gm = new_page(viewport=DESKTOP)
    login(gm, "referee")
    gm.on("dialog", lambda dialog: dialog.accept())
    open_table(gm, cid)
    open_table(pc, cid)
    try:
        run_a_short_turn(gm, pc)
    finally:
        # never leave 3-second turns running for the other browser tests
        api(gm, "POST", f"/api/campaigns/{cid}/clock/", {"action": "stop"})


def run_a_short_turn(gm, pc) -> None:
    if gm.locator("#clock").get_attribute("data-state") != "stopped":
        gm.click("[data-clock=stop]")
        expect(gm.locator("#clock")).to_have_attribute("data-state", "stopped")

    # players get no controls
    expect(pc.locator("#clock-controls")).to_have_count(0)
    expect(gm.locator("#clock-controls")).to_be_visible()

    # a 3-second turn (custom seconds, for demos)
    gm.click("#clock-settings summary")
    gm.select_option("#clock-length", "custom")
    gm.fill("#clock-seconds", "3")
    gm.click("#clock-config button[type=submit]")
    for page in (gm, pc):
        expect(page.locator("#clock-time")).to_have_text("0:03")
        expect(page.locator("#clock-state")).to_have_text("остановлены")

    before = int(gm.locator("#clock").get_attribute("data-turn"))
    gm.fill("#clock-dungeon", f"Склеп {tag()}")
    gm.click("[data-clock=start]")
    turn = before + 1
    for page in (gm, pc):
        expect(page.locator("#clock")).to_have_attribute("data-state", "running")
        expect(page.locator("#clock")).to_have_attribute("data-turn", str(turn))
    # one countdown: the same deadline, drawn within a second of each other
    deadline = gm.locator("#clock").get_attribute("data-deadline")
    assert deadline and pc.locator("#clock").get_attribute("data-deadline") == deadline
    left = [int(p.locator("#clock").get_attribute("data-remaining") or -1) for p in (gm, pc)]
    assert all(0 <= x <= 3 for x in left) and abs(left[0] - left[1]) <= 1, left
    expect(pc.locator("#clock-time")).to_have_text(re.compile(r"^0:0[0-3]$"))
    shot(gm, "clock-running-desktop")
    shot(pc, "clock-running-phone")

    # The deadline passes: the server ends the turn and both browsers show its results. The
    # clock runs on (a new 3-second turn each time), so the box may already show a later
    # turn; the log keeps every one.
    title = f"Конец хода подземелья {turn}"
    for page in (gm, pc):
        log = page.locator("#log-list .entry-turn")
        expect(log.filter(has_text=f"{title}:")).to_have_count(1, timeout=15_000)
        expect(log.filter(has_text=f"Ход подземелья {turn} окончен.")).to_have_count(1)
        expect(log.filter(has_text=f"Начинается ход подземелья {turn + 1}.")).to_have_count(1)
        expect(log.filter(has_text="Кости износа «Факел»").first).to_be_visible()
        results = page.locator("#clock-results")
        expect(results).to_be_visible()
        expect(results).to_contain_text(re.compile(r"Конец хода подземелья \d+", re.I))
        expect(results).to_contain_text("Кости износа «Факел»")
        assert int(page.locator("#clock").get_attribute("data-turn")) > turn
    # the encounter roll is the referee's alone
    expect(
        gm.locator("#log-list .entry-turn").filter(has_text="Проверка на встречу").first
    ).to_be_visible()
    expect(gm.locator("#clock-results")).to_contain_text("Проверка на встречу")
    expect(pc.locator("#clock-results")).not_to_contain_text("Проверка на встречу")
    expect(pc.locator("#log-list")).not_to_contain_text("Проверка на встречу")
    shot(gm, "clock-results-desktop")
    shot(pc, "clock-results-phone")

    # pause freezes the count in both browsers; stop ends it
    gm.click("[data-clock=pause]")
    for page in (gm, pc):
        expect(page.locator("#clock")).to_have_attribute("data-state", "paused")
        expect(page.locator("#clock-state")).to_have_text("на паузе")
    frozen = pc.locator("#clock-time").inner_text()
    time.sleep(1.2)
    assert pc.locator("#clock-time").inner_text() == frozen
    gm.click("[data-clock=stop]")
    for page in (gm, pc):
        expect(page.locator("#clock")).to_have_attribute("data-state", "stopped")


# --- the inventory slot board ---------------------------------------------------------------


def test_mouse_drag_moves_an_item_live_and_refused_drops_move_nothing(new_page):
    pc = new_page(viewport=DESKTOP)
    login(pc, "alice")
    cid = campaign_id(pc)
    character = make_character(
        pc,
        cid,
        [
            ("sword", SWORD, "hands:1"),
            ("pole", POLE, "backpack:1"),
            ("potion-1", POTION, "belt:1"),
            ("potion-2", POTION, "belt:1"),
        ],
    )
    gm = new_page(viewport=DESKTOP)
    login(gm, "referee")
    open_board(gm, character)
    open_board(pc, character)
    expect(item(pc, "potion-2")).to_contain_text("стопка 2/5")
    expect(item(pc, "pole")).to_contain_text("2 сл.")
    expect(item(pc, "sword")).to_contain_text("урон 1d4 / 1d6 / 1d8")
    shot(pc, "board-desktop")

    # a mouse drag: hands 1 → belt 2; the referee's board follows without a reload
    version = int(gm.locator("#inventory").get_attribute("data-version"))
    mouse_drag(pc, item(pc, "sword"), slot(pc, "belt:2"))
    expect_at(pc, "sword", "belt", 2)
    expect_at(gm, "sword", "belt", 2)
    expect(gm.locator("#inventory")).to_have_attribute("data-version", str(version + 1))
    expect(pc.locator("#inv-alert")).to_be_hidden()

    # refused: the 2-slot pole onto backpack slot 10 (the server says why; nothing moves)
    version += 1
    mouse_drag(pc, item(pc, "pole"), slot(pc, "backpack:10"), grab_x=15)
    alert = pc.locator("#inv-alert")
    expect(alert).to_be_visible()
    expect(alert).to_contain_text("«Шест»")
    expect(alert).to_contain_text("не помещается")
    for page in (pc, gm):
        expect_at(page, "pole", "backpack", 1)
        expect(page.locator("#inventory")).to_have_attribute("data-version", str(version))
    shot(pc, "board-refused")

    # one potion into an empty hand is fine; a second one onto that hand is refused
    mouse_drag(pc, item(pc, "potion-2"), slot(pc, "hands:2"))
    expect_at(pc, "potion-2", "hands", 2)
    expect(alert).to_be_hidden()
    mouse_drag(pc, item(pc, "potion-1"), slot(pc, "hands:2"))
    expect(alert).to_contain_text("только один предмет")
    expect_at(pc, "potion-1", "belt", 1)
    expect_at(gm, "potion-1", "belt", 1)

    # the keyboard: Enter picks the item up, Enter on a slot puts it there
    item(pc, "pole").focus()
    pc.keyboard.press("Enter")
    expect(pc.locator("#inv-hint")).to_be_visible()
    slot(pc, "backpack:5").focus()
    pc.keyboard.press("Enter")
    expect_at(pc, "pole", "backpack", 5)
    expect_at(gm, "pole", "backpack", 5)
    expect(pc.locator("#inv-hint")).to_be_hidden()

    # the referee edits too; the player's board follows
    mouse_drag(gm, item(gm, "sword"), slot(gm, "backpack:9"))
    expect_at(gm, "sword", "backpack", 9)
    expect_at(pc, "sword", "backpack", 9)


def test_touch_drag_and_tap_on_a_phone(browser, app_server, new_page):
    context = browser.new_context(
        base_url=app_server, viewport=PHONE, has_touch=True, is_mobile=True
    )
    context.set_default_timeout(10_000)
    try:
        phone = context.new_page()
        login(phone, "alice")
        cid = campaign_id(phone)
        character = make_character(
            phone,
            cid,
            [
                ("rope", ROPE, "backpack:9"),
                ("pole", POLE, "backpack:1"),
                ("sword", SWORD, "hands:1"),
            ],
        )
        gm = new_page(viewport=DESKTOP)
        login(gm, "referee")
        open_board(gm, character)
        open_board(phone, character)
        shot(phone, "board-phone")

        # press, hold and drag with a finger: backpack 9 → backpack 7
        touch_drag(context, phone, item(phone, "rope"), slot(phone, "backpack:7"))
        expect_at(phone, "rope", "backpack", 7)
        expect_at(gm, "rope", "backpack", 7)

        # a quick swipe over a card scrolls the page and moves nothing
        version = phone.locator("#inventory").get_attribute("data-version")
        item(phone, "sword").evaluate("node => node.scrollIntoView({block: 'center'})")
        box = item(phone, "sword").bounding_box()
        cdp = context.new_cdp_session(phone)
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]}
        )
        for i in range(1, 8):
            point = {"x": x, "y": y - 30 * i}
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()
        time.sleep(0.5)
        expect_at(phone, "sword", "hands", 1)
        assert phone.locator("#inventory").get_attribute("data-version") == version

        # tap the item, then tap the slot
        item(phone, "sword").tap()
        expect(phone.locator("#inv-hint")).to_contain_text("Выбрано: Меч")
        expect(phone.locator("#inv-details")).to_contain_text("Меч")
        slot(phone, "belt:4").tap()
        expect_at(phone, "sword", "belt", 4)
        expect_at(gm, "sword", "belt", 4)

        # a refused tap-move shows the server's reason too
        item(phone, "pole").tap()
        slot(phone, "belt:4").tap()
        expect(phone.locator("#inv-alert")).to_be_visible()
        expect_at(phone, "pole", "backpack", 1)
        shot(phone, "board-phone-after")
    finally:
        context.close()


def test_other_players_get_no_board_and_the_login_page_guards_it(new_page):
    pc = new_page()
    login(pc, "alice")
    character = make_character(pc, campaign_id(pc), [("sword", SWORD, "hands:1")])
    other = new_page()
    login(other, "boris")
    response = other.goto(f"/characters/{character}/inventory/")
    assert response.status == 404
    anonymous = new_page()
    anonymous.goto(f"/characters/{character}/inventory/")
    expect(anonymous).to_have_url(re.compile(r"/accounts/login/"))
