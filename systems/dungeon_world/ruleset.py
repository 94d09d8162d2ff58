"""Dungeon World rules (rulebook: Dungeon World).

``resolve(move, state, dice=..., settings=..., choices=..., **params)``:

* ``state`` is the character sheet (``SHEET``), or an NPC block for ``subject == "npc"``;
* ``settings`` is the campaign's settings dict (``SETTINGS``; missing keys take defaults);
* ``choices`` optionally answers the first pending choice at once (same as ``apply_choice``);
* the rest are the move's parameters as ``describe()`` lists them.

A move that asks someone to choose returns ``Outcome.options``/``pick``/``chooser`` and a
``details["pending"]`` record; ``apply_choice(outcome, keys, dice=...)`` finishes it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from systems.core.dice import Dice
from systems.core.outcome import Option, Outcome, Text
from systems.core.pbta import (
    BANDS,
    MISS,
    STRONG,
    WEAK,
    NoDice,
    band_odds,
    certain,
    check_choices,
    consume_forward,
    continue_outcome,
    forward_for,
    ongoing_for,
    roll_2d6,
)
from systems.core.rulekit import (
    MoveCall,
    MoveDispatch,
    common_params,
    describe_head,
    describe_moves,
    describe_settings,
    split_call,
)
from systems.core.schema import OptionSet, fail, validate
from systems.dungeon_world import party as party_rules
from systems.dungeon_world.damage import (
    after_armor,
    armor_after_cover,
    pick_attacker_expression,
    roll_damage,
)
from systems.dungeon_world.moves import (
    APPROACH_STAT,
    MOVES,
    MOVES_BY_KEY,
)
from systems.dungeon_world.sheet import (
    ALIGNMENT_MOVES,
    ALIGNMENTS,
    DEBILITIES,
    DEBILITY_STAT,
    NPC,
    SETTINGS,
    SHEET,
    STATS,
    effective_modifier,
)

CANT_ACT = {
    "dying": ("Сначала сделайте последний вздох.", "Make your Last Breath first."),
    "stabilized": ("Персонаж без сознания.", "The character is unconscious."),
    "dead": ("Персонаж мёртв.", "The character is dead."),
}
WIZARD_CLASSES = {"маг", "wizard"}
MONTH_DAYS = 30  # "месяц или дольше" («Усердно заниматься»); a week is 7 days (our reading)

_Call = MoveCall

# Party moves (``party_move``): what each takes besides the sheets; a sheet is named by the key
# the caller gave it in ``party``.
PARTY_MOVE_SPECS: dict[str, dict[str, Any]] = {
    "take_watch": {
        "ru": "Нести дозор (весь лагерь)",
        "en": "Take Watch (the whole camp)",
        "params": {"watcher": "a key of party: who is on watch and rolls +WIS"},
        "source": "Нести дозор",
    },
    "perilous_journey": {
        "ru": "Отправиться в опасное путешествие (роли группы)",
        "en": "Undertake a Perilous Journey (the party's roles)",
        "params": {
            "roles": "{trailblazer|scout|quartermaster: a key of party}, one hero per role",
        },
        "source": "Отправиться в опасное путешествие",
    },
}


@dataclass
class _Rolled:
    """A move roll after modifiers, forward use and XP; ``total`` is None on an auto-fail."""

    band: str
    total: int | None
    faces: list[int]
    modifier: int
    parts: dict[str, int]
    state: dict[str, Any]
    auto_fail: bool = False
    xp_marked: bool = False


_err = fail  # the rules' error: a field path and ru/en text


def _mark_xp(state: dict[str, Any], amount: int = 1) -> bool:
    """XP goes up unless the character stopped earning it (took an apprentice, «После десятого
    уровня»)."""
    if state["career"] != "active":
        return False
    state["xp"] = min(999, state["xp"] + amount)
    return True


def encumbrance_tier(state: dict[str, Any]) -> str:
    """Тяжкая ноша («Тяжкая ноша»): none (weight <= load), burdened (<= load+2), overloaded."""
    if state["weight"] <= state["load"]:
        return "none"
    if state["weight"] <= state["load"] + 2:
        return "burdened"
    return "overloaded"


def multiclass_level(character_level: int, level_taken: int) -> int:
    """Levels of a multiclass move count from when it was taken («Мультиклассовые ходы»: Gregor)."""
    return character_level - level_taken + 1


def bolster_points(days: int) -> int:
    """Усердно заниматься («Усердно заниматься»): a week or two gives 1, a month or more gives 3."""
    if days >= MONTH_DAYS:
        return 3
    if days >= 7:
        return 1
    return 0


class DungeonWorld(MoveDispatch):
    """Dungeon World's basic and special moves, damage, death and advancement."""

    key = "dungeon_world"
    name_ru = "Dungeon World"
    name_en = "Dungeon World"

    # --- description and validation ------------------------------------------------------

    def describe(self) -> dict[str, Any]:
        """Everything a form or a help page needs; built from the same specs the rules use."""
        return {
            **describe_head(self),
            "bands": list(BANDS),
            "stats": [c.as_dict() for c in STATS],
            "debilities": [c.as_dict() | {"stat": DEBILITY_STAT[c.key]} for c in DEBILITIES],
            "alignments": [
                c.as_dict() | {"moves": [m.as_dict() for m in ALIGNMENT_MOVES[c.key]]}
                for c in ALIGNMENTS
            ],
            "sheet": SHEET.describe(),
            "npc": NPC.describe(),
            **describe_settings(SETTINGS),
            **describe_moves(MOVES),
            "party_moves": {key: dict(spec) for key, spec in PARTY_MOVE_SPECS.items()},
            "party_roles": [c.as_dict() for c in party_rules.ROLES],
            **common_params(
                "Сразу ответить на выбор, который предложит ход",
                "Answer the move's pending choice at once",
                settings_ru="Настройки кампании",
                settings_en="Campaign settings",
            ),
        }

    def default_state(self) -> dict[str, Any]:
        return self.validate_state(SHEET.default_value())

    def default_npc(self) -> dict[str, Any]:
        return self.validate_npc(NPC.default_value())

    def validate_state(self, state: dict[str, Any]) -> dict[str, Any]:
        """Clean a sheet; HP may never exceed max HP («Лечение»)."""
        clean = validate(SHEET, state)
        if clean["hp"] > clean["max_hp"]:
            raise _err("hp", "ОЗ не могут превышать максимум.", "HP cannot exceed max HP.")
        return clean

    def validate_npc(self, npc: dict[str, Any]) -> dict[str, Any]:
        clean = validate(NPC, npc)
        if clean["hp"] > clean["max_hp"]:
            raise _err("hp", "ОЗ не могут превышать максимум.", "HP cannot exceed max HP.")
        return clean

    def clean_settings(self, settings: dict[str, Any] | None = None) -> dict[str, Any]:
        """The campaign's settings with defaults filled in."""
        return validate(SETTINGS, settings or {}, path="settings")

    def modifier(
        self, state: dict[str, Any], stat: str, settings: dict[str, Any] | None = None
    ) -> int:
        """Effective modifier of ``stat``: table(score) minus its debility («Травмы»)."""
        return effective_modifier(self.validate_state(state), stat, self.clean_settings(settings))

    # --- entry points ----------------------------------------------------------------------

    def party_move(
        self,
        move: str,
        party: dict[str, dict[str, Any]],
        *,
        dice: Dice,
        settings: dict[str, Any] | None = None,
        **params: Any,
    ) -> party_rules.PartyResult:
        """A move one hero rolls that acts on the party (Take Watch, Perilous Journey): every
        sheet it touches in, keyed by the caller's names; every new sheet out."""
        procedure = party_rules.PARTY_MOVES.get(move)
        if procedure is None:
            raise _err("move", "Нет такого хода группы.", f"No such party move: {move!r}.")
        allowed = set(PARTY_MOVE_SPECS[move]["params"])
        unknown = sorted(set(params) - allowed)
        if unknown:
            raise _err(unknown[0], "Неизвестное поле.", "Unknown field.")
        missing = sorted(allowed - set(params))
        if missing:
            raise _err(missing[0], "Обязательное поле.", "This field is required.")
        return procedure(self, party, dice=dice, settings=settings, **params)

    def party_actors(self, move: str, params: dict[str, Any]) -> list[str]:
        """The keys of ``party`` a party move's parameters name to roll (the watcher, the
        journey's role holders), read before anything is checked; the others it touches (the
        camp) only take what the roll gives them."""
        return party_rules.party_actors(move, params)

    def apply_choice(
        self, outcome: Outcome, choices: list[str], *, dice: Dice | None = None
    ) -> Outcome:
        """Finish a pending outcome with the chosen option keys (exactly ``outcome.pick``)."""
        pending = outcome.details.get("pending")
        if not outcome.pending or not pending:
            return super().apply_choice(outcome, choices, dice=dice)
        check_choices(outcome, choices, repeat=bool(pending.get("repeat")))
        handler = getattr(self, f"_choose_{pending['kind']}")
        return handler(outcome, choices, dice, pending)

    def odds(self, move: str, state: dict[str, Any], **params: Any) -> dict[str, float]:
        """Exact band chances with every modifier the roll would use; ``{}`` if no roll.

        An overloaded character who has not chosen yet is shown the odds after dropping the
        least weight the rules allow (the choice that still rolls).
        """
        call = self._call(move, state, None, params)
        spec = call.spec
        if spec.roll is None or (move == "supply" and not call.params["unusual"]):
            return {}
        if spec.roll == "last_breath":
            return band_odds(0)
        mode, parts, _ = self._modifiers(call, assume_drop=True)
        if mode == "auto_fail":
            return certain(MISS)
        return band_odds(sum(parts.values()))

    # --- plumbing --------------------------------------------------------------------------

    def _call(self, move: str, state: dict[str, Any], dice: Dice | None, params: dict) -> _Call:
        """Validate everything once: settings, state (a private deep copy) and parameters."""
        spec, settings, params = split_call(
            move, params, clean_settings=self.clean_settings, moves_by_key=MOVES_BY_KEY
        )
        clean = self.validate_npc(state) if spec.subject == "npc" else self.validate_state(state)
        clean_params = validate(spec.params, params)
        return _Call(spec, clean, clean_params, dice, settings)

    def _base(self, call: _Call) -> tuple[str, int]:
        """The roll's own modifier before forward and the rest: a stat or a move's bonus."""
        spec, st, p = call.spec, call.state, call.params
        if spec.roll == "approach":
            stat = APPROACH_STAT[p["approach"]]
            return stat, effective_modifier(st, stat, call.settings)
        if spec.roll == "bonds":
            target = p["target"].casefold()
            return "bonds", sum(1 for b in st["bonds"] if b["with"].casefold() == target)
        if spec.key == "carouse":
            return "coins", (p["coins_spent"] - 100) // 100  # our reading
        if spec.key == "recruit":
            flags = ("generous_pay", "open_about_help", "loot_share", "reputation")
            return "recruit", sum(1 for f in flags if p[f])
        if spec.roll == "plain":
            return "none", 0
        return spec.roll, effective_modifier(st, spec.roll, call.settings)

    def _modifiers(
        self, call: _Call, *, assume_drop: bool = False
    ) -> tuple[str, dict[str, int], dict[str, Any]]:
        """Every modifier of a move roll («Ход и кубик»; «Некоторые ходы»; «Тяжкая ноша»; «Усердно
        заниматься»).

        Returns the mode (``"roll"``, ``"auto_fail"`` or ``"pending"`` while an overloaded
        character has not chosen), the named parts and the state after dropping weight.
        """
        st, p, move = copy.deepcopy(call.state), call.params, call.spec.key
        if p["preparation"] > 1:
            raise _err(
                "preparation",
                "Нельзя потратить больше одного очка подготовки на один бросок.",
                "At most one preparation point per roll.",
            )
        if p["preparation"] > st["preparation"]:
            raise _err("preparation", "Не хватает очков подготовки.", "Not enough preparation.")
        tier = encumbrance_tier(st)
        penalty = -1 if tier == "burdened" else 0
        if tier == "overloaded":
            choice = p["overload"] or ("drop" if assume_drop else "")
            if choice == "":
                return "pending", {}, st
            if choice == "auto_fail":
                return "auto_fail", {}, st
            limit = st["load"] + 2
            drop = p["drop_weight"] or (st["weight"] - limit if assume_drop else 0)
            if drop < 1 or drop > st["weight"] or st["weight"] - drop > limit:
                raise _err(
                    "drop_weight",
                    f"Сбросьте хотя бы {st['weight'] - limit} веса (до нагрузки+2).",
                    f"Drop at least {st['weight'] - limit} weight (down to load+2).",
                )
            st["weight"] -= drop
            penalty = -1 if encumbrance_tier(st) == "burdened" else 0
            if call.settings["encumbrance_drop_penalty"]:
                penalty = -1
        base_name, base = self._base(call)
        parts = {
            base_name: base,
            "forward": forward_for(st["forward"], move),
            "ongoing": ongoing_for(st["ongoing"], move),
            "encumbrance": penalty,
            "preparation": p["preparation"],
            "aid": p["aid"],
            "bonus": p["bonus"],
        }
        return "roll", parts, st

    def _roll(self, call: _Call) -> _Rolled | Outcome:
        """Roll a move: modifiers, forward used up, preparation spent, XP on 6- («Ход и кубик»;
        «Повышение уровня»)."""
        status = call.state["status"]
        if status in CANT_ACT:
            raise _err("status", *CANT_ACT[status])
        mode, parts, st = self._modifiers(call)
        if mode == "pending":
            spec = MOVES_BY_KEY["encumbrance"].options["overloaded"]
            return self._pending(
                call,
                None,
                state=call.state,
                text=MOVES_BY_KEY["encumbrance"].results["overloaded"],
                options=spec,
                kind="overload",
            )
        if mode == "auto_fail":
            # No dice were rolled, so no XP unless the campaign says otherwise.
            xp = _mark_xp(st) if call.settings["auto_fail_marks_xp"] else False
            return _Rolled(MISS, None, [], 0, {}, st, auto_fail=True, xp_marked=xp)
        roll = roll_2d6(call.dice, sum(parts.values()))
        st["forward"] = consume_forward(st["forward"], call.spec.key)
        st["preparation"] -= call.params["preparation"]
        xp = _mark_xp(st) if roll.band == MISS else False
        return _Rolled(roll.band, roll.total, list(roll.faces), roll.modifier, parts, st, False, xp)

    def _outcome(
        self,
        call: _Call,
        rolled: _Rolled | None,
        *,
        state: dict[str, Any],
        text: Text | None = None,
        flags: dict[str, Any] | None = None,
        details: dict[str, Any] | None = None,
    ) -> Outcome:
        band = rolled.band if rolled else None
        if text is None:
            text = call.spec.results.get(band) if band else None
            text = text or Text(call.spec.ru, call.spec.en)
        all_flags = dict(flags or {})
        all_details = dict(details or {})
        if rolled:
            all_flags["xp_marked"] = rolled.xp_marked
            if rolled.auto_fail:
                all_flags["auto_fail"] = True
            all_details["modifiers"] = rolled.parts
        return Outcome(
            move=call.spec.key,
            total=rolled.total if rolled else None,
            band=band,
            faces=list(rolled.faces) if rolled else [],
            modifier=rolled.modifier if rolled else 0,
            state=state,
            text=text,
            flags=all_flags,
            details=all_details,
        )

    def _pending(
        self,
        call: _Call,
        rolled: _Rolled | None,
        *,
        state: dict[str, Any],
        options: OptionSet,
        kind: str,
        text: Text | None = None,
        only: list[str] | None = None,
        pick: int | None = None,
        extra: dict[str, Any] | None = None,
        flags: dict[str, Any] | None = None,
        details: dict[str, Any] | None = None,
    ) -> Outcome:
        """An outcome waiting for ``options.chooser`` to pick; resumable by ``apply_choice``."""
        out = self._outcome(call, rolled, state=state, text=text, flags=flags, details=details)
        offered = [o for o in options.options if only is None or o.key in only]
        out.options = list(offered)
        out.pick = options.pick if pick is None else pick
        out.chooser = options.chooser
        out.details["pending"] = {
            "kind": kind,
            "move": call.spec.key,
            "params": copy.deepcopy(call.params),
            "settings": copy.deepcopy(call.settings),
            "repeat": options.repeat,
            **(extra or {}),
        }
        return out

    _continue = staticmethod(continue_outcome)

    @staticmethod
    def _need_dice(dice: Dice | None) -> Dice:
        if dice is None:
            raise _err("dice", "Для этого выбора нужны кубики.", "This choice needs dice.")
        return dice

    # --- damage helpers ----------------------------------------------------------------------

    def _pc_takes(
        self,
        state: dict[str, Any],
        amount: int,
        *,
        ignores_armor: bool = False,
        cover: str = "none",
        stun: bool = False,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A PC takes damage: minus armor («Урон»), never below 0 HP («Урон»).

        Reaching 0 HP from real damage calls for Last Breath at once («Смерть»), also for a
        stabilized PC («Смерть»); damage fully absorbed by armor calls for nothing (our reading).
        Stun costs a PC no HP; they Defy Danger against "you're stunned" («Оглушающий урон»).
        """
        st = copy.deepcopy(state)
        info: dict[str, Any] = {"damage": amount, "hp_before": st["hp"]}
        if stun:
            info.update(final=0, stun=True, defy_danger="stunned", last_breath=False)
            return st, info
        armor = armor_after_cover(st["armor"], cover)
        final = after_armor(amount, armor, ignores_armor=ignores_armor)
        st["hp"] = max(0, st["hp"] - final)
        last_breath = final > 0 and st["hp"] == 0 and st["status"] in ("alive", "stabilized")
        if last_breath:
            st["status"] = "dying"
        info.update(
            armor=0 if ignores_armor else armor, final=final, hp=st["hp"], last_breath=last_breath
        )
        return st, info

    @staticmethod
    def _npc_takes(
        npc: dict[str, Any], amount: int, *, ignores_armor: bool = False, stun: bool = False
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A GM character takes damage minus its armor; stun takes no HP («Оглушающий урон»)."""
        npc = copy.deepcopy(npc)
        final = 0 if stun else after_armor(amount, npc["armor"], ignores_armor=ignores_armor)
        npc["hp"] = max(0, npc["hp"] - final)
        return npc, {
            "damage": amount,
            "final": final,
            "stun": stun,
            "hp": npc["hp"],
            "down": npc["hp"] == 0 and final > 0,
        }

    @staticmethod
    def _class_damage(state: dict[str, Any], bonus: int, extra: str = "") -> str:
        """ "Нанесите урон" («Некоторые ходы»; «Урон»): class die + weapon modifier + bonuses
        (+/-1к6 etc.)."""
        expr = "к" + state["damage_die"][1:]
        total_bonus = state["weapon_bonus"] + bonus
        if total_bonus:
            expr += f"{total_bonus:+d}"
        return expr + extra

    def _attack_damage(
        self,
        state: dict[str, Any],
        params: dict[str, Any],
        dice: Dice,
        *,
        extra: str = "",
        counter: bool = False,
    ) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        """Roll the PC's damage into the target, then the target's counter-attack if due."""
        roll = roll_damage(self._class_damage(state, params["damage_bonus"], extra), dice)
        details: dict[str, Any] = {"damage": roll.as_dict()}
        flags: dict[str, Any] = {"counter_attack": counter}
        target = params.get("target")
        if target is not None:
            npc, info = self._npc_takes(target, roll.total, ignores_armor=params["ignores_armor"])
            details["target"] = npc
            details["dealt"] = info["final"]
            flags["target_down"] = info["down"]
            if counter and params.get("counter_attack", True) and target["damage"]:
                hit = roll_damage(target["damage"], dice)
                state, taken = self._pc_takes(
                    state, hit.total, ignores_armor=target["ignores_armor"]
                )
                details["counter_attack"] = {"roll": hit.as_dict(), **taken}
                flags["last_breath"] = taken["last_breath"]
        return state, details, flags

    # --- the 21 moves ------------------------------------------------------------------------

    def _do_hack_and_slash(self, call: _Call) -> Outcome:
        """Руби и кромсай («Ходы»; «Руби и кромсай»): 10+ damage and avoid, or +1к6 and take the
        attack («Некоторые ходы»: "открыться для ответной атаки"); 7-9 damage and the enemy attacks
        you."""
        r = self._roll(call)
        if isinstance(r, Outcome):
            return r
        if r.band == STRONG:
            return self._pending(
                call, r, state=r.state, options=call.spec.options[STRONG], kind="hack_strong"
            )
        if r.band == WEAK:
            state, details, flags = self._attack_damage(
                r.state, call.params, call.dice, counter=True
            )
            return self._outcome(call, r, state=state, details=details, flags=flags)
        return self._outcome(call, r, state=r.state)

    def _choose_hack_strong(self, outcome, choices, dice, pending) -> Outcome:
        extra = choices[0] == "extra_damage"
        state, details, flags = self._attack_damage(
            outcome.state,
            pending["params"],
            self._need_dice(dice),
            extra="+1к6" if extra else "",
            counter=extra,
        )
        return self._continue(outcome, choices, state=state, details=details, flags=flags)

    def _do_volley(self, call: _Call) -> Outcome:
        """Дать залп («Дать залп»): 10+ damage; 7-9 damage and choose danger, -1к6 or ammo -1."""
        r = self._roll(call)
        if isinstance(r, Outcome):
            return r
        if r.band == STRONG:
            state, details, flags = self._attack_damage(r.state, call.params, call.dice)
            return self._outcome(call, r, state=state, details=details, flags=flags)
        if r.band == WEAK:
            offered = ["danger", "less_damage"] + (["ammo"] if r.state["ammo"] > 0 else [])
            return self._pending(
                call,
                r,
                state=r.state,
                options=call.spec.options[WEAK],
                kind="volley",
                only=offered,
            )
        return self._outcome(call, r, state=r.state)

    def _choose_volley(self, outcome, choices, dice, pending) -> Outcome:
        state = copy.deepcopy(outcome.state)
        if choices[0] == "ammo":
            state["ammo"] -= 1
        extra = "-1к6" if choices[0] == "less_damage" else ""
        state, details, flags = self._attack_damage(
            state, pending["params"], self._need_dice(dice), extra=extra
        )
        flags["dangerous_position"] = choices[0] == "danger"
        return self._continue(outcome, choices, state=state, details=details, flags=flags)

    def _do_defy_danger(self, call: _Call) -> Outcome:
        """Спастись от угрозы («Спастись от угрозы»): the stat follows how you deal with it
        («Спастись от угрозы»)."""
        r = self._roll(call)
        if isinstance(r, Outcome):
            return r
        flags = {"gm_may_offer_cost": r.band == WEAK}
        return self._outcome(call, r, state=r.state, flags=flags)

    def _do_defend(self, call: _Call) -> Outcome:
        """Встать на защиту («Встать на защиту»): hold 3 on 10+, 1 on 7-9, bound to Defend
        («Некоторые ходы»).

        A new Defend replaces earlier Defend hold (hold is kept while defending
        the same target and cleared for a new one)."""
        r = self._roll(call)
        if isinstance(r, Outcome):
            return r
        amount = {STRONG: 3, WEAK: 1, MISS: 0}[r.band]
        st = r.state
        st["hold"] = [h for h in st["hold"] if h["move"] != "defend"]
        if amount:
            st["hold"].append(
                {"move": "defend", "amount": amount, "target": call.params["protecting"]}
            )
        return self._outcome(call, r, state=st, details={"hold": amount})

    def _simple(self, call: _Call, flags: dict[str, Any] | None = None) -> Outcome:
        r = self._roll(call)
        if isinstance(r, Outcome):
            return r
        return self._outcome(call, r, state=r.state, flags=flags)

    def _do_spout_lore(self, call: _Call) -> Outcome:
        """Покопаться в памяти («Покопаться в памяти»; «Некоторые ходы»)."""
        return self._simple(call)

    def _do_parley(self, call: _Call) -> Outcome:
        """Договориться («Договориться»)."""
        return self._simple(call)

    def _do_discern_realities(self, call: _Call) -> Outcome:
        """Изучить обстановку («Изучить обстановку»): 3 questions on 10+, 1 on 7-9, +1 forward on
        acting.

        Repeating a question on 10+ is allowed (our reading)."""
        r = self._roll(call)
        if isinstance(r, Outcome):
            return r
        if r.band in (STRONG, WEAK):
            return self._pending(
                call, r, state=r.state, options=call.spec.options[r.band], kind="discern"
            )
        return self._outcome(call, r, state=r.state)

    def _choose_discern(self, outcome, choices, dice, pending) -> Outcome:
        state = copy.deepcopy(outcome.state)
        state["forward"].append(
            {
                "value": 1,
                "move": "",
                "note": "Изучить обстановку: если используете полученные сведения",
            }
        )
        return self._continue(outcome, choices, state=state, details={"questions": choices})

    def _do_carouse(self, call: _Call) -> Outcome:
        """Пирушка («Пирушка»): spend 100 coins, +1 per extra 100; a miss still picks one."""
        spent = call.params["coins_spent"]
        if spent > call.state["coins"]:
            raise _err("coins_spent", "Не хватает монет.", "Not enough coins.")
        r = self._roll(call)
        if isinstance(r, Outcome):
            return r
        r.state["coins"] -= spent
        return self._pending(
            call,
            r,
            state=r.state,
            options=call.spec.options[r.band],
            kind="record",
            flags={"something_goes_wrong": r.band == MISS},
        )

    def _choose_record(self, outcome, choices, dice, pending) -> Outcome:
        return self._continue(outcome, choices, state=copy.deepcopy(outcome.state))

    def _do_last_breath(self, call: _Call) -> Outcome:
        """Последний вздох («Последний вздох»; «Смерть»): plain 2d6, no bonuses; forward and
        preparation are neither used nor consumed (our reading); a miss still marks XP."""
        st = call.state
        if st["status"] != "dying":
            raise _err(
                "status",
                "Последний вздох делают при смерти (0 ОЗ).",
                "Last Breath is for a dying character (0 HP).",
            )
        roll = roll_2d6(call.dice, 0)
        xp = _mark_xp(st) if roll.band == MISS else False
        r = _Rolled(roll.band, roll.total, list(roll.faces), 0, {}, st, xp_marked=xp)
        if roll.band == STRONG:
            st["status"] = "alive"  # HP stays 0, conscious (our reading)
        elif roll.band == MISS:
            st["status"] = "deaths_mark"
        else:
            return self._pending(
                call, r, state=st, options=call.spec.options[WEAK], kind="last_breath"
            )
        return self._outcome(call, r, state=st)

    def _choose_last_breath(self, outcome, choices, dice, pending) -> Outcome:
        state = copy.deepcopy(outcome.state)
        state["status"] = "stabilized" if choices[0] == "accept" else "dead"
        return self._continue(outcome, choices, state=state)

    def _do_encumbrance(self, call: _Call) -> Outcome:
        """Тяжкая ноша («Тяжкая ноша»): which tier applies now; the rolls apply it themselves."""
        tier = encumbrance_tier(call.state)
        penalty = {"none": 0, "burdened": -1, "overloaded": None}[tier]
        return self._outcome(
            call,
            None,
            state=call.state,
            text=call.spec.results[tier],
            details={"tier": tier, "penalty": penalty},
        )

    def _choose_overload(self, outcome, choices, dice, pending) -> Outcome:
        """Drop weight (down to load+2) and roll, or fail without dice."""
        params = dict(pending["params"])
        params["overload"] = choices[0]
        if choices[0] == "drop":
            params["drop_weight"] = outcome.state["weight"] - (outcome.state["load"] + 2)
        result = self.resolve(
            pending["move"],
            outcome.state,
            dice=self._need_dice(dice) if choices[0] == "drop" else (dice or NoDice()),
            settings=pending["settings"],
            **params,
        )
        result.details.setdefault("choices", []).insert(0, choices[0])
        return result

    def _do_make_camp(self, call: _Call) -> Outcome:
        """Разбить лагерь («Разбить лагерь»): eat a ration; after sleep heal half HP, i.e.
        floor(max HP / 2) capped at max (our reading)."""
        st = call.state
        if st["status"] in ("dying", "dead"):
            raise _err("status", *CANT_ACT[st["status"]])
        if st["rations"] < 1:
            raise _err("rations", "Нет пайков.", "No rations left.")
        st["rations"] -= 1
        healed = 0
        if call.params["slept"]:
            before = st["hp"]
            st["hp"] = min(st["max_hp"], st["hp"] + st["max_hp"] // 2)
            healed = st["hp"] - before
            if st["status"] == "stabilized" and st["hp"] > 0:
                st["status"] = "alive"
        flags = {
            "watch_order": call.params["dangerous"],
            "can_level_up": st["xp"] >= st["level"] + 7,
        }
        text = Text(f"Паёк съеден; исцелено {healed} ОЗ.", f"Ration eaten; healed {healed} HP.")
        return self._outcome(
            call, None, state=st, text=text, flags=flags, details={"healed": healed}
        )

    def _do_take_watch(self, call: _Call) -> Outcome:
        """Нести дозор («Нести дозор»): on 10+ everyone in camp takes +1 forward."""
        r = self._roll(call)
        if isinstance(r, Outcome):
            return r
        details = {}
        if r.band == STRONG:
            r.state["forward"].append({"value": 1, "move": "", "note": "Нести дозор"})
            details["camp_forward"] = 1
        return self._outcome(
            call, r, state=r.state, details=details, flags={"surprised": r.band == MISS}
        )

    def _do_aid_or_interfere(self, call: _Call) -> Outcome:
        """Помочь или помешать («Помочь или помешать»): roll+bonds with them; +1 or -2 to their
        roll.

        With no bonds the roll is at +0 unless the campaign requires a bond (our reading)."""
        _, bonds = self._base(call)
        if bonds == 0 and call.settings["aid_requires_bond"]:
            raise _err("target", "У вас нет уз с этим персонажем.", "You have no bond with them.")
        r = self._roll(call)
        if isinstance(r, Outcome):
            return r
        if r.band == MISS:
            return self._outcome(call, r, state=r.state)
        return self._pending(
            call,
            r,
            state=r.state,
            options=call.spec.options[r.band],
            kind="aid",
            flags={"exposed": r.band == WEAK},
        )

    def _choose_aid(self, outcome, choices, dice, pending) -> Outcome:
        modifier = 1 if choices[0] == "aid" else -2
        return self._continue(
            outcome,
            choices,
            state=copy.deepcopy(outcome.state),
            details={"target": pending["params"]["target"], "target_modifier": modifier},
        )

    def _do_perilous_journey(self, call: _Call) -> Outcome:
        """Отправиться в опасное путешествие («Отправиться в опасное путешествие»): each role held
        by a different hero rolls +WIS; a 10+ helps by role (our reading)."""
        role = call.params["role"]
        if role in call.params["party_roles"]:
            raise _err(
                "role", "Эту роль уже играет другой герой.", "Another hero already holds this role."
            )
        r = self._roll(call)
        if isinstance(r, Outcome):
            return r
        flags: dict[str, Any] = {"role": role}
        if r.band == STRONG:
            flags.update(
                {
                    "quartermaster": {"rations_saved": 1},
                    "trailblazer": {"journey_shortened": True},
                    "scout": {"spots_danger_first": True},
                }[role]
            )
        return self._outcome(call, r, state=r.state, flags=flags)

    def _do_supply(self, call: _Call) -> Outcome:
        """Пополнить припасы («Пополнить припасы»): market goods without a roll; unusual ones
        roll+CHA."""
        st, price = call.state, call.params["price"]
        if price > st["coins"]:
            raise _err("price", "Не хватает монет.", "Not enough coins.")
        if not call.params["unusual"]:
            st["coins"] -= price
            text = Text("Покупка по рыночной цене.", "Bought at market price.")
            return self._outcome(call, None, state=st, text=text)
        r = self._roll(call)
        if isinstance(r, Outcome):
            return r
        if r.band == STRONG:
            r.state["coins"] -= price
        return self._outcome(call, r, state=r.state, flags={"gm_lists_options": r.band == WEAK})

    def _do_recover(self, call: _Call) -> Outcome:
        """Восстановить силы («Восстановить силы»): a day heals all HP; a debility heals per 3 days,
        per 2 with a healer, repeated for longer rests (a setting)."""
        st, p = call.state, call.params
        if st["status"] in ("dying", "dead"):
            raise _err("status", *CANT_ACT[st["status"]])
        st["hp"] = st["max_hp"]
        if st["status"] == "stabilized":
            st["status"] = "alive"
        per = 2 if p["healer"] else 3
        allowed = p["days"] // per
        if not call.settings["recover_repeat"]:
            allowed = min(allowed, 1)
        present = [d.key for d in DEBILITIES if st["debilities"][d.key]]
        count = min(allowed, len(present))
        details = {"debilities_allowed": allowed}
        cure = p["cure"]
        if cure is not None:
            if len(set(cure)) != len(cure) or any(d not in present for d in cure):
                raise _err(
                    "cure",
                    "Можно излечить только имеющиеся травмы, каждую раз.",
                    "Only debilities you have, each once.",
                )
            if len(cure) > count:
                raise _err(
                    "cure", f"Можно излечить не больше {count}.", f"You can heal at most {count}."
                )
            chosen = cure
        elif count == len(present):
            chosen = present
        else:
            options = OptionSet(
                count,
                "player",
                tuple(Option(d.key, d.ru, d.en) for d in DEBILITIES if d.key in present),
            )
            text = Text(
                "Все ОЗ восстановлены. Выберите травмы, которые излечиваются.",
                "All HP restored. Choose the debilities that heal.",
            )
            return self._pending(
                call, None, state=st, options=options, kind="cure", text=text, details=details
            )
        for key in chosen:
            st["debilities"][key] = False
        details["cured"] = list(chosen)
        text = Text("Все ОЗ восстановлены.", "All HP restored.")
        return self._outcome(call, None, state=st, text=text, details=details)

    def _choose_cure(self, outcome, choices, dice, pending) -> Outcome:
        state = copy.deepcopy(outcome.state)
        for key in choices:
            state["debilities"][key] = False
        return self._continue(outcome, choices, state=state, details={"cured": choices})

    def _do_recruit(self, call: _Call) -> Outcome:
        """Найм («Найм»): +1 per condition; turning candidates away on 7-9 or 6- gives -1
        forward to the next Recruit («Найм»), but not on 10+ («Найм»)."""
        r = self._roll(call)
        if isinstance(r, Outcome):
            return r
        if r.band == STRONG:
            return self._outcome(call, r, state=r.state)
        return self._pending(
            call, r, state=r.state, options=call.spec.options[r.band], kind="recruit"
        )

    def _choose_recruit(self, outcome, choices, dice, pending) -> Outcome:
        state = copy.deepcopy(outcome.state)
        if choices[0] == "send_away":
            state["forward"].append(
                {"value": -1, "move": "recruit", "note": "Найм: вы отказали кандидатам"}
            )
        return self._continue(outcome, choices, state=state)

    def _do_outstanding_warrants(self, call: _Call) -> Outcome:
        """Неоплаченный долг («Неоплаченный долг»): recognised on 7+ (our reading); on 7-9 the GM
        also picks a complication."""
        r = self._roll(call)
        if isinstance(r, Outcome):
            return r
        flags = {"recognised": r.band != MISS}
        if r.band == WEAK:
            return self._pending(
                call, r, state=r.state, options=call.spec.options[WEAK], kind="record", flags=flags
            )
        return self._outcome(call, r, state=r.state, flags=flags)

    def _do_bolster(self, call: _Call) -> Outcome:
        """Усердно заниматься («Усердно заниматься»): preparation from days of study."""
        points = bolster_points(call.params["days"])
        call.state["preparation"] += points
        text = Text(f"Очков подготовки: +{points}.", f"Preparation: +{points}.")
        return self._outcome(call, None, state=call.state, text=text, details={"gained": points})

    def _do_level_up(self, call: _Call) -> Outcome:
        """Повысить уровень («Повысить уровень»): XP >= level+7; past level 10 choose retire,
        apprentice or change class instead («После десятого уровня»)."""
        st, p = call.state, call.params
        need = st["level"] + 7
        if st["career"] != "active":
            raise _err(
                "career",
                "Персонаж больше не получает уровни.",
                "This character no longer advances.",
            )
        if st["xp"] < need:
            raise _err("xp", f"Нужно опыта: {need}.", f"Needs {need} XP.")
        if st["level"] >= 10:
            text = Text(
                "Вместо 11 уровня выберите один вариант.", "Instead of level 11, choose one."
            )
            return self._pending(
                call,
                None,
                state=st,
                options=call.spec.options["after_10"],
                kind="after_ten",
                text=text,
            )
        stat = p["stat"]
        if stat is None:
            raise _err("stat", "Выберите характеристику.", "Choose a stat to raise.")
        if st["stats"][stat] >= 18:
            raise _err("stat", "Характеристика не может быть выше 18.", "A stat cannot exceed 18.")
        if st["class_name"].casefold() in WIZARD_CLASSES and not p["new_spell"]:
            raise _err("new_spell", "Маг получает новое заклинание.", "A Wizard gains a spell.")
        st["xp"] -= need
        st["level"] += 1
        st["stats"][stat] += 1
        if stat == "con" and call.settings["hp_from_con"]:
            # «Повысить уровень»: a CON change may change max and current HP ([published] base +
            # CON).
            st["max_hp"] += 1
            st["hp"] += 1
        if p["new_spell"]:
            st["spellbook"].append(p["new_spell"])
        if p["new_move"]:
            st["moves"].append(
                {
                    "name": p["new_move"],
                    "level_taken": st["level"],
                    "source_class": st["class_name"],
                }
            )
        text = Text(f"Уровень {st['level']}.", f"Level {st['level']}.")
        return self._outcome(call, None, state=st, text=text)

    def _choose_after_ten(self, outcome, choices, dice, pending) -> Outcome:
        state = copy.deepcopy(outcome.state)
        state["xp"] -= state["level"] + 7
        if choices[0] == "retire":
            state["career"] = "retired"
        elif choices[0] == "apprentice":
            state["career"] = "apprentice"
        return self._continue(
            outcome, choices, state=state, flags={"change_class": choices[0] == "change_class"}
        )

    def _do_end_of_session(self, call: _Call) -> Outcome:
        """Конец сессии («Конец сессии»): +1 for a resolved bond the other player agrees to, +1 for
        alignment, and everyone +1 per "yes" (``details["party_xp"]``)."""
        st, p = call.state, call.params
        gained = 0
        index = p["resolve_bond"]
        if index is not None:
            if index >= len(st["bonds"]):
                raise _err("resolve_bond", "Нет таких уз.", "No such bond.")
            if p["bond_agreed"]:
                gained += 1
                del st["bonds"][index]
                if p["new_bond_with"] or p["new_bond_text"]:
                    st["bonds"].append({"with": p["new_bond_with"], "text": p["new_bond_text"]})
        gained += int(p["alignment_fulfilled"])
        party = sum(int(p[q]) for q in ("learned", "defeated", "treasure"))
        gained += party
        marked = _mark_xp(st, gained) if gained else False
        text = Text(f"Опыт: +{gained if marked else 0}.", f"XP: +{gained if marked else 0}.")
        return self._outcome(
            call,
            None,
            state=st,
            text=text,
            details={"xp_gained": gained if marked else 0, "party_xp": party},
        )

    # --- sheet actions -------------------------------------------------------------------------

    def _do_take_damage(self, call: _Call) -> Outcome:
        """Получить урон («Урон»; «Одновременный урон от нескольких противников»; «Оглушающий
        урон»): one number, one expression, or several attackers
        («Одновременный урон от нескольких противников»: roll the biggest die once per attacker and
        keep the highest)."""
        p = call.params
        sources = [
            p["amount"] is not None,
            bool(p["damage"]),
            p["attacker"] is not None,
            bool(p["attackers"]),
        ]
        if sum(sources) != 1:
            raise _err(
                "amount",
                "Укажите урон одним способом: число, кубики или атакующие.",
                "Give the damage one way: a number, dice or attackers.",
            )
        details: dict[str, Any] = {}
        ignores = p["ignores_armor"]
        if p["amount"] is not None:
            amount = p["amount"]
        elif p["attacker"] is not None:
            # Monsters roll the damage in their description («Урон»).
            roll = roll_damage(p["attacker"]["damage"], call.dice)
            amount, details["roll"] = roll.total, roll.as_dict()
            ignores = ignores or p["attacker"]["ignores_armor"]
        elif p["damage"]:
            roll = roll_damage(p["damage"], call.dice)
            amount, details["roll"] = roll.total, roll.as_dict()
        else:
            expr = pick_attacker_expression([a["damage"] for a in p["attackers"]])
            ignores = ignores or any(
                a["ignores_armor"] for a in p["attackers"] if a["damage"] == expr
            )
            rolls = [roll_damage(expr, call.dice) for _ in p["attackers"]]
            amount = max(r.total for r in rolls)
            details["attackers"] = {"expression": expr, "rolls": [r.as_dict() for r in rolls]}
        state, info = self._pc_takes(
            call.state, amount, ignores_armor=ignores, cover=p["cover"], stun=p["stun"]
        )
        details.update(info)
        if info["last_breath"]:
            text = Text(
                f"ОЗ: 0. Последний вздох! (урон {info['final']})",
                f"HP 0. Last Breath! ({info['final']} damage)",
            )
        elif p["stun"]:
            text = Text(
                "Оглушающий урон: спасайтесь от угрозы «вы оглушены».",
                "Stun damage: Defy Danger against being stunned.",
            )
        else:
            text = Text(f"Получено урона: {info['final']}.", f"Damage taken: {info['final']}.")
        return self._outcome(
            call,
            None,
            state=state,
            text=text,
            details=details,
            flags={"last_breath": info["last_breath"], "defy_danger": bool(p["stun"])},
        )

    def _do_deal_damage(self, call: _Call) -> Outcome:
        """Нанести урон («Некоторые ходы»; «Урон»; «Увеличение и уменьшение урона»; «Больший и
        меньший»): a stated amount replaces the roll."""
        p = call.params
        details: dict[str, Any] = {}
        if p["amount"] is not None:
            amount = max(0, p["amount"] + p["damage_bonus"])
        else:
            expr = p["expression"] or self._class_damage(call.state, p["damage_bonus"])
            roll = roll_damage(expr, call.dice)
            amount, details["damage"] = roll.total, roll.as_dict()
        details["amount"] = amount
        flags: dict[str, Any] = {}
        if p["target"] is not None:
            npc, info = self._npc_takes(
                p["target"], amount, ignores_armor=p["ignores_armor"], stun=p["stun"]
            )
            details["target"], details["dealt"] = npc, info["final"]
            flags["target_down"] = info["down"]
        text = Text(f"Урон: {amount}.", f"Damage: {amount}.")
        return self._outcome(call, None, state=call.state, text=text, details=details, flags=flags)

    def _do_npc_take_damage(self, call: _Call) -> Outcome:
        """A GM character takes damage («Урон»); stun costs it no HP («Оглушающий урон»)."""
        p = call.params
        if (p["amount"] is None) == (not p["damage"]):
            raise _err(
                "amount",
                "Укажите урон числом или кубиками.",
                "Give the damage as a number or as dice.",
            )
        details: dict[str, Any] = {}
        if p["amount"] is not None:
            amount = p["amount"]
        else:
            roll = roll_damage(p["damage"], call.dice)
            amount, details["roll"] = roll.total, roll.as_dict()
        npc, info = self._npc_takes(
            call.state, amount, ignores_armor=p["ignores_armor"], stun=p["stun"]
        )
        details.update(info)
        text = Text(f"ОЗ: {npc['hp']}.", f"HP: {npc['hp']}.")
        return self._outcome(
            call, None, state=npc, text=text, details=details, flags={"down": info["down"]}
        )

    def _do_spend_hold(self, call: _Call) -> Outcome:
        """Spend hold 1:1 on the options of the move that gave it, and nothing else («Некоторые
        ходы»)."""
        st, p = call.state, call.params
        spec = MOVES_BY_KEY[p["for_move"]]
        entry = next(
            (h for h in st["hold"] if h["move"] == p["for_move"] and h["amount"] > 0), None
        )
        if entry is None or spec.hold is None:
            raise _err("for_move", f"Нет запаса хода «{spec.ru}».", f"No hold from {spec.en}.")
        option = next((o for o in spec.hold.options if o.key == p["option"]), None)
        if option is None:
            raise _err(
                "option",
                f"Запас хода «{spec.ru}» тратится только на его варианты.",
                f"{spec.en} hold is spent only on its own options.",
            )
        entry["amount"] -= 1
        st["hold"] = [h for h in st["hold"] if h["amount"] > 0]
        details: dict[str, Any] = {"option": option.key, "hold_left": entry["amount"]}
        if option.key == "halve":
            details["damage"] = self._halve(p["damage"], p["armor"], call.settings)
        elif option.key == "open_attacker":
            details["ally_forward"] = 1
        elif option.key == "level_damage":
            details["amount"] = st["level"]  # fixed damage («Урон»), armor applies (our reading)
            if p["attacker"] is not None:
                npc, info = self._npc_takes(p["attacker"], st["level"])
                details["target"], details["dealt"] = npc, info["final"]
        return self._outcome(call, None, state=st, text=Text(option.ru, option.en), details=details)

    @staticmethod
    def _halve(damage: int, armor: int, settings: dict[str, Any]) -> int:
        """Defend "halve" (our reading): after armor and rounded down unless set otherwise."""

        def half(x: int) -> int:
            return -(-x // 2) if settings["defend_halve_rounding"] == "up" else x // 2

        if settings["defend_halve_order"] == "after_armor":
            return half(max(0, damage - armor))
        return max(0, half(damage) - armor)

    def _do_heal(self, call: _Call) -> Outcome:
        """Healing never exceeds max HP («Лечение»); medical help wakes a stabilized PC
        («Смерть»)."""
        st, p = call.state, call.params
        if st["status"] in ("dying", "dead"):
            raise _err("status", *CANT_ACT[st["status"]])
        if p["amount"] is None and not p["full"]:
            raise _err("amount", "Сколько ОЗ восстановить?", "How much HP?")
        before = st["hp"]
        st["hp"] = st["max_hp"] if p["full"] else min(st["max_hp"], st["hp"] + p["amount"])
        if st["status"] == "stabilized":
            st["status"] = "alive"
        healed = st["hp"] - before
        text = Text(f"Исцелено {healed} ОЗ.", f"Healed {healed} HP.")
        return self._outcome(call, None, state=st, text=text, details={"healed": healed})

    def _do_add_forward(self, call: _Call) -> Outcome:
        """+N на следующий ход («Некоторые ходы»): used by the next roll of any move, or of its
        move."""
        p = call.params
        call.state["forward"].append(
            {"value": p["value"], "move": p["for_move"], "note": p["note"]}
        )
        return self._outcome(call, None, state=call.state)

    def _do_add_ongoing(self, call: _Call) -> Outcome:
        """+N на все ходы («Некоторые ходы»): kept until its end condition, which is fiction
        (our reading)."""
        p = call.params
        call.state["ongoing"].append(
            {"value": p["value"], "move": p["for_move"], "note": p["note"]}
        )
        return self._outcome(call, None, state=call.state)

    def _do_end_ongoing(self, call: _Call) -> Outcome:
        index = call.params["index"]
        if index >= len(call.state["ongoing"]):
            raise _err("index", "Нет такого бонуса.", "No such ongoing bonus.")
        del call.state["ongoing"][index]
        return self._outcome(call, None, state=call.state)

    def _do_take_debility(self, call: _Call) -> Outcome:
        """Травмы («Травмы»): -1 to a stat's modifier, score and HP unchanged; no stacking."""
        key = call.params["debility"]
        already = call.state["debilities"][key]
        call.state["debilities"][key] = True
        return self._outcome(call, None, state=call.state, flags={"already_had": already})

    def _do_cure_debility(self, call: _Call) -> Outcome:
        key = call.params["debility"]
        had = call.state["debilities"][key]
        call.state["debilities"][key] = False
        return self._outcome(call, None, state=call.state, flags={"had": had})

    def _do_mark_xp(self, call: _Call) -> Outcome:
        marked = _mark_xp(call.state, call.params["amount"])
        return self._outcome(call, None, state=call.state, flags={"xp_marked": marked})

    def _do_change_stat(self, call: _Call) -> Outcome:
        """A lasting CON change moves max and current HP with it; a temporary one does not
        («ОЗ (очки здоровья)»), and neither does a debility («Травмы»)."""
        st, p = call.state, call.params
        delta = p["score"] - st["stats"][p["stat"]]
        st["stats"][p["stat"]] = p["score"]
        if p["stat"] == "con" and call.settings["hp_from_con"] and not p["temporary"]:
            st["max_hp"] = max(1, st["max_hp"] + delta)
            st["hp"] = max(0, min(st["max_hp"], st["hp"] + delta))
        return self._outcome(call, None, state=st, details={"delta": delta})

    def _do_multiclass(self, call: _Call) -> Outcome:
        """Мультиклассовые ходы («Мультиклассовые ходы»): the move's level must be below the
        character's (the «Мультиклассовые ходы» example; «Мультиклассовые ходы» says "or lower" — a
        setting)."""
        st, p = call.state, call.params
        strict = call.settings["multiclass_strictly_lower"]
        if p["move_level"] > st["level"] or (strict and p["move_level"] >= st["level"]):
            raise _err(
                "move_level",
                "Уровень хода должен быть ниже вашего.",
                "The move's level must be below yours.",
            )
        st["moves"].append(
            {"name": p["move_name"], "level_taken": st["level"], "source_class": p["source_class"]}
        )
        return self._outcome(
            call,
            None,
            state=st,
            details={"effective_level": multiclass_level(st["level"], st["level"])},
        )


RULESET = DungeonWorld()
