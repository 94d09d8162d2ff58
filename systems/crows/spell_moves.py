"""Crows spells: casting from a spellbook, backlash and ending a spell («Заклинания»)."""

from __future__ import annotations

import dataclasses
from typing import Any

from systems.core.outcome import Outcome, Text
from systems.core.ruleset import RulesError
from systems.core.schema import fail
from systems.crows import attacks
from systems.crows import spells as spell_rules
from systems.crows.calls import Call, Setup
from systems.crows.checks import CheckResult
from systems.crows.inventory import find, replace_card
from systems.crows.modifiers import NO_HANDS, has_effect, tier_down


class SpellMoves:
    """Casting and backlash; the pure rules are in ``spells``."""

    def _cast_ctx(self, call: Call) -> dict[str, Any]:
        st, p = call.state, call.params
        card = spell_rules.held_spellbook(st, p["item_id"])
        spell = card["spell"]
        profile = {
            "type": spell["attack"] or "melee",
            "check": "reason",
            "range": spell["range"],
            "reach": max(1, spell["range"]) if spell["attack"] == "melee" else 1,
            "tier1": spell["tier1"],
            "tier2": spell["tier2"],
            "tier3": spell["tier3"],
            "piercing": spell["piercing"],
            "ammo": "",
        }
        targets = self._attack_targets(call)
        return {
            "card": card,
            "spell_card": spell,
            "profile": profile,
            "attack": spell["attack"],
            "characteristic": "reason",
            "targets": targets,
            "names": [t["name"] for t in targets],
            "improvised": False,
            "spell": True,
            "expertise_keys": (spell_rules.discipline_expertise(spell),),
        }

    def _setup_cast(self, call: Call) -> Setup:
        """2d10 + Reason («Заклинания › Сотворение»); a spell that is also an attack takes attack
        modifiers too («Проверки › Сотворения»); only the discipline's magic expertise fits
        («Заклинания › Дисциплина»)."""
        ctx = self._cast_ctx(call)
        if ctx["attack"]:
            return self._target_setup(call, ctx, ctx["targets"][0])
        return self._check_setup(
            call,
            characteristic="reason",
            kind="casting",
            expertise_keys=ctx["expertise_keys"],
        )

    def _do_cast(self, call: Call) -> Outcome:
        """Сотворение («Заклинания › Книги заклинаний»; «Заклинания › Призванные существа»;
        «Заклинания › Отдача магии»): validate the book, the casting time and the targets, then
        roll."""
        st, p = call.state, call.params
        self._alive(st)
        if has_effect(st, NO_HANDS):
            raise fail(
                "item_id",
                "Руки стали ногами: книгу не удержать.",
                "Your hands are feet: you cannot hold the book.",
            )
        ctx = self._cast_ctx(call)
        has_target = bool(p["targets"]) or p["target"] is not None or p["target_name"]
        targets = ctx["targets"] if has_target else []
        problems = spell_rules.target_problems(
            ctx["spell_card"],
            targets,
            caster=st["name"],
            in_combat=p["in_combat"],
            line_of_effect=p["line_of_effect"],
            origin_distance=p["origin_distance"],
        )
        if problems:
            raise RulesError({"targets": problems})
        if ctx["attack"]:
            for t in targets:
                self._target_setup(call, ctx, t)
        return self._roll_check(call)

    def _finish_cast(self, call: Call, result: CheckResult, out: Outcome, extra) -> Outcome:
        """Tier after expertise, then backlash 99–100 («Заклинания › Сотворение»); a doom or a chaos
        1 is backlash instead of the spell («Заклинания › Отдача магии»); the book's dice roll
        unless it was a crit."""
        p, dice = call.params, self._need_dice(call)
        ctx = self._cast_ctx(call)
        st = out.state
        card, spell = ctx["card"], ctx["spell_card"]
        tier, doom = spell_rules.tier_after_backlash(
            result.tier, result.doom, tier_down=tier_down(st)
        )
        info: dict[str, Any] = {"tier": tier, "doom": doom, "rank": spell["rank"]}
        backlash = doom
        if not doom and tier == 1:
            face, backlash = spell_rules.chaos_roll(dice)
            info["chaos"] = face
        if backlash:
            st, event = spell_rules.roll_backlash(
                st,
                spell["rank"],
                dice,
                spell=spell["name"] or card["name"],
                object_target=p["object_target"],
                touching_ground=p["touching_ground"],
                armour_order=p["armour_order"],
                wound_slots=p["wound_slots"],
                spill=call.settings["damage_spill"],
            )
            info["backlash"] = event
            text = Text(
                f"Отдача ({event['rolls'][-1]['value']}): {event['row']['ru']}",
                f"Backlash ({event['rolls'][-1]['value']}): {event['row']['en']}",
            )
        else:
            line = spell.get(f"tier{tier}", "")
            info["effect"] = line
            text = Text(f"Эффект {tier}-й ступени: {line}", f"Tier {tier} effect: {line}")
            if ctx["attack"]:
                info["targets"] = []
                for i, t in enumerate(ctx["targets"]):
                    r = result if i == 0 else self._other_target(call, ctx, t, result)
                    if i == 0:
                        r = dataclasses.replace(r, tier=tier)
                    else:  # backlash 99-100 lowers every target's tier («Заклинания › Виды отдачи»)
                        lowered, _doom = spell_rules.tier_after_backlash(
                            r.tier, r.doom, tier_down=tier_down(st)
                        )
                        r = dataclasses.replace(r, tier=lowered)
                    info["targets"].append(self._hit(call, ctx, t, r, st, i))
                first = info["targets"][0]
                if first.get("state") is not None and not p["targets"]:
                    out.details["target"] = first["state"]
            effect = spell_rules.spell_effect(card, tier=tier, caster=st["name"])
            if effect is not None:
                st["effects"] = [e for e in st["effects"] if e["id"] != effect["id"]]
                st["effects"].append(effect)
                info["lasting"] = effect
            if spell["target"] == "summoned" and tier >= 2:
                info["summoned"] = spell_rules.summoned_sheets(
                    spell, caster=st["name"], default_sheet=self.default_state()
                )
        found = find(st["inventory"], card["id"])
        if not result.crit and found is not None:  # a drawn book may have left (rows 31-34)
            new_book, wear = spell_rules.roll_book(found[2], dice)
            st["inventory"] = replace_card(st["inventory"], new_book)
            info["book_wear"] = wear
        out.state = st
        out.band = str(tier)
        out.flags.update(
            tier=tier,
            doom=doom,
            backlash=backlash,
            crit=result.crit,
            book_empty=bool(info.get("book_wear") and info["book_wear"]["exhausted"]),
            gone=bool(info.get("backlash", {}).get("gone")),
        )
        if result.crit and ctx["attack"]:
            out.flags.update(attacks.crit_extra_action(on_own_turn=p["on_own_turn"]))
        out.details["cast"] = info
        out.text = text
        timing = spell["casting_time"]
        return self._cost(out, "free" if timing == "out_of_combat" else timing)

    def _do_backlash(self, call: Call) -> Outcome:
        """Отдача («Заклинания › Отдача магии») on its own, for a Referee rolling it by hand."""
        p = call.params
        st, event = spell_rules.roll_backlash(
            call.state,
            p["rank"],
            self._need_dice(call),
            spell=p["spell"],
            object_target=p["object_target"],
            touching_ground=p["touching_ground"],
            armour_order=p["armour_order"],
            wound_slots=p["wound_slots"],
            spill=call.settings["damage_spill"],
        )
        value = event["rolls"][-1]["value"]
        return Outcome(
            move=call.spec.key,
            total=value,
            faces=[f for r in event["rolls"] for f in r["faces"]],
            state=st,
            text=Text(event["row"]["ru"], event["row"]["en"]),
            details={"backlash": event},
            flags={"gone": bool(event.get("gone"))},
        )

    def _do_end_spell(self, call: Call) -> Outcome:
        """The caster ends a spell for free («Заклинания › Длительность»)."""
        st = call.state
        effect_id = call.params["effect_id"]
        before = len(st["effects"])
        st["effects"] = [
            e for e in st["effects"] if not (e["id"] == effect_id and e.get("key") == "spell")
        ]
        return self._outcome(call, state=st, flags={"ended": len(st["effects"]) != before})
