"""Crows part B handlers, mixed into ``Crows``: combat, movement, pets, tipping objects, spells,
the Miasma, travel roles and the campaign's combat and travel states, crafting and
identification (seed L662-L1424).

Every handler follows part A's shape: ``_do_<move>(call)`` validates, then either rolls a check
through ``_roll_check`` (so expertise is offered after the roll, L234) and finishes in
``_finish_<move>``, or answers at once. A half-finished move keeps what it needs in
``outcome.details["pending"]`` and is completed by ``apply_choice`` through
``_choice_<kind>``. Other creatures' sheets come in as params (``target``, ``targets[].sheet``)
and go back changed in ``details["target"]`` / ``details["targets"][i]["state"]``, the
convention the web layer already saves.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from systems.core.dice import Dice
from systems.core.outcome import Option, Outcome, Text
from systems.core.ruleset import RulesError
from systems.core.schema import REFEREE, fail, validate
from systems.crows import attacks
from systems.crows import combat as cb
from systems.crows import crafting as craft_rules
from systems.crows import miasma as miasma_rules
from systems.crows import movement as mv
from systems.crows import spells as spell_rules
from systems.crows import travel as travel_rules
from systems.crows.calls import Call, Setup
from systems.crows.checks import (
    CheckResult,
    count_sources,
    evaluate,
    net_advantage,
)
from systems.crows.conditions import (
    add_condition,
    blessed_attack_bonus,
    condition_keys,
    has_condition,
    remove_condition,
    self_sources,
    speed,
    target_sources,
)
from systems.crows.damage import apply_damage
from systems.crows.dungeon import encounter_threshold, enter_dungeon
from systems.crows.inventory import BELT, HANDS, find, iter_items, place, remove, replace_card
from systems.crows.light import check_sources
from systems.crows.modifiers import (
    NO_HANDS,
    SLOTH,
    attacks_against_bonus,
    effective_characteristic,
    has_effect,
    tier_down,
    weapon_damage_bonus,
)
from systems.crows.rest import RestPlan, _butcher
from systems.crows.sheet import PROJECT, clean_campaign, clean_character
from systems.crows.terms import CHARACTERISTIC_KEYS, TASKS_BY_KEY

COUNTER = Option("counterattack", "Контратаковать (реакция)", "Counterattack (reaction)")
DECLINE = Option("decline", "Не контратаковать", "Do not counterattack")
CONCEALMENT_SOURCES = {
    "none": [],
    "light": ["light_concealment"],
    "heavy": ["heavy_concealment"],
    "invisible": ["invisible"],
}
SITUATION_KEYS = (
    "distance",
    "flanking",
    "high_ground",
    "cover",
    "light",
    "concealment",
    "combatant",
    "squeezing",
    "adjacent",
    "allies_adjacent",
    "guessed_wrong",
    "target_conditions",
    "target_sources",
    "target_bonus",
    "target_reaction_used",
)


def _text(ru: str, en: str) -> Text:
    return Text(ru, en)


def _join(base: Text, *extra: Text) -> Text:
    return Text(
        " ".join(t for t in [base.ru, *(e.ru for e in extra)] if t),
        " ".join(t for t in [base.en, *(e.en for e in extra)] if t),
    )


def _values(state: dict[str, Any]) -> dict[str, int]:
    return {k: effective_characteristic(state, k) for k in CHARACTERISTIC_KEYS}


class CrowsB:
    """Part B handlers; ``Crows`` supplies ``_roll_check``, ``_outcome`` and the plumbing."""

    # --- shared helpers -----------------------------------------------------------------------

    def _sheet_param(self, call: Call, data: dict[str, Any] | None, path: str) -> dict | None:
        if data is None:
            return None
        return clean_character(data, settings=call.settings, path=path)

    def _b_setup(
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
        """Sources and flat parts for a part B check, the same way part A counts them;
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

    # --- attacks (L777-L831) ------------------------------------------------------------------

    def _attack_targets(self, call: Call) -> list[dict[str, Any]]:
        """One roll for every target, each with its own modifiers; nobody twice (L819)."""
        p = call.params
        if p["targets"]:
            if p.get("target") is not None:
                raise fail(
                    "target",
                    "Либо одна цель (target), либо список целей (targets).",
                    "Give one target or a list of targets, not both.",
                )
            entries = [copy.deepcopy(t) for t in p["targets"]]
        else:
            entries = [
                {
                    "name": p.get("target_name", ""),
                    "sheet": p.get("target"),
                    **{k: copy.deepcopy(p[k]) for k in SITUATION_KEYS if k in p},
                }
            ]
        for i, t in enumerate(entries):
            t["sheet"] = self._sheet_param(call, t.get("sheet"), f"targets.{i}.sheet")
            if not t.get("name"):
                t["name"] = (t["sheet"] or {}).get("name") or f"#{i + 1}"
        names = [t["name"] for t in entries]
        if len(names) != len(set(names)):
            raise fail(
                "targets",
                "Одно существо нельзя выбрать целью одной атаки дважды.",
                "The same creature cannot be targeted twice by one attack.",
            )
        return entries

    def _attack_ctx(self, call: Call) -> dict[str, Any]:
        st, p = call.state, call.params
        profile, card = cb.weapon_profile(st, p["weapon_id"])
        improvised = False
        if p.get("weapon_like") is not None:
            if card is None:
                raise fail(
                    "weapon_like",
                    "Импровизированное оружие нужно держать в руке.",
                    "Hold the improvised weapon in hand.",
                )
            # L811: that weapon's damage without its special properties, at disadvantage
            profile = {**cb.UNARMED, **copy.deepcopy(p["weapon_like"]), "expertise": ""}
            improvised = True
        kind = profile["type"]
        attack = p["attack"]
        if kind == "thrown" and not attack:
            raise fail(
                "attack",
                "Метательное оружие: выберите ближнюю или дальнюю атаку до броска.",
                "Thrown weapon: choose melee or ranged before rolling.",
            )
        if not attack:
            attack = "ranged" if kind == "ranged" else "melee"
        if kind == "ranged" and attack == "melee" and card is not None:
            raise fail("attack", "Это оружие дальнего боя.", "This is a ranged weapon.")
        if call.spec.key == "provoked_attack" and attack != "melee":
            raise fail(
                "attack",
                "Провоцированная атака — только ближняя.",
                "A provoked attack is a melee attack only.",
            )
        characteristic = cb.attack_characteristic(profile, attack, p.get("characteristic"))
        targets = self._attack_targets(call)
        return {
            "profile": profile,
            "card": card,
            "attack": attack,
            "characteristic": characteristic,
            "targets": targets,
            "names": [t["name"] for t in targets],
            "improvised": improvised,
            "spell": False,
        }

    def _target_setup(self, call: Call, ctx: dict[str, Any], t: dict[str, Any]) -> Setup:
        """One target's advantages, disadvantages and bonuses (L801-L831, L586-L660, L703)."""
        st, p = call.state, call.params
        attack, profile = ctx["attack"], ctx["profile"]
        sheet = t.get("sheet")
        conditions = (
            condition_keys(sheet) if sheet is not None else set(t.get("target_conditions", []))
        )
        sources: list[str] = list(t.get("target_sources", []))
        parts: dict[str, int] = {}
        cover = t.get("cover", "none")
        if cover == "full":
            raise fail(
                "cover",
                f"До цели «{t['name']}» нет линии эффекта.",
                f"No line of effect to {t['name']!r}.",
            )
        if cover == "half":
            sources.append("cover")  # L644
        sources += CONCEALMENT_SOURCES[t.get("concealment", "none")]  # L652-L660
        if t.get("flanking"):
            sources.append("flanking")  # whether it counts: attacks.attack_modifiers
        if t.get("high_ground"):
            sources.append("high_ground")  # L831
        if attack == "ranged" and t.get("adjacent"):
            sources.append("ranged_adjacent")  # L805
        if cb.taunt_applies(p.get("taunted_by", ""), ctx["names"]):
            sources.append("taunted")  # L761
        if ctx["improvised"]:
            sources.append("improvised_weapon")  # L811
        if sheet is not None and attacks_against_bonus(sheet):
            parts["glowing"] = attacks_against_bonus(sheet)  # L1334
        if t.get("target_bonus"):
            parts["target"] = t["target_bonus"]
        distance = t.get("distance")
        if attack == "melee" and distance is not None:
            limit = max(cb.reach(st["size"]), int(profile.get("reach", 1)))
            if distance > limit:
                raise fail(
                    "distance",
                    f"Цель «{t['name']}» вне досягаемости ({limit}).",
                    f"{t['name']!r} is out of reach ({limit}).",
                )
        if attack == "ranged" and distance:
            penalty = attacks.range_penalty(int(profile.get("range", 0)), distance)
            if penalty:
                parts["range"] = penalty  # L799
        keys = None
        if ctx["spell"]:
            keys = ctx["expertise_keys"]
        return self._b_setup(
            call,
            characteristic=ctx["characteristic"],
            kind="attack",
            attack=attack,
            sources=sources,
            parts=parts,
            target_conditions=conditions,
            light=t.get("light", "bright"),
            expertise_keys=keys,
            target=t,
        )

    def _setup_attack(self, call: Call) -> Setup:
        ctx = self._attack_ctx(call)
        return self._target_setup(call, ctx, ctx["targets"][0])

    _setup_provoked_attack = _setup_attack

    def _do_attack(self, call: Call) -> Outcome:
        """Атака (L777-L831): validate every target first, then one roll for all."""
        st = call.state
        self._alive(st)
        if has_effect(st, NO_HANDS) and call.params["weapon_id"] not in ("", "natural"):
            raise fail(
                "weapon_id",
                "Руки стали ногами: держать предметы нельзя.",
                "Your hands are feet: you cannot hold items.",
            )
        ctx = self._attack_ctx(call)
        for t in ctx["targets"]:
            self._target_setup(call, ctx, t)
        ammo = ctx["profile"].get("ammo", "")
        if ctx["attack"] == "ranged" and ammo and self._ammo_id(st, ammo) is None:
            raise fail(
                "ammo",
                f"Нет боеприпасов: {ammo}.",
                f"No ammunition: {ammo}.",
            )
        return self._roll_check(call)

    _do_provoked_attack = _do_attack

    @staticmethod
    def _ammo_id(state: dict[str, Any], kind: str) -> str | None:
        want = kind.strip().casefold()
        for _area, _slot, card in iter_items(state["inventory"]):
            if (card.get("kind") or "").strip().casefold() == want:
                return card["id"]
        return None

    def _hit(
        self,
        call: Call,
        ctx: dict[str, Any],
        t: dict[str, Any],
        r: CheckResult,
        attacker: dict[str, Any],
        index: int,
    ) -> dict[str, Any]:
        """What one target's tier does: damage through the pipeline on a hit; on a miss a
        counterattack opening (melee, L787) or a stray shot at adjacent allies (ranged, L801)."""
        p, dice = call.params, self._need_dice(call)
        profile, attack = ctx["profile"], ctx["attack"]
        tier = 1 if t.get("guessed_wrong") else r.tier  # L590: a wrong square misses
        info: dict[str, Any] = {
            "name": t["name"],
            "tier": tier,
            "band": str(tier),
            "hit": tier >= 2,
            "total": r.total,
            "crit": r.crit,
            "doom": r.doom,
            "net": r.net,
            "expertise": r.expertise,
            "auto_miss": bool(t.get("guessed_wrong")),
        }
        line = profile.get(f"tier{tier}", "")
        sheet = t.get("sheet")
        if tier >= 2:
            rolled = cb.roll_line(
                line, dice, characteristics=_values(attacker), attr=ctx["characteristic"]
            )
            bonus = blessed_attack_bonus(attacker, ctx["characteristic"])  # L446
            if not ctx["spell"]:
                bonus += weapon_damage_bonus(attacker)  # Bloodlust (L1187)
            deals = bool(rolled and rolled["text"])  # a line that is all rider deals nothing
            amount = rolled["total"] + bonus if deals else 0
            info["damage_roll"] = rolled
            info["damage"] = amount
            info["rider"] = rolled["rider"] if rolled else ""
            if sheet is not None and deals:
                new, report = apply_damage(
                    sheet,
                    amount,
                    piercing=bool(profile.get("piercing")),
                    armour_order=p.get("armour_order") if index == 0 else None,
                    wound_slots=p.get("wound_slots") if index == 0 else None,
                    knock_out=p.get("knock_out", False),
                    spill=call.settings["damage_spill"],
                    dice=dice,
                )
                info["report"] = report.as_dict()
                info["state"] = new
            return info
        info["rider"] = cb.split_line(line)[1]
        if attack == "melee" and call.spec.key != "provoked_attack":
            info["counter"] = self._counter_opening(call, t, doom=r.doom)
        if attack == "ranged" and t.get("allies_adjacent", 0) > 0:
            stray = attacks.ranged_miss_allies(
                dice, allies_adjacent=t["allies_adjacent"], doom=r.doom
            )
            if stray["ally_hit"]:
                rolled = cb.roll_line(
                    profile.get(f"tier{stray['damage_tier']}", ""),
                    dice,
                    characteristics=_values(attacker),
                    attr=ctx["characteristic"],
                )
                stray["damage_roll"] = rolled
                stray["damage"] = rolled["total"] if rolled else 0
            info["stray"] = stray
        return info

    def _counter_opening(
        self, call: Call, t: dict[str, Any], *, doom: bool
    ) -> dict[str, Any] | None:
        """May the target counterattack (L839)? Only with a held melee weapon in reach (A3),
        a reaction left, and awake."""
        sheet = t.get("sheet")
        opening: dict[str, Any] = {"by": t["name"], "tier": 3 if doom else 2, "doom": doom}
        if t.get("target_reaction_used"):
            return None
        if sheet is None:
            opening["unchecked"] = True  # the Referee knows whether it holds a weapon
            return opening
        if sheet["dead"] or has_condition(sheet, "unconscious"):
            return None
        profile, item = cb.counter_profile(sheet, unarmed_allowed=call.settings["counter_unarmed"])
        if profile is None:
            return None
        distance = t.get("distance")
        if distance is not None and distance > cb.counter_reach(sheet, profile):
            return None
        opening["weapon"] = item
        return opening

    def _finish_attack(self, call: Call, result: CheckResult, out: Outcome, extra) -> Outcome:
        """Per-target tiers from the one roll, damage, crit's extra action (L815), fragile
        items (L789), ammunition and thrown weapons (L807), the counterattack choice."""
        ctx = self._attack_ctx(call)
        st = out.state
        results = []
        for i, t in enumerate(ctx["targets"]):
            r = result if i == 0 else self._other_target(call, ctx, t, result)
            results.append(self._hit(call, ctx, t, r, st, i))
        first = results[0]
        out.flags.update(hit=first["hit"], tier=first["tier"])
        out.band = first["band"]
        out.details["targets"] = results
        if ctx["targets"][0]["sheet"] is not None and not call.params["targets"]:
            out.details["target"] = first.get("state", ctx["targets"][0]["sheet"])
        provoked = call.spec.key == "provoked_attack"
        out = self._cost(out, "reaction" if provoked else "action")
        if result.crit:
            out.flags.update(
                attacks.crit_extra_action(on_own_turn=call.params["on_own_turn"] and not provoked)
            )
        self._spend_weapon(call, ctx, out)
        if first["hit"]:
            out.text = _join(
                out.text, _text(f"Урон: {first['damage']}.", f"Damage: {first['damage']}.")
            )
        for i, entry in enumerate(results):
            opening = entry.get("counter")
            if opening and not opening.get("unchecked") and ctx["targets"][i]["sheet"] is not None:
                return self._offer_counter(call, out, ctx["targets"][i]["sheet"], opening, i)
        return out

    _finish_provoked_attack = _finish_attack

    def _other_target(
        self, call: Call, ctx: dict[str, Any], t: dict[str, Any], first: CheckResult
    ) -> CheckResult:
        """The same faces read with another target's modifiers (L819); an expertise spent on
        the roll lifts every target's tier (never a doom)."""
        s = self._target_setup(call, ctx, t)
        r = evaluate(
            first.faces,
            value=s.value,
            advantages=s.advantages,
            disadvantages=s.disadvantages,
            bonus=s.bonus,
            characteristic=s.characteristic,
            kind="attack",
            force_tier3=s.force_tier3,
            force_tier3_on_doom=call.settings["unconscious_tier3_on_doom"],
        )
        if first.expertise and not r.doom:
            r = dataclasses.replace(r, tier=min(3, r.tier + 1), expertise=first.expertise)
        return r

    def _spend_weapon(self, call: Call, ctx: dict[str, Any], out: Outcome) -> None:
        st, card = out.state, ctx["card"]
        if card is None or ctx["spell"]:
            return
        profile = ctx["profile"]
        if ctx["attack"] == "ranged" and profile.get("ammo"):
            ammo = self._ammo_id(st, profile["ammo"])
            if ammo is not None:
                st["inventory"], _ = remove(st["inventory"], ammo)
                out.details["ammo_used"] = ammo  # L807: destroyed
        if ctx["attack"] == "ranged" and profile["type"] == "thrown":
            st["inventory"], thrown = remove(st["inventory"], card["id"])
            out.details["thrown_item"] = thrown  # L807: may be picked up
        elif card["fragile"] and ctx["attack"] == "melee":
            st["inventory"], broken = remove(st["inventory"], card["id"])
            out.details["broken_item"] = broken  # L789
            out.flags["broke"] = True

    def _offer_counter(
        self,
        call: Call,
        out: Outcome,
        counter_sheet: dict[str, Any],
        opening: dict[str, Any],
        index: int,
    ) -> Outcome:
        """The trigger has resolved; now the other side may spend its reaction (L835)."""
        out.options = [COUNTER, DECLINE]
        out.pick = 1
        out.chooser = self._chooser_for(counter_sheet)
        out.flags["reaction_by"] = opening["by"]
        out.flags["counterattack_open"] = True
        out.details["pending"] = self._pending(
            call,
            "counterattack",
            index=index,
            doom=opening["doom"],
            counter_sheet=counter_sheet,
        )
        out.text = _join(
            out.text,
            _text(
                f"{opening['by']} может контратаковать.",
                f"{opening['by']} may counterattack.",
            ),
        )
        return out

    def _choice_counterattack(self, outcome: Outcome, choices: list[str], call: Call) -> Outcome:
        pending = outcome.details["pending"]
        out = self._clear_pending(outcome)
        if choices[0] != COUNTER.key:
            out.flags["counterattack"] = False
            return out
        counter_sheet = self._current_sheet(out, pending)
        victim, info = self._counter_strike(
            counter_sheet,
            out.state,
            doom=pending["doom"],
            dice=self._need_dice(call),
            settings=call.settings,
        )
        out.state = victim
        out.details["counterattack"] = info
        out.flags.update(counterattack=True, reaction_spent_by=info["by"])
        out.text = _join(
            out.text,
            _text(f"Контратака: {info['amount']} урона.", f"Counterattack: {info['amount']}."),
        )
        return out

    @staticmethod
    def _current_sheet(out: Outcome, pending: dict[str, Any]) -> dict[str, Any]:
        """The counterattacker's sheet as the trigger left it."""
        index = pending.get("index", 0)
        targets = out.details.get("targets") or []
        if index < len(targets) and targets[index].get("state") is not None:
            return targets[index]["state"]
        if index == 0 and out.details.get("target") is not None:
            return out.details["target"]
        return pending["counter_sheet"]

    def _counter_strike(
        self,
        counter: dict[str, Any],
        victim: dict[str, Any],
        *,
        doom: bool,
        dice: Dice,
        settings: dict[str, Any],
        armour_order: list[str] | None = None,
        wound_slots: list[int] | None = None,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The weapon's tier-2 line, tier 3 after a doom; no check, so no crit or expertise
        (A4); attribute damage and riders apply, and Blessed unless switched off."""
        profile, item = cb.counter_profile(counter, unarmed_allowed=settings["counter_unarmed"])
        if profile is None:
            raise fail(
                "weapon",
                "Для контратаки нужно держать оружие ближнего боя.",
                "A counterattack needs a held melee weapon.",
            )
        tier = 3 if doom else 2
        values = _values(counter)
        allowed = {
            "agility_or_strength": ("agility", "strength"),
            "agility": ("agility",),
            "reason": ("reason",),
        }.get(profile.get("check") or "", ("strength",))
        attr = max(allowed, key=lambda k: values[k])
        rolled = cb.roll_line(
            profile.get(f"tier{tier}", ""), dice, characteristics=values, attr=attr
        )
        amount = rolled["total"] if rolled else 0
        if rolled and settings.get("counter_blessed", True):
            amount += blessed_attack_bonus(counter, attr)
        if rolled:
            amount += weapon_damage_bonus(counter)
        new, report = apply_damage(
            victim,
            amount,
            piercing=bool(profile.get("piercing")),
            armour_order=armour_order,
            wound_slots=wound_slots,
            spill=settings["damage_spill"],
            dice=dice,
        )
        return new, {
            "by": counter["name"],
            "weapon": item,
            "tier": tier,
            "damage_roll": rolled,
            "amount": amount,
            "report": report.as_dict(),
        }

    def _do_counterattack(self, call: Call) -> Outcome:
        """Контратака (L839-L843) from the counterattacker's own sheet."""
        st, p = call.state, call.params
        self._alive(st)
        if p["provoked"]:
            raise fail(
                "provoked",
                "Провалившего провоцированную атаку контратаковать нельзя.",
                "A creature that fails a provoked attack cannot be counterattacked.",
            )
        if p["reaction_used"]:
            raise fail("reaction", "Реакция уже потрачена.", "The reaction is spent.")
        if has_condition(st, "unconscious"):
            raise fail("reaction", "Без сознания реакций нет.", "No reactions.")
        profile, _item = cb.counter_profile(st, unarmed_allowed=call.settings["counter_unarmed"])
        if profile is None:
            raise fail(
                "weapon",
                "Для контратаки нужно держать оружие ближнего боя.",
                "A counterattack needs a held melee weapon.",
            )
        if p["distance"] is not None and p["distance"] > cb.counter_reach(st, profile):
            raise fail("distance", "Цель вне досягаемости оружия.", "Out of the weapon's reach.")
        victim = self._sheet_param(call, p["target"], "target")
        dummy = victim or clean_character(self.default_state(), settings=call.settings)
        new, info = self._counter_strike(
            st,
            dummy,
            doom=p["doom"],
            dice=self._need_dice(call),
            settings=call.settings,
            armour_order=p["armour_order"],
            wound_slots=p["wound_slots"],
        )
        details: dict[str, Any] = {"counterattack": info}
        if victim is not None:
            details["target"] = new
        else:
            info.pop("report")
        out = self._outcome(
            call,
            state=st,
            text=_text(f"Контратака: {info['amount']} урона.", f"Counterattack: {info['amount']}."),
            details=details,
            flags={"damage": info["amount"]},
        )
        return self._cost(out, "reaction")

    # --- grab, escape, knockback (L735-L757) --------------------------------------------------

    def _maneuver_target(self, call: Call) -> tuple[dict[str, Any] | None, str, str]:
        p = call.params
        sheet = self._sheet_param(call, p["target"], "target")
        size = sheet["size"] if sheet else p["target_size"]
        name = p["target_name"] or (sheet or {}).get("name") or "#1"
        return sheet, size, name

    def _check_reachable(self, call: Call) -> None:
        st, p = call.state, call.params
        self._alive(st)
        _sheet, size, _name = self._maneuver_target(call)
        if cb.size_steps(size, st["size"]) > 0:
            raise fail(
                "target",
                "Цель должна быть вашего размера или меньше.",
                "The target must be your size or smaller.",
            )
        if p["distance"] > cb.reach(st["size"]):
            raise fail(
                "distance",
                "Цель вне досягаемости.",
                "The target is out of reach.",
            )

    def _setup_grab(self, call: Call) -> Setup:
        return self._b_setup(call, characteristic="strength")

    _setup_knockback = _setup_grab

    def _setup_escape(self, call: Call) -> Setup:
        chosen = call.params.get("characteristic")
        if chosen not in ("agility", "strength"):
            values = _values(call.state)
            chosen = "agility" if values["agility"] >= values["strength"] else "strength"
        return self._b_setup(call, characteristic=chosen)

    def _do_grab(self, call: Call) -> Outcome:
        """Захват (L735-L741): one grab at a time."""
        _s, _size, name = self._maneuver_target(call)
        grabbing = call.params["grabbing"]
        if grabbing and grabbing != name:
            raise fail(
                "grabbing",
                "В захвате можно держать только одно существо.",
                "You can hold only one creature at a time.",
            )
        self._check_reachable(call)
        return self._roll_check(call)

    def _do_knockback(self, call: Call) -> Outcome:
        """Отбросить (L751-L757)."""
        self._check_reachable(call)
        return self._roll_check(call)

    def _do_escape(self, call: Call) -> Outcome:
        """Вырваться (L743-L749): only while grabbed."""
        self._alive(call.state)
        if not has_condition(call.state, "grabbed"):
            raise fail("condition", "Вы не схвачены.", "You are not grabbed.")
        return self._roll_check(call)

    def _maneuver_counter(
        self, call: Call, out: Outcome, result: CheckResult, sheet: dict[str, Any] | None, name: str
    ) -> Outcome:
        entry = {
            "name": name,
            "sheet": sheet,
            "distance": call.params["distance"],
            "target_reaction_used": call.params["target_reaction_used"],
        }
        opening = self._counter_opening(call, entry, doom=result.doom)
        out.details["counter"] = opening
        if opening and sheet is not None and not opening.get("unchecked"):
            return self._offer_counter(call, out, sheet, opening, 0)
        return out

    def _finish_grab(self, call: Call, result: CheckResult, out: Outcome, extra) -> Outcome:
        sheet, _size, name = self._maneuver_target(call)
        out = self._cost(out, "maneuver")
        if result.tier == 1:
            return self._maneuver_counter(call, out, result, sheet, name)
        if result.tier == 2:
            out.options = [
                Option("push_1", "Толчок 1", "Push 1"),
                Option("shift", "Вы делаете Шаг", "You Shift"),
            ]
            out.pick, out.chooser = 1, "player"
            out.details["pending"] = self._pending(call, "maneuver_option")
            return out
        out.flags["grabbing"] = name
        if sheet is not None:
            grabbed, _ = add_condition(
                sheet, "grabbed", by=call.state["name"], range_=cb.reach(call.state["size"])
            )
            out.details["target"] = grabbed
        return out

    def _choice_maneuver_option(self, outcome: Outcome, choices: list[str], call: Call) -> Outcome:
        out = self._clear_pending(outcome)
        out.flags["choice"] = choices[0]
        if choices[0] == "push_1":
            out.flags["push"] = 1
        return out

    def _finish_knockback(self, call: Call, result: CheckResult, out: Outcome, extra) -> Outcome:
        sheet, _size, name = self._maneuver_target(call)
        out = self._cost(out, "maneuver")
        if result.tier == 1:
            return self._maneuver_counter(call, out, result, sheet, name)
        out.flags["push"] = result.tier - 1  # 12–16 push 1, 17+ push 2 (L755-L757)
        return out

    def _finish_escape(self, call: Call, result: CheckResult, out: Outcome, extra) -> Outcome:
        sheet, _size, name = self._maneuver_target(call)
        out = self._cost(out, "maneuver")
        if result.tier == 1:
            return self._maneuver_counter(call, out, result, sheet, name)
        if result.tier == 2:
            out.options = [
                Option(
                    "break_free",
                    "Вырваться (схвативший может контратаковать)",
                    "Break free (the grabber may counterattack)",
                ),
                Option("stay", "Остаться схваченным", "Stay grabbed"),
            ]
            out.pick, out.chooser = 1, "player"
            out.details["pending"] = self._pending(call, "escape_option")
            return out
        out.state, _ = remove_condition(out.state, "grabbed")
        out.flags.update(free=True, free_step=1)  # L749: 1 square without provoking
        return out

    def _choice_escape_option(self, outcome: Outcome, choices: list[str], call: Call) -> Outcome:
        out = self._clear_pending(outcome)
        if choices[0] != "break_free":
            out.flags["free"] = False
            return out
        out.state, _ = remove_condition(out.state, "grabbed")
        out.flags["free"] = True
        sheet, _size, name = self._maneuver_target(call)
        result = CheckResult.from_dict(out.details["check"])
        # L748: breaking free at 12–16 opens a counterattack as a tier 1 would (never a doom)
        result = dataclasses.replace(result, doom=False)
        return self._maneuver_counter(call, out, result, sheet, name)

    # --- movement (L851-L886) -----------------------------------------------------------------

    def _do_move(self, call: Call) -> Outcome:
        """Передвижение / Шаг (L719-L721, L851-L867): the path's cost against speed (or what is
        left of the current Move), provoked attacks and where the move pauses for them (A1)."""
        st, p = call.state, call.params
        self._alive(st)
        steps = p["path"]
        if p["mode"] == "shift":
            why = mv.shift_allowed(steps, start_difficult=p["start_difficult"])
            if why:
                raise fail(
                    "path",
                    "Шаг — 1 клетка, не в труднопроходимую местность и не по ней.",
                    "A Shift is 1 square, never into or within difficult terrain.",
                )
        budget = speed(st)
        if p["squeezing"]:
            budget //= 2  # L682
        if p["grabbing_size"] and cb.size_steps(p["grabbing_size"], st["size"]) <= 0:
            budget //= 2  # L450: holding a creature your size or smaller
        limit = budget if p["move_left"] is None else min(p["move_left"], budget)
        cost, per_step = mv.path_cost(steps, st["speeds"])
        if p["mode"] == "shift":
            cost = 1
        elif cost > limit:
            raise fail(
                "path",
                f"Путь стоит {cost} клеток, а доступно {limit}.",
                f"The path costs {cost} squares; {limit} are available.",
            )
        provokes = mv.provoked_by(steps, mode=p["mode"])
        hazards = [s["hazard"] for s in steps if s["hazard"]]
        checks = [c for s in per_step for c in s["checks"]]
        submerged = bool(steps) and steps[-1]["swim"] and not st["speeds"]["swim"]
        out = self._outcome(
            call,
            state=st,
            text=_text(f"Пройдено: {cost} клеток.", f"Moved: {cost} squares."),
            flags={"squares": cost, "provokes": bool(provokes), "checks": checks},
            details={
                "cost": cost,
                "per_step": per_step,
                "provoked_attacks": provokes,
                "hazards": hazards,
                "limit": limit,
                "submerged": submerged,  # L861: disadvantage on Agility and Strength checks
            },
        )
        return self._cost(out, "maneuver")

    def _setup_jump(self, call: Call) -> Setup:
        p = call.params
        sources = ["run_up"] if p["moved_before"] >= mv.RUN_UP_SQUARES else []  # L869
        parts = {"frog": 2} if has_effect(call.state, "backlash:77-78") else {}  # L1349
        return self._b_setup(call, characteristic=p["characteristic"], sources=sources, parts=parts)

    def _do_jump(self, call: Call) -> Outcome:
        """Прыжок (L869-L875): part of a move; you cannot jump out of difficult terrain."""
        self._alive(call.state)
        if call.params["from_difficult"]:
            raise fail(
                "from_difficult",
                "Из труднопроходимой местности выпрыгнуть нельзя.",
                "You cannot jump out of difficult terrain.",
            )
        return self._roll_check(call)

    def _finish_jump(self, call: Call, result: CheckResult, out: Outcome, extra) -> Outcome:
        p = call.params
        value = effective_characteristic(out.state, p["characteristic"])
        length, height = mv.jump_length(result.tier, value)
        left = p["move_left"]
        if left is None:
            left = max(0, speed(out.state) - p["moved_before"])
        reach = min(length, left)  # the whole move, jump included, ≤ speed (L869)
        out.flags.update(length=reach, height=height if reach else 0, table_length=length)
        out.details["movement_left"] = left
        if p["gap"] and reach < p["gap"]:
            out.flags["falls"] = True  # A7: a short jump over a gap falls
            out.details["fall_feet"] = p["gap_feet"]
        out.text = _join(out.text, _text(f"Прыжок: {reach} клеток.", f"Jump: {reach} squares."))
        return out

    def _do_teleport(self, call: Call) -> Outcome:
        """Телепортация (L879-L886): provokes nothing; prone stays prone; grabs end."""
        st, p = call.state, call.params
        problems = mv.teleport_problems(
            distance=p["distance"],
            reach=p["reach"],
            line_of_effect=p["line_of_effect"],
            origin_line_of_effect=p["origin_line_of_effect"],
            other=p["other"],
            occupied=p["occupied"],
        )
        if problems:
            raise fail(
                "teleport",
                "Телепортация невозможна: " + ", ".join(problems) + ".",
                "Cannot teleport: " + ", ".join(problems) + ".",
            )
        st, was_grabbed = remove_condition(st, "grabbed")
        return self._outcome(
            call,
            state=st,
            flags={
                "grab_ended": was_grabbed,
                "releases_grab": True,  # a grab this creature holds ends too (L886)
                "prone": has_condition(st, "prone"),
                "provokes": False,
            },
        )

    def _do_forced_move(self, call: Call) -> Outcome:
        """Толчок / Смещение on this creature (L906-L925): the whole distance first, then a
        fall if the last square is over a void (L925, L616-L622). The fall's resistance roll
        needs a reaction (A8)."""
        st, p = call.state, call.params
        squares = p["distance"] if p["squares"] is None else p["squares"]
        flier = st["speeds"]["fly"] > 0 and not has_condition(st, "prone")
        vertical = p["vertical"] or flier  # L921: forcing a flier is always vertical
        problems = mv.forced_problems(
            mover_size=p["mover_size"],
            target_size=st["size"],
            magical=p["magical"],
            distance=p["distance"],
            squares=squares,
            path=p["path"],
            vertical=vertical,
        )
        if problems:
            raise fail(
                "forced",
                "Принудительное перемещение невозможно: " + ", ".join(problems) + ".",
                "Illegal forced movement: " + ", ".join(problems) + ".",
            )
        end = mv.forced_end(p["path"], squares, flier=flier)
        if end["fall_feet"] < 10:
            return self._outcome(
                call,
                state=st,
                text=_text(f"Сдвинут на {squares}.", f"Moved {squares}."),
                flags={"fell": False, "squares": squares},
                details={"forced": end},
            )
        fall_params = {
            "feet": end["fall_feet"],
            "resist": p["reaction_available"],
            "sources": p["sources"],
            "bonus": p["bonus"],
            "wound_slots": p["wound_slots"],
            "armour_order": p["armour_order"],
        }
        fall_call = self._call("fall", st, call.dice, {**fall_params, "settings": call.settings})
        out = self._do_fall(fall_call)
        out.move = call.spec.key
        out.details["forced"] = end
        out.flags.update(fell=True, squares=squares)
        return out

    def _setup_tip_object(self, call: Call) -> Setup:
        info = mv.tip_by_force(call.state["size"], call.params["object_size"])
        return self._b_setup(call, characteristic="strength", sources=info["sources"])

    def _do_tip_object(self, call: Call) -> Outcome:
        """Опрокидывание (L939): smaller than you a maneuver; your size to +2 an action and a
        check; larger not by force alone."""
        st, p = call.state, call.params
        self._alive(st)
        info = mv.tip_by_force(st["size"], p["object_size"])
        if info["cost"] is None:
            raise fail(
                "object_size",
                "Предмет больше чем на две категории крупнее не опрокинуть силой.",
                "An object more than two sizes larger cannot be tipped by force.",
            )
        if not info["check"]:
            out = self._outcome(call, state=st, flags={"tipped": True})
            return self._cost(out, "maneuver")
        return self._roll_check(call)

    def _finish_tip_object(self, call: Call, result: CheckResult, out: Outcome, extra) -> Outcome:
        out = self._cost(out, "action")
        if result.tier == 3:
            out.flags["tipped"] = True
        elif result.tier == 1:
            out.flags["tipped"] = False
        else:
            out.options = [
                Option(
                    "tip", "Опрокинуть и получить 1d6 пробивающего", "Tip it, take 1d6 piercing"
                ),
                Option("leave", "Не опрокидывать", "Leave it"),
            ]
            out.pick, out.chooser = 1, "player"
            out.details["pending"] = self._pending(call, "tip_option")
        return out

    def _choice_tip_option(self, outcome: Outcome, choices: list[str], call: Call) -> Outcome:
        out = self._clear_pending(outcome)
        if choices[0] != "tip":
            out.flags["tipped"] = False
            return out
        face = self._need_dice(call).roll(6)
        out.state, report = apply_damage(
            out.state,
            face,
            piercing=True,
            armour_order=call.params["armour_order"],
            wound_slots=call.params["wound_slots"],
            spill=call.settings["damage_spill"],
            dice=call.dice,
        )
        out.flags["tipped"] = True
        out.details["strain"] = {"roll": face, "report": report.as_dict()}
        return out

    def _do_falling_object(self, call: Call) -> Outcome:
        """A tipped object lands on this creature: 1d10 + 2d10 per size larger (L935)."""
        st, p = call.state, call.params
        count = mv.tip_dice(p["object_size"], st["size"])
        if count == 0:
            raise fail(
                "object_size",
                "Урон наносит предмет размера существа или крупнее.",
                "Only an object the creature's size or larger deals this damage.",
            )
        dice = self._need_dice(call)
        faces = [dice.roll(10) for _ in range(count)]
        st, report = apply_damage(
            st,
            sum(faces),
            armour_order=p["armour_order"],
            wound_slots=p["wound_slots"],
            spill=call.settings["damage_spill"],
            dice=dice,
        )
        return Outcome(
            move=call.spec.key,
            total=sum(faces),
            faces=faces,
            state=st,
            text=_text(f"{count}d10: {sum(faces)} урона.", f"{count}d10: {sum(faces)} damage."),
            details={"dice": count, "report": report.as_dict()},
            flags={"died": report.died},
        )

    # --- pets (L890-L902) ---------------------------------------------------------------------

    def _setup_command_pet(self, call: Call) -> Setup:
        return self._b_setup(call, characteristic="reason")

    def _do_command_pet(self, call: Call) -> Outcome:
        """Команда (L723, L890): a check only for something hard or dangerous, never for a
        summoned creature (L1293)."""
        p = call.params
        self._alive(call.state)
        pet = self._sheet_param(call, p["target"], "target")
        summoned = p["summoned"] or bool(pet and pet["companion"]["summoned"])
        if not p["check"] or summoned:
            out = self._outcome(
                call,
                state=call.state,
                flags={"obeys": True, "checked": False, "summoned": summoned},
                details={"order": p["order"]},
            )
            return self._cost(out, "maneuver")
        return self._roll_check(call)

    def _finish_command_pet(self, call: Call, result: CheckResult, out: Outcome, extra) -> Outcome:
        out = self._cost(out, "maneuver")
        out.flags.update(obeys=result.tier >= 2, checked=True)
        pet = self._sheet_param(call, call.params["target"], "target")
        if result.tier == 2:
            out.flags["pet_weakened"] = True
            if pet is not None:
                out.details["target"], _ = add_condition(pet, "weakened", by="command")
        return out

    # --- inventory maneuvers (L727-L729) ------------------------------------------------------

    def _do_pick_up(self, call: Call) -> Outcome:
        """Подобрать предмет (L729): within reach, into free hand slots."""
        st, p = call.state, call.params
        if p["distance"] > cb.reach(st["size"]):
            raise fail("distance", "Предмет вне досягаемости.", "Out of reach.")
        st["inventory"] = place(st["inventory"], p["card"], HANDS)
        return self._cost(self._outcome(call, state=st), "maneuver")

    def _do_draw_from_belt(self, call: Call) -> Outcome:
        """Достать с пояса (L727): one or two belt items into the hands, one maneuver."""
        st = call.state
        for item_id in call.params["item_ids"]:
            found = find(st["inventory"], item_id)
            if found is None or found[0] != BELT:
                raise fail("item_ids", f"На поясе нет «{item_id}».", f"No {item_id!r} on the belt.")
            st["inventory"], card = remove(st["inventory"], item_id)
            st["inventory"] = place(st["inventory"], card, HANDS)
        return self._cost(self._outcome(call, state=st), "maneuver")

    # --- spells (L1212-L1365) -----------------------------------------------------------------

    def _cast_ctx(self, call: Call) -> dict[str, Any]:
        st, p = call.state, call.params
        card = spell_rules.held_spellbook(st, p["item_id"])
        spell = card["spell"]
        profile = {
            "type": spell["attack"] or "melee",
            "check": "reason",
            "range": spell["range"],
            "reach": max(1, spell["range"]) if spell["attack"] == "melee" else 1,
            "tier1": spell["tier1"],
            "tier2": spell["tier2"],
            "tier3": spell["tier3"],
            "piercing": spell["piercing"],
            "ammo": "",
        }
        targets = self._attack_targets(call)
        return {
            "card": card,
            "spell_card": spell,
            "profile": profile,
            "attack": spell["attack"],
            "characteristic": "reason",
            "targets": targets,
            "names": [t["name"] for t in targets],
            "improvised": False,
            "spell": True,
            "expertise_keys": (spell_rules.discipline_expertise(spell),),
        }

    def _setup_cast(self, call: Call) -> Setup:
        """2d10 + Reason (L1289); a spell that is also an attack takes attack modifiers too
        (L319); only the discipline's magic expertise fits (L1226)."""
        ctx = self._cast_ctx(call)
        if ctx["attack"]:
            return self._target_setup(call, ctx, ctx["targets"][0])
        return self._b_setup(
            call,
            characteristic="reason",
            kind="casting",
            expertise_keys=ctx["expertise_keys"],
        )

    def _do_cast(self, call: Call) -> Outcome:
        """Сотворение (L1289-L1305): validate the book, the casting time and the targets,
        then roll."""
        st, p = call.state, call.params
        self._alive(st)
        if has_effect(st, NO_HANDS):
            raise fail(
                "item_id",
                "Руки стали ногами: книгу не удержать.",
                "Your hands are feet: you cannot hold the book.",
            )
        ctx = self._cast_ctx(call)
        has_target = bool(p["targets"]) or p["target"] is not None or p["target_name"]
        targets = ctx["targets"] if has_target else []
        problems = spell_rules.target_problems(
            ctx["spell_card"],
            targets,
            caster=st["name"],
            in_combat=p["in_combat"],
            line_of_effect=p["line_of_effect"],
            origin_distance=p["origin_distance"],
        )
        if problems:
            raise RulesError({"targets": problems})
        if ctx["attack"]:
            for t in targets:
                self._target_setup(call, ctx, t)
        return self._roll_check(call)

    def _finish_cast(self, call: Call, result: CheckResult, out: Outcome, extra) -> Outcome:
        """Tier after expertise, then backlash 99–100 (A16); a doom or a chaos 1 is backlash
        instead of the spell (L1297-L1305); the book's dice roll unless it was a crit."""
        p, dice = call.params, self._need_dice(call)
        ctx = self._cast_ctx(call)
        st = out.state
        card, spell = ctx["card"], ctx["spell_card"]
        tier, doom = spell_rules.tier_after_backlash(
            result.tier, result.doom, tier_down=tier_down(st)
        )
        info: dict[str, Any] = {"tier": tier, "doom": doom, "rank": spell["rank"]}
        backlash = doom
        if not doom and tier == 1:
            face, backlash = spell_rules.chaos_roll(dice)
            info["chaos"] = face
        if backlash:
            st, event = spell_rules.roll_backlash(
                st,
                spell["rank"],
                dice,
                spell=spell["name"] or card["name"],
                object_target=p["object_target"],
                touching_ground=p["touching_ground"],
                armour_order=p["armour_order"],
                wound_slots=p["wound_slots"],
                spill=call.settings["damage_spill"],
            )
            info["backlash"] = event
            text = _text(
                f"Отдача ({event['rolls'][-1]['value']}): {event['row']['ru']}",
                f"Backlash ({event['rolls'][-1]['value']}): {event['row']['en']}",
            )
        else:
            line = spell.get(f"tier{tier}", "")
            info["effect"] = line
            text = _text(f"Эффект {tier}-й ступени: {line}", f"Tier {tier} effect: {line}")
            if ctx["attack"]:
                info["targets"] = []
                for i, t in enumerate(ctx["targets"]):
                    r = result if i == 0 else self._other_target(call, ctx, t, result)
                    if i == 0:
                        r = dataclasses.replace(r, tier=tier)
                    else:  # backlash 99-100 lowers every target's tier (A16)
                        lowered, _doom = spell_rules.tier_after_backlash(
                            r.tier, r.doom, tier_down=tier_down(st)
                        )
                        r = dataclasses.replace(r, tier=lowered)
                    info["targets"].append(self._hit(call, ctx, t, r, st, i))
                first = info["targets"][0]
                if first.get("state") is not None and not p["targets"]:
                    out.details["target"] = first["state"]
            effect = spell_rules.spell_effect(card, tier=tier, caster=st["name"])
            if effect is not None:
                st["effects"] = [e for e in st["effects"] if e["id"] != effect["id"]]
                st["effects"].append(effect)
                info["lasting"] = effect
            if spell["target"] == "summoned" and tier >= 2:
                info["summoned"] = spell_rules.summoned_sheets(
                    spell, caster=st["name"], default_sheet=self.default_state()
                )
        found = find(st["inventory"], card["id"])
        if not result.crit and found is not None:  # a drawn book may have left (rows 31-34)
            new_book, wear = spell_rules.roll_book(found[2], dice)
            st["inventory"] = replace_card(st["inventory"], new_book)
            info["book_wear"] = wear
        out.state = st
        out.band = str(tier)
        out.flags.update(
            tier=tier,
            doom=doom,
            backlash=backlash,
            crit=result.crit,
            book_empty=bool(info.get("book_wear") and info["book_wear"]["exhausted"]),
            gone=bool(info.get("backlash", {}).get("gone")),
        )
        if result.crit and ctx["attack"]:
            out.flags.update(attacks.crit_extra_action(on_own_turn=p["on_own_turn"]))
        out.details["cast"] = info
        out.text = text
        timing = spell["casting_time"]
        return self._cost(out, "free" if timing == "out_of_combat" else timing)

    def _do_backlash(self, call: Call) -> Outcome:
        """Отдача (L1297-L1365) on its own, for a Referee rolling it by hand."""
        p = call.params
        st, event = spell_rules.roll_backlash(
            call.state,
            p["rank"],
            self._need_dice(call),
            spell=p["spell"],
            object_target=p["object_target"],
            touching_ground=p["touching_ground"],
            armour_order=p["armour_order"],
            wound_slots=p["wound_slots"],
            spill=call.settings["damage_spill"],
        )
        value = event["rolls"][-1]["value"]
        return Outcome(
            move=call.spec.key,
            total=value,
            faces=[f for r in event["rolls"] for f in r["faces"]],
            state=st,
            text=_text(event["row"]["ru"], event["row"]["en"]),
            details={"backlash": event},
            flags={"gone": bool(event.get("gone"))},
        )

    def _do_end_spell(self, call: Call) -> Outcome:
        """The caster ends a spell for free (L1277)."""
        st = call.state
        effect_id = call.params["effect_id"]
        before = len(st["effects"])
        st["effects"] = [
            e for e in st["effects"] if not (e["id"] == effect_id and e.get("key") == "spell")
        ]
        return self._outcome(call, state=st, flags={"ended": len(st["effects"]) != before})

    # --- the Miasma (L1162-L1188) -------------------------------------------------------------

    def _setup_miasma_save(self, call: Call) -> Setup:
        st = call.state
        support = miasma_rules.advantage_from_travel(call.params["travel"], st["name"])
        return self._b_setup(
            call,
            characteristic="reason",
            kind="resistance",
            parts={"cruelty": miasma_rules.save_penalty(st)},  # L1174
            advantages=support,  # Counter the Miasma (L1016-L1018)
        )

    def _do_miasma_save(self, call: Call) -> Outcome:
        """Бросок против Миазмы (L1166-L1174), made by each person (A12)."""
        st = call.state
        self._alive(st)
        if not miasma_rules.is_person(st):
            raise fail(
                "kind",
                "Бросок делают люди — персонажи и наёмники.",
                "Persons make this save: PCs and hirelings.",
            )
        if st["miasma_lost"]:
            return self._outcome(
                call,
                state=st,
                text=_text(
                    "Потерян для Миазмы: новых эффектов не бывает.",
                    "Lost to the Miasma: no new effects.",
                ),
                flags={"skipped": True},
            )
        return self._roll_check(call)

    def _finish_miasma_save(self, call: Call, result: CheckResult, out: Outcome, extra) -> Outcome:
        p = call.params
        tier = min(3, result.tier + (1 if p["lifted"] else 0))  # A12: another's 17+
        out.band = str(tier)
        out.flags.update(tier=tier, lifted=p["lifted"])
        out.details["miasma_save"] = {"name": out.state["name"], "tier": tier}
        if p["defer"]:
            out.flags["deferred"] = True
            return out
        if tier == 1:
            out.state, event = miasma_rules.gain_cruelty(out.state, self._need_dice(call))
            out.details["miasma"] = event
            out.flags.update(cruelty=out.state["cruelty"], npc=bool(event.get("npc")))
        elif tier == 3:
            out.options = [
                Option("clear_cruelty", "Снять всю свою жестокость", "Clear all your cruelty"),
                Option(
                    "lift_other",
                    "Поднять на ступень бросок другого",
                    "Raise another's save by a tier",
                ),
            ]
            out.pick, out.chooser = 1, "player"
            out.details["pending"] = self._pending(call, "miasma_choice")
        return out

    def _choice_miasma_choice(self, outcome: Outcome, choices: list[str], call: Call) -> Outcome:
        out = self._clear_pending(outcome)
        if choices[0] == "clear_cruelty":
            out.state, ended = miasma_rules.clear_cruelty(out.state)
            out.details["cruelty_cleared"] = ended
        else:
            out.flags["lift_other"] = True  # the other save is re-resolved with ``lifted``
        return out

    def _do_leave_miasma(self, call: Call) -> Outcome:
        st, ended = miasma_rules.leave_miasma(call.state)
        return self._outcome(call, state=st, details={"effects_ended": ended})

    def _do_miasma_expertise(self, call: Call) -> Outcome:
        st = miasma_rules.grant_lying_expertise(call.state, call.params["expertise"])
        return self._outcome(call, state=st)

    def miasma_saves(
        self,
        characters: list[dict[str, Any]],
        *,
        dice: Dice,
        travel: dict[str, Any] | None = None,
        expertise: dict[int, str] | None = None,
        settings: dict[str, Any] | None = None,
    ) -> list[Outcome]:
        """A12 step 1: every person's save, deferred (nothing applied yet). ``expertise`` maps a
        character index to the expertise it spends if the roll allows one."""
        outs = []
        for i, ch in enumerate(characters):
            if not miasma_rules.is_person(ch) or ch.get("dead"):
                outs.append(
                    Outcome(move="miasma_save", state=copy.deepcopy(ch), flags={"skipped": True})
                )
                continue
            out = self.resolve(
                "miasma_save", ch, dice=dice, settings=settings, travel=travel, defer=True
            )
            if out.pending:
                key = (expertise or {}).get(i, "none")
                keys = {o.key for o in out.options}
                out = self.apply_choice(out, [key if key in keys else "none"], dice=dice)
            outs.append(out)
        return outs

    def miasma_resolve(
        self,
        characters: list[dict[str, Any]],
        saves: list[Outcome],
        choices: dict[int, str | int],
        *,
        dice: Dice,
    ) -> list[Outcome]:
        """A12 step 2: each 17+ roller either clears its cruelty (``"clear"``) or lifts another
        person's save (that person's index); then cruelty and table rolls are applied."""
        tiers = {i: s.flags.get("tier") for i, s in enumerate(saves) if not s.flags.get("skipped")}
        rolled = dict(tiers)
        for i, choice in choices.items():
            if choice == "clear":
                continue
            if rolled.get(i) != 3:
                raise fail("choices", "Поднимает только тот, у кого 17+.", "Only a 17+ lifts.")
            j = int(choice)
            if j == i or j not in tiers:
                raise fail("choices", "Поднять можно бросок другого.", "Lift another's save.")
            tiers[j] = min(3, tiers[j] + 1)  # A12: lifted to 2 cancels the cruelty gain
        for i, choice in choices.items():
            if choice == "clear" and tiers.get(i) != 3:
                raise fail("choices", "Снимает жестокость только 17+.", "Only a 17+ clears.")
        results = []
        for i, ch in enumerate(characters):
            st = copy.deepcopy(ch)
            tier = tiers.get(i)
            out = Outcome(move="miasma_resolve", band=str(tier) if tier else None, state=st)
            if tier == 1:
                out.state, event = miasma_rules.gain_cruelty(st, dice)
                out.details["miasma"] = event
            elif tier == 3 and choices.get(i) == "clear":
                out.state, ended = miasma_rules.clear_cruelty(st)
                out.details["cruelty_cleared"] = ended
            out.flags["tier"] = tier
            results.append(out)
        return results

    # --- travel roles (L993-L1156) ------------------------------------------------------------

    def _travel_ctx(self, call: Call) -> dict[str, Any]:
        p, st = call.params, call.state
        task = p["travel_task"]
        travel = travel_rules.ensure_role(
            p["travel"], st["name"], task, allies=p["allies"], quarry=p["quarry"]
        )
        return {"task": task, "travel": travel}

    def _setup_travel_role(self, call: Call) -> Setup:
        p, st = call.params, call.state
        ctx = self._travel_ctx(call)
        task = TASKS_BY_KEY[ctx["task"]]
        allowed = task.characteristics
        chosen = p["characteristic"]
        if chosen not in allowed:
            values = _values(st)
            chosen = max(allowed, key=lambda k: values[k])
        sources, bonus = travel_rules.role_modifiers(ctx["travel"], st["name"])
        parts = {"help_everyone": bonus}
        if ctx["task"] == "forage" and has_effect(st, "miasma:gluttony"):
            parts["gluttony"] = travel_rules.FORAGE_BONUS_GLUTTONY  # L1183
        return self._b_setup(call, characteristic=chosen, sources=sources, parts=parts)

    def _do_travel_role(self, call: Call) -> Outcome:
        """A role task's check, in the day's order (L960)."""
        st, p = call.state, call.params
        self._alive(st)
        if has_effect(st, SLOTH):
            raise fail(
                "travel_task",
                "Под «Ленью» вы отказываетесь от дорожных ролей.",
                "Under Sloth you refuse travel roles.",
            )
        if p["travel_task"] == "track_creature" and not p["quarry"].strip():
            raise fail(
                "quarry",
                "Назовите, кого выслеживаете; Рефери должен согласиться.",
                "Name the quarry; the Referee must agree.",
            )
        ctx = self._travel_ctx(call)
        travel_rules.check_order(ctx["travel"], st["name"], ctx["task"])
        return self._roll_check(call)

    def _finish_travel_role(self, call: Call, result: CheckResult, out: Outcome, extra) -> Outcome:
        ctx = self._travel_ctx(call)
        name, task, tier = out.state["name"], ctx["task"], result.tier
        travel, info = travel_rules.apply_task(
            ctx["travel"], name, task, tier, dice=self._need_dice(call)
        )
        spec = TASKS_BY_KEY[task]
        ru, en = spec.results[str(tier)]
        out.text = _join(_text(f"{spec.ru}: {ru}", f"{spec.en}: {en}"), *self._notes(result))
        out.details["travel"] = travel
        out.details["travel_result"] = info
        out.flags.update(lost=travel["lost"], referee_prompt=info.get("referee_prompt", ""))
        options = travel_rules.choice_options(task, tier)
        if options:
            out.options = [Option(k, ru_, en_) for k, ru_, en_ in options]
            out.pick, out.chooser = 1, "player"
            out.details["pending"] = self._pending(call, "travel_choice", task=task, tier=tier)
        return out

    @staticmethod
    def _notes(result: CheckResult) -> list[Text]:
        notes = []
        if result.crit:
            notes.append(_text("Крит.", "Crit."))
        if result.doom:
            notes.append(_text("Рок.", "Doom."))
        return notes

    def _choice_travel_choice(self, outcome: Outcome, choices: list[str], call: Call) -> Outcome:
        pending = outcome.details["pending"]
        out = self._clear_pending(outcome)
        travel, info = travel_rules.apply_task_choice(
            out.details["travel"], pending["task"], pending["tier"], choices[0]
        )
        out.details["travel"] = travel
        out.details["travel_choice"] = info
        return out

    # --- crafting and identification (L1369-L1423) --------------------------------------------

    def _do_start_project(self, call: Call) -> Outcome:
        st = call.state
        project = validate(PROJECT, call.params["project"], path="project")
        if any(pr["id"] == project["id"] for pr in st["projects"]):
            raise fail("project.id", "Такой проект уже есть.", "That project exists.")
        st["projects"].append(project)
        return self._outcome(call, state=clean_character(st, settings=call.settings))

    def _craft_rolls(self, call: Call) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """One "Craft gear" activity's rolls (L1399-L1401): no tiers; the total is crafting
        points, at least 1, 0 on a doom; a crit gives another roll, chained (A19); each
        expertise +4, at most two, each spending a use (A18) on the activity's first roll."""
        st, p = call.state, call.params
        keys = list(dict.fromkeys(p["expertises"]))
        for key in keys:
            entry = next((e for e in st["expertises"] if e["key"] == key), None)
            if entry is None or entry["uses"] < 1:
                raise fail(
                    "expertises", f"Нет применений экспертизы {key}.", f"No use of {key} left."
                )
        own, _auto = self_sources(
            st, kind="general", attack="", characteristic="reason", purpose=""
        )
        a, d = count_sources(
            [*p["sources"], *own], advantages=p["advantages"], disadvantages=p["disadvantages"]
        )
        net = net_advantage(a, d)
        bonus = p["bonus"] + sum(p["help"]) + p["camp_bonus"]
        reason = effective_characteristic(st, "reason")
        dice = self._need_dice(call)
        rolls: list[dict[str, Any]] = []
        spend = len(keys)
        while True:
            faces = (dice.roll(10), dice.roll(10))
            roll = craft_rules.crafting_points(
                faces, reason=reason, net=net, bonus=bonus, expertises=spend
            )
            roll["net"] = net
            rolls.append(roll)
            spend = 0
            if not roll["crit"]:
                break
        for key in keys:
            entry = next(e for e in st["expertises"] if e["key"] == key)
            entry["uses"] -= 1
        return st, rolls

    def _craft_outcome(
        self,
        call: Call,
        state: dict[str, Any],
        rolls: list[dict[str, Any]],
        project: dict[str, Any],
        events: list[dict[str, Any]],
    ) -> Outcome:
        points = sum(r["points"] for r in rolls)
        return Outcome(
            move=call.spec.key,
            total=points,
            faces=[f for r in rolls for f in r["faces"]],
            modifier=rolls[0]["total"] - rolls[0]["natural"],
            state=state,
            text=_text(f"Очки изготовления: +{points}.", f"Crafting points: +{points}."),
            flags={
                "points": points,
                "crit": rolls[0]["crit"],
                "doom": rolls[0]["doom"],
                "done": sum(1 for e in events if e["type"] == "item_crafted"),
            },
            details={"rolls": rolls, "project": project, "events": events},
        )

    def _own_project(self, call: Call) -> dict[str, Any]:
        st, p = call.state, call.params
        project = next((pr for pr in st["projects"] if pr["id"] == p["project_id"]), None)
        if project is None:
            raise fail("project_id", "Нет такого проекта.", "No such project.")
        return project

    def _do_craft(self, call: Call) -> Outcome:
        """Бросок изготовления (L1397-L1407) on one's own project: the requirements first
        (L1375-L1385), then the rolls; points reaching the goal finish the item (L1403)."""
        st, p = call.state, call.params
        self._alive(st)
        project = self._own_project(call)
        problems = craft_rules.requirement_problems(st, project, tools_in_camp=p["tools_in_camp"])
        if problems:
            raise RulesError({"project_id": problems})
        st, rolls = self._craft_rolls(call)
        st, project, events = craft_rules.add_points(st, project, sum(r["points"] for r in rolls))
        st["projects"] = [project if pr["id"] == project["id"] else pr for pr in st["projects"]]
        return self._craft_outcome(call, st, rolls, project, events)

    def crafting_session(
        self,
        characters: list[dict[str, Any]],
        owner: int,
        project_id: str,
        plans: list[dict[str, Any] | None],
        *,
        dice: Dice,
        settings: dict[str, Any] | None = None,
    ) -> tuple[list[dict[str, Any]], list[Outcome]]:
        """Several crafters (L1411): the owner rolls on its project, then each resting companion
        who meets the tool and expertise requirements spends its activity to add its own rolls
        to the same item. ``plans`` hold one ``craft`` parameter dict per character (None: not
        crafting). Returns the new sheets and one outcome per crafter."""
        states = [copy.deepcopy(c) for c in characters]
        outs: list[Outcome] = []
        order = [owner, *(i for i in range(len(states)) if i != owner)]
        for i in order:
            plan = plans[i]
            if plan is None:
                continue
            params = {**plan, "project_id": project_id, "settings": settings}
            if i == owner:
                out = self.resolve("craft", states[owner], dice=dice, **params)
                states[owner] = out.state
                outs.append(out)
                continue
            call = self._call("craft", states[i], dice, params)
            project = next(pr for pr in states[owner]["projects"] if pr["id"] == project_id)
            problems = craft_rules.requirement_problems(
                call.state, project, tools_in_camp=call.params["tools_in_camp"], materials=False
            )
            if problems:
                raise RulesError({f"plans.{i}": problems})
            helper, rolls = self._craft_rolls(call)
            owner_state, project, events = craft_rules.add_points(
                states[owner], project, sum(r["points"] for r in rolls)
            )
            owner_state["projects"] = [
                project if pr["id"] == project_id else pr for pr in owner_state["projects"]
            ]
            states[owner], states[i] = owner_state, helper
            out = self._craft_outcome(call, helper, rolls, project, events)
            out.details["owner"] = owner
            outs.append(out)
        return states, outs

    def _setup_identify_check(self, call: Call) -> Setup:
        return self._b_setup(call, characteristic="reason")

    def _do_identify_check(self, call: Call) -> Outcome:
        """Holding a magic item, 2d10 + Reason (L1419-L1423); no retry until circumstances
        change (L202)."""
        st, p = call.state, call.params
        self._alive(st)
        found = find(st["inventory"], p["item_id"])
        if found is None or found[0] != HANDS:
            raise fail(
                "item_id",
                "Проверкой опознают предмет, который держат.",
                "The check identifies an item you hold.",
            )
        card = found[2]
        if not card["magic"]:
            raise fail("item_id", "Предмет не магический.", "The item is not magical.")
        if card["identified"]:
            raise fail("item_id", "Свойства уже известны.", "Already identified.")
        if not p["task"]:
            p["task"] = f"identify:{card['id']}"
        return self._roll_check(call)

    def _finish_identify_check(
        self, call: Call, result: CheckResult, out: Outcome, extra
    ) -> Outcome:
        item_id = call.params["item_id"]
        if result.tier == 3:
            card = copy.deepcopy(find(out.state["inventory"], item_id)[2])
            card["identified"] = True
            out.state["inventory"] = replace_card(out.state["inventory"], card)
        out.flags.update(identified=result.tier == 3, harmful_activation=result.tier == 1)
        return out

    def _do_butcher(self, call: Call) -> Outcome:
        """Разделать труп (L546, L1389): 1d6 parts up to Medium, 2d6 Large, 3d6 Huge, 4d6
        Охренеть!; the corpse is destroyed."""
        p = call.params
        plan = RestPlan(item_id=p["item_id"], corpse_size=p["corpse_size"])
        st, events = _butcher(call.state, plan, call.dice)
        event = events[0]
        return Outcome(
            move=call.spec.key,
            total=event["parts"],
            faces=event["faces"],
            state=st,
            text=_text(f"Частей: {event['parts']}.", f"Parts: {event['parts']}."),
            details={"events": events},
        )

    # --- the campaign's combat state (L701-L773) ----------------------------------------------

    def _combat(self, call: Call) -> dict[str, Any]:
        if call.state["combat"] is None:
            raise fail("combat", "Бой не идёт.", "No combat is under way.")
        return call.state["combat"]

    def _combat_out(
        self, call: Call, combat: dict[str, Any] | None, event: dict[str, Any], **kw: Any
    ) -> Outcome:
        camp = call.state
        camp["combat"] = combat
        return self._outcome(call, state=clean_campaign(camp), details={"events": [event]}, **kw)

    def _do_combat_start(self, call: Call) -> Outcome:
        p = call.params
        combat = cb.new_combat(p["combatants"], surprised=p["surprised"])
        event = {
            "type": "combat_started",
            "surprised": [c["id"] for c in combat["combatants"] if c["surprised"]],
        }
        return self._combat_out(call, combat, event)

    def _do_combat_round(self, call: Call) -> Outcome:
        combat, event = cb.start_round(self._combat(call), self._need_dice(call))
        out = self._combat_out(call, combat, event, flags={"first": combat["first"]})
        out.total = event["initiative_roll"]
        out.faces = [event["initiative_roll"]]
        out.band = combat["first"]
        return out

    def _do_combat_turn(self, call: Call) -> Outcome:
        p = call.params
        combat, event = cb.start_turn(self._combat(call), p["combatant"], force=p["force"])
        return self._combat_out(call, combat, event)

    def _do_combat_spend(self, call: Call) -> Outcome:
        p = call.params
        combat = self._combat(call)
        if p["cost"] == "free" and p["squares"]:
            combat, walked = cb.walk(combat, p["combatant"], p["squares"])
            event = {"type": "walked", "combatant": p["combatant"], "squares": walked}
        else:
            combat, event = cb.spend(
                combat, p["combatant"], p["cost"], speed=p["speed"], squares=p["squares"]
            )
        return self._combat_out(call, combat, event)

    def _do_combat_end_turn(self, call: Call) -> Outcome:
        combat, event = cb.end_turn(self._combat(call))
        return self._combat_out(call, combat, event, flags={"round_over": event["round_over"]})

    def _do_combat_taunt(self, call: Call) -> Outcome:
        p = call.params
        combat, event = cb.taunt(
            self._combat(call), p["combatant"], p["target"], distance=p["distance"]
        )
        return self._combat_out(call, combat, event)

    def _do_combat_ready(self, call: Call) -> Outcome:
        p = call.params
        combat, event = cb.ready(
            self._combat(call),
            p["combatant"],
            what=p["what"],
            trigger=p["trigger"],
            kind=p["kind"],
        )
        return self._combat_out(call, combat, event)

    def _do_combat_trigger(self, call: Call) -> Outcome:
        combat, event = cb.trigger_readied(self._combat(call), call.params["combatant"])
        return self._combat_out(call, combat, event)

    def _do_combat_extra_action(self, call: Call) -> Outcome:
        p = call.params
        combat, event = cb.grant_extra_action(
            self._combat(call), p["combatant"], on_own_turn=p["on_own_turn"]
        )
        return self._combat_out(call, combat, event)

    def _do_combat_grabbing(self, call: Call) -> Outcome:
        p = call.params
        combat = cb.set_grabbing(self._combat(call), p["combatant"], p["target"])
        event = {"type": "grabbing", "combatant": p["combatant"], "target": p["target"]}
        return self._combat_out(call, combat, event)

    def _do_combat_join(self, call: Call) -> Outcome:
        combat = cb.add_combatant(self._combat(call), call.params["combatant"])
        return self._combat_out(call, combat, {"type": "joined", **call.params["combatant"]})

    def _do_combat_end(self, call: Call) -> Outcome:
        self._combat(call)
        return self._combat_out(call, None, {"type": "combat_ended"})

    # --- the campaign's travel state (L949-L1208) ---------------------------------------------

    def _travel(self, call: Call) -> dict[str, Any]:
        if call.state["travel"] is None:
            raise fail("travel", "Группа не в пути.", "The party is not travelling.")
        return call.state["travel"]

    def _travel_out(
        self, call: Call, travel: dict[str, Any] | None, event: dict[str, Any], **kw: Any
    ) -> Outcome:
        camp = call.state
        camp["travel"] = travel
        flags = {"hidden": bool(event.get("hidden")), **kw.pop("flags", {})}
        return self._outcome(
            call, state=clean_campaign(camp), details={"events": [event]}, flags=flags, **kw
        )

    def _do_travel_begin(self, call: Call) -> Outcome:
        p = call.params
        goal = (p["goal_q"], p["goal_r"]) if p["goal_q"] is not None else None
        travel = travel_rules.new_travel((p["q"], p["r"]), goal, terrain=p["terrain"])
        return self._travel_out(call, travel, {"type": "travel_begun", "hex": travel["hex"]})

    def _do_travel_day(self, call: Call) -> Outcome:
        p = call.params
        travel, event = travel_rules.start_day(
            self._travel(call),
            pace=p["pace"],
            slowest_speed=p["slowest_speed"],
            road=p["road"],
            river=p["river"],
            terrain=p["terrain"] or None,
            in_miasma=p["in_miasma"],
        )
        return self._travel_out(call, travel, event)

    def _do_travel_roles(self, call: Call) -> Outcome:
        p = call.params
        travel, event = travel_rules.assign_roles(
            self._travel(call), p["roles"], helping=p["helping"], refusing=p["refusing"]
        )
        return self._travel_out(call, travel, event)

    def _do_travel_encounter(self, call: Call) -> Outcome:
        """The roll and its result are the Referee's only (digest §2.7 step 7); a rest check
        counts a hidden camp (+1, L566)."""
        rest_state = call.state["rest"]
        hidden_camp = bool(rest_state and rest_state["hide_camp_by"])
        travel, event = travel_rules.encounter_check(
            self._travel(call),
            self._need_dice(call),
            kind=call.params["kind"],
            bonus=1 if call.params["kind"] == "rest" and hidden_camp else 0,
        )
        return self._travel_out(call, travel, event)

    def _do_travel_move(self, call: Call) -> Outcome:
        p = call.params
        travel, event = travel_rules.move_day(
            self._travel(call),
            self._need_dice(call),
            directions=p["directions"],
            stop_at=p["stop_at"],
        )
        return self._travel_out(call, travel, event)

    def _do_travel_found_way(self, call: Call) -> Outcome:
        travel, event = travel_rules.found_way(self._travel(call))
        return self._travel_out(call, travel, event)

    def _do_travel_arrive(self, call: Call) -> Outcome:
        """Dungeon turns begin; their encounter checks use today's travel threshold (L1204)."""
        travel, event = travel_rules.arrive(self._travel(call), call.params["place"])
        camp = call.state
        camp["travel"] = travel
        base = encounter_threshold({**camp, "threshold_bonus": 0})
        camp["threshold_bonus"] = travel["travel_threshold"] - base
        camp, events = enter_dungeon(
            camp, call.params["place"], dice=call.dice, settings=call.settings
        )
        return self._outcome(call, state=camp, details={"events": [event, *events]})

    def _do_travel_end(self, call: Call) -> Outcome:
        self._travel(call)
        return self._travel_out(call, None, {"type": "travel_ended"})

    @staticmethod
    def public_travel(travel: dict[str, Any]) -> dict[str, Any]:
        """``travel.public_view``: the travel state without what players must not see."""
        return travel_rules.public_view(travel)
