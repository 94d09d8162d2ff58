"""Crows movement: walking, jumping, teleporting, forced movement, tipping objects and
falling objects («Бой › Передвижение»; «Бой › Принудительное перемещение»;
«Бой › Опрокидывание предметов»).
"""

from __future__ import annotations

from systems.core.outcome import Option, Outcome, Text
from systems.core.schema import fail
from systems.crows import combat as cb
from systems.crows import movement as mv
from systems.crows.calls import Call, Setup
from systems.crows.checks import CheckResult
from systems.crows.conditions import has_condition, remove_condition, speed
from systems.crows.damage import apply_damage
from systems.crows.modifiers import effective_characteristic, has_effect
from systems.crows.resolution import join_text


class MovementMoves:
    """Movement on the battle grid; the pure rules are in ``movement``."""

    def _do_move(self, call: Call) -> Outcome:
        """Передвижение / Шаг («Бой › Общие манёвры»; «Бой › Передвижение»): the path's cost against
        speed (or what is left of the current Move), provoked attacks and where the move pauses for
        them («Бой › Провоцированная атака»)."""
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
            budget //= 2  # «Бой › Протискивание»
        if p["grabbing_size"] and cb.size_steps(p["grabbing_size"], st["size"]) <= 0:
            budget //= 2  # «Состояния › Схвачен»: holding a creature your size or smaller
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
            text=Text(f"Пройдено: {cost} клеток.", f"Moved: {cost} squares."),
            flags={"squares": cost, "provokes": bool(provokes), "checks": checks},
            details={
                "cost": cost,
                "per_step": per_step,
                "provoked_attacks": provokes,
                "hazards": hazards,
                "limit": limit,
                # «Бой › Плавание и лазание»: disadvantage on Agility and Strength checks
                "submerged": submerged,
            },
        )
        return self._cost(out, "maneuver")

    def _setup_jump(self, call: Call) -> Setup:
        p = call.params
        sources = ["run_up"] if p["moved_before"] >= mv.RUN_UP_SQUARES else []  # «Бой › Прыжок»
        parts = (
            {"frog": 2} if has_effect(call.state, "backlash:77-78") else {}
        )  # «Заклинания › Виды отдачи»
        return self._check_setup(
            call, characteristic=p["characteristic"], sources=sources, parts=parts
        )

    def _do_jump(self, call: Call) -> Outcome:
        """Прыжок («Бой › Прыжок»): part of a move; you cannot jump out of difficult terrain."""
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
        reach = min(length, left)  # the whole move, jump included, ≤ speed («Бой › Прыжок»)
        out.flags.update(length=reach, height=height if reach else 0, table_length=length)
        out.details["movement_left"] = left
        if p["gap"] and reach < p["gap"]:
            out.flags["falls"] = True  # a short jump over a gap falls («Бой › Прыжок»)
            out.details["fall_feet"] = p["gap_feet"]
        out.text = join_text(out.text, Text(f"Прыжок: {reach} клеток.", f"Jump: {reach} squares."))
        return out

    def _do_teleport(self, call: Call) -> Outcome:
        """Телепортация («Бой › Телепортация»): provokes nothing; prone stays prone; grabs end."""
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
                "releases_grab": True,  # a grab this creature holds ends too («Бой › Телепортация»)
                "prone": has_condition(st, "prone"),
                "provokes": False,
            },
        )

    def _do_forced_move(self, call: Call) -> Outcome:
        """Толчок / Смещение on this creature («Бой › Принудительное перемещение»): the whole
        distance first, then a fall if the last square is over a void («Бой › В пропасть»;
        «Частые опасности › Падение»). The fall's resistance roll needs a reaction
        («Частые опасности › Падение»)."""
        st, p = call.state, call.params
        squares = p["distance"] if p["squares"] is None else p["squares"]
        flier = st["speeds"]["fly"] > 0 and not has_condition(st, "prone")
        vertical = (
            p["vertical"] or flier
        )  # «Бой › Вертикальное»: forcing a flier is always vertical
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
                text=Text(f"Сдвинут на {squares}.", f"Moved {squares}."),
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
        return self._check_setup(call, characteristic="strength", sources=info["sources"])

    def _do_tip_object(self, call: Call) -> Outcome:
        """Опрокидывание («Бой › Опрокидывание предметов»): smaller than you a maneuver; your size
        to +2 an action and a check; larger not by force alone."""
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
        """A tipped object lands on this creature: 1d10 + 2d10 per size larger
        («Бой › Опрокидывание предметов»)."""
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
            text=Text(f"{count}d10: {sum(faces)} урона.", f"{count}d10: {sum(faces)} damage."),
            details={"dice": count, "report": report.as_dict()},
            flags={"died": report.died},
        )
