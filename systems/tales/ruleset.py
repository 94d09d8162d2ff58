"""Сказания волшебного мира rules (rulebook: «Сказания волшебного мира»).

``resolve(move, state, dice=..., settings=..., choices=..., **params)`` as in Dungeon World:

* ``state`` is a character sheet (``SHEET``; GM characters use it too), the battle record
  (``BATTLE``) for battle moves, or anything for the random tables (returned unchanged);
* ``settings`` is the campaign's settings dict (``SETTINGS``; missing keys take defaults);
* ``choices`` optionally answers the first pending choice at once (same as ``apply_choice``);
* the rest are the move's parameters as ``describe()`` lists them.

Bands: ``"success"``/``"failure"`` for checks and attacks (success = hit), plus ``"repeat"``
when an opposed check must be rolled again («Противопоставленная проверка»); the winner is
``details["winner"]`` (``"actor"``/``"opponent"``). Initiative bands are the side that acts first
(``"party"``/``"enemies"``) or ``"repeat"``; table moves band as the result's entry key.
Checks roll under: ``total`` is the dice sum, ``modifier`` the effective value rolled
against, ``details["parts"]`` how that value was built; an automatic result has no faces.

The other side of an attack, push, grapple, spell or opposed check comes in as the ``target``
parameter (a whole sheet) and goes back changed as ``details["target"]``; without a sheet the
``opponent_value``/``target_*`` parameters stand in for it.

Pending choices (``Outcome.options``/``pick``/``chooser``, ``details["pending"]``):

* ``reaction``: the defender of an attack chooses ``dodge``, ``counter_attack`` or ``none``
  after seeing the attack roll («Атака»); ``chooser`` is the defender's ``controller``;
* ``repeat``: both sides of an opposed check bust (or tie): ``["repeat"]`` rolls it again
  with the same dice counts;
* ``spirit``: a failed check of a character holding spirit points: ``reroll`` or ``accept``
  («Ремёсла»).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from systems.core.dice import Dice
from systems.core.notation import roll_notation
from systems.core.outcome import Option, Outcome, Text
from systems.core.pbta import check_choices, continue_outcome, offer
from systems.core.rulekit import (
    MoveCall,
    MoveDispatch,
    common_params,
    describe_head,
    describe_moves,
    describe_settings,
    split_call,
    without_source,
)
from systems.core.ruleset import RulesError
from systems.core.schema import ObjectField, fail, validate
from systems.tales import wizard as wizard_mod
from systems.tales.checks import (
    ACTOR,
    AUTO,
    BANDS,
    CHECK,
    FAILURE,
    HARD,
    OPPOSED_BANDS,
    REPEAT,
    SUCCESS,
    CheckRoll,
    OpposedRoll,
    check_odds,
    combine_difficulty,
    opposed_odds,
    opposed_roll,
    roll_check,
)
from systems.tales.data import (
    ARMOURS,
    ARMOURS_BY_KEY,
    CONDITIONS,
    DIFFICULTIES,
    FORM_BY_SPELL,
    FORMS,
    NATURAL,
    NO_MOVE_WEAPONS,
    ORIGINS,
    SHIELDS,
    SKILL_GROUPS,
    SKILLS,
    SKILLS_BY_KEY,
    SPELLS,
    SPELLS_BY_KEY,
    STATS,
    SUMMON_BY_SPELL,
    SUMMONS,
    THROWN,
    TRAPS,
    TRAPS_BY_KEY,
    TRAPS_BY_ROLL,
    WEAPONS,
    WEAPONS_BY_KEY,
    Spell,
)
from systems.tales.moves import MOVES, MOVES_BY_KEY
from systems.tales.rules import (
    AttackPlan,
    add_condition,
    after_armour,
    dispel,
    end_form,
    end_scene,
    heal,
    helpless,
    plan_attack,
    remove_condition,
    roll_weapon_damage,
    start_form,
    take_damage,
    wound,
)
from systems.tales.sheet import (
    ALIVE,
    BATTLE,
    DEAD,
    SETTINGS,
    SHEET,
    SIDE_KEYS,
    SIDES,
    armour_value,
    consume_next_check,
    derived,
    dodge_value,
    drawn,
    movement,
    next_check_bonus,
    raw_stat,
    skill_level,
    skill_problems,
    spell_range,
    stat_mods,
    stat_value,
)
from systems.tales.tables import (
    TREASURE_LINES,
    all_tables,
    roll_table,
    roll_tables,
)

MASS_SLEEP_ROUNDS = 10  # a target whose opposed check keeps repeating stays awake after this

REACTIONS = {
    "dodge": Option("dodge", "Уклониться (проверка ловкости)", "Dodge (Dex check)"),
    "counter_attack": Option(
        "counter_attack", "Атаковать в ответ, если выживет", "Counter-attack if still alive"
    ),
    "none": Option("none", "Не реагировать", "Do not react"),
}
REPEAT_OPTION = Option("repeat", "Повторить проверку", "Repeat the check")
SPIRIT_OPTIONS = (
    Option("reroll", "Потратить пункт духа и перебросить", "Spend a spirit point to reroll"),
    Option("accept", "Принять провал", "Accept the failure"),
)


@dataclass
class _Call(MoveCall):
    """A call that also carries the battle's rounds so far."""

    rounds: list[dict[str, Any]] = field(default_factory=list)


_err = fail  # the rules' error: a field path and ru/en text


def _certain(band: str, bands: tuple[str, ...] = BANDS) -> dict[str, float]:
    return {b: (1.0 if b == band else 0.0) for b in bands}


def hp_str(state: dict[str, Any]) -> int:
    """The Str that max HP follows («Ранения и лечение»): the sheet value in its current shape with
    lasting changes (hunger, disease, «Структуры игры»); a charm's scene bonus does not move max
    HP."""
    return max(0, raw_stat(state, "str") + stat_mods(state, "str", until=("lasting",)))


def _sync_max_hp(state: dict[str, Any]) -> None:
    state["max_hp"] = hp_str(state)
    state["hp"] = min(state["hp"], state["max_hp"])
    if state["status"] == ALIVE and state["hp"] <= 0:
        state["status"] = DEAD


def _kill(state: dict[str, Any]) -> None:
    state["hp"] = min(state["hp"], 0)
    state["status"] = DEAD


def creature_sheet(
    name: str,
    stats: dict[str, int],
    *,
    damage: str = "",
    armour: int = 0,
    weapon: str = "",
    shield: str = "none",
) -> dict[str, Any]:
    """A GM character's sheet (summons «Чары» and monsters alike): HP = Str («Ранения и
    лечение»)."""
    sheet = SHEET.default_value()
    sheet.update(
        name=name,
        controller="referee",
        stats=dict(stats),
        hp=stats["str"],
        max_hp=stats["str"],
        shield=shield,
    )
    sheet["natural"] = {"name": "", "damage": damage, "armour": armour}
    if weapon:
        sheet["weapons"] = [{"key": weapon, "state": "drawn", "loaded": True, "reload_progress": 0}]
    return validate(SHEET, sheet)


