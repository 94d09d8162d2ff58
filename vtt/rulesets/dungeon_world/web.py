"""Dungeon World at the table: sheets, the ordered initiative list and the PbtA odds bands."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from vtt.rulesets.base import RulesetWeb


class DungeonWorldWeb(RulesetWeb):
    key = "dungeon_world"
    label = _("Dungeon World")
    public_fields = ("name", "class_name", "race", "level", "hp", "max_hp", "armor", "status")
    odds_bands = "pbta"
    npc_defaults = True
    npc_validation = True

    def demo_sheets(self) -> tuple[dict[str, Any], dict[str, Any]]:
        from vtt.rulesets.dungeon_world.demo import demo_sheets

        return demo_sheets()

    def library_npcs(self) -> list[dict[str, Any]]:
        from vtt.rulesets.dungeon_world.npcs import npc_blocks

        return npc_blocks()
