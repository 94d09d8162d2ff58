"""The Crows turn's options in two real browsers: the referee names Alice to roll the side
initiative and only her browser shows the button; on her turn she drags her token across
difficult ground (the Move's squares are spent by the path) and taunts the goblin from the
strip, and the referee sees both live. A hidden NPC stays out of everything she receives
(the leak scan after the test)."""

from __future__ import annotations

import uuid

from playwright.sync_api import expect

from tests.e2e.conftest import login, register_secret
from tests.e2e.test_crows_map_attack import (
    DESKTOP,
    api,
    campaign_id,
    ok,
    open_map,
    place_tokens,
)


def screen_point(page, col: int, row: int) -> tuple[float, float]:
    return page.evaluate(
        """([c, r]) => {
            const p = VTTMap.geometry().center(c, r);
            const m = document.querySelector('.map-view').getScreenCTM();
            const q = new DOMPoint(p[0], p[1]).matrixTransform(m);
            return [q.x, q.y];
        }""",
        [col, row],
    )


def drag(page, cells: list[tuple[int, int]]) -> None:
    """Press on the first square, pass over the others, release on the last."""
    page.locator("[data-map-svg]").first.scroll_into_view_if_needed()
    x, y = screen_point(page, *cells[0])
    page.mouse.move(x, y)
    page.mouse.down()
    for col, row in cells[1:]:
        x, y = screen_point(page, col, row)
        page.mouse.move(x, y, steps=4)
    page.mouse.up()


def test_the_named_player_rolls_then_walks_and_taunts(new_page):
    tag = uuid.uuid4().hex[:6]
    secret = f"Тень-{tag}"
    register_secret(secret)
    pc = new_page(viewport=DESKTOP)
    login(pc, "alice")
    cid = campaign_id(pc)
    mine = ok(
        api(pc, "POST", f"/api/campaigns/{cid}/characters/", {"name": f"Воительница {tag}"}), 201
    )["id"]
    gm = new_page(viewport=DESKTOP)
    login(gm, "referee")
    characters = f"/api/campaigns/{cid}/characters/"
    goblin = ok(api(gm, "POST", characters, {"name": f"Гоблин {tag}", "kind": "npc"}), 201)["id"]
    shade = ok(api(gm, "POST", characters, {"name": secret, "kind": "npc", "hidden": True}), 201)[
        "id"
    ]
    battle = ok(
        api(
            gm,
            "POST",
            f"/api/campaigns/{cid}/maps/",
            {"name": f"Болото {tag}", "width": 9, "height": 5, "fogged": False},
        ),
        201,
    )["map"]["id"]
    base = f"/api/campaigns/{cid}/maps/{battle}/"
    tokens = place_tokens(
        gm,
        base,
        (
            ("Воительница", 1, mine, False),
            ("Гоблин", 6, goblin, False),
            (secret, 8, shade, True),
        ),
    )
    ok(api(gm, "POST", base + "features/", {"cells": [[2, 2], [3, 2]], "ground": "difficult"}))
    ok(api(gm, "POST", base + "activate/", {"active": True}))
    api(gm, "POST", base + "combat/end/", {})  # a combat left over by another run

    open_map((gm, pc), cid, battle)
    for page in (gm, pc):
        expect(page.locator("[data-combat-strip]")).to_be_visible()
    gm.locator("[data-combat-step=start]").click()
    expect(pc.locator("[data-combat-state] [data-combatant]")).to_have_count(2)
    expect(pc.locator("[data-combat-initiative]")).to_have_count(0)
    # the referee names Alice: the roll button appears in her browser only
    gm.locator("[data-combat-roller]").select_option(label="Алиса")
    roll = pc.locator("[data-combat-initiative]")
    expect(roll).to_be_visible()
    expect(gm.locator("[data-combat-initiative]")).to_have_count(0)
    roll.click()
    for page in (gm, pc):
        expect(page.locator("[data-combat-state] .combat-round")).to_have_attribute(
            "data-round", "1"
        )
    expect(pc.locator("[data-combat-initiative]")).to_have_count(0)  # the round is under way
    # her turn (the referee starts it whichever side won: the test needs it now)
    ok(
        api(
            gm,
            "POST",
            base + "combat/turn/",
            {"combatant": f"t{tokens['Воительница']}", "force": True},
        )
    )
    expect(pc.locator("[data-combat-end-turn]")).to_be_visible()
    # a drag over two squares of difficult ground to (3, 2): 1 + 1 + … = 4 of her 6 squares
    drag(pc, [(1, 2), (2, 2), (3, 2)])
    gm.wait_for_function("() => VTTCrows.combat().turn && VTTCrows.combat().turn.moved === 4")
    assert gm.evaluate("() => VTTCrows.combat().turn.move_left") == 2
    # the taunt from the strip: the goblin is taunted in both browsers
    target = pc.locator("[data-combat-target]")
    target.select_option(value=f"t{tokens['Гоблин']}")
    pc.locator("[data-combat-taunt]").click()
    for page in (gm, pc):
        expect(page.locator(f"[data-combatant='t{tokens['Гоблин']}']")).to_contain_text(
            "под насмешкой"
        )
    expect(pc.locator("[data-combat-taunt]")).to_have_count(0)  # the action is spent
    assert secret not in pc.content()
    gm.locator("[data-combat-step=end]").click()
    expect(pc.locator("[data-combat-state]")).to_contain_text("Боя нет")
    ok(api(gm, "POST", base + "activate/", {"active": False}))
