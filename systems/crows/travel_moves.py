"""Crows overland travel: the travel roles' checks and the campaign's travel day
(«Путешествие по суше»).
"""

from __future__ import annotations

from typing import Any

from systems.core.outcome import Option, Outcome, Text
from systems.core.schema import fail
from systems.crows import travel as travel_rules
from systems.crows.calls import Call, Setup
from systems.crows.checks import CheckResult
from systems.crows.dungeon import encounter_threshold, enter_dungeon
from systems.crows.modifiers import SLOTH, has_effect
from systems.crows.resolution import characteristic_values, join_text
from systems.crows.sheet import clean_campaign
from systems.crows.terms import TASKS_BY_KEY


class TravelMoves:
    """Travel roles and the travel state; the pure rules are in ``travel``."""

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
            values = characteristic_values(st)
            chosen = max(allowed, key=lambda k: values[k])
        sources, bonus = travel_rules.role_modifiers(ctx["travel"], st["name"])
        parts = {"help_everyone": bonus}
        if ctx["task"] == "forage" and has_effect(st, "miasma:gluttony"):
            parts["gluttony"] = (
                travel_rules.FORAGE_BONUS_GLUTTONY
            )  # «Путешествие по суше › Эффекты Миазмы»
        return self._check_setup(call, characteristic=chosen, sources=sources, parts=parts)

    def _do_travel_role(self, call: Call) -> Outcome:
        """A role task's check, in the day's order («Путешествие по суше › Порядок путешествия»)."""
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
        out.text = join_text(Text(f"{spec.ru}: {ru}", f"{spec.en}: {en}"), *self._notes(result))
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
            notes.append(Text("Крит.", "Crit."))
        if result.doom:
            notes.append(Text("Рок.", "Doom."))
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
        """The roll and its result are the Referee's only
        («Путешествие по суше › Дорожные встречи»); a rest check counts a hidden camp (+1,
        «Отдых › Укрыть лагерь»)."""
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
        """Dungeon turns begin; their encounter checks use today's travel threshold
        («Путешествие по суше › Точки интереса»)."""
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
