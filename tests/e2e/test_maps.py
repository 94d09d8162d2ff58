"""Maps in real browsers: the referee builds a map on the management pages, drags a token with
the mouse and reveals fog with the rectangle tool; the player (a phone with a touch screen)
sees the move and the newly visible area live, drags their own token with a finger, measures
with the ruler, and never has the hidden token in the DOM, before or after.

The campaign is shared with other browser tests, so every name here carries a unique tag."""

from __future__ import annotations

import io
import json
import re
import uuid

from PIL import Image
from playwright.sync_api import expect

from tests.e2e.conftest import login

CAMPAIGN = "Демо: Град Иуды"
PHONE = {"width": 390, "height": 844}


def csrf(page) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")


def call(page, method: str, url: str, data=None):
    response = page.request.fetch(
        url,
        method=method,
        data=data,
        headers={"X-CSRFToken": csrf(page), "Referer": page.url},
    )
    assert response.ok, (method, url, response.status, response.text()[:300])
    return response.json() if response.status != 204 else None


def campaign_id(page) -> int:
    page.goto("/campaigns/")
    href = page.locator("a.title", has_text=CAMPAIGN).first.get_attribute("href")
    return int(re.search(r"/campaigns/(\d+)/", href).group(1))


def forms_of(text: str) -> tuple[str, str]:
    """As the DOM shows it, and as json_script escapes it."""
    return text, json.dumps(text)[1:-1]


def has(page, text: str) -> bool:
    content = page.content()
    return any(form in content for form in forms_of(text))


def cell_point(page, col: int, row: int) -> tuple[float, float]:
    """Screen coordinates of a cell's centre in the map panel."""
    return page.evaluate(
        """([c, r]) => {
            const p = VTTMap.geometry().center(c, r);
            const m = document.querySelector('.map-view').getScreenCTM();
            const q = new DOMPoint(p[0], p[1]).matrixTransform(m);
            return [q.x, q.y];
        }""",
        [col, row],
    )


def token_at(page, token_id: int, col: int, row: int) -> None:
    page.wait_for_function(
        "([id, c, r]) => { const t = VTTMap.tokens()[id];"
        " return t && t.col === c && t.row === r; }",
        arg=[token_id, col, row],
    )


def mouse_drag(page, start, end) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=10)
    page.mouse.up()


