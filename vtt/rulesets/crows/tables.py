"""Ready-made tables for Crows: Fortune or Death, from the rulebook.

Same generic shape as ``systems/tales/tables.py`` (``name``/``text`` in ru and en), plus
``modifier_label`` for tables rolled "d10 + cruelty" or "d100 + rank": a roll adds the
modifier and totals past the last row read the last row ("13+").

The Miasma and backlash rows are read from the rules (``systems/crows/terms.py``), so the rules
and the ready-made table cannot disagree.

Not shipped: the campfire table («Свет › Яркость костра») looks light up by fire size, nothing is
rolled on it (``systems/crows/terms.py`` CAMPFIRE); encounter tables proper are in the Referee's
book, not in the rulebook («Встречи в подземелье»), so only the encounter checks are here.
"""

from __future__ import annotations

from typing import Any

from systems.crows.terms import BACKLASH_TABLE, MIASMA_TABLE


def _t(ru: str, en: str) -> dict[str, str]:
    return {"ru": ru, "en": en}


def _e(lo: int, hi: int, ru: str, en: str, **extra: Any) -> dict[str, Any]:
    return {"min": lo, "max": hi, "text": _t(ru, en), **extra}


def _encounter_check(threshold: int) -> dict[str, Any]:
    """Dungeon encounter check («Встречи в подземелье»): d10 ≥ threshold; a 10 is at once, else a
    sign."""
    situation = {
        9: ("", ""),
        8: (
            " — людный уровень или за отрядом хаос",
            " — a crowded level or chaos left behind",
        ),
        7: (" — людный уровень и хаос", " — a crowded level and chaos"),
    }[threshold]
    return {
        "key": "encounter_check" if threshold == 9 else f"encounter_check_{threshold}",
        "name": _t(
            f"Проверка встречи, порог {threshold}{situation[0]}",
            f"Encounter check, threshold {threshold}{situation[1]}",
        ),
        "formula": "1d10",
        "source": "«Встречи в подземелье»",
        "note": _t(
            "В конце каждого хода подземелья, при шумных действиях и на отдыхе.",
            "At the end of every dungeon turn, after something loud, and during a rest.",
        ),
        "entries": [
            _e(1, threshold - 1, "Никого", "Nothing", key="none"),
            _e(
                threshold,
                9,
                "Знак (рёв, свежий труп, следы); встреча в любой момент следующего хода",
                "A sign (a roar, a fresh corpse, tracks); the encounter comes at any moment of "
                "the next turn",
                key="sign",
            ),
            _e(10, 10, "Встреча немедленно", "An encounter at once", key="now"),
        ],
    }


LOST_DIRECTION = {
    "key": "lost_direction",
    "name": _t("Заблудились: направление (тайно)", "Lost: direction (secret)"),
    "formula": "1d6",
    "source": "«Путешествие по суше › Заблудились»",
    "note": _t(
        "Рефери бросает тайно каждый раз, когда заблудившийся отряд покидает гекс.",
        "The Referee rolls in secret each time the lost party leaves a hex.",
    ),
    "entries": [
        _e(1, 1, "Север", "North", key="n"),
        _e(2, 2, "Северо-восток", "North-east", key="ne"),
        _e(3, 3, "Юго-восток", "South-east", key="se"),
        _e(4, 4, "Юг", "South", key="s"),
        _e(5, 5, "Юго-запад", "South-west", key="sw"),
        _e(6, 6, "Северо-запад", "North-west", key="nw"),
    ],
}

_MIASMA_HEAD = {
    "key": "miasma",
    "name": _t("Миазма: эффекты (d10 + жестокость)", "Miasma effects (d10 + cruelty)"),
    "formula": "1d10",
    "modifier_label": _t("жестокость", "cruelty"),
    "source": "«Путешествие по суше › Миазма»",
    "note": _t(
        "После проваленного спасброска Миазмы: получите оба эффекта строки; второй длится, "
        "пока длится первый. Если пара уже есть, перебросьте.",
        "After a failed Miasma save: gain both effects of the row; the second lasts as long as "
        "the first. If the pair is already on you, reroll.",
    ),
}

CHAOS = {
    "key": "chaos",
    "name": _t("Бросок хаоса (результат 1 уровня)", "Chaos roll (a tier 1 result)"),
    "formula": "1d6",
    "source": "«Заклинания › Бросок хаоса»",
    "note": _t(
        "Заклинание дало 1 уровень, но не рок.",
        "The spell came out at tier 1 without a doom.",
    ),
    "entries": [
        _e(
            1,
            1,
            "Отдача: вместо заклинания бросьте d100 + ранг по таблице отдачи",
            "Backlash: instead of the spell, roll d100 + rank on the backlash table",
            key="backlash",
        ),
        _e(2, 6, "Действует эффект 1 уровня", "The spell's tier 1 effect applies", key="t1"),
    ],
}


_BACKLASH_HEAD = {
    "key": "backlash",
    "name": _t("Отдача магии (d100 + ранг)", "Backlash (d100 + rank)"),
    "formula": "1d100",
    "modifier_label": _t("ранг заклинания", "spell rank"),
    "source": "«Заклинания › Виды отдачи»",
    "note": _t(
        "Отдача заменяет заклинание. КИ — кости износа (бросаются в конце каждого хода "
        "подземелья); «Карты» — перемешайте карты инвентаря, бросьте d10 и возьмите столько "
        "карт: затронут предмет с последней. Повтор длящейся отдачи перебрасывается, если не "
        "сказано иное.",
        "The backlash replaces the spell. WD: wear dice (rolled at every end of a dungeon "
        "turn); Draw: shuffle your inventory cards, roll d10 and draw that many: the item on "
        "the last card is affected. A lasting backlash rolled again is rerolled unless it says "
        "what happens.",
    ),
}


def _miasma_from(rows) -> dict[str, Any]:
    entries = []
    for row in rows:
        open_ended = row is rows[-1] and row.hi > row.lo
        plus = (f"{row.lo}+: ", f"{row.lo}+: ") if open_ended else ("", "")
        entries.append(
            _e(
                row.lo,
                row.lo if open_ended else row.hi,
                f"{plus[0]}{row.ru}. {row.first_ru} Второй эффект: {row.second_ru}",
                f"{plus[1]}{row.en}. {row.first_en} Second effect: {row.second_en}",
                key=row.key,
            )
        )
    return {**_MIASMA_HEAD, "entries": entries}


def _backlash_from(rows) -> dict[str, Any]:
    entries = []
    for row in rows:
        ru, en = row.ru, row.en
        if row.wear_dice:
            ru += f" Кости износа: {row.wear_dice}."
            en += f" Wear dice: {row.wear_dice}."
        if row is rows[-1]:
            ru, en = f"{row.lo}+: {ru}", f"{row.lo}+: {en}"
        entries.append(_e(row.lo, row.hi, ru, en, key=row.key))
    return {**_BACKLASH_HEAD, "entries": entries}


MIASMA = _miasma_from(MIASMA_TABLE)
BACKLASH = _backlash_from(BACKLASH_TABLE)

TABLES: tuple[dict[str, Any], ...] = (
    _encounter_check(9),
    _encounter_check(8),
    _encounter_check(7),
    LOST_DIRECTION,
    MIASMA,
    CHAOS,
    BACKLASH,
)
