"""Dungeon turns («Ходы подземелья»; «Встречи в подземелье»): the clock, the end-of-turn procedure,
the greed reward and encounter checks.

``end_dungeon_turn(campaign_state, characters, *, dice, settings)`` is what the timer task
calls. It returns a ``TurnResult``: the new campaign state, the new character states (same
order) and every result as an event, in the order the dice were rolled:

1. wear dice of every active Ход подземелья item and every wear-die effect («Кости износа»;
«Кости износа › Кости износа снаряжения»; «Ходы подземелья › Конец хода подземелья»);
2. expiries: Blessed, Vulnerable, Weakened («Состояния › Благословлён»; «Состояния › Уязвим»;
«Состояния › Ослаблен») and "dungeon turn" effects («Заклинания › Длительность»);
3. magic-slot overload: 1d6 wounds, directly, for each overloaded character
(«Слоты инвентаря › Слоты магических предметов»);
4. knocked-out Referee creatures wake («Урон и смерть › Выносливость»);
5. the greed window closes after turn 3 of a first visit («Ходы подземелья › Награда за жадность»);
6. the encounter check, 1d10 against the threshold 9/8/7 («Встречи в подземелье»): 10 now, from the
   threshold up to 9 a sign now and the encounter during the next turn;
7. the next turn starts («Ходы подземелья › Конец хода подземелья»); with the 1d6-rooms variant its
room count is rolled («Ходы подземелья › Вне подземелья»).

Steps 1 then 6 then 7 are the rulebook's order («Ходы подземелья › Конец хода подземелья»); 2-5 fire
"at the end of the dungeon turn" elsewhere in the rulebook; their order among themselves is ours.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from systems.core.dice import Dice
from systems.core.schema import fail
from systems.crows.conditions import expire_at_turn_end, knocked_out, wake
from systems.crows.damage import gain_wounds, uses_wounds
from systems.crows.inventory import iter_items, overloaded_slots, replace_card
from systems.crows.light import has_light
from systems.crows.sheet import clean_campaign, clean_character, clean_settings
from systems.crows.terms import (
    ENCOUNTER_THRESHOLD_CAP,
    ENCOUNTER_THRESHOLD_DEFAULT,
    GREED_PERCENT,
    HOURS_PER_TURN_OUTSIDE,
)
from systems.crows.wear import (
    expire_turn_effects,
    roll_effects_wear,
    roll_item_wear,
    rolls_at_turn_end,
)

GREED_TURNS = max(GREED_PERCENT)
ROOMS_DIE = 6  # «Ходы подземелья › Вне подземелья»


@dataclass
class TurnResult:
    """New states plus the events to publish, in order."""

    campaign: dict[str, Any]
    characters: list[dict[str, Any]]
    events: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "campaign": copy.deepcopy(self.campaign),
            "characters": copy.deepcopy(self.characters),
            "events": copy.deepcopy(self.events),
        }

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["type"] == kind]


def who(index: int, state: dict[str, Any]) -> dict[str, Any]:
    return {"character": index, "name": state["name"]}


# --- threshold, encounters, greed -------------------------------------------------------------


def encounter_threshold(campaign: dict[str, Any], *, hide_camp: bool = False) -> int:
    """9 by default; 8 for a densely populated level or lots of chaos left behind; 7 for
    both («Встречи в подземелье»); +1 for Hide camp during a rest («Отдых › Укрыть лагерь»); never
    above 10 (by analogy with «Путешествие по суше › Дорожные встречи», so only a 10 meets one) nor
    below 1."""
    threshold = ENCOUNTER_THRESHOLD_DEFAULT
    threshold -= int(bool(campaign.get("populated"))) + int(bool(campaign.get("chaos")))
    threshold += int(campaign.get("threshold_bonus", 0)) + int(hide_camp)
    return max(1, min(ENCOUNTER_THRESHOLD_CAP, threshold))


def encounter_result(roll: int, threshold: int) -> str:
    """``"none"`` below the threshold; a 10 is ``"immediate"``; otherwise a ``"sign"`` now and
    the encounter at a moment of the next dungeon turn the Referee picks
    («Встречи в подземелье»)."""
    if roll < threshold:
        return "none"
    if roll >= 10:
        return "immediate"
    return "sign"


def roll_encounter(
    campaign: dict[str, Any],
    dice: Dice,
    *,
    source: str,
    threshold: int | None = None,
    due_turn: int | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """One encounter check («Встречи в подземелье»): (campaign, event). A sign adds a pending
    encounter due on ``due_turn`` (the next turn by default); several may be pending (the rulebook
    is silent; a check is rolled anyway)."""
    camp = copy.deepcopy(campaign)
    limit = encounter_threshold(camp) if threshold is None else threshold
    roll = dice.roll(10)
    result = encounter_result(roll, limit)
    event: dict[str, Any] = {
        "type": "encounter_check",
        "source": source,
        "roll": roll,
        "threshold": limit,
        "result": result,
        "turn": camp["turn"],
    }
    if result == "sign":
        due = camp["turn"] + 1 if due_turn is None else due_turn
        camp["pending_encounters"].append(
            {"signed_turn": camp["turn"], "due_turn": due, "roll": roll, "source": source}
        )
        event["due_turn"] = due
    return camp, event


def greed_percent(campaign: dict[str, Any], turn: int | None = None) -> int:
    """+30/+20/+10 % for treasure found in turns 1/2/3 of a group's first visit
    («Ходы подземелья › Награда за жадность»)."""
    if not campaign.get("in_dungeon") or not campaign.get("first_visit"):
        return 0
    return GREED_PERCENT.get(campaign["turn"] if turn is None else turn, 0)


def greed_value(value: int, percent: int) -> int:
    """The treasure's new value, rounded down («Всегда округляйте вниз»): 155 gp +10 % is 170."""
    if value < 0:
        raise fail("value", "Ценность не бывает отрицательной.", "Value cannot be negative.")
    return value * (100 + percent) // 100


