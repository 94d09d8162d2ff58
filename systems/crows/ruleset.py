"""Crows: Fortune or Death (the rulebook, cited by chapter and heading). ``Crows`` is assembled here
from one mixin per domain, each module holding that domain's move handlers:

* ``check_moves`` checks and special checks; ``damage_moves`` damage, wounds and hazards;
  ``condition_moves`` conditions and effects; ``inventory_moves`` slots, items, wear dice and
  light; ``rest_moves`` rest; ``dungeon_moves`` the dungeon clock;
* ``attack_moves`` attacks and reactions; ``maneuver_moves`` grab, escape, knockback and pets;
  ``combat_moves`` the combat state; ``movement_moves`` movement and tipping objects;
* ``spell_moves`` spells; ``miasma_moves`` the Miasma; ``travel_moves`` overland travel;
  ``crafting_moves`` crafting and identification;
* ``resolution`` the shared core: validation, check setup, the roll and pending choices.

The move specs are data in ``moves``, the vocabulary in ``terms``, the state shapes in ``sheet``;
the pure rules behind the handlers are the modules named after the domain (``checks``,
``combat``, ``travel``…). This module keeps the public rules API.

``resolve(move, state, *, dice, settings=None, choices=None, **params)`` as in Dungeon World:

* ``state`` is a creature sheet (``SHEET``) for ``subject == "character"`` moves, or the
  campaign state (``CAMPAIGN``) for ``subject == "campaign"`` ones;
* ``settings`` is the campaign's settings dict (``SETTINGS``; missing keys take defaults);
* ``choices`` answers the first pending choice at once (same as ``apply_choice``).

A check that an expertise could still raise comes back pending (``chooser == "player"``): the
expertise is chosen after seeing the roll («Проверки › Экспертизы»), as
``apply_choice(outcome, [key])`` or ``["none"]``. Party-wide procedures take several sheets at
once and return a ``TurnResult``: ``end_dungeon_turn``, ``start_rest``, ``rest_midpoint``,
``finish_rest``, ``interrupt_rest``, ``pass_time_outside``; ``miasma_saves``,
``miasma_resolve``, ``crafting_session`` and ``public_travel`` come from their domain's mixin.
"""

from __future__ import annotations

import copy
from typing import Any

from systems.core.dice import Dice
from systems.core.outcome import Outcome
from systems.core.pbta import check_choices
from systems.core.rulekit import MoveDispatch, common_params, describe_head, describe_settings
from systems.core.schema import fail
from systems.crows import dungeon, rest
from systems.crows import inventory as inv_rules
from systems.crows.attack_moves import AttackMoves
from systems.crows.calls import Call
from systems.crows.check_moves import CheckMoves
from systems.crows.checks import BANDS, SOURCES, CheckResult, apply_expertise, check_odds
from systems.crows.combat_moves import CombatMoves
from systems.crows.condition_moves import ConditionMoves
from systems.crows.crafting_moves import CraftingMoves
from systems.crows.damage_moves import DamageMoves
from systems.crows.dungeon_moves import DungeonMoves
from systems.crows.inventory_moves import InventoryMoves
from systems.crows.items import ITEM
from systems.crows.maneuver_moves import ManeuverMoves
from systems.crows.miasma_moves import MiasmaMoves
from systems.crows.movement_moves import MovementMoves
from systems.crows.moves import MOVES, MOVES_BY_KEY, NO_EXPERTISE
from systems.crows.resolution import Resolution
from systems.crows.rest_moves import RestMoves
from systems.crows.sheet import (
    CAMPAIGN,
    COMBAT,
    SETTINGS,
    SHEET,
    TRAVEL,
    clean_campaign,
    clean_character,
    clean_settings,
)
from systems.crows.spell_moves import SpellMoves
from systems.crows.terms import (
    ACTIVITIES,
    CAMPFIRE,
    CHARACTERISTICS,
    CONDITION_END_TRIGGERS,
    CONDITIONS,
    CORPSE_SLOTS,
    EXPERTISE_CATEGORIES,
    EXPERTISES,
    LIGHT_LEVELS,
    MAGIC_SLOTS,
    SIZES,
    WEAR_KEYWORDS,
    describe_tables,
)
from systems.crows.travel_moves import TravelMoves

