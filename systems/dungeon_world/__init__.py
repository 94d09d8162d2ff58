"""Dungeon World: ``RULESET`` is what ``systems.get_ruleset("dungeon_world")``
returns."""

from systems.dungeon_world.ruleset import RULESET, DungeonWorld

__all__ = ["RULESET", "DungeonWorld"]
