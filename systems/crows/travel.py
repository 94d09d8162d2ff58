"""Overland travel («Путешествие по суше») as pure functions over a travel state
dict (``sheet.TRAVEL``), a day in the order of «Путешествие по суше › Порядок путешествия»:

1. ``start_day``: pace → hexes 1/2/3, thresholds 8/7/6 for travel and rest, role checks at
   advantage / plain / disadvantage; slowest speed, road and river modifiers
   («Путешествие по суше › Темп пути»);
2. ``assign_roles``: one guide, up to three in each other role, one task each
(«Путешествие по суше › Дорожные роли»);
3. role checks in order — helpers (Help everyone first), guide, scouts, trackers
(«Путешествие по суше › Порядок путешествия») — rolled by the ruleset's ``travel_role`` move and
applied here by ``apply_task``;
4. ``encounter_check``: the Referee's 1d10 against the travel threshold, at most 10
(«Путешествие по суше › Дорожные встречи»);
5. ``move_day``: the day's hexes; while lost each hex left is a hidden 1d6
(«Путешествие по суше › Заблудились»);
6. arrival switches to dungeon turns with the day's threshold
(«Путешествие по суше › Точки интереса»), then the rest and the Miasma saves (``miasma``).

Whatever players must not see is marked: ``public_view`` strips it, and events carry
``"hidden": True`` with a ``referee_only`` section.
"""

from __future__ import annotations

import copy
from typing import Any

from systems.core.dice import Dice
from systems.core.schema import fail, validate
from systems.crows.sheet import TRAVEL
from systems.crows.terms import (
    DIRECTION_KEYS,
    DIRECTION_VECTORS,
    PACES_BY_KEY,
    RIVER_HEXES,
    ROAD_HEXES,
    ROAD_THRESHOLD,
    ROLE_LIMIT,
    ROLE_ORDER,
    TASKS_BY_KEY,
    TRAVEL_THRESHOLD_MAX,
    TRAVEL_THRESHOLD_MIN,
    speed_hexes,
)

LOST_DIE = 6  # «Путешествие по суше › Заблудились»
HELP_EVERYONE = {1: -1, 2: 1, 3: 2}  # «Путешествие по суше › Помочь всем»
FORAGE_BONUS_GLUTTONY = 2  # «Путешествие по суше › Эффекты Миазмы»


def clean_travel(travel: dict[str, Any] | None) -> dict[str, Any]:
    """A validated deep copy of a travel state (defaults filled in)."""
    return validate(TRAVEL, travel or {}, path="travel")


def new_travel(
    hex_: tuple[int, int] = (0, 0), goal: tuple[int, int] | None = None, *, terrain: str = ""
) -> dict[str, Any]:
    travel = clean_travel({})
    travel["hex"] = {"q": hex_[0], "r": hex_[1]}
    travel["seen_hex"] = copy.deepcopy(travel["hex"])
    travel["goal"] = {"q": goal[0], "r": goal[1]} if goal else None
    travel["terrain"] = terrain
    return travel


def _clamp_threshold(value: int) -> int:
    """Never above 10 («Путешествие по суше › Дорожные встречи»); never below 1 (the rulebook sets
    no floor)."""
    return max(TRAVEL_THRESHOLD_MIN, min(TRAVEL_THRESHOLD_MAX, value))


def recompute(travel: dict[str, Any]) -> dict[str, Any]:
    """Today's hexes (≥0; the rulebook sets no floor) and thresholds (1..10) from the pace and the
    modifiers so far."""
    travel["hexes"] = max(0, travel["base_hexes"] + travel["hex_mod"])
    travel["travel_threshold"] = _clamp_threshold(travel["base_threshold"] + travel["travel_mod"])
    travel["rest_threshold"] = _clamp_threshold(travel["base_threshold"] + travel["rest_mod"])
    return travel


