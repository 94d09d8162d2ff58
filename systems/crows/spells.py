"""Spells («Заклинания»): spellbook cards, what a cast must satisfy, the chaos
roll, backlash and the book's wear dice.

A spell is printed on a spellbook card (``items.SPELL``: rank, discipline, casting time, target,
range, area, duration, tier lines, summons). The book's own ``wear`` dice roll on every cast
except a crit, and on backlash too («Заклинания › Кости износа книги заклинаний»;
«Заклинания › Отдача магии»); at 0 the book cannot cast until a rest ends with it carried
(``wear.restore_after_rest``). A spell lasting in wear dice becomes an effect on the caster's sheet,
so ``end_dungeon_turn`` rolls it with every other effect («Заклинания › Длительность»).
"""

from __future__ import annotations

import copy
from typing import Any

from systems.core.dice import Dice
from systems.core.notation import roll_notation
from systems.core.schema import fail
from systems.crows.checks import d100_from_faces, evaluate
from systems.crows.conditions import add_condition, has_condition
from systems.crows.damage import apply_damage, gain_wounds, uses_wounds
from systems.crows.inventory import HANDS, iter_items, remove
from systems.crows.modifiers import effective_characteristic, has_effect
from systems.crows.terms import CHAOS_DIE, EXPERTISES, MAGICAL, Backlash, backlash_row
from systems.crows.wear import roll_item_wear

MAX_REROLLS = 30
SAVE_DAMAGE = {1: 6, 2: 3, 3: 0}  # the bees and falling-earth ladders («Заклинания › Виды отдачи»)
DRAW_DIE = 10  # «Заклинания › Виды отдачи»
DURATION_OF = {
    "dungeon_turn": "dungeon_turn",
    "wear_dice": "wear_dice",
    "rest": "rest",
    "permanent": "permanent",
}


def held_spellbook(state: dict[str, Any], item_id: str) -> dict[str, Any]:
    """The book must be held in a hand («Слоты инвентаря › Экипированные предметы»;
    «Бой › Как атаковать»), carry a spell and have wear dice left
    («Заклинания › Кости износа книги заклинаний»)."""
    card = None
    for p in state["inventory"]["placed"]:
        if p["area"] == HANDS:
            for c in p["items"]:
                if c["id"] == item_id or (not item_id and c["spell"] is not None and card is None):
                    card = c
    if card is None:
        raise fail(
            "item_id",
            "Книгу заклинаний нужно держать в руке.",
            "The spellbook must be held in a hand.",
        )
    if card["spell"] is None:
        raise fail("item_id", "В этой книге нет заклинания.", "This book holds no spell.")
    if card["useless"] or (card["wear"] is not None and card["wear"]["dice"] == 0):
        raise fail(
            "item_id",
            "Костей износа книги не осталось: магии в ней нет до конца отдыха.",
            "The book has no wear dice left: no magic until a rest ends.",
        )
    return card


def target_problems(
    spell: dict[str, Any],
    targets: list[dict[str, Any]],
    *,
    caster: str,
    in_combat: bool,
    line_of_effect: bool,
    origin_distance: int | None,
) -> list[dict[str, str]]:
    """What makes a cast illegal («Заклинания › Книги заклинаний»): out-of-combat spells in rounds,
    too many targets, the same creature twice, yourself where the target line excludes you, a target
    out of range or without line of effect, an origin square out of range."""
    out: list[dict[str, str]] = []

    def bad(ru: str, en: str) -> None:
        out.append({"ru": ru, "en": en})

    if in_combat and spell["casting_time"] == "out_of_combat":
        bad(
            "Это заклинание нельзя творить в боевых раундах.",
            "This spell cannot be cast in round-timed play.",
        )
    names = [t.get("name", "") for t in targets if t.get("name")]
    if len(names) != len(set(names)):
        bad("Одну цель нельзя выбрать дважды.", "No target may be chosen twice.")
    kind = spell["target"]
    if kind not in ("all", "none", "summoned") and len(targets) > max(1, spell["count"]):
        bad(
            f"Целей не больше {spell['count']}.",
            f"At most {spell['count']} targets.",
        )
    if kind in ("creature", "targets") and caster and caster in names:
        bad("Себя целью выбрать нельзя.", "You cannot target yourself.")
    if not line_of_effect:
        bad("Нужна линия эффекта.", "Line of effect is needed.")
    for t in targets:
        d = t.get("distance")
        if d is not None and spell["area"] in ("none", "aura") and d > spell["range"]:
            bad(
                f"Цель «{t.get('name') or '?'}» дальше {spell['range']} клеток.",
                f"Target {t.get('name') or '?'!r} is beyond {spell['range']} squares.",
            )
    if origin_distance is not None and origin_distance > spell["range"]:
        bad(
            "Клетка-исток области дальше дальности.",
            "The area's origin square is beyond range.",
        )
    return out


