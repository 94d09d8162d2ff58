"""Savage Worlds, "Дневник авантюриста": ``RULESET`` is what
``systems.get_ruleset("savage_worlds")`` returns."""

from systems.savage_worlds.ruleset import RULESET, SavageWorlds

__all__ = ["RULESET", "SavageWorlds"]