CHECK_MOVES = frozenset(
    {
        "check",
        "help",
        "group_check",
        "resistance",
        "hide",
        "fall",
        "attack",
        "provoked_attack",
        "grab",
        "escape",
        "knockback",
        "jump",
        "tip_object",
        "command_pet",
        "cast",
        "miasma_save",
        "travel_role",
        "identify_check",
    }
)
# The party procedures a referee runs from the table (rest, miasma, crafting, travel).
PARTY_PROCEDURES: tuple[str, ...] = (
    "end_dungeon_turn",
    "start_rest",
    "rest_midpoint",
    "finish_rest",
    "interrupt_rest",
    "pass_time_outside",
    "miasma_saves",
    "miasma_resolve",
    "crafting_session",
    "public_travel",
)
EVENT_TYPES: tuple[str, ...] = (
    "turn_ended",
    "wear_rolled",
    "effect_wear_rolled",
    "effect_ended",
    "darkness",
    "condition_ended",
    "overload_wounds",
    "woke",
    "greed_window_closed",
    "encounter_overdue",
    "encounter_check",
    "encounter_check_skipped",
    "turn_started",
    "dungeon_entered",
    "dungeon_left",
    "outside_turn",
    "rest_started",
    "lights_burning",
    "cannot_rest",
    "rest_midpoint",
    "rest_failed",
    "rest_finished",
    "rest_ended",
    "crafting_roll_due",
    "corpse_butchered",
    "item_identified",
    "task_prepared",
    "armour_repaired",
    "miasma_check_due",
    "camp_hidden",
    "greed_reward",
    "cruelty_cleared",
    "combat_started",
    "round_started",
    "combat_turn_started",
    "spent",
    "walked",
    "combat_turn_ended",
    "taunted",
    "readied",
    "readied_triggered",
    "extra_action",
    "grabbing",
    "joined",
    "combat_ended",
    "travel_begun",
    "travel_day",
    "travel_roles",
    "travel_task",
    "travel_choice",
    "travel_encounter_check",
    "travel_moved",
    "travel_found_way",
    "travel_arrived",
    "travel_ended",
    "miasma_effect",
    "backlash",
    "item_crafted",
    "crafting_overflow_lost",
)


