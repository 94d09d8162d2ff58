"""Damage and death («Урон и смерть») and the common hazards («Частые опасности › Падение»;
«Частые опасности › Голод»; «Частые опасности › Удушье»).

Damage meets Armour Defence (Защита доспеха), then Stamina (Выносливость), then wounds (раны).
Leftover damage flows from one pool to the next within one hit (the rulebook is silent; the
``damage_spill`` setting turns it off, and then one hit stops in the first pool it touches).
Piercing damage skips Armour Defence («Урон и смерть › Пробивающий урон»). A Referee creature dies
at 0 Stamina unless the attacker asks to knock it out («Урон и смерть › Выносливость»); objects are
destroyed at 0 («Урон и смерть › Выносливость»); PCs, humans and animals take one wound per point
once both pools are empty («Урон и смерть › Раны»).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from systems.core.dice import Dice
from systems.core.schema import fail
from systems.crows.conditions import has_condition, wake
from systems.crows.inventory import (
    BACKPACK_SLOTS,
    HANDS,
    add_wounds,
    replace_card,
)
from systems.crows.inventory import wound_slots as wounded_slots
from systems.crows.modifiers import damage_multiplier
from systems.crows.terms import WOUND_KINDS

FALL_MIN_FEET = 10  # «Частые опасности › Падение»
FEET_PER_FALL_DIE = 10
SUFFOCATION_BASE_ROUNDS = 3  # «Частые опасности › Удушье»


def uses_wounds(state: dict[str, Any]) -> bool:
    """PCs, other humans and animals take wounds («Урон и смерть › Раны»); Referee monsters and
    objects do not («Урон и смерть › Раны»). ``uses_wounds`` on the sheet overrides the kind."""
    if state.get("uses_wounds") is not None:
        return bool(state["uses_wounds"])
    return state.get("kind", "pc") in WOUND_KINDS


def armour_sources(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Every source of Armour Defence: shields held in hand, the worn armour, and a creature's
    own Defence (``"natural"``), in this default order (the owner may choose another,
    «Урон и смерть › Защита доспеха»)."""
    inv = state["inventory"]
    out: list[dict[str, Any]] = []
    for p in inv["placed"]:
        if p["area"] != HANDS:
            continue
        for c in p["items"]:
            if c["armour"] is not None and c["armour"]["shield"]:
                out.append({"id": c["id"], "kind": "shield", "value": c["armour"]["defence"]})
    worn = inv["worn_armour"]
    if worn:
        card = next(c for p in inv["placed"] for c in p["items"] if c["id"] == worn)
        out.append({"id": worn, "kind": "armour", "value": card["armour"]["defence"]})
    natural = state["armour_defence"]
    if natural["value"] or natural["max"]:
        out.append({"id": "natural", "kind": "natural", "value": natural["value"]})
    return out


def total_defence(state: dict[str, Any]) -> int:
    return sum(s["value"] for s in armour_sources(state))


@dataclass
class DamageReport:
    """What one hit did, for the event log."""

    amount: int
    piercing: bool
    vulnerable_extra: int | None = None
    multiplier: int = (
        1  # backlash: next damage doubled, porcelain body («Заклинания › Виды отдачи»)
    )
    absorbed: dict[str, int] = field(default_factory=dict)
    stamina_before: int = 0
    stamina_after: int = 0
    wounds: list[int] = field(default_factory=list)
    lost: int = 0  # damage that went nowhere (no spill-over, or a creature without wounds)
    died: bool = False
    knocked_out: bool = False
    destroyed: bool = False
    woke: bool = False

    @property
    def total(self) -> int:
        return self.amount * self.multiplier + (self.vulnerable_extra or 0)

    def as_dict(self) -> dict[str, Any]:
        return {
            "amount": self.amount,
            "piercing": self.piercing,
            "vulnerable_extra": self.vulnerable_extra,
            "multiplier": self.multiplier,
            "total": self.total,
            "absorbed": dict(self.absorbed),
            "stamina_before": self.stamina_before,
            "stamina_after": self.stamina_after,
            "wounds": list(self.wounds),
            "lost": self.lost,
            "died": self.died,
            "knocked_out": self.knocked_out,
            "destroyed": self.destroyed,
            "woke": self.woke,
        }


