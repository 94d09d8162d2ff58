"""Crows damage and hazards: falling, suffocation, damage, wounds, hunger and stamina
(«Урон и смерть»; «Частые опасности»).
"""

from __future__ import annotations

import copy
from typing import Any

from systems.core.notation import NotationError, roll_notation
from systems.core.outcome import Outcome, Text
from systems.core.ruleset import RulesError
from systems.core.schema import fail
from systems.crows import inventory as inv_rules
from systems.crows.calls import Call
from systems.crows.checks import CheckResult
from systems.crows.conditions import has_condition, speed
from systems.crows.damage import (
    apply_damage,
    fall_dice,
    fall_reduction_dice,
    gain_wounds,
    suffocation_due,
    suffocation_rounds,
)
from systems.crows.resolution import join_text


class DamageMoves:
    """Damage, wounds and the common hazards on one creature's sheet."""

    def _fall_resists(self, call: Call) -> bool:
        # An unconscious creature has no reactions («Состояния › Без сознания»).
        return (
            call.params["resist"]
            and fall_dice(call.params["feet"]) > 0
            and not has_condition(call.state, "unconscious")
        )

    def _do_fall(self, call: Call) -> Outcome:
        """Падение («Частые опасности › Падение»): roll the damage, then the reaction resistance
        roll, then the reduction dice; the rest is piercing damage."""
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
        call: Call,
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
        # never below 0 («Частые опасности › Падение»)
        taken = max(0, damage - sum(reduction_faces))
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
        base.text = join_text(base.text, text)
        return base

    def _do_suffocate(self, call: Call) -> Outcome:
        """Удушье («Частые опасности › Удушье»): 3 + Strength rounds; then 1d6 at the start of every
        round. Not marked piercing in the rulebook (a setting)."""
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

    def _roll_expression(self, call: Call, expression: str, path: str) -> dict[str, Any]:
        try:
            rolled = roll_notation(expression, dice=self._need_dice(call))
        except NotationError as exc:
            raise RulesError({path: [{"ru": exc.ru, "en": exc.en}]}) from None
        return rolled.as_dict()

    def _do_take_damage(self, call: Call) -> Outcome:
        """Получить урон («Урон и смерть»): a number or dice; piercing skips Armour Defence."""
        st, p = call.state, call.params
        if (p["amount"] is None) == (not p["damage_dice"]):
            raise fail(
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
            text = join_text(text, Text("Смерть.", "Death."))
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

    def _do_take_wounds(self, call: Call) -> Outcome:
        """Раны напрямую («Слоты инвентаря › Слоты магических предметов»): not damage, no armour or
        Stamina in the way."""
        p = call.params
        if (p["count"] is None) == (not p["wound_dice"]):
            raise fail("count", "Укажите число ран или кости.", "Give a count or dice.")
        details: dict[str, Any] = {}
        count = p["count"]
        if count is None:
            details["roll"] = self._roll_expression(call, p["wound_dice"], "wound_dice")
            count = max(0, details["roll"]["total"])
        st, info = gain_wounds(call.state, count, slots=p["wound_slots"], hunger=p["hunger"])
        details.update(info)
        details["speed"] = speed(st)
        return self._outcome(call, state=st, details=details, flags={"died": info["died"]})

    def _do_hunger(self, call: Call) -> Outcome:
        """Голод («Частые опасности › Голод»): one hunger wound per day without a ration."""
        st, info = gain_wounds(
            call.state, call.params["days"], slots=call.params["wound_slots"], hunger=True
        )
        return self._outcome(call, state=st, details=info, flags={"died": info["died"]})

    def _do_eat(self, call: Call) -> Outcome:
        """A ration (or its equivalent) removes every hunger wound («Частые опасности › Голод»)."""
        st = call.state
        if call.params["item_id"]:
            st["inventory"], _ = inv_rules.remove(st["inventory"], call.params["item_id"])
        st["inventory"], gone = inv_rules.remove_hunger_wounds(st["inventory"])
        return self._outcome(call, state=st, details={"wounds_removed": gone})

    def _do_remove_wound(self, call: Call) -> Outcome:
        st = call.state
        st["inventory"], slot = inv_rules.remove_wound(st["inventory"], call.params["slot"])
        return self._outcome(call, state=st, details={"slot": slot, "speed": speed(st)})

    def _do_move_wound(self, call: Call) -> Outcome:
        st, p = call.state, call.params
        st["inventory"] = inv_rules.move_wound(st["inventory"], p["from_slot"], p["to_slot"])
        return self._outcome(call, state=st, details={"speed": speed(st)})

    def _do_restore_stamina(self, call: Call) -> Outcome:
        st, p = call.state, call.params
        self._alive(st)
        before = st["stamina"]
        st["stamina"] = (
            st["stamina_max"] if p["full"] else min(st["stamina_max"], st["stamina"] + p["amount"])
        )
        return self._outcome(call, state=st, details={"restored": st["stamina"] - before})
