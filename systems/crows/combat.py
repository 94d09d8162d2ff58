"""Combat («Бой»): size and reach, surprise and side initiative, the turn budget,
taunt, readied actions and reactions, attack modifiers per target, weapon damage lines,
counterattacks and flanking geometry.

The combat state (``sheet.COMBAT``) is a dict the web layer stores on the campaign:
``{"round", "first", "initiative_roll", "combatants": [...], "current", "turn"}``. Every
function here takes it and returns a new one with an event; nothing is mutated. Positions and
geometry are plain parameters (``flanking: bool``, ``cover``, ``distance`` in squares) so the
rules never depend on a map module.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from systems.core.dice import Dice
from systems.core.notation import NotationError, roll_notation
from systems.core.schema import fail
from systems.crows.inventory import HANDS
from systems.crows.terms import INITIATIVE_PCS_FROM, SIZE_KEYS, SIZE_SPACE_REACH, size_index

# --- size, space, reach («Бой › Сетка и дистанции») -------------------------------------------


def reach(size: str) -> int:
    """Base reach from size («Бой › Досягаемость»): 1 up to Medium, 2 Large and Huge, 3
    Охренеть!."""
    return SIZE_SPACE_REACH[size][1]


def space(size: str) -> int:
    """Squares on a side of the creature's space («Бой › Размеры существ»)."""
    return SIZE_SPACE_REACH[size][0]


def size_steps(larger: str, smaller: str) -> int:
    """How many size categories ``larger`` is above ``smaller`` (negative when below)."""
    return size_index(larger) - size_index(smaller)


def can_share_space(mover: str, occupant: str) -> bool:
    """You cannot occupy the space of a creature within one size category of yours
    («Бой › Размер и пространство»); ending a move in any other creature's space is never allowed
    (our reading: the size clause only matters where the Referee allows it)."""
    return abs(size_steps(mover, occupant)) > 1


def can_ride(rider: str, mount: str) -> bool:
    """You may ride a pet at least one size larger than you («Бой › Питомцы в бою»)."""
    return size_steps(mount, rider) >= 1


# --- initiative and the combat state («Бой › Застигнут врасплох»; «Бой › Кто ходит первым?»;
# «Бой › Ход»)


def initiative_side(roll: int) -> str:
    """1d10 each round: 6+ the PCs and their allies act first, ≤5 the enemies
    («Бой › Кто ходит первым?»)."""
    return "pcs" if roll >= INITIATIVE_PCS_FROM else "enemies"


def new_combat(
    combatants: list[dict[str, Any]], *, surprised: list[str] | None = None
) -> dict[str, Any]:
    """A combat with no round started yet. ``surprised`` lists ids of creatures unaware of the
    others at the start («Бой › Застигнут врасплох»)."""
    ids = [c["id"] for c in combatants]
    if len(ids) != len(set(ids)):
        raise fail("combatants", "Участники с одинаковым id.", "Duplicate combatant ids.")
    unaware = set(surprised or [])
    unknown = unaware - set(ids)
    if unknown:
        raise fail("surprised", "Нет таких участников.", f"No such combatants: {sorted(unknown)}.")
    out = []
    for c in combatants:
        entry = _combatant(c)
        entry["surprised"] = c["id"] in unaware or bool(c.get("surprised"))
        out.append(entry)
    return {
        "round": 0,
        "first": "",
        "initiative_roll": None,
        "combatants": out,
        "current": "",
        "turn": None,
    }


def _combatant(c: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": c["id"],
        "name": c.get("name") or c["id"],
        "side": c.get("side", "pcs"),
        "surprised": bool(c.get("surprised", False)),
        "reaction_used": bool(c.get("reaction_used", False)),
        "acted": bool(c.get("acted", False)),
        "out": bool(c.get("out", False)),
        "pet_of": c.get("pet_of", ""),
        "taunted_by": c.get("taunted_by", ""),
        "readied": copy.deepcopy(c.get("readied")),
        "grabbing": c.get("grabbing", ""),
        "extra_now": int(c.get("extra_now", 0)),
    }


def combatant(combat: dict[str, Any], cid: str) -> dict[str, Any]:
    for c in combat["combatants"]:
        if c["id"] == cid:
            return c
    raise fail("combatant", f"Нет участника «{cid}».", f"No combatant {cid!r}.")