def _order_sources(sources: list[dict[str, Any]], order: list[str]) -> list[dict[str, Any]]:
    known = {s["id"] for s in sources}
    unknown = [o for o in order if o not in known]
    if unknown:
        raise fail(
            "armour_order",
            f"Нет такого источника Защиты доспеха: {', '.join(unknown)}.",
            f"No such Armour Defence source: {', '.join(unknown)}.",
        )
    rank = {o: i for i, o in enumerate(order)}
    return sorted(sources, key=lambda s: rank.get(s["id"], len(order)))


def apply_damage(
    state: dict[str, Any],
    amount: int,
    *,
    piercing: bool = False,
    armour_order: list[str] | None = None,
    wound_slots: list[int] | None = None,
    knock_out: bool = False,
    spill: bool = True,
    dice: Dice | None = None,
) -> tuple[dict[str, Any], DamageReport]:
    """One instance of damage to a creature or object; returns (new state, report).

    Vulnerable adds 1d6 of the same kind, once per instance («Состояния › Уязвим»).
    Taking any damage wakes an unconscious creature that survives it
    («Состояния › Без сознания»).
    """
    if amount < 0:
        raise fail("amount", "Урон не бывает отрицательным.", "Damage cannot be negative.")
    if state.get("dead"):
        raise fail(
            "dead",
            "Существо уже мертво или предмет уничтожен.",
            "The creature is dead or the object destroyed.",
        )
    st = copy.deepcopy(state)
    report = DamageReport(amount=amount, piercing=piercing, stamina_before=st["stamina"])
    if amount > 0 and st.get("kind") != "object":
        report.multiplier, consumed = damage_multiplier(st, piercing=piercing)
        st["effects"] = [e for e in st.get("effects", []) if e["id"] not in consumed]
    if amount > 0 and st.get("kind") != "object" and has_condition(st, "vulnerable"):
        if dice is None:
            raise fail("dice", "Нужна кость для «Уязвим».", "Vulnerable needs a die.")
        report.vulnerable_extra = dice.roll(6)
    left = report.total
    if left == 0:
        report.stamina_after = st["stamina"]
        return st, report
    touched = False  # whether a pool has already taken part of this hit (no-spill reading)
    if not piercing:
        for source in _order_sources(armour_sources(st), armour_order or []):
            if left == 0 or source["value"] == 0 or (touched and not spill):
                continue
            taken = min(source["value"], left)
            _lower_defence(st, source, taken)
            report.absorbed[source["id"]] = taken
            left -= taken
            touched = True
    if left and touched and not spill:
        report.lost, left = report.lost + left, 0
    if left and st["stamina"] > 0:
        taken = min(st["stamina"], left)
        st["stamina"] -= taken
        left -= taken
        if st["stamina"] == 0:
            _at_zero_stamina(st, report, knock_out=knock_out)
        if not spill:
            report.lost, left = report.lost + left, 0
    if left and not st["dead"] and uses_wounds(st):
        st, report.wounds, left = _wound(st, left, wound_slots)  # left: wounds with no slot
        if left or len(wounded_slots(st["inventory"])) >= BACKPACK_SLOTS:
            st["dead"] = True
            report.died = True
    elif left and not st["dead"] and st["stamina"] == 0 and not report.knocked_out:
        _at_zero_stamina(st, report, knock_out=False)  # already at 0: a monster dies now
    report.lost += left  # beyond death, a knock-out, or for a creature without wounds
    if not st["dead"] and not report.knocked_out and has_condition(st, "unconscious"):
        st, report.woke = wake(st)
    report.stamina_after = st["stamina"]
    return st, report


