"""Item cards («Слоты инвентаря › Карточки предметов») as validated JSON.

The rulebook prints no item statistics: slots, stack limits other than potions 5,
locks 3 and lamp oil 2 («Слоты инвентаря»), wear-die counts, armour defence, damage tables and light
radii are all card data. A card therefore carries every number a rule needs:

``slots``, ``stack`` (per-slot limit), ``kind`` (what may share a stack, «Слоты инвентаря»),
``wear`` (count, maximum, keywords, what refuels it), ``armour`` (Защита доспеха, shield or not),
``damage`` (per-tier profile, piercing), ``light`` (X/Y and whether it burns), ``corpse`` (size and
the gear on it, «Слоты инвентаря › Переноска трупов»), and the magic flags.
"""

from __future__ import annotations

from typing import Any

from systems.core.schema import (
    BoolField,
    Choice,
    ChoiceField,
    IntField,
    ListField,
    ObjectField,
    StrField,
    fail,
    validate,
)
from systems.crows.terms import AREAS as SPELL_AREAS
from systems.crows.terms import (
    CASTING_TIMES,
    CORPSE_SLOTS,
    DISCIPLINES,
    EXPERTISES,
    MAGIC_SLOTS,
    SIZES,
    SPELL_DURATIONS,
    SPELL_TARGETS,
    WEAPON,
    WEAR_KEYWORDS,
)

# The card's limits, one home each: the schema below checks them and the inventory page's
# form reads them (``{% limit "systems.crows.items.NAME_MAX" %}``).
NAME_MAX = 100  # characters of an item's name
KIND_MAX = 60  # characters of an item kind (what stacks, what refuels, what it shoots)
STACK_MAX = 99  # items in one stack
WEAR_DICE_MAX = 20  # wear dice of one item
DEFENCE_MAX = 50  # Armour Defence of one item
TIER_MAX = 200  # characters of one damage tier (a dice notation)
LIGHT_MAX = 100  # squares of bright or dim light
NOTE_MAX = 1000  # characters of an item's notes

WEAR = ObjectField(
    ru="Кости износа",
    en="Wear dice",
    nullable=True,
    default=None,
    fields={
        "dice": IntField(ru="Осталось костей", en="Dice left", default=0, min=0, max=WEAR_DICE_MAX),
        "max": IntField(
            ru="Максимум костей", en="Maximum dice", default=0, min=0, max=WEAR_DICE_MAX
        ),
        "keywords": ListField(
            ru="Ключевые слова",
            en="Keywords",
            item=ChoiceField(default="useless", choices=WEAR_KEYWORDS),
            max_items=5,
        ),
        "refuel_with": StrField(
            ru="Чем заправлять (вид предмета)", en="Refuelled with (item kind)", max_length=KIND_MAX
        ),
        "active": BoolField(
            ru="Работает (для не-светильников)", en="Active (non-light items)", default=True
        ),
    },
)

ARMOUR = ObjectField(
    ru="Защита доспеха",
    en="Armour Defence",
    nullable=True,
    default=None,
    fields={
        "defence": IntField(
            ru="Защита доспеха", en="Armour Defence", default=0, min=0, max=DEFENCE_MAX
        ),
        "max": IntField(
            ru="Максимум защиты", en="Maximum defence", default=0, min=0, max=DEFENCE_MAX
        ),
        "shield": BoolField(ru="Щит", en="Shield"),
    },
)

ATTACK_TYPES: tuple[Choice, ...] = (
    Choice("melee", "Ближняя", "Melee"),
    Choice("ranged", "Дальняя", "Ranged"),
    Choice("thrown", "Метательное", "Thrown"),
)
WEAPON_EXPERTISE: tuple[Choice, ...] = (
    Choice("", "—", "—"),
    *(Choice(e.key, e.ru, e.en) for e in EXPERTISES if e.category == WEAPON),
)

WEAPON_CHECKS: tuple[Choice, ...] = (
    Choice(
        "",
        "По виду атаки (ближняя — Сила, дальняя — Ловкость)",
        "By attack (melee Str, ranged Agi)",
    ),
    Choice("strength", "Сила", "Strength"),
    Choice("agility", "Ловкость", "Agility"),
    Choice("agility_or_strength", "Ловкость или Сила", "Agility or Strength"),
    Choice("reason", "Разум", "Reason"),
)

