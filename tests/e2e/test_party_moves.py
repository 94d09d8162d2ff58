"""Dungeon World party moves from the table page in a real browser: a player sets the camp's
watch with her character, the roll reaches the log, and a hero named for two journey roles
is refused with the rules' message."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.conftest import login

CAMPAIGN = "Демо: Dungeon World"


def test_a_player_runs_take_watch_and_is_refused_a_hero_in_two_roles(new_page):
    page = new_page()
    login(page, "alice")
    page.goto("/campaigns/")
    page.locator("a.title", has_text=CAMPAIGN).first.click()
    expect(page).to_have_url(re.compile(r"/campaigns/\d+/$"))
    page.click("a.button:has-text('За стол')")
    expect(page.locator("#conn")).to_have_attribute("data-state", "connected")
    panel = page.locator("#party-moves")
    expect(panel).to_contain_text("Ходы группы")

    watch = panel.locator("form[data-party-move='take_watch']")
    watch.locator("select[name=watcher]").select_option(label="Ярослава")
    watch.locator("button[type=submit]").click()
    entry = page.locator("#log-list .entry-move", has_text="Нести дозор").last
    expect(entry).to_contain_text("Ярослава")
    expect(watch.locator(".form-error")).to_be_hidden()

    journey = panel.locator("form[data-party-move='perilous_journey']")
    journey.locator("select[data-role='trailblazer']").select_option(label="Ярослава")
    journey.locator("select[data-role='scout']").select_option(label="Ярослава")
    journey.locator("button[type=submit]").click()
    error = journey.locator(".form-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("Каждую роль играет другой герой")
