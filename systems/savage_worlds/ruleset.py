"""Savage Worlds rules (rulebook: «Дневник авантюриста», глава третья «Правила игры»).

``resolve(move, state, dice=..., settings=..., choices=..., **params)``:

* ``state`` is a character sheet (``SHEET``: PCs and GM characters, wild cards and extras), or
  the table state (``TABLE``: the GM's benny pool and the action deck) for moves whose
  ``subject`` is ``"table"``;
* ``settings`` is the campaign's settings dict (``SETTINGS``; missing keys take defaults);
* ``choices`` answers pending choices at once. Every Savage Worlds choice picks one option, so
  the list answers successive steps: ``["reroll", "reroll", "keep"]``;
* the rest are the move's parameters as ``describe()`` lists them.

Benny re-rolls («Фишки») are pending choices: after a trait check the roller may ``keep``,
``reroll`` (own benny) or ``reroll_pool`` (a GM character, with a benny from the GM's pool,
«Фишки ведущего») as long as bennies remain, and the best attempt is kept. The choice is offered
only when the roller can pay; otherwise the move finishes at once. ``apply_choice`` continues it.

Combat (attacks, damage, Shaken, wounds, soak, incapacitation, the action deck) is not in the
rulebook's chapter: it is marked [published edition] and follows Savage Worlds Deluxe, with the
known edition differences behind settings.
"""

from __future__ import annotations

import copy
from typing import Any

from systems.core.dice import Dice
from systems.core.outcome import Outcome, Text
from systems.core.rulekit import (
    MoveCall,
    common_params,
    describe_head,
    describe_moves,
    describe_settings,
    split_call,
)
from systems.core.ruleset import RulesError, Ruleset
from systems.core.schema import PLAYER, REFEREE, fail, validate
from systems.savage_worlds import bennies as bn
from systems.savage_worlds import deck as dk
from systems.savage_worlds import injuries as inj
from systems.savage_worlds.combat import (
    RANGE_PENALTY,
    DamageEffect,
    DamageExpr,
    apply_damage,
    bleeding_out_result,
    damage_effect,
    derived,
    fatigue_penalty,
    find_skill,
    incapacitation_result,
    parry,
    parse_damage,
    roll_damage,
    shaken_recovery,
    toughness,
    wound_penalty,
)
from systems.savage_worlds.moves import MOVES, MOVES_BY_KEY, PUBLISHED
from systems.savage_worlds.odds import as_floats, opposed_odds_exact, trait_odds_exact
from systems.savage_worlds.sheet import (
    ATTRIBUTE_KEYS,
    ATTRIBUTES,
    EDGE_RULES,
    HINDRANCE_RULES,
    KNOWN_SKILLS,
    RANGED_SKILLS,
    SETTINGS,
    SHEET,
    TABLE,
)
from systems.savage_worlds.traits import (
    BANDS,
    CRITICAL_FAILURE,
    DIFFICULTIES,
    OPPOSED_BANDS,
    RAISE,
    SUCCESS,
    TN,
    UNSKILLED_DIE,
    UNSKILLED_PENALTY,
    best_index,
    cooperative_bonus,
    helper_from_total,
    opposed_raises,
    opposed_winner,
    parse_die,
    roll_trait,
)

BAND_TEXT: dict[str, tuple[str, str]] = {
    CRITICAL_FAILURE: ("критический провал", "critical failure"),
    "failure": ("провал", "failure"),
    SUCCESS: ("успех", "success"),
    RAISE: ("успех с подъёмом", "success with a raise"),
}

# What the published edition adds, for describe() and the help page.
PUBLISHED_RULES: tuple[dict[str, str], ...] = (
    {
        "key": "action_deck",
        "ru": "Колода действий: 54 карты, джокер +2, масти ♠>♥>♦>♣",
        "en": "Action deck: 54 cards, joker +2, suits ♠>♥>♦>♣",
    },
    {
        "key": "attributes",
        "ru": "Пять характеристик; кубики d4-d12, d12+N",
        "en": "Five attributes; dice d4-d12, d12+N",
    },
    {
        "key": "derived",
        "ru": "Шаг 6, Защита 2+½Драки, Стойкость 2+½Выносливости+броня, Харизма",
        "en": "Pace 6, Parry 2+½Fighting, Toughness 2+½Vigor+armor, Charisma",
    },
    {
        "key": "attack",
        "ru": "Атака против Защиты или 4 (дистанция 0/−2/−4); подъём +к6 к урону",
        "en": "Attack against Parry or 4 (range 0/-2/-4); a raise adds +d6 damage",
    },
    {
        "key": "damage",
        "ru": "Урон ≥ Стойкости — шок; каждый подъём — ранение; шок повторно — ранение",
        "en": "Damage ≥ Toughness: Shaken; each raise a wound; Shaken again: a wound",
    },
    {
        "key": "wounds",
        "ru": "−1 за ранение (до −3), усталость −1/−2; статист выбывает с первым",
        "en": "-1 per wound (to -3), fatigue -1/-2; an extra is out at its first",
    },
    {
        "key": "soak",
        "ru": "Проверка на прочность: Выносливость, успех и подъём снимают по ранению",
        "en": "Soak: Vigor, each success and raise removes a wound",
    },
    {
        "key": "shaken",
        "ru": "Выход из шока: Характер; фишка снимает шок в любой момент",
        "en": "Recovering from Shaken: Spirit; a benny removes it at any time",
    },
    {
        "key": "incapacitation",
        "ru": "Больше 3 ранений: проверка Выносливости, кровотечение",
        "en": "More than 3 wounds: Vigor roll, bleeding out",
    },
    {
        "key": "injury_table",
        "ru": "Таблица травм (2d6, к6): после проверки выведения из строя; срок по её итогу",
        "en": "Injury Table (2d6, d6): after the incapacitation roll; how long by its result",
    },
    {
        "key": "extras",
        "ru": "Персонаж ведущего — статист, пока ведущий не отметит его дикой картой",
        "en": "A GM character is an extra unless the GM marks it a wild card",
    },
)

_Call = MoveCall

_err = fail  # the rules' error: a field path and ru/en text


def _text(ru: str, en: str) -> Text:
    return Text(ru, en)