DAMAGE = ObjectField(
    ru="Урон по ступеням",
    en="Damage profile",
    nullable=True,
    default=None,
    fields={
        "type": ChoiceField(ru="Атака", en="Attack", default="melee", choices=ATTACK_TYPES),
        "check": ChoiceField(
            ru="Проверка атаки", en="Attack check", default="", choices=WEAPON_CHECKS
        ),
        "range": IntField(ru="Дальность", en="Range", default=0, min=0, max=200),
        "reach": IntField(ru="Досягаемость", en="Reach", default=1, min=0, max=10),
        "expertise": ChoiceField(
            ru="Оружейная экспертиза", en="Weapon expertise", default="", choices=WEAPON_EXPERTISE
        ),
        "tier1": StrField(ru="1-я ступень", en="Tier 1", max_length=TIER_MAX),
        "tier2": StrField(ru="2-я ступень", en="Tier 2", max_length=TIER_MAX),
        "tier3": StrField(ru="3-я ступень", en="Tier 3", max_length=TIER_MAX),
        "piercing": BoolField(ru="Пробивающий урон", en="Piercing damage"),
        "ammo": StrField(
            ru="Боеприпас (вид предмета)",
            en="Ammunition (item kind)",
            max_length=KIND_MAX,
            internal=True,
        ),
    },
)

LIGHT = ObjectField(
    ru="Свет X/Y",
    en="Light X/Y",
    nullable=True,
    default=None,
    fields={
        "bright": IntField(
            ru="Яркий, клеток", en="Bright squares", default=0, min=0, max=LIGHT_MAX
        ),
        "dim": IntField(ru="Тусклый, клеток", en="Dim squares", default=0, min=0, max=LIGHT_MAX),
        "lit": BoolField(ru="Горит", en="Lit"),
    },
)

CORPSE = ObjectField(
    ru="Труп",
    en="Corpse",
    nullable=True,
    default=None,
    fields={
        "size": ChoiceField(ru="Размер", en="Size", default="medium", choices=SIZES),
        "gear_slots": IntField(
            ru="Слоты снаряжения на трупе", en="Slots of gear on it", default=0, min=0, max=99
        ),
        "monster": BoolField(ru="Труп монстра", en="A monster's corpse", default=True),
    },
)

SPELL_ATTACKS: tuple[Choice, ...] = (
    Choice("", "Не атака", "Not an attack"),
    Choice("melee", "Ближняя атака", "Melee attack"),
    Choice("ranged", "Дальняя атака", "Ranged attack"),
)

SPELL = ObjectField(
    ru="Заклинание книги",
    en="The book's spell",
    nullable=True,
    default=None,
    fields={
        "name": StrField(ru="Заклинание", en="Spell", max_length=100),
        "rank": IntField(ru="Ранг", en="Rank", default=0, min=0, max=5),
        "discipline": ChoiceField(
            ru="Дисциплина", en="Discipline", default="elements", choices=DISCIPLINES
        ),
        "casting_time": ChoiceField(
            ru="Время сотворения", en="Casting time", default="action", choices=CASTING_TIMES
        ),
        "trigger": StrField(ru="Триггер реакции", en="Reaction trigger", max_length=200),
        "target": ChoiceField(ru="Цель", en="Target", default="number", choices=SPELL_TARGETS),
        "count": IntField(ru="Число целей", en="Number of targets", default=1, min=0, max=20),
        "range": IntField(ru="Дальность, клеток", en="Range, squares", default=0, min=0, max=500),
        "area": ChoiceField(ru="Область", en="Area", default="none", choices=SPELL_AREAS),
        "area_size": IntField(ru="Размер области", en="Area size", default=0, min=0, max=100),
        "area_width": IntField(ru="Ширина линии", en="Line width", default=1, min=1, max=100),
        "duration": ChoiceField(
            ru="Длительность", en="Duration", default="instant", choices=SPELL_DURATIONS
        ),
        "duration_dice": IntField(
            ru="Кости износа эффекта", en="Effect wear dice", default=0, min=0, max=20
        ),
        "attack": ChoiceField(
            ru="Заклинание-атака", en="Attack spell", default="", choices=SPELL_ATTACKS
        ),
        "tier1": StrField(ru="1-я ступень", en="Tier 1", max_length=500),
        "tier2": StrField(ru="2-я ступень", en="Tier 2", max_length=500),
        "tier3": StrField(ru="3-я ступень", en="Tier 3", max_length=500),
        "piercing": BoolField(ru="Пробивающий урон", en="Piercing damage"),
        "summon": ObjectField(
            ru="Призванное существо",
            en="Summoned creature",
            nullable=True,
            default=None,
            fields={
                "name": StrField(ru="Имя", en="Name", max_length=100),
                "size": ChoiceField(ru="Размер", en="Size", default="medium", choices=SIZES),
                "stamina": IntField(ru="Выносливость", en="Stamina", default=1, min=0, max=999),
                "speed": IntField(ru="Скорость", en="Speed", default=6, min=0, max=99),
                "count": IntField(ru="Сколько", en="How many", default=1, min=1, max=20),
            },
        ),
    },
)
ITEM = ObjectField(
    ru="Карточка предмета",
    en="Item card",
    fields={
        "id": StrField(ru="Идентификатор", en="Id", required=True, max_length=64, internal=True),
        "name": StrField(ru="Название", en="Name", max_length=NAME_MAX),
        "kind": StrField(
            ru="Вид (что складывается в стопку)",
            en="Kind (what may stack)",
            max_length=KIND_MAX,
            internal=True,
        ),
        "slots": IntField(ru="Слотов", en="Slots", default=1, min=1, max=64),
        "stack": IntField(ru="Предел стопки", en="Stack limit", default=1, min=1, max=STACK_MAX),
        "magic": BoolField(ru="Магический", en="Magical"),
        "magic_slot": ChoiceField(
            ru="Слот магического предмета",
            en="Magic item slot",
            default="",
            choices=(Choice("", "—", "—"), *MAGIC_SLOTS),
        ),
        "identified": BoolField(ru="Свойства известны", en="Identified", default=True),
        "spellbook": BoolField(ru="Книга заклинаний", en="Spellbook"),
        "fragile": BoolField(ru="Хрупкий", en="Fragile"),
        "useless": BoolField(ru="Бесполезен", en="Useless"),
        "value": IntField(ru="Ценность, монет", en="Value, coins", default=0, min=0, max=10**9),
        "wear": WEAR,
        "armour": ARMOUR,
        "damage": DAMAGE,
        "light": LIGHT,
        "corpse": CORPSE,
        "spell": SPELL,
        "note": StrField(ru="Заметки", en="Notes", max_length=NOTE_MAX),
    },
)


