"""Crows: Fortune or Death (seed ``001_*_crows.txt``). Part A (L1-L720, digest
``crows_a_checks_slots_dungeon.md``): checks, damage, conditions, wear dice and light, rest,
inventory slots and dungeon turns. Part B (L662-L1424, digest
``crows_b_combat_travel_spells.md``, handlers in ``ruleset_b``): combat, movement, travel, the
Miasma, spells, crafting and identification.

``resolve(move, state, *, dice, settings=None, choices=None, **params)`` as in Dungeon World:

* ``state`` is a creature sheet (``SHEET``) for ``subject == "character"`` moves, or the
  campaign's dungeon clock (``CAMPAIGN``) for ``subject == "campaign"`` ones;
* ``settings`` is the campaign's settings dict (``SETTINGS``; missing keys take defaults);
* ``choices`` answers the first pending choice at once (same as ``apply_choice``).

A check that an expertise could still raise comes back pending (``chooser == "player"``): the
expertise is chosen after seeing the roll (L234), as ``apply_choice(outcome, [key])`` or
``["none"]``. Party-wide procedures take several sheets at once and return a ``TurnResult``:
``end_dungeon_turn``, ``start_rest``, ``rest_midpoint``, ``finish_rest``, ``interrupt_rest``,
``pass_time_outside``.
"""

from __future__ import annotations

import copy
from typing import Any, NoReturn

from systems.core.dice import Dice
from systems.core.notation import NotationError, roll_notation
from systems.core.outcome import Option, Outcome, Text
from systems.core.pbta import check_choices
from systems.core.rulekit import (
    MoveDispatch,
    common_params,
    describe_head,
    describe_settings,
    split_call,
    unknown_move,
)
from systems.core.ruleset import RulesError
from systems.core.schema import fail, validate
from systems.crows import attacks, dungeon, rest
from systems.crows import inventory as inv_rules
from systems.crows.calls import Call, Setup
from systems.crows.checks import (
    BANDS,
    KIND_EXPERTISE,
    SOURCES,
    CheckResult,
    apply_expertise,
    automatic_doom,
    check_odds,
    count_sources,
    expertise_blocked,
    group_cost_payers,
    help_modifier,
    roll_check,
    roll_d100,
)
from systems.crows.conditions import (
    add_condition,
    blessed_attack_bonus,
    has_condition,
    remove_condition,
    self_sources,
    speed,
    stand,
    target_sources,
    wake,
)
from systems.crows.damage import (
    apply_damage,
    fall_dice,
    fall_reduction_dice,
    gain_wounds,
    suffocation_due,
    suffocation_rounds,
)
from systems.crows.items import ITEM
from systems.crows.light import check_sources
from systems.crows.modifiers import effective_characteristic
from systems.crows.moves import CRIT_TEXT, DOOM_TEXT, MOVES, MOVES_BY_KEY, NO_EXPERTISE
from systems.crows.ruleset_b import CrowsB
from systems.crows.sheet import (
    CAMPAIGN,
    COMBAT,
    SETTINGS,
    SHEET,
    TRAVEL,
    clean_campaign,
    clean_character,
    clean_settings,
)
from systems.crows.terms import (
    ACTIVITIES,
    CAMPFIRE,
    CHARACTERISTICS,
    CONDITION_END_TRIGGERS,
    CONDITIONS,
    CORPSE_SLOTS,
    DIGEST,
    EXPERTISE_CATEGORIES,
    EXPERTISES,
    EXPERTISES_BY_KEY,
    LIGHT_LEVELS,
    MAGIC_SLOTS,
    SIZES,
    WEAR_KEYWORDS,
    describe_tables,
)
from systems.crows.wear import extinguish, light_up, refuel, roll_activation

CHECK_MOVES = frozenset(
    {
        "check",
        "help",
        "group_check",
        "resistance",
        "hide",
        "fall",
        # part B
        "attack",
        "provoked_attack",
        "grab",
        "escape",
        "knockback",
        "jump",
        "tip_object",
        "command_pet",
        "cast",
        "miasma_save",
        "travel_role",
        "identify_check",
    }
)
# The party procedures a referee runs from the table (rest, miasma, crafting, travel).
PARTY_PROCEDURES: tuple[str, ...] = (
    "end_dungeon_turn",
    "start_rest",
    "rest_midpoint",
    "finish_rest",
    "interrupt_rest",
    "pass_time_outside",
    "miasma_saves",
    "miasma_resolve",
    "crafting_session",
    "public_travel",
)
EVENT_TYPES: tuple[str, ...] = (
    "turn_ended",
    "wear_rolled",
    "effect_wear_rolled",
    "effect_ended",
    "darkness",
    "condition_ended",
    "overload_wounds",
    "woke",
    "greed_window_closed",
    "encounter_overdue",
    "encounter_check",
    "encounter_check_skipped",
    "turn_started",
    "dungeon_entered",
    "dungeon_left",
    "outside_turn",
    "rest_started",
    "lights_burning",
    "cannot_rest",
    "rest_midpoint",
    "rest_failed",
    "rest_finished",
    "rest_ended",
    "crafting_roll_due",
    "corpse_butchered",
    "item_identified",
    "task_prepared",
    "armour_repaired",
    "miasma_check_due",
    "camp_hidden",
    "greed_reward",
    # part B
    "cruelty_cleared",
    "combat_started",
    "round_started",
    "combat_turn_started",
    "spent",
    "walked",
    "combat_turn_ended",
    "taunted",
    "readied",
    "readied_triggered",
    "extra_action",
    "grabbing",
    "joined",
    "combat_ended",
    "travel_begun",
    "travel_day",
    "travel_roles",
    "travel_task",
    "travel_choice",
    "travel_encounter_check",
    "travel_moved",
    "travel_found_way",
    "travel_arrived",
    "travel_ended",
    "miasma_effect",
    "backlash",
    "item_crafted",
    "crafting_overflow_lost",
)


_Call = Call
_Setup = Setup


_err = fail  # the rules' error: a field path and ru/en text


def _text(base: Text, *extra: Text) -> Text:
    return Text(
        " ".join([base.ru, *(e.ru for e in extra)]), " ".join([base.en, *(e.en for e in extra)])
    )


def _item_text(card: dict[str, Any], ru: str, en: str) -> Text:
    """The log line of an inventory action names the item (the move's name alone said
    «Положить предмет» twice and nothing about what)."""
    name = str(card.get("name") or card.get("id") or "?")
    return Text(ru.format(name), en.format(name))