def touch_drag(page, start, end) -> None:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    point = {"x": start[0], "y": start[1]}
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    for i in range(1, 11):
        x = start[0] + (end[0] - start[0]) * i / 10
        y = start[1] + (end[1] - start[1]) * i / 10
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def background_png() -> bytes:
    image = Image.new("RGB", (600, 400), (90, 120, 80))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def test_referee_moves_and_reveals_player_sees_it_live_and_never_the_hidden_token(new_page):
    tag = uuid.uuid4().hex[:6]
    hidden_name = f"Тайный-Убийца-{tag}"
    fogged_name = f"Туманный-Волк-{tag}"
    guard_name = f"Страж-{tag}"

    # --- the referee builds the map on the management pages ---
    gm = new_page()
    login(gm, "referee")
    cid = campaign_id(gm)
    gm.goto(f"/campaigns/{cid}/maps/")
    expect(gm.locator("h1")).to_have_text("Карты")
    gm.fill("#id_name", f"Подвал {tag}")
    gm.fill("#id_width", "12")
    gm.fill("#id_height", "8")
    gm.check("#id_fogged_1")  # everything hidden: revealed as the party explores
    gm.click("form.map-form button[type=submit]")
    expect(gm).to_have_url(re.compile(rf"/campaigns/{cid}/maps/\d+/$"))
    map_id = int(re.search(r"/maps/(\d+)/$", gm.url).group(1))
    gm.set_input_files(
        "#id_image", {"name": "cellar.png", "mimeType": "image/png", "buffer": background_png()}
    )
    gm.click("form[action$='/upload/'] button[type=submit]")
    expect(gm.locator(".messages")).to_contain_text("Фон загружен")
    gm.click("button[value=activate]")
    expect(gm.locator(".editor-head .badge.ok")).to_be_visible()

    api = f"/api/campaigns/{cid}/maps/{map_id}/"
    call(gm, "POST", api + "fog/", {"mode": "reveal", "rect": [0, 0, 5, 7]})
    guard = call(gm, "POST", api + "tokens/", {"name": guard_name, "col": 2, "row": 2})
    hidden = call(
        gm, "POST", api + "tokens/", {"name": hidden_name, "col": 3, "row": 5, "hidden": True}
    )
    fogged = call(gm, "POST", api + "tokens/", {"name": fogged_name, "col": 9, "row": 4})
    call(gm, "POST", api + "notes/", {"col": 8, "row": 1, "text": f"Секрет-{tag}", "secret": True})

    # --- the player's character gets a token ---
    pc = new_page(viewport=PHONE)
    login(pc, "alice")
    character = call(pc, "POST", f"/api/campaigns/{cid}/characters/", {"name": f"Алиса-{tag}"})
    own = call(
        gm,
        "POST",
        api + "tokens/",
        {"name": f"Алиса-{tag}", "col": 1, "row": 1, "character_id": character["id"], "speed": 6},
    )

    # --- both at the table ---
    gm.goto(f"/campaigns/{cid}/table/")
    pc.goto(f"/campaigns/{cid}/table/")
    for page in (gm, pc):
        expect(page.locator("#conn")).to_have_attribute("data-state", "connected")
        expect(page.locator("#map-panel .map-name")).to_have_text(f"Подвал {tag}")
        expect(page.locator(f"[data-token='{guard['id']}']")).to_be_visible()
    expect(pc.locator(f"[data-token='{fogged['id']}']")).to_have_count(0)
    assert not has(pc, hidden_name) and not has(pc, fogged_name) and not has(pc, f"Секрет-{tag}")
    assert has(gm, hidden_name) and has(gm, fogged_name)
    old_bg = pc.locator(".map-bg-image").get_attribute("href")
    assert old_bg and "background" in old_bg

    # --- the referee drags the guard with the mouse ---
    mouse_drag(gm, cell_point(gm, 2, 2), cell_point(gm, 4, 3))
    token_at(gm, guard["id"], 4, 3)
    token_at(pc, guard["id"], 4, 3)  # live in the player's browser

    # --- the referee reveals the east with the rectangle tool ---
    gm.click("[data-tool=fog]")
    gm.check("[data-options=fog] input[value=rect]")
    mouse_drag(gm, cell_point(gm, 6, 0), cell_point(gm, 11, 7))
    pc.wait_for_function("() => VTTMap.isRevealed(9, 4) && VTTMap.isRevealed(11, 7)")
    expect(pc.locator(f"[data-token='{fogged['id']}']")).to_be_visible()  # came into view
    expect(pc.locator(".map-bg-image")).not_to_have_attribute("href", old_bg)  # new masked copy
    assert has(pc, fogged_name)
    # the hidden token stands in revealed cells, yet the player's DOM never had it
    assert not has(pc, hidden_name) and not has(pc, f"Секрет-{tag}")
    assert pc.evaluate(f"() => !({hidden['id']} in VTTMap.tokens())")

    # --- the player drags their own token with a finger ---
    touch_drag(pc, cell_point(pc, 1, 1), cell_point(pc, 2, 3))
    token_at(pc, own["id"], 2, 3)
    token_at(gm, own["id"], 2, 3)
    expect(pc.locator("[data-map-info]")).to_contain_text("осталось 4")  # speed 6, moved 2

    # --- the ruler: Chebyshev squares, 5 ft each ---
    pc.click("[data-tool=ruler]")
    mouse_drag(pc, cell_point(pc, 0, 0), cell_point(pc, 3, 2))
    expect(pc.locator("[data-map-info]")).to_contain_text("3 кл. · 15 фт")

    # a reload replays nothing secret either
    pc.reload()
    expect(pc.locator("#conn")).to_have_attribute("data-state", "connected")
    expect(pc.locator(f"[data-token='{fogged['id']}']")).to_be_visible()
    assert not has(pc, hidden_name) and not has(pc, f"Секрет-{tag}")

    # clean up: take the map off the table so other tests see the table as they expect
    call(gm, "POST", api + "activate/", {"active": False})


