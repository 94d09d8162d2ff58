"""Crows: how a move resolves, shared by every domain's handlers («Проверки»).

``_call`` validates settings, state and parameters once; a handler ``_do_<move>(call)`` either
answers at once (``_outcome``) or rolls a check through ``_roll_check``. The check's sources and
flat parts come from ``_setup`` (or the move's own ``_setup_<move>``, built with
``_check_setup``); an expertise that could still raise the tier is offered after the roll
(«Проверки › Экспертизы»), and ``_finish`` hands the result to ``_finish_<move>``. A
half-finished move keeps what it needs in ``outcome.details["pending"]`` (``_pending``) and is
completed by ``apply_choice`` through ``_choice_<kind>``. Other creatures' sheets come in as
params (``target``, ``targets[].sheet``) and go back changed in ``details["target"]`` /
``details["targets"][i]["state"]``, the convention the web layer saves.
"""

from __future__ import annotations

import copy
from typing import Any, NoReturn

from systems.core.dice import Dice
from systems.core.outcome import Option, Outcome, Text
from systems.core.rulekit import split_call, unknown_move
from systems.core.schema import REFEREE, fail, validate
from systems.crows import attacks
from systems.crows.calls import Call, Setup
from systems.crows.checks import (
    KIND_EXPERTISE,
    CheckResult,
    automatic_doom,
    count_sources,
    expertise_blocked,
    roll_check,
)
from systems.crows.conditions import self_sources, speed, target_sources
from systems.crows.light import check_sources
from systems.crows.modifiers import effective_characteristic
from systems.crows.moves import CRIT_TEXT, DOOM_TEXT, MOVES_BY_KEY, NO_EXPERTISE
from systems.crows.sheet import clean_campaign, clean_character, clean_settings
from systems.crows.terms import CHARACTERISTIC_KEYS, EXPERTISES_BY_KEY


def join_text(base: Text, *extra: Text) -> Text:
    """One log line from a base text and notes, empty parts left out."""
    return Text(
        " ".join(t for t in [base.ru, *(e.ru for e in extra)] if t),
        " ".join(t for t in [base.en, *(e.en for e in extra)] if t),
    )


def item_text(card: dict[str, Any], ru: str, en: str) -> Text:
    """The log line of an inventory action names the item (the move's name alone said
    «Положить предмет» twice and nothing about what)."""
    name = str(card.get("name") or card.get("id") or "?")
    return Text(ru.format(name), en.format(name))


def characteristic_values(state: dict[str, Any]) -> dict[str, int]:
    """A creature's characteristics after its effects, for damage and opposed rolls."""
    return {k: effective_characteristic(state, k) for k in CHARACTERISTIC_KEYS}


