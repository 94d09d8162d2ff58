"""Savage Worlds at the table in real browsers: the referee starts a session and a fight and
deals a round; the referee's browser and a player's phone both show every dealt card and the
same turn order; the player makes a trait roll from her panel and spends a benny on a re-roll,
and the benny count drops and the log says so in both browsers.

The server rolls and shuffles with real randomness, so nothing here depends on a particular
card or face: a re-roll is offered whenever the roller has a benny left.
"""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS, login

CAMPAIGN = "Демо: Savage Worlds (Дневник авантюриста)"
PHONE = {"width": 390, "height": 844}


def open_table(page) -> int:
    page.goto("/campaigns/")
    page.locator("a.title", has_text=CAMPAIGN).first.click()
    page.click("a.button:has-text('За стол')")
    expect(page).to_have_url(re.compile(r"/campaigns/\d+/table/$"))
    expect(page.locator("#conn")).to_have_attribute("data-state", "connected")
    expect(page.locator("#tablestate")).to_be_visible()
    return int(re.search(r"/campaigns/(\d+)/table/", page.url).group(1))


def csrf(page) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")


def create_character(page, campaign_id: int, name: str) -> int:
    """Through the API as the signed-in player (the sheet pages are another feature)."""
    response = page.request.post(
        f"/api/campaigns/{campaign_id}/characters/",
        data={
            "name": name,
            "state": {
                "attributes": {
                    "agility": "d8",
                    "smarts": "d6",
                    "spirit": "d6",
                    "strength": "d6",
                    "vigor": "d6",
                },
                "skills": [{"key": "fighting", "name": "Драка", "die": "d8"}],
            },
        },
        headers={"X-CSRFToken": csrf(page), "Referer": page.url},
    )
    assert response.status == 201, response.text()
    return response.json()["id"]


def order_of(page) -> list[tuple[str, str]]:
    entries = page.locator("#tablestate .deck-order .deck-entry")
    return [
        (
            entries.nth(i).locator(".deck-name-text").inner_text(),
            entries.nth(i).get_attribute("data-card"),
        )
        for i in range(entries.count())
    ]


def test_a_round_of_cards_and_a_benny_reroll_in_two_browsers(new_page):
    gm = new_page()
    gm.on("dialog", lambda dialog: dialog.accept())
    login(gm, "referee")
    campaign_id = open_table(gm)
    pc = new_page(viewport=PHONE)
    login(pc, "alice")
    open_table(pc)

    name = f"Ива {uuid.uuid4().hex[:4]}"
    cid = create_character(pc, campaign_id, name)
    mine = pc.locator(f'#tablestate .mine-char[data-character="{cid}"]')
    expect(mine).to_be_visible()  # the new sheet shows up in her panel without a reload

    # the referee starts the session: every player character gets 3 bennies (L77)
    expect(gm.locator(f'#tablestate .ts-participant[data-character="{cid}"]')).to_be_visible()
    gm.click("#tablestate [data-action=start_session]")
    expect(mine.locator(".bennies")).to_have_attribute("data-bennies", "3")
    expect(gm.locator("#tablestate .pool-count")).not_to_have_text("0")

    # a fight: the referee shuffles and deals; both browsers see the same cards in order
    gm.click("#tablestate [data-action=start_combat]")
    gm.click("#tablestate [data-action=deal_round]")
    expect(gm.locator("#ts-round")).to_have_text("Раунд 1")
    expect(pc.locator("#ts-round")).to_have_text("Раунд 1")
    mine_in_order = pc.locator(f'#tablestate .deck-entry[data-character="{cid}"]')
    expect(mine_in_order).to_have_count(1)
    expect(mine_in_order).to_have_class(re.compile(r"\bis-mine\b"))
    expect(gm.locator(f'#tablestate .deck-entry[data-character="{cid}"]')).to_have_count(1)
    gm_order, pc_order = order_of(gm), order_of(pc)
    assert gm_order == pc_order
    assert name in [n for n, _card in pc_order] and all(card for _n, card in pc_order)
    # the log shows the deal with its cards on both sides
    expect(pc.locator("#log-list .entry[data-action=deal_round]").last).to_contain_text("Раунд 1")
    expect(gm.locator("#log-list .entry[data-action=deal_round]").last).to_contain_text(name)
    gm.screenshot(path=str(ARTIFACTS / "savage-desktop.png"), full_page=True)
    pc.screenshot(path=str(ARTIFACTS / "savage-phone.png"), full_page=True)

    # the player rolls Agility from her panel; a benny is at hand, so a re-roll is offered
    mine.locator("select.ts-trait").select_option("agility")
    mine.locator("form.ts-roll button[type=submit]").click()
    choice = mine.locator(".ts-pending")
    expect(choice).to_be_visible()
    expect(choice.locator("[data-choice=reroll]")).to_be_visible()
    pc.screenshot(path=str(ARTIFACTS / "savage-phone-choice.png"), full_page=True)
    choice.locator("[data-choice=reroll]").click()
    expect(mine.locator(".bennies")).to_have_attribute("data-bennies", "2")
    for page in (pc, gm):
        spent = page.locator("#log-list .entry[data-action=benny]")
        expect(spent.last).to_contain_text(name)
        expect(spent.last).to_contain_text("переброс")
    # two bennies left: the choice is offered again; keep the best result this time
    expect(mine.locator(".ts-pending [data-choice=keep]")).to_be_visible()
    mine.locator(".ts-pending [data-choice=keep]").click()
    expect(mine.locator(".ts-pending")).to_have_count(0)
    expect(mine.locator(".bennies")).to_have_attribute("data-bennies", "2")
    # the referee's panel shows the player's bennies too
    gm_entry = gm.locator(f'#tablestate .deck-entry[data-character="{cid}"] .bennies')
    expect(gm_entry).to_have_attribute("data-bennies", "2")
    gm.screenshot(path=str(ARTIFACTS / "savage-desktop-after.png"), full_page=True)

    # the next round is dealt: the cards change, and both browsers still agree
    gm.click("#tablestate [data-action=deal_round]")
    expect(gm.locator("#ts-round")).to_have_text("Раунд 2")
    expect(pc.locator("#ts-round")).to_have_text("Раунд 2")
    expect(pc.locator(f'#tablestate .deck-entry[data-character="{cid}"]')).to_have_count(1)
    assert order_of(gm) == order_of(pc)
    # each browser receives its own copy of a deal: one log line per deal on each side (the
    # table's log may hold earlier runs' deals, so the last two lines are this test's rounds)
    for page in (gm, pc):
        deals = page.locator("#log-list .entry[data-action=deal_round]")
        expect(deals.last).to_contain_text("Раунд 2")
        expect(deals.nth(deals.count() - 2)).to_contain_text("Раунд 1")
    gm.click("#tablestate [data-action=end_combat]")
    expect(pc.locator("#tablestate .deck-order")).to_have_count(0)


