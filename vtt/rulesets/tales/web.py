"""Сказания волшебного мира at the table: the battle record (sides act in turn), the
new-character wizard, and the rulebook's tables and summoned creatures in the prep library."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.urls import URLPattern, URLResolver
from django.utils.translation import gettext_lazy as _

from vtt.rulesets.base import RulesetWeb, RulesState


class TalesWeb(RulesetWeb):
    key = "tales"
    label = _("Tales of the Magic World")
    public_fields = ("name", "origin", "hp", "max_hp", "status")
    initiative_style = "sides"
    table_panels = ("tablestate/panel.html",)
    npc_defaults = True

    def rules_state(self) -> RulesState:
        from vtt.rulesets.tales.table_state import RULES_STATE

        return RULES_STATE

    def urlpatterns(self) -> Sequence[URLPattern | URLResolver]:
        from vtt.rulesets.tales.urls import urlpatterns

        return urlpatterns

    def demo_sheets(self) -> tuple[dict[str, Any], dict[str, Any]]:
        from vtt.rulesets.tales.demo import demo_sheets

        return demo_sheets()

    def library_tables(self) -> tuple[dict[str, Any], ...]:
        from systems.tales.tables import all_tables

        return tuple(all_tables())

    def library_npcs(self) -> list[dict[str, Any]]:
        from vtt.rulesets.tales.npcs import npc_blocks

        return npc_blocks()
