"""Crows moves and sheet actions as data (names, seed lines, parameters, tier texts).

``describe()`` is built from these specs and ``resolve`` validates parameters with them, so a
form and the rule that runs can never disagree. ``subject`` says whose state ``resolve``
takes: a creature sheet (``"character"``) or the campaign's dungeon clock (``"campaign"``).
"""

from __future__ import annotations

from typing import Any

from systems.core.outcome import Option, Text
from systems.core.schema import (
    REFEREE,
    BoolField,
    Choice,
    ChoiceField,
    Field,
    IntField,
    ListField,
    MoveSpec,
    ObjectField,
    OptionSet,
    StrField,
)
from systems.crows.checks import SOURCES
from systems.crows.items import ITEM
from systems.crows.sheet import EFFECT
from systems.crows.state_b import COMBAT
from systems.crows.terms import (
    ACTIVITIES,
    CHARACTERISTICS,
    CONDITION_CHOICES,
    END_TRIGGERS,
    LIGHT_LEVELS,
    MAGIC_SLOTS,
    SIZES,
)


def _t(ru: str, en: str) -> Text:
    return Text(ru, en)


TIER_TEXT: dict[str, Text] = {
    "1": _t(
        "1-я ступень: вы не сделали задуманного и можете нарваться на неприятность.",
        "Tier 1: you fail and may run into trouble.",
    ),
    "2": _t(
        "2-я ступень: частичный успех или успех ценой чего-то; решает Рефери.",
        "Tier 2: partial success or success at a cost; the Referee decides.",
    ),
    "3": _t(
        "3-я ступень: вы сделали задуманное без осложнений.",
        "Tier 3: you do it with no complications.",
    ),
}
CRIT_TEXT = _t("Крит: 3-я ступень и ещё кое-что сверху.", "Crit: tier 3 and something extra.")
DOOM_TEXT = _t(
    "Рок: 1-я ступень и серьёзная неприятность.",
    "Doom: tier 1 and serious trouble.",
)
NO_EXPERTISE = Option("none", "Без экспертизы", "No expertise")

KINDS: tuple[Choice, ...] = (
    Choice("general", "Обычная проверка", "Ordinary check"),
    Choice("attack", "Атака", "Attack"),
    Choice("casting", "Сотворение", "Casting"),
)
ATTACKS: tuple[Choice, ...] = (
    Choice("", "—", "—"),
    Choice("melee", "Ближняя", "Melee"),
    Choice("ranged", "Дальняя", "Ranged"),
)
PURPOSES: tuple[Choice, ...] = (
    Choice("", "—", "—"),
    Choice(
        "perceive",
        "Разглядеть детали, найти что-то или кого-то, заметить",
        "Discern details, find something or someone, notice",
    ),
)
SOURCE_CHOICES: tuple[Choice, ...] = tuple(Choice(s.key, s.ru, s.en) for s in SOURCES)

CHECK_PARAMS: dict[str, Field] = {
    "characteristic": ChoiceField(
        ru="Характеристика",
        en="Characteristic",
        default=None,
        required=True,
        choices=CHARACTERISTICS,
    ),
    "sources": ListField(
        ru="Преимущества и помехи",
        en="Advantages and disadvantages",
        item=ChoiceField(default="advantage", choices=SOURCE_CHOICES),
        max_items=20,
    ),
    "advantages": IntField(
        ru="Прочие преимущества", en="Other advantages", default=0, min=0, max=5
    ),
    "disadvantages": IntField(
        ru="Прочие помехи", en="Other disadvantages", default=0, min=0, max=5
    ),
    "bonus": IntField(
        ru="Бонусы и штрафы (не преимущества)",
        en="Flat bonuses and penalties",
        default=0,
        min=-20,
        max=20,
    ),
    "help": ListField(
        ru="Помощь (−1, +1, +2 от каждой проверки помощи)",
        en="Help (−1, +1, +2 from each help check)",
        item=IntField(default=1, min=-1, max=2),
        max_items=10,
    ),
    "purpose": ChoiceField(ru="Цель проверки", en="Purpose", default="", choices=PURPOSES),
    "light": ChoiceField(
        ru="Свет там, где цель / куда смотрите",
        en="Light at the target / where you look",
        default="bright",
        choices=LIGHT_LEVELS,
    ),
    "task": StrField(
        ru="Задача (для подготовки и повторных попыток)",
        en="Task (for preparation and retries)",
        max_length=200,
    ),
    "circumstances_changed": BoolField(
        ru="Обстоятельства существенно изменились (повтор разрешён)",
        en="Circumstances changed materially (retry allowed)",
    ),
    "any_expertise": BoolField(
        ru="Рефери разрешает экспертизу другой категории",
        en="The Referee allows an expertise of another category",
    ),
}

