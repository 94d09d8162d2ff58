"""Movement («Бой › Передвижение»), forced movement («Бой › Принудительное перемещение») and tipping
objects («Бой › Опрокидывание предметов») as pure functions over plain parameters.

A path is a list of steps, one per square entered, each a dict of flags the map layer knows:
``difficult`` (or ``enemy``: an enemy's space is difficult terrain, «Бой › Размер и пространство»),
``swim``, ``climb``, ``ceiling`` (climbing upside-down), ``air`` (needs a fly speed), ``void`` (feet
of drop below the square), ``height`` (squares above the start), ``occupied``, ``hazard`` (damaging
or effect terrain, named), ``leaves_reach_of`` (creatures whose base reach this step leaves).
"""

from __future__ import annotations

from typing import Any

from systems.core.schema import fail
from systems.crows.combat import size_steps
from systems.crows.conditions import has_condition, speed
from systems.crows.terms import SQUARE_FEET, TIP_BASE_DICE, TIP_DICE_PER_SIZE

JUMP_TIER2_LENGTH = 2  # «Бой › Прыжок»
JUMP_TIER3_MIN = 3  # «Бой › Прыжок»
JUMP_HEIGHT = 1  # «Бой › Прыжок»
RUN_UP_SQUARES = 2  # «Бой › Прыжок»


def step_cost(step: dict[str, Any], speeds: dict[str, Any]) -> tuple[int, list[str]]:
    """Squares of movement one step costs, and the checks the Referee may ask for
    («Бой › Передвижение»).

    Difficult terrain +1 («Бой › Труднопроходимая местность»). Swimming or climbing +1 and maybe a
    check, unless the creature has that speed — except climbing upside-down on a ceiling without
    "(U)" («Бой › Плавание и лазание»).
    """
    cost, checks = 1, []
    if step.get("difficult") or step.get("enemy"):
        cost += 1
    if step.get("swim") and not speeds.get("swim"):
        cost += 1
        checks.append("swim")
    if step.get("climb") or step.get("ceiling"):
        upside_down = bool(step.get("ceiling"))
        free = speeds.get("climb") and (not upside_down or speeds.get("upside_down"))
        if not free:
            cost += 1
            checks.append("climb_ceiling" if upside_down else "climb")
    if step.get("air") and not speeds.get("fly"):
        raise fail("path", "Без скорости полёта в воздухе не удержаться.", "You need a fly speed.")
    return cost, checks


def path_cost(
    steps: list[dict[str, Any]], speeds: dict[str, Any]
) -> tuple[int, list[dict[str, Any]]]:
    """Total cost of a path and, per step, what it costs and which checks it may need."""
    total, per_step = 0, []
    for i, step in enumerate(steps):
        cost, checks = step_cost(step, speeds)
        total += cost
        per_step.append({"step": i, "cost": cost, "checks": checks})
    return total, per_step


def shift_allowed(steps: list[dict[str, Any]], *, start_difficult: bool = False) -> str:
    """Шаг («Бой › Общие манёвры»; «Бой › Труднопроходимая местность»): exactly 1 square; it cannot
    enter difficult terrain or move within it. Returns "" when allowed, else a reason key."""
    if len(steps) != 1:
        return "one_square"
    if start_difficult or steps[0].get("difficult") or steps[0].get("enemy"):
        return "difficult"
    return ""


def provoked_by(steps: list[dict[str, Any]], *, mode: str) -> list[dict[str, Any]]:
    """Who may make a provoked attack, and where the move pauses for it
    («Бой › Провоцированная атака»).

    A step that leaves someone's base reach provokes, unless the move is a Shift
    («Бой › Общие манёвры»), a teleport («Бой › Телепортация»), forced
    («Бой › Принудительное перемещение») or the 17+ Escape step («Бой › Общие манёвры»). The
    attack happens with the mover still on the last square within reach, i.e. before step
    ``pause_before``.
    """
    if mode in ("shift", "teleport", "forced", "escape"):
        return []
    out, seen = [], set()
    for i, step in enumerate(steps):
        for name in step.get("leaves_reach_of", []):
            if name in seen:
                continue
            seen.add(name)
            out.append({"by": name, "pause_before": i})
    return out


