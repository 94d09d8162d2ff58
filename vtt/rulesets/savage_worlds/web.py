"""Savage Worlds at the table: the action deck and the GM's benny pool, dealt cards for
initiative, wild cards' sheets and the odds preview's target of 4."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from vtt.rulesets.base import RulesetWeb, RulesState


class SavageWorldsWeb(RulesetWeb):
    key = "savage_worlds"
    label = _("Savage Worlds")
    public_fields = ("name", "role", "wild_card", "wounds", "fatigue", "shaken", "status")
    initiative_style = "cards"
    default_target = 4
    table_panels = ("tablestate/panel.html",)
    npc_defaults = True
    npc_validation = True
    pc_validation = True

    def benny_pool(self) -> Any:
        from vtt.rulesets.savage_worlds import table_state

        return table_state

    def rules_state(self) -> RulesState:
        from vtt.rulesets.savage_worlds.table_state import RULES_STATE

        return RULES_STATE

    def demo_sheets(self) -> tuple[dict[str, Any], dict[str, Any]]:
        from vtt.rulesets.savage_worlds.demo import demo_sheets

        return demo_sheets()

    def seed_demo_table(self, campaign: Any, **people: Any) -> None:
        from vtt.rulesets.savage_worlds.demo import seed_table

        seed_table(campaign, **people)

    def library_npcs(self) -> list[dict[str, Any]]:
        from vtt.rulesets.savage_worlds.npcs import npc_blocks

        return npc_blocks()