ATTACK_PARAMS: dict[str, Field] = {
    "kind": ChoiceField(ru="Вид проверки", en="Kind of check", default="general", choices=KINDS),
    "attack": ChoiceField(ru="Атака", en="Attack", default="", choices=ATTACKS),
    "spell": BoolField(ru="Атака заклинанием", en="Spell attack"),
    "target_conditions": ListField(
        ru="Состояния цели",
        en="Target's conditions",
        item=ChoiceField(default="prone", choices=CONDITION_CHOICES),
        max_items=6,
    ),
    "weapon_range": IntField(
        ru="Дальность оружия", en="Weapon range", nullable=True, default=None, min=0, max=200
    ),
    "distance": IntField(
        ru="Расстояние до цели",
        en="Distance to target",
        nullable=True,
        default=None,
        min=0,
        max=1000,
    ),
    "on_own_turn": BoolField(ru="В свой ход", en="On your own turn", default=True),
    # the same situation the attack move reads (attacks.attack_modifiers)
    "combat": COMBAT,
    "target_combatant": StrField(
        ru="Цель в бою (её номер в бою; застигнута ли врасплох, видно из боя)",
        en="The target in the combat (its id; the combat says whether it is surprised)",
        max_length=64,
    ),
    "squeezing": BoolField(ru="Цель протискивается (+1)", en="Target squeezing (+1)"),
}

DAMAGE_ROUTING: dict[str, Field] = {
    "armour_order": ListField(
        ru="Порядок Защиты доспеха (щит, доспех, естественная защита)",
        en="Armour Defence order (shield/armour ids, natural)",
        item=StrField(max_length=64),
        max_items=5,
    ),
    "wound_slots": ListField(
        ru="Слоты рюкзака для новых ран",
        en="Backpack slots for new wounds",
        item=IntField(default=1, min=1, max=10),
        max_items=10,
    ),
}


def _params(*groups: dict[str, Field], **fields: Field) -> ObjectField:
    merged: dict[str, Field] = {}
    for group in groups:
        merged.update(group)
    merged.update(fields)
    return ObjectField(fields=merged)


def _item_id(ru: str = "Предмет", en: str = "Item") -> StrField:
    return StrField(ru=ru, en=en, required=True, max_length=64)


def _move(key: str, ru: str, en: str, trigger: Text, source: str, **kwargs: Any) -> MoveSpec:
    return MoveSpec(key=key, ru=ru, en=en, trigger=trigger, source=source, **kwargs)


def _action(key: str, ru: str, en: str, trigger: Text, source: str, **kwargs: Any) -> MoveSpec:
    return MoveSpec(key=key, ru=ru, en=en, trigger=trigger, source=source, kind="action", **kwargs)


HIDE_COST = OptionSet(
    pick=1,
    chooser=REFEREE,
    options=(
        Option("hidden_at_cost", "Скрыт, но ценой чего-то", "Hidden, at a cost"),
        Option("partial", "Частично: ещё не скрыт, бросайте дальше", "Partly: not yet, roll on"),
    ),
)

