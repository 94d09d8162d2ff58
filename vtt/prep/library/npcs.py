"""Ready-made NPC and monster stat blocks, per ruleset.

A block is ``{"key", "name": {ru, en}, "state": {...}, "note": {ru, en}, "source"}``; ``state``
is laid over the ruleset's default NPC (``default_npc`` or ``default_state``) and validated by
the ruleset (``validate_npc`` where there is one, else ``validate_state``), exactly as
``vtt.characters.services.character_create`` does when the referee drops a block into the
campaign. Where the digest has numbers the block cites the rulebook; the rest are examples the
referee is expected to adjust (their note says so).
"""

from __future__ import annotations

from typing import Any

from systems.tales.data import ELEMENTS, SUMMONS


def _t(ru: str, en: str) -> dict[str, str]:
    return {"ru": ru, "en": en}


EXAMPLE = _t(
    "Пример: этих чисел нет в тексте правил, поправьте под свою игру.",
    "An example: the rules text has no numbers for it; adjust to your game.",
)


def _block(
    key: str, ru: str, en: str, state: dict[str, Any], *, note=EXAMPLE, source: str = ""
) -> dict[str, Any]:
    return {"key": key, "name": _t(ru, en), "state": state, "note": note, "source": source}


# --- Сказания волшебного мира: the summoned creatures are the rulebook's only stat blocks (§5)


def _tales() -> list[dict[str, Any]]:
    blocks = []
    by_key = {s.key: s for s in SUMMONS}
    wolf, soldier, entity = by_key["wolf"], by_key["soldier"], by_key["entity"]
    blocks.append(
        _block(
            "wolf",
            wolf.ru,
            wolf.en,
            {
                "stats": dict(wolf.stats),
                "hp": wolf.stats["str"],
                "max_hp": wolf.stats["str"],
                "natural": {"name": "Клыки", "damage": wolf.damage, "armour": wolf.armour},
            },
            note=_t(
                "Как призванный волк: сила 10, ловкость 13, разум 6.",
                "As the summoned wolf: Str 10, Dex 13, Mind 6.",
            ),
            source="«Чары»",
        )
    )
    blocks.append(
        _block(
            "soldier",
            soldier.ru,
            soldier.en,
            {
                "stats": dict(soldier.stats),
                "hp": soldier.stats["str"],
                "max_hp": soldier.stats["str"],
                "weapons": [{"key": soldier.weapon, "state": "drawn"}],
                "shield": soldier.shield,
            },
            note=_t("Обычное оружие и щит.", "An ordinary weapon and a shield."),
            source="«Чары»",
        )
    )
    for element in ELEMENTS:
        blocks.append(
            _block(
                f"elemental_{element.key}",
                f"Элементал: {element.ru.lower()}",
                f"{element.en} elemental",
                {
                    "stats": dict(entity.stats),
                    "hp": entity.stats["str"],
                    "max_hp": entity.stats["str"],
                    "natural": {
                        "name": "Удар",
                        "damage": entity.damage,
                        "armour": entity.armour,
                    },
                },
                note=_t("Как призванная сущность.", "As the summoned entity."),
                source="«Чары»",
            )
        )
    blocks.append(
        _block(
            "bandit",
            "Разбойник",
            "Bandit",
            {
                "stats": {"str": 11, "dex": 11, "mind": 9},
                "hp": 11,
                "max_hp": 11,
                "armour": "leather",
                "weapons": [{"key": "ordinary", "state": "drawn"}],
            },
        )
    )
    return blocks


# --- Crows: no bestiary in the rulebook (encounters: the Referee's book, «Встречи в подземелье»)


def _crows() -> list[dict[str, Any]]:
    def creature(key, ru, en, size, agility, reason, strength, stamina, defence=0, speed=6):
        return _block(
            key,
            ru,
            en,
            {
                "kind": "monster",
                "size": size,
                "characteristics": {"agility": agility, "reason": reason, "strength": strength},
                "stamina": stamina,
                "stamina_max": stamina,
                "speed": speed,
                "armour_defence": {"value": defence, "max": defence},
            },
        )

    return [
        creature("giant_rat", "Гигантская крыса", "Giant rat", "small", 2, -2, -1, 3),
        creature("skeleton", "Скелет", "Skeleton", "medium", 0, -3, 1, 6, defence=1),
        creature("ghoul", "Упырь", "Ghoul", "medium", 1, -1, 2, 9),
        creature("blood_creature", "Кровавое существо A", "Blood creature A", "small", 1, -2, 0, 4),
        creature("bear", "Медведь", "Bear", "large", 0, -2, 3, 18, speed=8),
    ]


# --- Dungeon World: the rulebook gives damage expressions only («Урон») ------------------------