def _lower_defence(st: dict[str, Any], source: dict[str, Any], taken: int) -> None:
    if source["kind"] == "natural":
        st["armour_defence"]["value"] -= taken
        return
    card = next(c for p in st["inventory"]["placed"] for c in p["items"] if c["id"] == source["id"])
    card = copy.deepcopy(card)
    card["armour"]["defence"] -= taken
    st["inventory"] = replace_card(st["inventory"], card)


def _at_zero_stamina(st: dict[str, Any], report: DamageReport, *, knock_out: bool) -> None:
    """Stamina just reached 0: an object is destroyed («Урон и смерть › Выносливость»); a creature
    without wounds dies, or is knocked out at Stamina 1 if the attacker asked and the Referee agreed
    («Урон и смерть › Выносливость»)."""
    if st.get("kind") == "object":
        st["dead"] = True
        report.destroyed = True
        return
    if uses_wounds(st):
        return
    if knock_out:
        st["stamina"] = 1
        st["conditions"] = [c for c in st["conditions"] if c["key"] != "unconscious"]
        st["conditions"].append(
            {"key": "unconscious", "by": "", "range": 1, "knocked_out": True, "note": ""}
        )
        report.knocked_out = True
        return
    st["dead"] = True
    report.died = True


def _wound(
    st: dict[str, Any], count: int, slots: list[int] | None, *, hunger: bool = False
) -> tuple[dict[str, Any], list[int], int]:
    inv, used, overflow = add_wounds(st["inventory"], count, slots=slots, hunger=hunger)
    st["inventory"] = inv
    return st, used, overflow


def gain_wounds(
    state: dict[str, Any],
    count: int,
    *,
    slots: list[int] | None = None,
    hunger: bool = False,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Wounds taken directly, not as damage (a magic-slot overload,
    «Слоты инвентаря › Слоты магических предметов»; hunger, «Частые опасности › Голод»): (new state,
    {"wounds": slots, "died": bool})."""
    if count < 0:
        raise fail("count", "Число ран не бывает отрицательным.", "Wounds cannot be negative.")
    st = copy.deepcopy(state)
    if st.get("dead") or count == 0:
        return st, {"wounds": [], "died": False, "skipped": bool(st.get("dead"))}
    if not uses_wounds(st):
        raise fail(
            "kind",
            "Это существо не получает раны.",
            "This creature does not take wounds.",
        )
    st, used, overflow = _wound(st, count, slots, hunger=hunger)
    died = bool(overflow) or len(wounded_slots(st["inventory"])) >= BACKPACK_SLOTS
    if died:
        st["dead"] = True
    return st, {"wounds": used, "died": died, "overflow": overflow}


# --- hazards («Частые опасности › Падение»; «Частые опасности › Голод»;
# «Частые опасности › Удушье»)


def fall_dice(feet: int) -> int:
    """1d6 piercing per full 10 ft, from 10 ft up («Частые опасности › Падение»;
    rounded down)."""
    if feet < FALL_MIN_FEET:
        return 0
    return feet // FEET_PER_FALL_DIE


def fall_reduction_dice(tier: int) -> int:
    """The fall's resistance roll: ≤11 no effect, 12–16 −1d6, 17+ −2d6
    («Частые опасности › Падение»)."""
    return {1: 0, 2: 1, 3: 2}[tier]


def suffocation_rounds(strength: int) -> int:
    """Rounds one can hold one's breath: 3 + Strength, never below 0
    («Частые опасности › Удушье»)."""
    return max(0, SUFFOCATION_BASE_ROUNDS + strength)


def suffocation_due(strength: int, round_number: int) -> bool:
    """Whether 1d6 damage is due at the start of ``round_number`` (1-based) without air."""
    return round_number > suffocation_rounds(strength)