def jump_length(tier: int, characteristic_value: int) -> tuple[int, int]:
    """(length, height) of a jump («Бой › Прыжок»): ≤11 nothing; 12–16 up to 2 and 1 high; 17+ up to
    2 + the characteristic rolled, at least 3, 1 high («Бой › Прыжок»)."""
    if tier == 1:
        return 0, 0
    if tier == 2:
        return JUMP_TIER2_LENGTH, JUMP_HEIGHT
    return max(JUMP_TIER3_MIN, 2 + characteristic_value), JUMP_HEIGHT


def teleport_problems(
    *,
    distance: int,
    reach: int,
    line_of_effect: bool,
    origin_line_of_effect: bool = True,
    other: bool = False,
    occupied: bool = False,
) -> list[str]:
    """Why a teleport cannot happen («Бой › Телепортация»): too far for the effect, no line of
    effect to the destination (and from the origin when teleporting someone else), an occupied
    destination."""
    out = []
    if distance > reach:
        out.append("range")
    if not line_of_effect:
        out.append("line_of_effect")
    if other and not origin_line_of_effect:
        out.append("origin_line_of_effect")
    if occupied:
        out.append("occupied")
    return out


def flier_falls(state: dict[str, Any]) -> bool:
    """A flying creature knocked prone or reduced to speed 0 falls («Бой › Полёт»)."""
    if not state.get("speeds", {}).get("fly"):
        return False
    return has_condition(state, "prone") or speed(state) == 0


# --- forced movement («Бой › Принудительное перемещение») -------------------------------------


def forced_problems(
    *,
    mover_size: str,
    target_size: str,
    magical: bool,
    distance: int,
    squares: int,
    path: list[dict[str, Any]],
    vertical: bool,
) -> list[str]:
    """Why this forced movement is illegal: more squares than X (fewer is fine,
    «Бой › Принудительное перемещение»); a mundane push of a creature larger than the mover
    («Бой › Принудительное перемещение»); an occupied square («Бой › Принудительное перемещение»); a
    non-vertical move up or down a slope steeper than ±1 square per step («Бой › Вертикальное»)."""
    out = []
    if squares > distance:
        out.append("too_far")
    if not magical and size_steps(target_size, mover_size) > 0:
        out.append("too_large")
    if len(path) < squares:
        out.append("path_short")
    height = 0
    for step in path[:squares]:
        if step.get("occupied"):
            out.append("occupied")
            break
        new_height = int(step.get("height", height))
        if not vertical and abs(new_height - height) > 1:
            out.append("slope")
            break
        height = new_height
    return out


def forced_end(path: list[dict[str, Any]], squares: int, *, flier: bool) -> dict[str, Any]:
    """Where forced movement leaves the target («Бой › В пропасть»): the whole distance is moved
    first; a non-flier falls only if the final square is over a void. Hazards (damaging or effect
    terrain, temporary magic included) apply as if entered («Бой › Принудительное перемещение»)."""
    walked = path[:squares]
    final = walked[-1] if walked else {}
    hazards = [s["hazard"] for s in walked if s.get("hazard")]
    feet = int(final.get("void", 0)) if final and not flier else 0
    return {"squares": squares, "fall_feet": feet, "hazards": hazards}


# --- tipping objects («Бой › Опрокидывание предметов») ----------------------------------------


def tip_dice(object_size: str, target_size: str) -> int:
    """d10s an object deals landing on a creature of its size or smaller: 1d10 + 2d10 per size
    category larger («Бой › Опрокидывание предметов»): a Huge object on a Medium creature deals
    5d10. 0 when the object is smaller than the creature (the rulebook gives no damage then)."""
    steps = size_steps(object_size, target_size)
    if steps < 0:
        return 0
    return TIP_BASE_DICE + TIP_DICE_PER_SIZE * steps


def tip_by_force(your_size: str, object_size: str) -> dict[str, Any]:
    """What tipping an object by force takes («Бой › Опрокидывание предметов»): a smaller object a
    maneuver and no check; your size up to two larger an action and a Strength check, with
    disadvantage at +1 and double at +2; larger cannot be tipped by force."""
    steps = size_steps(object_size, your_size)
    if steps < 0:
        return {"cost": "maneuver", "check": False, "sources": []}
    if steps > 2:
        return {"cost": None, "check": False, "sources": []}
    sources = {0: [], 1: ["object_larger"], 2: ["object_much_larger"]}[steps]
    return {"cost": "action", "check": True, "sources": sources}


def feet_to_squares(feet: int) -> int:
    return feet // SQUARE_FEET
