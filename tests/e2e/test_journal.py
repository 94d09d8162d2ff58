"""Handouts in real browsers: the referee shows a journal entry shared with one player; it pops
up in that player's browser, never reaches the other player's, and an unshared entry reaches
no player at all (the leak scan after the test checks every page, API answer and socket frame
the players' browsers received)."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from tests.e2e.conftest import login, register_secret
from tests.e2e.test_table import open_table


def _api(page, method: str, url: str, body: dict, command: dict | None = None) -> dict:
    return page.evaluate(
        """async ([m, u, b, c]) => {
            const src = document.querySelector("script[src*='js/table']").src;
            const api = await import(new URL("api.js", src).href);
            const csrf = JSON.parse(document.getElementById("table-config").textContent).csrf;
            return api.request(m, u, b, Object.assign({csrf: csrf}, c || {}));
        }""",
        [method, url, body, command],
    )


def test_a_shown_handout_pops_up_only_for_its_addressee(new_page):
    gm = new_page()
    login(gm, "referee")
    open_table(gm)
    cid = re.search(r"/campaigns/(\d+)/", gm.url).group(1)
    alice = new_page()
    login(alice, "alice")
    alice_id = alice.request.get("/api/me/").json()["id"]
    open_table(alice)
    boris = new_page()
    login(boris, "boris")
    open_table(boris)

    mark = uuid.uuid4().hex[:8]
    secret = f"Тайник-{mark}"
    letter = f"Письмо-{mark}"
    register_secret(secret)
    register_secret(f"полночь-{mark}", allowed=("alice",))
    register_secret(letter, allowed=("alice",))
    base = f"/api/campaigns/{cid}/journal/"
    _api(gm, "POST", base, {"title": secret, "body": f"Клад под камнем {secret}"})
    made = _api(
        gm,
        "POST",
        base,
        {
            "title": letter,
            "body": f"**Встретимся** в полночь-{mark}.",
            "sharing": "chosen",
            "readers": [alice_id],
        },
    )
    _api(
        gm,
        "POST",
        f"{base}{made['id']}/show/",
        {},
        {"command": "journal.show", "args": {"jid": made["id"]}},
    )

    popup = alice.locator("#handout-dialog")
    expect(popup).to_be_visible(timeout=3000)
    expect(popup.locator("#handout-title")).to_have_text(letter)
    expect(popup.locator(".handout-body strong")).to_have_text("Встретимся")
    popup.locator("button[type=submit]").click()
    expect(popup).to_be_hidden()

    # the other player's table never receives it; his journal lists neither entry
    boris.wait_for_timeout(1500)
    expect(boris.locator("#handout-dialog")).to_have_count(0)
    boris.goto(f"/campaigns/{cid}/journal/")
    expect(boris.locator("h1")).to_have_text("Журнал")
    # her journal lists the letter, not the referee's secret
    alice.goto(f"/campaigns/{cid}/journal/")
    expect(alice.locator(".journal-entries")).to_contain_text(letter)