def tier_after_backlash(tier: int, doom: bool, *, tier_down: bool) -> tuple[int, bool]:
    """Backlash 99-100 («Заклинания › Виды отдачи»): after expertise, tier 3 counts as 2, 2 as
    1, 1 as a doom."""
    if not tier_down or doom:
        return tier, doom
    if tier == 1:
        return 1, True
    return tier - 1, False


def chaos_roll(dice: Dice) -> tuple[int, bool]:
    """Бросок хаоса («Заклинания › Бросок хаоса»): on a tier 1 that is not a doom roll 1d6; a 1 is
    backlash."""
    face = dice.roll(CHAOS_DIE)
    return face, face == 1


def roll_book(card: dict[str, Any], dice: Dice) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The book's wear dice after a cast («Заклинания › Кости износа книги заклинаний»;
    «Заклинания › Отдача магии»): all of them, 1s and 2s removed."""
    if card["wear"] is None or card["wear"]["dice"] == 0:
        return copy.deepcopy(card), None
    return roll_item_wear(card, dice, reason="cast")


def spell_effect(card: dict[str, Any], *, tier: int, caster: str) -> dict[str, Any] | None:
    """The lasting effect of a successful cast («Заклинания › Длительность»): until the end of the
    dungeon turn, or kept by its own wear dice rolled at every turn's end; None for an instant
    spell."""
    spell = card["spell"]
    if spell["duration"] == "instant":
        return None
    effect = {
        "id": f"spell:{card['id']}",
        "name": spell["name"] or card["name"],
        "duration": spell["duration"],
        "wear_dice": spell["duration_dice"] if spell["duration"] == "wear_dice" else 0,
        "source": card["name"],
        "note": spell.get(f"tier{tier}", ""),
        "key": "spell",
        "stacks": 1,
        "caster": caster,
    }
    return effect


def summoned_sheets(
    spell: dict[str, Any], *, caster: str, default_sheet: dict[str, Any]
) -> list[dict[str, Any]]:
    """Summoned creatures act as pets of the caster and need no check for dangerous orders
    («Заклинания › Призванные существа»)."""
    summon = spell.get("summon")
    if not summon:
        return []
    out = []
    for n in range(summon["count"]):
        sheet = copy.deepcopy(default_sheet)
        suffix = f" {n + 1}" if summon["count"] > 1 else ""
        sheet.update(
            name=(summon["name"] or spell["name"] or "Призванное") + suffix,
            kind="pet",
            size=summon["size"],
            stamina=summon["stamina"],
            stamina_max=summon["stamina"],
            speed=summon["speed"],
        )
        sheet["companion"] = {"owner": caster, "summoned": True, "spell": spell["name"]}
        out.append(sheet)
    return out


# --- backlash («Заклинания › Отдача магии») ---------------------------------------------------


def roll_backlash(
    state: dict[str, Any],
    rank: int,
    dice: Dice,
    *,
    spell: str = "",
    object_target: bool = False,
    touching_ground: bool = True,
    armour_order: list[str] | None = None,
    wound_slots: list[int] | None = None,
    spill: bool = True,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The Referee rolls d100 + the spell's rank («Заклинания › Отдача магии»). A lasting row
    already on the caster is rolled again unless it stacks; conditions may repeat and simply do
    nothing («Заклинания › Отдача магии»; only its stacking rows stack); the quicksand row needs the
    caster on the ground («Заклинания › Виды отдачи»). Returns (caster state, event)."""
    rolls: list[dict[str, Any]] = []
    row: Backlash | None = None
    for _ in range(MAX_REROLLS):
        tens, units = dice.roll(10), dice.roll(10)
        value = d100_from_faces(tens, units) + rank
        row = backlash_row(value)
        entry: dict[str, Any] = {"faces": [tens, units], "value": value, "row": row.key}
        rolls.append(entry)
        if row.key == "63-64" and not touching_ground:
            entry["rerolled"] = "not_on_ground"
            continue
        if row.lasting and not row.stacks and has_effect(state, f"backlash:{row.key}"):
            entry["rerolled"] = "duplicate"
            continue
        break
    if row is None:  # pragma: no cover - the loop always runs
        raise fail("backlash", "Нет строки отдачи.", "No backlash row.")
    st, info = apply_backlash(
        state,
        row,
        dice,
        spell=spell,
        object_target=object_target,
        armour_order=armour_order,
        wound_slots=wound_slots,
        spill=spill,
    )
    return st, {"type": "backlash", "rolls": rolls, "row": row.as_dict(), **info}


