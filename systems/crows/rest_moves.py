"""Crows rest on one sheet: ending a rest, town activities and sleep, hiding the camp and
rest encounters («Отдых»). The party-wide rest procedures are ``Crows.start_rest`` and the
others in ``ruleset``.
"""

from __future__ import annotations

from typing import Any

from systems.core.outcome import Outcome, Text
from systems.core.schema import fail
from systems.crows import rest
from systems.crows.calls import Call


class RestMoves:
    """Rest moves; the pure rules are in ``rest``."""

    def _plan(self, p: dict[str, Any], *keys: str) -> rest.RestPlan:
        return rest.RestPlan.from_dict({k: p[k] for k in keys if k in p})

    def _do_end_rest(self, call: Call) -> Outcome:
        """One character's end of a rest («Отдых»; «Отдых › Встречи на отдыхе»;
        «Отдых › Занятия на отдыхе»); the party flow is ``finish_rest``."""
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
            raise fail(
                "activity",
                "«Обработать раны» — на отдыхе группы (finish_rest).",
                "Tend wounds works on the party's rest (finish_rest).",
            )
        st, events = rest.rest_benefits(
            call.state, plan, dice=call.dice, miasma=p["miasma"], tended=p["tended"]
        )
        failed = events[0]["type"] == "rest_failed"
        return self._outcome(call, state=st, details={"events": events}, flags={"failed": failed})

    def _do_town_activity(self, call: Call) -> Outcome:
        p = call.params
        plan = self._plan(p, "activity", "task", "item_id", "corpse_size")
        st, events = rest.town_activity(call.state, plan, day=p["day"], dice=call.dice)
        return self._outcome(call, state=st, details={"events": events})

    def _do_town_tend(self, call: Call) -> Outcome:
        st, event = rest.town_tend(call.state, day=call.params["day"])
        return self._outcome(call, state=st, details={"events": [event]})

    def _do_town_sleep(self, call: Call) -> Outcome:
        st, event = rest.town_sleep(call.state, call.params["hours"])
        return self._outcome(call, state=st, details={"events": [event]})

    def _do_hide_camp(self, call: Call) -> Outcome:
        camp, event = rest.hide_camp(call.state, call.params["by"])
        return self._outcome(call, state=camp, details={"events": [event]})

    def _do_rest_encounter(self, call: Call) -> Outcome:
        """A rest in the wild while travelling uses the day's rest threshold
        («Отдых › Встречи на отдыхе»)."""
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
