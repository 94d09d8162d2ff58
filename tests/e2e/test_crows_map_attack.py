"""A ranged attack on the Crows battle map, in two real browsers.

The referee lays out a square map on the demo Crows campaign: a low wall just in front of a
goblin and dim light all over (the map's ambient light). Alice, on her own browser, selects her
archer's token, presses "Атаковать", taps the goblin and shoots with her bow. The server reads
the cover and the light from the map: two disadvantages, so a double disadvantage. Alice's map
shows the sources and the roll; both table logs (hers and the referee's) show the attack with
the same sources, live.

The demo campaign is shared with other browser tests, so every name here carries a unique tag.
"""

from __future__ import annotations

import re
import time
import uuid

from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS, login

CAMPAIGN = "Демо: Crows: Удача или смерть"
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

BOW = {
    "name": "Лук",
    "kind": "bow",
    "damage": {"type": "ranged", "range": 12, "tier2": "1d6", "tier3": "1d6+2", "ammo": "arrow"},
}
ARROWS = {"name": "Стрелы", "kind": "arrow", "stack": 20}


def api(page, method: str, url: str, body: dict | None = None) -> dict:
    """Call the REST API from inside the page (its session and CSRF cookie); retry on 429."""
    for _attempt in range(20):
        result = page.evaluate(API_JS, [method, url, body])
        if result["status"] != 429:
            return result
        time.sleep(1)
    return result


def ok(result: dict, status: int = 200) -> dict:
    assert result["status"] == status, result
    return result["data"]


def campaign_id(page) -> int:
    page.goto("/campaigns/")
    href = page.locator("a.title", has_text=CAMPAIGN).first.get_attribute("href")
    return int(re.search(r"/campaigns/(\d+)/", href).group(1))


def open_table(page, cid: int) -> None:
    page.goto(f"/campaigns/{cid}/table/")
    expect(page.locator("#conn")).to_have_attribute("data-state", "connected")


def open_map(pages, cid: int, map_id: int) -> None:
    """Open the table in each browser and wait until its map view shows this map."""
    for page in pages:
        open_table(page, cid)
    for page in pages:
        page.wait_for_function(
            f"() => window.VTTMap && VTTMap.state() && VTTMap.state().map.id === {map_id}"
        )


def place_tokens(gm, base: str, specs, row: int = 2) -> dict[str, int]:
    """The referee's tokens on one row: ``(name, col, character_id, hidden)`` → name: id."""
    return {
        name: ok(
            api(
                gm,
                "POST",
                base + "tokens/",
                {"name": name, "col": col, "row": row, "character_id": character, "hidden": hidden},
            ),
            201,
        )["id"]
        for name, col, character, hidden in specs
    }


def click_cell(page, col: int, row: int) -> None:
    x, y = page.evaluate(
        """([c, r]) => {
            const p = VTTMap.geometry().center(c, r);
            const m = document.querySelector('.map-view').getScreenCTM();
            const q = new DOMPoint(p[0], p[1]).matrixTransform(m);
            return [q.x, q.y];
        }""",
        [col, row],
    )
    page.mouse.click(x, y)


def test_a_ranged_attack_takes_cover_and_light_from_the_map_in_both_browsers(new_page):
    tag = uuid.uuid4().hex[:6]
    pc = new_page(viewport=DESKTOP)
    login(pc, "alice")
    cid = campaign_id(pc)
    archer = ok(
        api(pc, "POST", f"/api/campaigns/{cid}/characters/", {"name": f"Лучница {tag}"}), 201
    )["id"]
    for item_id, card, target in (
        (f"bow-{tag}", BOW, "hands:1"),
        (f"arrows-{tag}", ARROWS, "backpack:1"),
    ):
        ok(
            api(
                pc,
                "POST",
                f"/api/characters/{archer}/moves/place_item/",
                {"params": {"item": {"id": item_id, **card}, "target": target}},
            ),
            201,
        )

    gm = new_page(viewport=DESKTOP)
    login(gm, "referee")
    goblin = ok(
        api(
            gm,
            "POST",
            f"/api/campaigns/{cid}/characters/",
            {"name": f"Гоблин {tag}", "kind": "npc", "state": {"kind": "monster"}},
        ),
        201,
    )["id"]
    battle = ok(
        api(
            gm,
            "POST",
            f"/api/campaigns/{cid}/maps/",
            {"name": f"Склеп {tag}", "width": 10, "height": 6, "fogged": False},
        ),
        201,
    )["map"]["id"]
    base = f"/api/campaigns/{cid}/maps/{battle}/"
    ok(api(gm, "PATCH", base, {"ambient_light": "dim"}))
    ok(api(gm, "POST", base + "features/", {"cells": [[5, 2]], "cover": "low"}))
    mine = ok(
        api(
            gm,
            "POST",
            base + "tokens/",
            {"name": "Лучница", "col": 1, "row": 2, "character_id": archer},
        ),
        201,
    )["id"]
    ok(
        api(
            gm,
            "POST",
            base + "tokens/",
            {"name": "Гоблин", "col": 6, "row": 2, "character_id": goblin},
        ),
        201,
    )
    ok(api(gm, "POST", base + "activate/", {"active": True}))

    open_map((gm, pc), cid, battle)
    for page in (gm, pc):
        expect(page.locator(".feature-cover-low")).to_have_count(1)  # the low wall is drawn
        expect(page.locator(".ambient-dim")).to_have_count(1)
    # Alice: her token, "Атаковать", the goblin, the bow, fire
    click_cell(pc, 1, 2)
    attack = pc.locator("[data-map-info] .attack-start")
    expect(attack).to_have_text("Атаковать")
    attack.click()
    expect(pc.locator("[data-map-info] .attack-hint")).to_contain_text("фишку цели")
    click_cell(pc, 6, 2)
    weapon = pc.locator("[data-attack-weapon]")
    expect(weapon).to_have_value(f"bow-{tag}")
    pc.locator("[data-attack-go]").click()
    result = pc.locator("[data-attack-result]")
    expect(result).to_be_visible()
    expect(result).to_have_attribute("data-net", "-2")
    expect(result.locator(".attack-sources")).to_contain_text("Укрытие")
    expect(result.locator(".attack-sources")).to_contain_text("Тусклый свет")
    expect(result.locator(".attack-sources")).to_contain_text("двойная помеха")
    # both logs show the attack with the map's sources, live
    for page in (pc, gm):
        entry = page.locator(".entry-move", has=page.locator(".map-context")).filter(
            has_text=f"Лучница {tag}"
        )
        expect(entry).to_have_count(1)
        context = entry.locator(".map-context")
        expect(context).to_have_attribute("data-net", "-2")
        expect(context).to_contain_text("Укрытие (−)")
        expect(context).to_contain_text("Тусклый свет (−)")
        expect(context).to_contain_text("двойная помеха")
        expect(entry.locator(".outcome .total")).to_have_count(1)
    ARTIFACTS.mkdir(exist_ok=True)
    pc.screenshot(path=str(ARTIFACTS / "crows-map-attack-player.png"), full_page=True)
    # the player's browser never got the goblin's sheet
    assert f"Гоблин {tag}" not in pc.evaluate("() => JSON.stringify(VTTMap.state().tokens)")
    assert pc.evaluate(f"() => VTTMap.tokens()[{mine}].col") == 1
    # take the map off the table for the other browser tests
    ok(api(gm, "POST", base + "activate/", {"active": False}))
