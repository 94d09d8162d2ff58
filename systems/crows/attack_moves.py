"""Crows attacks and reactions: attacks on one or several targets, provoked attacks,
counterattacks and allies hit by a ranged miss («Бой › Как атаковать»; «Бой › Реакции»).
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from systems.core.dice import Dice
from systems.core.outcome import Option, Outcome, Text
from systems.core.schema import fail
from systems.crows import attacks
from systems.crows import combat as cb
from systems.crows.calls import Call, Setup
from systems.crows.checks import CheckResult, evaluate
from systems.crows.conditions import blessed_attack_bonus, condition_keys, has_condition
from systems.crows.damage import apply_damage
from systems.crows.inventory import iter_items, remove
from systems.crows.modifiers import (
    NO_HANDS,
    attacks_against_bonus,
    has_effect,
    weapon_damage_bonus,
)
from systems.crows.resolution import characteristic_values, join_text
from systems.crows.sheet import clean_character

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


class AttackMoves:
    """Attacks and counterattacks; the pure rules are in ``attacks``."""

    def _do_ranged_miss(self, call: Call) -> Outcome:
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

    def _attack_targets(self, call: Call) -> list[dict[str, Any]]:
        """One roll for every target, each with its own modifiers; nobody twice
        («Бой › Несколько целей»)."""
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
            # «Бой › Дальние атаки»: that weapon's damage without its special properties, at
            # disadvantage
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
        """One target's advantages, disadvantages and bonuses («Бой › Как атаковать»; «Свет»;
        «Частые опасности»; «Линия эффекта»; «Бой › Застигнут врасплох»)."""
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
            sources.append("cover")  # «Линия эффекта › Укрытие»
        sources += CONCEALMENT_SOURCES[t.get("concealment", "none")]  # «Линия эффекта › Завеса»
        if t.get("flanking"):
            sources.append("flanking")  # whether it counts: attacks.attack_modifiers
        if t.get("high_ground"):
            sources.append("high_ground")  # «Бой › Возвышенность»
        if attack == "ranged" and t.get("adjacent"):
            sources.append("ranged_adjacent")  # «Бой › Дальние атаки»
        if cb.taunt_applies(p.get("taunted_by", ""), ctx["names"]):
            sources.append("taunted")  # «Бой › Действие „Насмешка“»
        if ctx["improvised"]:
            sources.append("improvised_weapon")  # «Бой › Дальние атаки»
        if sheet is not None and attacks_against_bonus(sheet):
            parts["glowing"] = attacks_against_bonus(sheet)  # «Заклинания › Виды отдачи»
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
                parts["range"] = penalty  # «Бой › Дальние атаки»
        keys = None
        if ctx["spell"]:
            keys = ctx["expertise_keys"]
        return self._check_setup(
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
        """Атака («Бой › Как атаковать»): validate every target first, then one roll for all."""
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
        counterattack opening (melee, «Бой › Ближние атаки») or a stray shot at adjacent allies
        (ranged, «Бой › Дальние атаки»)."""
        p, dice = call.params, self._need_dice(call)
        profile, attack = ctx["profile"], ctx["attack"]
        tier = 1 if t.get("guessed_wrong") else r.tier  # «Свет › Темнота»: a wrong square misses
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
                line,
                dice,
                characteristics=characteristic_values(attacker),
                attr=ctx["characteristic"],
            )
            bonus = blessed_attack_bonus(
                attacker, ctx["characteristic"]
            )  # «Состояния › Благословлён»
            if not ctx["spell"]:
                bonus += weapon_damage_bonus(
                    attacker
                )  # Bloodlust («Путешествие по суше › Эффекты Миазмы»)
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
                    characteristics=characteristic_values(attacker),
                    attr=ctx["characteristic"],
                )
                stray["damage_roll"] = rolled
                stray["damage"] = rolled["total"] if rolled else 0
            info["stray"] = stray
        return info

    def _counter_opening(
        self, call: Call, t: dict[str, Any], *, doom: bool
    ) -> dict[str, Any] | None:
        """May the target counterattack («Бой › Контратака»)? Only with a held melee weapon in reach
        (or what counts as one, see ``counter_profile``), a reaction left, and awake."""
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
        """Per-target tiers from the one roll, damage, crit's extra action
        («Бой › Криты на атаках»), fragile items («Бой › Ближние атаки»), ammunition and thrown
        weapons («Бой › Дальние атаки»), the counterattack choice."""
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
            out.text = join_text(
                out.text, Text(f"Урон: {first['damage']}.", f"Damage: {first['damage']}.")
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
        """The same faces read with another target's modifiers («Бой › Несколько целей»); an
        expertise spent on the roll lifts every target's tier (never a doom)."""
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
                out.details["ammo_used"] = ammo  # «Бой › Дальние атаки»: destroyed
        if ctx["attack"] == "ranged" and profile["type"] == "thrown":
            st["inventory"], thrown = remove(st["inventory"], card["id"])
            out.details["thrown_item"] = thrown  # «Бой › Дальние атаки»: may be picked up
        elif card["fragile"] and ctx["attack"] == "melee":
            st["inventory"], broken = remove(st["inventory"], card["id"])
            out.details["broken_item"] = broken  # «Бой › Ближние атаки»
            out.flags["broke"] = True

    def _offer_counter(
        self,
        call: Call,
        out: Outcome,
        counter_sheet: dict[str, Any],
        opening: dict[str, Any],
        index: int,
    ) -> Outcome:
        """The trigger has resolved; now the other side may spend its reaction («Бой › Реакции»)."""
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
        out.text = join_text(
            out.text,
            Text(
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
        out.text = join_text(
            out.text,
            Text(f"Контратака: {info['amount']} урона.", f"Counterattack: {info['amount']}."),
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
        («Бой › Контратака»); attribute damage and riders apply, and Blessed unless switched off."""
        profile, item = cb.counter_profile(counter, unarmed_allowed=settings["counter_unarmed"])
        if profile is None:
            raise fail(
                "weapon",
                "Для контратаки нужно держать оружие ближнего боя.",
                "A counterattack needs a held melee weapon.",
            )
        tier = 3 if doom else 2
        values = characteristic_values(counter)
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
        """Контратака («Бой › Контратака») from the counterattacker's own sheet."""
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
            text=Text(f"Контратака: {info['amount']} урона.", f"Counterattack: {info['amount']}."),
            details=details,
            flags={"damage": info["amount"]},
        )
        return self._cost(out, "reaction")
