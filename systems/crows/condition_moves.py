"""Crows conditions and effects on a sheet: add, remove, stand up, drop prone, wake,
reveal, and timed effects («Состояния»).
"""

from __future__ import annotations

from systems.core.outcome import Outcome
from systems.core.schema import fail, validate
from systems.crows.calls import Call
from systems.crows.conditions import add_condition, remove_condition, stand, wake
from systems.crows.moves import MOVES_BY_KEY
from systems.crows.sheet import clean_character
from systems.crows.terms import CONDITION_END_TRIGGERS


class ConditionMoves:
    """Conditions and timed effects on one creature's sheet."""

    def _do_add_condition(self, call: Call) -> Outcome:
        """No second instance of a condition («Состояния»); objects take none
        («Урон и смерть › Выносливость»)."""
        p = call.params
        st, added = add_condition(
            call.state, p["condition"], by=p["by"], range_=p["range"], knocked_out=p["knocked_out"]
        )
        return self._outcome(call, state=st, flags={"added": added, "already_had": not added})

    def _do_remove_condition(self, call: Call) -> Outcome:
        """End a condition for one of the reasons the rulebook gives it (or the Referee's word)."""
        key, reason = call.params["condition"], call.params["reason"]
        if reason != "referee" and reason not in CONDITION_END_TRIGGERS[key]:
            raise fail(
                "reason",
                "Это не заканчивает такое состояние.",
                "That does not end this condition.",
            )
        if key == "prone" and reason == "stand":
            return self._do_stand(call)
        st, removed = remove_condition(call.state, key)
        return self._outcome(call, state=st, flags={"removed": removed}, details={"reason": reason})

    def _do_stand(self, call: Call) -> Outcome:
        return self._outcome(call, state=stand(call.state))

    def _do_drop_prone(self, call: Call) -> Outcome:
        st, added = add_condition(call.state, "prone")
        return self._outcome(call, state=st, flags={"added": added})

    def _do_wake(self, call: Call) -> Outcome:
        """A loud noise wakes every sleeper within 10 squares («Состояния › Без сознания»)."""
        distance = call.params["distance"]
        if distance is not None and distance > 10:
            return self._outcome(call, state=call.state, flags={"woke": False})
        st, woke = wake(call.state)
        return self._outcome(call, state=st, flags={"woke": woke})

    def _do_reveal(self, call: Call) -> Outcome:
        st = call.state
        st["hidden"] = False
        return self._outcome(call, state=st)

    def _do_add_effect(self, call: Call) -> Outcome:
        st = call.state
        effect = validate(MOVES_BY_KEY["add_effect"].params.fields["effect"], call.params["effect"])
        if any(e["id"] == effect["id"] for e in st["effects"]):
            raise fail("effect.id", "Такой эффект уже есть.", "That effect is already there.")
        st["effects"].append(effect)
        return self._outcome(call, state=clean_character(st, settings=call.settings))

    def _do_remove_effect(self, call: Call) -> Outcome:
        st = call.state
        before = len(st["effects"])
        st["effects"] = [e for e in st["effects"] if e["id"] != call.params["effect_id"]]
        return self._outcome(call, state=st, flags={"removed": len(st["effects"]) != before})
