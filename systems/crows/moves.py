"""Crows moves and sheet actions as data (names, rulebook sections, parameters, tier texts):
checks, hazards, conditions, inventory, rest and the dungeon clock, then combat, movement,
travel, the Miasma, spells, crafting and identification.

``describe()`` is built from these specs and ``resolve`` validates parameters with them, so a
form and the rule that runs can never disagree. ``subject`` says whose state ``resolve``
takes: a creature sheet (``"character"``) or the campaign state (``"campaign"``).
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
from systems.crows.items import DAMAGE, ITEM
from systems.crows.sheet import (
    COMBAT,
    COMBATANT,
    EFFECT,
    PROJECT,
    QUARRY_MAX,
    ROLE_ENTRY,
    SHEET,
    TRAVEL,
)
from systems.crows.terms import (
    ACTIVITIES,
    CHARACTERISTICS,
    CONCEALMENT,
    CONDITION_CHOICES,
    COSTS,
    COVER,
    DIRECTION_CHOICES,
    END_TRIGGERS,
    EXPERTISE_CHOICES,
    FORCED_KINDS,
    LIGHT_LEVELS,
    MAGIC_SLOTS,
    PACE_CHOICES,
    RIVER,
    SIZES,
    TASK_CHOICES,
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

CHECK_ATTACK_PARAMS: dict[str, Field] = {
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


def _campaign(key: str, ru: str, en: str, trigger: Text, source: str, **kwargs) -> MoveSpec:
    return MoveSpec(
        key=key,
        ru=ru,
        en=en,
        trigger=trigger,
        source=source,
        kind="action",
        subject="campaign",
        **kwargs,
    )


SHEET_PARAM = ObjectField(
    ru="Лист существа", en="Creature sheet", nullable=True, default=None, fields=SHEET.fields
)
CHAR_ONE = ChoiceField(
    ru="Характеристика", en="Characteristic", default=None, nullable=True, choices=CHARACTERISTICS
)
NO_CHECK_SOURCES = ListField(
    ru="Преимущества и помехи",
    en="Advantages and disadvantages",
    item=ChoiceField(default="advantage", choices=SOURCE_CHOICES),
    max_items=20,
)
ROLL_PARAMS: dict[str, Field] = {
    "sources": NO_CHECK_SOURCES,
    "advantages": CHECK_PARAMS["advantages"],
    "disadvantages": CHECK_PARAMS["disadvantages"],
    "bonus": CHECK_PARAMS["bonus"],
    "help": CHECK_PARAMS["help"],
    "task": CHECK_PARAMS["task"],
    "circumstances_changed": CHECK_PARAMS["circumstances_changed"],
    "any_expertise": CHECK_PARAMS["any_expertise"],
}

# Per-target situation of an attack («Бой › Как атаковать»; «Свет»; «Частые опасности»;
# «Линия эффекта»): plain parameters from the map.
SITUATION: dict[str, Field] = {
    "distance": IntField(
        ru="Расстояние, клеток", en="Distance, squares", nullable=True, default=None, min=0
    ),
    "flanking": BoolField(ru="Фланкирование", en="Flanking"),
    "high_ground": BoolField(ru="Возвышенность (на 1+ клетку выше)", en="High ground"),
    "cover": ChoiceField(ru="Укрытие цели", en="Target's cover", default="none", choices=COVER),
    "light": ChoiceField(
        ru="Свет у цели", en="Light at the target", default="bright", choices=LIGHT_LEVELS
    ),
    "concealment": ChoiceField(
        ru="Завеса у цели", en="Concealment at the target", default="none", choices=CONCEALMENT
    ),
    "combatant": StrField(
        ru="Цель в бою (её номер в бою; застигнута ли врасплох, видно из боя)",
        en="The target in the combat (its id; the combat says whether it is surprised)",
        max_length=64,
    ),
    "squeezing": BoolField(ru="Цель протискивается (+1)", en="Target squeezing (+1)"),
    "adjacent": BoolField(
        ru="Цель рядом с вами (дальняя атака — помеха)",
        en="Target adjacent to you (ranged: disadvantage)",
    ),
    "allies_adjacent": IntField(
        ru="Ваших союзников рядом с целью", en="Your allies next to the target", default=0, min=0
    ),
    "guessed_wrong": BoolField(
        ru="Не угадали клетку бесшумного существа (автопромах)",
        en="Guessed the silent creature's square wrong (automatic miss)",
    ),
    "target_conditions": ListField(
        ru="Состояния цели (если нет листа)",
        en="Target's conditions (without a sheet)",
        item=ChoiceField(default="prone", choices=CONDITION_CHOICES),
        max_items=6,
    ),
    "target_sources": ListField(
        ru="Прочие преимущества и помехи против этой цели",
        en="Other advantages and disadvantages against this target",
        item=ChoiceField(default="advantage", choices=SOURCE_CHOICES),
        max_items=10,
    ),
    "target_bonus": IntField(
        ru="Бонус против этой цели", en="Bonus against this target", default=0, min=-20, max=20
    ),
    "target_reaction_used": BoolField(
        ru="Реакция цели уже потрачена", en="The target's reaction is spent"
    ),
}
TARGET_ENTRY = ObjectField(
    ru="Цель",
    en="Target",
    fields={
        "name": StrField(ru="Имя", en="Name", max_length=100),
        "sheet": SHEET_PARAM,
        **SITUATION,
    },
)

ATTACK_PARAMS: dict[str, Field] = {
    "weapon_id": StrField(
        ru="Оружие в руке (пусто — безоружный удар)",
        en="Weapon in hand (empty: unarmed strike)",
        max_length=64,
    ),
    "attack": ChoiceField(
        ru="Ближняя или дальняя (метательное — выбрать)",
        en="Melee or ranged (thrown: choose)",
        default="",
        choices=(
            Choice("", "По оружию", "By weapon"),
            Choice("melee", "Ближняя", "Melee"),
            Choice("ranged", "Дальняя", "Ranged"),
        ),
    ),
    "characteristic": CHAR_ONE,
    "weapon_like": ObjectField(
        ru="Импровизированное: урон похожего оружия (с помехой)",
        en="Improvised: the damage of a similar weapon (at disadvantage)",
        nullable=True,
        default=None,
        fields=DAMAGE.fields,
    ),
    "target": SHEET_PARAM,
    "target_name": StrField(ru="Имя цели", en="Target's name", max_length=100),
    **SITUATION,
    "combat": COMBAT,
    "targets": ListField(
        ru="Несколько целей (один бросок)",
        en="Several targets (one roll)",
        item=TARGET_ENTRY,
        max_items=20,
    ),
    "taunted_by": StrField(
        ru="Вас высмеял (помеха, если он не среди целей)",
        en="Taunted by (disadvantage unless among the targets)",
        max_length=100,
    ),
    "grabbing": StrField(
        ru="Кого вы держите в захвате", en="Whom you are grabbing", max_length=100
    ),
    "on_own_turn": BoolField(ru="В свой ход", en="On your own turn", default=True),
    "knock_out": BoolField(ru="Лишить сознания вместо смерти", en="Knock out instead of killing"),
    **ROLL_PARAMS,
    **DAMAGE_ROUTING,
}

COUNTER_PARAMS: dict[str, Field] = {
    "target": SHEET_PARAM,
    "target_name": StrField(ru="Кого контратакуете", en="Whom", max_length=100),
    "doom": BoolField(ru="На проверке-триггере выпал рок", en="The trigger was a doom"),
    "distance": IntField(ru="Расстояние", en="Distance", nullable=True, default=None, min=0),
    "provoked": BoolField(
        ru="Триггер — провоцированная атака (контратака запрещена)",
        en="The trigger was a provoked attack (no counterattack)",
    ),
    "reaction_used": BoolField(ru="Реакция уже потрачена", en="Reaction already spent"),
    **DAMAGE_ROUTING,
}

MANEUVER_PARAMS: dict[str, Field] = {
    "target": SHEET_PARAM,
    "target_name": StrField(ru="Цель", en="Target", max_length=100),
    "target_size": ChoiceField(
        ru="Размер цели (если нет листа)",
        en="Target's size (without a sheet)",
        default="medium",
        choices=SIZES,
    ),
    "distance": IntField(ru="Расстояние", en="Distance", default=1, min=0),
    "characteristic": CHAR_ONE,
    "grabbing": StrField(
        ru="Кого вы уже держите в захвате", en="Whom you already grab", max_length=100
    ),
    "target_reaction_used": SITUATION["target_reaction_used"],
    **ROLL_PARAMS,
}

STEP = ObjectField(
    ru="Клетка пути",
    en="Path square",
    fields={
        "difficult": BoolField(ru="Труднопроходимая", en="Difficult"),
        "enemy": BoolField(ru="Пространство врага", en="Enemy's space"),
        "swim": BoolField(ru="Плыть", en="Swim"),
        "climb": BoolField(ru="Лезть", en="Climb"),
        "ceiling": BoolField(ru="Вниз головой по потолку", en="Upside-down on a ceiling"),
        "air": BoolField(ru="В воздухе", en="In the air"),
        "void": IntField(ru="Пропасть под клеткой, футов", en="Drop below, feet", default=0),
        "height": IntField(ru="Высота, клеток", en="Height, squares", default=0),
        "occupied": BoolField(ru="Занята", en="Occupied"),
        "hazard": StrField(ru="Опасная местность", en="Hazardous terrain", max_length=100),
        "leaves_reach_of": ListField(
            ru="Выход из досягаемости", en="Leaves the reach of", item=StrField(), max_items=10
        ),
    },
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
        "«Проверки»",
        roll="2d10",
        params=_params(CHECK_PARAMS, CHECK_ATTACK_PARAMS),
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
        "«Проверки › Помощь»",
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
        "«Проверки › Групповые проверки»",
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
        "«Проверки › Броски сопротивления»",
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
        "«Проверки › Прятаться и красться»",
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
        "«Частые опасности › Падение»",
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
        "«Частые опасности › Удушье»",
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
        "«Урон и смерть»",
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
        "«Слоты инвентаря › Слоты магических предметов»; «Урон и смерть › Раны»",
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
        "«Частые опасности › Голод»",
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
        "«Частые опасности › Голод»",
        params=_params(
            item_id=StrField(ru="Паёк из инвентаря", en="Ration from the inventory", max_length=64)
        ),
    ),
    _action(
        "remove_wound",
        "Снять рану",
        "Remove a wound",
        _t("Снять одну рану (лечение, отдых).", "Remove one wound (healing, rest)."),
        "«Урон и смерть › Раны»",
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
        "«Урон и смерть › Раны»",
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
        "«Отдых»",
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
        "«Состояния»",
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
        "«Состояния»",
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
        "«Состояния › Сбит с ног»; «Бой › Общие манёвры»",
    ),
    _action(
        "drop_prone",
        "Лечь",
        "Drop prone",
        _t(
            "В бою можно лечь в свой ход без действия.",
            "In combat you may drop prone on your turn for free.",
        ),
        "«Состояния › Сбит с ног»",
    ),
    _action(
        "wake",
        "Проснуться",
        "Wake up",
        _t(
            "Урон, громкий шум в пределах 10 клеток.",
            "Damage, or a loud noise within 10 squares.",
        ),
        "«Состояния › Без сознания»",
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
        "«Проверки › Прятаться и красться»",
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
        "«Слоты инвентаря»",
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
        "«Слоты инвентаря › Перекладывание между слотами»",
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
        "«Слоты инвентаря › Перекладывание между слотами»",
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
        "«Слоты инвентаря › Перекладывание между слотами»; «Бой › Общие манёвры»",
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
        "«Слоты инвентаря › Перекладывание между слотами»; «Бой › Общие манёвры»",
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
        "«Слоты инвентаря › Ношение доспеха»",
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
        "«Слоты инвентаря › Ношение доспеха»",
    ),
    _action(
        "equip_magic",
        "Надеть магический предмет",
        "Wear a magic item",
        _t(
            "Больше одного предмета в слоте: нельзя отдыхать и 1d6 ран за ход.",
            "More than one item in a slot: no rest and 1d6 wounds a turn.",
        ),
        "«Слоты инвентаря › Слоты магических предметов»",
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
        "«Слоты инвентаря › Слоты магических предметов»",
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
        "«Свет»",
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
        "«Свет › Тушение источников света»",
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
        "«Кости износа › Кости износа снаряжения»",
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
        "«Кости износа › Кости износа снаряжения»",
        params=_params(item_id=_item_id(), fuel_id=_item_id("Топливо", "Fuel")),
    ),
    _action(
        "add_effect",
        "Добавить эффект",
        "Add an effect",
        _t("Эффект с костями износа или длительностью.", "An effect with wear dice or a duration."),
        "«Кости износа»; «Заклинания › Длительность»",
        params=_params(effect=ObjectField(ru="Эффект", en="Effect", fields=EFFECT.fields)),
    ),
    _action(
        "remove_effect",
        "Снять эффект",
        "End an effect",
        _t("Эффект закончился.", "An effect ends."),
        "«Кости износа»",
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
        "«Отдых»; «Отдых › Встречи на отдыхе»; «Отдых › Занятия на отдыхе»",
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
        "«Отдых › Занятия на отдыхе в городе»",
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
        "«Отдых › Обработать раны»; «Отдых › Занятия на отдыхе в городе»",
        params=_params(day=IntField(ru="День", en="Day", default=1, min=0, max=100_000)),
    ),
    _action(
        "town_sleep",
        "Сон в городе",
        "Sleep in town",
        _t("После обработки ран — снять 2 раны.", "After tending — remove 2 wounds."),
        "«Отдых › Занятия на отдыхе в городе»",
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
        "«Проверки › Повторная попытка»",
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
        "«Кости»",
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
        "«Бой › Дальние атаки»",
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
        "«Ходы подземелья»; «Ходы подземелья › Награда за жадность»",
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
        "«Ходы подземелья › Вне подземелья»",
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
        "«Встречи в подземелье»",
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
        "«Встречи в подземелье»",
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
        "«Встречи в подземелье»",
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
        "«Ходы подземелья › Награда за жадность»",
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
        "«Ходы подземелья › Вне подземелья»",
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
        "«Отдых › Укрыть лагерь»",
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
        "«Отдых › Встречи на отдыхе»",
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
    # --- attacks and reactions ----------------------------------------------------------------
    _move(
        "attack",
        "Атака",
        "Attack",
        _t(
            "Оружием в руке: проверка и урон по ступеням с его карточки; 1-я ступень — промах .",
            "With a held weapon: check and damage per tier from its card; tier 1 is a miss .",
        ),
        "«Бой › Как атаковать»",
        roll="2d10",
        params=_params(ATTACK_PARAMS),
        results={
            "1": _t("Промах.", "Miss."),
            "2": _t("Попадание: урон 2-й ступени.", "Hit: tier-2 damage."),
            "3": _t("Попадание: урон 3-й ступени.", "Hit: tier-3 damage."),
        },
    ),
    _move(
        "provoked_attack",
        "Провоцированная атака",
        "Provoked attack",
        _t(
            "Реакция: существо выходит из вашей досягаемости — атакуйте его до того, как оно "
            "уйдёт; 1-я ступень не открывает контратаку.",
            "Reaction: a creature leaves your reach — attack it before it goes; tier 1 opens no "
            "counterattack.",
        ),
        "«Бой › Реакции»; «Бой › Провоцированная атака»",
        roll="2d10",
        params=_params(ATTACK_PARAMS),
        results={
            "1": _t("Промах; контратаки нет.", "Miss; no counterattack."),
            "2": _t("Попадание: урон 2-й ступени.", "Hit: tier-2 damage."),
            "3": _t("Попадание: урон 3-й ступени.", "Hit: tier-3 damage."),
        },
    ),
    _action(
        "counterattack",
        "Контратака",
        "Counterattack",
        _t(
            "Реакция на 1-ю ступень ближней атаки, Захвата, Отбросить или Вырваться против "
            "вас: урон 2-й ступени оружия, при роке — 3-й; без броска.",
            "Reaction to a tier 1 on a melee attack, Grab, Knockback or Escape against you: "
            "your weapon's tier-2 damage, tier 3 on a doom; no roll.",
        ),
        "«Бой › Реакции»",
        params=_params(COUNTER_PARAMS),
    ),
    # --- maneuvers with a check ---------------------------------------------------------------
    _move(
        "grab",
        "Захват",
        "Grab",
        _t(
            "Манёвр: существо не больше вас в досягаемости; 2d10 + Сила.",
            "Maneuver: a creature your size or smaller within reach; 2d10 + Strength.",
        ),
        "«Бой › Общие манёвры»",
        roll="2d10",
        params=_params(MANEUVER_PARAMS),
        results={
            "1": _t("Цель может контратаковать.", "The target may counterattack."),
            "2": _t("Толчок 1 или Шаг.", "Push 1, or you Shift."),
            "3": _t("Цель схвачена.", "The target is grabbed."),
        },
    ),
    _move(
        "escape",
        "Вырваться",
        "Escape",
        _t(
            "Манёвр схваченного: 2d10 + Ловкость или Сила.",
            "Maneuver while grabbed: 2d10 + Agility or Strength.",
        ),
        "«Бой › Общие манёвры»",
        roll="2d10",
        params=_params(MANEUVER_PARAMS),
        results={
            "1": _t("Схвативший может контратаковать.", "The grabber may counterattack."),
            "2": _t(
                "Можно вырваться, но тогда схвативший может контратаковать.",
                "You may break free, but then the grabber may counterattack.",
            ),
            "3": _t(
                "Вы свободны и можете сдвинуться на 1 клетку без провокации.",
                "You are free and may move 1 square without provoking.",
            ),
        },
    ),
    _move(
        "knockback",
        "Отбросить",
        "Knockback",
        _t(
            "Манёвр: существо не больше вас в досягаемости; 2d10 + Сила.",
            "Maneuver: a creature your size or smaller within reach; 2d10 + Strength.",
        ),
        "«Бой › Общие манёвры»",
        roll="2d10",
        params=_params(MANEUVER_PARAMS),
        results={
            "1": _t("Цель может контратаковать.", "The target may counterattack."),
            "2": _t("Толчок 1.", "Push 1."),
            "3": _t("Толчок 2.", "Push 2."),
        },
    ),
    # --- movement -----------------------------------------------------------------------------
    _action(
        "move",
        "Передвижение",
        "Move",
        _t(
            "Манёвр: до скорости клеток; труднопроходимая местность, плавание и лазание +1. "
            "Шаг — 1 клетка без провокации.",
            "Maneuver: up to your speed; difficult terrain, swimming and climbing +1. "
            "Shift: 1 square, provokes nothing.",
        ),
        "«Бой › Общие манёвры»; «Бой › Передвижение»",
        params=_params(
            mode=ChoiceField(
                ru="Как",
                en="How",
                default="move",
                choices=(
                    Choice("move", "Передвижение", "Move"),
                    Choice("shift", "Шаг", "Shift"),
                ),
            ),
            path=ListField(ru="Путь", en="Path", item=STEP, max_items=100),
            move_left=IntField(
                ru="Осталось клеток от манёвра",
                en="Squares left of the maneuver",
                nullable=True,
                default=None,
                min=0,
            ),
            start_difficult=BoolField(
                ru="Начинаете в труднопроходимой местности", en="Starting in difficult terrain"
            ),
            squeezing=BoolField(ru="Протискиваетесь (скорость вдвое)", en="Squeezing (½ speed)"),
            grabbing_size=ChoiceField(
                ru="Несёте схваченного размера",
                en="Carrying a grabbed creature of size",
                default="",
                choices=(Choice("", "—", "—"), *SIZES),
            ),
        ),
    ),
    _move(
        "jump",
        "Прыжок",
        "Jump",
        _t(
            "Часть передвижения: 2d10 + Ловкость или Сила, с преимуществом после 2+ клеток "
            "разбега.",
            "Part of a move: 2d10 + Agility or Strength, with advantage after a 2+ square run-up.",
        ),
        "«Бой › Прыжок»",
        roll="2d10",
        params=_params(
            ROLL_PARAMS,
            characteristic=ChoiceField(
                ru="Характеристика",
                en="Characteristic",
                default="strength",
                choices=(
                    Choice("agility", "Ловкость", "Agility"),
                    Choice("strength", "Сила", "Strength"),
                ),
            ),
            moved_before=IntField(
                ru="Пройдено до прыжка в этот ход", en="Squares moved before it", default=0, min=0
            ),
            move_left=IntField(
                ru="Осталось передвижения", en="Movement left", nullable=True, default=None, min=0
            ),
            gap=IntField(ru="Ширина пропасти", en="Gap to clear", default=0, min=0),
            gap_feet=IntField(ru="Глубина пропасти, футов", en="Gap depth, feet", default=0),
            from_difficult=BoolField(
                ru="Из труднопроходимой местности", en="From difficult terrain"
            ),
        ),
        results={
            "1": _t("Прыжок на 0 клеток.", "A 0-square jump."),
            "2": _t("До 2 клеток в длину, 1 в высоту.", "Up to 2 squares long, 1 high."),
            "3": _t(
                "До 2 + характеристика клеток (минимум 3), 1 в высоту.",
                "Up to 2 + the characteristic squares (minimum 3), 1 high.",
            ),
        },
    ),
    _action(
        "teleport",
        "Телепортация",
        "Teleport",
        _t(
            "Без провокации; линия эффекта; незанятое место; захваты кончаются.",
            "Provokes nothing; line of effect; an unoccupied space; grabs end.",
        ),
        "«Бой › Телепортация»",
        params=_params(
            distance=IntField(ru="Расстояние", en="Distance", default=1, min=0),
            reach=IntField(ru="Дальность эффекта", en="The effect's range", default=1, min=0),
            line_of_effect=BoolField(
                ru="Линия эффекта до места", en="Line of effect", default=True
            ),
            origin_line_of_effect=BoolField(
                ru="Линия эффекта от исходного места",
                en="Line of effect from the origin",
                default=True,
            ),
            other=BoolField(ru="Телепортируете другое существо", en="Teleporting another"),
            occupied=BoolField(ru="Место занято", en="Destination occupied"),
        ),
    ),
    _action(
        "forced_move",
        "Принудительное перемещение",
        "Forced movement",
        _t(
            "Толчок или Смещение на этой цели; в пропасть — падение, если последняя клетка над "
            "пустотой.",
            "Push or Slide on this target; over a void it falls only if the last square is "
            "over it.",
        ),
        "«Бой › Принудительное перемещение»",
        roll="2d10",
        params=_params(
            DAMAGE_ROUTING,
            kind=ChoiceField(ru="Вид", en="Kind", default="push", choices=FORCED_KINDS),
            vertical=BoolField(ru="Вертикальное", en="Vertical"),
            distance=IntField(ru="X клеток", en="X squares", default=1, min=0, max=100),
            squares=IntField(
                ru="Сдвинуть на", en="Move by", nullable=True, default=None, min=0, max=100
            ),
            mover_size=ChoiceField(
                ru="Размер двигающего", en="Mover's size", default="medium", choices=SIZES
            ),
            magical=BoolField(ru="Магическое", en="Magical"),
            path=ListField(ru="Путь", en="Path", item=STEP, max_items=100),
            reaction_available=BoolField(
                ru="Есть реакция на бросок сопротивления",
                en="A reaction is left for the fall save",
                default=True,
            ),
            sources=NO_CHECK_SOURCES,
            bonus=CHECK_PARAMS["bonus"],
        ),
    ),
    _move(
        "tip_object",
        "Опрокинуть предмет",
        "Tip an object",
        _t(
            "Меньше вас — манёвр; вашего размера и до +2 — действие и 2d10 + Сила с помехой "
            "за каждую категорию.",
            "Smaller than you: a maneuver; your size up to +2: an action and 2d10 + Strength "
            "with disadvantage per category.",
        ),
        "«Бой › Опрокидывание предметов»",
        roll="2d10",
        params=_params(
            ROLL_PARAMS,
            DAMAGE_ROUTING,
            object_size=ChoiceField(
                ru="Размер предмета", en="Object's size", default="medium", choices=SIZES
            ),
        ),
        results={
            "1": _t("Предмет не сдвигается.", "It does not move."),
            "2": _t(
                "Можно опрокинуть, но вы получаете 1d6 пробивающего.",
                "You may tip it, but take 1d6 piercing.",
            ),
            "3": _t("Предмет опрокидывается.", "It tips over."),
        },
    ),
    _action(
        "falling_object",
        "Упавший предмет",
        "Falling object",
        _t(
            "Предмет вашего размера или крупнее: 1d10 + 2d10 за категорию.",
            "An object your size or larger: 1d10 + 2d10 per size category.",
        ),
        "«Бой › Опрокидывание предметов»",
        params=_params(
            DAMAGE_ROUTING,
            object_size=ChoiceField(
                ru="Размер предмета", en="Object's size", default="medium", choices=SIZES
            ),
        ),
    ),
    # --- pets ---------------------------------------------------------------------------------
    _move(
        "command_pet",
        "Команда",
        "Command",
        _t(
            "Манёвр: питомец делает манёвр и действие или два манёвра; сложное — 2d10 + Разум .",
            "Maneuver: the pet takes a maneuver and an action or two maneuvers; something hard "
            "needs 2d10 + Reason.",
        ),
        "«Бой › Общие манёвры»; «Бой › Питомцы в бою»",
        roll="2d10",
        params=_params(
            ROLL_PARAMS,
            target=SHEET_PARAM,
            order=StrField(ru="Приказ", en="Order", max_length=200),
            check=BoolField(
                ru="Сложно или опасно (Рефери просит проверку)",
                en="Hard or dangerous (the Referee asks for a check)",
            ),
            summoned=BoolField(ru="Призванное существо", en="A summoned creature"),
        ),
        results={
            "1": _t("Питомец отказывается.", "The pet refuses."),
            "2": _t("Выполняет, но потом ослаблен.", "It obeys, then is weakened."),
            "3": _t("Выполняет.", "It obeys."),
        },
    ),
    # --- inventory maneuvers ------------------------------------------------------------------
    _action(
        "pick_up",
        "Подобрать предмет",
        "Pick up",
        _t(
            "Манёвр: бесхозный предмет в досягаемости, если хватает свободных рук.",
            "Maneuver: an unattended item within reach, with free hand slots.",
        ),
        "«Бой › Общие манёвры»",
        params=_params(
            card=ObjectField(ru="Карточка предмета", en="Item card", fields=ITEM.fields),
            distance=IntField(ru="Расстояние", en="Distance", default=1, min=0),
        ),
    ),
    _action(
        "draw_from_belt",
        "Достать с пояса",
        "Draw from belt",
        _t("Манёвр: один-два предмета с пояса.", "Maneuver: 1-2 items from the belt."),
        "«Бой › Общие манёвры»",
        params=_params(
            item_ids=ListField(
                ru="Предметы", en="Items", item=StrField(max_length=64), min_items=1, max_items=2
            ),
        ),
    ),
    # --- spells -------------------------------------------------------------------------------
    _move(
        "cast",
        "Сотворение",
        "Cast",
        _t(
            "Книга в руке: 2d10 + Разум; 1-я ступень — бросок хаоса, рок — отдача; кости износа "
            "книги — кроме крита.",
            "Book in hand: 2d10 + Reason; tier 1 makes a chaos roll, a doom backlash; the "
            "book's wear dice roll unless it is a crit.",
        ),
        "«Заклинания»",
        roll="2d10",
        params=_params(
            ROLL_PARAMS,
            DAMAGE_ROUTING,
            item_id=StrField(
                ru="Книга заклинаний (пусто — книга в руке)",
                en="Spellbook (empty: the one in hand)",
                max_length=64,
            ),
            targets=ListField(ru="Цели", en="Targets", item=TARGET_ENTRY, max_items=20),
            target=SHEET_PARAM,
            target_name=StrField(ru="Имя цели", en="Target's name", max_length=100),
            **SITUATION,
            combat=COMBAT,
            in_combat=BoolField(ru="Идут боевые раунды", en="In round-timed play"),
            line_of_effect=BoolField(ru="Линия эффекта", en="Line of effect", default=True),
            origin_distance=IntField(
                ru="Расстояние до клетки-истока",
                en="Distance to the origin square",
                nullable=True,
                default=None,
                min=0,
            ),
            object_target=BoolField(
                ru="Цель — предмет (для отдачи)", en="The target is an object (for backlash)"
            ),
            touching_ground=BoolField(
                ru="Касаетесь земли (зыбучий песок)",
                en="Touching the ground (quicksand)",
                default=True,
            ),
            on_own_turn=BoolField(ru="В свой ход", en="On your own turn", default=True),
        ),
        results={
            "1": _t(
                "1-я ступень: бросок хаоса (1d6; 1 — отдача), иначе эффект 1-й ступени.",
                "Tier 1: a chaos roll (1d6; 1 is backlash), else the tier-1 effect.",
            ),
            "2": _t("Эффект 2-й ступени.", "The tier-2 effect."),
            "3": _t("Эффект 3-й ступени.", "The tier-3 effect."),
        },
    ),
    _action(
        "end_spell",
        "Закончить заклинание",
        "End a spell",
        _t(
            "Заклинатель может закончить заклинание без действия.",
            "The caster may end the spell for free.",
        ),
        "«Заклинания › Длительность»",
        params=_params(effect_id=StrField(ru="Эффект", en="Effect", required=True, max_length=64)),
    ),
    _action(
        "backlash",
        "Отдача магии",
        "Backlash",
        _t(
            "Рефери бросает d100 + ранг по таблице «Виды отдачи».",
            "The Referee rolls d100 + rank on the Backlash table.",
        ),
        "«Заклинания › Отдача магии»",
        roll="d100",
        params=_params(
            DAMAGE_ROUTING,
            rank=IntField(ru="Ранг", en="Rank", default=0, min=0, max=5),
            spell=StrField(ru="Заклинание", en="Spell", max_length=100),
            object_target=BoolField(ru="Цель — предмет", en="The target is an object"),
            touching_ground=BoolField(ru="Касаетесь земли", en="Touching the ground", default=True),
        ),
    ),
    # --- the Miasma ---------------------------------------------------------------------------
    _move(
        "miasma_save",
        "Бросок против Миазмы",
        "Miasma save",
        _t(
            "В конце отдыха в Миазме: 2d10 + Разум, −1 за уровень жестокости.",
            "At the end of a rest in the Miasma: 2d10 + Reason, −1 per cruelty.",
        ),
        "«Путешествие по суше › Миазма»",
        roll="2d10",
        params=_params(
            ROLL_PARAMS,
            travel=ObjectField(
                ru="Путешествие", en="Travel", nullable=True, default=None, fields=TRAVEL.fields
            ),
            defer=BoolField(
                ru="Отложить последствия до сбора всех бросков",
                en="Defer consequences until all saves are in",
            ),
            lifted=BoolField(
                ru="Другой поднял результат на ступень", en="Another raised the result a tier"
            ),
        ),
        results={
            "1": _t(
                "+1 жестокость и бросок по таблице «Эффекты Миазмы».",
                "+1 cruelty and a roll on the Miasma effects table.",
            ),
            "2": _t("Эффекта нет.", "No effect."),
            "3": _t(
                "Снимите всю жестокость или поднимите на ступень бросок другого.",
                "Clear all your cruelty, or raise another's save by a tier.",
            ),
        },
    ),
    _action(
        "leave_miasma",
        "Выйти из Миазмы",
        "Leave the Miasma",
        _t(
            "В месте, целиком закрытом камнем или металлом, эффекты «пока в Миазме» кончаются.",
            "In a place fully enclosed by stone or metal, 'until you leave' effects end.",
        ),
        "«Путешествие по суше › Миазма»; «Путешествие по суше › Эффекты Миазмы»",
    ),
    _action(
        "miasma_expertise",
        "Экспертиза от лжи",
        "Lying expertise",
        _t(
            "«Ложь»: выберите экспертизу, которой у вас нет (1 применение).",
            "Lying: choose an expertise you lack (1 use).",
        ),
        "«Путешествие по суше › Эффекты Миазмы»",
        params=_params(
            expertise=ChoiceField(
                ru="Экспертиза",
                en="Expertise",
                default=None,
                required=True,
                choices=EXPERTISE_CHOICES,
            )
        ),
    ),
    # --- travel roles -------------------------------------------------------------------------
    _move(
        "travel_role",
        "Дорожная роль",
        "Travel role",
        _t(
            "Проверка задачи роли; темп даёт преимущество или помеху.",
            "A role task's check; the pace gives advantage or disadvantage.",
        ),
        "«Путешествие по суше › Дорожные роли»; «Путешествие по суше › Заблудились»",
        roll="2d10",
        params=_params(
            ROLL_PARAMS,
            travel=ObjectField(ru="Путешествие", en="Travel", fields=TRAVEL.fields),
            travel_task=ChoiceField(
                ru="Задача", en="Task", default=None, required=True, choices=TASK_CHOICES
            ),
            allies=ListField(
                ru="Союзники (Помочь всем, Противостоять Миазме)",
                en="Allies (Help everyone, Counter the Miasma)",
                item=StrField(max_length=100),
                max_items=4,
            ),
            quarry=StrField(ru="Кого выслеживаете", en="Quarry", max_length=QUARRY_MAX),
            characteristic=CHAR_ONE,
        ),
    ),
    # --- crafting and identification ----------------------------------------------------------
    _action(
        "start_project",
        "Начать изготовление",
        "Start a crafting project",
        _t(
            "Цель изготовления, экспертиза, материалы с карточки.",
            "The crafting goal, expertise and materials from the card.",
        ),
        "«Изготовление › Требования к изготовлению»; «Изготовление › Цель изготовления»",
        params=_params(project=ObjectField(ru="Проект", en="Project", fields=PROJECT.fields)),
    ),
    _move(
        "craft",
        "Бросок изготовления",
        "Crafting roll",
        _t(
            "Разум без ступеней: сумма — очки изготовления, минимум 1, рок — 0, крит — ещё бросок.",
            "Reason with no tiers: the total is crafting points, at least 1; doom 0; a crit "
            "gives another roll.",
        ),
        "«Изготовление › Броски изготовления»",
        roll="2d10",
        params=_params(
            project_id=StrField(ru="Свой проект", en="Your project", max_length=64),
            sources=NO_CHECK_SOURCES,
            advantages=CHECK_PARAMS["advantages"],
            disadvantages=CHECK_PARAMS["disadvantages"],
            bonus=CHECK_PARAMS["bonus"],
            help=CHECK_PARAMS["help"],
            expertises=ListField(
                ru="Экспертизы (+4 каждая, не больше двух)",
                en="Expertises (+4 each, at most two)",
                item=StrField(max_length=40),
                max_items=2,
            ),
            camp_bonus=IntField(
                ru="Лагерь (Разбить лагерь)", en="Camp (Make camp)", default=0, min=0, max=4
            ),
            tools_in_camp=BoolField(ru="Инструменты есть в лагере", en="The tools are in camp"),
        ),
    ),
    _move(
        "identify_check",
        "Опознать предмет",
        "Identify an item",
        _t(
            "Держа магический предмет: 2d10 + Разум.",
            "Holding a magic item: 2d10 + Reason.",
        ),
        "«Опознание магических предметов»",
        roll="2d10",
        params=_params(
            ROLL_PARAMS, item_id=StrField(ru="Предмет", en="Item", required=True, max_length=64)
        ),
        results={
            "1": _t(
                "Вредная случайная активация (решает Рефери).",
                "A harmful accidental activation (the Referee decides).",
            ),
            "2": _t("Вы ничего не узнаёте.", "You learn nothing."),
            "3": _t("Вы узнаёте все свойства.", "You learn every property."),
        },
    ),
    _action(
        "butcher",
        "Разделать труп",
        "Butcher a corpse",
        _t(
            "Занятие на отдыхе: труп уничтожается; части 1d6/2d6/3d6/4d6.",
            "Rest activity: the corpse is destroyed for 1d6/2d6/3d6/4d6 parts.",
        ),
        "«Отдых › Разделать труп»; «Изготовление › Разделка на материалы»",
        params=_params(
            item_id=StrField(ru="Труп в инвентаре", en="Corpse carried", max_length=64),
            corpse_size=ChoiceField(
                ru="Размер трупа",
                en="Corpse size",
                default="",
                choices=(Choice("", "—", "—"), *SIZES),
            ),
        ),
    ),
    # --- combat state (campaign) --------------------------------------------------------------
    _campaign(
        "combat_start",
        "Начать бой",
        "Start combat",
        _t(
            "Участники и застигнутые врасплох.",
            "Combatants and who is surprised.",
        ),
        "«Бой»",
        params=_params(
            combatants=ListField(ru="Участники", en="Combatants", item=COMBATANT, max_items=100),
            surprised=ListField(
                ru="Застигнуты врасплох",
                en="Surprised",
                item=StrField(max_length=64),
                max_items=100,
            ),
        ),
    ),
    _campaign(
        "combat_round",
        "Новый раунд",
        "New round",
        _t(
            "1d10: 6+ сначала ходят персонажи, ≤5 враги; реакции восстанавливаются.",
            "1d10: 6+ the PCs go first, ≤5 the enemies; reactions return.",
        ),
        "«Бой › Кто ходит первым?»; «Бой › Реакции»",
        roll="1d10",
    ),
    _campaign(
        "combat_turn",
        "Начать ход",
        "Start a turn",
        _t(
            "Манёвр и действие или два манёвра; ход не прерывается.",
            "A maneuver and an action, or two maneuvers; a turn is not interrupted.",
        ),
        "«Бой › Ход»",
        params=_params(
            combatant=StrField(ru="Кто", en="Who", required=True, max_length=64),
            force=BoolField(ru="Решение Рефери", en="Referee override"),
        ),
    ),
    _campaign(
        "combat_spend",
        "Потратить",
        "Spend",
        _t("Манёвр, действие или реакция.", "A maneuver, action or reaction."),
        "«Бой › Ход»; «Бой › Общие манёвры»; «Бой › Реакции»",
        params=_params(
            combatant=StrField(ru="Кто", en="Who", required=True, max_length=64),
            cost=ChoiceField(ru="Что", en="What", default="maneuver", choices=COSTS),
            speed=IntField(
                ru="Скорость (для «Передвижения»)", en="Speed (for Move)", default=0, min=0
            ),
            squares=IntField(ru="Пройдено клеток", en="Squares walked", default=0, min=0),
        ),
    ),
    _campaign(
        "combat_end_turn",
        "Закончить ход",
        "End the turn",
        _t("Ход окончен.", "The turn ends."),
        "«Бой › Ход»",
    ),
    _campaign(
        "combat_taunt",
        "Насмешка",
        "Taunt",
        _t(
            "Действие: существо в 10 клетках получает помеху на атаки не по вам.",
            "Action: a creature within 10 squares has disadvantage on attacks not at you.",
        ),
        "«Бой › Действие „Насмешка“»",
        params=_params(
            combatant=StrField(ru="Кто", en="Who", required=True, max_length=64),
            target=StrField(ru="Кого", en="Whom", required=True, max_length=64),
            distance=IntField(ru="Расстояние", en="Distance", default=1, min=0),
        ),
    ),
    _campaign(
        "combat_ready",
        "Подготовить действие",
        "Ready an action",
        _t(
            "Действие сейчас, реакцией по триггеру; пропадает к вашему ходу.",
            "Spend the action now, use it as a reaction on the trigger; lapses at your turn.",
        ),
        "«Бой › Подготовить действие»",
        params=_params(
            combatant=StrField(ru="Кто", en="Who", required=True, max_length=64),
            what=StrField(ru="Что", en="What", max_length=200),
            trigger=StrField(ru="Триггер", en="Trigger", required=True, max_length=200),
            kind=ChoiceField(
                ru="Вид",
                en="Kind",
                default="action",
                choices=(
                    Choice("action", "Действие", "Action"),
                    Choice("maneuver", "Манёвр", "Maneuver"),
                ),
            ),
        ),
    ),
    _campaign(
        "combat_trigger",
        "Сработал триггер",
        "Trigger fired",
        _t("Подготовленное — реакцией.", "The readied action, as a reaction."),
        "«Бой › Подготовить действие»",
        params=_params(combatant=StrField(ru="Кто", en="Who", required=True, max_length=64)),
    ),
    _campaign(
        "combat_extra_action",
        "Дополнительное действие",
        "Extra action",
        _t(
            "Крит на атаке: в свой ход — в любой момент хода, иначе немедленно.",
            "A crit on an attack: any time on your own turn, otherwise at once.",
        ),
        "«Бой › Криты на атаках»",
        params=_params(
            combatant=StrField(ru="Кто", en="Who", required=True, max_length=64),
            on_own_turn=BoolField(ru="В свой ход", en="On your own turn", default=True),
        ),
    ),
    _campaign(
        "combat_grabbing",
        "Держит в захвате",
        "Grabbing",
        _t("Только один захват за раз.", "Only one grab at a time."),
        "«Бой › Общие манёвры»",
        params=_params(
            combatant=StrField(ru="Кто", en="Who", required=True, max_length=64),
            target=StrField(
                ru="Кого (пусто — отпустил)", en="Whom (empty: released)", max_length=64
            ),
        ),
    ),
    _campaign(
        "combat_join",
        "Вступить в бой",
        "Join the combat",
        _t("Новый участник (призванное существо, бродячий монстр).", "A new combatant."),
        "«Бой»",
        params=_params(combatant=COMBATANT),
    ),
    _campaign(
        "combat_end", "Закончить бой", "End combat", _t("Бой окончен.", "Combat ends."), "«Бой»"
    ),
    # --- travel (campaign) --------------------------------------------------------------------
    _campaign(
        "travel_begin",
        "Отправиться в путь",
        "Set out",
        _t("Гекс, цель и местность.", "Hex, goal and terrain."),
        "«Путешествие по суше › Гексы»; «Путешествие по суше › Порядок путешествия»",
        params=_params(
            q=IntField(ru="Гекс: столбец", en="Hex: column", default=0),
            r=IntField(ru="Гекс: ряд", en="Hex: row", default=0),
            goal_q=IntField(ru="Цель: столбец", en="Goal: column", nullable=True, default=None),
            goal_r=IntField(ru="Цель: ряд", en="Goal: row", nullable=True, default=None),
            terrain=StrField(ru="Местность", en="Terrain", max_length=60),
        ),
    ),
    _campaign(
        "travel_day",
        "Начать день пути",
        "Start a travel day",
        _t(
            "Темп: 1/2/3 гекса, порог 8/7/6, преимущество/—/помеха; скорость, дорога, река .",
            "Pace: 1/2/3 hexes, threshold 8/7/6, advantage/—/disadvantage; speed, road, river .",
        ),
        "«Путешествие по суше › Порядок путешествия»; «Путешествие по суше › Темп пути»",
        params=_params(
            pace=ChoiceField(ru="Темп", en="Pace", default="normal", choices=PACE_CHOICES),
            slowest_speed=IntField(
                ru="Самая низкая скорость (верховое — скорость животного)",
                en="Slowest speed (a rider uses the mount's)",
                default=5,
                min=0,
                max=99,
            ),
            road=BoolField(ru="Весь день по дороге", en="On a road all day"),
            river=ChoiceField(ru="Река", en="River", default="none", choices=RIVER),
            terrain=StrField(ru="Местность", en="Terrain", max_length=60),
            in_miasma=BoolField(ru="Под открытым небом", en="In the Miasma", default=True),
        ),
    ),
    _campaign(
        "travel_roles",
        "Дорожные роли",
        "Travel roles",
        _t(
            "Проводник — один; в остальных ролях до трёх; остальные помогают.",
            "One guide; up to three in each other role; the rest may help.",
        ),
        "«Путешествие по суше › Дорожные роли»",
        params=_params(
            roles=ListField(ru="Роли", en="Roles", item=ROLE_ENTRY, max_items=20),
            helping=ListField(
                ru="Помогают",
                en="Helping",
                max_items=20,
                item=ObjectField(
                    fields={
                        "name": StrField(ru="Кто", en="Who", max_length=100),
                        "helps": StrField(ru="Кому", en="Whom", max_length=100),
                    }
                ),
            ),
            refusing=ListField(
                ru="Под «Ленью» (отказываются от ролей)",
                en="Under Sloth (refuse roles)",
                item=StrField(max_length=100),
                max_items=20,
            ),
        ),
    ),
    _campaign(
        "travel_encounter",
        "Проверка дорожной встречи",
        "Travel encounter check",
        _t(
            "После проверок ролей: 1d10 не меньше порога — встреча; видит только Рефери .",
            "After the role checks: 1d10 at least the threshold is an encounter; only the "
            "Referee sees it.",
        ),
        "«Путешествие по суше › Встречи и точки интереса»",
        roll="1d10",
        params=_params(
            kind=ChoiceField(
                ru="Когда",
                en="When",
                default="travel",
                choices=(
                    Choice("travel", "В пути", "Travelling"),
                    Choice("rest", "На отдыхе", "Resting"),
                ),
            )
        ),
    ),
    _campaign(
        "travel_move",
        "Переход",
        "Move on",
        _t(
            "Гексы сегодняшнего темпа; заблудившись — тайный 1d6 за каждый гекс.",
            "Today's hexes; while lost a hidden 1d6 for each hex left.",
        ),
        "«Путешествие по суше › Заблудились»",
        params=_params(
            directions=ListField(
                ru="Направления",
                en="Directions",
                item=ChoiceField(default="n", choices=DIRECTION_CHOICES),
                max_items=10,
            ),
            stop_at=IntField(
                ru="Остановиться после гексов (точка интереса)",
                en="Stop after hexes (point of interest)",
                nullable=True,
                default=None,
                min=0,
            ),
        ),
    ),
    _campaign(
        "travel_found_way",
        "Нашли дорогу",
        "Found the way",
        _t(
            "Карта, знакомое место или указания персонажа.",
            "A map, a known landmark or an NPC's directions.",
        ),
        "«Путешествие по суше › Снова на пути»",
    ),
    _campaign(
        "travel_arrive",
        "Прибыли",
        "Arrive",
        _t(
            "Подземелье или точка интереса: ходы подземелья с сегодняшним порогом.",
            "A dungeon or point of interest: dungeon turns with today's threshold.",
        ),
        "«Путешествие по суше › Порядок путешествия»; «Путешествие по суше › Точки интереса»",
        params=_params(place=StrField(ru="Куда", en="Where", required=True, max_length=100)),
    ),
    _campaign(
        "travel_end",
        "Закончить путь",
        "Stop travelling",
        _t("Путешествие окончено.", "The journey ends."),
        "«Путешествие по суше › Порядок путешествия»",
    ),
)
MOVES_BY_KEY: dict[str, MoveSpec] = {m.key: m for m in MOVES}