def test_editor_counts_placed_tokens_and_a_player_keeps_their_token_in_the_fog(new_page):
    """Issue 18, item 12: a new map starts revealed by default; the editor's "Tokens (n)"
    follows the tokens placed with the Token tool; the colour picker is a usable square; a
    player's own token stays on their screen when the referee hides its cells or the token
    itself, and leaves it when the referee unlinks it from their character."""
    tag = uuid.uuid4().hex[:6]
    gm = new_page()
    login(gm, "referee")
    cid = campaign_id(gm)
    gm.goto(f"/campaigns/{cid}/maps/")
    expect(gm.locator("#id_fogged_0")).to_be_checked()  # revealed by default
    gm.fill("#id_name", f"Поляна {tag}")
    gm.fill("#id_width", "8")
    gm.fill("#id_height", "6")
    gm.click("form.map-form button[type=submit]")
    expect(gm).to_have_url(re.compile(rf"/campaigns/{cid}/maps/\d+/$"))
    map_id = int(re.search(r"/maps/(\d+)/$", gm.url).group(1))
    count = gm.locator("[data-token-count]")
    expect(count).to_have_text("0")
    gm.wait_for_function("() => window.VTTMap && VTTMap.geometry()")  # the editor's script ran
    gm.click("[data-tool=token]")
    colour = gm.locator("[data-token-color]").bounding_box()
    assert colour["width"] >= 40 and colour["height"] >= 30, colour
    gm.fill("[data-token-name]", f"Камень {tag}")
    gm.mouse.click(*cell_point(gm, 2, 2))
    expect(count).to_have_text("1")
    gm.mouse.click(*cell_point(gm, 5, 3))
    expect(count).to_have_text("2")

    api = f"/api/campaigns/{cid}/maps/{map_id}/"
    pc = new_page(viewport=PHONE)
    login(pc, "alice")
    character = call(pc, "POST", f"/api/campaigns/{cid}/characters/", {"name": f"Вера-{tag}"})
    own = call(
        gm,
        "POST",
        api + "tokens/",
        {"name": f"Вера-{tag}", "col": 1, "row": 1, "character_id": character["id"]},
    )
    call(gm, "POST", api + "activate/", {"active": True})
    pc.goto(f"/campaigns/{cid}/table/")
    expect(pc.locator("#conn")).to_have_attribute("data-state", "connected")
    expect(pc.locator(f"[data-token='{own['id']}']")).to_be_visible()
    call(gm, "POST", api + "fog/", {"mode": "hide", "all": True})
    pc.wait_for_function("() => !VTTMap.isRevealed(1, 1)")
    expect(pc.locator(f"[data-token='{own['id']}']")).to_be_visible()  # still theirs to see
    pc.reload()
    expect(pc.locator("#conn")).to_have_attribute("data-state", "connected")
    mine = pc.locator(f"[data-token='{own['id']}']")
    expect(mine).to_be_visible()
    # issue 18 review: hidden by the referee, still theirs (and never marked hidden for them)
    call(gm, "PATCH", api + f"tokens/{own['id']}/", {"hidden": True, "col": 2})
    pc.wait_for_function("(id) => VTTMap.tokens()[id].col === 2", arg=own["id"])
    expect(mine).to_be_visible()
    expect(mine).not_to_have_class(re.compile(r"is-hidden"))
    assert "hidden" not in pc.evaluate("(id) => VTTMap.tokens()[id]", own["id"])
    # unlinked from their character while under the fog: it leaves their screen live
    call(gm, "PATCH", api + f"tokens/{own['id']}/", {"character_id": None})
    expect(mine).to_have_count(0)
    pc.reload()
    expect(pc.locator("#conn")).to_have_attribute("data-state", "connected")
    expect(mine).to_have_count(0)
    call(gm, "POST", api + "activate/", {"active": False})
