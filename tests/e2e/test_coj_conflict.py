"""Град Иуды, a conflict between two players' characters in two browsers: the mover names
the opponent and their own stat (from a list, not a typed key), the server rolls; the
opponent's player then picks the stat of their own move and the server rolls that too. No
total ever comes from a browser («Игрок против игрока»: both fighters roll their moves)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.conftest import login

CAMPAIGN = "Демо: Град Иуды"


def _open_campaign(page) -> None:
    page.goto("/campaigns/")
    page.locator("a.title", has_text=CAMPAIGN).first.click()
    expect(page).to_have_url(re.compile(r"/campaigns/\d+/$"))


def _open_sheet(page, name: str) -> None:
    _open_campaign(page)
    page.click("a.button:has-text('Персонажи')")
    page.locator("a", has_text=name).first.click()
    expect(page).to_have_url(re.compile(r"/characters/\d+/$"))
    expect(page.locator("#conn")).to_have_attribute("data-state", "connected")


def test_a_conflict_rolls_both_fighters_on_the_server(new_page):
    alice = new_page()
    login(alice, "alice")
    _open_sheet(alice, "Ярослава")
    boris = new_page()
    login(boris, "boris")
    _open_campaign(boris)
    boris.click("a.button:has-text('За стол')")
    expect(boris.locator("#conn")).to_have_attribute("data-state", "connected")

    alice.click("button[data-move='conflict']")
    dialog = alice.locator("#move-dialog")
    expect(dialog.locator("#move-title")).to_have_text("Конфликт")
    target = dialog.locator("select[data-picker=target]")
    option = target.locator("option", has_text="Добрыня")
    expect(option).to_have_count(1)  # another player's character is a fair opponent
    target.select_option(value=option.get_attribute("value"))
    stat = dialog.locator('[data-path="stat"]:is(select)')
    expect(stat.locator("option")).to_have_text(["Сталь"])
    expect(dialog).not_to_contain_text("ключ")
    expect(dialog.locator('[data-path="total"], [data-path="opponent_total"]')).to_have_count(0)
    dialog.locator("#move-go").click()

    outcome = dialog.locator("#move-outcome .outcome").first
    expect(outcome).to_be_visible()
    faces = [int(x) for x in outcome.locator(".die").all_inner_texts()]
    total = int(outcome.locator(".total").get_attribute("data-total"))
    assert len(faces) == 2 and total == sum(faces) + 1  # Ярослава's Steel is +1
    result = dialog.locator("#move-outcome .result")
    pending_id = result.get_attribute("data-pending-id")
    assert pending_id
    expect(result.locator(".choice-btn")).to_have_count(0)  # not Alice's to pick

    entry = boris.locator(f"#log-list .entry-move[data-pending-id='{pending_id}']")
    buttons = entry.locator(".choice-btn")
    expect(buttons).to_have_count(1)
    expect(buttons.first).to_contain_text("Сталь (+2)")  # Добрыня's own Steel
    buttons.first.click()
    expect(entry.locator(".resolved-mark")).to_be_visible()
    rolled = boris.locator("#log-list .entry-move", has_text="у противника").last
    expect(rolled).to_contain_text(f"Ваш результат {total}")
    theirs = int(re.search(r"у противника (-?\d+)", rolled.inner_text()).group(1))
    assert 4 <= theirs <= 14
    # the demo campaign keeps the default: when both miss, the higher total still wins
    winner = (
        "Ничья" if theirs == total else "Противник победил" if theirs > total else "Вы победили"
    )
    expect(rolled).to_contain_text(winner)
    # the mover's browser learns it live: the choice it waited for was made
    expect(result.locator(".resolved-mark")).to_be_visible(timeout=5000)
