"""The travel panel's inputs and choices in two real browsers: the referee gives a role with an
ally and a quarry, and a second character helps instead of taking a role; Alice's Make camp
check offers its choice in her panel and she answers it there; after the rest
her 17+ on the Miasma save offers her own choice, which the referee's "apply" then uses."""

from __future__ import annotations

import uuid

from playwright.sync_api import expect

from systems.crows.sheet import QUARRY_MAX
from tests.e2e.conftest import login
from tests.e2e.test_crows_map_attack import (
    DESKTOP,
    api,
    campaign_id,
    ok,
    open_map,
)


def test_roles_with_allies_then_the_players_own_choices(new_page):
    tag = uuid.uuid4().hex[:6]
    pc = new_page(viewport=DESKTOP)
    login(pc, "alice")
    cid = campaign_id(pc)
    strong = {"characteristics": {"agility": 0, "reason": 5, "strength": 5}}
    ava_name, bran_name = f"Ава {tag}", f"Бран {tag}"
    characters = f"/api/campaigns/{cid}/characters/"
    ava = ok(api(pc, "POST", characters, {"name": ava_name, "state": strong}), 201)["id"]
    bran = ok(api(pc, "POST", characters, {"name": bran_name}), 201)["id"]
    gm = new_page(viewport=DESKTOP)
    login(gm, "referee")
    hexmap = ok(
        api(
            gm,
            "POST",
            f"/api/campaigns/{cid}/maps/",
            {
                "name": f"Тракт {tag}",
                "kind": "hex",
                "orientation": "flat",
                "width": 10,
                "height": 8,
                "fogged": False,
            },
        ),
        201,
    )["map"]["id"]
    base = f"/api/campaigns/{cid}/maps/{hexmap}/"
    ok(api(gm, "POST", base + "party/", {"shown": [4, 4], "true": [4, 4], "reveal": 1}))
    ok(api(gm, "POST", base + "activate/", {"active": True}))
    api(gm, "POST", base + "travel/end/", {})  # a journey left over by another run

    open_map((gm, pc), cid, hexmap)
    gm.locator("[data-travel-step=begin]").click()
    expect(pc.locator("[data-travel-state] .travel-day")).to_have_text("День 0")

    # roles with an ally and a quarry; Бран helps instead of taking a role
    gm.locator("[data-travel-step=day]").click()
    expect(pc.locator("[data-travel-state] .travel-day")).to_have_text("День 1")
    gm.locator(f"[data-role-for='{ava}']").select_option("hunt")
    gm.locator(f"[data-allies-for='{ava}']").select_option(str(bran))
    gm.locator(f"[data-quarry-for='{ava}']").fill("олень")
    expect(gm.locator(f"[data-quarry-for='{ava}']")).to_have_attribute("maxlength", str(QUARRY_MAX))
    gm.locator(f"[data-helps-for='{bran}']").select_option(str(ava))
    gm.locator("[data-travel-step=roles]").click()
    expect(pc.locator(f"[data-travel-state] [data-role-name='{ava_name}']")).to_be_visible()
    day = ok(api(gm, "GET", base + "travel/"))["travel"]
    role = next(r for r in day["roles"] if r["name"] == ava_name)
    assert role["allies"] == [bran_name] and role["quarry"] == "олень"
    assert {"name": bran_name, "helps": ava_name} in day["helping"]

    # Make camp until it offers its "choose one" (12+, L1022-L1028; Strength 5): answered in
    # the panel
    choice = pc.locator("[data-travel-choice] [data-travel-option]")
    for n in range(2, 16):
        gm.locator("[data-travel-step=day]").click()
        expect(pc.locator("[data-travel-state] .travel-day")).to_have_text(f"День {n}")
        gm.locator(f"[data-helps-for='{bran}']").select_option("")
        gm.locator(f"[data-role-for='{ava}']").select_option("make_camp")
        gm.locator("[data-travel-step=roles]").click()
        check = pc.locator(f"[data-travel-check='{ava_name}']")
        expect(check).to_be_visible()
        # Empty the last day's answer first: its text names the same character, and waiting
        # on it let the loop read the options before this day's answer replaced them.
        pc.evaluate("document.querySelector('[data-travel-choice]')?.replaceChildren()")
        check.click()
        expect(pc.locator("[data-travel-choice] .travel-choice-text")).to_contain_text(ava_name)
        if choice.count():
            break
    assert choice.count() >= 1
    before = ok(api(gm, "GET", base + "travel/"))["travel"]["rest_threshold"]
    pc.locator("[data-travel-choice] [data-travel-option='rest_threshold']").click()
    expect(choice).to_have_count(0)
    after = ok(api(gm, "GET", base + "travel/"))["travel"]
    assert before < after["rest_threshold"] <= min(10, before + 2)  # +1 at 12–16, +2 at 17+
    assert next(r for r in after["roles"] if r["name"] == ava_name)["done"]

    # the Miasma after the rest: the referee rolls until Ава has a 17+ and Бран not (both
    # Reason 5), so the panel shows a choice to the 17+ roller only
    mine = pc.locator(f"[data-miasma-for='{ava}']")
    for _ in range(40):
        gm.locator("[data-travel-step=miasma]").click()
        expect(gm.locator("[data-travel-secret]")).to_contain_text(ava_name)
        pc.wait_for_timeout(300)
        if mine.count() and not pc.locator(f"[data-miasma-for='{bran}']").count():
            break
    expect(mine).to_be_visible()
    expect(pc.locator(f"[data-miasma-for='{bran}']")).to_have_count(0)  # only a 17+ chooses
    mine.locator("[data-miasma-clear]").click()
    expect(mine.locator("[data-miasma-chosen]")).to_have_attribute("data-miasma-chosen", "clear")
    pending = ok(api(gm, "GET", base + "travel/"))
    assert pending["travel"] is not None
    gm.locator("[data-travel-step=miasma_resolve]").click()
    expect(mine).to_have_count(0)
    gm.locator("[data-travel-step=end]").click()
    expect(pc.locator("[data-travel-state]")).to_contain_text("не в пути")
    ok(api(gm, "POST", base + "activate/", {"active": False}))
