"""The dungeon-turn clock on the table page: everyone sees it, only the referee gets controls,
and its Russian text comes from the JavaScript catalogue (the countdown itself is
static/js/clock.js)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.helpers import js_catalogue


@pytest.mark.parametrize(
    ("role", "controls"), [("referee", True), ("player", False), ("observer", False)]
)
def test_clock_panel_by_role(table, client_for, role, controls):
    table.campaign.ruleset = "crows"  # the dungeon turn is a Crows rule
    table.campaign.save(update_fields=["ruleset"])
    response = client_for(table.user(role)).get(reverse("table", args=[table.campaign.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="clock"' in html and "Ход подземелья" in html
    assert ('id="clock-controls"' in html) is controls
    catalogue = js_catalogue(client_for(table.user(role)), response)
    assert catalogue["End of dungeon turn {turn}"] == "Конец хода подземелья {turn}"
    # modules: table.js starts once the page is parsed, after clock.js registered its renderers
    assert '<script type="module" src="/static/js/clock.js">' in html


def test_clock_api_the_panel_uses(table, api_for, settings):
    settings.CLOCK_MIN_SECONDS = 1
    url = reverse("api-clock", args=[table.campaign.pk])
    snapshot = api_for(table.player).get(url).json()
    assert {"state", "turn", "deadline", "server_time", "length_seconds"} <= set(snapshot)
    body = {"action": "configure", "length_seconds": 3, "mode": "timer"}
    assert api_for(table.player).post(url, body, format="json").status_code == 403
    configured = api_for(table.referee).post(url, body, format="json").json()
    assert configured["length_seconds"] == 3 and configured["state"] == "stopped"