class Tales(MoveDispatch):
    """Checks, the opposed check, battle, magic, advancement, hazards and random tables."""

    key = "tales"
    name_ru = "Сказания волшебного мира"
    name_en = "Tales of the Magic World"

    # --- description and validation ----------------------------------------------------------

    def describe(self) -> dict[str, Any]:
        """Everything a form or a help page needs, built from the specs the rules use."""
        return {
            **describe_head(self),
            "bands": list(OPPOSED_BANDS),
            "stats": [c.as_dict() for c in STATS],
            "difficulties": [c.as_dict() for c in DIFFICULTIES],
            "skill_groups": [c.as_dict() for c in SKILL_GROUPS],
            "skills": [s.as_dict() for s in SKILLS],
            "origins": [o.as_dict() for o in ORIGINS],
            "weapons": [w.as_dict() for w in WEAPONS],
            "armour": [a.as_dict() for a in ARMOURS],
            "shields": [s.as_dict() for s in SHIELDS],
            "spells": [s.as_dict() for s in SPELLS],
            "conditions": [c.as_dict() for c in CONDITIONS],
            "forms": [f.as_dict() for f in FORMS],
            "summons": [s.as_dict() for s in SUMMONS],
            "traps": [t.as_dict() for t in TRAPS],
            "sides": [c.as_dict() for c in SIDES],
            "sheet": SHEET.describe(),
            "battle": BATTLE.describe(),
            **describe_settings(SETTINGS),
            **describe_moves(MOVES),
            "wizard": wizard_mod.describe(),
            "tables": [without_source(t) for t in all_tables()],
            **common_params(
                "Сразу ответить на выбор, который предложит ход",
                "Answer the move's pending choice at once",
            ),
        }

    def default_state(self) -> dict[str, Any]:
        return self.validate_state(SHEET.default_value())

    def default_npc(self) -> dict[str, Any]:
        """A GM character: the same sheet, chosen for by the referee."""
        return self.validate_state({**SHEET.default_value(), "controller": "referee"})

    def default_battle(self) -> dict[str, Any]:
        return validate(BATTLE, {})

    def validate_state(self, state: dict[str, Any]) -> dict[str, Any]:
        """Clean a sheet: HP never above max («Ранения и лечение»), alive means HP above 0 («Ранения
        и лечение»), one entry per skill and Literacy without levels («Навыки»; «Социальные
        навыки»), each spell once."""
        clean = validate(SHEET, state)
        return self._sheet_rules(clean, "")

    def _sheet_rules(self, clean: dict[str, Any], path: str) -> dict[str, Any]:
        prefix = f"{path}." if path else ""
        if clean["hp"] > clean["max_hp"]:
            raise _err(f"{prefix}hp", "Хиты не могут превышать максимум.", "HP cannot exceed max.")
        if clean["status"] == ALIVE and clean["hp"] <= 0:
            raise _err(
                f"{prefix}status",
                "При 0 хитов и меньше персонаж мёртв.",
                "At 0 HP or less the character is dead.",
            )
        problems = skill_problems(clean)
        if problems:
            raise RulesError({f"{prefix}{k}": v for k, v in problems.items()})
        if len(set(clean["spells"])) != len(clean["spells"]):
            raise _err(f"{prefix}spells", "Заклинание записано дважды.", "A spell is listed twice.")
        return clean

    def validate_battle(self, battle: dict[str, Any]) -> dict[str, Any]:
        return validate(BATTLE, battle)

    def clean_settings(self, settings: dict[str, Any] | None = None) -> dict[str, Any]:
        """The campaign's settings with defaults filled in."""
        clean = validate(SETTINGS, settings or {}, path="settings")
        if clean["opposed_min_dice"] > clean["opposed_max_dice"]:
            raise _err(
                "settings.opposed_min_dice",
                "Минимум больше максимума.",
                "The minimum is above the maximum.",
            )
        return clean

    def derived(
        self, state: dict[str, Any], settings: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """Effective stats, movement, ranges, armour and dodge of a sheet."""
        return derived(self.validate_state(state), self.clean_settings(settings))

    def new_creature(self, name: str, stats: dict[str, int], **kw: Any) -> dict[str, Any]:
        """A GM character's sheet with HP = Str."""
        return creature_sheet(name, stats, **kw)

    # --- the wizard -------------------------------------------------------------------------

    def wizard_start(self) -> dict[str, Any]:
        """A fresh new-character wizard (see ``systems.tales.wizard``)."""
        return wizard_mod.start()

    def wizard_step(
        self,
        wizard: dict[str, Any],
        action: str,
        *,
        dice: Dice | None = None,
        settings: dict[str, Any] | None = None,
        **params: Any,
    ) -> dict[str, Any]:
        """Run one wizard action; returns the new wizard state (the input is untouched)."""
        return wizard_mod.advance(wizard, action, dice=dice, settings=settings, **params)

    def wizard_preview(
        self, wizard: dict[str, Any], settings: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        return wizard_mod.preview(wizard, settings)

    # --- entry points -------------------------------------------------------------------------

    def apply_choice(
        self, outcome: Outcome, choices: list[str], *, dice: Dice | None = None
    ) -> Outcome:
        """Finish a pending outcome with the chosen option keys (exactly ``outcome.pick``)."""
        pending = outcome.details.get("pending")
        if not outcome.pending or not pending:
            return super().apply_choice(outcome, choices, dice=dice)
        check_choices(outcome, choices)
        if dice is None:
            raise _err("dice", "Для этого выбора нужны кубики.", "This choice needs dice.")
        pending = copy.deepcopy(pending)
        call = _Call(
            spec=MOVES_BY_KEY[pending["move"]],
            state=copy.deepcopy(outcome.state),
            params=pending["params"],
            dice=dice,
            settings=pending["settings"],
            rounds=list(outcome.details.get("rounds", [])),
        )
        handler = getattr(self, f"_choose_{pending['kind']}")
        result = handler(call, choices[0], pending, outcome)
        result.details["choices"] = [*outcome.details.get("choices", []), *choices]
        return result

    def odds(self, move: str, state: dict[str, Any], **params: Any) -> dict[str, float]:
        """Exact band chances before rolling, with every modifier the roll would use; ``{}``
        for moves that roll no check."""
        call = self._call(move, state, None, params)
        handler = getattr(self, f"_odds_{move}", None)
        return handler(call) if handler else {}

    # --- plumbing -------------------------------------------------------------------------

    def _call(self, move: str, state: Any, dice: Dice | None, params: dict) -> _Call:
        spec, settings, params = split_call(
            move, params, clean_settings=self.clean_settings, moves_by_key=MOVES_BY_KEY
        )
        if spec.subject == "character":
            clean = self.validate_state(state)
        elif spec.subject == "battle":
            clean = self.validate_battle(state)
        else:
            clean = copy.deepcopy(state if state is not None else {})
        clean_params = validate(spec.params, params)
        for name, f in spec.params.fields.items():
            value = clean_params.get(name)
            if value is None:
                continue
            if isinstance(f, ObjectField) and f.fields is SHEET.fields:
                self._sheet_rules(value, name)
            elif name == "targets":
                for i, t in enumerate(value):
                    self._sheet_rules(t, f"targets.{i}")
        return _Call(spec, clean, clean_params, dice, settings)

    def _outcome(
        self,
        call: _Call,
        *,
        state: dict[str, Any],
        band: str | None = None,
        total: int | None = None,
        faces: list[int] | tuple[int, ...] = (),
        modifier: int = 0,
        text: Text | None = None,
        flags: dict[str, Any] | None = None,
        details: dict[str, Any] | None = None,
    ) -> Outcome:
        if text is None:
            text = call.spec.results.get(band) if band else None
            text = text or Text(call.spec.ru, call.spec.en)
        all_details = dict(details or {})
        if call.rounds:
            all_details.setdefault("rounds", list(call.rounds))
        return Outcome(
            move=call.spec.key,
            total=total,
            band=band,
            faces=list(faces),
            modifier=modifier,
            state=state,
            text=text,
            flags=dict(flags or {}),
            details=all_details,
        )

    def _pending(
        self,
        call: _Call,
        outcome: Outcome,
        options: list[Option],
        *,
        kind: str,
        chooser: str,
        extra: dict[str, Any] | None = None,
    ) -> Outcome:
        pending = {
            "kind": kind,
            "move": call.spec.key,
            "params": copy.deepcopy(call.params),
            "settings": copy.deepcopy(call.settings),
            **(extra or {}),
        }
        return offer(outcome, options, pick=1, chooser=chooser, pending=pending)

    @staticmethod
    def _need_dice(call: _Call) -> Dice:
        if call.dice is None:
            raise _err("dice", "Нужны кубики.", "Dice are needed here.")
        return call.dice

    @staticmethod
    def _alive(state: dict[str, Any], path: str = "status") -> None:
        if state["status"] == DEAD:
            raise _err(path, "Персонаж мёртв.", "The character is dead.")

    def _can_act(self, state: dict[str, Any], *, action: bool = True) -> None:
        """Alive, not held, bound, frozen or asleep, and (for an action) not acted yet."""
        self._alive(state)
        for cond in ("grappled", "bound", "strongly_bound", "frozen", "asleep"):
            if cond in state["conditions"]:
                raise _err(
                    "conditions",
                    f"Персонаж не может так действовать: {cond}.",
                    f"The character cannot act like that: {cond}.",
                )
        if action and state["combat"]["action_used"]:
            raise _err(
                "combat.action_used",
                "Действие в этот ход уже сделано.",
                "The action of this turn is already used.",
            )

    @staticmethod
    def _use_action(state: dict[str, Any]) -> None:
        state["combat"]["action_used"] = True

    def _difficulty(self, state: dict[str, Any], base: str, settings: dict[str, Any]) -> str:
        """Ice underfoot makes every check hard («Чары»); other difficulties combine as
        ``checks`` reads them."""
        extra = [HARD] if "on_ice" in state["conditions"] else []
        return combine_difficulty(base, extra, stack=settings["difficulty_stacking"] == "stack")

    def _dice_counts(self, call: _Call) -> tuple[int, int]:
        lo, hi = call.settings["opposed_min_dice"], call.settings["opposed_max_dice"]
        a, b = call.params["dice_count"], call.params["opponent_dice"]
        for name, n in (("dice_count", a), ("opponent_dice", b)):
            if not lo <= n <= hi:
                raise _err(name, f"От {lo} до {hi} кубиков.", f"Between {lo} and {hi} dice.")
        return a, b

    # --- checks ---------------------------------------------------------------------------------

    def _stat_parts(
        self, state: dict[str, Any], stat: str, skill: str, detail: str, bonus: int
    ) -> dict[str, int]:
        """A check's target: stat + skill levels («Навыки») + one-shot bonuses + others."""
        parts = {stat: stat_value(state, stat)}
        if skill:
            parts["skill"] = skill_level(state, skill, detail or None)
        parts["next_check"] = next_check_bonus(state, stat)
        parts["bonus"] = bonus
        return parts

    def _roll(
        self, call: _Call, state: dict[str, Any], stat: str, parts: dict[str, int], base: str
    ) -> CheckRoll:
        difficulty = self._difficulty(state, base, call.settings)
        roll = roll_check(self._need_dice(call), sum(parts.values()), difficulty)
        consume_next_check(state, stat)
        return roll

    def _check_outcome(
        self,
        call: _Call,
        state: dict[str, Any],
        roll: CheckRoll,
        parts: dict[str, int],
        *,
        details: dict[str, Any] | None = None,
        flags: dict[str, Any] | None = None,
        text: Text | None = None,
    ) -> Outcome:
        return self._outcome(
            call,
            state=state,
            band=roll.band,
            total=roll.total,
            faces=roll.faces,
            modifier=sum(parts.values()),
            text=text,
            flags=flags,
            details={"check": roll.as_dict(), "parts": parts, **(details or {})},
        )

    def _spirit_or_finish(
        self, call: _Call, state: dict[str, Any], roll: CheckRoll, parts: dict[str, int]
    ) -> Outcome:
        """A failed check may be rerolled for a spirit point («Ремёсла»); else it is final."""
        if roll.success or roll.total is None or state["care"]["spirit_points"] < 1:
            return getattr(self, f"_finish_{call.spec.key}")(call, state, roll, parts)
        out = self._check_outcome(call, state, roll, parts)
        return self._pending(
            call,
            out,
            list(SPIRIT_OPTIONS),
            kind="spirit",
            chooser=state["controller"],
            extra={"parts": parts, "difficulty": roll.difficulty, "target": roll.target},
        )

    def _choose_spirit(self, call: _Call, choice: str, pending: dict, outcome: Outcome) -> Outcome:
        """Our reading: one spirit point rerolls all dice of one failed check."""
        state, parts = call.state, pending["parts"]
        roll = CheckRoll(
            pending["difficulty"], pending["target"], tuple(outcome.faces), outcome.total, False
        )
        if choice == "reroll":
            state["care"]["spirit_points"] -= 1
            roll = roll_check(self._need_dice(call), roll.target, pending["difficulty"])
            out = self._spirit_or_finish(call, state, roll, parts)
            out.flags["spirit_reroll"] = True
            return out
        return getattr(self, f"_finish_{call.spec.key}")(call, state, roll, parts)

    def _do_check(self, call: _Call) -> Outcome:
        """Проверка («Проверка ловкости, силы и разума»): 2d10, hard 3d10, very hard 4d10, at most
        the stat plus skill levels; the GM may call it automatic or impossible («Проверка ловкости,
        силы и разума»; «Противопоставленная проверка»)."""
        st, p = call.state, call.params
        self._alive(st)
        if p["skill"]:
            self._gate(st, p["skill"], p["detail"])
        parts = self._stat_parts(st, p["stat"], p["skill"], p["detail"], p["bonus"])
        roll = self._roll(call, st, p["stat"], parts, p["difficulty"])
        return self._spirit_or_finish(call, st, roll, parts)

    def _finish_check(self, call: _Call, state, roll: CheckRoll, parts) -> Outcome:
        return self._check_outcome(call, state, roll, parts)

    def _odds_check(self, call: _Call) -> dict[str, float]:
        st, p = call.state, call.params
        parts = self._stat_parts(st, p["stat"], p["skill"], p["detail"], p["bonus"])
        return check_odds(sum(parts.values()), self._difficulty(st, p["difficulty"], call.settings))

    @staticmethod
    def _gate(state: dict[str, Any], key: str, detail: str = "") -> None:
        """Some skills allow what is impossible without them («Навыки»)."""
        skill = SKILLS_BY_KEY[key]
        if skill.gated and skill_level(state, key, detail or None) < 1:
            raise _err(
                "skill",
                f"Без навыка «{skill.ru}» это невозможно.",
                f"Impossible without {skill.en}.",
            )

    # --- opposed checks -------------------------------------------------------------------------

    def _opposed(
        self,
        call: _Call,
        actor_value: int,
        opponent_value: int,
        *,
        then: str,
        extra: dict[str, Any] | None = None,
    ) -> Outcome:
        """Roll an opposed check; a repeat waits for ``["repeat"]`` («Противопоставленная
        проверка»)."""
        a_n, b_n = self._dice_counts(call)
        roll = opposed_roll(
            self._need_dice(call),
            actor_value,
            a_n,
            opponent_value,
            b_n,
            tie=call.settings["opposed_tie"],
        )
        call.rounds.append(roll.as_dict())
        if roll.winner is None:
            out = self._opposed_outcome(call, call.state, roll)
            return self._pending(
                call,
                out,
                [REPEAT_OPTION],
                kind="repeat",
                chooser=call.state.get("controller", "player"),
                extra={"values": [actor_value, opponent_value], "then": then, **(extra or {})},
            )
        return getattr(self, f"_then_{then}")(call, roll, extra or {})

    def _choose_repeat(self, call: _Call, choice: str, pending: dict, outcome: Outcome) -> Outcome:
        a, b = pending["values"]
        return self._opposed(
            call,
            a,
            b,
            then=pending["then"],
            extra={
                k: v
                for k, v in pending.items()
                if k not in ("kind", "move", "params", "settings", "values", "then")
            },
        )

    def _opposed_outcome(
        self,
        call: _Call,
        state: dict[str, Any],
        roll: OpposedRoll,
        *,
        text: Text | None = None,
        flags: dict[str, Any] | None = None,
        details: dict[str, Any] | None = None,
    ) -> Outcome:
        return self._outcome(
            call,
            state=state,
            band=roll.band,
            total=roll.actor.total,
            faces=[*roll.actor.faces, *roll.opponent.faces],
            modifier=roll.actor.value,
            text=text,
            flags=flags,
            details={
                "opposed": roll.as_dict(),
                "winner": roll.winner,
                "rounds": list(call.rounds),
                **(details or {}),
            },
        )

    def _opponent_value(
        self, call: _Call, sheet: dict[str, Any] | None, stat: str, path: str = "target"
    ) -> int:
        if sheet is not None:
            return stat_value(sheet, stat)
        if call.params.get("opponent_value") is None:
            raise _err(
                path,
                "Нужен лист противника или значение его характеристики.",
                "Give the opponent's sheet or its value.",
            )
        return call.params["opponent_value"]

    def _opposed_odds(self, call: _Call, a: int, b: int) -> dict[str, float]:
        a_n, b_n = self._dice_counts(call)
        return opposed_odds(a, a_n, b, b_n, tie=call.settings["opposed_tie"])

    def _opposed_values(self, call: _Call) -> tuple[int, int]:
        st, p = call.state, call.params
        parts = self._stat_parts(st, p["stat"], p["skill"], p["detail"], p["bonus"])
        other = p["opponent_stat"] or p["stat"]
        return sum(parts.values()), self._opponent_value(call, p["target"], other)

    def _do_opposed_check(self, call: _Call) -> Outcome:
        """Противопоставленная проверка («Противопоставленная проверка»): each side dares some d10;
        a total above one's value busts and loses; both bust repeats; else the higher total wins."""
        self._alive(call.state)
        a, b = self._opposed_values(call)
        consume_next_check(call.state, call.params["stat"])
        return self._opposed(call, a, b, then="opposed_check")

    def _then_opposed_check(self, call: _Call, roll: OpposedRoll, extra: dict) -> Outcome:
        return self._opposed_outcome(call, call.state, roll)

    def _odds_opposed_check(self, call: _Call) -> dict[str, float]:
        return self._opposed_odds(call, *self._opposed_values(call))

    # --- skills -------------------------------------------------------------------------------

    def _skill_setup(self, call: _Call) -> tuple[str, dict[str, int], bool]:
        """The skill's stat, the check's parts, and whether it is an opposed check."""
        st, p = call.state, call.params
        skill = SKILLS_BY_KEY[p["skill"]]
        if skill.stat is None:
            raise _err(
                "skill",
                f"«{skill.ru}» не проверяется сам по себе.",
                f"{skill.en} is not rolled by itself.",
            )
        self._gate(st, skill.key, p["detail"])
        parts = self._stat_parts(st, skill.stat, skill.key, p["detail"], p["bonus"])
        # «Социальные навыки»: Charisma and Diplomacy are opposed Mind checks; the GM may make
        # Diplomacy a hard check instead.
        opposed = skill.opposed and p["difficulty"] == CHECK
        return skill.stat, parts, opposed

    def _patient(self, call: _Call) -> dict[str, Any]:
        return call.params["target"] if call.params["target"] is not None else call.state

    def _do_skill(self, call: _Call) -> Outcome:
        """Навыки («Навыки»; «Боевые навыки»; «Спортивные навыки»; «Социальные навыки»; «Навыки
        выживания»; «Воровские навыки»; «Ремёсла»): a check of the skill's stat, +1 per level, and
        its effect."""
        st, p = call.state, call.params
        self._alive(st)
        stat, parts, opposed = self._skill_setup(call)
        key = p["skill"]
        if key == "medicine":
            patient = self._patient(call)
            if patient["status"] == DEAD or patient["hp"] >= patient["max_hp"]:
                raise _err(
                    "target",
                    "Медицина — только на раненого.",
                    "Medicine only works on the wounded.",
                )
            if patient["care"]["medicine_used"]:
                raise _err(
                    "target",
                    "Медицина уже применялась к этим ранам.",
                    "Medicine was already used on these wounds.",
                )
        if key == "alchemy" and not p["in_town"]:
            raise _err(
                "in_town",
                "Зелья алхимик делает только в городе.",
                "Alchemy works only in towns.",
            )
        if opposed:
            b = self._opponent_value(call, p["target"], "mind")
            consume_next_check(st, stat)
            return self._opposed(call, sum(parts.values()), b, then="skill")
        roll = self._roll(call, st, stat, parts, p["difficulty"])
        return self._spirit_or_finish(call, st, roll, parts)

    def _then_skill(self, call: _Call, roll: OpposedRoll, extra: dict) -> Outcome:
        key = call.params["skill"]
        details: dict[str, Any] = {}
        if roll.winner == ACTOR:
            details["attitude"] = (
                {"from": "neutral", "to": "friendly"}
                if key == "charisma"
                else {"from": "hostile", "to": "neutral"}
            )
        return self._opposed_outcome(call, call.state, roll, details=details)

    def _finish_skill(self, call: _Call, state, roll: CheckRoll, parts) -> Outcome:
        """The skill's own effect on a success (or a failure, for Vigilance and Medicine)."""
        p, key = call.params, call.params["skill"]
        level = skill_level(state, key, p["detail"] or None)
        details: dict[str, Any] = {"level": level}
        flags: dict[str, Any] = {}
        ok = roll.success
        if key == "medicine":
            # «Ремёсла», as we read it: one attempt per wounding, success or not.
            patient = state if p["target"] is None else copy.deepcopy(p["target"])
            patient["care"]["medicine_used"] = True
            details["healed"] = heal(patient, level) if ok else 0
            if p["target"] is not None:
                details["target"] = patient
        elif key == "herbalism" and ok:
            state["potions"].append({"kind": "healing", "value": level, "stat": "any"})
            details["potion"] = state["potions"][-1]
        elif key == "alchemy" and ok:
            # Our reading of «Ремёсла»: the potion gives +1 per Alchemy level to its stat's next
            # check.
            state["potions"].append({"kind": "alchemy", "value": level, "stat": p["stat"]})
            details["potion"] = state["potions"][-1]
        elif key == "performance" and ok:
            details["spirit_points_each"] = level
        elif key == "leadership" and ok:
            bonus = {"stat": "any", "value": level, "until": "next_check", "source": "leadership"}
            if p["target"] is not None:
                follower = copy.deepcopy(p["target"])
                follower["stat_mods"].append(bonus)
                details["target"] = follower
            details["bonus"] = level
        elif key == "survival":
            hard = roll.difficulty != CHECK
            details["fed"] = (3 if ok else 0) if hard else (1 if ok else 0)
            flags["ration_saved"] = ok and not hard
        elif key == "vigilance" and not ok and p["in_town"]:
            stolen = {"silver": state["silver"] // 2, "gold": state["gold"] // 2}
            state["silver"] -= stolen["silver"]
            state["gold"] -= stolen["gold"]
            details["stolen"] = stolen
        elif key == "tactics" and ok:
            flags["initiative_to_party"] = True
        elif key == "surprise" and ok:
            flags["acts_before_initiative"] = True
        elif key == "haggling" and ok:
            details["price_change_percent"] = 10
        return self._check_outcome(call, state, roll, parts, details=details, flags=flags)

    def _odds_skill(self, call: _Call) -> dict[str, float]:
        _stat, parts, opposed = self._skill_setup(call)
        if opposed:
            b = self._opponent_value(call, call.params["target"], "mind")
            return self._opposed_odds(call, sum(parts.values()), b)
        diff = self._difficulty(call.state, call.params["difficulty"], call.settings)
        return check_odds(sum(parts.values()), diff)

    # --- battle: surprise, tactics, initiative ------------------------------------------------

    def _do_surprise(self, call: _Call) -> Outcome:
        """Внезапность («Внезапность»): the unaware side rolls d6; 5-6 nothing, 1-4 the enemy acts
        once before initiative."""
        b = call.state
        if b["phase"] != "start":
            raise _err("phase", "Внезапность — только в начале битвы.", "Only at the start.")
        face = self._need_dice(call).roll(6)
        b["unaware"] = call.params["unaware"]
        b["surprise_roll"] = face
        sensed = face >= 5
        b["phase"] = "initiative" if sensed else "surprise"
        acting = None if sensed else next(k for k in SIDE_KEYS if k != b["unaware"])
        return self._outcome(
            call,
            state=b,
            band=SUCCESS if sensed else FAILURE,
            total=face,
            faces=[face],
            details={"acts_first": acting},
        )

    def _odds_surprise(self, call: _Call) -> dict[str, float]:
        return {SUCCESS: 2 / 6, FAILURE: 4 / 6}

    def _tactics_parts(self, call: _Call) -> tuple[dict[str, Any], dict[str, int]]:
        who = call.params["character"]
        if who is None:
            raise _err("character", "Кто применяет тактику?", "Who uses Tactics?")
        self._gate(who, "tactics")
        return who, self._stat_parts(who, "mind", "tactics", "", call.params["bonus"])

    def _do_tactics(self, call: _Call) -> Outcome:
        """Тактика («Навыки выживания»): a success gives the initiative to the characters' side; one
        try per battle (our reading)."""
        b = call.state
        if b["tactics_tried"]:
            raise _err("tactics_tried", "Тактика уже применялась.", "Tactics was already tried.")
        if b["phase"] == "rounds":
            raise _err("phase", "Инициатива уже определена.", "Initiative is already settled.")
        who, parts = self._tactics_parts(call)
        who = copy.deepcopy(who)
        roll = self._roll(call, who, "mind", parts, CHECK)
        b["tactics_tried"] = True
        if roll.success:
            b["first"] = "party"
        return self._check_outcome(call, b, roll, parts, details={"character": who})

    def _odds_tactics(self, call: _Call) -> dict[str, float]:
        who, parts = self._tactics_parts(call)
        return check_odds(sum(parts.values()), self._difficulty(who, CHECK, call.settings))

    def _do_initiative(self, call: _Call) -> Outcome:
        """Инициатива («Инициатива»): each side rolls d10 once per battle; the higher acts first,
        then the sides alternate; a tie is rolled again (our reading)."""
        b = call.state
        if b["phase"] == "rounds":
            raise _err("phase", "Инициатива уже определена.", "Initiative is already settled.")
        faces: list[int] = []
        if b["first"] is None:
            dice = self._need_dice(call)
            party, enemies = dice.roll(10), dice.roll(10)
            faces = [party, enemies]
            b["initiative"] = {"party": party, "enemies": enemies}
            if party == enemies:
                b["phase"] = "initiative"
                return self._outcome(call, state=b, band=REPEAT, faces=faces)
            b["first"] = "party" if party > enemies else "enemies"
        b["current"] = b["first"]
        b["round"] = 1
        b["phase"] = "rounds"
        second = next(k for k in SIDE_KEYS if k != b["first"])
        return self._outcome(
            call,
            state=b,
            band=b["first"],
            faces=faces,
            details={"order": [b["first"], second], "by_tactics": not faces},
        )

    def _odds_initiative(self, call: _Call) -> dict[str, float]:
        if call.state["first"] is not None:
            return _certain(call.state["first"], (*SIDE_KEYS, REPEAT))
        return {"party": 0.45, "enemies": 0.45, REPEAT: 0.1}

    def _do_next_side(self, call: _Call) -> Outcome:
        """The sides alternate («Инициатива»); a new round begins when the first side acts again."""
        b = call.state
        if b["phase"] != "rounds":
            raise _err("phase", "Сначала инициатива.", "Roll initiative first.")
        b["current"] = next(k for k in SIDE_KEYS if k != b["current"])
        new_round = b["current"] == b["first"]
        if new_round:
            b["round"] += 1
        return self._outcome(call, state=b, flags={"new_round": new_round})

    # --- turns, movement, weapons -------------------------------------------------------------

    def _do_start_turn(self, call: _Call) -> Outcome:
        """A turn: movement and one action («Ход»). One who reacted loses it («Атака»)."""
        st = call.state
        self._alive(st)
        combat = st["combat"]
        skipped = combat["skip_activation"]
        combat.update(
            skip_activation=False,
            action_used=skipped,
            movement_used=movement(st) if skipped else 0,
            attacked=False,
            shot=False,
        )
        details: dict[str, Any] = {"movement": movement(st)}
        if call.params["in_fire"]:
            details["fire"] = wound(st, 2)  # «Чары»: armour does not help
        text = (
            Text("Ход пропущен из-за реакции.", "The turn is lost to a reaction.")
            if skipped
            else None
        )
        return self._outcome(call, state=st, text=text, flags={"skipped": skipped}, details=details)

    def _do_new_round(self, call: _Call) -> Outcome:
        call.state["combat"]["reaction_used"] = False
        return self._outcome(call, state=call.state)

    def _do_move(self, call: _Call) -> Outcome:
        """Move up to ⌊eff Dex / 2⌋ («Ход»); never after attacking («Атака»); a bow or
        crossbow shooter not at all («Атака»)."""
        st, units = call.state, call.params["units"]
        self._can_act(st, action=False)
        combat = st["combat"]
        if combat["attacked"]:
            raise _err("units", "После атаки двигаться нельзя.", "No moving after an attack.")
        left = movement(st) - combat["movement_used"]
        if units > left:
            raise _err("units", f"Осталось движения: {left}.", f"Movement left: {left}.")
        combat["movement_used"] += units
        return self._outcome(call, state=st, details={"left": left - units})

    def _do_handle_weapon(self, call: _Call) -> Outcome:
        """Drawing and sheathing are actions, dropping is free («Атака»); picking up is an action
        that leaves the weapon in hand («Ход»); a knuckle-duster needs no action («Оружие»); a
        two-handed weapon leaves no hand for a shield («Оружие»)."""
        st, p = call.state, call.params
        self._alive(st)
        if p["index"] >= len(st["weapons"]):
            raise _err("index", "Нет такого оружия.", "No such weapon.")
        entry = st["weapons"][p["index"]]
        weapon = WEAPONS_BY_KEY[entry["key"]]
        op = p["op"]
        need = {"draw": "sheathed", "sheathe": "drawn", "drop": "drawn", "pick_up": "dropped"}
        if entry["state"] != need[op]:
            raise _err("index", "Оружие не в том положении.", "The weapon is not in that state.")
        costs_action = op in ("draw", "sheathe", "pick_up") and not (
            weapon.free_ready and op == "draw"
        )
        if op in ("draw", "pick_up"):
            hands = sum(2 if WEAPONS_BY_KEY[k].two_handed else 1 for k in drawn(st))
            hands += 2 if weapon.two_handed else 1
            hands += 0 if st["shield"] == "none" else 1
            if weapon.two_handed and st["shield"] != "none":
                raise _err(
                    "index",
                    "Двуручное оружие не совместимо со щитом.",
                    "A two-handed weapon leaves no hand for a shield.",
                )
            if hands > 2:
                raise _err("index", "Не хватает рук.", "Not enough hands.")
        if costs_action:
            self._can_act(st)
            self._use_action(st)
        entry["state"] = {
            "draw": "drawn",
            "sheathe": "sheathed",
            "drop": "dropped",
            "pick_up": "drawn",
        }[op]
        return self._outcome(call, state=st, flags={"action": costs_action})

    def _do_reload(self, call: _Call) -> Outcome:
        """A crossbow takes an action to reload, a heavy crossbow two («Атака»)."""
        st, p = call.state, call.params
        if p["index"] >= len(st["weapons"]):
            raise _err("index", "Нет такого оружия.", "No such weapon.")
        entry = st["weapons"][p["index"]]
        weapon = WEAPONS_BY_KEY[entry["key"]]
        if weapon.reload_actions == 0 or entry["loaded"]:
            raise _err("index", "Перезаряжать нечего.", "Nothing to reload.")
        self._can_act(st)
        self._use_action(st)
        entry["reload_progress"] += 1
        if entry["reload_progress"] >= weapon.reload_actions:
            entry["loaded"] = True
            entry["reload_progress"] = 0
        return self._outcome(call, state=st, flags={"loaded": entry["loaded"]})

    # --- attacks and reactions ------------------------------------------------------------------

    def _do_attack(self, call: _Call) -> Outcome:
        """Атака («Атака»): one attack on one enemy; 2d10 at most eff Dex hits («Проверка на
        попадание по врагу»; «Атака»); then the defender may dodge or counter-attack («Атака»); no
        moving afterwards."""
        st = call.state
        self._can_act(st)
        return self._attack(call, opportunity=False)

    def _do_opportunity_attack(self, call: _Call) -> Outcome:
        """Someone moved too close («Атака»): a normal attack that costs the attacker's next
        action, once per round."""
        st = call.state
        self._can_act(st, action=False)
        if st["combat"]["reaction_used"]:
            raise _err(
                "combat.reaction_used",
                "Реакция в этом раунде уже была.",
                "Already reacted this round.",
            )
        st["combat"]["reaction_used"] = True
        st["combat"]["skip_activation"] = True
        return self._attack(call, opportunity=True)

    def _attack(self, call: _Call, *, opportunity: bool) -> Outcome:
        st, p = call.state, call.params
        target = p["target"]
        plan, entry = plan_attack(st, target, p, call.settings)
        if not opportunity:
            self._use_action(st)
            st["combat"]["attacked"] = True
            st["combat"]["shot"] = plan.weapon.key in NO_MOVE_WEAPONS
        if entry is not None:
            if plan.mode == THROWN:
                entry["state"] = "dropped"  # the thrown weapon lies where it landed
            elif plan.weapon.reload_actions:
                entry["loaded"] = False
        if plan.auto is None:
            roll = roll_check(self._need_dice(call), plan.eff, plan.difficulty)
        else:
            roll = CheckRoll(plan.difficulty, plan.eff, (), None, plan.auto == "hit")
        consume_next_check(st, "dex")
        hit = roll.success
        details: dict[str, Any] = {"plan": plan.as_dict(), "check": roll.as_dict()}
        flags: dict[str, Any] = {"hit": hit, "auto": plan.auto}
        can_react = (
            target is not None
            and not opportunity
            and not target["combat"]["reaction_used"]
            and not helpless(target)
        )
        if target is not None and hit:
            # An attack wakes a sleeper («Чары») and breaks a freeze («Чары»), too late to react.
            remove_condition(target, "asleep", "frozen")
        if plan.mirrored:
            # «Чары»: thrown and shot attacks rebound; a hit hits the shooter.
            flags["mirrored"] = True
            if hit:
                dmg = roll_weapon_damage(plan, self._need_dice(call), armour_value(st))
                details["damage"] = dmg
                details["attacker_wound"] = wound(st, dmg["final"])
            if target is not None:
                details["target"] = target
            return self._attack_outcome(call, st, roll, plan, details, flags)
        if target is None:
            if hit:
                dmg = roll_weapon_damage(plan, self._need_dice(call), plan.target_armour)
                details["damage"] = dmg
            return self._attack_outcome(call, st, roll, plan, details, flags)
        details["target"] = target
        out = self._attack_outcome(call, st, roll, plan, details, flags)
        if not can_react:
            return self._react(call, out, "none", plan)
        options = [REACTIONS["dodge"]] if hit else []
        options += [REACTIONS["counter_attack"], REACTIONS["none"]]
        return self._pending(
            call,
            out,
            options,
            kind="reaction",
            chooser=target["controller"],
            extra={"plan": plan.as_dict()},
        )

    def _attack_outcome(
        self, call: _Call, st, roll: CheckRoll, plan: AttackPlan, details, flags
    ) -> Outcome:
        return self._outcome(
            call,
            state=st,
            band=roll.band,
            total=roll.total,
            faces=roll.faces,
            modifier=plan.eff,
            details=details,
            flags=flags,
        )

    def _choose_reaction(
        self, call: _Call, choice: str, pending: dict, outcome: Outcome
    ) -> Outcome:
        out = continue_outcome(outcome, [choice], state=call.state)
        plan = self._plan_from(pending["plan"]) if pending["plan"] else None
        return self._react(call, out, choice, plan)

    @staticmethod
    def _plan_from(data: dict[str, Any]) -> AttackPlan:
        weapon = WEAPONS_BY_KEY.get(data["weapon"]) or WEAPONS_BY_KEY["unarmed"]
        return AttackPlan(
            weapon,
            data["mode"],
            data["eff"],
            data["parts"],
            data["difficulty"],
            data["auto"],
            data["reasons"],
            data["damage"],
            data["military"],
            data["target_armour"],
            data["mirrored"],
        )

    def _react(self, call: _Call, out: Outcome, choice: str, plan: AttackPlan | None) -> Outcome:
        """The defender's reaction («Атака»): dodge (a Dex check after seeing the roll),
        counter-attack (a normal attack back if it survives) or nothing; reacting costs its
        next activation. Then damage: weapon dice + military skill − armour, at least 1."""
        st = copy.deepcopy(out.state)
        details = copy.deepcopy(out.details)
        flags = dict(out.flags)
        target = details["target"]
        dice = self._need_dice(call)
        hit = flags["hit"]
        band = out.band
        if choice != "none":
            target["combat"]["reaction_used"] = True
            target["combat"]["skip_activation"] = True
            flags["reaction"] = choice
        if choice == "dodge":
            dodge = dodge_value(target, stack=call.settings["dodge_bonuses_stack"])
            difficulty = self._difficulty(target, CHECK, call.settings)
            roll = roll_check(dice, dodge, difficulty)
            details["dodge"] = roll.as_dict()
            if roll.success:
                hit = False
                band = FAILURE
                flags.update(hit=False, dodged=True)
        if hit and plan is not None:
            dmg = roll_weapon_damage(plan, dice, armour_value(target))
            details["damage"] = dmg
            details["target_wound"] = wound(target, dmg["final"])
        if choice == "counter_attack" and target["status"] == ALIVE:
            details["counter_attack"] = self._counter(call, target, st, dice)
        return Outcome(
            move=out.move,
            total=out.total,
            band=band,
            faces=list(out.faces),
            modifier=out.modifier,
            state=st,
            text=self._attack_text(call, band, details),
            flags=flags,
            details={**details, "target": target},
        )

    def _counter(
        self, call: _Call, defender: dict[str, Any], attacker: dict[str, Any], dice: Dice
    ) -> dict[str, Any]:
        """Ответная атака («Атака»): a normal attack back, rolled at once; the original attacker
        gets no reaction to it (our reading: no reaction to a reaction)."""
        weapon = call.params.get("counter_weapon") or ""
        if not weapon:
            held = drawn(defender)
            if held:
                weapon = held[0]
            elif defender["natural"]["damage"] or defender["form"]["key"] != "none":
                weapon = NATURAL
            else:
                weapon = "unarmed"
        params = {"weapon": weapon, "mode": "", "distance": call.params.get("distance"), "bonus": 0}
        plan, entry = plan_attack(defender, attacker, params, call.settings, counter=True)
        if entry is not None and plan.weapon.reload_actions and plan.mode != THROWN:
            entry["loaded"] = False
        if plan.auto is None:
            roll = roll_check(dice, plan.eff, plan.difficulty)
        else:
            roll = CheckRoll(plan.difficulty, plan.eff, (), None, plan.auto == "hit")
        result: dict[str, Any] = {
            "plan": plan.as_dict(),
            "check": roll.as_dict(),
            "hit": roll.success,
        }
        if roll.success:
            remove_condition(attacker, "asleep", "frozen")
            dmg = roll_weapon_damage(plan, dice, armour_value(attacker))
            result["damage"] = dmg
            result["wound"] = wound(attacker, dmg["final"])
        return result

    @staticmethod
    def _attack_text(call: _Call, band: str | None, details: dict[str, Any]) -> Text:
        if details.get("dodge", {}).get("success"):
            return Text("Цель увернулась.", "The target dodged.")
        if band == SUCCESS and "damage" in details:
            n = details["damage"]["final"]
            dead = details.get("target_wound", {}).get("died")
            return Text(
                f"Попадание: {n} повреждений." + (" Цель погибла." if dead else ""),
                f"Hit: {n} damage." + (" The target is dead." if dead else ""),
            )
        return call.spec.results.get(band or "", Text("", ""))

    def _odds_attack(self, call: _Call) -> dict[str, float]:
        plan, _ = plan_attack(call.state, call.params["target"], call.params, call.settings)
        if plan.auto is not None:
            return _certain(SUCCESS if plan.auto == "hit" else FAILURE)
        return check_odds(plan.eff, plan.difficulty)

    _odds_opportunity_attack = _odds_attack

    # --- push and grapple -------------------------------------------------------------------

    def _push_values(self, call: _Call) -> tuple[int, int]:
        st, p = call.state, call.params
        stat = p["stat"]
        a = stat_value(st, stat) + next_check_bonus(st, stat) + p["bonus"]
        # Our reading: the defender uses the stat the attacker declared.
        return a, self._opponent_value(call, p["target"], stat)

    def _do_push(self, call: _Call) -> Outcome:
        """Толчок («Атака»): declare Str or Dex and the goal, then win an opposed check: the
        target falls or steps back one unit. It is the turn's attack («Атака»)."""
        st = call.state
        self._can_act(st)
        a, b = self._push_values(call)
        self._use_action(st)
        st["combat"]["attacked"] = True
        consume_next_check(st, call.params["stat"])
        return self._opposed(call, a, b, then="push")

    def _then_push(self, call: _Call, roll: OpposedRoll, extra: dict) -> Outcome:
        target = call.params["target"]
        details: dict[str, Any] = {"goal": call.params["goal"]}
        if target is not None:
            target = copy.deepcopy(target)
            if roll.winner == ACTOR and call.params["goal"] == "knock_down":
                add_condition(target, "prone")
            details["target"] = target
        if roll.winner == ACTOR and call.params["goal"] == "push_back":
            details["pushed_units"] = 1
        return self._offer_counter(
            call, self._opposed_outcome(call, call.state, roll, details=details)
        )

    def _offer_counter(self, call: _Call, out: Outcome) -> Outcome:
        """After a push or grapple the defender may still counter-attack, at the cost of its
        next activation, but not dodge: the opposed check was its defence (our reading)."""
        target = out.details.get("target")
        out.flags["hit"] = False
        if target is None or target["combat"]["reaction_used"] or helpless(target):
            return out
        options = [REACTIONS["counter_attack"], REACTIONS["none"]]
        return self._pending(
            call,
            out,
            options,
            kind="reaction",
            chooser=target["controller"],
            extra={"plan": None},
        )

    def _odds_push(self, call: _Call) -> dict[str, float]:
        return self._opposed_odds(call, *self._push_values(call))

    def _str_values(self, call: _Call, other: dict[str, Any] | None, path: str) -> tuple[int, int]:
        st = call.state
        a = stat_value(st, "str") + next_check_bonus(st, "str") + call.params["bonus"]
        return a, self._opponent_value(call, other, "str", path)

    def _do_grapple(self, call: _Call) -> Outcome:
        """Захват («Атака»): win an opposed Str check; it is the turn's attack."""
        st = call.state
        self._can_act(st)
        if "grappling" in st["conditions"]:
            raise _err("conditions", "Персонаж уже держит захват.", "Already grappling.")
        a, b = self._str_values(call, call.params["target"], "target")
        self._use_action(st)
        st["combat"]["attacked"] = True
        consume_next_check(st, "str")
        return self._opposed(call, a, b, then="grapple")

    def _then_grapple(self, call: _Call, roll: OpposedRoll, extra: dict) -> Outcome:
        details: dict[str, Any] = {}
        if roll.winner == ACTOR:
            add_condition(call.state, "grappling")
        target = call.params["target"]
        if target is not None:
            target = copy.deepcopy(target)
            if roll.winner == ACTOR:
                add_condition(target, "grappled")
            details["target"] = target
        return self._offer_counter(
            call, self._opposed_outcome(call, call.state, roll, details=details)
        )

    def _odds_grapple(self, call: _Call) -> dict[str, float]:
        return self._opposed_odds(call, *self._str_values(call, call.params["target"], "target"))

    def _do_grapple_action(self, call: _Call) -> Outcome:
        """In a grapple («Атака»): release, automatic hand-to-hand damage (d3 +
        military Brawling, armour applies, at least 1), or move one unit together."""
        st, p = call.state, call.params
        self._can_act(st)
        if "grappling" not in st["conditions"]:
            raise _err("conditions", "Персонаж никого не держит.", "Not grappling anyone.")
        self._use_action(st)
        target = copy.deepcopy(p["target"]) if p["target"] is not None else None
        details: dict[str, Any] = {"op": p["op"]}
        if p["op"] == "release":
            remove_condition(st, "grappling")
            if target is not None:
                remove_condition(target, "grappled")
        elif p["op"] == "damage":
            roll = roll_notation(call.settings["grapple_damage"], dice=self._need_dice(call))
            raw = roll.total + skill_level(st, "military_brawl")
            armour = armour_value(target) if target is not None else 0
            final = after_armour(raw, armour, hit=True)
            details["damage"] = {"faces": roll.faces, "raw": raw, "armour": armour, "final": final}
            if target is not None:
                details["target_wound"] = wound(target, final)
        else:
            details["moved_units"] = 1
        if target is not None:
            details["target"] = target
        return self._outcome(call, state=st, details=details)

    def _do_break_free(self, call: _Call) -> Outcome:
        """The grappled one's only action: win an opposed Str check («Атака»)."""
        st = call.state
        self._alive(st)
        if "grappled" not in st["conditions"]:
            raise _err("conditions", "Персонаж не в захвате.", "Not grappled.")
        if st["combat"]["action_used"]:
            raise _err("combat.action_used", "Действие уже сделано.", "Action already used.")
        a, b = self._str_values(call, call.params["target"], "target")
        self._use_action(st)
        consume_next_check(st, "str")
        return self._opposed(call, a, b, then="break_free")

    def _then_break_free(self, call: _Call, roll: OpposedRoll, extra: dict) -> Outcome:
        details: dict[str, Any] = {}
        grappler = call.params["target"]
        if roll.winner == ACTOR:
            remove_condition(call.state, "grappled")
        if grappler is not None:
            grappler = copy.deepcopy(grappler)
            if roll.winner == ACTOR:
                remove_condition(grappler, "grappling")
            details["target"] = grappler
        return self._opposed_outcome(call, call.state, roll, details=details)

    def _odds_break_free(self, call: _Call) -> dict[str, float]:
        return self._opposed_odds(call, *self._str_values(call, call.params["target"], "target"))

    def _bonds(self, call: _Call) -> tuple[str, dict[str, int]]:
        st = call.state
        strong = "strongly_bound" in st["conditions"]
        if not strong and "bound" not in st["conditions"]:
            raise _err("conditions", "Персонаж не опутан.", "Not bound.")
        parts = self._stat_parts(st, "str", "", "", call.params["bonus"])
        return (HARD if strong else CHECK), parts

    def _do_break_bonds(self, call: _Call) -> Outcome:
        """Bonds: the only action is a Str check; Strong bonds need a hard one («Чары»)."""
        st = call.state
        self._alive(st)
        if st["combat"]["action_used"]:
            raise _err("combat.action_used", "Действие уже сделано.", "Action already used.")
        difficulty, parts = self._bonds(call)
        self._use_action(st)
        roll = self._roll(call, st, "str", parts, difficulty)
        if roll.success:
            remove_condition(st, "bound", "strongly_bound")
        return self._check_outcome(call, st, roll, parts)

    def _odds_break_bonds(self, call: _Call) -> dict[str, float]:
        difficulty, parts = self._bonds(call)
        return check_odds(
            sum(parts.values()), self._difficulty(call.state, difficulty, call.settings)
        )

    # --- magic ------------------------------------------------------------------------------

    def _cast_setup(self, call: _Call) -> tuple[Spell, dict[str, Any] | None]:
        """Everything that must hold before a spell is cast («Колдовство»; «Оружие»; «Структуры
        игры»)."""
        st, p = call.state, call.params
        spell = SPELLS_BY_KEY[p["spell"]]
        if spell.key not in st["spells"]:
            raise _err(
                "spell",
                "Можно колдовать только известные заклинания.",
                "Only known spells can be cast.",
            )
        if "no_casting" in st["conditions"]:
            raise _err(
                "spell",
                "Проклятье отняло способность колдовать.",
                "A curse took away the ability to cast.",
            )
        if ARMOURS_BY_KEY[st["armour"]].blocks_casting:
            raise _err(
                "armour",
                "В кольчуге или латах колдовать нельзя.",
                "No casting in mail or plate.",
            )
        for key in drawn(st):
            weapon = WEAPONS_BY_KEY[key]
            exempt = key == "staff" and call.settings["staff_allows_casting"]
            if weapon.two_handed and not exempt:
                raise _err(
                    "weapons",
                    "С двуручным оружием колдовать нельзя.",
                    "No casting with a two-handed weapon.",
                )
        target = p["target"]
        if p["on_self"]:
            if call.settings["self_target_marked_only"] and not spell.self_ok:
                raise _err(
                    "on_self",
                    "Это заклинание нельзя наложить на себя.",
                    "This spell cannot target the caster.",
                )
            target = st
        if p["x"] and spell.cost not in ("x_before", "x_on_success"):
            raise _err("x", "У этого заклинания нет платы X.", "This spell takes no X.")
        if (
            target is not None
            and "magic_shield" in target["conditions"]
            and (spell.direct or spell.touch)
        ):
            raise _err(
                "target",
                "Цель под Волшебным щитом.",
                "The target is under a Magic shield.",
            )
        if p["distance"] is not None:
            reach = 1 if spell.touch else spell_range(st)
            if p["distance"] > reach:
                raise _err(
                    "distance",
                    f"Дальность заклинания: {reach}.",
                    f"The spell reaches {reach}.",
                )
        if (
            spell.key in ("stone_skin", "iron_skin")
            and target is not None
            and ({"stone_skin", "iron_skin"} & set(target["conditions"]))
        ):
            raise _err(
                "target",
                "Каменная и Железная кожа не сочетаются.",
                "Stone skin and Iron skin do not combine.",
            )
        if spell.key == "return_to_life" and (target is None or target["status"] != DEAD):
            raise _err("target", "Нужен недавно умерший.", "Needs the recently dead.")
        if spell.key == "heal_wounds" and target is not None:
            self._alive(target, "target")
        soul = p["soul"]
        if spell.key == "return_to_the_living" and (
            target is None or soul is None or soul["status"] != DEAD
        ):
            raise _err("soul", "Нужны тело-цель и умерший.", "Needs a body and a dead soul.")
        if (
            spell.direct
            and spell.targets == "one"
            and target is None
            and (p["opponent_value"] is None)
            and not (spell.key == "teleport" and not p["target_resists"])
        ):
            raise _err("target", "Прямое заклинание: нужна цель.", "A direct spell needs a target.")
        return spell, target

    def _cast_cost(self, spell: Spell, target: dict[str, Any] | None, x: int) -> int:
        if spell.cost == "x_before":
            return x
        if spell.cost == "to_one":
            return max(0, 1 - target["hp"]) if target is not None else 0
        if spell.cost == "target_mind":
            return stat_value(target, "mind") if target is not None else 0
        return 0

    def _cast_difficulty(self, call: _Call) -> str:
        """Indirect spells are a hard Mind check, a normal one with a staff in hand
        («Колдовство»)."""
        base = CHECK if "staff" in drawn(call.state) else HARD
        return self._difficulty(call.state, base, call.settings)

    def _do_cast(self, call: _Call) -> Outcome:
        """Колдовство («Колдовство»; «Чары»; «Мгновенные заклинания»): the caster's action.
        Self-damage X is taken before the check and kept on a failure («Чары»); Magic strike and
        Fireball pay only on a success («Мгновенные заклинания»)."""
        st, p = call.state, call.params
        self._can_act(st)
        spell, target = self._cast_setup(call)
        on_self = p["on_self"]
        self._use_action(st)
        cost = self._cast_cost(spell, target, p["x"])
        paid: dict[str, Any] = {}
        if cost:
            paid = wound(st, cost)
        tgt = None if on_self else (copy.deepcopy(target) if target is not None else None)
        extra = {"cost": cost, "paid": paid}
        if st["status"] == DEAD and not call.settings["spell_after_caster_death"]:
            return self._outcome(
                call, state=st, band=FAILURE, flags={"caster_died": True}, details=extra
            )
        if spell.key == "mass_sleep":
            return self._mass_sleep(call, spell, extra)
        if spell.direct:
            if spell.key == "teleport" and not p["target_resists"]:
                roll = CheckRoll(AUTO, 0, (), None, True)
                return self._cast_done(call, spell, tgt, roll.success, extra, check=roll.as_dict())
            mind = stat_value(st, "mind") + next_check_bonus(st, "mind") + p["bonus"]
            victim = st if on_self else tgt
            other = stat_value(victim, "mind") if victim is not None else p["opponent_value"]
            consume_next_check(st, "mind")
            return self._opposed(call, mind, other, then="cast", extra={"tgt": tgt, **extra})
        parts = self._stat_parts(st, "mind", "", "", p["bonus"])
        difficulty = self._cast_difficulty(call)
        roll = roll_check(self._need_dice(call), sum(parts.values()), difficulty)
        consume_next_check(st, "mind")
        out = self._cast_done(call, spell, tgt, roll.success, extra, check=roll.as_dict())
        out.total, out.faces, out.modifier = roll.total, list(roll.faces), sum(parts.values())
        return out

    def _then_cast(self, call: _Call, roll: OpposedRoll, extra: dict) -> Outcome:
        spell = SPELLS_BY_KEY[call.params["spell"]]
        tgt = copy.deepcopy(extra.pop("tgt", None))
        out = self._cast_done(call, spell, tgt, roll.winner == ACTOR, extra)
        out.total = roll.actor.total
        out.faces = [*roll.actor.faces, *roll.opponent.faces]
        out.modifier = roll.actor.value
        out.details.update(opposed=roll.as_dict(), winner=roll.winner, rounds=list(call.rounds))
        return out

    def _cast_done(
        self,
        call: _Call,
        spell: Spell,
        tgt: dict[str, Any] | None,
        success: bool,
        extra: dict[str, Any],
        *,
        check: dict[str, Any] | None = None,
    ) -> Outcome:
        st, p = call.state, call.params
        details: dict[str, Any] = {"spell": spell.key, **extra}
        if check is not None:
            details["check"] = check
        victim = st if p["on_self"] else tgt
        if success:
            details.update(self._spell_effect(call, spell, victim))
        if tgt is not None:
            details["target"] = tgt
        flags = {"caster_died": st["status"] == DEAD}
        return self._outcome(
            call, state=st, band=SUCCESS if success else FAILURE, flags=flags, details=details
        )

    def _spell_effect(
        self, call: _Call, spell: Spell, victim: dict[str, Any] | None
    ) -> dict[str, Any]:
        """What a successful spell does to the sheets («Чары»; «Мгновенные заклинания»); in place on
        private copies. Area spells only report their area: the table marks who stands in it."""
        st, p, key = call.state, call.params, spell.key
        out: dict[str, Any] = {}
        x = p["x"]

        def damage(who: dict[str, Any], notation: str | None = None, amount: int = 0) -> dict:
            raw = amount
            faces: list[int] = []
            if notation:
                roll = roll_notation(notation, dice=self._need_dice(call))
                raw, faces = roll.total, roll.faces
            final = after_armour(raw, armour_value(who), hit=False)
            info = wound(who, final)
            info.update(raw=raw, faces=faces, armour=armour_value(who))
            return info

        if spell.targets == "area":
            out["area"] = {"size": spell.area, "condition": spell.condition or None}
            return out
        if key == "witch_sight":
            add_condition(st, "witch_sight")
            return out
        if spell.key in SUMMON_BY_SPELL:
            s = SUMMON_BY_SPELL[spell.key]
            name = s.ru if s.key != "entity" else f"{s.ru} ({p['element']})"
            out["summoned"] = creature_sheet(
                name, s.stats, damage=s.damage, armour=s.armour, weapon=s.weapon, shield=s.shield
            )
            return out
        if key == "blast":
            out["targets"] = []
            for who in copy.deepcopy(p["targets"]):
                out["targets"].append({"sheet": who, "wound": damage(who, "1d6")})
            return out
        if key == "flash":
            out["targets"] = []
            for who in copy.deepcopy(p["targets"]):
                who["combat"]["skip_activation"] = True
                out["targets"].append({"sheet": who})
            return out
        if key in ("magic_strike", "fireball"):
            out["paid_on_success"] = wound(st, x)  # «Мгновенные заклинания»: only on success
            if victim is not None:
                out["wound"] = damage(victim, f"{x}d6" if x else None)
            else:
                out["damage"] = (
                    roll_notation(f"{x}d6", dice=self._need_dice(call)).total if x else 0
                )
            return out
        if key == "lightning":
            if victim is not None:
                out["wound"] = damage(victim, "3d6")
            else:
                out["damage"] = roll_notation("3d6", dice=self._need_dice(call)).total
            return out
        if victim is None:
            return out
        if spell.condition:
            add_condition(victim, spell.condition)
        if key == "energy_boost":
            victim["stat_mods"].append(
                {"stat": p["stat"], "value": 1, "until": "scene", "source": "spell:energy_boost"}
            )
        elif key in ("energy_strike", "mind_strike"):
            stat = "dex" if key == "energy_strike" else "mind"
            victim["stat_mods"].append(
                {"stat": stat, "value": -x, "until": "scene", "source": f"spell:{key}"}
            )
        elif key == "death_spell":
            out["wound"] = damage(victim, amount=2 * x)
        elif key == "heal_wounds":
            out["healed"] = heal(victim, 2 * x)
        elif key == "return_to_life":
            victim["hp"] = 1
            victim["status"] = ALIVE
            out["revived"] = True
        elif key == "hot_weapon":
            for w in victim["weapons"]:
                if w["state"] == "drawn":
                    w["state"] = "dropped"
        elif key == "exploding_weapon":
            held = [i for i, w in enumerate(victim["weapons"]) if w["state"] == "drawn"]
            if held:
                out["destroyed"] = victim["weapons"].pop(held[0])["key"]
            out["wound"] = damage(victim, "1d3")
        elif key in ("dispel_charms", "dispel_magic"):
            out["removed"] = dispel(victim)
        elif key in FORM_BY_SPELL:
            out["form"] = start_form(victim, FORM_BY_SPELL[key])
        elif key == "return_to_the_living":
            soul = copy.deepcopy(p["soul"])
            body_hp = victim["hp"]
            _kill(victim)
            soul["stats"]["str"] = victim["stats"]["str"]
            soul["max_hp"] = victim["stats"]["str"]
            soul["hp"] = max(1, min(body_hp, soul["max_hp"]))
            soul["status"] = ALIVE
            out["reborn"] = validate(SHEET, soul)
        elif key == "magic_push":
            out["moved_or_knocked_down"] = True
        return out

    def _mass_sleep(self, call: _Call, spell: Spell, extra: dict[str, Any]) -> Outcome:
        """Массовый сон («Чары»): everyone in 7×7 rolls an opposed Mind check against the
        caster; the losers fall asleep. A target that keeps repeating stays awake."""
        st, p = call.state, call.params
        a_n, b_n = self._dice_counts(call)
        mind = stat_value(st, "mind") + next_check_bonus(st, "mind") + p["bonus"]
        consume_next_check(st, "mind")
        dice = self._need_dice(call)
        results = []
        for who in copy.deepcopy(p["targets"]):
            rounds = []
            winner = None
            for _ in range(MASS_SLEEP_ROUNDS):
                roll = opposed_roll(
                    dice, mind, a_n, stat_value(who, "mind"), b_n, tie=call.settings["opposed_tie"]
                )
                rounds.append(roll.as_dict())
                winner = roll.winner
                if winner is not None:
                    break
            if winner == ACTOR:
                add_condition(who, "asleep")
            results.append({"sheet": who, "asleep": winner == ACTOR, "rounds": rounds})
        any_asleep = any(r["asleep"] for r in results)
        return self._outcome(
            call,
            state=st,
            band=SUCCESS if any_asleep else FAILURE,
            details={"spell": spell.key, "targets": results, **extra},
        )

    def _odds_cast(self, call: _Call) -> dict[str, float]:
        st, p = call.state, call.params
        spell, target = self._cast_setup(call)
        if spell.direct:
            if spell.key == "teleport" and not p["target_resists"]:
                return _certain(SUCCESS, OPPOSED_BANDS)
            if spell.key == "mass_sleep":
                return {}
            mind = stat_value(st, "mind") + next_check_bonus(st, "mind") + p["bonus"]
            other = stat_value(target, "mind") if target is not None else p["opponent_value"]
            return self._opposed_odds(call, mind, other)
        parts = self._stat_parts(st, "mind", "", "", p["bonus"])
        return check_odds(sum(parts.values()), self._cast_difficulty(call))

    def _do_end_form(self, call: _Call) -> Outcome:
        """Back to human shape («Чары»)."""
        st = call.state
        if st["form"]["key"] == "none":
            raise _err("form", "Персонаж в своём облике.", "Already in own shape.")
        info = end_form(st)
        return self._outcome(call, state=st, details=info, flags={"died": info["died"]})

    # --- wounds, rest, hazards ------------------------------------------------------------------

    def _do_take_damage(self, call: _Call) -> Outcome:
        """Armour reduces damage, a hit does at least 1 («Оружие»; «Доспехи и щиты»); 0 HP or less
        is death («Ранения и лечение»)."""
        p = call.params
        state, info = take_damage(
            call.state, p["amount"], armour=not p["ignores_armour"], hit=p["hit"]
        )
        text = (
            Text("Персонаж погиб.", "The character is dead.")
            if info["died"]
            else Text(f"Хиты: {state['hp']}.", f"HP: {state['hp']}.")
        )
        return self._outcome(
            call, state=state, text=text, details=info, flags={"died": info["died"]}
        )

    def _do_heal(self, call: _Call) -> Outcome:
        st = call.state
        self._alive(st)
        gained = heal(st, call.params["amount"])
        return self._outcome(call, state=st, details={"healed": gained})

    def _do_rest_day(self, call: _Call) -> Outcome:
        """Seven full days of rest restore all HP; any interruption resets the count («Ранения и
        лечение»)."""
        st = call.state
        self._alive(st)
        care = st["care"]
        if call.params["interrupted"]:
            care["rest_days"] = 0
            return self._outcome(call, state=st, flags={"recovered": False, "reset": True})
        care["rest_days"] += 1
        recovered = care["rest_days"] >= call.settings["rest_days"]
        if recovered:
            st["hp"] = st["max_hp"]
            care["rest_days"] = 0
            care["medicine_used"] = False
        return self._outcome(
            call,
            state=st,
            flags={"recovered": recovered, "reset": False},
            details={"rest_days": care["rest_days"]},
        )

    def _do_drink_potion(self, call: _Call) -> Outcome:
        """A healing potion restores its HP («Ремёсла»); an alchemical one adds to its stat's next
        check («Ремёсла»)."""
        st, i = call.state, call.params["index"]
        self._alive(st)
        if i >= len(st["potions"]):
            raise _err("index", "Нет такого зелья.", "No such potion.")
        potion = st["potions"].pop(i)
        details: dict[str, Any] = {"potion": potion}
        if potion["kind"] == "healing":
            details["healed"] = heal(st, potion["value"])
        else:
            st["stat_mods"].append(
                {
                    "stat": potion["stat"],
                    "value": potion["value"],
                    "until": "next_check",
                    "source": "potion",
                }
            )
        return self._outcome(call, state=st, details=details)

    def _do_gain_spirit(self, call: _Call) -> Outcome:
        """Spirit points from a performance («Ремёсла»); they do not stack across performances (our
        reading), so the larger number stays."""
        care = call.state["care"]
        care["spirit_points"] = max(care["spirit_points"], call.params["points"])
        return self._outcome(call, state=call.state)

    def _do_end_scene(self, call: _Call) -> Outcome:
        info = end_scene(call.state)
        return self._outcome(call, state=call.state, details=info)

    def _do_set_condition(self, call: _Call) -> Outcome:
        st, p = call.state, call.params
        if p["clear"]:
            remove_condition(st, p["condition"])
        else:
            add_condition(st, p["condition"])
        return self._outcome(call, state=st)

    def _do_change_stat(self, call: _Call) -> Outcome:
        """Disease, curses, hunger («Структуры игры»): a Str change moves max HP with it («Ранения и
        лечение»)."""
        st, p = call.state, call.params
        if p["until"] == "permanent":
            st["stats"][p["stat"]] = max(0, st["stats"][p["stat"]] + p["delta"])
        else:
            st["stat_mods"].append(
                {"stat": p["stat"], "value": p["delta"], "until": p["until"], "source": p["source"]}
            )
        if p["stat"] == "str" and p["until"] != "scene":
            _sync_max_hp(st)
        return self._outcome(call, state=st, flags={"died": st["status"] == DEAD})

    def _do_fall(self, call: _Call) -> Outcome:
        """Falls deal 1d6 per 2 m beyond the first 2 m («Структуры игры»), minus 1d6 per
        level of Acrobatics («Спортивные навыки»); armour does not help."""
        st = call.state
        info = self._fall(call, st, call.params["metres"])
        return self._outcome(
            call,
            state=st,
            total=info["damage"],
            faces=info["faces"],
            details=info,
            flags={"died": info["died"]},
        )

    def _fall(self, call: _Call, st: dict[str, Any], metres: int) -> dict[str, Any]:
        dice_n = max(0, (metres - 2) // 2 - skill_level(st, "acrobatics"))
        faces = [self._need_dice(call).roll(6) for _ in range(dice_n)] if dice_n else []
        info = wound(st, sum(faces))
        info.update(metres=metres, dice=dice_n, faces=faces, damage=sum(faces))
        return info

    def _do_hunger_day(self, call: _Call) -> Outcome:
        """Each day without food after the first costs Str and so max HP; with food Str comes
        back 1 a day («Структуры игры»). The amount is a setting (default 1)."""
        st, care = call.state, call.state["care"]
        self._alive(st)
        if call.params["ate"]:
            care["days_without_food"] = 0
            if care["str_lost_to_hunger"] > 0:
                care["str_lost_to_hunger"] -= 1
                st["stats"]["str"] += 1
                _sync_max_hp(st)
            return self._outcome(call, state=st, details={"str": st["stats"]["str"]})
        care["days_without_food"] += 1
        lost = 0
        if care["days_without_food"] >= 2:
            lost = min(call.settings["hunger_str_loss"], st["stats"]["str"])
            st["stats"]["str"] -= lost
            care["str_lost_to_hunger"] += lost
            _sync_max_hp(st)
        return self._outcome(
            call, state=st, details={"str_lost": lost}, flags={"died": st["status"] == DEAD}
        )

    def _trap_parts(self, call: _Call) -> tuple[Any, dict[str, int]]:
        trap = TRAPS_BY_KEY.get(call.params["trap"]) if call.params["trap"] else None
        stat = trap.avoid if trap is not None else "dex"
        return trap, self._stat_parts(call.state, stat, "", "", call.params["bonus"])

    def _do_trap(self, call: _Call) -> Outcome:
        """Ловушки («Ловушки»): the trap (d10 unless named), a pit's depth (d10+3 m), the
        avoiding check of the listed stat, then the trap's effect on a failure."""
        st, p = call.state, call.params
        self._alive(st)
        dice = self._need_dice(call)
        trap = TRAPS_BY_KEY[p["trap"]] if p["trap"] else TRAPS_BY_ROLL[dice.roll(10)]
        details: dict[str, Any] = {"trap": trap.key}
        depth = None
        if trap.depth:
            depth = (
                p["depth"] if p["depth"] is not None else roll_notation(trap.depth, dice=dice).total
            )
            details["depth"] = depth
        parts = self._stat_parts(st, trap.avoid, "", "", p["bonus"])
        roll = self._roll(call, st, trap.avoid, parts, CHECK)
        if roll.success:
            return self._check_outcome(call, st, roll, parts, details=details)
        effect: dict[str, Any] = {}
        if trap.effect == "damage":
            raw = roll_notation(trap.damage, dice=dice).total
            effect["wound"] = wound(st, after_armour(raw, armour_value(st), hit=False))
            effect["raw"] = raw
        elif trap.effect == "ceiling":
            hold = self._roll(call, st, "str", self._stat_parts(st, "str", "", "", 0), HARD)
            effect["hold"] = hold.as_dict()
            if not hold.success:
                _kill(st)
        elif trap.effect == "pit":
            effect["fall"] = self._fall(call, st, depth or 0)
            if trap.spikes and st["status"] == ALIVE:
                raw = roll_notation(trap.spikes, dice=dice).total
                effect["spikes"] = wound(st, after_armour(raw, armour_value(st), hit=False))
        elif trap.effect == "poison":
            raw = roll_notation(trap.damage, dice=dice).total
            effect["wound"] = wound(st, after_armour(raw, armour_value(st), hit=False))
            if st["status"] == ALIVE:
                resist = self._roll(call, st, "str", self._stat_parts(st, "str", "", "", 0), CHECK)
                effect["poison"] = resist.as_dict()
                if not resist.success:
                    _kill(st)
        elif trap.effect == "exploding_weapon":
            held = [i for i, w in enumerate(st["weapons"]) if w["state"] == "drawn"]
            if held:
                effect["destroyed"] = st["weapons"].pop(held[0])["key"]
            raw = roll_notation("1d3", dice=dice).total
            effect["wound"] = wound(st, after_armour(raw, armour_value(st), hit=False))
        else:
            effect["curse"] = True  # «Структуры игры»: the GM picks the curse
        details["effect"] = effect
        return self._check_outcome(
            call, st, roll, parts, details=details, flags={"died": st["status"] == DEAD}
        )

    def _odds_trap(self, call: _Call) -> dict[str, float]:
        trap, parts = self._trap_parts(call)
        if trap is None:
            return {}
        return check_odds(sum(parts.values()), self._difficulty(call.state, CHECK, call.settings))

    # --- advancement ------------------------------------------------------------------------

    def _do_spend_money(self, call: _Call) -> Outcome:
        """1 XP per coin spent on things useless for adventuring («Развитие персонажа»); gear gives
        none («Развитие персонажа»). Which coin counts is a setting (default gold)."""
        st, p = call.state, call.params
        if p["silver"] > st["silver"] or p["gold"] > st["gold"]:
            raise _err("gold", "Не хватает денег.", "Not enough money.")
        st["silver"] -= p["silver"]
        st["gold"] -= p["gold"]
        xp = 0
        if p["purpose"] == "xp":
            xp = (
                p["gold"] * call.settings["xp_per_gold"]
                + p["silver"] * call.settings["xp_per_silver"]
            )
            st["xp"] += xp
        return self._outcome(call, state=st, details={"xp_gained": xp})

    def _do_keep_trinket(self, call: _Call) -> Outcome:
        """A kept trinket gives XP (its value) and can never be sold («Развитие
        персонажа»)."""
        st = call.state
        st["xp"] += call.params["value"]
        st["notes"] = (st["notes"] + f"\nНе продаётся: {call.params['name']}").strip()[:4000]
        return self._outcome(call, state=st, details={"xp_gained": call.params["value"]})

    def _do_add_xp(self, call: _Call) -> Outcome:
        st = call.state
        st["xp"] = max(0, st["xp"] + call.params["amount"])
        return self._outcome(call, state=st)

    def _pay_xp(self, st: dict[str, Any], cost: int) -> None:
        if st["xp"] < cost:
            raise _err("xp", f"Нужно {cost} опыта.", f"Needs {cost} XP.")
        st["xp"] -= cost

    def _do_buy_skill(self, call: _Call) -> Outcome:
        """1000 XP: a new skill or one more level («Развитие персонажа»; «Навыки»); Literacy only
        once («Социальные навыки»)."""
        st, p = call.state, call.params
        skill = SKILLS_BY_KEY[p["skill"]]
        detail = p["detail"]
        if skill.detail == "required" and not detail:
            raise _err("detail", "Уточните навык.", "Name the skill's detail.")
        self._pay_xp(st, call.settings["skill_cost"])
        if skill.key == "languages":
            if detail:
                st["languages"].append(detail)
            detail = ""
        for entry in st["skills"]:
            if entry["key"] == skill.key and entry["detail"].casefold() == detail.casefold():
                if not skill.levels:
                    raise _err(
                        "skill",
                        "У грамотности нет уровней.",
                        "Literacy has no levels.",
                    )
                entry["level"] += 1
                break
        else:
            st["skills"].append({"key": skill.key, "level": 1, "detail": detail})
        return self._outcome(
            call, state=st, details={"level": skill_level(st, skill.key, detail or None)}
        )

    def _do_buy_spell(self, call: _Call) -> Outcome:
        """1000 XP for a spell if the origin allows and Mind ≥ its minimum («Колдовство»; «Развитие
        персонажа»)."""
        st = call.state
        spell = SPELLS_BY_KEY[call.params["spell"]]
        if not st["may_take_spells"]:
            raise _err(
                "spell",
                "Происхождение не позволяет брать заклинания.",
                "The origin does not allow spells.",
            )
        if st["stats"]["mind"] < spell.min_mind:
            raise _err(
                "spell",
                f"Нужен разум {spell.min_mind}.",
                f"Needs Mind {spell.min_mind}.",
            )
        if spell.key in st["spells"]:
            raise _err("spell", "Заклинание уже известно.", "The spell is already known.")
        self._pay_xp(st, call.settings["spell_cost"])
        st["spells"].append(spell.key)
        return self._outcome(call, state=st)

    def _do_raise_stat(self, call: _Call) -> Outcome:
        """+1 to a stat costs (new value × 1000) XP («Развитие персонажа»); HP rise only with Str,
        and then both max and current HP go up («Развитие персонажа»: "Хиты увеличиваются")."""
        st, stat = call.state, call.params["stat"]
        new = st["stats"][stat] + 1
        self._pay_xp(st, new * call.settings["stat_cost_per_point"])
        st["stats"][stat] = new
        if stat == "str":
            before = st["max_hp"]
            st["max_hp"] = hp_str(st)
            if st["status"] == ALIVE:
                st["hp"] += st["max_hp"] - before
            st["hp"] = min(st["hp"], st["max_hp"])
        return self._outcome(call, state=st, details={"new_value": new})

    # --- random tables --------------------------------------------------------------------------

    def _do_roll_table(self, call: _Call) -> Outcome:
        """Any random table of the game (``systems.tales.tables``)."""
        result = roll_table(call.params["table"], self._need_dice(call))
        return self._outcome(
            call,
            state=call.state,
            band=result.entry.get("key"),
            total=result.total,
            faces=result.faces,
            text=Text(result.entry["text"]["ru"], result.entry["text"]["en"]),
            details={"roll": result.as_dict()},
        )

    def _do_dungeon_room(self, call: _Call) -> Outcome:
        """Подземелье («Подземелье»): d10 for the contents and d6 for the treasure, then the
        nested rolls (a trap's d10, each treasure line's d10, the amounts)."""
        contents, treasure = roll_tables(["room_contents", "room_treasure"], self._need_dice(call))
        summary = self._treasure_summary(treasure.nested)
        text = Text(
            f"{contents.entry['text']['ru']}; {treasure.entry['text']['ru']}.",
            f"{contents.entry['text']['en']}; {treasure.entry['text']['en']}.",
        )
        return self._outcome(
            call,
            state=call.state,
            band=contents.entry["key"],
            faces=[*contents.faces, *treasure.faces],
            text=text,
            details={
                "contents": contents.as_dict(),
                "treasure": treasure.as_dict(),
                "loot": summary,
            },
        )

    def _do_treasure(self, call: _Call) -> Outcome:
        """Сокровище («Подземелье»): each line rolls its own d10 (our reading)."""
        size = call.params["size"]
        lines = roll_tables(
            [f"treasure_{size}_{line}" for line in TREASURE_LINES], self._need_dice(call)
        )
        return self._outcome(
            call,
            state=call.state,
            faces=[f for r in lines for f in r.faces],
            details={"lines": [r.as_dict() for r in lines], "loot": self._treasure_summary(lines)},
        )

    @staticmethod
    def _treasure_summary(lines: list) -> dict[str, Any]:
        loot: dict[str, Any] = dict.fromkeys(TREASURE_LINES)
        for r in lines:
            line = r.key.rsplit("_", 1)[-1]
            if r.entry.get("key") == "none":
                continue
            loot[line] = r.amount["total"] if r.amount else 1
        return loot


RULESET = Tales()