class SavageWorlds(Ruleset):
    """Trait checks, opposed, cooperative and group checks, bennies (rulebook), and combat
    [published edition]."""

    key = "savage_worlds"
    name_ru = "Savage Worlds (Дневник авантюриста)"
    name_en = "Savage Worlds"
    initiative_tracker = False  # initiative is dealt from the action deck (колода действий)

    # --- description and validation ------------------------------------------------------

    def describe(self) -> dict[str, Any]:
        """Everything a form or help page needs, built from the specs the rules use."""
        return {
            **describe_head(self),
            "edition": {
                "source": "Дневник авантюриста (Savage Worlds Deluxe / Explorer's, pre-SWADE)",
                "published": PUBLISHED,
                "published_rules": list(PUBLISHED_RULES),
            },
            "bands": list(BANDS),
            "opposed_bands": list(OPPOSED_BANDS),
            "tn": TN,
            "difficulties": DIFFICULTIES,
            "attributes": [c.as_dict() for c in ATTRIBUTES],
            "skills": [
                {"key": k, "ru": ru, "en": en, "attribute": a} for k, ru, en, a in KNOWN_SKILLS
            ],
            "edge_rules": [c.as_dict() for c in EDGE_RULES],
            "hindrance_rules": [c.as_dict() for c in HINDRANCE_RULES],
            "ranges": RANGE_PENALTY,
            "injury_table": {
                "dice": "2d6",
                "locations": [c.as_dict() for c in inj.LOCATIONS],
                "results": [
                    {
                        "key": i.key,
                        "ru": i.ru,
                        "en": i.en,
                        "effect_ru": i.effect_ru,
                        "effect_en": i.effect_en,
                    }
                    for i in inj.INJURIES.values()
                ],
                "durations": [c.as_dict() for c in inj.DURATIONS],
            },
            "cards": [{"code": c, **dk.card_label(c)} for c in dk.full_deck()],
            "sheet": SHEET.describe(),
            "table": TABLE.describe(),
            **describe_settings(SETTINGS),
            **describe_moves(MOVES),
            **common_params(
                "Сразу ответить на выборы хода, по одному на шаг",
                "Answer the move's choices at once, one per step",
            ),
        }

    def default_state(self) -> dict[str, Any]:
        return self.validate_state(SHEET.default_value())

    def default_npc(self) -> dict[str, Any]:
        """A GM character starts as an extra (статист, «Дикие карты и статисты»): no wild die, no
        bennies of its own; the referee marks the villains and named allies wild cards."""
        state = SHEET.default_value()
        state.update(role="npc", wild_card=False)
        return self.validate_state(state)

    def validate_pc(self, state: dict[str, Any]) -> dict[str, Any]:
        """Clean a player's character sheet: always the player's (and so a wild card, «Дикие карты и
        статисты»)."""
        if isinstance(state, dict):
            state = {**state, "role": "pc"}
        return self.validate_state(state)

    def validate_npc(self, state: dict[str, Any]) -> dict[str, Any]:
        """Clean a GM character's sheet: the record's kind decides the role, so a sheet copied
        from a player character's template still counts as the GM's («Фишки ведущего»)."""
        if isinstance(state, dict):
            state = {**state, "role": "npc"}
        return self.validate_state(state)

    def default_table(self) -> dict[str, Any]:
        table = TABLE.default_value()
        table["deck"] = dk.new_deck()
        return self.validate_table(table)

    def validate_state(self, state: dict[str, Any]) -> dict[str, Any]:
        """Clean a sheet: a PC is always a wild card («Дикие карты и статисты»); skill names must
        not repeat."""
        clean = validate(SHEET, state)
        if clean["role"] == "pc" and not clean["wild_card"]:
            raise _err(
                "wild_card",
                "Персонаж игрока всегда дикая карта.",
                "A player character is always a wild card.",
            )
        if not clean["wild_card"]:
            # An extra keeps no bennies («Фишки ведущего»: the GM's pool pays for it); a wild card
            # demoted to an extra loses the ones it held.
            clean["bennies"] = 0
        seen: set[str] = set()
        for i, skill in enumerate(clean["skills"]):
            for name in {skill["name"].casefold(), skill["key"].casefold()} - {""}:
                if name in seen or name in ATTRIBUTE_KEYS:
                    raise _err(
                        f"skills.{i}.name",
                        "Навык с таким названием уже есть.",
                        "A skill with this name exists already.",
                    )
                seen.add(name)
        return clean

    def validate_table(self, table: dict[str, Any]) -> dict[str, Any]:
        """Clean the table state; the deck must hold each of the 54 cards exactly once."""
        clean = validate(TABLE, table)
        problems = dk.check_deck(clean["deck"])
        if problems:
            raise _err("deck", "Колода испорчена: " + "; ".join(problems), "; ".join(problems))
        return clean

    def clean_settings(self, settings: dict[str, Any] | None = None) -> dict[str, Any]:
        return validate(SETTINGS, settings or {}, path="settings")

    def derived(self, state: dict[str, Any], settings: dict[str, Any] | None = None) -> dict:
        """Pace, Parry, Toughness, Charisma and current penalties [published edition]."""
        s = self.clean_settings(settings)
        return derived(self.validate_state(state), wounds_reduce_pace=s["wounds_reduce_pace"])

    def display_name(self, state: dict[str, Any], settings: dict[str, Any] | None = None) -> str:
        """A wild card's name carries the setting's glyph in front («Дикие карты и статисты»)."""
        s = self.clean_settings(settings)
        st = self.validate_state(state)
        return (s["wild_card_glyph"] + st["name"]) if st["wild_card"] else st["name"]

    # --- entry points ----------------------------------------------------------------------

    def resolve(self, move: str, state: dict[str, Any], *, dice: Dice, **params: Any) -> Outcome:
        choices = params.get("choices")
        call = self._call(move, state, dice, params)
        outcome = getattr(self, f"_do_{move}")(call)
        for choice in list(choices or []):
            if not outcome.pending:
                raise _err("choices", "Лишний выбор: ход уже завершён.", "Extra choice: done.")
            outcome = self.apply_choice(outcome, [choice], dice=dice)
        return outcome

    def apply_choice(
        self, outcome: Outcome, choices: list[str], *, dice: Dice | None = None
    ) -> Outcome:
        """Finish one pending step: keep / reroll / reroll_pool, or accept / soak / soak_pool."""
        pending = outcome.details.get("pending")
        if not outcome.pending or not pending:
            return super().apply_choice(outcome, choices, dice=dice)
        if not isinstance(choices, list) or len(choices) != 1:
            raise _err("choices", "Выберите один вариант.", "Choose exactly one option.")
        choice = choices[0]
        if choice not in {o.key for o in outcome.options}:
            raise _err(
                "choices",
                f"Такого варианта сейчас нет: {choice}.",
                f"Not an offered option now: {choice}.",
            )
        flow = copy.deepcopy(pending)
        flow["state"] = copy.deepcopy(outcome.state)
        if flow["kind"] == "soak":
            return self._choose_soak(flow, choice, dice)
        if choice == "keep":
            return self._then(flow, dice)
        self._pay(flow, choice == "reroll_pool")
        flow["attempts"].append(self._roll(self._need_dice(dice), flow["roll"]))
        return self._step(flow, dice)

    def odds(self, move: str, state: dict[str, Any], **params: Any) -> dict[str, float]:
        """Exact band chances of the move's roll; ``{}`` when it does not roll or depends on
        rolls not yet made (helpers rolling in a cooperative check)."""
        exact = self.odds_exact(move, state, **params)
        return as_floats(exact)

    def odds_exact(self, move: str, state: dict[str, Any], **params: Any) -> dict:
        """``odds`` as ``Fraction`` values (tests check they sum to exactly 1)."""
        call = self._call(move, state, None, params)
        p = call.params
        if move in (
            "trait_check",
            "group_check",
            "recover_shaken",
            "incapacitation_roll",
            "bleeding_out",
            "attack",
        ):
            if move == "trait_check" and p["no_chance"]:
                return {}
            spec = self._single_spec(call)
            return self._spec_odds(spec)
        if move == "cooperative_check":
            if p["helpers"]:
                return {}
            bonus, _ = self._helper_bonus_from_totals(call)
            return self._spec_odds(self._leader_spec(call, bonus))
        if move == "opposed_check":
            return self._opposed_odds(call)
        return {}

    # --- plumbing --------------------------------------------------------------------------

    def _call(self, move: str, state: dict[str, Any], dice: Dice | None, params: dict) -> _Call:
        """Validate everything once: settings, state (a private deep copy) and parameters."""
        spec, settings, params = split_call(
            move, params, clean_settings=self.clean_settings, moves_by_key=MOVES_BY_KEY
        )
        if spec.subject == "table":
            clean = self.validate_table(state)
        else:
            clean = self.validate_state(state)
        clean_params = validate(spec.params, params)
        return _Call(spec, clean, clean_params, dice, settings)

    @staticmethod
    def _need_dice(dice: Dice | None) -> Dice:
        if dice is None:
            raise _err("dice", "Для этого нужны кубики.", "This needs dice.")
        return dice

    def _sheet(self, data: dict[str, Any] | None, path: str) -> dict[str, Any]:
        if data is None:
            raise _err(path, "Нужен лист персонажа.", "A character sheet is needed.")
        try:
            return self.validate_state(data)
        except RulesError as exc:
            raise RulesError({f"{path}.{k}": v for k, v in exc.errors.items()}) from exc

    # --- trait rolls -----------------------------------------------------------------------

    def _resolve_trait(self, state: dict[str, Any], trait: str, die: str) -> dict[str, Any]:
        """Which die a trait rolls: an attribute, a skill on the sheet, or an unskilled d4-2
        («Неумелые попытки»). ``die`` overrides the sheet's die (quick NPC rolls, "Strength d6")."""
        name = trait.strip()
        folded = name.casefold()
        if not name and not die:
            raise _err("trait", "Укажите характеристику или навык.", "Name an attribute or skill.")
        known = next(
            (k for k in KNOWN_SKILLS if folded in (k[0], k[1].casefold(), k[2].casefold())), None
        )
        attr = next(
            (a for a in ATTRIBUTES if folded in (a.key, a.ru.casefold(), a.en.casefold())), None
        )
        skill = find_skill(state, name) if name and attr is None else None
        if attr is not None:
            out = {"label": attr.ru, "label_en": attr.en, "key": attr.key, "attribute": True}
            sheet_die = state["attributes"][attr.key]
        elif skill is not None:
            key = skill["key"].casefold() or (known[0] if known else skill["name"].casefold())
            out = {
                "label": skill["name"],
                "label_en": skill["name"],
                "key": key,
                "attribute": False,
            }
            sheet_die = skill["die"]
        else:
            out = {
                "label": known[1] if known else name,
                "label_en": known[2] if known else name,
                "key": known[0] if known else folded,
                "attribute": False,
            }
            sheet_die = None
        if die:
            try:
                d = parse_die(die)
            except ValueError as exc:
                raise _err("die", "Кубик: d4..d12, d12+N.", "Die: d4..d12, d12+N.") from exc
            if not name:
                out.update(label=d.label, label_en=d.label)
            return {**out, "sides": d.sides, "bonus": d.bonus, "unskilled": False}
        if sheet_die is None:
            return {**out, "sides": UNSKILLED_DIE, "bonus": 0, "unskilled": True}
        d = parse_die(sheet_die)
        return {**out, "sides": d.sides, "bonus": d.bonus, "unskilled": False}

    def _trait_spec(
        self,
        state: dict[str, Any],
        *,
        trait: str,
        die: str = "",
        difficulty: str = "normal",
        modifier: int = 0,
        joker: bool = False,
        tn: int = TN,
        extra: dict[str, int] | None = None,
        crit_possible: bool = True,
        wild: bool | None = None,
    ) -> dict[str, Any]:
        """A trait roll's recipe: die, wild die, TN and named modifier parts («Проверки параметров»;
        «Взрывной бросок»; «Подъёмы»; «Неумелые попытки»)."""
        t = self._resolve_trait(state, trait, die)
        parts = {
            "difficulty": DIFFICULTIES[difficulty],
            "modifier": modifier,
            "unskilled": UNSKILLED_PENALTY if t["unskilled"] else 0,
            "die_bonus": t["bonus"],
            "wounds": wound_penalty(state["wounds"]),  # [published edition]
            "fatigue": fatigue_penalty(state["fatigue"]),  # [published edition]
            "joker": dk.JOKER_BONUS if joker else 0,  # [published edition]
            **(extra or {}),
        }
        parts = {k: v for k, v in parts.items() if v}
        return {
            "kind": "trait",
            "trait": t,
            "sides": t["sides"],
            "wild": state["wild_card"] if wild is None else wild,
            "tn": tn,
            "modifier": sum(parts.values()),
            "parts": parts,
            "crit_possible": crit_possible,
        }

    @staticmethod
    def _roll(dice: Dice, spec: dict[str, Any]) -> dict[str, Any]:
        if spec["kind"] == "damage":
            expr = DamageExpr(tuple(spec["dice"]), spec["constant"], spec["text"])
            return roll_damage(dice, expr, raise_die=spec["raise_die"], modifier=spec["modifier"])
        return roll_trait(
            dice,
            spec["sides"],
            wild=spec["wild"],
            modifier=spec["modifier"],
            tn=spec["tn"],
            crit_possible=spec["crit_possible"],
        ).as_dict()

    @staticmethod
    def _spec_odds(spec: dict[str, Any]) -> dict:
        return trait_odds_exact(
            spec["sides"],
            wild=spec["wild"],
            modifier=spec["modifier"],
            tn=spec["tn"],
            crit_possible=spec["crit_possible"],
        )

    # --- the re-roll flow («Фишки») ----------------------------------------------------------

    def _flow(
        self,
        call: _Call,
        roll: dict[str, Any],
        *,
        then: str,
        context: dict[str, Any] | None = None,
        roller: str = "self",
        others: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        return {
            "kind": "reroll",
            "move": call.spec.key,
            "params": copy.deepcopy(call.params),
            "settings": copy.deepcopy(call.settings),
            "state": call.state,
            "roller": roller,
            "others": others or {},
            "roll": roll,
            "attempts": [],
            "pool": call.params.get("pool", 0),
            "spent": {"own": 0, "pool": 0},
            "then": then,
            "context": context or {},
            "log": {},
        }

    @staticmethod
    def _roller(flow: dict[str, Any]) -> dict[str, Any]:
        return flow["state"] if flow["roller"] == "self" else flow["others"][flow["roller"]]

    def _reroll_options(self, flow: dict[str, Any]) -> list[str]:
        """Who can pay for another roll: the roller's own bennies, or the GM's pool for a GM
        character («Фишки ведущего»). Damage only with No Mercy («Фишки»); SWADE forbids re-rolling
        a critical failure (our reading)."""
        sheet = self._roller(flow)
        settings = flow["settings"]
        last = flow["attempts"][-1]
        if flow["roll"]["kind"] == "damage":
            if bn.refusal("damage_reroll", sheet, damage_bennies=settings["damage_bennies"]):
                return []
        elif last["critical_failure"] and not settings["reroll_critical_failure"]:
            return []
        keys = []
        if sheet["bennies"] > 0:
            keys.append("reroll")
        if sheet["role"] == "npc" and flow["pool"] > 0:
            keys.append("reroll_pool")
        return keys

    def _pay(self, flow: dict[str, Any], from_pool: bool) -> None:
        """Spend one benny for a re-roll (the flow is a private copy)."""
        if from_pool:
            flow["pool"] -= 1
            flow["spent"]["pool"] += 1
        else:
            self._roller(flow)["bennies"] -= 1
            flow["spent"]["own"] += 1

    def _step(self, flow: dict[str, Any], dice: Dice | None) -> Outcome:
        """Offer a re-roll if someone can pay, else carry on with the best attempt."""
        keys = self._reroll_options(flow)
        if not keys:
            return self._then(flow, dice)
        spec = MOVES_BY_KEY[flow["move"]].options["reroll"]
        best = flow["attempts"][best_index(flow["attempts"])]
        sheet = self._roller(flow)
        ru, en = ("", "")
        if flow["move"] == "opposed_check":
            ru, en = (
                ("Нападающий: ", "Attacker: ")
                if flow["roller"] == "self"
                else ("Защищающийся: ", "Defender: ")
            )
        text = _text(
            f"{ru}результат {best['total']}. Перебросить за фишку?",
            f"{en}result {best['total']}. Re-roll for a benny?",
        )
        out = Outcome(
            move=flow["move"],
            total=best["total"],
            band=best.get("band"),
            faces=_faces(best),
            modifier=flow["roll"]["modifier"],
            options=[o for o in spec.options if o.key in ("keep", *keys)],
            pick=1,
            chooser=PLAYER if sheet["role"] == "pc" else REFEREE,
            state=flow["state"],
            text=text,
            flags={"roller": flow["roller"]},
            details={**self._roll_details(flow), **flow["log"]},
        )
        pending = {k: v for k, v in flow.items() if k != "state"}
        out.details["pending"] = copy.deepcopy(pending)
        return out

    def _then(self, flow: dict[str, Any], dice: Dice | None) -> Outcome:
        best = flow["attempts"][best_index(flow["attempts"])]
        return getattr(self, f"_then_{flow['then']}")(flow, best, dice)

    @staticmethod
    def _roll_details(flow: dict[str, Any]) -> dict[str, Any]:
        return {
            "roll": copy.deepcopy(flow["roll"]),
            "attempts": copy.deepcopy(flow["attempts"]),
            "kept": best_index(flow["attempts"]),
            "bennies_spent": flow["spent"]["own"],
            "pool_spent": flow["spent"]["pool"],
            "pool": flow["pool"],
        }

    def _final(
        self,
        flow: dict[str, Any],
        best: dict[str, Any] | None,
        *,
        text: Text,
        band: str | None = None,
        total: int | None = None,
        flags: dict[str, Any] | None = None,
        details: dict[str, Any] | None = None,
        state: dict[str, Any] | None = None,
    ) -> Outcome:
        all_details = {**self._roll_details(flow), **flow["log"], **(details or {})}
        return Outcome(
            move=flow["move"],
            total=total if total is not None else (best["total"] if best else None),
            band=band if band is not None else (best.get("band") if best else None),
            faces=_faces(best) if best else [],
            modifier=flow["roll"]["modifier"],
            state=flow["state"] if state is None else state,
            text=text,
            flags=dict(flags or {}),
            details=all_details,
        )

    def _trait_final(
        self, flow: dict[str, Any], best: dict[str, Any], *, extra_text: tuple[str, str] = ("", "")
    ) -> Outcome:
        label, label_en = flow["roll"]["trait"]["label"], flow["roll"]["trait"]["label_en"]
        ru, en = BAND_TEXT[best["band"]]
        raises = best["raises"]
        text = _text(
            f"{label}: {best['total']} — {ru}"
            + (f", подъёмов: {raises}" if raises else "")
            + (". Неумелая попытка" if flow["roll"]["trait"]["unskilled"] else "")
            + "."
            + extra_text[0],
            f"{label_en}: {best['total']} — {en}"
            + (f", raises: {raises}" if raises else "")
            + (". Unskilled" if flow["roll"]["trait"]["unskilled"] else "")
            + "."
            + extra_text[1],
        )
        return self._final(
            flow,
            best,
            text=text,
            flags=_trait_flags(flow, best),
            details={"raises": raises, "tn": best["tn"]},
        )

    # --- rulebook moves --------------------------------------------------------------------------

    def _single_spec(self, call: _Call) -> dict[str, Any]:
        """The one trait roll of a simple move (shared by ``_do_*`` and ``odds``)."""
        p, st, move = call.params, call.state, call.spec.key
        if move in ("trait_check", "group_check"):
            crit = True
            if move == "group_check":
                crit = call.settings["group_check_crit"]
            return self._trait_spec(
                st,
                trait=p["trait"],
                die=p["die"],
                difficulty=p["difficulty"],
                modifier=p["modifier"],
                joker=p["joker"],
                tn=p["tn"],
                crit_possible=crit,
                wild=True if move == "group_check" else None,
            )
        if move == "recover_shaken":
            return self._trait_spec(st, trait="spirit", modifier=p["modifier"], joker=p["joker"])
        if move in ("incapacitation_roll", "bleeding_out"):
            return self._trait_spec(st, trait="vigor", modifier=p["modifier"])
        assert move == "attack"
        return self._attack_setup(call)[0]

    def _do_trait_check(self, call: _Call) -> Outcome:
        """Проверка параметра («Проверки параметров»; «Взрывной бросок»; «Подъёмы»; «Неумелые
        попытки»; «Дикий кубик»); benny re-rolls keep the best («Фишки»)."""
        if call.params["no_chance"]:
            # «Неумелые попытки»: the GM may rule there is no chance without training: no roll at
            # all.
            return Outcome(
                move="trait_check",
                band="failure",
                state=call.state,
                text=_text(
                    "Без обучения шансов нет: провал без броска.",
                    "No chance without training: failure, no roll.",
                ),
                flags={"success": False, "no_chance": True, "raises": 0},
            )
        flow = self._flow(call, self._single_spec(call), then="trait")
        flow["attempts"].append(self._roll(self._need_dice(call.dice), flow["roll"]))
        return self._step(flow, call.dice)

    def _then_trait(self, flow, best, dice) -> Outcome:
        return self._trait_final(flow, best)

    def _do_group_check(self, call: _Call) -> Outcome:
        """Групповая проверка («Групповые проверки»): extras outside combat roll the trait die and a
        wild die once for the whole group; the GM may pay a pool benny for it («Фишки ведущего»)."""
        if call.params["in_combat"]:
            raise _err(
                "in_combat",
                "Групповая проверка — только вне боя.",
                "Group checks are for outside combat only.",
            )
        if call.state["wild_card"]:
            raise _err(
                "wild_card",
                "Групповая проверка — для статистов.",
                "Group checks are for extras.",
            )
        flow = self._flow(call, self._single_spec(call), then="group")
        flow["log"]["count"] = call.params["count"]
        flow["attempts"].append(self._roll(self._need_dice(call.dice), flow["roll"]))
        return self._step(flow, call.dice)

    def _then_group(self, flow, best, dice) -> Outcome:
        count = flow["log"]["count"]
        out = self._trait_final(
            flow,
            best,
            extra_text=(f" Для всей группы ({count}).", f" For the whole group ({count})."),
        )
        out.flags["group"] = True
        return out

    def _helper_bonus_from_totals(self, call: _Call) -> tuple[int, list[dict[str, Any]]]:
        helpers = [helper_from_total(t, TN) for t in call.params["helper_totals"]]
        return self._bonus(call, helpers, [{"total": t} for t in call.params["helper_totals"]])

    def _bonus(
        self, call: _Call, helpers: list[tuple[bool, int]], rows: list[dict[str, Any]]
    ) -> tuple[int, list[dict[str, Any]]]:
        trait = self._resolve_trait(call.state, call.params["trait"], call.params["die"])
        strength = trait["key"] == "strength"
        bonus, shares = cooperative_bonus(
            helpers, strength=strength, cap=call.settings["cooperative_cap"]
        )
        for row, share, (ok, raises) in zip(rows, shares, helpers, strict=True):
            row.update(success=ok, raises=raises, bonus=share)
        return bonus, rows

    def _leader_spec(self, call: _Call, bonus: int) -> dict[str, Any]:
        p = call.params
        return self._trait_spec(
            call.state,
            trait=p["trait"],
            die=p["die"],
            difficulty=p["difficulty"],
            modifier=p["modifier"],
            joker=p["joker"],
            tn=p["tn"],
            extra={"cooperation": bonus},
        )

    def _do_cooperative_check(self, call: _Call) -> Outcome:
        """Совместная проверка («Совместные проверки»): helpers roll the same skill first (our
        reading); each success and raise is +1 to the leader, at most +4 except on Strength
        («Совместные проверки»). A helper without the skill cannot help («Совместные проверки»)."""
        p = call.params
        dice = self._need_dice(call.dice)
        bonus, rows = self._helper_bonus_from_totals(call)
        helpers: list[tuple[bool, int]] = [(r["success"], r["raises"]) for r in rows]
        mods = p["helper_modifiers"]
        if mods and len(mods) != len(p["helpers"]):
            raise _err(
                "helper_modifiers",
                "По одному модификатору на помощника.",
                "One modifier per helper.",
            )
        leader_trait = self._resolve_trait(call.state, p["trait"], p["die"])
        for i, raw in enumerate(p["helpers"]):
            sheet = self._sheet(raw, f"helpers.{i}")
            spec = self._trait_spec(
                sheet,
                trait=p["trait"],
                die="",
                modifier=mods[i] if mods else 0,
            )
            if spec["trait"]["unskilled"] and not leader_trait["attribute"]:
                raise _err(
                    f"helpers.{i}",
                    f"{sheet['name'] or 'Помощник'} без навыка не может помогать.",
                    f"{sheet['name'] or 'A helper'} lacks the skill and cannot help.",
                )
            attempt = self._roll(dice, spec)
            helpers.append((attempt["success"], attempt["raises"]))
            rows.append({"name": sheet["name"], "attempt": attempt, "total": attempt["total"]})
        bonus, rows = self._bonus(call, helpers, rows)
        flow = self._flow(call, self._leader_spec(call, bonus), then="trait")
        flow["log"].update(helpers=rows, cooperation_bonus=bonus)
        flow["attempts"].append(self._roll(dice, flow["roll"]))
        return self._step(flow, dice)

    def _opposed_specs(self, call: _Call) -> tuple[dict[str, Any], dict[str, Any] | None, dict]:
        p = call.params
        attacker = self._trait_spec(
            call.state,
            trait=p["trait"],
            die=p["die"],
            difficulty=p["difficulty"],
            modifier=p["modifier"],
            joker=p["joker"],
        )
        if p["defender_total"] is not None:
            return attacker, None, {}
        defender = self._sheet(p["defender"], "defender")
        spec = self._trait_spec(
            defender,
            trait=p["defender_trait"] or p["trait"],
            die=p["defender_die"],
            difficulty=p["defender_difficulty"],
            modifier=p["defender_modifier"],
            joker=p["defender_joker"],
        )
        return attacker, spec, defender

    def _do_opposed_check(self, call: _Call) -> Outcome:
        """Встречная проверка («Встречные проверки»): the attacker rolls and spends bennies first;
        once the attacker keeps the result it is locked («Встречные проверки») and the
        defender rolls."""
        attacker, defender_spec, defender = self._opposed_specs(call)
        flow = self._flow(
            call,
            attacker,
            then="opposed_attacker",
            context={"defender_spec": defender_spec},
            others={"defender": defender} if defender else {},
        )
        flow["attempts"].append(self._roll(self._need_dice(call.dice), attacker))
        return self._step(flow, call.dice)

    def _then_opposed_attacker(self, flow, best, dice) -> Outcome:
        flow["log"]["attacker"] = {
            "attempts": copy.deepcopy(flow["attempts"]),
            "kept": best_index(flow["attempts"]),
            "total": best["total"],
            "critical_failure": best["critical_failure"],
            "bennies_spent": flow["spent"]["own"],
            "pool_spent": flow["spent"]["pool"],
            "locked": True,
        }
        spec = flow["context"]["defender_spec"]
        if spec is None:
            total = flow["params"]["defender_total"]
            return self._opposed_result(
                flow, best, {"total": total, "critical_failure": False, "given": True}
            )
        flow.update(
            roller="defender",
            roll=spec,
            attempts=[self._roll(self._need_dice(dice), spec)],
            spent={"own": 0, "pool": 0},
            then="opposed_defender",
        )
        return self._step(flow, dice)

    def _then_opposed_defender(self, flow, best, dice) -> Outcome:
        defender = {
            "attempts": copy.deepcopy(flow["attempts"]),
            "kept": best_index(flow["attempts"]),
            "total": best["total"],
            "critical_failure": best["critical_failure"],
            "bennies_spent": flow["spent"]["own"],
            "pool_spent": flow["spent"]["pool"],
        }
        return self._opposed_result(flow, None, defender)

    def _opposed_result(
        self, flow: dict[str, Any], _best: dict[str, Any] | None, defender: dict[str, Any]
    ) -> Outcome:
        """«Встречные проверки»: higher total wins, a tie goes on; the winner's raises use the
        loser's total."""
        settings = flow["settings"]
        attacker = flow["log"]["attacker"]
        winner = opposed_winner(
            attacker["total"],
            defender["total"],
            attacker_critical=attacker["critical_failure"],
            defender_critical=defender["critical_failure"],
            attacker_needs_tn=settings["opposed_needs_tn"],
        )
        floor = TN if settings["opposed_raise_floor"] else None
        if winner == "attacker":
            raises = opposed_raises(attacker["total"], defender["total"], floor_tn=floor)
        elif winner == "defender":
            raises = opposed_raises(defender["total"], attacker["total"], floor_tn=floor)
        else:
            raises = 0
        sheet = flow["others"].get("defender")
        details = {"attacker": attacker, "defender": defender, "winner": winner, "raises": raises}
        if sheet is not None:
            details["defender_state"] = sheet
        spec = MOVES_BY_KEY["opposed_check"]
        base = spec.results[winner]
        text = _text(
            f"{attacker['total']} против {defender['total']}. {base.ru}"
            + (f" Подъёмов: {raises}." if raises else ""),
            f"{attacker['total']} vs {defender['total']}. {base.en}"
            + (f" Raises: {raises}." if raises else ""),
        )
        kept = attacker["attempts"][attacker["kept"]]
        out = self._final(
            flow,
            kept,
            text=text,
            band=winner,
            total=attacker["total"],
            flags={
                "winner": None if winner == "stalemate" else winner,
                "raises": raises,
                "continues": winner == "stalemate",
            },
            details=details,
        )
        out.modifier = kept["modifier"]
        return out

    # --- combat [published edition] -----------------------------------------------------------

    def _attack_setup(self, call: _Call) -> tuple[dict[str, Any], dict[str, Any]]:
        """[published edition] Fighting against Parry; Shooting/Throwing against 4 with range
        penalties 0/-2/-4; joker +2 to the attack and the damage."""
        p, st = call.params, call.state
        weapon = None
        if p["weapon"]:
            weapon = next(
                (w for w in st["weapons"] if w["name"].casefold() == p["weapon"].casefold()), None
            )
            if weapon is None:
                raise _err("weapon", "Нет такого оружия на листе.", "No such weapon on the sheet.")
        trait = p["trait"] or (weapon["skill"] if weapon else "fighting")
        t = self._resolve_trait(st, trait, p["die"])
        ranged = t["key"] in RANGED_SKILLS or t["label"].casefold() in RANGED_SKILLS
        target = self._sheet(p["target"], "target") if p["target"] is not None else None
        extra: dict[str, int] = {}
        if ranged:
            tn = TN
            extra["range"] = RANGE_PENALTY[p["range"]]
        elif p["target_parry"] is not None:
            tn = p["target_parry"]
        elif target is not None:
            tn = parry(target)
        else:
            raise _err(
                "target",
                "Для рукопашной нужна Защита цели или её лист.",
                "A melee attack needs the target's Parry or sheet.",
            )
        damage_text = p["damage"] or (weapon["damage"] if weapon else ("" if ranged else "str"))
        if not damage_text:
            raise _err("damage", "Укажите урон оружия.", "Give the weapon's damage.")
        try:
            expr = parse_damage(damage_text, st)
        except ValueError as exc:
            raise _err("damage", "Урон: Сила+к6, 2d6+1.", "Damage: str+d6, 2d6+1.") from exc
        spec = self._trait_spec(
            st,
            trait=trait,
            die=p["die"],
            difficulty=p["difficulty"],
            modifier=p["modifier"],
            joker=p["joker"],
            tn=tn,
            extra=extra,
        )
        context = {
            "damage": {
                "kind": "damage",
                "text": damage_text,
                "dice": list(expr.dice),
                "constant": expr.constant,
                "modifier": p["damage_modifier"] + (dk.JOKER_BONUS if p["joker"] else 0),
                "raise_die": False,
            },
            "ap": p["ap"] or (weapon["ap"] if weapon else 0),
            "target": target,
            "ranged": ranged,
        }
        return spec, context

    def _do_attack(self, call: _Call) -> Outcome:
        """[published edition] Атака: the hit is a trait check (re-rollable with bennies); a hit
        rolls damage with +d6 on a raise; the target's Toughness gives a preview, and the target
        takes it with ``take_damage`` (where it may soak)."""
        st = call.state
        if st["status"] != "active":
            raise _err("status", "Персонаж выведен из строя.", "The character is out of action.")
        if st["shaken"]:
            raise _err(
                "shaken",
                "В шоке доступны только свободные действия.",
                "A Shaken character takes free actions only.",
            )
        spec, context = self._attack_setup(call)
        flow = self._flow(call, spec, then="attack", context=context)
        flow["attempts"].append(self._roll(self._need_dice(call.dice), spec))
        return self._step(flow, call.dice)

    def _then_attack(self, flow, best, dice) -> Outcome:
        hit = {k: copy.deepcopy(v) for k, v in self._roll_details(flow).items()}
        hit.update(total=best["total"], band=best["band"], raises=best["raises"], tn=best["tn"])
        flow["log"]["attack"] = hit
        if not best["success"]:
            return self._trait_final(flow, best)
        damage = copy.deepcopy(flow["context"]["damage"])
        damage["raise_die"] = best["raises"] > 0
        flow.update(
            roll=damage,
            attempts=[self._roll(self._need_dice(dice), damage)],
            spent={"own": 0, "pool": 0},
            then="attack_damage",
        )
        return self._step(flow, dice)

    def _then_attack_damage(self, flow, best, dice) -> Outcome:
        attack = flow["log"]["attack"]
        details: dict[str, Any] = {
            "damage": best["total"],
            "damage_roll": best,
            "ap": flow["context"]["ap"],
        }
        target = flow["context"]["target"]
        if target is not None:
            effect = damage_effect(
                best["total"],
                toughness(target, ap=flow["context"]["ap"]),
                already_shaken=target["shaken"],
            )
            details["target_effect"] = effect.as_dict()
        raises = attack["raises"]
        text = _text(
            f"Попадание ({attack['total']}"
            + (f", подъёмов: {raises}" if raises else "")
            + f"). Урон: {best['total']}.",
            f"Hit ({attack['total']}"
            + (f", raises: {raises}" if raises else "")
            + f"). Damage: {best['total']}.",
        )
        kept = attack["attempts"][attack["kept"]]
        out = self._final(
            flow,
            kept,
            text=text,
            band=attack["band"],
            total=attack["total"],
            flags={"hit": True, "raises": raises, "success": True, "critical_failure": False},
            details=details,
        )
        out.modifier = kept["modifier"]
        out.details["roll"] = attack["roll"]
        out.details["attempts"] = attack["attempts"]
        out.details["kept"] = attack["kept"]
        out.details["damage_attempts"] = copy.deepcopy(flow["attempts"])
        out.details["damage_bennies_spent"] = flow["spent"]["own"]
        out.details["bennies_spent"] = attack["bennies_spent"] + flow["spent"]["own"]
        out.details["pool_spent"] = attack["pool_spent"] + flow["spent"]["pool"]
        return out

    def _do_damage_roll(self, call: _Call) -> Outcome:
        """Проверка урона («Взрывной бросок»; «Фишки»): every die aces; no wild die; bennies only
        with No Mercy (or the SWADE setting)."""
        p = call.params
        try:
            expr = parse_damage(p["damage"], call.state)
        except ValueError as exc:
            raise _err("damage", "Урон: Сила+к6, 2d6+1.", "Damage: str+d6, 2d6+1.") from exc
        spec = {
            "kind": "damage",
            "text": p["damage"],
            "dice": list(expr.dice),
            "constant": expr.constant,
            "modifier": p["modifier"] + (dk.JOKER_BONUS if p["joker"] else 0),
            "raise_die": p["raise_die"],
        }
        flow = self._flow(call, spec, then="damage")
        flow["attempts"].append(self._roll(self._need_dice(call.dice), spec))
        return self._step(flow, call.dice)

    def _then_damage(self, flow, best, dice) -> Outcome:
        return self._final(
            flow,
            best,
            text=_text(f"Урон: {best['total']}.", f"Damage: {best['total']}."),
            details={"damage": best["total"]},
        )

    def _do_take_damage(self, call: _Call) -> Outcome:
        """[published edition] Damage against Toughness (AP lowers armor): Shaken, wounds, or
        incapacitation. If the hit wounds and a benny is at hand, a soak roll may come first
        («Фишки»): Vigor, each success and raise cancels a wound."""
        st, p = call.state, call.params
        if st["status"] == "dead":
            raise _err("status", "Персонаж погиб.", "The character is dead.")
        effect = damage_effect(p["damage"], toughness(st, ap=p["ap"]), already_shaken=st["shaken"])
        flow = self._flow(call, {"kind": "none", "modifier": 0}, then="soak")
        flow["kind"] = "soak"
        flow["context"] = {"effect": effect.as_dict()}
        keys = []
        if effect.wounds:
            if st["bennies"] > 0:
                keys.append("soak")
            if st["role"] == "npc" and flow["pool"] > 0:
                keys.append("soak_pool")
        if not keys:
            return self._damage_final(flow, soaked=0)
        spec = MOVES_BY_KEY["take_damage"].options["soak"]
        out = Outcome(
            move="take_damage",
            total=p["damage"],
            band=None,
            options=[o for o in spec.options if o.key in ("accept", *keys)],
            pick=1,
            chooser=PLAYER if st["role"] == "pc" else REFEREE,
            state=st,
            text=_text(
                f"Урон {p['damage']} против Стойкости {effect.toughness}: ранений {effect.wounds}."
                " Проверка на прочность?",
                f"Damage {p['damage']} vs Toughness {effect.toughness}: {effect.wounds} wounds."
                " Soak?",
            ),
            details={"effect": effect.as_dict(), "pool": flow["pool"]},
        )
        out.details["pending"] = copy.deepcopy({k: v for k, v in flow.items() if k != "state"})
        return out

    def _choose_soak(self, flow: dict[str, Any], choice: str, dice: Dice | None) -> Outcome:
        if choice == "accept":
            return self._damage_final(flow, soaked=0)
        self._pay(flow, choice == "soak_pool")
        spec = self._trait_spec(flow["state"], trait="vigor")
        flow.update(kind="reroll", roll=spec, then="soak")
        flow["attempts"] = [self._roll(self._need_dice(dice), spec)]
        return self._step(flow, dice)

    def _then_soak(self, flow, best, dice) -> Outcome:
        soaked = (1 + best["raises"]) if best["success"] else 0
        return self._damage_final(flow, soaked=soaked)

    def _damage_final(self, flow: dict[str, Any], *, soaked: int) -> Outcome:
        effect = DamageEffect(**flow["context"]["effect"])
        state, info = apply_damage(flow["state"], effect, soaked=soaked)
        result = info["result"]
        text_base = MOVES_BY_KEY["take_damage"].results[result]
        extra_ru = f" Ранений: {info['wounds_taken']}." if info["wounds_taken"] else ""
        extra_en = f" Wounds: {info['wounds_taken']}." if info["wounds_taken"] else ""
        if soaked:
            extra_ru += f" Поглощено: {soaked}."
            extra_en += f" Soaked: {soaked}."
        if info["incapacitation_roll_due"]:
            extra_ru += " Проверка Выносливости (выведение из строя)."
            extra_en += " Roll Vigor (incapacitation)."
        details = {**info}
        if flow["attempts"]:
            details.update(self._roll_details(flow))
            details["soak_roll"] = flow["attempts"][best_index(flow["attempts"])]
        else:
            details.update(
                bennies_spent=flow["spent"]["own"],
                pool_spent=flow["spent"]["pool"],
                pool=flow["pool"],
            )
        return Outcome(
            move="take_damage",
            total=effect.damage,
            band=result,
            faces=_faces(details["soak_roll"]) if "soak_roll" in details else [],
            state=state,
            text=_text(text_base.ru + extra_ru, text_base.en + extra_en),
            flags={
                "shaken": state["shaken"],
                "wounds_taken": info["wounds_taken"],
                "incapacitated": info["incapacitated"],
                "incapacitation_roll_due": info["incapacitation_roll_due"],
            },
            details=details,
        )

    def _do_recover_shaken(self, call: _Call) -> Outcome:
        """[published edition] Spirit roll at the start of the action to shake off Shaken."""
        if not call.state["shaken"]:
            raise _err("shaken", "Персонаж не в шоке.", "The character is not Shaken.")
        flow = self._flow(call, self._single_spec(call), then="shaken")
        flow["attempts"].append(self._roll(self._need_dice(call.dice), flow["roll"]))
        return self._step(flow, call.dice)

    def _then_shaken(self, flow, best, dice) -> Outcome:
        result = shaken_recovery(best["band"], flow["settings"]["shaken_recovery"])
        flow["state"]["shaken"] = result["shaken"]
        out = self._trait_final(
            flow,
            best,
            extra_text=(
                " Шок снят." if not result["shaken"] else " Всё ещё в шоке.",
                " No longer Shaken." if not result["shaken"] else " Still Shaken.",
            ),
        )
        out.flags.update(result)
        return out

    def _do_incapacitation_roll(self, call: _Call) -> Outcome:
        """[published edition] A wild card past three wounds rolls Vigor at once."""
        st = call.state
        if st["status"] != "incapacitated" or not st["wild_card"]:
            raise _err(
                "status",
                "Только для выведенной из строя дикой карты.",
                "Only for an incapacitated wild card.",
            )
        flow = self._flow(call, self._single_spec(call), then="incapacitation")
        flow["attempts"].append(self._roll(self._need_dice(call.dice), flow["roll"]))
        return self._step(flow, call.dice)

    def _then_incapacitation(self, flow, best, dice) -> Outcome:
        result = incapacitation_result(
            best["band"], best["total"], flow["settings"]["incapacitation"]
        )
        st = flow["state"]
        st["status"] = result["status"]
        if result.get("shaken"):
            st["shaken"] = True
        names = {
            "dead": ("Погиб.", "Dead."),
            "bleeding_out": ("Истекает кровью.", "Bleeding out."),
            "incapacitated": ("Без сознания, выведен из строя.", "Out of action."),
            "active": ("Лишь оглушён: в шоке, но в строю.", "Only stunned: Shaken."),
        }
        ru, en = names[result["status"]]
        injury = None
        if result["injury"]:
            # [published edition] The Injury Table, rolled here on the server once the Vigor
            # roll is kept; bennies do not change a table result («Фишки»).
            st, injury = self._injure(
                st, self._need_dice(dice), flow["params"]["location"], result["injury"]
            )
            flow["state"] = st
            ru += f" Травма: {injury['label']['ru']} ({injury['change']['ru']}), " + (
                injury["duration_label"]["ru"].lower() + "."
            )
            en += f" Injury: {injury['label']['en']} ({injury['change']['en']}), " + (
                injury["duration_label"]["en"].lower() + "."
            )
        out = self._trait_final(flow, best, extra_text=(" " + ru, " " + en))
        out.flags.update(status=result["status"], injury=result["injury"])
        if injury is not None:
            out.flags["injury_result"] = injury["key"]
            out.details["injury"] = injury
        return out

    @staticmethod
    def _injure(
        state: dict[str, Any], dice: Dice, location: str, duration: str
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        rolled = inj.roll_injury(dice, location=location)
        return inj.apply_injury(state, rolled, duration)

    def _do_injury_roll(self, call: _Call) -> Outcome:
        """[published edition] Таблица травм on its own: when the referee calls for it (a
        setting's rule, an injury the incapacitation roll was not made for). Wild cards only:
        an incapacitated extra is simply out of the fight."""
        st, p = call.state, call.params
        if not st["wild_card"]:
            raise _err(
                "wild_card",
                "По таблице травм бросают только дикие карты.",
                "Only wild cards roll on the Injury Table.",
            )
        state, injury = self._injure(st, self._need_dice(call.dice), p["location"], p["duration"])
        faces = list(injury["faces"]) + ([injury["sub_face"]] if injury["sub_face"] else [])
        return Outcome(
            move="injury_roll",
            total=injury["total"],
            band=injury["key"],
            faces=faces,
            state=state,
            text=_text(
                f"Травма: {injury['label']['ru']} ({injury['change']['ru']}), "
                f"{injury['duration_label']['ru'].lower()}.",
                f"Injury: {injury['label']['en']} ({injury['change']['en']}), "
                f"{injury['duration_label']['en'].lower()}.",
            ),
            flags={"injury": p["duration"], "injury_result": injury["key"]},
            details={"injury": injury},
        )

    def _do_heal_injury(self, call: _Call) -> Outcome:
        """[published edition] An injury goes away: a temporary one when its time is up (the
        wounds healed, 24 hours passed, the fight ended); a permanent one only by magic or
        surgery the referee allows. Undoes the lowered die and the hindrance it gave."""
        st, p = call.state, call.params
        injuries = st["injuries"]
        if p["number"] is None:
            chosen = [i for i, r in enumerate(injuries) if r["duration"] in inj.TEMPORARY]
            if not chosen:
                raise _err("number", "Временных травм нет.", "No temporary injuries.")
        else:
            index = p["number"] - 1
            if index >= len(injuries):
                raise _err("number", "Нет такой травмы.", "No such injury.")
            if injuries[index]["duration"] == "permanent" and not p["permanent"]:
                raise _err(
                    "permanent",
                    "Эта травма навсегда: снять её можно лишь магией или хирургией.",
                    "This injury is permanent: only magic or surgery removes it.",
                )
            chosen = [index]
        healed = [injuries[i]["key"] for i in chosen]
        for i in sorted(chosen, reverse=True):
            st = inj.heal_injury(st, i)
        names_ru = ", ".join(inj.INJURIES[k].ru for k in healed)
        names_en = ", ".join(inj.INJURIES[k].en for k in healed)
        return Outcome(
            move="heal_injury",
            state=st,
            text=_text(f"Травма прошла: {names_ru}.", f"Injury healed: {names_en}."),
            flags={"healed": len(healed)},
            details={"healed": healed},
        )

    def _do_bleeding_out(self, call: _Call) -> Outcome:
        """[published edition] Vigor at the start of each round while bleeding out."""
        if call.state["status"] != "bleeding_out":
            raise _err("status", "Персонаж не истекает кровью.", "Not bleeding out.")
        flow = self._flow(call, self._single_spec(call), then="bleeding")
        flow["attempts"].append(self._roll(self._need_dice(call.dice), flow["roll"]))
        return self._step(flow, call.dice)

    def _then_bleeding(self, flow, best, dice) -> Outcome:
        status = bleeding_out_result(
            best["band"], best["total"], flow["settings"]["incapacitation"]
        )
        flow["state"]["status"] = status
        names = {
            "dead": ("Погиб.", "Dead."),
            "bleeding_out": ("Кровь не остановлена.", "Still bleeding."),
            "incapacitated": ("Состояние стабильно.", "Stabilised."),
        }
        ru, en = names[status]
        out = self._trait_final(flow, best, extra_text=(" " + ru, " " + en))
        out.flags["status"] = status
        return out

    # --- benny actions («Фишки»; «Фишки ведущего»)

    def _do_spend_benny(self, call: _Call) -> Outcome:
        """Потратить фишку: never on table results («Фишки»); on damage only with No Mercy
        («Фишки»); none left, none spent («Фишки»); the pool pays for GM characters only («Фишки
        ведущего»)."""
        st, p = call.state, call.params
        why = bn.refusal(p["purpose"], st, damage_bennies=call.settings["damage_bennies"])
        if why:
            raise _err("purpose", *why)
        pool = p["pool"]
        if p["source"] == "pool":
            if st["role"] != "npc":
                raise _err(
                    "source",
                    "Пул ведущего — для его персонажей.",
                    "The GM's pool is for GM characters.",
                )
            if pool <= 0:
                raise _err("pool", "В пуле ведущего нет фишек.", "The GM's pool is empty.")
            pool -= 1
        else:
            if st["bennies"] <= 0:
                raise _err("bennies", "Фишек не осталось.", "No bennies left.")
            st["bennies"] -= 1
        flags = {"source": p["source"], "purpose": p["purpose"]}
        if p["purpose"] == "unshake":
            flags["was_shaken"] = st["shaken"]
            st["shaken"] = False
        return Outcome(
            move="spend_benny",
            state=st,
            text=_text("Фишка потрачена.", "Benny spent."),
            flags=flags,
            details={"pool": pool, "bennies": st["bennies"]},
        )

    def _do_award_benny(self, call: _Call) -> Outcome:
        """«Фишки»: the GM may hand out extra bennies for great play; an extra keeps none («Фишки
        ведущего»)."""
        st = call.state
        if not st["wild_card"]:
            raise _err(
                "wild_card",
                "У статистов нет своих фишек: за них платят из пула ведущего.",
                "Extras hold no bennies: the GM's pool pays for them.",
            )
        st["bennies"] = min(99, st["bennies"] + call.params["amount"])
        return Outcome(
            move="award_benny",
            state=st,
            text=_text(f"Фишек: {st['bennies']}.", f"Bennies: {st['bennies']}."),
            details={"bennies": st["bennies"]},
        )

    def _do_give_benny(self, call: _Call) -> Outcome:
        """«Фишки ведущего»: GM characters cannot share their own bennies. Players may only with
        Common Bond [published edition]."""
        st = call.state
        if st["role"] == "npc":
            raise _err(
                "role",
                "Персонажи ведущего не могут делиться своими фишками.",
                "GM characters cannot share their own bennies.",
            )
        if not bn.has_rule(st, "common_bond"):
            raise _err(
                "edges",
                "Отдавать фишки можно только с чертой Общее дело.",
                "Giving bennies needs the Common Bond edge.",
            )
        if st["bennies"] <= 0:
            raise _err("bennies", "Фишек не осталось.", "No bennies left.")
        recipient = self._sheet(call.params["recipient"], "recipient")
        if not recipient["wild_card"]:
            raise _err("recipient", "Только дикой карте.", "Only to a wild card.")
        st["bennies"] -= 1
        recipient["bennies"] = min(99, recipient["bennies"] + 1)
        return Outcome(
            move="give_benny",
            state=st,
            text=_text("Фишка передана.", "Benny given."),
            details={"recipient": recipient},
        )

    # --- table actions -----------------------------------------------------------------------

    def _sheets(self, call: _Call) -> list[dict[str, Any]]:
        return [self._sheet(s, f"characters.{i}") for i, s in enumerate(call.params["characters"])]

    def _do_start_session(self, call: _Call) -> Outcome:
        """«Фишки»; «Фишки ведущего»: players 3 bennies, GM wild cards 2, the pool one per PC."""
        table, sheets = bn.start_session(call.state, self._sheets(call))
        return Outcome(
            move="start_session",
            state=table,
            text=_text(f"Пул ведущего: {table['pool']}.", f"GM's pool: {table['pool']}."),
            details={"characters": sheets, "pool": table["pool"]},
        )

    def _do_end_session(self, call: _Call) -> Outcome:
        """«Фишки ведущего»: every unused benny is lost, the GM's and the players'."""
        table, sheets = bn.end_session(call.state, self._sheets(call))
        return Outcome(
            move="end_session",
            state=table,
            text=_text("Неиспользованные фишки сгорели.", "Unused bennies are lost."),
            details={"characters": sheets, "pool": 0},
        )

    @staticmethod
    def _shuffler(dice: Dice | None) -> Any:
        if dice is None or not hasattr(dice, "shuffle"):
            raise _err("dice", "Нужны кубики, умеющие тасовать.", "Dice that can shuffle needed.")
        return dice

    def _do_start_combat(self, call: _Call) -> Outcome:
        """[published edition] A fight starts with the whole deck shuffled."""
        table = copy.deepcopy(call.state)
        table["deck"] = dk.shuffle(table["deck"], self._shuffler(call.dice))
        table["deck"]["round"] = 0
        return Outcome(
            move="start_combat",
            state=table,
            text=_text("Колода перетасована.", "The deck is shuffled."),
            flags={"shuffled": True},
        )

    def _do_deal_round(self, call: _Call) -> Outcome:
        """[published edition] Deal the round; shuffle first after a joker round."""
        table = copy.deepcopy(call.state)
        shuffled = table["deck"]["shuffle_due"]
        try:
            table["deck"] = dk.deal_round(
                table["deck"], call.params["participants"], self._shuffler(call.dice)
            )
        except ValueError as exc:
            raise _err("participants", str(exc), str(exc)) from exc
        order = dk.initiative(table["deck"])
        jokers = [e["id"] for e in order if e["joker"]]
        details = {
            "order": [e["id"] for e in order if not e["joker"]],
            "jokers": jokers,
            "initiative": order,
            "shuffled": shuffled,
            "round": table["deck"]["round"],
        }
        if jokers and call.settings["joker_bennies"]:
            details["joker_bennies"] = True  # SWADE: each player and GM wild card +1 benny
        ru = ", ".join(f"{e['id']} ({e['label']['ru']})" for e in order)
        en = ", ".join(f"{e['id']} ({e['label']['en']})" for e in order)
        return Outcome(
            move="deal_round",
            state=table,
            text=_text(
                f"Раунд {table['deck']['round']}: {ru}.", f"Round {table['deck']['round']}: {en}."
            ),
            flags={"joker": bool(jokers), "shuffle_next": table["deck"]["shuffle_due"]},
            details=details,
        )

    def _do_end_combat(self, call: _Call) -> Outcome:
        table = copy.deepcopy(call.state)
        table["deck"] = dk.end_combat(table["deck"])
        return Outcome(
            move="end_combat",
            state=table,
            text=_text("Бой окончен.", "Combat is over."),
        )

    # --- odds helpers ------------------------------------------------------------------------

    def _odds_vs_total(self, attacker: dict[str, Any], total: int, settings: dict) -> dict:
        """Against a defender's known total: the attacker wins above it (and at 4+ with the
        SWADE option), ties go on, a critical failure loses (``opposed_winner``)."""

        def reaching(tn: int) -> Any:
            odds = trait_odds_exact(
                attacker["sides"], wild=attacker["wild"], modifier=attacker["modifier"], tn=tn
            )
            return odds[SUCCESS] + odds[RAISE]  # never a critical failure

        needs_tn = settings["opposed_needs_tn"]
        win = reaching(max(total + 1, TN) if needs_tn else total + 1)
        stalemate = 0 if (needs_tn and total < TN) else reaching(total) - reaching(total + 1)
        return {"attacker": win, "defender": 1 - win - stalemate, "stalemate": stalemate}

    def _opposed_odds(self, call: _Call) -> dict:
        attacker, defender_spec, _ = self._opposed_specs(call)
        settings = call.settings

        def winner(a: int, d: int, a_crit: bool, d_crit: bool) -> str:
            return opposed_winner(
                a,
                d,
                attacker_critical=a_crit,
                defender_critical=d_crit,
                attacker_needs_tn=settings["opposed_needs_tn"],
            )

        a_side = (attacker["sides"], attacker["wild"], attacker["modifier"])
        if defender_spec is None:
            return self._odds_vs_total(attacker, call.params["defender_total"], settings)
        d_side = (defender_spec["sides"], defender_spec["wild"], defender_spec["modifier"])
        odds = opposed_odds_exact(a_side, d_side, winner=winner)
        return {k: odds.get(k, 0) for k in OPPOSED_BANDS}


def _faces(attempt: dict[str, Any] | None) -> list[int]:
    if not attempt:
        return []
    if attempt.get("kind") == "damage":
        return [f for faces in attempt["faces"] for f in faces]
    return list(attempt["trait_faces"]) + list(attempt["wild_faces"] or [])


def _trait_flags(flow: dict[str, Any], best: dict[str, Any]) -> dict[str, Any]:
    return {
        "success": best["success"],
        "raises": best["raises"],
        "critical_failure": best["critical_failure"],
        "unskilled": flow["roll"]["trait"]["unskilled"],
        "wild_card": flow["roll"]["wild"],
    }


RULESET = SavageWorlds()

__all__ = ["RULESET", "SavageWorlds"]
