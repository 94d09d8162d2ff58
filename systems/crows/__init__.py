"""Crows: Fortune or Death: ``RULESET`` is what ``systems.get_ruleset("crows")``
returns. The pure functions the web layer and the timer task call directly are re-exported here;
the combat and travel state machines live in ``combat`` (the combat state and turn budget) and
``travel`` (the travel day), both pure over plain dicts. ``ruleset`` says where each domain's
move handlers are."""

from systems.crows.dungeon import TurnResult, end_dungeon_turn, pass_time_outside
from systems.crows.inventory import place, validate_inventory
from systems.crows.rest import finish_rest, interrupt_rest, rest_midpoint, start_rest
from systems.crows.ruleset import RULESET, Crows
from systems.crows.travel import public_view as public_travel

__all__ = [
    "RULESET",
    "Crows",
    "TurnResult",
    "end_dungeon_turn",
    "finish_rest",
    "interrupt_rest",
    "pass_time_outside",
    "place",
    "public_travel",
    "rest_midpoint",
    "start_rest",
    "validate_inventory",
]