def add_combatant(combat: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """A creature joins mid-fight (a summoned creature, a wandering monster)."""
    new = copy.deepcopy(combat)
    if any(c["id"] == entry["id"] for c in new["combatants"]):
        raise fail("combatant", "Такой участник уже есть.", "That combatant is already in.")
    new["combatants"].append(_combatant(entry))
    return new


def start_round(combat: dict[str, Any], dice: Dice) -> tuple[dict[str, Any], dict[str, Any]]:
    """A new round: a player the Referee picks rolls 1d10 for the side that goes first
    («Бой › Кто ходит первым?»); every reaction is back (reset at the start of each round,
    «Бой › Реакции»); surprise lasts round 1 only («Бой › Застигнут врасплох»)."""
    if combat["turn"] is not None:
        raise fail("turn", "Сначала закончите текущий ход.", "Finish the current turn first.")
    new = copy.deepcopy(combat)
    new["round"] += 1
    roll = dice.roll(10)
    new["initiative_roll"] = roll
    new["first"] = initiative_side(roll)
    ended_surprise = []
    for c in new["combatants"]:
        c["reaction_used"] = False
        c["acted"] = False
        c["extra_now"] = 0
        if new["round"] > 1 and c["surprised"]:
            c["surprised"] = False
            ended_surprise.append(c["id"])
    no_turn = [c["id"] for c in new["combatants"] if c["surprised"]]
    event = {
        "type": "round_started",
        "round": new["round"],
        "initiative_roll": roll,
        "first": new["first"],
        "surprised_no_turn": no_turn,
        "surprise_ended": ended_surprise,
    }
    return new, event


def _can_take_turn(c: dict[str, Any]) -> bool:
    return not (c["acted"] or c["out"] or c["surprised"] or c["pet_of"])


def waiting_side(combat: dict[str, Any]) -> str:
    """The side whose members may start a turn now: all of the first side, then the other
    (each side sets its own order, «Бой › Кто ходит первым?»)."""
    first = combat["first"] or "pcs"
    other = "enemies" if first == "pcs" else "pcs"
    if any(c["side"] == first and _can_take_turn(c) for c in combat["combatants"]):
        return first
    return other


def start_turn(
    combat: dict[str, Any], cid: str, *, force: bool = False
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A creature's turn begins: a turn cannot be interrupted by another's («Бой › Ход»); a
    surprised creature has no turn in round 1 («Бой › Застигнут врасплох»); pets act only on Command
    («Бой › Питомцы в бою»). Taunts this creature made end, and its readied action lapses
    («Бой › Действие „Насмешка“»; «Бой › Подготовить действие»)."""
    if combat["round"] < 1:
        raise fail("round", "Раунд ещё не начался.", "No round has started.")
    if combat["turn"] is not None:
        raise fail(
            "turn",
            "Ход нельзя прервать ходом другого существа.",
            "A turn cannot be interrupted by another creature's turn.",
        )
    new = copy.deepcopy(combat)
    me = combatant(new, cid)
    if me["surprised"]:
        raise fail(
            "surprised",
            "Застигнутые врасплох не ходят в первом раунде.",
            "A surprised creature has no turn in round 1.",
        )
    if me["pet_of"]:
        raise fail(
            "pet_of",
            "Питомцы не ходят сами — только по Команде.",
            "Pets take no turns; they act on Command.",
        )
    if me["acted"] and not force:
        raise fail("acted", "Вы уже ходили в этом раунде.", "You have acted this round.")
    if not force and me["side"] != waiting_side(new):
        raise fail(
            "side",
            "Сейчас ходит другая сторона.",
            "The other side is acting now.",
        )
    lapsed = me["readied"]
    me["readied"] = None
    taunts_ended = []
    for c in new["combatants"]:
        if c["taunted_by"] == cid:
            c["taunted_by"] = ""
            taunts_ended.append(c["id"])
    new["current"] = cid
    new["turn"] = {
        "combatant": cid,
        "round": new["round"],
        "maneuvers": 0,
        "actions": 0,
        "extra_actions": 0,
        "extra_used": 0,
        "move_left": 0,
        "moved": 0,
        "log": [],
    }
    event = {
        "type": "combat_turn_started",
        "combatant": cid,
        "round": new["round"],
        "readied_lapsed": lapsed,
        "taunts_ended": taunts_ended,
    }
    return new, event


def turn_budget(turn: dict[str, Any]) -> dict[str, int]:
    """What is left: a maneuver and an action, or two maneuvers («Бой › Ход»), plus the extra
    actions crits gave this turn («Бой › Криты на атаках»)."""
    own_used = turn["actions"] - turn["extra_used"]
    maneuvers_left = max(0, 2 - own_used - turn["maneuvers"])
    own_action = 1 if own_used == 0 and turn["maneuvers"] <= 1 else 0
    spare_extra = max(0, turn["extra_actions"] - turn["extra_used"])
    return {"maneuvers": maneuvers_left, "actions": own_action + spare_extra}


def spend(
    combat: dict[str, Any],
    cid: str,
    cost: str,
    *,
    speed: int = 0,
    squares: int = 0,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Spend a maneuver, an action, a reaction (or nothing) for ``cid``.

    A Move maneuver (``speed`` > 0) opens ``speed`` squares that may be walked in pieces around
    the action («Бой › Общие манёвры»); ``squares`` walks them (0 is fine when a maneuver is spent
    otherwise). An action off-turn is an extra action from a crit that must be used at once
    («Бой › Криты на атаках»).
    """
    new = copy.deepcopy(combat)
    me = combatant(new, cid)
    event: dict[str, Any] = {"type": "spent", "combatant": cid, "cost": cost}
    if cost == "free":
        return new, event
    if cost == "reaction":
        if me["reaction_used"]:
            raise fail(
                "reaction",
                "Реакция в этом раунде уже потрачена.",
                "The reaction for this round is spent.",
            )
        me["reaction_used"] = True
        return new, event
    turn = new["turn"]
    if cost == "action" and me["extra_now"] and (turn is None or turn["combatant"] != cid):
        me["extra_now"] -= 1
        event["extra"] = True
        return new, event
    if turn is None or turn["combatant"] != cid:
        raise fail("turn", "Сейчас не ваш ход.", "It is not your turn.")
    left = turn_budget(turn)
    if cost == "maneuver":
        if left["maneuvers"] < 1:
            raise fail(
                "cost",
                "За ход — манёвр и действие или два манёвра.",
                "A turn is a maneuver and an action, or two maneuvers.",
            )
        turn["maneuvers"] += 1
        if speed:
            turn["move_left"] = speed
    elif cost == "action":
        if left["actions"] < 1:
            raise fail(
                "cost",
                "Действие в этом ходу уже потрачено.",
                "The action for this turn is spent.",
            )
        own_used = turn["actions"] - turn["extra_used"]
        if own_used or turn["maneuvers"] > 1:
            turn["extra_used"] += 1  # the crit's extra action («Бой › Криты на атаках»)
        turn["actions"] += 1
    else:
        raise fail("cost", f"Неизвестная цена: {cost}.", f"Unknown cost: {cost}.")
    turn["log"].append(cost)
    if squares:
        new, walked = walk(new, cid, squares)
        event["walked"] = walked
    event["left"] = turn_budget(new["turn"])
    return new, event


def walk(combat: dict[str, Any], cid: str, squares: int) -> tuple[dict[str, Any], int]:
    """Use squares of the current Move maneuver (it may be split by the action,
    «Бой › Общие манёвры»)."""
    new = copy.deepcopy(combat)
    turn = new["turn"]
    if turn is None or turn["combatant"] != cid:
        raise fail("turn", "Сейчас не ваш ход.", "It is not your turn.")
    if squares > turn["move_left"]:
        raise fail(
            "squares",
            "Дальше скорости за один манёвр не уйти.",
            "One maneuver moves at most your speed.",
        )
    turn["move_left"] -= squares
    turn["moved"] += squares
    return new, squares


def end_turn(combat: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The current turn ends; when nobody can still act the round is over."""
    if combat["turn"] is None:
        raise fail("turn", "Сейчас ничей ход.", "No turn is under way.")
    new = copy.deepcopy(combat)
    cid = new["turn"]["combatant"]
    combatant(new, cid)["acted"] = True
    new["turn"] = None
    new["current"] = ""
    over = not any(_can_take_turn(c) for c in new["combatants"])
    return new, {"type": "combat_turn_ended", "combatant": cid, "round_over": over}


def grant_extra_action(
    combat: dict[str, Any], cid: str, *, on_own_turn: bool
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A crit on an attack: +1 action, usable any time this turn on your own turn, at once
    otherwise («Бой › Криты на атаках»)."""
    new = copy.deepcopy(combat)
    me = combatant(new, cid)
    turn = new["turn"]
    if on_own_turn and turn is not None and turn["combatant"] == cid:
        turn["extra_actions"] += 1
        use = "this_turn"
    else:
        me["extra_now"] += 1
        use = "immediately"
    return new, {"type": "extra_action", "combatant": cid, "use": use}


def taunt(
    combat: dict[str, Any], by: str, target: str, *, distance: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Насмешка («Бой › Действие „Насмешка“»): an action; a creature within 10 squares has
    disadvantage on attacks that do not include you, until the start of your next turn."""
    if distance > 10:
        raise fail(
            "distance",
            "Насмешка — на существо в пределах 10 клеток.",
            "Taunt a creature within 10 squares.",
        )
    new, event = spend(combat, by, "action")
    combatant(new, target)["taunted_by"] = by
    return new, {**event, "type": "taunted", "target": target}


def taunt_applies(taunted_by: str, targets: list[str]) -> bool:
    """A taunted creature's attack has disadvantage unless the taunter is among its targets."""
    return bool(taunted_by) and taunted_by not in targets


def ready(
    combat: dict[str, Any], cid: str, *, what: str, trigger: str, kind: str = "action"
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Подготовить действие («Бой › Подготовить действие»): spend the action now; perform it later
    as a reaction."""
    if not trigger.strip():
        raise fail("trigger", "Назовите триггер.", "Name the trigger.")
    new, event = spend(combat, cid, "action")
    combatant(new, cid)["readied"] = {
        "kind": kind,
        "what": what,
        "trigger": trigger,
        "round": new["round"],
    }
    return new, {**event, "type": "readied", "what": what, "trigger": trigger}


def trigger_readied(combat: dict[str, Any], cid: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The trigger happened: the readied action is performed with the reaction
    («Бой › Подготовить действие»)."""
    me = combatant(combat, cid)
    if me["readied"] is None:
        raise fail("readied", "Ничего не подготовлено.", "Nothing is readied.")
    readied = copy.deepcopy(me["readied"])
    new, _ = spend(combat, cid, "reaction")
    combatant(new, cid)["readied"] = None
    return new, {"type": "readied_triggered", "combatant": cid, "readied": readied}


def set_grabbing(combat: dict[str, Any], cid: str, target: str) -> dict[str, Any]:
    """You can hold only one grab at a time («Бой › Общие манёвры»)."""
    new = copy.deepcopy(combat)
    me = combatant(new, cid)
    if target and me["grabbing"] and me["grabbing"] != target:
        raise fail(
            "grabbing",
            "В захвате можно держать только одно существо.",
            "You can hold only one creature at a time.",
        )
    me["grabbing"] = target
    return new


# --- flanking geometry («Бой › Фланкирование») ------------------------------------------------


def flanking_geometry(
    me: tuple[int, int, int], ally: tuple[int, int, int], enemy: tuple[int, int, int]
) -> bool:
    """Whether the line between the centres of your space and your ally's crosses opposite
    sides or corners of the enemy's space («Бой › Фланкирование»). Spaces are ``(x, y, side)`` with
    (x, y) the top-left square; both of you must be adjacent to it («Бой › Фланкирование»)."""
    if not (_adjacent(me, enemy) and _adjacent(ally, enemy)):
        return False
    (ax, ay), (bx, by) = _centre(me), _centre(ally)
    ex, ey, es = enemy
    hit = _clip(ax, ay, bx, by, ex, ey, ex + es, ey + es)
    if hit is None:
        return False
    (x0, y0), (x1, y1) = hit
    s0, s1 = _sides(x0, y0, ex, ey, es), _sides(x1, y1, ex, ey, es)
    opposite = {("l", "r"), ("r", "l"), ("t", "b"), ("b", "t")}
    return any((a, b) in opposite for a in s0 for b in s1)


def _centre(sp: tuple[int, int, int]) -> tuple[float, float]:
    x, y, s = sp
    return x + s / 2, y + s / 2


def _adjacent(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    """Spaces touch (a diagonal counts, «Бой › Сетка и дистанции») without overlapping."""
    ax, ay, asz = a
    bx, by, bsz = b
    gap_x = max(0, bx - (ax + asz), ax - (bx + bsz))
    gap_y = max(0, by - (ay + asz), ay - (by + bsz))
    overlap = ax < bx + bsz and bx < ax + asz and ay < by + bsz and by < ay + asz
    return not overlap and max(gap_x, gap_y) == 0


def _clip(x0, y0, x1, y1, left, top, right, bottom):
    """Liang-Barsky: where the segment enters and leaves the rectangle, or None."""
    dx, dy = x1 - x0, y1 - y0
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, x0 - left), (dx, right - x0), (-dy, y0 - top), (dy, bottom - y0)):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    return (x0 + t0 * dx, y0 + t0 * dy), (x0 + t1 * dx, y0 + t1 * dy)


def _sides(x: float, y: float, ex: int, ey: int, es: int) -> set[str]:
    eps = 1e-9
    out = set()
    if abs(x - ex) < eps:
        out.add("l")
    if abs(x - (ex + es)) < eps:
        out.add("r")
    if abs(y - ey) < eps:
        out.add("t")
    if abs(y - (ey + es)) < eps:
        out.add("b")
    return out


def flanking_blocked(
    *,
    attacker_conditions: set[str],
    ally_conditions: set[str] | None = None,
    attacker_grabbing: str = "",
    ally_grabbing: str = "",
    target: str = "",
) -> str:
    """Why flanking does not count, or "" («Бой › Фланкирование»): you or the ally prone or grabbed,
    or grabbing a creature other than the target."""
    for who, conditions, grabbing in (
        ("attacker", attacker_conditions, attacker_grabbing),
        ("ally", ally_conditions or set(), ally_grabbing),
    ):
        if conditions & {"prone", "unconscious"}:
            return f"{who}_prone"
        if "grabbed" in conditions:
            return f"{who}_grabbed"
        if grabbing and grabbing != target:
            return f"{who}_grabbing"
    return ""


# --- weapons and damage lines («Бой › Как атаковать») -----------------------------------------

UNARMED: dict[str, Any] = {
    "type": "melee",
    "check": "agility_or_strength",
    "range": 0,
    "reach": 1,
    "expertise": "unarmed",
    "tier1": "",
    "tier2": "1+attr",
    "tier3": "2+attr",
    "piercing": False,
    "ammo": "",
}  # «Бой › Ближние атаки»

_ATTR_WORDS = {
    "attr": None,
    "хар": None,
    "str": "strength",
    "сил": "strength",
    "agi": "agility",
    "лов": "agility",
    "rea": "reason",
    "раз": "reason",
}
_ATTR_RE = re.compile(r"(?<![a-zа-яё])(attr|хар|str|сил|agi|лов|rea|раз)[a-zа-яё]*", re.I)


def held_weapon(state: dict[str, Any], item_id: str) -> dict[str, Any]:
    """The card of an item held in a hand slot («Слоты инвентаря › Экипированные предметы»;
    «Бой › Как атаковать»)."""
    for p in state["inventory"]["placed"]:
        if p["area"] != HANDS:
            continue
        for card in p["items"]:
            if card["id"] == item_id:
                return card
    raise fail(
        "weapon_id",
        "Атаковать можно только тем, что держите в руках.",
        "You attack only with an item held in hand.",
    )


def weapon_profile(state: dict[str, Any], weapon_id: str) -> tuple[dict[str, Any], dict | None]:
    """(damage profile, card): a held item's profile; ``""`` is an unarmed strike; a held item
    without a profile is improvised and strikes as unarmed («Бой › Ближние атаки»;
    «Бой › Дальние атаки»); ``"natural"`` is a creature's natural weapon."""
    if not weapon_id:
        return copy.deepcopy(UNARMED), None
    if weapon_id == "natural":
        if state.get("natural_weapon") is None:
            raise fail("weapon_id", "У существа нет естественного оружия.", "No natural weapon.")
        return copy.deepcopy(state["natural_weapon"]), None
    card = held_weapon(state, weapon_id)
    if card["damage"] is None:
        return copy.deepcopy(UNARMED) | {"expertise": ""}, card
    return copy.deepcopy(card["damage"]), card


def attack_characteristic(profile: dict[str, Any], attack: str, chosen: str | None) -> str:
    """Which characteristic the attack rolls: the card's check, else Strength for melee and
    Agility for ranged («Характеристики»); where the card allows two, the roller picks
    («Проверки › Как делать проверку»)."""
    allowed = {
        "strength": ("strength",),
        "agility": ("agility",),
        "reason": ("reason",),
        "agility_or_strength": ("agility", "strength"),
    }.get(profile.get("check") or "", ("strength",) if attack == "melee" else ("agility",))
    if chosen and chosen in allowed:
        return chosen
    if chosen and chosen not in allowed:
        raise fail(
            "characteristic",
            "Это оружие атакует другой характеристикой.",
            "This weapon attacks with another characteristic.",
        )
    return allowed[-1] if len(allowed) > 1 else allowed[0]


def split_line(text: str) -> tuple[str, str]:
    """A tier line is ``"<damage>; <rider>"`` (``"1d6+attr; push 1"``); either part may be
    empty. A line with no leading number or dice is all rider."""
    head, _, rider = (text or "").partition(";")
    head = head.strip()
    if head and not re.match(
        r"^[\d(+\-−]|^(d|к)\d|^(attr|хар|str|сил|agi|лов|rea|раз)", head, re.I
    ):
        return "", text.strip()
    return head, rider.strip()


def roll_line(
    text: str, dice: Dice, *, characteristics: dict[str, int], attr: str
) -> dict[str, Any] | None:
    """Roll a tier line's damage: ``attr`` words become the attack's characteristic, ``str``,
    ``agi`` and ``rea`` (or Russian сил, лов, раз) a named one. None when the line deals no
    damage. Damage is never negative."""
    head, rider = split_line(text)
    if not head:
        return None if not rider else {"total": 0, "faces": [], "text": "", "rider": rider}

    def value(match: re.Match[str]) -> str:
        word = match.group(1).lower()
        key = _ATTR_WORDS[word] or attr
        return f"({characteristics[key]})"

    expression = _ATTR_RE.sub(value, head)
    try:
        rolled = roll_notation(expression, dice=dice)
    except NotationError as exc:
        raise fail("damage", exc.ru, exc.en) from None
    return {
        "total": max(0, rolled.total),
        "faces": rolled.faces,
        "text": rolled.text,
        "rider": rider,
    }


# --- counterattacks («Бой › Контратака») ------------------------------------------------------


def counter_profile(
    state: dict[str, Any], *, unarmed_allowed: bool = False
) -> tuple[dict[str, Any] | None, str]:
    """(profile, item id) a creature counterattacks with, or (None, reason).

    The rulebook needs a held melee weapon («Бой › Контратака»). Our reading: a held non-weapon item
    counts as improvised (unarmed damage), a creature's natural weapon counts, and an empty-handed
    character may counterattack unarmed only when the campaign allows it (``counter_unarmed``).
    """
    for p in state["inventory"]["placed"]:
        if p["area"] != HANDS:
            continue
        for card in p["items"]:
            dmg = card["damage"]
            if dmg is not None and dmg["type"] in ("melee", "thrown"):
                return copy.deepcopy(dmg), card["id"]
    for p in state["inventory"]["placed"]:
        if p["area"] == HANDS and p["items"] and p["items"][0]["damage"] is None:
            return copy.deepcopy(UNARMED) | {"expertise": ""}, p["items"][0]["id"]
    if state.get("natural_weapon") is not None:
        return copy.deepcopy(state["natural_weapon"]), "natural"
    if unarmed_allowed:
        return copy.deepcopy(UNARMED), ""
    return None, "no_melee_weapon"


def counter_reach(state: dict[str, Any], profile: dict[str, Any]) -> int:
    """Weapon reach applies to counterattacks made with that weapon («Бой › Досягаемость»)."""
    return max(reach(state.get("size", "medium")), int(profile.get("reach", 1)))


SIZES_ORDERED = SIZE_KEYS
