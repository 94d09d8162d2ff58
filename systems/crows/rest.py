"""Rest («Отдых»; «Отдых › Встречи на отдыхе»; «Отдых › Занятия на отдыхе»): requirements, benefits,
the seven activities, the rest encounter check, the midpoint rule, interruption, and the town
variant.

A rest is 6 consecutive in-game hours in one place without strenuous activity, 4 of them
asleep, with at least 1 ration eaten («Отдых»). At its end: all Stamina back, one wound less
(the player's choice), every expertise use back unless in the Miasma («Отдых»;
«Путешествие по суше › Миазма»), Отдых items and carried spellbooks refilled
(«Кости износа › Кости износа снаряжения»; «Заклинания › Кости износа книги заклинаний»). It ends
the current dungeon turn without an encounter check; at its midpoint every effect that ends or rolls
wear dice at a turn's end ends; the next turn starts when the rest ends or is interrupted («Отдых»).
A magic slot with more than one item forbids resting
(«Слоты инвентаря › Слоты магических предметов»).

The party-level flow is ``start_rest`` → ``rest_encounter_check`` / ``rest_midpoint`` →
``finish_rest`` (or ``interrupt_rest``); ``rest_benefits`` is one character's end of a rest.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from systems.core.dice import Dice
from systems.core.schema import fail
from systems.crows import miasma as miasma_rules
from systems.crows.conditions import remove_condition
from systems.crows.dungeon import (
    TurnResult,
    encounter_threshold,
    end_turn_for_rest,
    prepare_inputs,
    roll_encounter,
    start_turn_event,
    who,
)
from systems.crows.inventory import (
    find,
    iter_items,
    overloaded_slots,
    remove,
    remove_wound,
    replace_card,
    wound_slots,
)
from systems.crows.light import lit_items
from systems.crows.sheet import clean_campaign
from systems.crows.terms import (
    BUTCHER_DICE,
    ENCOUNTER_THRESHOLD_CAP,
    REST_ACTIVITIES,
    SIZE_KEYS,
    TURN_END_CONDITIONS,
)
from systems.crows.wear import (
    effects_at_rest_end,
    effects_at_rest_midpoint,
    restore_after_rest,
    roll_item_wear,
    rolls_at_turn_end,
)

REST_HOURS = 6  # «Отдых»
SLEEP_HOURS = 4  # «Отдых»
RATIONS = 1  # «Отдых»
TOWN_ACTIVITY_HOURS = 2  # «Отдых › Занятия на отдыхе в городе»
TOWN_ACTIVITIES_PER_DAY = 4  # «Отдых › Занятия на отдыхе в городе»
TEND_MIN_WOUNDS = 2  # «Отдых › Обработать раны»


@dataclass(frozen=True)
class RestPlan:
    """What one character did during a rest (all from the player, validated here)."""

    hours: int = REST_HOURS
    slept: int = SLEEP_HOURS
    rations: int = RATIONS
    activity: str = ""
    task: str = ""  # Prepare for a task
    item_id: str = ""  # Identify an item, Repair armour, Butcher a carried corpse
    corpse_size: str = ""  # Butcher a corpse lying here
    target: int | None = None  # Tend wounds: index of the tended creature in the party
    remove_wound: int | None = None  # which wound the rest removes (player's choice)
    resting: bool = True

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> RestPlan:
        data = dict(data or {})
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise fail("plans", f"Неизвестные поля: {', '.join(unknown)}.", f"Unknown: {unknown}.")
        plan = cls(**data)
        if plan.activity and plan.activity not in REST_ACTIVITIES:
            raise fail(
                "activity",
                f"Нет такого занятия на отдыхе: {plan.activity}.",
                f"No such rest activity: {plan.activity}.",
            )
        return plan


def requirement_failures(
    state: dict[str, Any], plan: RestPlan, *, miasma: bool = False
) -> list[dict[str, str]]:
    """Why a rest gives this character nothing («Отдых»;
    «Слоты инвентаря › Слоты магических предметов»; Gluttony in the Miasma wants 2 rations,
    «Путешествие по суше › Эффекты Миазмы»), as ru/en messages."""
    out: list[dict[str, str]] = []
    if plan.hours < REST_HOURS:
        out.append(
            {
                "ru": "Отдых — не меньше 6 часов подряд на одном месте.",
                "en": "A rest is at least 6 consecutive hours in one place.",
            }
        )
    if plan.slept < SLEEP_HOURS:
        out.append(
            {
                "ru": "Из них нужно проспать не меньше 4 часов.",
                "en": "At least 4 of them asleep.",
            }
        )
    if plan.rations < RATIONS:
        out.append(
            {
                "ru": "За отдых нужно съесть не меньше 1 пайка.",
                "en": "At least 1 ration must be eaten.",
            }
        )
    elif plan.rations < miasma_rules.rest_rations_needed(state, miasma):
        out.append(
            {
                "ru": "Прожорливость: в Миазме нужно съесть не меньше 2 пайков.",
                "en": "Gluttony: at least 2 rations in the Miasma.",
            }
        )
    if overloaded_slots(state["inventory"]):
        out.append(
            {
                "ru": "В одном магическом слоте больше одного предмета: отдыхать нельзя.",
                "en": "A magic slot holds more than one item: no rest is possible.",
            }
        )
    if state["dead"]:
        out.append({"ru": "Мёртвые не отдыхают.", "en": "The dead do not rest."})
    return out


def rest_benefits(
    state: dict[str, Any],
    plan: RestPlan,
    *,
    dice: Dice | None,
    miasma: bool = False,
    tended: bool = False,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One character finishes a rest: (new state, events). Requirements are checked first;
    a character who does not meet them gains nothing (activities included,
    «Отдых › Занятия на отдыхе»)."""
    st = copy.deepcopy(state)
    failures = requirement_failures(st, plan, miasma=miasma)
    if failures:
        return st, [{"type": "rest_failed", "reasons": failures}]
    events: list[dict[str, Any]] = []
    # All Stamina («Отдых»).
    st["stamina"] = st["stamina_max"]
    # One wound less, two if tended («Отдых»; «Отдых › Обработать раны») or under Sloth
    # («Путешествие по суше › Эффекты Миазмы»); the player picks which.
    removed: list[int] = []
    for n in range(miasma_rules.rest_wounds_removed(st) + (1 if tended else 0)):
        inv, slot = remove_wound(st["inventory"], plan.remove_wound if n == 0 else None)
        st["inventory"] = inv
        if slot is not None:
            removed.append(slot)
    # Expertise uses back, except in the Miasma («Отдых»; «Путешествие по суше › Миазма») unless
    # lost to it («Путешествие по суше › Эффекты Миазмы»).
    refreshed = miasma_rules.refreshes_expertise(st, miasma)
    if refreshed:
        for entry in st["expertises"]:
            entry["uses"] = entry["max"]
    # Отдых items and carried spellbooks («Кости износа › Кости износа снаряжения»;
    # «Заклинания › Кости износа книги заклинаний»).
    restored = []
    for _area, _slot, card in list(iter_items(st["inventory"])):
        new, did = restore_after_rest(card)
        if did:
            st["inventory"] = replace_card(st["inventory"], new)
            restored.append(card["id"])
    # The previous rest's preparation lasted "until the end of your next rest"
    # («Отдых › Подготовиться к задаче»).
    expired = [p["task"] for p in st["prepared"]]
    st["prepared"] = []
    st["effects"], ended = effects_at_rest_end(st["effects"], owner=st["name"])
    events.append(
        {
            "type": "rest_finished",
            "stamina": st["stamina"],
            "wounds_removed": removed,
            "tended": tended,
            "expertise_refreshed": refreshed,
            "restored_items": restored,
            "prepared_expired": expired,
        }
    )
    events.extend(ended)
    st, cruelty_events = miasma_rules.after_rest(
        st, miasma
    )  # «Путешествие по суше › Миазма»: cruelty gone outside it
    events.extend(cruelty_events)
    st, activity_events = _activity(st, plan, dice)
    events.extend(activity_events)
    if miasma:
        events.append({"type": "miasma_check_due"})  # «Путешествие по суше › Миазма»
    return st, events


