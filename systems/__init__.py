"""Rulesets as pure Python packages, one per game. ``get_ruleset(key)`` is the only entry point
the Django side uses, so adding a game never touches the web code."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from systems.core.ruleset import Ruleset


@dataclass(frozen=True)
class RulesetInfo:
    key: str
    name_ru: str
    name_en: str


RULESETS: tuple[RulesetInfo, ...] = (
    RulesetInfo("dungeon_world", "Dungeon World", "Dungeon World"),
    RulesetInfo("crows", "Crows: Удача или смерть", "Crows: Fortune or Death"),
    RulesetInfo("city_of_judas", "Град Иуды", "City of Judas"),
    RulesetInfo("tales", "Сказания волшебного мира", "Tales of the Magic World"),
    RulesetInfo("savage_worlds", "Savage Worlds (Дневник авантюриста)", "Savage Worlds"),
)
RULESET_KEYS: tuple[str, ...] = tuple(r.key for r in RULESETS)


def ruleset_info(key: str) -> RulesetInfo:
    for info in RULESETS:
        if info.key == key:
            return info
    raise KeyError(f"unknown ruleset {key!r}; known: {', '.join(RULESET_KEYS)}")


def get_ruleset(key: str) -> Ruleset:
    """Import ``systems.<key>`` lazily and return its ``RULESET`` instance."""
    ruleset_info(key)
    module = import_module(f"systems.{key}")
    return module.RULESET