def start_day(
    travel: dict[str, Any],
    *,
    pace: str,
    slowest_speed: int,
    road: bool = False,
    river: str = "none",
    terrain: str | None = None,
    in_miasma: bool = True,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Open a travel day («Путешествие по суше › Порядок путешествия»;
    «Путешествие по суше › Темп пути»): the pace sets hexes, both thresholds and the role-check
    advantage; the slowest creature (a rider counts its mount) adds −1/0/+1/+2 hexes; a road all day
    +1 hex and −1 to both thresholds; crossing water without a boat or going upstream −1 hex,
    downstream +1. Yesterday's role results are gone; lost stays lost
    («Путешествие по суше › Снова на пути»)."""
    if pace not in PACES_BY_KEY:
        raise fail("pace", "Выберите темп.", "Choose a pace.")
    t = clean_travel(travel)
    p = PACES_BY_KEY[pace]
    t.update(
        day=t["day"] + 1,
        pace=pace,
        slowest_speed=slowest_speed,
        road=road,
        river=river,
        in_miasma=in_miasma,
        base_hexes=p.hexes,
        base_threshold=p.threshold,
        role_net=p.role_net,
        hex_mod=speed_hexes(slowest_speed) + RIVER_HEXES[river] + (ROAD_HEXES if road else 0),
        travel_mod=ROAD_THRESHOLD if road else 0,
        rest_mod=ROAD_THRESHOLD if road else 0,
        roles=[],
        helping=[],
        role_bonus=[],
        miasma_advantage=[],
        crafting_bonus=0,
        rations_found=0,
        hides_found=0,
        prompts=[],
        moved=0,
        arrived="",
    )
    if terrain is not None:
        t["terrain"] = terrain
    recompute(t)
    event = {
        "type": "travel_day",
        "day": t["day"],
        "pace": pace,
        "hexes": t["hexes"],
        "travel_threshold": t["travel_threshold"],
        "rest_threshold": t["rest_threshold"],
        "role_net": t["role_net"],
        "lost": t["lost"],
    }
    return t, event


# --- roles («Путешествие по суше › Дорожные роли») --------------------------------------------


def assign_roles(
    travel: dict[str, Any],
    roles: list[dict[str, Any]],
    *,
    helping: list[dict[str, Any]] | None = None,
    refusing: list[str] | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Validate and store today's roles: at most one guide, three in each other role, one task
    per creature and a task of its own role («Путешествие по суше › Дорожные роли»); nobody under
    Sloth («Путешествие по суше › Эффекты Миазмы»); a lost party's guide must try Back on track
    («Путешествие по суше › Снова на пути»)."""
    t = clean_travel(travel)
    entries = [validate(TRAVEL.fields["roles"].item, r, path="roles") for r in roles]
    names = [r["name"] for r in entries]
    if len(names) != len(set(names)):
        raise fail("roles", "Одна роль и одна задача на существо.", "One task each.")
    for r in entries:
        task = TASKS_BY_KEY[r["task"]]
        if task.role != r["role"]:
            raise fail(
                "roles",
                f"Задача «{task.ru}» — не для этой роли.",
                f"{task.en} is not a task of that role.",
            )
        if r["name"] in (refusing or []):
            raise fail(
                "roles",
                f"{r['name']} под «Ленью» отказывается от дорожных ролей.",
                f"{r['name']} is under Sloth and refuses travel roles.",
            )
        if t["lost"] and r["role"] == "guide" and r["task"] != "back_on_track":
            raise fail(
                "roles",
                "Заблудившись, проводник делает проверку «Снова на пути».",
                "While lost, the guide checks Back on track.",
            )
        if r["task"] == "back_on_track" and not t["lost"]:
            raise fail("roles", "Группа не заблудилась.", "The party is not lost.")
        r["done"], r["tier"] = False, None
    for role, limit in ROLE_LIMIT.items():
        if sum(1 for r in entries if r["role"] == role) > limit:
            raise fail(
                "roles",
                f"В роли не больше {limit}.",
                f"At most {limit} in that role.",
            )
    helpers = [validate(TRAVEL.fields["helping"].item, h, path="helping") for h in helping or []]
    for h in helpers:
        if h["name"] in names:
            raise fail("helping", "Помогает тот, кто не взял роль.", "Helpers hold no role.")
        if h["helps"] not in names:
            raise fail("helping", "Помогают тому, кто взял роль.", "Help a role-holder.")
    t["roles"], t["helping"] = entries, helpers
    return t, {"type": "travel_roles", "roles": copy.deepcopy(entries), "helping": helpers}


def _order_key(entry: dict[str, Any]) -> tuple[int, int]:
    # Help everyone goes first among the helpers, so its bonus reaches the others' checks.
    return ROLE_ORDER.index(entry["role"]), 0 if entry["task"] == "help_everyone" else 1


def role_entry(travel: dict[str, Any], name: str, task: str) -> dict[str, Any]:
    for r in travel["roles"]:
        if r["name"] == name and r["task"] == task:
            return r
    raise fail(
        "travel_task",
        f"У {name} нет задачи «{TASKS_BY_KEY[task].ru}» сегодня.",
        f"{name} has no {TASKS_BY_KEY[task].en} task today.",
    )


def ensure_role(
    travel: dict[str, Any], name: str, task: str, *, allies: list[str], quarry: str
) -> dict[str, Any]:
    """The creature's role entry for this task, added now if roles were not assigned ahead."""
    t = clean_travel(travel)
    if not any(r["name"] == name for r in t["roles"]):
        entry = {
            "name": name,
            "role": TASKS_BY_KEY[task].role,
            "task": task,
            "allies": allies,
            "quarry": quarry,
        }
        t, _ = assign_roles(t, [*t["roles"], entry], helping=t["helping"])
        # assign_roles resets progress; keep what was already done
        done = {(r["name"], r["task"]): r for r in travel["roles"]}
        for r in t["roles"]:
            old = done.get((r["name"], r["task"]))
            if old:
                r["done"], r["tier"] = old["done"], old["tier"]
    entry = role_entry(t, name, task)
    if allies:
        entry["allies"] = allies[:4]
    if quarry:
        entry["quarry"] = quarry
    return t


def check_order(travel: dict[str, Any], name: str, task: str) -> None:
    """Helpers, then the guide, then scouts, then trackers
    («Путешествие по суше › Порядок путешествия»)."""
    me = role_entry(travel, name, task)
    if me["done"]:
        raise fail(
            "travel_task",
            "Эту проверку роли сегодня уже делали.",
            "This role check was made today.",
        )
    for other in travel["roles"]:
        if not other["done"] and _order_key(other) < _order_key(me):
            raise fail(
                "travel_task",
                f"Сначала проверка: {other['name']} ({TASKS_BY_KEY[other['task']].ru}).",
                f"First {other['name']}'s check ({TASKS_BY_KEY[other['task']].en}).",
            )


def role_modifiers(travel: dict[str, Any], name: str) -> tuple[list[str], int]:
    """(sources, flat bonus) for a creature's role check today: the pace
    («Путешествие по суше › Темп пути») and Help everyone («Путешествие по суше › Помочь всем»;
    role checks only, not the night's Miasma save)."""
    sources = {1: ["slow_pace"], -1: ["fast_pace"]}.get(travel["role_net"], [])
    bonus = sum(b["bonus"] for b in travel["role_bonus"] if b["name"] == name)
    return sources, bonus


# --- task results («Путешествие по суше › Дорожные роли»; «Путешествие по суше › Заблудились») ---

CHOICES: dict[tuple[str, int], tuple[tuple[str, str, str], ...]] = {
    ("make_camp", 2): (
        ("rest_threshold", "Порог встречи на отдыхе +1", "Rest threshold +1"),
        ("crafting", "+2 к броскам изготовления в лагере", "+2 to crafting rolls in camp"),
    ),
    ("make_camp", 3): (
        ("rest_threshold", "Порог встречи на отдыхе +2", "Rest threshold +2"),
        ("crafting", "+4 к броскам изготовления в лагере", "+4 to crafting rolls in camp"),
    ),
    ("regular_route", 1): (
        ("hex", "На 1 гекс меньше", "1 hex fewer"),
        ("travel_threshold", "Порог дорожных встреч −1", "Travel threshold −1"),
    ),
    ("regular_route", 3): (
        ("hex", "На 1 гекс больше", "1 more hex"),
        ("travel_threshold", "Порог дорожных встреч +1", "Travel threshold +1"),
    ),
    ("back_on_track", 3): (
        ("hex", "На 1 гекс больше", "1 more hex"),
        ("travel_threshold", "Порог дорожных встреч +1", "Travel threshold +1"),
    ),
}


def choice_options(task: str, tier: int) -> tuple[tuple[str, str, str], ...]:
    """The "choose one" a result asks of its roller, or ()."""
    return CHOICES.get((task, tier), ())


def apply_task(
    travel: dict[str, Any],
    name: str,
    task: str,
    tier: int,
    *,
    dice: Dice | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Apply a role check's result to the day (every effect lasts today; rations and hides are
    items and stay, «Путешествие по суше › Дорожные роли»). A "choose one" result is applied later
    by ``apply_task_choice``.
    """
    t = clean_travel(travel)
    entry = role_entry(t, name, task)
    entry["done"], entry["tier"] = True, tier
    info: dict[str, Any] = {"type": "travel_task", "name": name, "task": task, "tier": tier}
    if task == "help_everyone":
        for ally in entry["allies"]:
            t["role_bonus"].append({"name": ally, "bonus": HELP_EVERYONE[tier]})
        info["allies"] = list(entry["allies"])
        info["bonus"] = HELP_EVERYONE[tier]
    elif task == "counter_miasma" and tier >= 2:
        for ally in entry["allies"]:
            t["miasma_advantage"] = [a for a in t["miasma_advantage"] if a["name"] != ally]
            t["miasma_advantage"].append({"name": ally, "count": tier - 1})
        info["allies"] = list(entry["allies"])
    elif task == "safe_route":
        if tier == 1:
            t["lost"] = True
        elif tier == 2:
            t["travel_mod"] += 1
            t["hex_mod"] -= 1
        else:
            t["travel_mod"] += 2
    elif task == "shortcut":
        if tier == 1:
            t["lost"] = True
        elif tier == 2:
            t["hex_mod"] += 1
            t["travel_mod"] -= 1
        else:
            t["hex_mod"] += 2
    elif task == "back_on_track":
        if tier >= 2:
            t["lost"] = False
            t["seen_hex"] = copy.deepcopy(
                t["hex"]
            )  # «Путешествие по суше › Снова на пути»: you know where you are
            info["found_at"] = copy.deepcopy(t["hex"])
    elif task == "watch_for_danger" and tier >= 2:
        t["travel_mod"] += tier - 1
    elif task == "find_shelter" and tier >= 2:
        t["rest_mod"] += tier - 1
    elif task == "search_treasure" and tier >= 2:
        kind = "minor_curiosities" if tier == 2 else "major_curiosities"
        t["prompts"].append({"kind": kind, "by": name, "note": ""})
        info["referee_prompt"] = kind
    elif task == "forage" and tier >= 2:
        if tier == 2:
            found = 1
        else:
            if dice is None:
                raise fail("dice", "Нужна кость.", "A die is needed.")
            face = dice.roll(6)
            info["faces"] = [face]
            found = face + 1
        t["rations_found"] += found
        info["rations"] = found
    elif task == "hunt":
        if tier == 1:
            t["travel_mod"] -= 1
        elif tier == 3:
            if dice is None:
                raise fail("dice", "Нужны кости.", "Dice are needed.")
            faces = [dice.roll(6) for _ in range(3)]
            info["faces"] = faces
            t["rations_found"] += sum(faces)
            t["hides_found"] += 1
            info["rations"] = sum(faces)
            info["hide"] = "large_animal"
    elif task == "track_creature":
        if tier == 1:
            t["travel_mod"] -= 1
        elif tier == 3:
            t["prompts"].append({"kind": "track_meeting", "by": name, "note": entry["quarry"]})
            info["referee_prompt"] = "track_meeting"
            info["quarry"] = entry["quarry"]
    if t["lost"]:
        info["lost"] = True
    recompute(t)
    info.update(
        hexes=t["hexes"],
        travel_threshold=t["travel_threshold"],
        rest_threshold=t["rest_threshold"],
    )
    return t, info


def apply_task_choice(
    travel: dict[str, Any], task: str, tier: int, choice: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The roller's "choose one" (Make camp, Regular route, Back on track 17+)."""
    keys = [c[0] for c in choice_options(task, tier)]
    if choice not in keys:
        raise fail("choices", "Такого варианта нет.", "Not an offered option.")
    t = clean_travel(travel)
    sign = -1 if (task, tier) == ("regular_route", 1) else 1
    if choice == "hex":
        t["hex_mod"] += sign
    elif choice == "travel_threshold":
        t["travel_mod"] += sign
    elif choice == "rest_threshold":
        t["rest_mod"] += tier - 1
    elif choice == "crafting":
        t["crafting_bonus"] = max(t["crafting_bonus"], 2 if tier == 2 else 4)
    recompute(t)
    return t, {
        "type": "travel_choice",
        "task": task,
        "choice": choice,
        "hexes": t["hexes"],
        "travel_threshold": t["travel_threshold"],
        "rest_threshold": t["rest_threshold"],
        "crafting_bonus": t["crafting_bonus"],
    }


# --- encounters, movement, arrival («Путешествие по суше › Заблудились»;
# «Путешествие по суше › Миазма»; «Путешествие по суше › Встречи и точки интереса»)


def encounter_check(
    travel: dict[str, Any], dice: Dice, *, kind: str = "travel", bonus: int = 0
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The Referee's 1d10 after the role checks; at least the threshold is an encounter
    («Путешествие по суше › Дорожные встречи»). The Referee picks the time of day; the roll
    is for the Referee only. ``bonus`` is a rest-only +1 for a hidden camp
    («Отдых › Укрыть лагерь»), still capped at 10."""
    t = clean_travel(travel)
    threshold = t["travel_threshold"] if kind == "travel" else t["rest_threshold"]
    threshold = _clamp_threshold(threshold + bonus)
    roll = dice.roll(10)
    encounter = roll >= threshold
    t["encounters"].append(
        {
            "kind": kind,
            "day": t["day"],
            "roll": roll,
            "threshold": threshold,
            "encounter": encounter,
        }
    )
    event = {
        "type": "travel_encounter_check",
        "hidden": True,
        "referee_only": {
            "roll": roll,
            "threshold": threshold,
            "encounter": encounter,
            "kind": kind,
        },
    }
    return t, event


def neighbour(hex_: dict[str, int], direction: str) -> dict[str, int]:
    dq, dr = DIRECTION_VECTORS[direction]
    return {"q": hex_["q"] + dq, "r": hex_["r"] + dr}


def lost_direction(face: int) -> str:
    """Count clockwise from the neighbour due north: 1 N, 2 NE, 3 SE, 4 S, 5 SW, 6 NW
    («Путешествие по суше › Заблудились»)."""
    return DIRECTION_KEYS[face - 1]


def move_day(
    travel: dict[str, Any],
    dice: Dice,
    *,
    directions: list[str] | None = None,
    stop_at: int | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Move today's hexes. The players choose each hex's direction; while lost, each hex left is
    instead a secret 1d6 («Путешествие по суше › Заблудились») and players see the position as
    unknown («Путешествие по суше › Заблудились»). ``stop_at`` stops early (a point of interest or
    dungeon reached, «Путешествие по суше › Порядок путешествия»)."""
    t = clean_travel(travel)
    left = t["hexes"] - t["moved"]
    count = left if stop_at is None else min(left, stop_at)
    path, drift = [], []
    for i in range(max(0, count)):
        if t["lost"]:
            face = dice.roll(LOST_DIE)
            direction = lost_direction(face)
            t["hex"] = neighbour(t["hex"], direction)
            entry = {"day": t["day"], "roll": face, "direction": direction, "to": t["hex"]}
            t["drift"].append(copy.deepcopy(entry))
            drift.append(entry)
        else:
            if not directions or i >= len(directions):
                break
            t["hex"] = neighbour(t["hex"], directions[i])
            t["seen_hex"] = copy.deepcopy(t["hex"])
            path.append(copy.deepcopy(t["hex"]))
        t["moved"] += 1
    event: dict[str, Any] = {
        "type": "travel_moved",
        "moved": t["moved"],
        "position": "unknown" if t["lost"] else copy.deepcopy(t["hex"]),
        "path": path,
    }
    if drift:
        event["hidden"] = True
        event["referee_only"] = {"drift": drift, "hex": copy.deepcopy(t["hex"])}
    return t, event


def found_way(travel: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A map, a known landmark or an NPC's directions end being lost
    («Путешествие по суше › Снова на пути»)."""
    t = clean_travel(travel)
    t["lost"] = False
    t["seen_hex"] = copy.deepcopy(t["hex"])
    return t, {"type": "travel_found_way", "hex": copy.deepcopy(t["hex"])}


def arrive(travel: dict[str, Any], place: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Arriving at a dungeon or point of interest: play it in dungeon turns, with the day's
    travel threshold for its encounter checks («Путешествие по суше › Порядок путешествия»;
    «Путешествие по суше › Точки интереса»)."""
    t = clean_travel(travel)
    t["arrived"] = place
    return t, {
        "type": "travel_arrived",
        "place": place,
        "threshold": t["travel_threshold"],
    }


def public_view(travel: dict[str, Any]) -> dict[str, Any]:
    """What players may see: no encounter rolls, no drift, and no true hex while lost
    («Путешествие по суше › Заблудились»)."""
    t = copy.deepcopy(travel)
    t.pop("encounters", None)
    t.pop("drift", None)
    if t.get("lost"):
        t["hex"] = None
    return t
