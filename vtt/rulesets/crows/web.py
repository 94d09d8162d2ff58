"""Crows: Fortune or Death at the table: the dungeon turn with its encounter checks, battle
squares (walls, light, reach) and the travel day on hexes, the inventory slot board, and the
rulebook's tables in the prep library."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.urls import URLPattern, URLResolver, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from vtt.rulesets.base import RulesetWeb


class CrowsWeb(RulesetWeb):
    key = "crows"
    label = gettext_lazy("Crows: Fortune or Death")
    public_fields = ("name", "stamina", "max_stamina", "wounds", "conditions", "status")
    map_panels = ("crows/map_panel.html",)
    battle_squares = True
    hex_travel = True
    # A travel hex is 5 miles (the rulebook, «Путешествие»).
    hex_miles = Decimal(5)
    # Encounter rolls and signed encounters are the referee's (the rulebook, «Встречи»).
    secret_turn_results = frozenset({"encounter_check", "encounter_overdue"})
    secret_turn_fields = ("pending_encounters",)

    def urlpatterns(self) -> Sequence[URLPattern | URLResolver]:
        from vtt.rulesets.crows.urls import urlpatterns

        return urlpatterns

    def api_urlpatterns(self) -> Sequence[URLPattern | URLResolver]:
        from vtt.rulesets.crows.urls import api_urlpatterns

        return api_urlpatterns

    def sheet_links(self, character: Any) -> list[tuple[str, str]]:
        return [(_("Inventory"), reverse("character_inventory", args=[character.pk]))]

    def has_dungeon_turns(self) -> bool:
        return True

    def campaign_state_default(self) -> dict[str, Any]:
        return self.rules.default_campaign()  # type: ignore[attr-defined]

    def rest_procedure(self) -> str:
        return "start_rest"

    def map_config(self, membership: Any, m: Any) -> dict[str, Any]:
        from vtt.rulesets.crows.map_panel import crows_config

        return {"crows": crows_config(membership, m)}

    def map_urls(self, campaign: Any) -> dict[str, str]:
        return {
            key: reverse(name, args=[campaign.pk, 999999999]).replace("999999999", "{id}")
            for key, name in (("travel", "api-map-travel"), ("combat", "api-map-combat"))
        }

    def walk_token(self, **kwargs: Any) -> None:
        from vtt.rulesets.crows import battle

        battle.walk_token(**kwargs)

    def demo_sheets(self) -> tuple[dict[str, Any], dict[str, Any]]:
        from vtt.rulesets.crows.demo import demo_sheets

        return demo_sheets()

    def seed_demo_table(self, campaign: Any, **people: Any) -> None:
        from vtt.rulesets.crows.demo import seed_table

        seed_table(campaign, **people)

    def library_tables(self) -> tuple[dict[str, Any], ...]:
        from vtt.rulesets.crows.tables import TABLES

        return TABLES

    def library_npcs(self) -> list[dict[str, Any]]:
        from vtt.rulesets.crows.npcs import npc_blocks

        return npc_blocks()