def stack_kind(card: dict[str, Any]) -> str:
    """Items of one kind may share a stack («Слоты инвентаря»); an unnamed kind falls back to the
    name."""
    return (card.get("kind") or card.get("name") or card["id"]).strip().casefold()


def clean_item(card: dict[str, Any], *, path: str = "item") -> dict[str, Any]:
    """A validated deep copy of a card with defaults filled in; cross-field rules checked."""
    if not isinstance(card, dict):
        raise fail(path, "Ожидается карточка предмета.", "Expected an item card.")
    clean = validate(ITEM, card, path=path)
    if not clean["id"]:
        raise fail(f"{path}.id", "У предмета нет идентификатора.", "The item has no id.")
    wear = clean["wear"]
    if wear is not None:
        if wear["max"] == 0 and wear["dice"] > 0:
            wear["max"] = wear["dice"]
        if wear["dice"] > wear["max"]:
            raise fail(
                f"{path}.wear.dice",
                "Костей износа больше максимума.",
                "More wear dice than the maximum.",
            )
        wear["keywords"] = list(dict.fromkeys(wear["keywords"]))
    armour = clean["armour"]
    if armour is not None:
        if armour["max"] == 0 and armour["defence"] > 0:
            armour["max"] = armour["defence"]
        if armour["defence"] > armour["max"]:
            raise fail(
                f"{path}.armour.defence",
                "Защита доспеха больше максимума.",
                "Armour Defence above its maximum.",
            )
    if clean["magic_slot"] and not clean["magic"]:
        raise fail(
            f"{path}.magic_slot",
            "Слот магического предмета бывает только у магического предмета.",
            "Only a magic item has a magic item slot.",
        )
    if clean["spell"] is not None:
        clean["spellbook"] = (
            True  # spells are printed on spellbook cards («Заклинания › Книги заклинаний»)
        )
    corpse = clean["corpse"]
    if corpse is not None:
        base, limit = CORPSE_SLOTS[corpse["size"]]
        clean["slots"] = (
            base + corpse["gear_slots"]
        )  # «Слоты инвентаря › Переноска трупов»: its size's slots plus its gear
        clean["stack"] = limit
    return clean


def make_item(item_id: str, name: str = "", **fields: Any) -> dict[str, Any]:
    """Build a valid card from keyword fields (tests, demo data, the web layer's defaults)."""
    return clean_item({"id": item_id, "name": name or item_id, **fields})


def corpse_card(
    item_id: str,
    name: str,
    size: str,
    *,
    gear: list[dict[str, Any]] | None = None,
    monster: bool = True,
) -> dict[str, Any]:
    """A corpse to carry («Слоты инвентаря › Переноска трупов»): slots of its size plus the slots of
    the gear on it.

    The corpse and its gear are one block of one slot type (our reading); so a Large
    corpse (8) fits only a backpack and Huge (16) or Охренеть! (32) fits no single PC.
    """
    gear_slots = sum(clean_item(g)["slots"] for g in (gear or []))
    return clean_item(
        {
            "id": item_id,
            "name": name,
            "kind": f"corpse:{size}:{name}".casefold(),
            "corpse": {"size": size, "gear_slots": gear_slots, "monster": monster},
        }
    )