def _roll(expr: str, dice: Dice) -> dict[str, Any]:
    rolled = roll_notation(expr, dice=dice)
    return {"total": max(0, rolled.total), "faces": rolled.faces, "text": rolled.text}


def _lasting(st: dict[str, Any], row: Backlash, *, spell: str, note: str = "") -> bool:
    """Add the row's effect, or one more stack of it («Заклинания › Отдача магии»). Returns True
    when it stacked."""
    key = f"backlash:{row.key}"
    for effect in st["effects"]:
        if effect.get("key") == key:
            effect["stacks"] = int(effect.get("stacks", 1)) + 1
            return True
    st["effects"].append(
        {
            "id": key,
            "name": row.ru,
            "duration": DURATION_OF[row.duration],
            "wear_dice": row.wear_dice,
            "source": spell or "Отдача",
            "note": note,
            "key": key,
            "stacks": 1,
            "caster": "",
        }
    )
    return False


def _draw(st: dict[str, Any], dice: Dice) -> dict[str, Any]:
    """Shuffle the inventory cards, roll d10 and draw that many; the last card drawn is hit
    («Заклинания › Виды отдачи»). With fewer cards than the roll, the last card of the deck is
    hit."""
    deck = [card["id"] for _area, _slot, card in iter_items(st["inventory"])]
    if not deck:
        return {"drawn": None}
    shuffle = getattr(dice, "shuffle", None)
    if shuffle is not None and len(deck) > 1:
        shuffle(deck)
    face = dice.roll(DRAW_DIE)
    return {"draw_roll": face, "deck": deck, "drawn": deck[min(face, len(deck)) - 1]}


