"""Crows crafting, butchering and identifying magic items
(«Изготовление»; «Опознание магических предметов»)."""

from __future__ import annotations

import copy
from typing import Any

from systems.core.dice import Dice
from systems.core.outcome import Outcome, Text
from systems.core.ruleset import RulesError
from systems.core.schema import fail, validate
from systems.crows import crafting as craft_rules
from systems.crows.calls import Call, Setup
from systems.crows.checks import CheckResult, count_sources, net_advantage
from systems.crows.conditions import self_sources
from systems.crows.inventory import HANDS, find, replace_card
from systems.crows.modifiers import effective_characteristic
from systems.crows.rest import RestPlan, _butcher
from systems.crows.sheet import PROJECT, clean_character


class CraftingMoves:
    """Crafting projects and identification; the pure rules are in ``crafting``."""

    def _do_start_project(self, call: Call) -> Outcome:
        st = call.state
        project = validate(PROJECT, call.params["project"], path="project")
        if any(pr["id"] == project["id"] for pr in st["projects"]):
            raise fail("project.id", "Такой проект уже есть.", "That project exists.")
        st["projects"].append(project)
        return self._outcome(call, state=clean_character(st, settings=call.settings))

    def _craft_rolls(self, call: Call) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """One "Craft gear" activity's rolls («Изготовление › Броски изготовления»): no tiers; the
        total is crafting points, at least 1, 0 on a doom; a crit gives another roll, chained;
        each expertise +4, at most two, each spending a use on the activity's first roll."""
        st, p = call.state, call.params
        keys = list(dict.fromkeys(p["expertises"]))
        for key in keys:
            entry = next((e for e in st["expertises"] if e["key"] == key), None)
            if entry is None or entry["uses"] < 1:
                raise fail(
                    "expertises", f"Нет применений экспертизы {key}.", f"No use of {key} left."
                )
        own, _auto = self_sources(
            st, kind="general", attack="", characteristic="reason", purpose=""
        )
        a, d = count_sources(
            [*p["sources"], *own], advantages=p["advantages"], disadvantages=p["disadvantages"]
        )
        net = net_advantage(a, d)
        bonus = p["bonus"] + sum(p["help"]) + p["camp_bonus"]
        reason = effective_characteristic(st, "reason")
        dice = self._need_dice(call)
        rolls: list[dict[str, Any]] = []
        spend = len(keys)
        while True:
            faces = (dice.roll(10), dice.roll(10))
            roll = craft_rules.crafting_points(
                faces, reason=reason, net=net, bonus=bonus, expertises=spend
            )
            roll["net"] = net
            rolls.append(roll)
            spend = 0
            if not roll["crit"]:
                break
        for key in keys:
            entry = next(e for e in st["expertises"] if e["key"] == key)
            entry["uses"] -= 1
        return st, rolls

    def _craft_outcome(
        self,
        call: Call,
        state: dict[str, Any],
        rolls: list[dict[str, Any]],
        project: dict[str, Any],
        events: list[dict[str, Any]],
    ) -> Outcome:
        points = sum(r["points"] for r in rolls)
        return Outcome(
            move=call.spec.key,
            total=points,
            faces=[f for r in rolls for f in r["faces"]],
            modifier=rolls[0]["total"] - rolls[0]["natural"],
            state=state,
            text=Text(f"Очки изготовления: +{points}.", f"Crafting points: +{points}."),
            flags={
                "points": points,
                "crit": rolls[0]["crit"],
                "doom": rolls[0]["doom"],
                "done": sum(1 for e in events if e["type"] == "item_crafted"),
            },
            details={"rolls": rolls, "project": project, "events": events},
        )

    def _own_project(self, call: Call) -> dict[str, Any]:
        st, p = call.state, call.params
        project = next((pr for pr in st["projects"] if pr["id"] == p["project_id"]), None)
        if project is None:
            raise fail("project_id", "Нет такого проекта.", "No such project.")
        return project

    def _do_craft(self, call: Call) -> Outcome:
        """Бросок изготовления («Изготовление › Броски изготовления») on one's own project: the
        requirements first («Изготовление › Требования к изготовлению»), then the rolls; points
        reaching the goal finish the item («Изготовление › Броски изготовления»)."""
        st, p = call.state, call.params
        self._alive(st)
        project = self._own_project(call)
        problems = craft_rules.requirement_problems(st, project, tools_in_camp=p["tools_in_camp"])
        if problems:
            raise RulesError({"project_id": problems})
        st, rolls = self._craft_rolls(call)
        st, project, events = craft_rules.add_points(st, project, sum(r["points"] for r in rolls))
        st["projects"] = [project if pr["id"] == project["id"] else pr for pr in st["projects"]]
        return self._craft_outcome(call, st, rolls, project, events)

    def crafting_session(
        self,
        characters: list[dict[str, Any]],
        owner: int,
        project_id: str,
        plans: list[dict[str, Any] | None],
        *,
        dice: Dice,
        settings: dict[str, Any] | None = None,
    ) -> tuple[list[dict[str, Any]], list[Outcome]]:
        """Several crafters («Изготовление › Несколько изготовителей»): the owner rolls on its
        project, then each resting companion who meets the tool and expertise requirements spends
        its activity to add its own rolls to the same item. ``plans`` hold one ``craft`` parameter
        dict per character (None: not crafting). Returns the new sheets and one outcome per
        crafter."""
        states = [copy.deepcopy(c) for c in characters]
        outs: list[Outcome] = []
        order = [owner, *(i for i in range(len(states)) if i != owner)]
        for i in order:
            plan = plans[i]
            if plan is None:
                continue
            params = {**plan, "project_id": project_id, "settings": settings}
            if i == owner:
                out = self.resolve("craft", states[owner], dice=dice, **params)
                states[owner] = out.state
                outs.append(out)
                continue
            call = self._call("craft", states[i], dice, params)
            project = next(pr for pr in states[owner]["projects"] if pr["id"] == project_id)
            problems = craft_rules.requirement_problems(
                call.state, project, tools_in_camp=call.params["tools_in_camp"], materials=False
            )
            if problems:
                raise RulesError({f"plans.{i}": problems})
            helper, rolls = self._craft_rolls(call)
            owner_state, project, events = craft_rules.add_points(
                states[owner], project, sum(r["points"] for r in rolls)
            )
            owner_state["projects"] = [
                project if pr["id"] == project_id else pr for pr in owner_state["projects"]
            ]
            states[owner], states[i] = owner_state, helper
            out = self._craft_outcome(call, helper, rolls, project, events)
            out.details["owner"] = owner
            outs.append(out)
        return states, outs

    def _setup_identify_check(self, call: Call) -> Setup:
        return self._check_setup(call, characteristic="reason")

    def _do_identify_check(self, call: Call) -> Outcome:
        """Holding a magic item, 2d10 + Reason («Опознание магических предметов»); no retry until
        circumstances change («Проверки › Повторная попытка»)."""
        st, p = call.state, call.params
        self._alive(st)
        found = find(st["inventory"], p["item_id"])
        if found is None or found[0] != HANDS:
            raise fail(
                "item_id",
                "Проверкой опознают предмет, который держат.",
                "The check identifies an item you hold.",
            )
        card = found[2]
        if not card["magic"]:
            raise fail("item_id", "Предмет не магический.", "The item is not magical.")
        if card["identified"]:
            raise fail("item_id", "Свойства уже известны.", "Already identified.")
        if not p["task"]:
            p["task"] = f"identify:{card['id']}"
        return self._roll_check(call)

    def _finish_identify_check(
        self, call: Call, result: CheckResult, out: Outcome, extra
    ) -> Outcome:
        item_id = call.params["item_id"]
        if result.tier == 3:
            card = copy.deepcopy(find(out.state["inventory"], item_id)[2])
            card["identified"] = True
            out.state["inventory"] = replace_card(out.state["inventory"], card)
        out.flags.update(identified=result.tier == 3, harmful_activation=result.tier == 1)
        return out

    def _do_butcher(self, call: Call) -> Outcome:
        """Разделать труп («Отдых › Разделать труп»; «Изготовление › Разделка на материалы»): 1d6
        parts up to Medium, 2d6 Large, 3d6 Huge, 4d6 Охренеть!; the corpse is destroyed."""
        p = call.params
        plan = RestPlan(item_id=p["item_id"], corpse_size=p["corpse_size"])
        st, events = _butcher(call.state, plan, call.dice)
        event = events[0]
        return Outcome(
            move=call.spec.key,
            total=event["parts"],
            faces=event["faces"],
            state=st,
            text=Text(f"Частей: {event['parts']}.", f"Parts: {event['parts']}."),
            details={"events": events},
        )