def _activity(
    st: dict[str, Any], plan: RestPlan, dice: Dice | None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The fruit of the one rest activity («Отдых › Занятия на отдыхе»), given the rest was
    finished."""
    act = plan.activity
    if act == "craft":
        return st, [{"type": "crafting_roll_due"}]
    if act == "butcher":
        return _butcher(st, plan, dice)
    if act == "identify":
        found = find(st["inventory"], plan.item_id)
        if found is None or not found[2]["magic"]:
            raise fail(
                "item_id",
                "Опознать можно свой магический предмет.",
                "Identify one of your own magic items.",
            )
        card = copy.deepcopy(found[2])
        card["identified"] = True
        st["inventory"] = replace_card(st["inventory"], card)
        return st, [{"type": "item_identified", "item": card["id"]}]
    if act == "prepare":
        task = plan.task.strip()
        if not task:
            raise fail(
                "task",
                "Назовите конкретную задачу в конкретном месте.",
                "Name a specific task at a specific place.",
            )
        st["prepared"].append({"task": task, "bonus": 2})
        return st, [{"type": "task_prepared", "task": task, "bonus": 2}]
    if act == "repair":
        found = find(st["inventory"], plan.item_id)
        if found is None or found[2]["armour"] is None:
            raise fail(
                "item_id",
                "Починить можно свой доспех или щит.",
                "Repair your own armour or shield.",
            )
        card = copy.deepcopy(found[2])
        card["armour"]["defence"] = card["armour"]["max"]
        st["inventory"] = replace_card(st["inventory"], card)
        return st, [
            {
                "type": "armour_repaired",
                "item": card["id"],
                "defence": card["armour"]["defence"],
            }
        ]
    return st, []


def _butcher(
    st: dict[str, Any], plan: RestPlan, dice: Dice | None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Разделать труп («Отдых › Разделать труп»; «Изготовление › Разделка на материалы»): the
    monster corpse is destroyed for 1d6/2d6/3d6/4d6 parts by size (Medium or smaller / Large / Huge
    / Охренеть!)."""
    size = plan.corpse_size
    item = None
    if plan.item_id:
        found = find(st["inventory"], plan.item_id)
        if found is None or found[2]["corpse"] is None:
            raise fail("item_id", "Это не труп.", "That is not a corpse.")
        item = found[2]
        if not item["corpse"]["monster"]:
            raise fail(
                "item_id",
                "Части добывают из трупа монстра.",
                "Parts come from a monster's corpse.",
            )
        size = item["corpse"]["size"]
        st["inventory"], _ = remove(st["inventory"], item["id"])
    if size not in SIZE_KEYS:
        raise fail("corpse_size", "Укажите размер трупа.", "Give the corpse's size.")
    if dice is None:
        raise fail("dice", "Нужны кости на части.", "Parts need dice.")
    faces = [dice.roll(6) for _ in range(BUTCHER_DICE[size])]
    return st, [
        {
            "type": "corpse_butchered",
            "size": size,
            "item": item["id"] if item else "",
            "faces": faces,
            "parts": sum(faces),
        }
    ]


# --- the party's rest -------------------------------------------------------------------------


def start_rest(
    campaign: dict[str, Any],
    characters: list[dict[str, Any]],
    *,
    dice: Dice,
    settings: dict[str, Any] | None = None,
    place: str = "dungeon",
    miasma: bool = False,
) -> TurnResult:
    """Begin a rest: the dungeon turn ends without an encounter check («Отдых»). Burning lights
    are listed so players can put them out (a lit light is an item, not an effect); those overloaded
    with magic items are told they cannot rest («Слоты инвентаря › Слоты магических предметов»)."""
    camp0 = clean_campaign(campaign)
    if camp0["rest"] is not None:
        raise fail("campaign.rest", "Отдых уже идёт.", "A rest is already under way.")
    result = end_turn_for_rest(campaign, characters, dice=dice, settings=settings)
    camp, chars = result.campaign, result.characters
    camp["rest"] = {
        "place": place,
        "miasma": miasma,
        "hide_camp_by": "",
        "midpoint_done": False,
        "encounter_checked": False,
        "threshold": encounter_threshold(camp),
        "lights_rolled": False,
    }
    events = [*result.events, {"type": "rest_started", "place": place, "miasma": miasma}]
    burning = lit_items(chars)
    if burning:
        events.append({"type": "lights_burning", "items": burning})
    for i, ch in enumerate(chars):
        if overloaded_slots(ch["inventory"]):
            events.append({**who(i, ch), "type": "cannot_rest"})
    return TurnResult(clean_campaign(camp), chars, events)


def hide_camp(campaign: dict[str, Any], by: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Укрыть лагерь («Отдых › Укрыть лагерь»): +1 to the encounter threshold for this rest; one
    person per group; it works without finishing the rest."""
    camp = clean_campaign(campaign)
    rest = _rest(camp)
    if rest["hide_camp_by"] and rest["hide_camp_by"] != by:
        raise fail(
            "activity",
            f"Лагерь уже укрывает {rest['hide_camp_by']}: только один в группе.",
            f"{rest['hide_camp_by']} already hides the camp: one per group.",
        )
    rest["hide_camp_by"] = by
    rest["threshold"] = encounter_threshold(camp, hide_camp=True)
    return clean_campaign(camp), {"type": "camp_hidden", "by": by, "threshold": rest["threshold"]}


def _rest(camp: dict[str, Any]) -> dict[str, Any]:
    if camp["rest"] is None:
        raise fail("campaign.rest", "Сейчас никто не отдыхает.", "No rest is under way.")
    return camp["rest"]


def rest_encounter_check(
    campaign: dict[str, Any],
    *,
    dice: Dice,
    threshold: int | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The rest's encounter check («Отдых › Встречи на отдыхе»): dungeon rules in a dungeon
    (threshold +1 with a hidden camp, «Отдых › Укрыть лагерь»); pass ``threshold`` for the road
    rules while travelling.

    A 10 happens at once and interrupts the rest (call ``interrupt_rest``). A sign is given
    now and, as in a dungeon, the encounter comes during the next dungeon turn, which starts
    when the rest ends («Встречи в подземелье»; «Отдых»).
    """
    camp = clean_campaign(campaign)
    rest = _rest(camp)
    if rest["place"] == "town":
        raise fail(
            "campaign.rest",
            "В городе шанса на встречу нет.",
            "In town there is no chance of an encounter.",
        )
    if rest["encounter_checked"]:
        raise fail(
            "campaign.rest",
            "За отдых делают одну проверку на встречу.",
            "A rest gets one encounter check.",
        )
    limit = rest["threshold"]
    # road rules; a hidden camp still adds 1 («Отдых › Укрыть лагерь»), cap 10
    # («Путешествие по суше › Дорожные встречи»)
    if threshold is not None:
        limit = min(ENCOUNTER_THRESHOLD_CAP, threshold + int(bool(rest["hide_camp_by"])))
    camp, event = roll_encounter(
        camp, dice, source="rest", threshold=limit, due_turn=camp["turn"] + 1
    )
    camp["rest"]["encounter_checked"] = True
    event["interrupts_rest"] = event["result"] == "immediate"
    if event["interrupts_rest"]:
        event["sleepers_unconscious"] = (
            True  # whoever sleeps is unconscious («Состояния › Без сознания»)
        )
    return clean_campaign(camp), event


def rest_midpoint(
    campaign: dict[str, Any],
    characters: list[dict[str, Any]],
    *,
    settings: dict[str, Any] | None = None,
) -> TurnResult:
    """Middle of the rest («Отдых»): effects that end at a turn's end, or roll wear dice at a
    turn's end, end; so do Blessed, Vulnerable and Weakened. Lit items are items, not effects,
    so they burn on."""
    camp, chars, _cfg = prepare_inputs(campaign, characters, settings)
    rest = _rest(camp)
    if rest["midpoint_done"]:
        raise fail("campaign.rest", "Середина отдыха уже прошла.", "The midpoint has passed.")
    events: list[dict[str, Any]] = [{"type": "rest_midpoint"}]
    for i, ch in enumerate(chars):
        for key in TURN_END_CONDITIONS:
            new, gone = remove_condition(ch, key)
            if gone:
                events.append({**who(i, ch), "type": "condition_ended", "condition": key})
            chars[i] = ch = new
        ch["effects"], ended = effects_at_rest_midpoint(ch["effects"], owner=ch["name"])
        events.extend({**who(i, ch), **e} for e in ended)
    camp["effects"], ended = effects_at_rest_midpoint(camp["effects"], owner="")
    events.extend(ended)
    rest["midpoint_done"] = True
    return TurnResult(clean_campaign(camp), chars, events)


def _lights_during_rest(
    chars: list[dict[str, Any]], dice: Dice, hours: int
) -> list[dict[str, Any]]:
    """A light kept burning through the rest rolls its dice once per 2 hours
    («Ходы подземелья › Вне подземелья»): three times in a 6-hour rest,
    stopping when it goes out."""
    events: list[dict[str, Any]] = []
    for _ in range(hours // 2):
        for i, ch in enumerate(chars):
            for _area, _slot, card in list(iter_items(ch["inventory"])):
                if card["light"] is None or not rolls_at_turn_end(card):
                    continue
                new, event = roll_item_wear(card, dice, reason="rest")
                ch["inventory"] = replace_card(ch["inventory"], new)
                events.append({**who(i, ch), **event})
    return events


def finish_rest(
    campaign: dict[str, Any],
    characters: list[dict[str, Any]],
    plans: list[dict[str, Any] | None],
    *,
    dice: Dice,
    settings: dict[str, Any] | None = None,
) -> TurnResult:
    """The rest ends for the party: lights left burning roll, then each
    character's benefits and activity in party order, then the next dungeon turn starts
    («Отдых»). ``plans`` lines up with ``characters``; ``None`` means a plain full rest."""
    camp, chars, cfg = prepare_inputs(campaign, characters, settings)
    rest = _rest(camp)
    if len(plans) != len(chars):
        raise fail("plans", "План на каждого персонажа.", "One plan per character.")
    parsed = [RestPlan.from_dict(p) for p in plans]
    _check_activities(chars, parsed)
    events: list[dict[str, Any]] = []
    hours = max((p.hours for p in parsed if p.resting), default=REST_HOURS)
    if cfg["rest_lights_roll"] and not rest["lights_rolled"]:
        events.extend(_lights_during_rest(chars, dice, hours))
    if not rest["midpoint_done"]:
        mid = rest_midpoint(camp, chars, settings=cfg)
        camp, chars = mid.campaign, mid.characters
        events.extend(mid.events)
        rest = camp["rest"]
    ok = [
        p.resting and not requirement_failures(c, p, miasma=rest["miasma"])
        for c, p in zip(chars, parsed, strict=True)
    ]
    tended = {p.target for i, p in enumerate(parsed) if p.activity == "tend_wounds" and ok[i]}
    for i, (ch, plan) in enumerate(zip(chars, parsed, strict=True)):
        if not plan.resting:
            continue
        new, ch_events = rest_benefits(
            ch, plan, dice=dice, miasma=rest["miasma"], tended=i in tended and ok[i]
        )
        chars[i] = new
        events.extend({**who(i, new), **e} for e in ch_events)
    camp["rest"] = None
    events.append({"type": "rest_ended", "completed": True})
    if camp["in_dungeon"]:
        camp["turn"] += 1
        events.append(start_turn_event(camp, cfg, dice))
    return TurnResult(clean_campaign(camp), chars, events)


def _check_activities(chars: list[dict[str, Any]], plans: list[RestPlan]) -> None:
    """One activity each («Отдых › Занятия на отдыхе»); Tend wounds: another resting creature with
    ≥2 wounds, at most once per creature per rest («Отдых › Обработать раны»); Hide camp: one per
    group («Отдых › Укрыть лагерь»)."""
    tended: set[int] = set()
    hiders = 0
    for i, plan in enumerate(plans):
        if plan.activity == "hide_camp":
            hiders += 1
        if plan.activity != "tend_wounds":
            continue
        t = plan.target
        if t is None or not 0 <= t < len(chars):
            raise fail("target", "Чьи раны обработать?", "Whose wounds are tended?")
        if t == i:
            raise fail("target", "Себя выбрать нельзя.", "Not yourself.")
        if not plans[t].resting:
            raise fail("target", "Цель должна отдыхать с вами.", "The target must rest with you.")
        if len(wound_slots(chars[t]["inventory"])) < TEND_MIN_WOUNDS:
            raise fail(
                "target",
                "У цели должно быть не меньше 2 ран.",
                "The target needs at least 2 wounds.",
            )
        if t in tended:
            raise fail(
                "target",
                "Одно существо получает это только раз за отдых.",
                "A creature receives this once per rest.",
            )
        tended.add(t)
    if hiders > 1:
        raise fail(
            "activity",
            "Укрыть лагерь за отдых может только один в группе.",
            "Only one per group may hide the camp in a rest.",
        )


def interrupt_rest(
    campaign: dict[str, Any],
    characters: list[dict[str, Any]],
    *,
    dice: Dice | None = None,
    settings: dict[str, Any] | None = None,
) -> TurnResult:
    """Combat or other strenuous activity interrupts the rest: no benefits, it must be
    restarted from zero («Отдых › Встречи на отдыхе»); a new dungeon turn starts now («Отдых»)."""
    camp, chars, cfg = prepare_inputs(campaign, characters, settings)
    _rest(camp)
    camp["rest"] = None
    events: list[dict[str, Any]] = [{"type": "rest_ended", "completed": False}]
    if camp["in_dungeon"]:
        camp["turn"] += 1
        events.append(start_turn_event(camp, cfg, dice))
    return TurnResult(clean_campaign(camp), chars, events)


# --- in town («Отдых › Занятия на отдыхе в городе») -------------------------------------------


def town_activity(
    state: dict[str, Any],
    plan: RestPlan,
    *,
    day: int,
    dice: Dice | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """An activity in town: about 2 hours, up to 4 a day without finishing a rest; what would
    fire at the rest's end fires after those 2 hours («Отдых › Занятия на отдыхе в городе»). Tend
    wounds is handled on the tended creature by ``town_tend`` and ``town_sleep``."""
    st = copy.deepcopy(state)
    if not plan.activity:
        raise fail("activity", "Выберите занятие.", "Choose an activity.")
    if plan.activity == "hide_camp":
        raise fail(
            "activity",
            "В городе нет шанса на встречу: укрывать лагерь незачем.",
            "In town there is no encounter chance: no camp to hide.",
        )
    if plan.activity == "tend_wounds":
        raise fail(
            "activity",
            "Обработку ран в городе отмечают на раненом (town_tend).",
            "Tending wounds in town is recorded on the tended creature (town_tend).",
        )
    _next_town_activity(st, day)
    if plan.activity == "prepare":
        # In town the +2 lasts until the end of the next rest as usual
        # («Отдых › Подготовиться к задаче»).
        task = plan.task.strip()
        if not task:
            raise fail("task", "Назовите задачу.", "Name the task.")
        st["prepared"].append({"task": task, "bonus": 2})
        return st, [{"type": "task_prepared", "task": task, "bonus": 2, "town": True}]
    st, events = _activity(st, plan, dice)
    return st, [{**e, "town": True} for e in events]


def _next_town_activity(st: dict[str, Any], day: int) -> None:
    town = st["town"]
    if town["day"] != day:
        town["day"], town["activities"] = day, 0
    if town["activities"] >= TOWN_ACTIVITIES_PER_DAY:
        raise fail(
            "activity",
            "В городе — не больше 4 занятий в день.",
            "At most 4 activities a day in town.",
        )
    town["activities"] += 1


def town_tend(state: dict[str, Any], *, day: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Tend wounds in town, recorded on the tended creature: at most once a day, and it works
    only after that creature sleeps at least 4 hours afterwards
    («Отдых › Занятия на отдыхе в городе»)."""
    st = copy.deepcopy(state)
    if st["town"]["tended_day"] == day:
        raise fail(
            "target",
            "Раны этому существу сегодня уже обрабатывали.",
            "This creature's wounds were already tended today.",
        )
    if len(wound_slots(st["inventory"])) < TEND_MIN_WOUNDS:
        raise fail(
            "target",
            "У цели должно быть не меньше 2 ран.",
            "The target needs at least 2 wounds.",
        )
    st["town"]["tended_day"] = day
    st["town"]["tend_pending"] = True
    return st, {"type": "wounds_tended", "town": True, "awaits_sleep": True}


def town_sleep(state: dict[str, Any], hours: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Sleep in town: 4 hours or more after a town Tend wounds removes 2 wounds
    («Отдых › Обработать раны»; «Отдых › Занятия на отдыхе в городе»)."""
    st = copy.deepcopy(state)
    if not st["town"]["tend_pending"] or hours < SLEEP_HOURS:
        return st, {"type": "slept", "hours": hours, "wounds_removed": []}
    removed = []
    for _ in range(2):
        st["inventory"], slot = remove_wound(st["inventory"])
        if slot is not None:
            removed.append(slot)
    st["town"]["tend_pending"] = False
    return st, {"type": "slept", "hours": hours, "wounds_removed": removed}
