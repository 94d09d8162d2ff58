"""What the browser draws reads clean (issue 18 item 9): the table of every demo campaign (the
log, the panels, the roll bar, drawn by the scripts from the event payloads) and every
character sheet, as the referee and as a player, in Russian and in English: no rulebook line
references, unfilled placeholders, internal keys, or stray Latin words on a Russian page
(tests/playertext.py). The server-rendered pages are covered by tests/vtt/test_player_text.py.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import login
from tests.playertext import scan

DEMO = "Демо: "


def _switch(page, lang: str) -> None:
    page.locator(f".lang-switch button[value={lang}]").click()
    expect(page.locator("html")).to_have_attribute("lang", lang)


def _read(page, url: str) -> str:
    page.goto(url)
    page.wait_for_load_state("networkidle")
    return page.evaluate("document.body.innerText")


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_demo_tables_and_sheets_read_clean(new_page, lang):
    found: list[str] = []
    for username in ("referee", "alice"):
        page = new_page()
        login(page, username)
        _switch(page, lang)
        try:
            found += _read_demo_campaigns(page, lang, username)
        finally:  # the language is saved on the account: leave it as the other tests expect
            _switch(page, "ru")
        page.context.close()
    unique = sorted(set(found))
    for line in unique:
        print(line)
    assert not unique, f"{len(unique)} problems"


def _read_demo_campaigns(page, lang: str, username: str) -> list[str]:
    """The demo campaigns only: other tests of the session add campaigns of their own."""
    found: list[str] = []
    page.goto("/campaigns/")
    campaigns = page.locator("a[href^='/campaigns/']").evaluate_all(
        "(els, demo) => [...new Set(els.filter(e => e.textContent.trim().startsWith(demo))"
        ".map(e => e.getAttribute('href'))"
        ".filter(h => /^\\/campaigns\\/\\d+\\/$/.test(h)))]",
        DEMO,
    )
    assert campaigns, "no demo campaigns listed"
    for campaign in campaigns:
        table = campaign + "table/"
        text = _read(page, table)
        expect(page.locator("#log li.entry").first).to_be_visible()
        text = page.evaluate("document.body.innerText")
        found += scan(text.splitlines(), lang, f"{table} {username}")
        sheets = page.goto(campaign + "characters/") and page.locator(
            "a[href^='/characters/']"
        ).evaluate_all(
            "els => [...new Set(els.map(e => e.getAttribute('href'))"
            ".filter(h => /^\\/characters\\/\\d+\\/$/.test(h)))]"
        )
        for sheet in sheets:
            found += scan(_read(page, sheet).splitlines(), lang, f"{sheet} {username}")
    return found
