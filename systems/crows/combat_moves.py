"""Crows combat state on the campaign: rounds, initiative, turns, the turn budget,
taunts, readied actions («Бой › Кто ходит первым?»; «Бой › Ход»).
"""

from __future__ import annotations

from typing import Any

from systems.core.outcome import Outcome
from systems.core.schema import fail
from systems.crows import combat as cb
from systems.crows.calls import Call
from systems.crows.sheet import clean_campaign


class CombatMoves:
    """Campaign moves of the combat state; the pure rules are in ``combat``."""

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