def apply_backlash(
    state: dict[str, Any],
    row: Backlash,
    dice: Dice,
    *,
    spell: str = "",
    object_target: bool = False,
    armour_order: list[str] | None = None,
    wound_slots: list[int] | None = None,
    spill: bool = True,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Apply one backlash row to the caster. Effects on others nearby (``radius``) are reported
    with the same roll for the Referee to apply (one roll for all, as one attack roll serves
    every target, «Бой › Несколько целей»)."""
    st = copy.deepcopy(state)
    info: dict[str, Any] = {"radius": row.radius}
    if row.creature_target and object_target:
        info["hits_caster"] = (
            True  # «Заклинания › Отдача магии»: a creature-target effect on an object hits you
        )
    if row.key == "105":
        st["dead"] = True
        info["gone"] = True  # sealed in Hell forever («Заклинания › Виды отдачи»)
        return st, info
    if row.key == "104":
        st["stamina"] = 0  # «Заклинания › Виды отдачи»
    if row.roll:
        info["roll"] = _roll(row.roll, dice)
        if row.key == "75-76":
            info["coins"] = info["roll"]["total"] * 100
        if row.key == "21-22":
            st, info["rations_destroyed"] = _destroy_rations(st, info["roll"]["total"])
        if row.key == "41-42" and object_target:
            st, report = apply_damage(
                st,
                info["roll"]["total"],
                piercing=True,
                armour_order=armour_order,
                wound_slots=wound_slots,
                spill=spill,
                dice=dice,
            )
            info["damage"] = report.as_dict()
    if row.draw:
        info.update(_draw(st, dice))
        if info.get("drawn") and row.key in ("31-32", "33-34", "79-80"):
            st["inventory"], card = remove(st["inventory"], info["drawn"])
            info["lost_item"] = card
    if row.damage:
        info["damage_roll"] = _roll(row.damage, dice)
        st, report = apply_damage(
            st,
            info["damage_roll"]["total"],
            piercing=row.piercing,
            armour_order=armour_order,
            wound_slots=wound_slots,
            spill=spill,
            dice=dice,
        )
        info["damage"] = report.as_dict()
    if row.save:
        st, info["save"] = _backlash_save(st, row, dice, armour_order, wound_slots, spill)
    if row.wounds and not st["dead"]:
        count = int(row.wounds) if row.wounds.isdigit() else _roll(row.wounds, dice)["total"]
        info["wounds_count"] = count
        if uses_wounds(st):
            st, info["wounds"] = gain_wounds(st, count, slots=wound_slots)
        else:
            st["dead"] = True  # a creature without wounds cannot take them: it dies
    if row.key == "102":
        st, info["expertise_swap"] = _swap_expertise(st, dice)
    if row.condition and not st["dead"]:
        st, added = add_condition(st, row.condition, by="backlash")
        info["condition"] = {"key": row.condition, "added": added}
    if row.lasting and not st["dead"]:
        note = info.get("drawn") or ""
        info["stacked"] = _lasting(st, row, spell=spell, note=str(note))
    return st, info


def _destroy_rations(st: dict[str, Any], count: int) -> tuple[dict[str, Any], list[str]]:
    gone: list[str] = []
    for _area, _slot, card in list(iter_items(st["inventory"])):
        if len(gone) >= count:
            break
        if "ration" in (card.get("kind") or "").casefold() or "паёк" in card["name"].casefold():
            st["inventory"], _ = remove(st["inventory"], card["id"])
            gone.append(card["id"])
    return st, gone


def _backlash_save(
    st: dict[str, Any],
    row: Backlash,
    dice: Dice,
    armour_order: list[str] | None,
    wound_slots: list[int] | None,
    spill: bool,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The caster's own resistance roll against bees, falling earth or quicksand
    («Заклинания › Виды отдачи»): ≤11 6 damage and the rider, 12–16 3 damage, 17+ nothing
    (quicksand: ≤11 grabbed with 1d6 piercing each round end, 12–16 grabbed until the end of your
    next turn, 17+ move 2). No expertise is offered inside a backlash."""
    faces = (dice.roll(10), dice.roll(10))
    weakened = 1 if has_condition(st, "weakened") else 0
    result = evaluate(
        faces,
        value=effective_characteristic(st, row.save),
        disadvantages=weakened + (1 if has_effect(st, "backlash:39-40") else 0),
        advantages=1 if has_condition(st, "blessed") else 0,
        characteristic=row.save,
        kind="resistance",
    )
    out: dict[str, Any] = {"check": result.as_dict(), "tier": result.tier}
    if row.key == "63-64":
        if result.tier <= 2:
            st, _ = add_condition(st, "grabbed", by="quicksand")
            out["grabbed"] = "until_freed" if result.tier == 1 else "until_end_of_next_turn"
        else:
            out["may_move"] = 2
        return st, out
    damage = SAVE_DAMAGE[result.tier]
    if damage:
        st, report = apply_damage(
            st, damage, armour_order=armour_order, wound_slots=wound_slots, spill=spill, dice=dice
        )
        out["damage"] = report.as_dict()
    if result.tier == 1 and row.save_rider and not st["dead"]:
        st, _ = add_condition(st, row.save_rider, by="backlash")
        out["condition"] = row.save_rider
    return st, out


def _swap_expertise(st: dict[str, Any], dice: Dice) -> tuple[dict[str, Any], dict[str, Any]]:
    """Row 102: the Referee picks at random one expertise you have and one you lack; you lose all
    uses of the first and gain that many uses of the second."""
    have = [e for e in st["expertises"]]
    if not have:
        return st, {"swapped": False}
    mine = {e["key"] for e in have}
    lack = [e.key for e in EXPERTISES if e.key not in mine]
    lost = have[dice.roll(len(have)) - 1 if len(have) > 1 else 0]
    gained = lack[dice.roll(len(lack)) - 1]
    st["expertises"] = [e for e in st["expertises"] if e["key"] != lost["key"]]
    st["expertises"].append({"key": gained, "uses": lost["uses"], "max": lost["uses"]})
    return st, {"swapped": True, "lost": lost["key"], "gained": gained, "uses": lost["uses"]}


def discipline_expertise(spell: dict[str, Any]) -> str:
    """The magic expertise that fits a spell is the one named like its discipline
    («Заклинания › Дисциплина»)."""
    return spell["discipline"]


MAGIC_EXPERTISE_KEYS = tuple(e.key for e in EXPERTISES if e.category == MAGICAL)
