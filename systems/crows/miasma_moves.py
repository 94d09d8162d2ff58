"""Crows Miasma: the saving throw, its choice of effect, leaving it and the party-wide
saves («Путешествие по суше › Миазма»).
"""

from __future__ import annotations

import copy
from typing import Any

from systems.core.dice import Dice
from systems.core.outcome import Option, Outcome, Text
from systems.core.schema import fail
from systems.crows import miasma as miasma_rules
from systems.crows.calls import Call, Setup
from systems.crows.checks import CheckResult


class MiasmaMoves:
    """The Miasma on one sheet and for the party; the pure rules are in ``miasma``."""

    def _setup_miasma_save(self, call: Call) -> Setup:
        st = call.state
        support = miasma_rules.advantage_from_travel(call.params["travel"], st["name"])
        return self._check_setup(
            call,
            characteristic="reason",
            kind="resistance",
            parts={"cruelty": miasma_rules.save_penalty(st)},  # «Путешествие по суше › Миазма»
            advantages=support,  # Counter the Miasma («Путешествие по суше › Противостоять Миазме»)
        )

    def _do_miasma_save(self, call: Call) -> Outcome:
        """Бросок против Миазмы («Путешествие по суше › Миазма»), made by each person (a PC or a
        human hireling)."""
        st = call.state
        self._alive(st)
        if not miasma_rules.is_person(st):
            raise fail(
                "kind",
                "Бросок делают люди — персонажи и наёмники.",
                "Persons make this save: PCs and hirelings.",
            )
        if st["miasma_lost"]:
            return self._outcome(
                call,
                state=st,
                text=Text(
                    "Потерян для Миазмы: новых эффектов не бывает.",
                    "Lost to the Miasma: no new effects.",
                ),
                flags={"skipped": True},
            )
        return self._roll_check(call)

    def _finish_miasma_save(self, call: Call, result: CheckResult, out: Outcome, extra) -> Outcome:
        p = call.params
        # another's 17+ lifts it («Путешествие по суше › Миазма»)
        tier = min(3, result.tier + (1 if p["lifted"] else 0))
        out.band = str(tier)
        out.flags.update(tier=tier, lifted=p["lifted"])
        out.details["miasma_save"] = {"name": out.state["name"], "tier": tier}
        if p["defer"]:
            out.flags["deferred"] = True
            return out
        if tier == 1:
            out.state, event = miasma_rules.gain_cruelty(out.state, self._need_dice(call))
            out.details["miasma"] = event
            out.flags.update(cruelty=out.state["cruelty"], npc=bool(event.get("npc")))
        elif tier == 3:
            out.options = [
                Option("clear_cruelty", "Снять всю свою жестокость", "Clear all your cruelty"),
                Option(
                    "lift_other",
                    "Поднять на ступень бросок другого",
                    "Raise another's save by a tier",
                ),
            ]
            out.pick, out.chooser = 1, "player"
            out.details["pending"] = self._pending(call, "miasma_choice")
        return out

    def _choice_miasma_choice(self, outcome: Outcome, choices: list[str], call: Call) -> Outcome:
        out = self._clear_pending(outcome)
        if choices[0] == "clear_cruelty":
            out.state, ended = miasma_rules.clear_cruelty(out.state)
            out.details["cruelty_cleared"] = ended
        else:
            out.flags["lift_other"] = True  # the other save is re-resolved with ``lifted``
        return out

    def _do_leave_miasma(self, call: Call) -> Outcome:
        st, ended = miasma_rules.leave_miasma(call.state)
        return self._outcome(call, state=st, details={"effects_ended": ended})

    def _do_miasma_expertise(self, call: Call) -> Outcome:
        st = miasma_rules.grant_lying_expertise(call.state, call.params["expertise"])
        return self._outcome(call, state=st)

    def miasma_saves(
        self,
        characters: list[dict[str, Any]],
        *,
        dice: Dice,
        travel: dict[str, Any] | None = None,
        expertise: dict[int, str] | None = None,
        settings: dict[str, Any] | None = None,
    ) -> list[Outcome]:
        """Step 1 («Путешествие по суше › Миазма»): every person's save, deferred (nothing applied
        yet). ``expertise`` maps a character index to the expertise it spends if the roll allows
        one."""
        outs = []
        for i, ch in enumerate(characters):
            if not miasma_rules.is_person(ch) or ch.get("dead"):
                outs.append(
                    Outcome(move="miasma_save", state=copy.deepcopy(ch), flags={"skipped": True})
                )
                continue
            out = self.resolve(
                "miasma_save", ch, dice=dice, settings=settings, travel=travel, defer=True
            )
            if out.pending:
                key = (expertise or {}).get(i, "none")
                keys = {o.key for o in out.options}
                out = self.apply_choice(out, [key if key in keys else "none"], dice=dice)
            outs.append(out)
        return outs

    def miasma_resolve(
        self,
        characters: list[dict[str, Any]],
        saves: list[Outcome],
        choices: dict[int, str | int],
        *,
        dice: Dice,
    ) -> list[Outcome]:
        """Step 2 («Путешествие по суше › Миазма»): each 17+ roller either clears its cruelty
        (``"clear"``) or lifts another person's save (that person's index); then cruelty and table
        rolls are applied."""
        tiers = {i: s.flags.get("tier") for i, s in enumerate(saves) if not s.flags.get("skipped")}
        rolled = dict(tiers)
        for i, choice in choices.items():
            if choice == "clear":
                continue
            if rolled.get(i) != 3:
                raise fail("choices", "Поднимает только тот, у кого 17+.", "Only a 17+ lifts.")
            j = int(choice)
            if j == i or j not in tiers:
                raise fail("choices", "Поднять можно бросок другого.", "Lift another's save.")
            tiers[j] = min(3, tiers[j] + 1)  # lifted to 2 cancels the cruelty gain
        for i, choice in choices.items():
            if choice == "clear" and tiers.get(i) != 3:
                raise fail("choices", "Снимает жестокость только 17+.", "Only a 17+ clears.")
        results = []
        for i, ch in enumerate(characters):
            st = copy.deepcopy(ch)
            tier = tiers.get(i)
            out = Outcome(move="miasma_resolve", band=str(tier) if tier else None, state=st)
            if tier == 1:
                out.state, event = miasma_rules.gain_cruelty(st, dice)
                out.details["miasma"] = event
            elif tier == 3 and choices.get(i) == "clear":
                out.state, ended = miasma_rules.clear_cruelty(st)
                out.details["cruelty_cleared"] = ended
            out.flags["tier"] = tier
            results.append(out)
        return results