def _dungeon_world() -> list[dict[str, Any]]:
    book_note = _t(
        "Урон из примера в тексте правил; ОЗ и броня — пример.",
        "Damage from the rules text's example; HP and armor are examples.",
    )
    return [
        _block(
            "goblin",
            "Гоблин",
            "Goblin",
            {"hp": 3, "max_hp": 3, "armor": 1, "damage": "к6", "tags": ["орда", "мелкий"]},
            note=book_note,
            source="«Урон»",
        ),
        _block(
            "warlock",
            "Колдун",
            "Warlock",
            {
                "hp": 12,
                "max_hp": 12,
                "armor": 0,
                "damage": "к10+1",
                "ignores_armor": True,
                "tags": ["одиночка", "магия"],
            },
            note=book_note,
            source="«Урон»",
        ),
        _block(
            "orc",
            "Орк",
            "Orc",
            {"hp": 6, "max_hp": 6, "armor": 1, "damage": "к8", "tags": ["группа"]},
        ),
        _block(
            "ogre",
            "Огр",
            "Ogre",
            {
                "hp": 16,
                "max_hp": 16,
                "armor": 1,
                "damage": "б[2к10]+3",
                "tags": ["одиночка", "большой", "сильный"],
            },
        ),
    ]


# --- Град Иуды: the kinds of GM characters are the rulebook's («Нанесение урона»)


def _city_of_judas() -> list[dict[str, Any]]:
    kinds_note = _t(
        "Значимость из текста правил; защита и урон — пример.",
        "The kind is from the rules text; protection and damage are examples.",
    )

    def npc(key, ru, en, kind, armor=0, shield=0, weapon=2, ap=0):
        return _block(
            key,
            ru,
            en,
            {
                "kind": kind,
                "armor": armor,
                "shield": shield,
                "weapon_damage": weapon,
                "weapon_ap": ap,
            },
            note=kinds_note,
            source="«Нанесение урона»; «Примеры хода решающий удар»",
        )

    return [
        npc("cultist", "Сектант", "Cultist", "minor", weapon=2),
        npc("guard", "Стражник", "Guard", "minor", armor=1, shield=1, weapon=3),
        npc("captain", "Капитан стражи", "Guard captain", "important", armor=2, weapon=3, ap=1),
        npc("ghoul", "Трупоед", "Ghoul", "monster", armor=1, weapon=3),
        npc("demon", "Младший демон", "Lesser demon", "demon", armor=2, weapon=4, ap=2),
        npc("duelist", "Дуэлянт-соперник", "Rival duelist", "rival", armor=1, weapon=3),
    ]


# --- Savage Worlds: extras and wild cards («Дикие карты и статисты»; «Дикий кубик»)


def _savage_worlds() -> list[dict[str, Any]]:
    def npc(key, ru, en, wild, attrs, skills, weapons, armor=0, pace=6):
        agility, smarts, spirit, strength, vigor = attrs
        return _block(
            key,
            ru,
            en,
            {
                "role": "npc",
                "wild_card": wild,
                "attributes": {
                    "agility": agility,
                    "smarts": smarts,
                    "spirit": spirit,
                    "strength": strength,
                    "vigor": vigor,
                },
                "skills": [{"key": k, "name": n, "die": d} for k, n, d in skills],
                "weapons": [{"name": n, "damage": d} for n, d in weapons],
                "armor": armor,
                "pace": pace,
            },
        )

    fighting = ("fighting", "Драка")
    notice = ("notice", "Внимание")
    return [
        npc(
            "goblin",
            "Гоблин (статист)",
            "Goblin (extra)",
            False,
            ("d8", "d6", "d6", "d4", "d6"),
            [(*fighting, "d6"), (*notice, "d6")],
            [("Копьё", "Сила+к6")],
            pace=5,
        ),
        npc(
            "orc",
            "Орк (статист)",
            "Orc (extra)",
            False,
            ("d6", "d4", "d6", "d8", "d8"),
            [(*fighting, "d8"), (*notice, "d4")],
            [("Топор", "Сила+к6")],
            armor=1,
        ),
        npc(
            "bandit",
            "Бандит (статист)",
            "Bandit (extra)",
            False,
            ("d6", "d6", "d6", "d6", "d6"),
            [(*fighting, "d6"), (*notice, "d6")],
            [("Короткий меч", "Сила+к4")],
        ),
        npc(
            "bandit_chief",
            "Главарь бандитов (дикая карта)",
            "Bandit chief (wild card)",
            True,
            ("d8", "d6", "d8", "d8", "d8"),
            [(*fighting, "d10"), (*notice, "d8")],
            [("Длинный меч", "Сила+к8")],
            armor=2,
        ),
    ]


NPC_BLOCKS: dict[str, list[dict[str, Any]]] = {
    "tales": _tales(),
    "crows": _crows(),
    "dungeon_world": _dungeon_world(),
    "city_of_judas": _city_of_judas(),
    "savage_worlds": _savage_worlds(),
}