def test_a_gm_character_is_an_extra_until_marked_a_wild_card(new_page):
    """The referee's new NPC sheet: an extra, so its bennies field is hidden; ticking «Дикая
    карта» shows it, and the saved sheet is a wild card of the GM's, which then rolls on the
    Injury Table and the table log shows the roll."""
    gm = new_page()
    login(gm, "referee")
    campaign_id = open_table(gm)
    name = f"Злодей {uuid.uuid4().hex[:4]}"
    response = gm.request.post(
        f"/api/campaigns/{campaign_id}/characters/",
        data={"name": name, "kind": "npc"},
        headers={"X-CSRFToken": csrf(gm), "Referer": gm.url},
    )
    assert response.status == 201, response.text()
    npc = response.json()
    assert npc["state"]["wild_card"] is False and npc["state"]["role"] == "npc"
    gm.goto(f"/characters/{npc['id']}/")
    expect(gm.locator("#sheet-groups .sheet-group").first).to_be_visible()
    bennies = gm.locator('#sheet-groups .field[data-path="bennies"]')
    wild = gm.locator('#sheet-groups input[data-path="wild_card"]')
    expect(wild).not_to_be_checked()
    expect(bennies).to_be_hidden()
    wild.check()
    expect(bennies).to_be_visible()
    expect(gm.locator("#save-bar")).to_have_attribute("data-dirty", "1")
    gm.click("#save-btn")  # a character.update command, on the socket or by HTTP
    expect(gm.locator("#sheet-version")).to_have_text(str(npc["version"] + 1))
    expect(gm.locator("#save-status")).to_have_text("Все изменения сохранены")
    saved = gm.request.get(f"/api/characters/{npc['id']}/").json()
    assert saved["state"]["wild_card"] is True and saved["state"]["role"] == "npc"

    # a wild card rolls on the Injury Table: the server rolls, the table log shows the dice
    open_table(gm)
    response = gm.request.post(
        f"/api/characters/{npc['id']}/moves/injury_roll/",
        data={"params": {"duration": "until_healed"}},
        headers={"X-CSRFToken": csrf(gm), "Referer": gm.url},
    )
    assert response.status == 201, response.text()
    entry = gm.locator("#log-list .entry[data-action=injury]").last
    expect(entry).to_contain_text(name)
    expect(entry).to_contain_text("таблица травм")
    faces = entry.locator(".ts-faces .die")
    expect(faces).to_have_count(len(response.json()["outcome"]["faces"]))