def treasure_found(campaign: dict[str, Any], value: int) -> dict[str, Any]:
    """Награда за жадность for one treasure found now (every treasure of the first visit's turns
    1–3)."""
    camp = clean_campaign(campaign)
    percent = greed_percent(camp)
    return {
        "type": "greed_reward",
        "turn": camp["turn"],
        "value": value,
        "percent": percent,
        "new_value": greed_value(value, percent),
    }


# --- entering and leaving ---------------------------------------------------------------------


def start_turn_event(camp: dict[str, Any], settings: dict[str, Any], dice: Dice | None) -> dict:
    event: dict[str, Any] = {
        "type": "turn_started",
        "turn": camp["turn"],
        "minutes": settings["turn_minutes"],
        "greed_percent": greed_percent(camp),
        "pending_encounters": [
            copy.deepcopy(p) for p in camp["pending_encounters"] if p["due_turn"] <= camp["turn"]
        ],
    }
    if settings["turn_mode"] == "rooms":
        if dice is None:
            raise fail("dice", "Нужна кость на число комнат.", "The room count needs a die.")
        camp["rooms_left"] = dice.roll(ROOMS_DIE)
        event["rooms"] = camp["rooms_left"]
    else:
        camp["rooms_left"] = None
    return event


def enter_dungeon(
    campaign: dict[str, Any],
    dungeon: str,
    *,
    dice: Dice | None = None,
    settings: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The first turn starts when the party enters («Ходы подземелья»). The greed reward is for a
    group's first entry only, never again for the same players
    («Ходы подземелья › Награда за жадность»), so visits are remembered."""
    camp = clean_campaign(campaign)
    cfg = clean_settings(settings)
    name = dungeon.strip()
    if not name:
        raise fail("dungeon", "Назовите подземелье.", "Name the dungeon.")
    key = name.casefold()
    first = key not in {v.casefold() for v in camp["visited"]}
    if first:
        camp["visited"].append(name)
    camp.update(in_dungeon=True, dungeon=name, turn=1, first_visit=first, pending_encounters=[])
    events = [{"type": "dungeon_entered", "dungeon": name, "first_visit": first}]
    events.append(start_turn_event(camp, cfg, dice))
    return clean_campaign(camp), events


def leave_dungeon(campaign: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    camp = clean_campaign(campaign)
    name = camp["dungeon"]
    camp.update(in_dungeon=False, turn=0, first_visit=False, rooms_left=None)
    camp["pending_encounters"] = []
    return camp, [{"type": "dungeon_left", "dungeon": name}]


# --- the end of a dungeon turn ----------------------------------------------------------------


def _upkeep(
    camp: dict[str, Any],
    chars: list[dict[str, Any]],
    dice: Dice,
    *,
    reason: str,
) -> list[dict[str, Any]]:
    """Steps 1-4, shared by a real turn end, a rest's start and 2 hours outside
    («Ходы подземелья › Вне подземелья»)."""
    events: list[dict[str, Any]] = []
    had_light = has_light(chars)
    # 0. a dead caster's spells are over («Заклинания › Длительность»)
    events.extend(_end_dead_casters_spells(camp, chars))
    # 1. wear dice of items and effects
    for i, ch in enumerate(chars):
        if ch["dead"]:
            continue
        for _area, _slot, card in list(iter_items(ch["inventory"])):
            if not rolls_at_turn_end(card):
                continue
            new, event = roll_item_wear(card, dice, reason=reason)
            ch["inventory"] = replace_card(ch["inventory"], new)
            events.append({**who(i, ch), **event})
        ch["effects"], effect_events = roll_effects_wear(ch["effects"], dice, owner=ch["name"])
        events.extend({**who(i, ch), **e} for e in effect_events)
    camp["effects"], area_events = roll_effects_wear(camp["effects"], dice, owner="")
    events.extend(area_events)
    if had_light and not has_light(chars):
        # «Свет › Темнота»: attacks and search checks at double disadvantage; a silently moving
        # creature's square must be guessed.
        events.append({"type": "darkness", "sources": ["darkness"], "silent": "guess_square"})
    # 2. expiries
    for i, ch in enumerate(chars):
        new, gone = expire_at_turn_end(ch)
        chars[i] = ch = new
        for key in gone:
            events.append({**who(i, ch), "type": "condition_ended", "condition": key})
        ch["effects"], ended = expire_turn_effects(ch["effects"], owner=ch["name"])
        events.extend({**who(i, ch), **e} for e in ended)
    camp["effects"], ended = expire_turn_effects(camp["effects"], owner="")
    events.extend(ended)
    # 3. magic-slot overload: 1d6 wounds, not damage
    # («Слоты инвентаря › Слоты магических предметов»)
    for i, ch in enumerate(chars):
        slots = overloaded_slots(ch["inventory"])
        if not slots or ch["dead"] or not uses_wounds(ch):
            continue
        roll = dice.roll(6)
        new, info = gain_wounds(ch, roll)
        chars[i] = new
        events.append(
            {
                **who(i, new),
                "type": "overload_wounds",
                "magic_slots": slots,
                "roll": roll,
                "wounds": info["wounds"],
                "died": info["died"],
            }
        )
    # 4. knocked-out Referee creatures come to («Урон и смерть › Выносливость»)
    for i, ch in enumerate(chars):
        if not ch["dead"] and knocked_out(ch):
            chars[i], _ = wake(ch)
            events.append({**who(i, ch), "type": "woke", "reason": "knocked_out"})
    return events


def _end_dead_casters_spells(camp: dict[str, Any], chars: list[dict[str, Any]]) -> list[dict]:
    """If the caster dies, the spell ends («Заклинания › Длительность»): spell effects whose caster
    is a dead member of the party end, on every sheet and around."""
    dead = {ch["name"] for ch in chars if ch["dead"] and ch["name"]}
    if not dead:
        return []
    events: list[dict[str, Any]] = []

    def over(effect: dict[str, Any]) -> bool:
        return effect.get("key") == "spell" and effect.get("caster") in dead

    for i, ch in enumerate(chars):
        for effect in ch["effects"]:
            if over(effect):
                events.append(
                    {
                        **who(i, ch),
                        "type": "effect_ended",
                        "owner": ch["name"],
                        "effect": effect["id"],
                        "name": effect["name"],
                        "reason": "caster_died",
                    }
                )
        ch["effects"] = [e for e in ch["effects"] if not over(e)]
    for effect in camp["effects"]:
        if over(effect):
            events.append(
                {
                    "type": "effect_ended",
                    "owner": "",
                    "effect": effect["id"],
                    "name": effect["name"],
                    "reason": "caster_died",
                }
            )
    camp["effects"] = [e for e in camp["effects"] if not over(e)]
    return events


def prepare_inputs(
    campaign: dict[str, Any], characters: list[dict[str, Any]], settings: dict[str, Any] | None
) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    cfg = clean_settings(settings)
    camp = clean_campaign(campaign)
    chars = [
        clean_character(c, settings=cfg, path=f"characters.{i}") for i, c in enumerate(characters)
    ]
    return camp, chars, cfg


def end_dungeon_turn(
    campaign_state: dict[str, Any],
    characters: list[dict[str, Any]],
    *,
    dice: Dice,
    settings: dict[str, Any] | None = None,
) -> TurnResult:
    """End the current dungeon turn and start the next one
    («Ходы подземелья › Конец хода подземелья»). Pure: inputs are not mutated; run it once per turn
    (the caller guards against a second run)."""
    camp, chars, cfg = prepare_inputs(campaign_state, characters, settings)
    if not camp["in_dungeon"]:
        raise fail(
            "campaign.in_dungeon",
            "Группа не в подземелье: вне его считайте 2 часа за ход.",
            "The party is not in a dungeon: outside, count 2 hours as a turn.",
        )
    if camp["rest"] is not None:
        raise fail(
            "campaign.rest",
            "Отдых проходит вне ходов подземелья.",
            "A rest happens outside dungeon turns.",
        )
    ended = camp["turn"]
    events: list[dict[str, Any]] = [{"type": "turn_ended", "turn": ended}]
    events.extend(_upkeep(camp, chars, dice, reason="turn_end"))
    # 5. the greed window
    if camp["first_visit"] and ended == GREED_TURNS:
        events.append({"type": "greed_window_closed", "turn": ended})
    # 6. the encounter check; overdue signs are reported first (the Referee still owes them)
    for pending in camp["pending_encounters"]:
        if pending["due_turn"] <= ended:
            events.append({"type": "encounter_overdue", **copy.deepcopy(pending)})
    if cfg["roll_with_pending_encounter"] or not camp["pending_encounters"]:
        camp, event = roll_encounter(camp, dice, source="turn_end")
        events.append(event)
    else:
        events.append({"type": "encounter_check_skipped", "reason": "pending", "turn": ended})
    # 7. the next turn
    camp["turn"] = ended + 1
    events.append(start_turn_event(camp, cfg, dice))
    return TurnResult(clean_campaign(camp), chars, events)


def end_turn_for_rest(
    campaign_state: dict[str, Any],
    characters: list[dict[str, Any]],
    *,
    dice: Dice,
    settings: dict[str, Any] | None = None,
) -> TurnResult:
    """Starting a rest ends the current turn without an encounter check; the next turn starts
    only when the rest ends («Отдых»)."""
    camp, chars, _cfg = prepare_inputs(campaign_state, characters, settings)
    events: list[dict[str, Any]] = []
    if camp["in_dungeon"] and camp["rest"] is None:
        events.append({"type": "turn_ended", "turn": camp["turn"], "reason": "rest"})
        events.extend(_upkeep(camp, chars, dice, reason="turn_end"))
        events.append({"type": "encounter_check_skipped", "reason": "rest", "turn": camp["turn"]})
    return TurnResult(camp, chars, events)


def pass_time_outside(
    campaign_state: dict[str, Any],
    characters: list[dict[str, Any]],
    hours: int,
    *,
    dice: Dice,
    settings: dict[str, Any] | None = None,
) -> TurnResult:
    """Вне подземелья («Ходы подземелья › Вне подземелья»): every 2 in-game hours count as one
    dungeon turn for wear dice and durations. Leftover hours are kept on the clock. No encounter
    check (travel has its own)."""
    if hours < 0:
        raise fail("hours", "Время не идёт назад.", "Time does not run backwards.")
    camp, chars, _cfg = prepare_inputs(campaign_state, characters, settings)
    if camp["in_dungeon"]:
        raise fail(
            "campaign.in_dungeon",
            "В подземелье время меряют ходами подземелья.",
            "In a dungeon, time is kept in dungeon turns.",
        )
    total = camp["outside_hours"] + hours
    turns, camp["outside_hours"] = divmod(total, HOURS_PER_TURN_OUTSIDE)
    events: list[dict[str, Any]] = []
    for n in range(turns):
        events.append({"type": "outside_turn", "index": n + 1, "of": turns})
        events.extend(_upkeep(camp, chars, dice, reason="outside"))
    return TurnResult(clean_campaign(camp), chars, events)
