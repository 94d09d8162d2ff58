"""City of Judas damage rules (rulebook: «Град Иуды», глава «Нанесение урона»).

``resolve(move, state, dice=..., settings=..., choices=..., **params)`` as in Dungeon World:
``decisive_strike`` takes a GM character's block as ``state``; every other move takes a
player character's sheet. Pending choices are finished with ``apply_choice``; on a Take
Damage outcome the player may answer ``["maim:<key>"]`` at any pending step instead
(a maim after the roll, «Урон персонажу: увечья»).
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from systems.city_of_judas.moves import (
    CONFLICT_EXCLUSIVE,
    DS_TWO,
    ENGAGE_OPTIONS,
    MORTAL,
    MOVES,
    MOVES_BY_KEY,
    TD_OFFER,
)
from systems.city_of_judas.sheet import (
    HEALTH_MIN,
    NPC,
    NPC_KINDS,
    ONE_DIE_KINDS,
    SETTINGS,
    SHEET,
)
from systems.core.dice import Dice
from systems.core.outcome import Option, Outcome, Text
from systems.core.pbta import (
    BANDS,
    MISS,
    STRONG,
    WEAK,
    PbtaRoll,
    band_odds,
    certain,
    check_choices,
    continue_outcome,
    from_faces,
    offer,
    roll,
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
from systems.core.schema import OPPONENT, PLAYER, MoveSpec, OptionSet, fail, validate

MAIM_PREFIX = "maim:"

_Call = MoveCall

_err = fail  # the rules' error: a field path and ru/en text


def damage_through(
    damage: int,
    ap: int,
    *,
    armor: int,
    shield: int = 0,
    other: int = 0,
    ap_ignores_shield: bool = False,
) -> int:
    """Damage of one source after protection («Нанесение урона»), never below 0 («Нанесение урона»).

    The armour-piercing part ignores the armor value («Нанесение урона»: "игнорирует значение
    брони"); leftover armor never absorbs it (our reading). The rulebook says nothing about AP and
    a shield, so by default shield and other protection still count against the AP part once
    the normal part is used up; ``ap_ignores_shield`` lets the AP part pass the shield and
    other protection entirely.
    """
    ap = min(ap, damage)
    normal = damage - ap
    after_armor = max(0, normal - armor)
    cover = shield + other
    through_normal = max(0, after_armor - cover)
    if ap_ignores_shield:
        return through_normal + ap
    leftover_cover = max(0, cover - after_armor)
    return through_normal + max(0, ap - leftover_cover)


def clamp_change(value: int, delta: int, low: int, high: int) -> int:
    """``value + delta`` kept within ``low..high``, but never moved against ``delta``."""
    new = value + delta
    if delta < 0:
        return max(new, min(value, low))
    return min(new, max(value, high))


class CityOfJudas(MoveDispatch):
    """The damage chapter: Decisive Strike, Take Damage, maims, PvP conflict, one-roll rule."""

    key = "city_of_judas"
    name_ru = "Град Иуды"
    name_en = "City of Judas"

    # --- description and validation ------------------------------------------------------

    def describe(self) -> dict[str, Any]:
        """Forms and help for every move, the sheet, the GM-character block and settings."""
        return {
            **describe_head(self),
            "bands": list(BANDS),
            "npc_kinds": [
                c.as_dict() | {"dice": 1 if c.key in ONE_DIE_KINDS else 2} for c in NPC_KINDS
            ],
            "sheet": SHEET.describe(),
            "npc": NPC.describe(),
            **describe_settings(SETTINGS),
            **describe_moves(MOVES),
            **common_params(
                "Сразу ответить на выбор хода", "Answer the move's pending choice at once"
            ),
        }

    def default_state(self) -> dict[str, Any]:
        return self.validate_state(SHEET.default_value())

    def default_npc(self) -> dict[str, Any]:
        return self.validate_npc(NPC.default_value())

    def validate_state(self, state: dict[str, Any]) -> dict[str, Any]:
        """Clean a sheet; stat and maim keys must be unique so moves can name them."""
        clean = validate(SHEET, state)
        for group in ("stats", "maims"):
            keys = [item["key"] for item in clean[group]]
            if len(set(keys)) != len(keys) or "" in keys:
                raise _err(
                    group,
                    "Ключи должны быть заполнены и не повторяться.",
                    "Keys must be set and unique.",
                )
        return clean

    def validate_npc(self, npc: dict[str, Any]) -> dict[str, Any]:
        return validate(NPC, npc)

    def clean_settings(self, settings: dict[str, Any] | None = None) -> dict[str, Any]:
        clean = validate(SETTINGS, settings or {}, path="settings")
        if clean["superiority_min"] > clean["superiority_max"]:
            raise _err(
                "settings.superiority_min",
                "Минимум больше максимума.",
                "The minimum is above the maximum.",
            )
        return clean

    def stat_value(self, state: dict[str, Any], stat: str) -> int:
        """A stat with the penalties of its marked maims («Урон персонажу: увечья»)."""
        state = self.validate_state(state)
        return self._stat(state, stat)

    @staticmethod
    def _stat(state: dict[str, Any], stat: str) -> int:
        entry = next((s for s in state["stats"] if s["key"] == stat), None)
        if entry is None:
            raise _err("stat", f"Нет характеристики «{stat}».", f"No stat {stat!r}.")
        penalty = sum(m["penalty"] for m in state["maims"] if m["marked"] and m["stat"] == stat)
        return entry["value"] + penalty

    # --- entry points --------------------------------------------------------------------

    def apply_choice(
        self, outcome: Outcome, choices: list[str], *, dice: Dice | None = None
    ) -> Outcome:
        """Finish a pending choice; a Take Damage outcome also accepts ``["maim:<key>"]``."""
        pending = outcome.details.get("pending")
        if not outcome.pending or not pending:
            return super().apply_choice(outcome, choices, dice=dice)
        maims = tuple(o["key"] for o in outcome.details.get("maim_after", []))
        check_choices(outcome, choices, extra=maims)
        if len(choices) == 1 and choices[0] in maims:
            return self._maim_after(outcome, choices)
        if pending["kind"] == "conflict_roll":
            return self._choose_conflict_roll(outcome, choices, pending, dice)
        return getattr(self, f"_choose_{pending['kind']}")(outcome, choices, pending)

    def odds(self, move: str, state: dict[str, Any], **params: Any) -> dict[str, float]:
        """Exact band chances; a reused roll (one-roll rule) is certain; ``{}`` if no roll."""
        call = self._call(move, state, None, params)
        spec, p = call.spec, call.params
        if spec.roll is None:
            return {}
        if spec.key == "decisive_strike":
            wounds = call.state["wounds"] + self._dealt(call, call.state)
            count = 1 if call.state["kind"] in ONE_DIE_KINDS else 2
            if p["reuse_faces"] is not None:
                return certain(self._reused(call, count, wounds).band)
            return band_odds(wounds, count=count)
        if spec.key == "take_damage":
            dealt = self._dealt(call, call.state)
            if dealt <= 0 or p["maim_before"]:
                return {}
            health = max(HEALTH_MIN, call.state["health"] - dealt)
            if p["reuse_faces"] is not None:
                return certain(self._reused(call, 2, health).band)
            return band_odds(health)
        return band_odds(self._stat(call.state, self._stat_key(spec, p)) + p["bonus"])

    # --- plumbing ------------------------------------------------------------------------

    def _call(self, move: str, state: dict[str, Any], dice: Dice | None, params: dict) -> _Call:
        spec, settings, params = split_call(
            move, params, clean_settings=self.clean_settings, moves_by_key=MOVES_BY_KEY
        )
        clean = self.validate_npc(state) if spec.subject == "npc" else self.validate_state(state)
        return _Call(spec, clean, validate(spec.params, params), dice, settings)

    @staticmethod
    def _stat_key(spec: MoveSpec, params: dict[str, Any]) -> str:
        return "steel" if spec.roll == "steel" else params["stat"]

    def _dealt(self, call: _Call, defender: dict[str, Any]) -> int:
        """Damage after armor, armor subtracted separately for each source («Нанесение урона»)."""
        p = call.params
        if p["dealt"] is not None:
            return p["dealt"]
        hits = p["hits"] or [{"damage": p["damage"], "ap": p["ap"]}]
        attacker = p.get("attacker")
        if attacker is not None and not p["hits"] and not p["damage"]:
            # A character's strike defaults to their weapon's damage («Нанесение урона»; «Примеры
            # хода решающий удар»).
            hits = [{"damage": attacker["weapon_damage"], "ap": attacker["weapon_ap"]}]
        return sum(
            damage_through(
                h["damage"],
                h["ap"],
                armor=defender["armor"],
                shield=defender["shield"],
                other=defender["other_protection"],
                ap_ignores_shield=call.settings["ap_ignores_shield"],
            )
            for h in hits
        )

    def _reused(self, call: _Call, count: int, modifier: int) -> PbtaRoll:
        """One-roll rule («Урон персонажу: правило одного броска»): reuse the natural dice of the
        move that caused the damage; a one-die Decisive Strike keeps the lower die («Урон персонажу:
        правило одного броска»)."""
        if not call.settings["one_roll_rule"]:
            raise _err(
                "reuse_faces",
                "Правило одного броска в этой кампании не действует.",
                "The one-roll rule is off in this campaign.",
            )
        faces = list(call.params["reuse_faces"])
        if count == 1:
            faces = [min(faces)]
        return from_faces(faces, modifier)

    def _damage_roll(self, call: _Call, count: int, modifier: int) -> tuple[PbtaRoll, bool]:
        if call.params["reuse_faces"] is not None:
            return self._reused(call, count, modifier), True
        return roll(call.dice, modifier, count=count), False

    def _outcome(
        self,
        call: _Call,
        r: PbtaRoll | None,
        *,
        state: dict[str, Any],
        text: Text | None = None,
        flags: dict[str, Any] | None = None,
        details: dict[str, Any] | None = None,
    ) -> Outcome:
        if text is None:
            text = call.spec.results.get(r.band) if r else None
            text = text or Text(call.spec.ru, call.spec.en)
        return Outcome(
            move=call.spec.key,
            total=r.total if r else None,
            band=r.band if r else None,
            faces=list(r.faces) if r else [],
            modifier=r.modifier if r else 0,
            state=state,
            text=text,
            flags=dict(flags or {}),
            details=dict(details or {}),
        )

    @staticmethod
    def _offer(
        outcome: Outcome,
        options: OptionSet,
        kind: str,
        call_or_pending: Any,
        only: list[str] | None = None,
        chooser: str | None = None,
    ) -> Outcome:
        if isinstance(call_or_pending, _Call):
            pending = {
                "move": call_or_pending.spec.key,
                "params": call_or_pending.params,
                "settings": call_or_pending.settings,
            }
        else:
            pending = dict(call_or_pending)
        pending["kind"] = kind
        offered = [o for o in options.options if only is None or o.key in only]
        return offer(
            outcome, offered, pick=options.pick, chooser=chooser or options.chooser, pending=pending
        )

    # --- Decisive Strike -------------------------------------------------------------------

    def _do_decisive_strike(self, call: _Call) -> Outcome:
        """Решающий удар («Нанесение урона: ход решающий удар»): wounds += damage after armor, then
        2d6+wounds (minor enemies) or 1d6+wounds (important NPCs, monsters, demons, rivals:
        «Нанесение урона: ход решающий удар»). Wounds stay on
        a miss («Примеры хода решающий удар»); 10+ the player picks, 7-9 the GM picks for the
        opponent and moves («Нанесение урона: ход решающий удар»; «Примеры хода решающий удар»); a
        miss lets the GM move first («Нанесение урона: ход решающий удар»)."""
        npc = call.state
        if npc["out"]:
            raise _err("out", "Этот противник уже выведен из боя.", "This enemy is already out.")
        dealt = self._dealt(call, npc)
        npc["wounds"] += dealt
        count = 1 if npc["kind"] in ONE_DIE_KINDS else 2
        r, reused = self._damage_roll(call, count, npc["wounds"])
        flags = {
            "gm_move": r.band == WEAK,
            "gm_moves_first": r.band == MISS,
            "one_roll": reused,
            "dice_count": count,
        }
        out = self._outcome(call, r, state=npc, flags=flags, details={"dealt": dealt})
        if r.band in (STRONG, WEAK):
            kind = "ds_strong" if r.band == STRONG else "ds_weak"
            return self._offer(out, call.spec.options[r.band], kind, call)
        return out

    def _choose_ds_strong(self, outcome: Outcome, choices: list[str], pending: dict) -> Outcome:
        if choices[0] == "two_of_list":
            done = continue_outcome(outcome, choices, state=copy.deepcopy(outcome.state))
            return self._offer(done, DS_TWO, "ds_weak", pending, chooser="player")
        state = copy.deepcopy(outcome.state)
        state["out"] = choices[
            0
        ]  # killed | defeated: out of the fight («Нанесение урона: ход решающий удар»)
        return continue_outcome(outcome, choices, state=state, flags={"fight_over": True})

    def _choose_ds_weak(self, outcome: Outcome, choices: list[str], pending: dict) -> Outcome:
        """Serious wound: +1 wound at once, ignoring armor, no new roll (our reading);
        advantage: +1 superiority to the striking character («Нанесение урона: ход решающий
        удар»)."""
        state = copy.deepcopy(outcome.state)
        details: dict[str, Any] = {}
        flags: dict[str, Any] = {}
        if "serious_wound" in choices:
            state["wounds"] += 1
        if "advantage" in choices:
            details["attacker_superiority"] = 1
            attacker = pending["params"].get("attacker")
            if attacker is not None:
                attacker = copy.deepcopy(attacker)
                s = pending["settings"]
                attacker["superiority"] = clamp_change(
                    attacker["superiority"], 1, s["superiority_min"], s["superiority_max"]
                )
                details["attacker"] = attacker
        if "panic" in choices:
            flags["enemy_panics"] = True
        return continue_outcome(outcome, choices, state=state, flags=flags, details=details)

    # --- Take Damage -----------------------------------------------------------------------

    def _maims_unmarked(self, state: dict[str, Any]) -> list[dict[str, str]]:
        return [
            {
                "key": MAIM_PREFIX + m["key"],
                "ru": f"Взять увечье: {m['name'] or m['key']}",
                "en": f"Take the maim: {m['name'] or m['key']}",
            }
            for m in state["maims"]
            if not m["marked"]
        ]

    @staticmethod
    def _mark_maim(state: dict[str, Any], key: str, path: str) -> None:
        maim = next((m for m in state["maims"] if m["key"] == key), None)
        if maim is None:
            raise _err(path, f"Нет увечья «{key}».", f"No maim {key!r}.")
        if maim["marked"]:
            raise _err(
                path,
                "Каждое увечье можно взять только один раз.",
                "Each maim can be taken only once.",
            )
        maim["marked"] = True

    def _do_take_damage(self, call: _Call) -> Outcome:
        """Получить урон («Урон персонажу: ход получить урон»): health -= damage after armor (not
        below -3), unstable at -1 or lower («Урон персонажу»), then 2d6+health. No
        damage, no move («Нанесение урона»). A maim taken before marking replaces the whole thing
        («Урон персонажу: увечья»)."""
        st, p, s = call.state, call.params, call.settings
        dealt = self._dealt(call, st)
        if dealt <= 0:
            text = Text(
                "Урон за вычетом брони — ноль: хода «получить урон» нет.",
                "No damage gets through armor: no Take Damage.",
            )
            return self._outcome(
                call, None, state=st, text=text, flags={"no_damage": True}, details={"dealt": dealt}
            )
        if p["maim_before"]:
            self._mark_maim(st, p["maim_before"], "maim_before")
            text = Text(
                "Взято увечье: урон не отмечается, бросок не нужен.",
                "Maim taken: no damage marked, no roll.",
            )
            return self._outcome(
                call,
                None,
                state=st,
                text=text,
                flags={"maim_taken": p["maim_before"], "no_roll": True},
                details={"dealt": dealt},
            )
        before = st["health"]
        st["health"] = max(HEALTH_MIN, before - dealt)
        if st["health"] <= -1:
            st["unstable"] = True
        marked = copy.deepcopy(st)
        r, reused = self._damage_roll(call, 2, st["health"])
        details = {
            "dealt": dealt,
            "health_before": before,
            "overflow": max(0, dealt - (before - HEALTH_MIN)),
            "marked_state": marked,
            "maim_after": self._maims_unmarked(st),
        }
        flags = {"one_roll": reused, "unstable": st["unstable"]}
        if r.band == MISS:
            st["superiority"] = clamp_change(
                st["superiority"], -1, s["superiority_min"], s["superiority_max"]
            )
        out = self._outcome(call, r, state=st, flags=flags, details=details)
        if r.band == STRONG:
            only = ["fight_on"]
            if st["superiority"] - 1 >= s["superiority_min"]:
                only.insert(
                    0, "not_so_bad"
                )  # «Урон персонажу: ход получить урон»; «Примеры хода получить урон»
            return self._offer(out, call.spec.options[STRONG], "td_10", call, only=only)
        if r.band == WEAK:
            return self._offer(out, call.spec.options[WEAK], "td_7_9", call)
        only = ["serious", "scary", "critical"] + (["deadly"] if st["health"] == HEALTH_MIN else [])
        # Damage from another player character: on a 6- that player, not the GM, picks the
        # fate ("Игрок против игрока").
        from_pc = p["from_pc"] or p["target"] is not None
        out.flags["opponent_chooses"] = from_pc
        chooser = OPPONENT if from_pc else None
        return self._offer(out, call.spec.options[MISS], "td_6", call, only=only, chooser=chooser)

    def _less_damage(self, outcome: Outcome, state: dict[str, Any]) -> None:
        """ "1 less damage": +1 health, never above the health before this hit."""
        state["health"] = min(state["health"] + 1, outcome.details["health_before"])

    def _choose_td_10(self, outcome: Outcome, choices: list[str], pending: dict) -> Outcome:
        state, s = copy.deepcopy(outcome.state), pending["settings"]
        if choices[0] == "not_so_bad":
            state["superiority"] -= 1
            self._less_damage(outcome, state)
        else:
            state["superiority"] = clamp_change(
                state["superiority"], 1, s["superiority_min"], s["superiority_max"]
            )
        return continue_outcome(outcome, choices, state=state)

    def _choose_td_7_9(self, outcome: Outcome, choices: list[str], pending: dict) -> Outcome:
        state = copy.deepcopy(outcome.state)
        done = continue_outcome(outcome, choices, state=state)
        if choices[0] == "really_hurts":
            done.details.pop("maim_after", None)
            return done
        done.details["maim_after"] = outcome.details["maim_after"]
        return self._offer(done, TD_OFFER, "td_offer", pending)

    def _choose_td_offer(self, outcome: Outcome, choices: list[str], pending: dict) -> Outcome:
        """The GM accepts the offer (1 less damage, down to 0) or refuses (-1 sup), «Урон персонажу:
        ход получить урон»."""
        state, s = copy.deepcopy(outcome.state), pending["settings"]
        if choices[0] == "gm_accepts":
            self._less_damage(outcome, state)
        else:
            state["superiority"] = clamp_change(
                state["superiority"], -1, s["superiority_min"], s["superiority_max"]
            )
        done = continue_outcome(outcome, choices, state=state)
        done.details.pop("maim_after", None)
        return done

    def _choose_td_6(self, outcome: Outcome, choices: list[str], pending: dict) -> Outcome:
        state = copy.deepcopy(outcome.state)
        if choices[0] == "critical":
            state["unstable"] = True  # «Урон персонажу: ход получить урон»
        done = continue_outcome(outcome, choices, state=state)
        if choices[0] != "deadly":
            done.details.pop("maim_after", None)
            return done
        # «Урон персонажу: ход получить урон»: the wound is mortal unless the player takes a maim
        # instead.
        options = [MORTAL] + [
            Option(m["key"], m["ru"], m["en"]) for m in outcome.details["maim_after"]
        ]
        done.details["maim_after"] = outcome.details["maim_after"]
        done.text = Text(
            "Смертельно: примите смертельную рану или возьмите увечье.",
            "Deadly: accept a mortal wound or take a maim instead.",
        )
        return offer(
            done, options, pick=1, chooser="player", pending={**pending, "kind": "td_deadly"}
        )

    def _choose_td_deadly(self, outcome: Outcome, choices: list[str], pending: dict) -> Outcome:
        state = copy.deepcopy(outcome.state)
        state["mortal_wound"] = True
        return continue_outcome(outcome, choices, state=state, flags={"mortal_wound": True})

    def _maim_after(self, outcome: Outcome, choices: list[str]) -> Outcome:
        """A maim after the roll keeps the marked damage but cancels every result of the move
        («Урон персонажу: увечья»), the unstable mark from reaching -1 included in what stays
        (our reading)."""
        state = copy.deepcopy(outcome.details["marked_state"])
        self._mark_maim(state, choices[0][len(MAIM_PREFIX) :], "choices")
        text = Text(
            "Взято увечье: последствия хода отменены, отмеченный урон остаётся.",
            "Maim taken: the move's results are cancelled; the marked damage stays.",
        )
        done = continue_outcome(
            outcome,
            choices,
            state=state,
            text=text,
            flags={"maim_taken": choices[0][len(MAIM_PREFIX) :]},
        )
        done.details.pop("maim_after", None)
        return done

    # --- combat moves ----------------------------------------------------------------------

    def _do_engage_in_battle(self, call: _Call) -> Outcome:
        """Вступить в бой (+Сталь, «Урон персонажу: правило одного броска»): 10+ pick two («Примеры
        конфликта между персонажами игроков»), 7-9 pick one («Примеры конфликта между персонажами
        игроков») and both sides deal damage at once («Примеры хода получить урон»; «Урон персонажу:
        правило одного броска»); Decisive Strike is open on 7+ («Нанесение урона»)."""
        return self._combat(call)

    def _do_take_a_shot(self, call: _Call) -> Outcome:
        """Сделать выстрел («Примеры хода решающий удар»; «Урон персонажу: правило одного броска»):
        one of its options is +1 AP damage."""
        return self._combat(call)

    def _do_defy_danger(self, call: _Call) -> Outcome:
        """Противостоять опасности («Урон персонажу: правило одного броска»): may come before
        damage."""
        return self._combat(call, decisive=False)

    def _do_face_death(self, call: _Call) -> Outcome:
        """Противостоять смерти («Примеры хода получить урон»; «Урон персонажу: правило одного
        броска»): may come before damage."""
        return self._combat(call, decisive=False)

    def _combat(self, call: _Call, *, decisive: bool = True) -> Outcome:
        stat = self._stat_key(call.spec, call.params)
        r = roll(call.dice, self._stat(call.state, stat) + call.params["bonus"])
        flags = {
            "decisive_strike_allowed": decisive and r.band != MISS,
            "both_deal_damage": call.spec.key == "engage_in_battle" and r.band == WEAK,
            "gm_move": r.band == MISS,
        }
        details = {"natural": list(r.faces), "stat": stat}
        out = self._outcome(call, r, state=call.state, flags=flags, details=details)
        if r.band in call.spec.options:
            return self._offer(out, call.spec.options[r.band], "engage", call)
        return out

    def _choose_engage(self, outcome: Outcome, choices: list[str], pending: dict) -> Outcome:
        state, s = copy.deepcopy(outcome.state), pending["settings"]
        details = {"extra_ap": 1 if "ap_damage" in choices else 0}
        if "superior_tactics" in choices:
            state["superiority"] = clamp_change(
                state["superiority"], 1, s["superiority_min"], s["superiority_max"]
            )
        return continue_outcome(outcome, choices, state=state, details=details)

    def _do_conflict(self, call: _Call) -> Outcome:
        """Конфликт («Игрок против игрока»): both fighters roll their moves, the server rolls
        both. The mover rolls now (2d6 + the stat of the move they make + bonuses); the
        opponent's player (or the referee) then says which stat their own move uses, and the
        server rolls theirs (``_choose_conflict_roll``)."""
        p = call.params
        opponent = p["target"]
        if opponent is None:
            raise _err(
                "target",
                "Выберите противника: персонажа за столом.",
                "Choose the opponent: a character at the table.",
            )
        opponent = self.validate_state(opponent)
        stat = p["stat"]
        mine = roll(call.dice, self._stat(call.state, stat) + p["bonus"])
        details = {"natural": list(mine.faces), "stat": stat, "target": opponent}
        name = opponent.get("name") or ""
        text = Text(
            f"Ваш результат: {mine.total}. Теперь бросает противник{' ' + name if name else ''}: "
            "он выбирает, чем бросает.",
            f"Your total: {mine.total}. Now the opponent{' ' + name if name else ''} rolls, "
            "choosing what with.",
        )
        out = self._outcome(call, mine, state=call.state, text=text, details=details)
        options = [
            Option(
                entry["key"],
                f"{entry['ru']} ({self._stat(opponent, entry['key']):+d})",
                f"{entry['en']} ({self._stat(opponent, entry['key']):+d})",
            )
            for entry in opponent["stats"]
        ]
        pending = {
            "move": call.spec.key,
            "params": copy.deepcopy(p),
            "settings": copy.deepcopy(call.settings),
            "kind": "conflict_roll",
            "total": mine.total,
            "sheet": "target",
        }
        return offer(out, options, pick=1, chooser=OPPONENT, pending=pending)

    def _choose_conflict_roll(
        self, outcome: Outcome, choices: list[str], pending: dict, dice: Dice | None
    ) -> Outcome:
        """The opponent's roll: 2d6 + the stat they chose. The higher total wins, +1
        superiority, picks first; equal totals resolve at once with no limits; nobody makes a
        Decisive Strike. Both missing: the higher total still wins unless the campaign says no.

        Each side then picks Engage in Battle's options by its own total (10+ two, 7-9 one):
        the winner first, then the loser, who may not contradict the winner. Then a side with
        7+ deals its weapon's damage, and a character it gets through to rolls Take Damage at
        once (``details["follow_moves"]``), its 6- picked by the other side."""
        if dice is None:
            raise _err("dice", "Нужны кубики.", "Dice are needed here.")
        s = pending["settings"]
        state = copy.deepcopy(outcome.state)
        opponent = copy.deepcopy(outcome.details["target"])
        theirs_roll = roll(dice, self._stat(opponent, choices[0]))
        mine, theirs = pending["total"], theirs_roll.total
        both_miss = mine <= 6 and theirs <= 6
        if mine == theirs or (both_miss and not s["conflict_miss_can_win"]):
            winner = "tie" if mine == theirs else "none"
        else:
            winner = "self" if mine > theirs else "opponent"
        if winner == "self":
            state["superiority"] = clamp_change(
                state["superiority"], 1, s["superiority_min"], s["superiority_max"]
            )
        if winner == "opponent":
            opponent["superiority"] = clamp_change(
                opponent["superiority"], 1, s["superiority_min"], s["superiority_max"]
            )
        texts = {
            "self": Text(
                "Вы победили: +1 к превосходству, выбираете варианты первым.",
                "You win: +1 superiority, you pick first.",
            ),
            "opponent": Text(
                "Противник победил: он выбирает первым, вы не можете ему противоречить.",
                "The opponent wins and picks first; you may not contradict it.",
            ),
            "tie": Text(
                "Ничья: варианты срабатывают одновременно, без ограничений.",
                "A tie: options resolve at once, with no limits.",
            ),
            "none": Text("Оба провалились: никто не побеждает.", "Both missed: nobody wins."),
        }
        stat = next(e for e in opponent["stats"] if e["key"] == choices[0])
        rolled = Text(
            f"Ваш результат {mine}, у противника {theirs} "
            f"({' + '.join(map(str, theirs_roll.faces))}, {stat['ru']} "
            f"{theirs_roll.modifier:+d}). ",
            f"Your total {mine}, the opponent's {theirs} "
            f"({' + '.join(map(str, theirs_roll.faces))}, {stat['en']} "
            f"{theirs_roll.modifier:+d}). ",
        )
        text = Text(rolled.ru + texts[winner].ru, rolled.en + texts[winner].en)
        details = {
            "winner": winner,
            "target": opponent,
            "opponent_roll": {
                "stat": choices[0],
                "faces": list(theirs_roll.faces),
                "modifier": theirs_roll.modifier,
                "total": theirs,
                "band": theirs_roll.band,
            },
        }
        flags = {
            "simultaneous": winner == "tie",
            "decisive_strike_allowed": False,
            "opponent_picks_misses": True,
        }
        out = continue_outcome(
            outcome, choices, state=state, text=text, flags=flags, details=details
        )
        order = ["opponent", "self"] if winner == "opponent" else ["self", "opponent"]
        return self._conflict_next(
            out,
            {
                **pending,
                "kind": "conflict",
                "totals": {"self": mine, "opponent": theirs},
                "order": order,
                "step": 0,
                "picked": {"self": [], "opponent": []},
            },
        )

    @staticmethod
    def _conflict_picks(total: int) -> int:
        """How many of Engage in Battle's options a total picks: 10+ two, 7-9 one."""
        return 2 if total >= 10 else 1 if total >= 7 else 0

    def _conflict_next(self, out: Outcome, pending: dict[str, Any]) -> Outcome:
        """Offer the next side its picks, or finish the conflict."""
        totals = pending["totals"]
        winner = out.details["winner"]
        for step in range(pending["step"], len(pending["order"])):
            side = pending["order"][step]
            count = self._conflict_picks(totals[side])
            if not count:
                continue
            offered = list(ENGAGE_OPTIONS)
            if winner in ("self", "opponent") and side != winner:
                # "Игрок против игрока": the loser may not contradict the winner's choices
                taken = set(pending["picked"][winner]) & CONFLICT_EXCLUSIVE
                offered = [o for o in offered if o.key not in taken]
            return offer(
                out,
                offered,
                pick=min(count, len(offered)),
                chooser=PLAYER if side == "self" else OPPONENT,
                pending={**pending, "step": step, "side": side},
            )
        return self._conflict_done(out, pending)

    def _choose_conflict(self, outcome: Outcome, choices: list[str], pending: dict) -> Outcome:
        side, s = pending["side"], pending["settings"]
        state = copy.deepcopy(outcome.state)
        details: dict[str, Any] = {}
        if "superior_tactics" in choices:
            theirs = copy.deepcopy(outcome.details.get(pending["sheet"]))
            sheet = state if side == "self" else theirs
            if sheet is not None:
                sheet["superiority"] = clamp_change(
                    sheet["superiority"], 1, s["superiority_min"], s["superiority_max"]
                )
                if side != "self":
                    details[pending["sheet"]] = sheet
        done = continue_outcome(outcome, choices, state=state, details=details)
        picked = {**pending["picked"], side: list(choices)}
        done.details["picks"] = picked
        return self._conflict_next(done, {**pending, "picked": picked, "step": pending["step"] + 1})

    def _conflict_done(self, out: Outcome, pending: dict[str, Any]) -> Outcome:
        """Damage both ways at once: a side with 7+ deals its weapon's damage (+1 AP if it
        picked it); whoever it gets through to rolls Take Damage at once."""
        s = pending["settings"]
        sheets = {"self": out.state, "opponent": out.details.get(pending["sheet"])}
        totals = pending["totals"]
        other = {"self": "opponent", "opponent": "self"}
        damage: dict[str, Any] = {}
        follow: list[dict[str, Any]] = []
        for side in ("self", "opponent"):
            attacker, victim = sheets[side], sheets[other[side]]
            if attacker is None or totals[side] < 7:
                continue
            extra = 1 if "ap_damage" in pending["picked"][side] else 0
            hit = {
                "damage": attacker["weapon_damage"] + extra,
                "ap": attacker["weapon_ap"] + extra,
            }
            if victim is None or not hit["damage"]:
                continue
            through = damage_through(
                hit["damage"],
                hit["ap"],
                armor=victim["armor"],
                shield=victim["shield"],
                other=victim["other_protection"],
                ap_ignores_shield=s["ap_ignores_shield"],
            )
            damage[other[side]] = {**hit, "through": through}
            if through > 0:
                subject = "self" if other[side] == "self" else pending["sheet"]
                follow.append(
                    {"subject": subject, "move": "take_damage", "params": {"hits": [hit]}}
                )
        done = dataclasses.replace(out, details={**out.details, "damage": damage})
        done.details.pop("pending", None)
        if follow and pending["sheet"] == "target":
            done.details["follow_moves"] = follow
        return done

    # --- sheet actions ---------------------------------------------------------------------

    def _do_mark_maim(self, call: _Call) -> Outcome:
        self._mark_maim(call.state, call.params["maim"], "maim")
        return self._outcome(call, None, state=call.state)

    def _do_heal_maim(self, call: _Call) -> Outcome:
        """A healed maim is unmarked and may be taken again («Урон персонажу: увечья»)."""
        maim = next((m for m in call.state["maims"] if m["key"] == call.params["maim"]), None)
        if maim is None:
            raise _err("maim", "Нет такого увечья.", "No such maim.")
        maim["marked"] = False
        return self._outcome(call, None, state=call.state)

    def _do_adjust_superiority(self, call: _Call) -> Outcome:
        s = call.settings
        call.state["superiority"] = clamp_change(
            call.state["superiority"],
            call.params["delta"],
            s["superiority_min"],
            s["superiority_max"],
        )
        return self._outcome(call, None, state=call.state)

    def _do_clear_unstable(self, call: _Call) -> Outcome:
        call.state["unstable"] = False
        return self._outcome(call, None, state=call.state)


RULESET = CityOfJudas()
