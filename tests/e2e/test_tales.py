"""Сказания волшебного мира in a real browser: a player makes a character with the wizard on a
phone (the server rolls; every answer works whatever the dice say), leaves half-way and comes
back to the same step, and finishes into a sheet; the referee runs the battle record's side
initiative, and the player's table shows whose side acts."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS, login

CAMPAIGN = "Демо: Сказания волшебного мира"
PHONE = {"width": 390, "height": 844}


def open_campaign_table(page) -> int:
    page.goto("/campaigns/")
    page.locator("a.title", has_text=CAMPAIGN).first.click()
    page.click("a.button:has-text('За стол')")
    expect(page).to_have_url(re.compile(r"/campaigns/\d+/table/$"))
    expect(page.locator("#conn")).to_have_attribute("data-state", "connected")
    return int(re.search(r"/campaigns/(\d+)/table/", page.url).group(1))


def step(page) -> str:
    return page.locator("#wizard").get_attribute("data-step")


def test_the_wizard_on_a_phone_and_the_side_initiative(new_page):
    pc = new_page(viewport=PHONE)
    login(pc, "boris")
    campaign_id = open_campaign_table(pc)
    pc.click("#tablestate a:has-text('Новый персонаж')")
    expect(pc.locator("h1")).to_have_text("Новый персонаж")
    if step(pc) == "done":  # a character from an earlier run: start another
        pc.click("button:has-text('Создать ещё одного персонажа')")

    # three times 3d6, assigned in order; the third goes to the last stat by itself
    for stat in ("Сила", "Ловкость"):
        pc.click("button:has-text('Бросить 3d6')")
        expect(pc.locator(".wizard-total")).to_be_visible()
        pc.locator("form.assign button", has_text=stat).click()
        expect(pc.locator(f".wizard-stats dt:has-text('{stat}') + dd")).not_to_have_text("—")
    pc.screenshot(path=str(ARTIFACTS / "tales-wizard-phone-stats.png"), full_page=True)
    pc.click("button:has-text('Бросить 3d6')")
    expect(pc.locator("#wizard")).to_have_attribute("data-step", "origin")

    # a new visit (another day): the wizard is where it was left
    pc.goto(f"/campaigns/{campaign_id}/tales/wizard/")
    expect(pc.locator("#wizard")).to_have_attribute("data-step", "origin")
    pc.click("button:has-text('Бросить 2d10')")
    expect(pc.locator(".origin b")).to_be_visible()
    if step(pc) == "origin_details":
        if pc.locator("select[name=art]").count():
            pc.select_option("select[name=art]", "painting")
        for field in pc.locator("input[name=craft]").all():
            field.fill("кузнец")
        pc.click("#wizard button:has-text('Дальше')")
    expect(pc.locator("#wizard")).to_have_attribute("data-step", "picks")
    pc.screenshot(path=str(ARTIFACTS / "tales-wizard-phone-picks.png"), full_page=True)

    # a refused pick explains itself and keeps the step: Literacy has no levels
    pc.select_option("#w-skill0", "literacy")
    pc.select_option("#w-skill1", "literacy")
    pc.click("#wizard button:has-text('Дальше')")
    expect(pc.locator("#wizard .msg.error")).to_contain_text("Грамотность")
    expect(pc.locator("#wizard")).to_have_attribute("data-step", "picks")
    pc.select_option("#w-skill0", "lore")
    pc.select_option("#w-skill1", "stealth")
    pc.click("#wizard button:has-text('Дальше')")
    expect(pc.locator("#wizard")).to_have_attribute("data-step", "equipment")
    pc.check("input[name=weapons][value=dagger]")
    pc.click("#wizard button:has-text('Дальше')")
    expect(pc.locator("#wizard")).to_have_attribute("data-step", "finish")
    name = f"Борислав {uuid.uuid4().hex[:4]}"
    pc.fill("#w-name", name)
    pc.fill("#w-langs", "гномий")
    pc.click("button:has-text('Создать персонажа')")
    expect(pc.locator("#wizard")).to_have_attribute("data-step", "done")
    expect(pc.locator(".wizard-summary h2")).to_have_text(name)
    expect(pc.locator("[data-derived=max_hp]")).not_to_have_text("")
    pc.screenshot(path=str(ARTIFACTS / "tales-wizard-phone-done.png"), full_page=True)

    # the battle: the referee rolls side initiative; the player's table shows who acts
    gm = new_page()
    gm.on("dialog", lambda dialog: dialog.accept())
    login(gm, "referee")
    open_campaign_table(gm)
    gm.click("#tablestate [data-action=reset_battle]")
    expect(gm.locator("#tablestate")).to_have_attribute("data-phase", "start")
    pc.goto(f"/campaigns/{campaign_id}/table/")
    expect(pc.locator("#tablestate .ts-side[data-side=party]")).to_contain_text(name)
    for _ in range(10):  # a tie is rolled again
        gm.click("#tablestate [data-action=initiative]")
        try:
            expect(gm.locator("#tablestate")).to_have_attribute(
                "data-phase", "rounds", timeout=3000
            )
            break
        except AssertionError:
            continue
    expect(pc.locator("#tablestate")).to_have_attribute("data-phase", "rounds")
    expect(pc.locator("#ts-round")).to_have_text("Раунд 1")
    acting = pc.locator("#tablestate .ts-side.is-acting")
    expect(acting).to_have_count(1)
    first = acting.get_attribute("data-side")
    gm.click("#tablestate [data-action=next_side]")
    expect(pc.locator("#tablestate .ts-side.is-acting")).not_to_have_attribute("data-side", first)
    expect(pc.locator("#log-list .entry[data-action=initiative]").last).to_be_visible()
    gm.screenshot(path=str(ARTIFACTS / "tales-table-desktop.png"), full_page=True)
    pc.screenshot(path=str(ARTIFACTS / "tales-table-phone.png"), full_page=True)
    desktop = new_page()
    login(desktop, "alice")
    desktop.goto(f"/campaigns/{campaign_id}/tales/wizard/")
    desktop.screenshot(path=str(ARTIFACTS / "tales-wizard-desktop.png"), full_page=True)
