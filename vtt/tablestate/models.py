"""Rules state that belongs to the whole table rather than one sheet: the Savage Worlds action
deck and the GM's benny pool, the Tales battle record (side initiative). One row per campaign,
written only through ``vtt.tablestate.services`` under a row lock."""

from __future__ import annotations

from django.db import models

from vtt.campaigns.models import Campaign


class TableState(models.Model):
    campaign = models.OneToOneField(
        Campaign, on_delete=models.CASCADE, primary_key=True, related_name="table_state"
    )
    ruleset = models.CharField(max_length=32)
    # The ruleset's own state, validated by it on every write: Savage Worlds ``{pool, deck}``
    # (``default_table()``), Tales the battle record (``default_battle()``). The deck's draw
    # order lives here and never leaves the server.
    state = models.JSONField(default=dict)
    # What the web side keeps around the rules: combat and session flags, the referee's
    # participant selection, names of participants dealt in (a deleted sheet keeps its card).
    meta = models.JSONField(default=dict, blank=True)
    version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.ruleset} table state of campaign {self.campaign_id} v{self.version}"
