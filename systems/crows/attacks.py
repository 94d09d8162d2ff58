"""Attack rules shared by checks and combat («Бой › Как атаковать»): situational modifiers,
range penalties and allies hit by a ranged miss. The attack move itself is ``attack_moves``;
maneuvers, reactions and forced movement build on ``checks``.
"""

from __future__ import annotations

from typing import Any

from systems.core.dice import Dice
from systems.core.schema import fail
from systems.crows.combat import flanking_blocked
from systems.crows.conditions import condition_keys

RANGE_PENALTY_PER_SQUARE = 2  # «Бой › Дальние атаки»


def range_penalty(weapon_range: int, distance: int) -> int:
    """A ranged weapon attack beyond its range takes −2 per extra square («Бой › Дальние атаки»);
    melee-only weapons have range 0. Range 6 at a target 8 squares away is −4."""
    if weapon_range < 0 or distance < 0:
        raise fail("distance", "Расстояние не бывает отрицательным.", "Distances are positive.")
    return -RANGE_PENALTY_PER_SQUARE * max(0, distance - weapon_range)


def ranged_miss_allies(dice: Dice, *, allies_adjacent: int, doom: bool) -> dict[str, Any]:
    """A ranged miss with allies next to the target («Бой › Дальние атаки»).

    A doom hits a random adjacent ally for the weapon's tier-3 damage, no die rolled; any
    other miss rolls any die (a d6 here) and on an odd face a random adjacent ally takes the
    weapon's tier-2 damage. The Referee picks the ally at random.
    """
    if allies_adjacent <= 0:
        return {"ally_hit": False, "damage_tier": None, "parity_die": None}
    if doom:
        return {"ally_hit": True, "damage_tier": 3, "parity_die": None}
    face = dice.roll(6)
    odd = face % 2 == 1
    return {"ally_hit": odd, "damage_tier": 2 if odd else None, "parity_die": face}


def crit_extra_action(*, on_own_turn: bool) -> dict[str, Any]:
    """A crit on an attack gives one extra action: any time this turn on your own turn,
    otherwise it must be used at once («Бой › Криты на атаках»)."""
    return {"extra_action": True, "use": "this_turn" if on_own_turn else "immediately"}


SURPRISE_BONUS = 1  # "Застигнут врасплох": attacks against it get +1, a bonus, not advantage
SQUEEZING_BONUS = 1  # a creature squeezing through a narrow space is easier to hit


def surprised(combat: dict[str, Any] | None, combatant_id: str) -> bool:
    """Is the attack's target surprised? Read from the combat under way, never from the
    attacker's word: only a combatant marked surprised, and only in round 1 ("Застигнут
    врасплох": after the first round nobody is surprised any more)."""
    if not combat or not combatant_id or combat.get("round") != 1:
        return False
    return any(c["id"] == combatant_id and c["surprised"] for c in combat["combatants"])


def attack_modifiers(
    attacker: dict[str, Any],
    sources: list[str] | tuple[str, ...],
    *,
    attack: str,
    grabbing: str = "",
    target: str = "",
    combat: dict[str, Any] | None = None,
    combatant: str = "",
    squeezing: bool = False,
) -> tuple[tuple[str, ...], dict[str, int]]:
    """An attack's situational sources and flat bonuses: one rule for the attack move (and a
    spell attack) and for a check of the attack kind, so both read the same total.

    Flanking (Бой, "Фланкирование") counts only for a melee attack by an attacker who is not
    prone, grabbed or grabbing another creature, whoever claimed it; surprise comes from the
    combat state (``surprised``)."""
    keys = [k for k in dict.fromkeys(sources) if k != "flanking"]
    if (
        "flanking" in sources
        and attack != "ranged"  # a check that does not say which attack counts it as melee
        and not flanking_blocked(
            attacker_conditions=condition_keys(attacker), attacker_grabbing=grabbing, target=target
        )
    ):
        keys.append("flanking")
    parts: dict[str, int] = {}
    if surprised(combat, combatant):
        parts["surprised"] = SURPRISE_BONUS
    if squeezing:
        parts["squeezing"] = SQUEEZING_BONUS
    return tuple(keys), parts
