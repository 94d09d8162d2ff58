"""City of Judas at the table: sheets, the ordered initiative list and the PbtA odds bands."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from vtt.rulesets.base import RulesetWeb


class CityOfJudasWeb(RulesetWeb):
    key = "city_of_judas"
    label = _("City of Judas")
    public_fields = ("name", "health", "unstable", "mortal_wound")
    odds_bands = "pbta"
    npc_defaults = True
    npc_validation = True

    def demo_sheets(self) -> tuple[dict[str, Any], dict[str, Any]]:
        from vtt.rulesets.city_of_judas.demo import demo_sheets

        return demo_sheets()

    def library_npcs(self) -> list[dict[str, Any]]:
        from vtt.rulesets.city_of_judas.npcs import npc_blocks

        return npc_blocks()
