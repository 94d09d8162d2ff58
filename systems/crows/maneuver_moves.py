"""Crows combat maneuvers: grab, escape, knockback and commanding a pet («Бой › Общие манёвры»;
«Бой › Питомцы в бою»).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from systems.core.outcome import Option, Outcome
from systems.core.schema import fail
from systems.crows import combat as cb
from systems.crows.calls import Call, Setup
from systems.crows.checks import CheckResult
from systems.crows.conditions import add_condition, has_condition, remove_condition
from systems.crows.resolution import characteristic_values


class ManeuverMoves:
    """Opposed maneuvers against another creature's sheet."""

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
        return self._check_setup(call, characteristic="strength")

    _setup_knockback = _setup_grab

    def _setup_escape(self, call: Call) -> Setup:
        chosen = call.params.get("characteristic")
        if chosen not in ("agility", "strength"):
            values = characteristic_values(call.state)
            chosen = "agility" if values["agility"] >= values["strength"] else "strength"
        return self._check_setup(call, characteristic=chosen)

    def _do_grab(self, call: Call) -> Outcome:
        """Захват («Бой › Общие манёвры»): one grab at a time."""
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
        """Отбросить («Бой › Общие манёвры»)."""
        self._check_reachable(call)
        return self._roll_check(call)

    def _do_escape(self, call: Call) -> Outcome:
        """Вырваться («Бой › Общие манёвры»): only while grabbed."""
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
        out.flags["push"] = result.tier - 1  # 12–16 push 1, 17+ push 2 («Бой › Общие манёвры»)
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
        out.flags.update(
            free=True, free_step=1
        )  # «Бой › Общие манёвры»: 1 square without provoking
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
        # «Бой › Общие манёвры»: breaking free at 12–16 opens a counterattack as a tier 1 would
        # (never a doom)
        result = dataclasses.replace(result, doom=False)
        return self._maneuver_counter(call, out, result, sheet, name)

    def _setup_command_pet(self, call: Call) -> Setup:
        return self._check_setup(call, characteristic="reason")

    def _do_command_pet(self, call: Call) -> Outcome:
        """Команда («Бой › Общие манёвры»; «Бой › Питомцы в бою»): a check only for something hard
        or dangerous, never for a summoned creature («Заклинания › Призванные существа»)."""
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
