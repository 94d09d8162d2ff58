"""Helpers for the prep tests: campaigns of each ruleset and small tables."""

from __future__ import annotations

import pytest
from django.utils import translation

from vtt.campaigns.models import Campaign


def simple_table(key="loot", **extra):
    return {
        "key": key,
        "name": key.title(),
        "formula": "1d6",
        "entries": [
            {"min": 1, "max": 3, "text": "Nothing"},
            {"min": 4, "max": 6, "text": "Coins", "amount": "2d6", "unit": "gp"},
        ],
        **extra,
    }


@pytest.fixture
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def as_ruleset(table):
    """Switch the fixture campaign to another ruleset."""

    def _switch(ruleset: str) -> Campaign:
        table.campaign.ruleset = ruleset
        table.campaign.save(update_fields=["ruleset"])
        return table.campaign

    return _switch
