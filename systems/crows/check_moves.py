"""Crows check moves: a plain check, help, group checks, resistance rolls, hiding, the
retry lock and a bare d100 («Проверки»; «Проверки › Особые проверки»;
«Проверки › Прятаться и красться»).
"""

from __future__ import annotations

import copy

from systems.core.outcome import Outcome, Text
from systems.core.schema import fail
from systems.crows import attacks
from systems.crows.calls import Call
from systems.crows.checks import group_cost_payers, help_modifier, roll_d100
from systems.crows.conditions import blessed_attack_bonus


class CheckMoves:
    """Checks and special checks; the roll itself is ``Resolution._roll_check``."""

    def _do_check(self, call: Call) -> Outcome:
        """Проверка («Проверки»): 2d10 + characteristic; attacks and castings too
        («Проверки › Особые проверки»)."""
        return self._roll_check(call)

    def _finish_check(self, call, result, out, extra) -> Outcome:
        if call.params["kind"] == "attack":
            out.flags["hit"] = result.tier >= 2  # «Бой › Как атаковать»: tier 1 is a miss
            if result.crit:
                out.flags.update(attacks.crit_extra_action(on_own_turn=call.params["on_own_turn"]))
            bonus = blessed_attack_bonus(out.state, result.characteristic or "strength")
            if bonus and result.tier >= 2:
                out.details["blessed_damage"] = bonus  # «Состояния › Благословлён»
        return out

    def _do_help(self, call: Call) -> Outcome:
        """Помощь («Проверки › Помощь»): a separate check first; its tier gives −1, +1 or +2."""
        return self._roll_check(call)

    def _finish_help(self, call, result, out, extra) -> Outcome:
        out.details["help_modifier"] = help_modifier(result.tier)
        out.details["helping"] = call.params["helping"]
        return out

    def _do_group_check(self, call: Call) -> Outcome:
        """Групповая проверка («Проверки › Групповые проверки»): the leader rolls with every
        helper's result."""
        return self._roll_check(call)

    def _finish_group_check(self, call, result, out, extra) -> Outcome:
        if result.tier == 2:
            # «Проверки › Групповые проверки»: if success has a cost, the leader and every helper
            # who gave −1 pay it.
            out.details["cost_payers"] = group_cost_payers(
                call.state["name"] or "leader", call.params["helpers"]
            )
        return out

    def _do_resistance(self, call: Call) -> Outcome:
        """Бросок сопротивления («Проверки › Броски сопротивления»): the effect sets the tiers."""
        return self._roll_check(call)

    def _finish_resistance(self, call, result, out, extra) -> Outcome:
        if result.crit:
            out.details["crit_may"] = [
                "harm_source",
                "ally_auto_tier3",
            ]  # «Проверки › Броски сопротивления»
        if result.doom:
            out.details["doom_may"] = "extra_1d10_damage"  # «Проверки › Броски сопротивления»
        return out

    def _do_hide(self, call: Call) -> Outcome:
        """Прятаться и красться («Проверки › Прятаться и красться»): only from a creature not
        watching you."""
        if call.params["observed"]:
            raise fail(
                "observed",
                "Спрятаться можно только от того, кто за вами не наблюдает.",
                "You can hide only from a creature that is not watching you.",
            )
        return self._roll_check(call)

    def _finish_hide(self, call, result, out, extra) -> Outcome:
        if result.tier == 3:
            out.state["hidden"] = True
        elif result.tier == 2:
            spec = call.spec.options["2"]
            out.options, out.pick, out.chooser = list(spec.options), spec.pick, spec.chooser
            out.details["pending"] = {
                "kind": "hide_cost",
                "move": call.spec.key,
                "params": copy.deepcopy(call.params),
                "settings": copy.deepcopy(call.settings),
            }
        out.flags["hidden"] = out.state["hidden"]
        return out

    def _do_clear_retry_lock(self, call: Call) -> Outcome:
        """The Referee decides that circumstances changed enough for a retry
        («Проверки › Повторная попытка»)."""
        st = call.state
        key = call.params["task"].strip().casefold()
        st["retry_locks"] = [t for t in st["retry_locks"] if t.casefold() != key]
        return self._outcome(call, state=st)

    def _do_d100(self, call: Call) -> Outcome:
        value, faces = roll_d100(self._need_dice(call))
        return Outcome(
            move=call.spec.key,
            total=value,
            faces=list(faces),
            state=call.state,
            text=Text(f"d100: {value}.", f"d100: {value}."),
        )