class Resolution:
    """The plumbing and check core every domain mixin of ``Crows`` relies on."""

    @staticmethod
    def _unknown(move: str) -> NoReturn:
        raise unknown_move(move)

    def _call(self, move: str, state: dict[str, Any], dice: Dice | None, params: dict) -> Call:
        spec, settings, params = split_call(
            move, params, clean_settings=clean_settings, moves_by_key=MOVES_BY_KEY
        )
        if spec.subject == "campaign":
            clean = clean_campaign(state)
        else:
            clean = clean_character(state, settings=settings)
        return Call(spec, clean, validate(spec.params, params), dice, settings)

    def _outcome(
        self,
        call: Call,
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

    def _need_dice(self, call: Call) -> Dice:
        if call.dice is None:
            raise fail("dice", "Нужны кости.", "Dice are needed.")
        return call.dice

    def _alive(self, state: dict[str, Any]) -> None:
        if state["dead"]:
            raise fail("dead", "Существо мертво.", "The creature is dead.")

    def _kind(self, call: Call) -> str:
        key = call.spec.key
        if key == "check":
            return call.params["kind"]
        if key == "help":
            return "help"
        if key in ("resistance", "fall"):
            return "resistance"
        return "general"

    def _setup(self, call: Call) -> Setup:
        """Sources and flat parts of a check («Проверки › Преимущества и помехи»;
        «Проверки › Бонусы и штрафы»; «Проверки › Прятаться и красться»; «Состояния»;
        «Свет › Тусклый свет»; «Свет › Темнота»)."""
        custom = getattr(self, f"_setup_{call.spec.key}", None)
        if custom is not None:  # a move with its own setup works out its own sources
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
            extra.append("hidden_source")  # «Проверки › Прятаться и красться»
        if call.spec.key == "hide" and p["moved"] * 2 > speed(st):
            extra.append(
                "sneaking_fast"
            )  # «Проверки › Прятаться и красться»: no faster than half speed
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
            parts["help"] = sum(helps)  # flat («Проверки › Бонусы и штрафы»; «Проверки › Помощь»)
        prepared = self._prepared_bonus(st, p.get("task", ""))
        if prepared:
            parts["prepared"] = (
                prepared  # «Отдых › Подготовиться к задаче»: a flat +2, not advantage
            )
        if attack == "ranged" and p.get("weapon_range") is not None and p.get("distance"):
            penalty = attacks.range_penalty(p["weapon_range"], p["distance"])
            if penalty:
                parts["range"] = penalty
        parts.update(situation)
        return Setup(
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

    def _usable_expertise(self, call: Call, setup: Setup) -> list[Option]:
        """Expertises that fit this kind of check and have a use left («Проверки › Экспертизы»;
        «Проверки › Особые проверки»)."""
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
            categories = ("magical",)  # «Бой › Как атаковать»
        else:
            categories = KIND_EXPERTISE[setup.kind]
        out = []
        for entry in call.state["expertises"]:
            info = EXPERTISES_BY_KEY[entry["key"]]
            if entry["uses"] > 0 and info.category in categories:
                out.append(Option(info.key, info.ru, info.en))
        return out

    def _roll_check(self, call: Call, *, extra: dict[str, Any] | None = None) -> Outcome:
        """Roll a check, lock retries, and either finish or wait for an expertise choice."""
        st, p = call.state, call.params
        self._alive(st)
        task = p.get("task", "").strip()
        locked = {t.casefold() for t in st["retry_locks"]}
        if task and not p.get("circumstances_changed") and task.casefold() in locked:
            raise fail(
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
            st["hidden"] = (
                False  # an aggressive act reveals you («Проверки › Прятаться и красться»)
            )
        info = {"sources": list(setup.sources), "parts": dict(setup.parts)}
        extra = {**(extra or {}), **info}
        offered = self._usable_expertise(call, setup)
        if offered and not expertise_blocked(result):
            out = self._check_outcome(call, result, st, extra)
            out.options = [*offered, NO_EXPERTISE]
            out.pick = 1
            out.chooser = "player"
            out.text = join_text(
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
            out.flags["expertise_blocked"] = (
                True  # «Проверки › Криты и рок»: a doom ignores expertise
            )
        return out

    def _check_outcome(
        self, call: Call, result: CheckResult, state: dict[str, Any], extra: dict[str, Any]
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
            text=join_text(text, *notes),
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
        self, call: Call, result: CheckResult, state: dict[str, Any], extra: dict[str, Any]
    ) -> Outcome:
        out = self._check_outcome(call, result, state, extra)
        finisher = getattr(self, f"_finish_{call.spec.key}", None)
        return finisher(call, result, out, extra) if finisher else out

    def _sheet_param(self, call: Call, data: dict[str, Any] | None, path: str) -> dict | None:
        if data is None:
            return None
        return clean_character(data, settings=call.settings, path=path)

    def _check_setup(
        self,
        call: Call,
        *,
        characteristic: str,
        kind: str = "general",
        attack: str = "",
        sources: list[str] | tuple[str, ...] = (),
        parts: dict[str, int] | None = None,
        target_conditions: set[str] | list[str] = (),
        light: str | None = None,
        purpose: str = "",
        advantages: int = 0,
        expertise_keys: tuple[str, ...] | None = None,
        target: dict[str, Any] | None = None,
    ) -> Setup:
        """Sources and flat parts for a move with its own setup, counted as ``_setup`` does;
        an attack's situation (``target``: one target entry) through
        ``attacks.attack_modifiers`` as a check of the attack kind does."""
        st, p = call.state, call.params
        own, auto_doom = self_sources(
            st, kind=kind, attack=attack, characteristic=characteristic, purpose=purpose
        )
        conds, force3 = target_sources(list(target_conditions), kind=kind, attack=attack)
        seen = check_sources(light) if light else []
        keys = tuple(dict.fromkeys([*p.get("sources", []), *sources, *own, *conds, *seen]))
        situation: dict[str, int] = {}
        if kind == "attack":
            t = target or {}
            keys, situation = attacks.attack_modifiers(
                st,
                keys,
                attack=attack,
                grabbing=p.get("grabbing", ""),
                target=t.get("name", ""),
                combat=p.get("combat"),
                combatant=t.get("combatant", ""),
                squeezing=bool(t.get("squeezing")),
            )
        a, d = count_sources(
            keys,
            advantages=p.get("advantages", 0) + advantages,
            disadvantages=p.get("disadvantages", 0),
        )
        all_parts: dict[str, int] = {"bonus": p.get("bonus", 0)}
        all_parts.update({k: v for k, v in {**(parts or {}), **situation}.items() if v})
        if p.get("help"):
            all_parts["help"] = sum(p["help"])
        prepared = self._prepared_bonus(st, p.get("task", ""))
        if prepared:
            all_parts["prepared"] = prepared
        return Setup(
            kind=kind,
            characteristic=characteristic,
            value=effective_characteristic(st, characteristic),
            advantages=a,
            disadvantages=d,
            sources=keys,
            parts=all_parts,
            auto_doom=auto_doom,
            force_tier3=force3,
            attack=attack,
            expertise_keys=expertise_keys,
        )

    def _cost(self, out: Outcome, cost: str) -> Outcome:
        out.flags["cost"] = cost
        return out

    @staticmethod
    def _chooser_for(sheet: dict[str, Any] | None) -> str:
        """A Referee creature's reaction is the Referee's to choose; anyone else's, its
        player's (``flags["reaction_by"]`` names whose)."""
        if sheet is None or sheet.get("kind") in ("monster", "object"):
            return REFEREE
        return "player"

    def _pending(self, call: Call, kind: str, **extra: Any) -> dict[str, Any]:
        return {
            "kind": kind,
            "move": call.spec.key,
            "params": copy.deepcopy(call.params),
            "settings": copy.deepcopy(call.settings),
            **copy.deepcopy(extra),
        }

    def _clear_pending(self, outcome: Outcome) -> Outcome:
        out = copy.deepcopy(outcome)
        out.options, out.pick, out.chooser = [], 0, None
        out.details.pop("pending", None)
        return out
