"""Layout breaks a newcomer sees at once (issue 18 item 15): move buttons that split a word
across lines («Договоритс / я»), and the dungeon clock's settings form squeezed into slivers.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.conftest import login

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
WIDTHS = (320, 340, 360, 375, 390, 414, 480, 600, 768, 900, 1024, 1280)

# The words of each button's label that the browser laid out on more than one line.
SPLIT_WORDS = """els => els.flatMap(button => {
  const out = [];
  const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const words = /\\S+/g;
    let m;
    while ((m = words.exec(node.data))) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (lines.size > 1) out.push(m[0]);
    }
  }
  return out;
})"""


def _campaign(page, name: str) -> str:
    page.goto("/campaigns/")
    return page.locator("a.title", has_text=name).first.get_attribute("href")


def test_move_buttons_never_split_a_word_on_a_phone(new_page):
    page = new_page(viewport=PHONE)
    login(page, "alice")
    campaign = _campaign(page, "Dungeon World")
    page.goto(campaign + "characters/")
    sheet = page.locator("a[href^='/characters/']").first.get_attribute("href")
    page.goto(sheet)
    buttons = page.locator("#move-buttons .move-btn, #action-buttons .move-btn")
    expect(buttons.first).to_be_visible()
    expect(page.locator("#move-buttons")).to_contain_text("Договориться")
    split = {}
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 800})
        words = buttons.evaluate_all(SPLIT_WORDS)
        if words:
            split[width] = words
    assert split == {}


def test_clock_settings_keep_their_width_while_the_clock_runs(new_page):
    page = new_page(viewport=DESKTOP)
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, "referee")
    campaign = _campaign(page, "Crows")
    page.goto(campaign + "table/")
    clock = page.locator("#clock")
    expect(page.locator("#clock-state")).not_to_have_text("Загрузка…")
    started = clock.get_attribute("data-state") == "stopped"
    if started:
        page.click("[data-clock=start]")
    try:
        expect(clock).to_have_attribute("data-state", re.compile("running|paused"))
        page.click("#clock-settings summary")
        form = page.locator("#clock-config").bounding_box()
        for select in ("#clock-length", "#clock-mode"):
            box = page.locator(select).bounding_box()
            assert box and box["width"] >= form["width"] * 0.4, (select, box, form)
    finally:
        if started:
            page.click("[data-clock=stop]")
