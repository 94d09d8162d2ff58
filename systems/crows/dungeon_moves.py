"""Crows dungeon clock on the campaign state: entering and leaving, encounter checks and
thresholds, treasure and explored rooms («Ходы подземелья»; «Встречи в подземелье»).
"""

from __future__ import annotations

from systems.core.outcome import Outcome, Text
from systems.core.schema import fail
from systems.crows import dungeon
from systems.crows.calls import Call
from systems.crows.sheet import clean_campaign


class DungeonMoves:
    """Campaign moves of the dungeon turn; the pure rules are in ``dungeon``."""

    def _do_enter_dungeon(self, call: Call) -> Outcome:
        camp, events = dungeon.enter_dungeon(
            call.state, call.params["dungeon"], dice=call.dice, settings=call.settings
        )
        return self._outcome(call, state=camp, details={"events": events})

    def _do_leave_dungeon(self, call: Call) -> Outcome:
        camp, events = dungeon.leave_dungeon(call.state)
        return self._outcome(call, state=camp, details={"events": events})

    def _do_encounter_check(self, call: Call) -> Outcome:
        """Something very conspicuous calls for a check at once («Встречи в подземелье»)."""
        camp, event = dungeon.roll_encounter(
            call.state, self._need_dice(call), source="conspicuous"
        )
        event["reason"] = call.params["reason"]
        return Outcome(
            move=call.spec.key,
            total=event["roll"],
            band=event["result"],
            faces=[event["roll"]],
            state=clean_campaign(camp),
            text=Text(call.spec.ru, call.spec.en),
            details={"events": [event]},
        )

    def _do_set_threshold(self, call: Call) -> Outcome:
        camp, p = call.state, call.params
        camp.update(populated=p["populated"], chaos=p["chaos"], threshold_bonus=p["bonus"])
        return self._outcome(
            call, state=camp, details={"threshold": dungeon.encounter_threshold(camp)}
        )

    def _do_resolve_encounter(self, call: Call) -> Outcome:
        camp = call.state
        index = call.params["index"]
        if index >= len(camp["pending_encounters"]):
            raise fail("index", "Нет такой ожидаемой встречи.", "No such pending encounter.")
        played = camp["pending_encounters"].pop(index)
        return self._outcome(call, state=camp, details={"played": played})

    def _do_treasure_found(self, call: Call) -> Outcome:
        event = dungeon.treasure_found(call.state, call.params["value"])
        text = Text(
            f"Ценность: {event['new_value']} (+{event['percent']} %).",
            f"Value: {event['new_value']} (+{event['percent']} %).",
        )
        return Outcome(
            move=call.spec.key,
            total=event["new_value"],
            state=call.state,
            text=text,
            details={"events": [event]},
        )

    def _do_room_explored(self, call: Call) -> Outcome:
        """Variant («Ходы подземелья › Вне подземелья»): the turn ends once the rolled number of
        rooms is explored."""
        camp = call.state
        if call.settings["turn_mode"] != "rooms" or camp["rooms_left"] is None:
            raise fail(
                "turn_mode",
                "Ходы кончаются по таймеру, не по комнатам.",
                "Turns end on the timer, not by rooms.",
            )
        camp["rooms_left"] = max(0, camp["rooms_left"] - 1)
        return self._outcome(
            call,
            state=camp,
            flags={"turn_over": camp["rooms_left"] == 0},
            details={"rooms_left": camp["rooms_left"]},
        )