MOVES: tuple[MoveSpec, ...] = (
    # --- checks -------------------------------------------------------------------------------
    _move(
        "check",
        "Проверка",
        "Check",
        _t(
            "Рискованное дело с реальным шансом провала: 2d10 + характеристика.",
            "A risky task with a real chance of failure: 2d10 + characteristic.",
        ),
        "L152-L293",
        roll="2d10",
        params=_params(CHECK_PARAMS, ATTACK_PARAMS),
        results=TIER_TEXT,
    ),
    _move(
        "help",
        "Помощь",
        "Help",
        _t(
            "Отдельная проверка до той, которой помогаете: ≤11 даёт −1, 12–16 +1, 17+ +2 .",
            "A separate check before the one you help: ≤11 gives −1, 12–16 +1, 17+ +2.",
        ),
        "L299-L309",
        roll="2d10",
        params=_params(
            CHECK_PARAMS, helping=StrField(ru="Кому помогаете", en="Whom you help", max_length=100)
        ),
        results={
            "1": _t("Проверка, которой вы помогаете, получает −1.", "The helped check gets −1."),
            "2": _t("Проверка, которой вы помогаете, получает +1.", "The helped check gets +1."),
            "3": _t("Проверка, которой вы помогаете, получает +2.", "The helped check gets +2."),
        },
    ),
    _move(
        "group_check",
        "Групповая проверка",
        "Group check",
        _t(
            "Лидер бросает после проверок помощи остальных; его результат — для всех.",
            "The leader rolls after everyone else's help checks; the result holds for all .",
        ),
        "L329-L333",
        roll="2d10",
        params=_params(
            CHECK_PARAMS,
            helpers=ListField(
                ru="Помощники",
                en="Helpers",
                max_items=10,
                item=ObjectField(
                    ru="Помощник",
                    en="Helper",
                    fields={
                        "name": StrField(ru="Имя", en="Name", max_length=100),
                        "modifier": IntField(
                            ru="Итог помощи", en="Help result", default=1, min=-1, max=2
                        ),
                    },
                ),
            ),
        ),
        results=TIER_TEXT,
    ),
    _move(
        "resistance",
        "Бросок сопротивления",
        "Resistance roll",
        _t(
            "Ответ на опасность — взрыв, дурманящую магию, яд; ступени задаёт эффект.",
            "A response to danger — blast, mind magic, poison; the effect sets the tiers.",
        ),
        "L321-L327",
        roll="2d10",
        params=_params(
            CHECK_PARAMS,
            hidden_source=BoolField(
                ru="Бросок навязал скрытый от вас", en="Forced by a creature hidden from you"
            ),
        ),
        results=TIER_TEXT,
    ),
    _move(
        "hide",
        "Прятаться и красться",
        "Hide and sneak",
        _t(
            "Спрятаться можно только от того, кто за вами не наблюдает; крадясь быстрее "
            "половины скорости — с помехой.",
            "Hide only from one not watching you; sneaking faster than half speed has "
            "disadvantage.",
        ),
        "L335-L337",
        roll="2d10",
        params=_params(
            CHECK_PARAMS,
            observed=BoolField(ru="За вами наблюдают", en="You are being watched"),
            moved=IntField(
                ru="Пройдено клеток, крадучись",
                en="Squares moved sneaking",
                default=0,
                min=0,
                max=100,
            ),
        ),
        results=TIER_TEXT,
        options={"2": HIDE_COST},
    ),
    # --- hazards and damage -------------------------------------------------------------------
    _move(
        "fall",
        "Падение",
        "Falling",
        _t(
            "1d6 пробивающего урона за каждые 10 футов; реакцией — бросок сопротивления "
            "2d10 + Ловкость.",
            "1d6 piercing per 10 ft; as a reaction a 2d10 + Agility resistance roll.",
        ),
        "L614-L622",
        roll="2d10",
        params=_params(
            DAMAGE_ROUTING,
            feet=IntField(ru="Высота, футов", en="Height, feet", default=10, min=0, max=10_000),
            resist=BoolField(
                ru="Бросок сопротивления (реакция)", en="Resistance roll (reaction)", default=True
            ),
            sources=CHECK_PARAMS["sources"],
            bonus=CHECK_PARAMS["bonus"],
        ),
        results={
            "1": _t("Эффекта нет.", "No effect."),
            "2": _t("Урон снижается на 1d6.", "Damage −1d6."),
            "3": _t("Урон снижается на 2d6.", "Damage −2d6."),
        },
    ),
    _move(
        "suffocate",
        "Удушье",
        "Suffocation",
        _t(
            "Дыхание задерживают на 3 + Сила раундов; потом 1d6 урона в начале каждого раунда .",
            "Hold breath for 3 + Strength rounds; then 1d6 damage at the start of each round .",
        ),
        "L628-L630",
        params=_params(
            DAMAGE_ROUTING,
            round=IntField(
                ru="Раунд без воздуха", en="Round without air", default=1, min=1, max=10_000
            ),
        ),
    ),
    _action(
        "take_damage",
        "Получить урон",
        "Take damage",
        _t(
            "Урон снимает Защиту доспеха, затем Выносливость, затем даёт раны.",
            "Damage takes Armour Defence, then Stamina, then gives wounds.",
        ),
        "L418-L438",
        params=_params(
            DAMAGE_ROUTING,
            amount=IntField(ru="Урон", en="Damage", nullable=True, default=None, min=0, max=10_000),
            damage_dice=StrField(
                ru="Или кости (2d6, 1к10)", en="Or dice (2d6, 1d10)", max_length=60
            ),
            piercing=BoolField(ru="Пробивающий", en="Piercing"),
            knock_out=BoolField(
                ru="Лишить сознания вместо смерти (Рефери согласен)",
                en="Knock out instead of killing (Referee agrees)",
            ),
        ),
    ),
    _action(
        "take_wounds",
        "Получить раны",
        "Take wounds",
        _t(
            "Раны напрямую, не урон (перегрузка магических слотов, отдача).",
            "Wounds directly, not damage (magic-slot overload, backlash).",
        ),
        "L375, L438",
        params=_params(
            count=IntField(ru="Ран", en="Wounds", nullable=True, default=None, min=0, max=10),
            wound_dice=StrField(ru="Или кости (1d6)", en="Or dice (1d6)", max_length=60),
            wound_slots=DAMAGE_ROUTING["wound_slots"],
            hunger=BoolField(ru="Раны от голода", en="Hunger wounds"),
        ),
    ),
    _action(
        "hunger",
        "День без еды",
        "A day without food",
        _t(
            "За каждый день без пайка — рана от голода.",
            "Each day without a ration gives a hunger wound.",
        ),
        "L626",
        params=_params(
            days=IntField(ru="Дней", en="Days", default=1, min=1, max=10),
            wound_slots=DAMAGE_ROUTING["wound_slots"],
        ),
    ),
    _action(
        "eat",
        "Съесть паёк",
        "Eat a ration",
        _t("Паёк снимает все раны от голода.", "A ration removes all hunger wounds."),
        "L626",
        params=_params(
            item_id=StrField(ru="Паёк из инвентаря", en="Ration from the inventory", max_length=64)
        ),
    ),
    _action(
        "remove_wound",
        "Снять рану",
        "Remove a wound",
        _t("Снять одну рану (лечение, отдых).", "Remove one wound (healing, rest)."),
        "L438",
        params=_params(
            slot=IntField(ru="Слот", en="Slot", nullable=True, default=None, min=1, max=10)
        ),
    ),
    _action(
        "move_wound",
        "Переложить рану",
        "Move a wound",
        _t(
            "Рана занимает слот рюкзака на выбор персонажа.",
            "A wound sits in a backpack slot of the character's choice.",
        ),
        "L438",
        params=_params(
            from_slot=IntField(ru="Из слота", en="From slot", default=1, min=1, max=10),
            to_slot=IntField(ru="В слот", en="To slot", default=1, min=1, max=10),
        ),
    ),
    _action(
        "restore_stamina",
        "Восстановить Выносливость",
        "Restore Stamina",
        _t("Лечение или отдых.", "Healing or a rest."),
        "L528",
        params=_params(
            amount=IntField(ru="Сколько", en="How much", default=0, min=0, max=999),
            full=BoolField(ru="Полностью", en="Fully"),
        ),
    ),
    # --- conditions ---------------------------------------------------------------------------
    _action(
        "add_condition",
        "Получить состояние",
        "Gain a condition",
        _t(
            "Второй экземпляр состояния получить нельзя.",
            "A condition cannot be had twice.",
        ),
        "L440-L468",
        params=_params(
            condition=ChoiceField(
                ru="Состояние",
                en="Condition",
                default=None,
                required=True,
                choices=CONDITION_CHOICES,
            ),
            by=StrField(ru="Кем / чем", en="By whom / what", max_length=100),
            range=IntField(ru="Дальность захвата", en="Grab range", default=1, min=0, max=100),
            knocked_out=BoolField(ru="Оглушён вместо смерти", en="Knocked out instead of killed"),
        ),
    ),
    _action(
        "remove_condition",
        "Снять состояние",
        "End a condition",
        _t("Состояние закончилось.", "A condition ends."),
        "L440-L468",
        params=_params(
            condition=ChoiceField(
                ru="Состояние",
                en="Condition",
                default=None,
                required=True,
                choices=CONDITION_CHOICES,
            ),
            reason=ChoiceField(
                ru="Почему закончилось", en="Why it ends", default="referee", choices=END_TRIGGERS
            ),
        ),
    ),
    _action(
        "stand",
        "Встать",
        "Stand",
        _t(
            "Манёвр: встать и снять «Сбит с ног», если скорость 1 или выше.",
            "Maneuver: stand and end Prone if your speed is 1 or more.",
        ),
        "L456, L733",
    ),
    _action(
        "drop_prone",
        "Лечь",
        "Drop prone",
        _t(
            "В бою можно лечь в свой ход без действия.",
            "In combat you may drop prone on your turn for free.",
        ),
        "L456",
    ),
    _action(
        "wake",
        "Проснуться",
        "Wake up",
        _t(
            "Урон, громкий шум в пределах 10 клеток.",
            "Damage, or a loud noise within 10 squares.",
        ),
        "L464",
        params=_params(
            distance=IntField(
                ru="Расстояние до шума",
                en="Distance to the noise",
                nullable=True,
                default=None,
                min=0,
                max=1000,
            )
        ),
    ),
    _action(
        "reveal",
        "Обнаружен",
        "Revealed",
        _t(
            "Скрытый, сделав что-то агрессивное, обнаруживает себя.",
            "A hidden creature doing something aggressive is noticed.",
        ),
        "L337",
    ),
    # --- inventory ----------------------------------------------------------------------------
    _action(
        "place_item",
        "Положить предмет",
        "Place an item",
        _t(
            "Слоты под предмет — одного типа и подряд; стопки одного вида.",
            "An item's slots are one type and contiguous; stacks are one kind.",
        ),
        "L354-L360",
        params=_params(
            item=ObjectField(ru="Карточка", en="Card", fields=ITEM.fields),
            target=StrField(
                ru="Куда",
                en="Where",
                default="backpack",
                max_length=60,
            ),
        ),
    ),
    _action(
        "move_item",
        "Переложить предмет",
        "Move an item",
        _t(
            "Вне раундов — свободно; в раундах руки↔пояс — манёвр.",
            "Free out of rounds; hands↔belt costs a maneuver in rounds.",
        ),
        "L393-L399",
        params=_params(
            item_id=_item_id(),
            target=StrField(ru="Куда", en="Where", required=True, max_length=60),
            in_rounds=BoolField(ru="Идут боевые раунды", en="In round-timed play"),
        ),
    ),
    _action(
        "drop_item",
        "Бросить предмет",
        "Drop an item",
        _t("Предмет больше не в инвентаре.", "The item leaves the inventory."),
        "L395",
        params=_params(item_id=_item_id()),
    ),
    _action(
        "retrieve",
        "Достать из рюкзака",
        "Retrieve from backpack",
        _t(
            "Манёвр и 1d10: не меньше номера слота рюкзака с предметом.",
            "A maneuver and 1d10: at least the number of a backpack slot it is in.",
        ),
        "L397, L725",
        roll="1d10",
        params=_params(
            item_id=_item_id(),
            make_room=ChoiceField(
                ru="Что в руках",
                en="What is in hand",
                default="swap",
                choices=(
                    Choice("swap", "Поменять местами", "Swap"),
                    Choice("drop", "Бросить", "Drop"),
                ),
            ),
            release=ListField(
                ru="Освободить руки от",
                en="Free hands of",
                item=StrField(max_length=64),
                max_items=2,
            ),
        ),
    ),
    _action(
        "dump_backpack",
        "Вытряхнуть рюкзак",
        "Dump backpack",
        _t(
            "Манёвр: бросить любое число предметов из рюкзака.",
            "Maneuver: drop any number of backpack items.",
        ),
        "L399, L731",
        params=_params(
            item_ids=ListField(
                ru="Что (пусто — всё)",
                en="Which (empty: all)",
                item=StrField(max_length=64),
                max_items=16,
            )
        ),
    ),
    _action(
        "wear_armour",
        "Надеть доспех",
        "Wear armour",
        _t(
            "Один доспех (не щит) в слотах рюкзака; не в боевых раундах.",
            "One armour (not a shield) in backpack slots; not in round-timed play.",
        ),
        "L385-L387",
        params=_params(
            item_id=_item_id(),
            in_rounds=BoolField(ru="Идут боевые раунды", en="In round-timed play"),
        ),
    ),
    _action(
        "take_off_armour",
        "Снять доспех",
        "Take off armour",
        _t("Доспех больше не надет.", "The armour is no longer worn."),
        "L387",
    ),
    _action(
        "equip_magic",
        "Надеть магический предмет",
        "Wear a magic item",
        _t(
            "Больше одного предмета в слоте: нельзя отдыхать и 1d6 ран за ход.",
            "More than one item in a slot: no rest and 1d6 wounds a turn.",
        ),
        "L362-L375",
        params=_params(
            item_id=_item_id(),
            magic_slot=ChoiceField(
                ru="Слот", en="Slot", default=None, required=True, choices=MAGIC_SLOTS
            ),
        ),
    ),
    _action(
        "unequip_magic",
        "Снять магический предмет",
        "Take off a magic item",
        _t("Предмет возвращается в инвентарь.", "The item goes back to the inventory."),
        "L362-L375",
        params=_params(
            item_id=_item_id(),
            target=StrField(ru="Куда", en="Where", default="backpack", max_length=60),
        ),
    ),
    _action(
        "light",
        "Зажечь",
        "Light",
        _t("Источник света X/Y.", "A light source X/Y."),
        "L578",
        params=_params(item_id=_item_id()),
    ),
    _action(
        "extinguish",
        "Потушить",
        "Put out",
        _t(
            "Кости износа, которые бросают в конце хода, бросают и при тушении.",
            "Turn-end wear dice also roll when the light is put out.",
        ),
        "L606-L608",
        params=_params(item_id=_item_id()),
    ),
    _action(
        "use_item",
        "Использовать предмет",
        "Use an item",
        _t(
            "«Активация»: кости износа после первичных эффектов.",
            "Activation: wear dice after the primary effects.",
        ),
        "L481",
        params=_params(item_id=_item_id()),
    ),
    _action(
        "refuel",
        "Заправить",
        "Refuel",
        _t(
            "«Заправка»: максимум костей восстанавливает названный предмет.",
            "Refuel: the named item restores the maximum.",
        ),
        "L479",
        params=_params(item_id=_item_id(), fuel_id=_item_id("Топливо", "Fuel")),
    ),
    _action(
        "add_effect",
        "Добавить эффект",
        "Add an effect",
        _t("Эффект с костями износа или длительностью.", "An effect with wear dice or a duration."),
        "L472, L1279-L1281",
        params=_params(effect=ObjectField(ru="Эффект", en="Effect", fields=EFFECT.fields)),
    ),
    _action(
        "remove_effect",
        "Снять эффект",
        "End an effect",
        _t("Эффект закончился.", "An effect ends."),
        "L472",
        params=_params(effect_id=_item_id("Эффект", "Effect")),
    ),
    # --- rest ---------------------------------------------------------------------------------
    _action(
        "end_rest",
        "Закончить отдых",
        "Finish a rest",
        _t(
            "6 часов, из них 4 сна, 1 паёк: вся Выносливость, −1 рана, экспертизы.",
            "6 hours, 4 asleep, 1 ration: all Stamina, −1 wound, expertise uses.",
        ),
        "L526-L570",
        params=_params(
            hours=IntField(ru="Часов отдыха", en="Hours of rest", default=6, min=0, max=48),
            slept=IntField(ru="Часов сна", en="Hours asleep", default=4, min=0, max=48),
            rations=IntField(ru="Съедено пайков", en="Rations eaten", default=1, min=0, max=10),
            activity=ChoiceField(ru="Занятие", en="Activity", default="", choices=ACTIVITIES),
            task=StrField(ru="Задача", en="Task", max_length=200),
            item_id=StrField(ru="Предмет", en="Item", max_length=64),
            corpse_size=ChoiceField(
                ru="Размер трупа",
                en="Corpse size",
                default="",
                choices=(Choice("", "—", "—"), *SIZES),
            ),
            remove_wound=IntField(
                ru="Какую рану снять",
                en="Which wound to remove",
                nullable=True,
                default=None,
                min=1,
                max=10,
            ),
            tended=BoolField(ru="Раны обработал другой", en="Wounds tended by another"),
            miasma=BoolField(ru="Отдых в Миазме", en="Rest in the Miasma"),
        ),
    ),
    _action(
        "town_activity",
        "Занятие в городе",
        "Town activity",
        _t(
            "Около 2 часов, до 4 в день без отдыха.",
            "About 2 hours, up to 4 a day without a rest.",
        ),
        "L572-L574",
        params=_params(
            day=IntField(ru="День", en="Day", default=1, min=0, max=100_000),
            activity=ChoiceField(ru="Занятие", en="Activity", default="", choices=ACTIVITIES),
            task=StrField(ru="Задача", en="Task", max_length=200),
            item_id=StrField(ru="Предмет", en="Item", max_length=64),
            corpse_size=ChoiceField(
                ru="Размер трупа",
                en="Corpse size",
                default="",
                choices=(Choice("", "—", "—"), *SIZES),
            ),
        ),
    ),
    _action(
        "town_tend",
        "Обработать раны в городе",
        "Tend wounds in town",
        _t(
            "Раз в день; помогает после 4 часов сна.",
            "Once a day; works after 4 hours of sleep.",
        ),
        "L570, L574",
        params=_params(day=IntField(ru="День", en="Day", default=1, min=0, max=100_000)),
    ),
    _action(
        "town_sleep",
        "Сон в городе",
        "Sleep in town",
        _t("После обработки ран — снять 2 раны.", "After tending — remove 2 wounds."),
        "L574",
        params=_params(hours=IntField(ru="Часов сна", en="Hours asleep", default=8, min=0, max=24)),
    ),
    _action(
        "clear_retry_lock",
        "Разрешить повтор",
        "Allow a retry",
        _t(
            "Рефери решает, что обстоятельства изменились.",
            "The Referee rules that circumstances changed.",
        ),
        "L200-L202",
        params=_params(task=StrField(ru="Задача", en="Task", required=True, max_length=200)),
    ),
    _action(
        "d100",
        "Бросок d100",
        "Roll d100",
        _t(
            "2d10: десятки и единицы; 10 — это 0, две десятки — 100.",
            "2d10 as tens and units; 10 is 0, two tens are 100.",
        ),
        "L108",
        roll="d100",
    ),
    _action(
        "ranged_miss",
        "Промах по цели рядом с союзниками",
        "Ranged miss near allies",
        _t(
            "Нечётная кость — союзник получает урон 2-й ступени; рок — 3-й.",
            "An odd die — an ally takes tier-2 damage; a doom — tier 3.",
        ),
        "L801-L803",
        params=_params(
            allies_adjacent=IntField(
                ru="Союзников рядом с целью",
                en="Allies next to the target",
                default=1,
                min=0,
                max=8,
            ),
            doom=BoolField(ru="Выпал рок", en="It was a doom"),
        ),
    ),
    # --- the campaign's dungeon clock ---------------------------------------------------------
    _action(
        "enter_dungeon",
        "Войти в подземелье",
        "Enter a dungeon",
        _t("Начинается первый ход подземелья.", "The first dungeon turn starts."),
        "L488, L498-L504",
        subject="campaign",
        params=_params(
            dungeon=StrField(ru="Подземелье", en="Dungeon", required=True, max_length=100)
        ),
    ),
    _action(
        "leave_dungeon",
        "Выйти из подземелья",
        "Leave the dungeon",
        _t("Вне подземелья 2 часа — за ход.", "Outside, 2 hours count as a turn."),
        "L508",
        subject="campaign",
    ),
    _action(
        "encounter_check",
        "Проверка на встречу",
        "Encounter check",
        _t(
            "1d10 не меньше порога (9/8/7): 10 — сразу, иначе знак и встреча в следующий ход .",
            "1d10 at least the threshold (9/8/7): 10 now, else a sign and the encounter next turn.",
        ),
        "L518-L524",
        subject="campaign",
        roll="1d10",
        params=_params(
            reason=StrField(ru="Что заметного сделали", en="What drew attention", max_length=200)
        ),
    ),
    _action(
        "set_threshold",
        "Порог встречи",
        "Encounter threshold",
        _t(
            "Густо населено или много хаоса — 8; и то и другое — 7.",
            "Densely populated or lots of chaos — 8; both — 7.",
        ),
        "L522",
        subject="campaign",
        params=_params(
            populated=BoolField(ru="Густо населено", en="Densely populated"),
            chaos=BoolField(ru="Много хаоса", en="Lots of chaos"),
            bonus=IntField(ru="Поправка", en="Adjustment", default=0, min=-9, max=9),
        ),
    ),
    _action(
        "resolve_encounter",
        "Встреча произошла",
        "Encounter played",
        _t("Ожидаемая встреча сыграна.", "A pending encounter has happened."),
        "L524",
        subject="campaign",
        params=_params(index=IntField(ru="Номер", en="Index", default=0, min=0, max=19)),
    ),
    _action(
        "treasure_found",
        "Найдено сокровище",
        "Treasure found",
        _t(
            "Первый визит: +30/20/10 % на 1/2/3-м ходу, вниз.",
            "First visit: +30/20/10 % in turn 1/2/3, rounded down.",
        ),
        "L496-L504",
        subject="campaign",
        params=_params(value=IntField(ru="Ценность", en="Value", default=0, min=0, max=10**9)),
    ),
    _action(
        "room_explored",
        "Комната исследована",
        "Room explored",
        _t(
            "Вариант: ход кончается после 1d6 комнат.",
            "Variant: the turn ends after 1d6 rooms.",
        ),
        "L516",
        subject="campaign",
    ),
    _action(
        "hide_camp",
        "Укрыть лагерь",
        "Hide camp",
        _t(
            "Порог встречи +1 на этот отдых; один в группе.",
            "Encounter threshold +1 for this rest; one per group.",
        ),
        "L566",
        subject="campaign",
        params=_params(by=StrField(ru="Кто", en="Who", required=True, max_length=100)),
    ),
    _action(
        "rest_encounter",
        "Проверка на встречу на отдыхе",
        "Rest encounter check",
        _t(
            "Одна проверка за отдых в подземелье или глуши.",
            "One check per rest in a dungeon or the wild.",
        ),
        "L532-L534",
        subject="campaign",
        roll="1d10",
        params=_params(
            threshold=IntField(
                ru="Порог (правила дорог)",
                en="Threshold (road rules)",
                nullable=True,
                default=None,
                min=1,
                max=10,
            )
        ),
    ),
)
MOVES_BY_KEY: dict[str, MoveSpec] = {m.key: m for m in MOVES}