class Crows(CrowsB, MoveDispatch):
    """Crows: checks, damage, conditions, wear dice, light, rest, slots, dungeon turns (part A);
    combat, movement, travel, the Miasma, spells, crafting and identification (part B)."""

    key = "crows"
    name_ru = "Crows: Удача или смерть"
    name_en = "Crows: Fortune or Death"
    dungeon_clock = True  # Ход подземелья: the dungeon turn and its end-of-turn procedure

    # --- description and validation -----------------------------------------------------------

    def describe(self) -> dict[str, Any]:
        """Everything a form, a help page or the timer task needs, from the rules' own data."""
        return {
            **describe_head(self),
            "digest": DIGEST,
            "dice": "2d10",
            "bands": list(BANDS),
            "flags": ["crit", "doom"],
            "characteristics": [c.as_dict() for c in CHARACTERISTICS],
            "expertise_categories": [c.as_dict() for c in EXPERTISE_CATEGORIES],
            "expertises": [e.as_dict() for e in EXPERTISES],
            "conditions": [
                c.as_dict() | {"end_triggers": list(CONDITION_END_TRIGGERS[c.key])}
                for c in CONDITIONS
            ],
            "sources": [s.as_dict() for s in SOURCES],
            "sizes": [s.as_dict() for s in SIZES],
            "corpse_slots": {k: {"slots": v[0], "stack": v[1]} for k, v in CORPSE_SLOTS.items()},
            "campfire": {k: {"bright": v[0], "dim": v[1]} for k, v in CAMPFIRE.items()},
            "magic_slots": [m.as_dict() for m in MAGIC_SLOTS],
            "slot_areas": [
                a.as_dict() | {"slots": inv_rules.AREA_SIZE[a.key]} for a in inv_rules.AREAS
            ],
            "wear_keywords": [k.as_dict() for k in WEAR_KEYWORDS],
            "light_levels": [level.as_dict() for level in LIGHT_LEVELS],
            "rest_activities": [a.as_dict() for a in ACTIVITIES if a.key],
            "sheet": SHEET.describe(),
            "item": ITEM.describe(),
            "campaign": CAMPAIGN.describe(),
            "combat_state": COMBAT.describe(),
            "travel_state": TRAVEL.describe(),
            **describe_settings(SETTINGS),
            "moves": [m.describe() for m in MOVES if m.kind == "move"],
            "actions": [
                m.describe() for m in MOVES if m.kind == "action" and m.subject == "character"
            ],
            "campaign_actions": [m.describe() for m in MOVES if m.subject == "campaign"],
            "party_procedures": list(PARTY_PROCEDURES),
            "event_types": list(EVENT_TYPES),
            **describe_tables(),
            **common_params(
                "Сразу ответить на выбор, который предложит ход",
                "Answer the move's pending choice at once",
            ),
        }

    def default_state(self) -> dict[str, Any]:
        return clean_character(SHEET.default_value())

    def validate_state(
        self, state: dict[str, Any], settings: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        return clean_character(state, settings=settings)

    def default_campaign(self) -> dict[str, Any]:
        return clean_campaign({})

    def validate_campaign(self, campaign: dict[str, Any]) -> dict[str, Any]:
        return clean_campaign(campaign)

    def clean_settings(self, settings: dict[str, Any] | None = None) -> dict[str, Any]:
        return clean_settings(settings)

    # --- entry points -------------------------------------------------------------------------

    def apply_choice(
        self, outcome: Outcome, choices: list[str], *, dice: Dice | None = None
    ) -> Outcome:
        """Finish a pending outcome: an expertise after the roll, or the Referee's pick."""
        pending = outcome.details.get("pending")
        if not outcome.pending or not pending:
            return super().apply_choice(outcome, choices, dice=dice)
        check_choices(outcome, choices)
        call = _Call(
            MOVES_BY_KEY[pending["move"]],
            copy.deepcopy(outcome.state),
            copy.deepcopy(pending["params"]),
            dice,
            copy.deepcopy(pending["settings"]),
        )
        if pending["kind"] == "expertise":
            result = CheckResult.from_dict(pending["check"])
            state = call.state
            if choices[0] != NO_EXPERTISE.key:
                entry = next(e for e in state["expertises"] if e["key"] == choices[0])
                entry["uses"] -= 1
                result = apply_expertise(result, choices[0])
            out = self._finish(call, result, state, pending.get("extra", {}))
        elif pending["kind"] == "hide_cost":
            state = call.state
            state["hidden"] = choices[0] == "hidden_at_cost"
            out = copy.deepcopy(outcome)
            out.options, out.pick, out.chooser = [], 0, None
            out.state = state
            out.flags = {**out.flags, "hidden": state["hidden"]}
            out.details.pop("pending", None)
        else:
            handler = getattr(self, f"_choice_{pending['kind']}", None)
            if handler is None:  # pragma: no cover - every pending kind has a handler
                raise _err("choices", "Неизвестный выбор.", "Unknown choice.")
            out = handler(outcome, choices, call)
        out.details["choices"] = [*outcome.details.get("choices", []), *choices]
        return out

    def odds(self, move: str, state: dict[str, Any], **params: Any) -> dict[str, float]:
        """Exact chance of tier 1/2/3 and of crit and doom for a check, given the sheet and
        every modifier the roll would use; ``{}`` for a move without a check."""
        if move not in CHECK_MOVES:
            if move not in MOVES_BY_KEY:
                self._unknown(move)
            return {}
        call = self._call(move, state, None, params)
        if move == "fall" and not self._fall_resists(call):
            return {}
        setup = self._setup(call)
        return check_odds(
            value=setup.value,
            advantages=setup.advantages,
            disadvantages=setup.disadvantages,
            bonus=setup.bonus,
            force_tier3=setup.force_tier3,
            force_tier3_on_doom=call.settings["unconscious_tier3_on_doom"],
            automatic_doom_roll=setup.auto_doom,
        )

    # --- party procedures (several sheets at once) --------------------------------------------

    def end_dungeon_turn(
        self,
        campaign_state: dict[str, Any],
        characters: list[dict[str, Any]],
        *,
        dice: Dice,
        settings: dict[str, Any] | None = None,
    ) -> dungeon.TurnResult:
        return dungeon.end_dungeon_turn(campaign_state, characters, dice=dice, settings=settings)

    def start_rest(
        self,
        campaign: dict[str, Any],
        characters: list[dict[str, Any]],
        *,
        dice: Dice,
        settings: dict[str, Any] | None = None,
        place: str = "dungeon",
        miasma: bool = False,
    ) -> dungeon.TurnResult:
        return rest.start_rest(
            campaign, characters, dice=dice, settings=settings, place=place, miasma=miasma
        )

    def rest_midpoint(
        self,
        campaign: dict[str, Any],
        characters: list[dict[str, Any]],
        *,
        settings: dict[str, Any] | None = None,
    ) -> dungeon.TurnResult:
        return rest.rest_midpoint(campaign, characters, settings=settings)

    def finish_rest(
        self,
        campaign: dict[str, Any],
        characters: list[dict[str, Any]],
        plans: list[dict[str, Any] | None],
        *,
        dice: Dice,
        settings: dict[str, Any] | None = None,
    ) -> dungeon.TurnResult:
        return rest.finish_rest(campaign, characters, plans, dice=dice, settings=settings)

    def interrupt_rest(
        self,
        campaign: dict[str, Any],
        characters: list[dict[str, Any]],
        *,
        dice: Dice | None = None,
        settings: dict[str, Any] | None = None,
    ) -> dungeon.TurnResult:
        return rest.interrupt_rest(campaign, characters, dice=dice, settings=settings)

    def pass_time_outside(
        self,
        campaign: dict[str, Any],
        characters: list[dict[str, Any]],
        hours: int,
        *,
        dice: Dice,
        settings: dict[str, Any] | None = None,
    ) -> dungeon.TurnResult:
        return dungeon.pass_time_outside(campaign, characters, hours, dice=dice, settings=settings)

    @staticmethod
    def place(inventory: dict[str, Any], item: dict[str, Any], target_slot: Any) -> dict:
        """``inventory.place``: the slot rules for the web layer."""
        return inv_rules.place(inventory, item, target_slot)

    # --- plumbing -----------------------------------------------------------------------------

    @staticmethod
    def _unknown(move: str) -> NoReturn:
        raise unknown_move(move)

    def _call(self, move: str, state: dict[str, Any], dice: Dice | None, params: dict) -> _Call:
        spec, settings, params = split_call(
            move, params, clean_settings=clean_settings, moves_by_key=MOVES_BY_KEY
        )
        if spec.subject == "campaign":
            clean = clean_campaign(state)
        else:
            clean = clean_character(state, settings=settings)
        return _Call(spec, clean, validate(spec.params, params), dice, settings)

    def _outcome(
        self,
        call: _Call,
        *,
        state: dict[str, Any],
        text: Text | None = None,
        flags: dict[str, Any] | None = None,
        details: dict[str, Any] | None = None,
    ) -> Outcome:
        return Outcome(
            move=call.spec.key,
            state=state,
            text=text or Text(call.spec.ru, call.spec.en),
            flags=dict(flags or {}),
            details=dict(details or {}),
        )

    def _need_dice(self, call: _Call) -> Dice:
        if call.dice is None:
            raise _err("dice", "Нужны кости.", "Dice are needed.")
        return call.dice

    def _alive(self, state: dict[str, Any]) -> None:
        if state["dead"]:
            raise _err("dead", "Существо мертво.", "The creature is dead.")

    # --- checks -------------------------------------------------------------------------------

    def _kind(self, call: _Call) -> str:
        key = call.spec.key
        if key == "check":
            return call.params["kind"]
        if key == "help":
            return "help"
        if key in ("resistance", "fall"):
            return "resistance"
        return "general"

    def _setup(self, call: _Call) -> _Setup:
        """Sources and flat parts of a check (L206-L230, L337, L446-L468, L586-L590)."""
        custom = getattr(self, f"_setup_{call.spec.key}", None)
        if custom is not None:  # part B moves work out their own sources
            return custom(call)
        st, p = call.state, call.params
        kind = self._kind(call)
        characteristic = "agility" if call.spec.key == "fall" else p["characteristic"]
        attack = p.get("attack", "") if kind == "attack" else ""
        purpose = p.get("purpose", "")
        own, auto_doom = self_sources(
            st, kind=kind, attack=attack, characteristic=characteristic, purpose=purpose
        )
        target, force3 = target_sources(p.get("target_conditions", []), kind=kind, attack=attack)
        seen = check_sources(p.get("light", "bright")) if kind == "attack" or purpose else []
        extra: list[str] = []
        if call.spec.key == "resistance" and p["hidden_source"]:
            extra.append("hidden_source")  # L337
        if call.spec.key == "hide" and p["moved"] * 2 > speed(st):
            extra.append("sneaking_fast")  # L337: no faster than half speed
        sources = tuple(dict.fromkeys([*p.get("sources", []), *own, *target, *seen, *extra]))
        situation: dict[str, int] = {}
        if kind == "attack":
            sources, situation = attacks.attack_modifiers(
                st,
                sources,
                attack=attack,
                combat=p.get("combat"),
                combatant=p.get("target_combatant", ""),
                squeezing=p.get("squeezing", False),
            )
        a, d = count_sources(
            sources, advantages=p.get("advantages", 0), disadvantages=p.get("disadvantages", 0)
        )
        parts: dict[str, int] = {"bonus": p.get("bonus", 0)}
        helps = list(p.get("help", []))
        if call.spec.key == "group_check":
            helps += [h["modifier"] for h in p["helpers"]]
        if helps:
            parts["help"] = sum(helps)  # flat (L230, L303-L305)
        prepared = self._prepared_bonus(st, p.get("task", ""))
        if prepared:
            parts["prepared"] = prepared  # L558: a flat +2, not advantage
        if attack == "ranged" and p.get("weapon_range") is not None and p.get("distance"):
            penalty = attacks.range_penalty(p["weapon_range"], p["distance"])
            if penalty:
                parts["range"] = penalty
        parts.update(situation)
        return _Setup(
            kind=kind,
            characteristic=characteristic,
            value=effective_characteristic(st, characteristic),
            advantages=a,
            disadvantages=d,
            sources=sources,
            parts=parts,
            auto_doom=auto_doom,
            force_tier3=force3,
            attack=attack,
        )

    @staticmethod
    def _prepared_bonus(state: dict[str, Any], task: str) -> int:
        key = task.strip().casefold()
        if not key:
            return 0
        return max(
            (p["bonus"] for p in state["prepared"] if p["task"].casefold() == key), default=0
        )

    def _usable_expertise(self, call: _Call, setup: _Setup) -> list[Option]:
        """Expertises that fit this kind of check and have a use left (L234-L238, L313-L325)."""
        p = call.params
        if setup.expertise_keys is not None and not p.get("any_expertise"):
            return [
                Option(e["key"], EXPERTISES_BY_KEY[e["key"]].ru, EXPERTISES_BY_KEY[e["key"]].en)
                for e in call.state["expertises"]
                if e["uses"] > 0 and e["key"] in setup.expertise_keys
            ]
        if p.get("any_expertise"):
            categories: tuple[str, ...] = ("general", "magical", "weapon")
        elif setup.kind == "attack" and p.get("spell"):
            categories = ("magical",)  # L779
        else:
            categories = KIND_EXPERTISE[setup.kind]
        out = []
        for entry in call.state["expertises"]:
            info = EXPERTISES_BY_KEY[entry["key"]]
            if entry["uses"] > 0 and info.category in categories:
                out.append(Option(info.key, info.ru, info.en))
        return out

    def _roll_check(self, call: _Call, *, extra: dict[str, Any] | None = None) -> Outcome:
        """Roll a check, lock retries, and either finish or wait for an expertise choice."""
        st, p = call.state, call.params
        self._alive(st)
        task = p.get("task", "").strip()
        locked = {t.casefold() for t in st["retry_locks"]}
        if task and not p.get("circumstances_changed") and task.casefold() in locked:
            raise _err(
                "task",
                "Эту проверку нельзя повторить, пока обстоятельства существенно не изменятся.",
                "This check cannot be retried until circumstances change materially.",
            )
        setup = self._setup(call)
        if setup.auto_doom:
            result = automatic_doom(
                characteristic=setup.characteristic,
                value=setup.value,
                kind=setup.kind,
                advantages=setup.advantages,
                disadvantages=setup.disadvantages,
                bonus=setup.bonus,
            )
        else:
            result = roll_check(
                self._need_dice(call),
                value=setup.value,
                advantages=setup.advantages,
                disadvantages=setup.disadvantages,
                bonus=setup.bonus,
                characteristic=setup.characteristic,
                kind=setup.kind,
                force_tier3=setup.force_tier3,
                force_tier3_on_doom=call.settings["unconscious_tier3_on_doom"],
            )
        if task and task.casefold() not in locked:
            st["retry_locks"] = [*st["retry_locks"], task][-50:]
        if setup.kind == "attack" and st["hidden"]:
            st["hidden"] = False  # an aggressive act reveals you (L337)
        info = {"sources": list(setup.sources), "parts": dict(setup.parts)}
        extra = {**(extra or {}), **info}
        offered = self._usable_expertise(call, setup)
        if offered and not expertise_blocked(result):
            out = self._check_outcome(call, result, st, extra)
            out.options = [*offered, NO_EXPERTISE]
            out.pick = 1
            out.chooser = "player"
            out.text = _text(
                out.text,
                Text(
                    "Можно применить одну экспертизу: +1 ступень.",
                    "You may apply one expertise: +1 tier.",
                ),
            )
            out.details["pending"] = {
                "kind": "expertise",
                "move": call.spec.key,
                "params": copy.deepcopy(call.params),
                "settings": copy.deepcopy(call.settings),
                "check": result.as_dict(),
                "extra": copy.deepcopy(extra),
            }
            return out
        out = self._finish(call, result, st, extra)
        if result.doom and offered:
            out.flags["expertise_blocked"] = True  # L196: a doom ignores expertise
        return out

    def _check_outcome(
        self, call: _Call, result: CheckResult, state: dict[str, Any], extra: dict[str, Any]
    ) -> Outcome:
        text = call.spec.results.get(result.band) or Text(call.spec.ru, call.spec.en)
        notes = []
        if result.crit:
            notes.append(CRIT_TEXT)
        if result.doom:
            notes.append(DOOM_TEXT)
        if result.automatic == "doom":
            notes.append(
                Text(
                    "Без сознания: автоматический рок на Ловкость и Силу.",
                    "Unconscious: automatic doom on Agility and Strength.",
                )
            )
        if result.automatic == "tier3":
            notes.append(
                Text(
                    "Цель без сознания: атака всегда даёт 3-ю ступень.",
                    "The target is unconscious: the attack is always tier 3.",
                )
            )
        return Outcome(
            move=call.spec.key,
            total=result.total,
            band=result.band,
            faces=list(result.faces),
            modifier=result.modifier,
            state=state,
            text=_text(text, *notes),
            flags={
                "tier": result.tier,
                "crit": result.crit,
                "doom": result.doom,
                "net": result.net,
                "shift": result.shift,
                "automatic": result.automatic,
                "expertise": result.expertise,
            },
            details={"check": result.as_dict(), **copy.deepcopy(extra)},
        )

    def _finish(
        self, call: _Call, result: CheckResult, state: dict[str, Any], extra: dict[str, Any]
    ) -> Outcome:
        out = self._check_outcome(call, result, state, extra)
        finisher = getattr(self, f"_finish_{call.spec.key}", None)
        return finisher(call, result, out, extra) if finisher else out

    def _do_check(self, call: _Call) -> Outcome:
        """Проверка (L158-L230): 2d10 + characteristic; attacks and castings too (L311-L319)."""
        return self._roll_check(call)

    def _finish_check(self, call, result, out, extra) -> Outcome:
        if call.params["kind"] == "attack":
            out.flags["hit"] = result.tier >= 2  # L781: tier 1 is a miss
            if result.crit:
                out.flags.update(attacks.crit_extra_action(on_own_turn=call.params["on_own_turn"]))
            bonus = blessed_attack_bonus(out.state, result.characteristic or "strength")
            if bonus and result.tier >= 2:
                out.details["blessed_damage"] = bonus  # L446
        return out

    def _do_help(self, call: _Call) -> Outcome:
        """Помощь (L301-L309): a separate check first; its tier gives −1, +1 or +2."""
        return self._roll_check(call)

    def _finish_help(self, call, result, out, extra) -> Outcome:
        out.details["help_modifier"] = help_modifier(result.tier)
        out.details["helping"] = call.params["helping"]
        return out

    def _do_group_check(self, call: _Call) -> Outcome:
        """Групповая проверка (L331-L333): the leader rolls with every helper's result."""
        return self._roll_check(call)

    def _finish_group_check(self, call, result, out, extra) -> Outcome:
        if result.tier == 2:
            # L333: if success has a cost, the leader and every helper who gave −1 pay it.
            out.details["cost_payers"] = group_cost_payers(
                call.state["name"] or "leader", call.params["helpers"]
            )
        return out

    def _do_resistance(self, call: _Call) -> Outcome:
        """Бросок сопротивления (L323-L327): the effect sets the tiers."""
        return self._roll_check(call)

    def _finish_resistance(self, call, result, out, extra) -> Outcome:
        if result.crit:
            out.details["crit_may"] = ["harm_source", "ally_auto_tier3"]  # L327
        if result.doom:
            out.details["doom_may"] = "extra_1d10_damage"  # L327
        return out

    def _do_hide(self, call: _Call) -> Outcome:
        """Прятаться и красться (L337): only from a creature not watching you."""
        if call.params["observed"]:
            raise _err(
                "observed",
                "Спрятаться можно только от того, кто за вами не наблюдает.",
                "You can hide only from a creature that is not watching you.",
            )
        return self._roll_check(call)

    def _finish_hide(self, call, result, out, extra) -> Outcome:
        if result.tier == 3:
            out.state["hidden"] = True
        elif result.tier == 2:
            spec = call.spec.options["2"]
            out.options, out.pick, out.chooser = list(spec.options), spec.pick, spec.chooser
            out.details["pending"] = {
                "kind": "hide_cost",
                "move": call.spec.key,
                "params": copy.deepcopy(call.params),
                "settings": copy.deepcopy(call.settings),
            }
        out.flags["hidden"] = out.state["hidden"]
        return out

    # --- hazards and damage -------------------------------------------------------------------

    def _fall_resists(self, call: _Call) -> bool:
        # An unconscious creature has no reactions (L464).
        return (
            call.params["resist"]
            and fall_dice(call.params["feet"]) > 0
            and not has_condition(call.state, "unconscious")
        )

    def _do_fall(self, call: _Call) -> Outcome:
        """Падение (L616-L622): roll the damage, then the reaction resistance roll, then the
        reduction dice; the rest is piercing damage."""
        self._alive(call.state)
        count = fall_dice(call.params["feet"])
        faces = [self._need_dice(call).roll(6) for _ in range(count)]
        extra = {"fall_faces": faces, "fall_damage": sum(faces)}
        if not self._fall_resists(call):
            return self._land(call, call.state, sum(faces), extra, None)
        return self._roll_check(call, extra=extra)

    def _finish_fall(self, call, result, out, extra) -> Outcome:
        return self._land(call, out.state, extra["fall_damage"], extra, result, base=out)

    def _land(
        self,
        call: _Call,
        state: dict[str, Any],
        damage: int,
        extra: dict[str, Any],
        result: CheckResult | None,
        *,
        base: Outcome | None = None,
    ) -> Outcome:
        dice = call.dice
        reduction_faces: list[int] = []
        if result is not None:
            reduction_faces = [
                self._need_dice(call).roll(6) for _ in range(fall_reduction_dice(result.tier))
            ]
        taken = max(0, damage - sum(reduction_faces))  # never below 0 (digest ambiguity 9)
        st, report = apply_damage(
            state,
            taken,
            piercing=True,
            wound_slots=call.params["wound_slots"],
            spill=call.settings["damage_spill"],
            dice=dice,
        )
        details = {
            **copy.deepcopy(extra),
            "reduction_faces": reduction_faces,
            "damage": report.as_dict(),
        }
        text = Text(
            f"Падение: {report.total} пробивающего урона.", f"Fall: {report.total} piercing."
        )
        if base is None:
            return self._outcome(
                call, state=st, text=text, details=details, flags={"died": report.died}
            )
        base.state = st
        base.details.update(details)
        base.flags["died"] = report.died
        base.text = _text(base.text, text)
        return base

    def _do_suffocate(self, call: _Call) -> Outcome:
        """Удушье (L630): 3 + Strength rounds; then 1d6 at the start of every round. Not
        marked piercing in the seed (digest ambiguity 8; a setting)."""
        st, p = call.state, call.params
        self._alive(st)
        strength = st["characteristics"]["strength"]
        hold = suffocation_rounds(strength)
        if not suffocation_due(strength, p["round"]):
            text = Text(
                f"Дыхание задержано: раунд {p['round']} из {hold}.",
                f"Holding breath: round {p['round']} of {hold}.",
            )
            return self._outcome(call, state=st, text=text, details={"hold_rounds": hold})
        face = self._need_dice(call).roll(6)
        st, report = apply_damage(
            st,
            face,
            piercing=call.settings["suffocation_piercing"],
            armour_order=p["armour_order"],
            wound_slots=p["wound_slots"],
            spill=call.settings["damage_spill"],
            dice=call.dice,
        )
        text = Text(f"Удушье: {report.total} урона.", f"Suffocation: {report.total} damage.")
        return self._outcome(
            call,
            state=st,
            text=text,
            details={"hold_rounds": hold, "roll": face, "damage": report.as_dict()},
            flags={"died": report.died},
        )

    def _roll_expression(self, call: _Call, expression: str, path: str) -> dict[str, Any]:
        try:
            rolled = roll_notation(expression, dice=self._need_dice(call))
        except NotationError as exc:
            raise RulesError({path: [{"ru": exc.ru, "en": exc.en}]}) from None
        return rolled.as_dict()

    def _do_take_damage(self, call: _Call) -> Outcome:
        """Получить урон (L420-L438): a number or dice; piercing skips Armour Defence."""
        st, p = call.state, call.params
        if (p["amount"] is None) == (not p["damage_dice"]):
            raise _err(
                "amount",
                "Укажите урон числом или костями.",
                "Give the damage as a number or as dice.",
            )
        details: dict[str, Any] = {}
        amount = p["amount"]
        if amount is None:
            details["roll"] = self._roll_expression(call, p["damage_dice"], "damage_dice")
            amount = max(0, details["roll"]["total"])
        st, report = apply_damage(
            st,
            amount,
            piercing=p["piercing"],
            armour_order=p["armour_order"],
            wound_slots=p["wound_slots"],
            knock_out=p["knock_out"],
            spill=call.settings["damage_spill"],
            dice=call.dice,
        )
        details["damage"] = report.as_dict()
        details["speed"] = speed(st)
        text = Text(f"Урон: {report.total}.", f"Damage: {report.total}.")
        if report.died:
            text = _text(text, Text("Смерть.", "Death."))
        return self._outcome(
            call,
            state=st,
            text=text,
            details=details,
            flags={
                "died": report.died,
                "knocked_out": report.knocked_out,
                "destroyed": report.destroyed,
                "woke": report.woke,
            },
        )

    def _do_take_wounds(self, call: _Call) -> Outcome:
        """Раны напрямую (L375): not damage, no armour or Stamina in the way."""
        p = call.params
        if (p["count"] is None) == (not p["wound_dice"]):
            raise _err("count", "Укажите число ран или кости.", "Give a count or dice.")
        details: dict[str, Any] = {}
        count = p["count"]
        if count is None:
            details["roll"] = self._roll_expression(call, p["wound_dice"], "wound_dice")
            count = max(0, details["roll"]["total"])
        st, info = gain_wounds(call.state, count, slots=p["wound_slots"], hunger=p["hunger"])
        details.update(info)
        details["speed"] = speed(st)
        return self._outcome(call, state=st, details=details, flags={"died": info["died"]})

    def _do_hunger(self, call: _Call) -> Outcome:
        """Голод (L626): one hunger wound per day without a ration."""
        st, info = gain_wounds(
            call.state, call.params["days"], slots=call.params["wound_slots"], hunger=True
        )
        return self._outcome(call, state=st, details=info, flags={"died": info["died"]})

    def _do_eat(self, call: _Call) -> Outcome:
        """A ration (or its equivalent) removes every hunger wound (L626)."""
        st = call.state
        if call.params["item_id"]:
            st["inventory"], _ = inv_rules.remove(st["inventory"], call.params["item_id"])
        st["inventory"], gone = inv_rules.remove_hunger_wounds(st["inventory"])
        return self._outcome(call, state=st, details={"wounds_removed": gone})

    def _do_remove_wound(self, call: _Call) -> Outcome:
        st = call.state
        st["inventory"], slot = inv_rules.remove_wound(st["inventory"], call.params["slot"])
        return self._outcome(call, state=st, details={"slot": slot, "speed": speed(st)})

    def _do_move_wound(self, call: _Call) -> Outcome:
        st, p = call.state, call.params
        st["inventory"] = inv_rules.move_wound(st["inventory"], p["from_slot"], p["to_slot"])
        return self._outcome(call, state=st, details={"speed": speed(st)})

    def _do_restore_stamina(self, call: _Call) -> Outcome:
        st, p = call.state, call.params
        self._alive(st)
        before = st["stamina"]
        st["stamina"] = (
            st["stamina_max"] if p["full"] else min(st["stamina_max"], st["stamina"] + p["amount"])
        )
        return self._outcome(call, state=st, details={"restored": st["stamina"] - before})

    # --- conditions ---------------------------------------------------------------------------

    def _do_add_condition(self, call: _Call) -> Outcome:
        """No second instance of a condition (L442); objects take none (L434)."""
        p = call.params
        st, added = add_condition(
            call.state, p["condition"], by=p["by"], range_=p["range"], knocked_out=p["knocked_out"]
        )
        return self._outcome(call, state=st, flags={"added": added, "already_had": not added})

    def _do_remove_condition(self, call: _Call) -> Outcome:
        """End a condition for one of the reasons the seed gives it (or the Referee's word)."""
        key, reason = call.params["condition"], call.params["reason"]
        if reason != "referee" and reason not in CONDITION_END_TRIGGERS[key]:
            raise _err(
                "reason",
                "Это не заканчивает такое состояние.",
                "That does not end this condition.",
            )
        if key == "prone" and reason == "stand":
            return self._do_stand(call)
        st, removed = remove_condition(call.state, key)
        return self._outcome(call, state=st, flags={"removed": removed}, details={"reason": reason})

    def _do_stand(self, call: _Call) -> Outcome:
        return self._outcome(call, state=stand(call.state))

    def _do_drop_prone(self, call: _Call) -> Outcome:
        st, added = add_condition(call.state, "prone")
        return self._outcome(call, state=st, flags={"added": added})

    def _do_wake(self, call: _Call) -> Outcome:
        """A loud noise wakes every sleeper within 10 squares (L464)."""
        distance = call.params["distance"]
        if distance is not None and distance > 10:
            return self._outcome(call, state=call.state, flags={"woke": False})
        st, woke = wake(call.state)
        return self._outcome(call, state=st, flags={"woke": woke})

    def _do_reveal(self, call: _Call) -> Outcome:
        st = call.state
        st["hidden"] = False
        return self._outcome(call, state=st)

    # --- inventory ----------------------------------------------------------------------------

    def _inv(self, call: _Call) -> dict[str, Any]:
        return call.state["inventory"]

    def _set_inv(self, call: _Call, inventory: dict[str, Any]) -> dict[str, Any]:
        st = call.state
        st["inventory"] = inv_rules.validate_inventory(
            inventory, magic_in_inventory=call.settings["magic_in_inventory"]
        )
        return st

    def _do_place_item(self, call: _Call) -> Outcome:
        """Slots of one type, contiguous; stacks of one kind; hands never stack (L356-L360)."""
        p = call.params
        st = self._set_inv(call, inv_rules.place(self._inv(call), p["item"], p["target"]))
        text = _item_text(p["item"], "Предмет «{}» уложен", "Item “{}” placed")
        return self._outcome(call, state=st, text=text, details={"speed": speed(st)})

    def _do_move_item(self, call: _Call) -> Outcome:
        """Free out of rounds; hands↔belt a maneuver in rounds; out of the backpack in rounds
        only through «Достать из рюкзака» (L395-L397)."""
        p = call.params
        found = inv_rules.find(self._inv(call), p["item_id"])
        if found is None:
            raise _err("item_id", f"Нет предмета «{p['item_id']}».", f"No item {p['item_id']!r}.")
        area, _ = inv_rules.parse_target(p["target"])
        cost = inv_rules.move_cost(str(found[0]), area, in_rounds=p["in_rounds"])
        if cost == "retrieve":
            raise _err(
                "target",
                "В раундах предмет из рюкзака достают манёвром с броском 1d10.",
                "In rounds, take an item out of the backpack with the d10 maneuver.",
            )
        st = self._set_inv(call, inv_rules.move(self._inv(call), p["item_id"], p["target"]))
        text = _item_text(found[2], "Предмет «{}» перемещён", "Item “{}” moved")
        return self._outcome(call, state=st, text=text, details={"cost": cost})

    def _do_drop_item(self, call: _Call) -> Outcome:
        inventory, card = inv_rules.remove(self._inv(call), call.params["item_id"])
        return self._outcome(
            call,
            state=self._set_inv(call, inventory),
            text=_item_text(card, "Предмет «{}» выброшен", "Item “{}” dropped"),
            details={"dropped": card},
        )

    def _do_retrieve(self, call: _Call) -> Outcome:
        """Достать из рюкзака (L397): 1d10 ≥ the number of a slot the item occupies."""
        p = call.params
        inv_rules.retrieve_needs(self._inv(call), p["item_id"])  # refuse before rolling
        roll = self._need_dice(call).roll(10)
        got = inv_rules.retrieve_from_backpack(
            self._inv(call), p["item_id"], roll, make_room=p["make_room"], release=p["release"]
        )
        st = self._set_inv(call, got.inventory)
        text = (
            Text("Предмет в руках.", "The item is in hand.")
            if got.success
            else Text(
                "Не достали: манёвр потрачен, можно переложить вещи в рюкзаке.",
                "Not retrieved: the maneuver is spent; you may rearrange the backpack.",
            )
        )
        return Outcome(
            move=call.spec.key,
            total=roll,
            faces=[roll],
            state=st,
            text=text,
            flags={"success": got.success},
            details=got.as_dict(),
        )

    def _do_dump_backpack(self, call: _Call) -> Outcome:
        ids = call.params["item_ids"] or None
        inventory, dropped = inv_rules.dump_backpack(self._inv(call), ids)
        st = self._set_inv(call, inventory)
        return self._outcome(call, state=st, details={"dropped": dropped})

    def _do_wear_armour(self, call: _Call) -> Outcome:
        p = call.params
        inventory = inv_rules.wear_armour(self._inv(call), p["item_id"], in_rounds=p["in_rounds"])
        return self._outcome(call, state=self._set_inv(call, inventory))

    def _do_take_off_armour(self, call: _Call) -> Outcome:
        return self._outcome(
            call, state=self._set_inv(call, inv_rules.take_off_armour(self._inv(call)))
        )

    def _do_equip_magic(self, call: _Call) -> Outcome:
        p = call.params
        inventory = inv_rules.equip_magic(
            self._inv(call),
            p["item_id"],
            p["magic_slot"],
            keep_in_inventory=call.settings["magic_in_inventory"],
        )
        overloaded = inv_rules.overloaded_slots(inventory)
        text = None
        if overloaded:
            text = Text(
                "Больше одного предмета в слоте: отдыхать нельзя, 1d6 ран в конце каждого хода "
                "подземелья.",
                "More than one item in a slot: no rest, 1d6 wounds at the end of every dungeon "
                "turn.",
            )
        st = self._set_inv(call, inventory)
        return self._outcome(call, state=st, text=text, flags={"overloaded": overloaded})

    def _do_unequip_magic(self, call: _Call) -> Outcome:
        p = call.params
        inventory = inv_rules.unequip_magic(
            self._inv(call),
            p["item_id"],
            p["target"],
            keep_in_inventory=call.settings["magic_in_inventory"],
        )
        return self._outcome(call, state=self._set_inv(call, inventory))

    def _card(self, call: _Call, item_id: str, path: str = "item_id") -> dict[str, Any]:
        return inv_rules.get(self._inv(call), item_id, path=path)

    def _do_light(self, call: _Call) -> Outcome:
        card = light_up(self._card(call, call.params["item_id"]))
        st = self._set_inv(call, inv_rules.replace_card(self._inv(call), card))
        return self._outcome(call, state=st, details={"light": card["light"]})

    def _do_extinguish(self, call: _Call) -> Outcome:
        """Тушение (L608): roll the dice of a light whose dice roll at a turn's end."""
        card = self._card(call, call.params["item_id"])
        card, event = extinguish(card, self._need_dice(call))
        st = self._set_inv(call, inv_rules.replace_card(self._inv(call), card))
        faces = event["faces"] if event else []
        return Outcome(
            move=call.spec.key,
            faces=faces,
            state=st,
            text=Text("Потушено.", "Put out."),
            details={"wear": event},
            flags={"exhausted": bool(event and event["exhausted"])},
        )

    def _do_use_item(self, call: _Call) -> Outcome:
        """Активация (L481): the wear dice roll after the use's primary effects."""
        card, event = roll_activation(
            self._card(call, call.params["item_id"]), self._need_dice(call)
        )
        st = self._set_inv(call, inv_rules.replace_card(self._inv(call), card))
        return Outcome(
            move=call.spec.key,
            faces=event["faces"] if event else [],
            state=st,
            text=Text("Использовано.", "Used."),
            details={"wear": event},
        )

    def _do_refuel(self, call: _Call) -> Outcome:
        """Заправка (L479): the named item (one from a stack) refills the maximum."""
        p = call.params
        card = self._card(call, p["item_id"])
        fuel = self._card(call, p["fuel_id"], "fuel_id")
        card = refuel(card, fuel)
        inventory = inv_rules.replace_card(self._inv(call), card)
        inventory, used = inv_rules.remove(inventory, p["fuel_id"])
        st = self._set_inv(call, inventory)
        return self._outcome(
            call, state=st, details={"wear": card["wear"], "fuel_used": used["id"]}
        )

    def _do_add_effect(self, call: _Call) -> Outcome:
        st = call.state
        effect = validate(MOVES_BY_KEY["add_effect"].params.fields["effect"], call.params["effect"])
        if any(e["id"] == effect["id"] for e in st["effects"]):
            raise _err("effect.id", "Такой эффект уже есть.", "That effect is already there.")
        st["effects"].append(effect)
        return self._outcome(call, state=clean_character(st, settings=call.settings))

    def _do_remove_effect(self, call: _Call) -> Outcome:
        st = call.state
        before = len(st["effects"])
        st["effects"] = [e for e in st["effects"] if e["id"] != call.params["effect_id"]]
        return self._outcome(call, state=st, flags={"removed": len(st["effects"]) != before})

    # --- rest ---------------------------------------------------------------------------------

    def _plan(self, p: dict[str, Any], *keys: str) -> rest.RestPlan:
        return rest.RestPlan.from_dict({k: p[k] for k in keys if k in p})

    def _do_end_rest(self, call: _Call) -> Outcome:
        """One character's end of a rest (L528-L570); the party flow is ``finish_rest``."""
        p = call.params
        plan = self._plan(
            p,
            "hours",
            "slept",
            "rations",
            "activity",
            "task",
            "item_id",
            "corpse_size",
            "remove_wound",
        )
        if plan.activity == "tend_wounds":
            raise _err(
                "activity",
                "«Обработать раны» — на отдыхе группы (finish_rest).",
                "Tend wounds works on the party's rest (finish_rest).",
            )
        st, events = rest.rest_benefits(
            call.state, plan, dice=call.dice, miasma=p["miasma"], tended=p["tended"]
        )
        failed = events[0]["type"] == "rest_failed"
        return self._outcome(call, state=st, details={"events": events}, flags={"failed": failed})

    def _do_town_activity(self, call: _Call) -> Outcome:
        p = call.params
        plan = self._plan(p, "activity", "task", "item_id", "corpse_size")
        st, events = rest.town_activity(call.state, plan, day=p["day"], dice=call.dice)
        return self._outcome(call, state=st, details={"events": events})

    def _do_town_tend(self, call: _Call) -> Outcome:
        st, event = rest.town_tend(call.state, day=call.params["day"])
        return self._outcome(call, state=st, details={"events": [event]})

    def _do_town_sleep(self, call: _Call) -> Outcome:
        st, event = rest.town_sleep(call.state, call.params["hours"])
        return self._outcome(call, state=st, details={"events": [event]})

    def _do_clear_retry_lock(self, call: _Call) -> Outcome:
        """The Referee decides that circumstances changed enough for a retry (L202)."""
        st = call.state
        key = call.params["task"].strip().casefold()
        st["retry_locks"] = [t for t in st["retry_locks"] if t.casefold() != key]
        return self._outcome(call, state=st)

    def _do_d100(self, call: _Call) -> Outcome:
        value, faces = roll_d100(self._need_dice(call))
        return Outcome(
            move=call.spec.key,
            total=value,
            faces=list(faces),
            state=call.state,
            text=Text(f"d100: {value}.", f"d100: {value}."),
        )

    def _do_ranged_miss(self, call: _Call) -> Outcome:
        p = call.params
        info = attacks.ranged_miss_allies(
            self._need_dice(call), allies_adjacent=p["allies_adjacent"], doom=p["doom"]
        )
        faces = [info["parity_die"]] if info["parity_die"] is not None else []
        return Outcome(
            move=call.spec.key,
            faces=faces,
            state=call.state,
            details=info,
            flags={"ally_hit": info["ally_hit"]},
            text=Text(call.spec.ru, call.spec.en),
        )

    # --- campaign clock -----------------------------------------------------------------------

    def _do_enter_dungeon(self, call: _Call) -> Outcome:
        camp, events = dungeon.enter_dungeon(
            call.state, call.params["dungeon"], dice=call.dice, settings=call.settings
        )
        return self._outcome(call, state=camp, details={"events": events})

    def _do_leave_dungeon(self, call: _Call) -> Outcome:
        camp, events = dungeon.leave_dungeon(call.state)
        return self._outcome(call, state=camp, details={"events": events})

    def _do_encounter_check(self, call: _Call) -> Outcome:
        """Something very conspicuous calls for a check at once (L520)."""
        camp, event = dungeon.roll_encounter(
            call.state, self._need_dice(call), source="conspicuous"
        )
        event["reason"] = call.params["reason"]
        return Outcome(
            move=call.spec.key,
            total=event["roll"],
            band=event["result"],
            faces=[event["roll"]],
            state=clean_campaign(camp),
            text=Text(call.spec.ru, call.spec.en),
            details={"events": [event]},
        )

    def _do_set_threshold(self, call: _Call) -> Outcome:
        camp, p = call.state, call.params
        camp.update(populated=p["populated"], chaos=p["chaos"], threshold_bonus=p["bonus"])
        return self._outcome(
            call, state=camp, details={"threshold": dungeon.encounter_threshold(camp)}
        )

    def _do_resolve_encounter(self, call: _Call) -> Outcome:
        camp = call.state
        index = call.params["index"]
        if index >= len(camp["pending_encounters"]):
            raise _err("index", "Нет такой ожидаемой встречи.", "No such pending encounter.")
        played = camp["pending_encounters"].pop(index)
        return self._outcome(call, state=camp, details={"played": played})

    def _do_treasure_found(self, call: _Call) -> Outcome:
        event = dungeon.treasure_found(call.state, call.params["value"])
        text = Text(
            f"Ценность: {event['new_value']} (+{event['percent']} %).",
            f"Value: {event['new_value']} (+{event['percent']} %).",
        )
        return Outcome(
            move=call.spec.key,
            total=event["new_value"],
            state=call.state,
            text=text,
            details={"events": [event]},
        )

    def _do_room_explored(self, call: _Call) -> Outcome:
        """Variant (L516): the turn ends once the rolled number of rooms is explored."""
        camp = call.state
        if call.settings["turn_mode"] != "rooms" or camp["rooms_left"] is None:
            raise _err(
                "turn_mode",
                "Ходы кончаются по таймеру, не по комнатам.",
                "Turns end on the timer, not by rooms.",
            )
        camp["rooms_left"] = max(0, camp["rooms_left"] - 1)
        return self._outcome(
            call,
            state=camp,
            flags={"turn_over": camp["rooms_left"] == 0},
            details={"rooms_left": camp["rooms_left"]},
        )

    def _do_hide_camp(self, call: _Call) -> Outcome:
        camp, event = rest.hide_camp(call.state, call.params["by"])
        return self._outcome(call, state=camp, details={"events": [event]})

    def _do_rest_encounter(self, call: _Call) -> Outcome:
        """A rest in the wild while travelling uses the day's rest threshold (L534)."""
        threshold = call.params["threshold"]
        camp0 = call.state
        if threshold is None and camp0["travel"] is not None and not camp0["in_dungeon"]:
            threshold = camp0["travel"]["rest_threshold"]
        camp, event = rest.rest_encounter_check(
            call.state, dice=self._need_dice(call), threshold=threshold
        )
        return Outcome(
            move=call.spec.key,
            total=event["roll"],
            band=event["result"],
            faces=[event["roll"]],
            state=camp,
            text=Text(call.spec.ru, call.spec.en),
            details={"events": [event]},
            flags={"interrupts_rest": event["interrupts_rest"]},
        )


RULESET = Crows()