class Crows(
    CheckMoves,
    DamageMoves,
    ConditionMoves,
    InventoryMoves,
    RestMoves,
    DungeonMoves,
    AttackMoves,
    ManeuverMoves,
    CombatMoves,
    MovementMoves,
    SpellMoves,
    MiasmaMoves,
    TravelMoves,
    CraftingMoves,
    Resolution,
    MoveDispatch,
):
    """Crows: every domain's move handlers, plus describe, validation, ``apply_choice``, odds
    and the party procedures."""

    key = "crows"

    name_ru = "Crows: Удача или смерть"

    name_en = "Crows: Fortune or Death"

    dungeon_clock = True  # Ход подземелья: the dungeon turn and its end-of-turn procedure

    def describe(self) -> dict[str, Any]:
        """Everything a form, a help page or the timer task needs, from the rules' own data."""
        return {
            **describe_head(self),
            "dice": "2d10",
            "bands": list(BANDS),
            "flags": ["crit", "doom"],
            "characteristics": [c.as_dict() for c in CHARACTERISTICS],
            "expertise_categories": [c.as_dict() for c in EXPERTISE_CATEGORIES],
            "expertises": [e.as_dict() for e in EXPERTISES],
            "conditions": [
                c.as_dict() | {"end_triggers": list(CONDITION_END_TRIGGERS[c.key])}
                for c in CONDITIONS
            ],
            "sources": [s.as_dict() for s in SOURCES],
            "sizes": [s.as_dict() for s in SIZES],
            "corpse_slots": {k: {"slots": v[0], "stack": v[1]} for k, v in CORPSE_SLOTS.items()},
            "campfire": {k: {"bright": v[0], "dim": v[1]} for k, v in CAMPFIRE.items()},
            "magic_slots": [m.as_dict() for m in MAGIC_SLOTS],
            "slot_areas": [
                a.as_dict() | {"slots": inv_rules.AREA_SIZE[a.key]} for a in inv_rules.AREAS
            ],
            "wear_keywords": [k.as_dict() for k in WEAR_KEYWORDS],
            "light_levels": [level.as_dict() for level in LIGHT_LEVELS],
            "rest_activities": [a.as_dict() for a in ACTIVITIES if a.key],
            "sheet": SHEET.describe(),
            "item": ITEM.describe(),
            "campaign": CAMPAIGN.describe(),
            "combat_state": COMBAT.describe(),
            "travel_state": TRAVEL.describe(),
            **describe_settings(SETTINGS),
            "moves": [m.describe() for m in MOVES if m.kind == "move"],
            "actions": [
                m.describe() for m in MOVES if m.kind == "action" and m.subject == "character"
            ],
            "campaign_actions": [m.describe() for m in MOVES if m.subject == "campaign"],
            "party_procedures": list(PARTY_PROCEDURES),
            "event_types": list(EVENT_TYPES),
            **describe_tables(),
            **common_params(
                "Сразу ответить на выбор, который предложит ход",
                "Answer the move's pending choice at once",
            ),
        }

    def default_state(self) -> dict[str, Any]:
        return clean_character(SHEET.default_value())

    def validate_state(
        self, state: dict[str, Any], settings: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        return clean_character(state, settings=settings)

    def default_campaign(self) -> dict[str, Any]:
        return clean_campaign({})

    def validate_campaign(self, campaign: dict[str, Any]) -> dict[str, Any]:
        return clean_campaign(campaign)

    def clean_settings(self, settings: dict[str, Any] | None = None) -> dict[str, Any]:
        return clean_settings(settings)

    def apply_choice(
        self, outcome: Outcome, choices: list[str], *, dice: Dice | None = None
    ) -> Outcome:
        """Finish a pending outcome: an expertise after the roll, or the Referee's pick."""
        pending = outcome.details.get("pending")
        if not outcome.pending or not pending:
            return super().apply_choice(outcome, choices, dice=dice)
        check_choices(outcome, choices)
        call = Call(
            MOVES_BY_KEY[pending["move"]],
            copy.deepcopy(outcome.state),
            copy.deepcopy(pending["params"]),
            dice,
            copy.deepcopy(pending["settings"]),
        )
        if pending["kind"] == "expertise":
            result = CheckResult.from_dict(pending["check"])
            state = call.state
            if choices[0] != NO_EXPERTISE.key:
                entry = next(e for e in state["expertises"] if e["key"] == choices[0])
                entry["uses"] -= 1
                result = apply_expertise(result, choices[0])
            out = self._finish(call, result, state, pending.get("extra", {}))
        elif pending["kind"] == "hide_cost":
            state = call.state
            state["hidden"] = choices[0] == "hidden_at_cost"
            out = copy.deepcopy(outcome)
            out.options, out.pick, out.chooser = [], 0, None
            out.state = state
            out.flags = {**out.flags, "hidden": state["hidden"]}
            out.details.pop("pending", None)
        else:
            handler = getattr(self, f"_choice_{pending['kind']}", None)
            if handler is None:  # pragma: no cover - every pending kind has a handler
                raise fail("choices", "Неизвестный выбор.", "Unknown choice.")
            out = handler(outcome, choices, call)
        out.details["choices"] = [*outcome.details.get("choices", []), *choices]
        return out

    def odds(self, move: str, state: dict[str, Any], **params: Any) -> dict[str, float]:
        """Exact chance of tier 1/2/3 and of crit and doom for a check, given the sheet and
        every modifier the roll would use; ``{}`` for a move without a check."""
        if move not in CHECK_MOVES:
            if move not in MOVES_BY_KEY:
                self._unknown(move)
            return {}
        call = self._call(move, state, None, params)
        if move == "fall" and not self._fall_resists(call):
            return {}
        setup = self._setup(call)
        return check_odds(
            value=setup.value,
            advantages=setup.advantages,
            disadvantages=setup.disadvantages,
            bonus=setup.bonus,
            force_tier3=setup.force_tier3,
            force_tier3_on_doom=call.settings["unconscious_tier3_on_doom"],
            automatic_doom_roll=setup.auto_doom,
        )

    def end_dungeon_turn(
        self,
        campaign_state: dict[str, Any],
        characters: list[dict[str, Any]],
        *,
        dice: Dice,
        settings: dict[str, Any] | None = None,
    ) -> dungeon.TurnResult:
        return dungeon.end_dungeon_turn(campaign_state, characters, dice=dice, settings=settings)

    def start_rest(
        self,
        campaign: dict[str, Any],
        characters: list[dict[str, Any]],
        *,
        dice: Dice,
        settings: dict[str, Any] | None = None,
        place: str = "dungeon",
        miasma: bool = False,
    ) -> dungeon.TurnResult:
        return rest.start_rest(
            campaign, characters, dice=dice, settings=settings, place=place, miasma=miasma
        )

    def rest_midpoint(
        self,
        campaign: dict[str, Any],
        characters: list[dict[str, Any]],
        *,
        settings: dict[str, Any] | None = None,
    ) -> dungeon.TurnResult:
        return rest.rest_midpoint(campaign, characters, settings=settings)

    def finish_rest(
        self,
        campaign: dict[str, Any],
        characters: list[dict[str, Any]],
        plans: list[dict[str, Any] | None],
        *,
        dice: Dice,
        settings: dict[str, Any] | None = None,
    ) -> dungeon.TurnResult:
        return rest.finish_rest(campaign, characters, plans, dice=dice, settings=settings)

    def interrupt_rest(
        self,
        campaign: dict[str, Any],
        characters: list[dict[str, Any]],
        *,
        dice: Dice | None = None,
        settings: dict[str, Any] | None = None,
    ) -> dungeon.TurnResult:
        return rest.interrupt_rest(campaign, characters, dice=dice, settings=settings)

    def pass_time_outside(
        self,
        campaign: dict[str, Any],
        characters: list[dict[str, Any]],
        hours: int,
        *,
        dice: Dice,
        settings: dict[str, Any] | None = None,
    ) -> dungeon.TurnResult:
        return dungeon.pass_time_outside(campaign, characters, hours, dice=dice, settings=settings)

    @staticmethod
    def place(inventory: dict[str, Any], item: dict[str, Any], target_slot: Any) -> dict:
        """``inventory.place``: the slot rules for the web layer."""
        return inv_rules.place(inventory, item, target_slot)


RULESET = Crows()
