"""Savage Worlds moves and actions as data: names, triggers, parameters, results, options.

``describe()`` is built from these specs and ``resolve`` validates parameters with the same
specs (DESIGN.md). ``source`` cites the rulebook's headings, or says "published edition" for
the combat rules the rulebook's chapter leaves out.
"""

from __future__ import annotations

from systems.core.outcome import Option, Text
from systems.core.schema import (
    PLAYER,
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
from systems.savage_worlds.bennies import PURPOSES
from systems.savage_worlds.combat import RANGE_PENALTY
from systems.savage_worlds.injuries import DURATIONS, INJURY_CHOICES, LOCATIONS
from systems.savage_worlds.sheet import PARTICIPANT, SHEET
from systems.savage_worlds.traits import CRITICAL_FAILURE, FAILURE, RAISE, SUCCESS

PUBLISHED = "published edition (Savage Worlds Deluxe / Explorer's; not in the rulebook)"


def _t(ru: str, en: str) -> Text:
    return Text(ru, en)


DIFFICULTY = ChoiceField(
    ru="Трудность",
    en="Difficulty",
    default="normal",
    choices=(
        Choice("normal", "Обычная", "Normal"),
        Choice("easy", "Простое (+2)", "Easy (+2)"),
        Choice("difficult", "Трудное (–2)", "Difficult (-2)"),
        Choice("very_difficult", "Очень трудное (–4)", "Very difficult (-4)"),
    ),
)


def _sheet_param(ru: str, en: str) -> ObjectField:
    return ObjectField(ru=ru, en=en, nullable=True, default=None, fields=SHEET.fields)


def _roll_params(prefix: str = "", *, trait_default: str = "") -> dict[str, Field]:
    """Parameters of one trait roll; ``prefix`` names the defender's copies."""
    return {
        f"{prefix}trait": StrField(
            ru="Параметр: характеристика или навык",
            en="Trait: attribute or skill",
            default=trait_default,
            max_length=60,
        ),
        f"{prefix}die": StrField(
            ru="Кубик вместо параметра (d6, d12+1)",
            en="Die instead of the trait (d6, d12+1)",
            max_length=8,
        ),
        f"{prefix}difficulty": DIFFICULTY,
        f"{prefix}modifier": IntField(
            ru="Модификатор ведущего", en="GM's modifier", default=0, min=-20, max=20
        ),
        f"{prefix}joker": BoolField(
            ru="Джокер в этом раунде (+2)", en="Holds a joker this round (+2)"
        ),
    }


TN_PARAM = IntField(ru="Сложность", en="Target number", default=4, min=-20, max=60)
LOCATION_PARAM = ChoiceField(
    ru="Куда был прицельный удар (иначе 2d6)",
    en="Body part a called shot hit (else 2d6)",
    default="",
    choices=(Choice("", "Случайно (2d6)", "At random (2d6)"), *LOCATIONS),
)
INJURY_RESULTS = {c.key: _t(c.ru, c.en) for c in INJURY_CHOICES}
POOL_PARAM = IntField(
    ru="Фишек в пуле ведущего (для его персонажей)",
    en="Bennies in the GM's pool (for GM characters)",
    default=0,
    min=0,
    max=999,
)


def _params(*groups: dict[str, Field], **fields: Field) -> ObjectField:
    merged: dict[str, Field] = {}
    for group in groups:
        merged.update(group)
    merged.update(fields)
    return ObjectField(fields=merged)


TRAIT_RESULTS = {
    CRITICAL_FAILURE: _t(
        "Критический провал: ведущий придумывает крупную неприятность.",
        "Critical failure: the GM invents a major complication.",
    ),
    FAILURE: _t("Провал.", "Failure."),
    SUCCESS: _t("Успех.", "Success."),
    RAISE: _t("Успех с подъёмом.", "Success with a raise."),
}

REROLL = OptionSet(
    pick=1,
    chooser=PLAYER,
    options=(
        Option("keep", "Оставить лучший результат", "Keep the best result"),
        Option("reroll", "Потратить фишку и перебросить", "Spend a benny and re-roll"),
        Option(
            "reroll_pool",
            "Перебросить за фишку из пула ведущего",
            "Re-roll with a benny from the GM's pool",
        ),
    ),
)
SOAK = OptionSet(
    pick=1,
    chooser=PLAYER,
    options=(
        Option("accept", "Принять урон", "Take the damage"),
        Option("soak", "Проверка на прочность за фишку", "Soak roll for a benny"),
        Option(
            "soak_pool",
            "Проверка на прочность за фишку из пула ведущего",
            "Soak roll with a benny from the GM's pool",
        ),
    ),
)

MOVES: tuple[MoveSpec, ...] = (
    MoveSpec(
        key="trait_check",
        ru="Проверка параметра",
        en="Trait check",
        trigger=_t(
            "Персонаж применяет характеристику или навык.",
            "A character uses an attribute or a skill.",
        ),
        source=(
            "«Проверки параметров»; «Взрывной бросок»; «Подъёмы»; «Неумелые попытки»; "
            "«Дикий кубик»; «Фишки»"
        ),
        roll="trait",
        params=_params(
            _roll_params(),
            tn=TN_PARAM,
            pool=POOL_PARAM,
            no_chance=BoolField(
                ru="Без обучения шансов нет",
                en="No chance without training",
            ),
        ),
        results=TRAIT_RESULTS,
        options={"reroll": REROLL},
    ),
    MoveSpec(
        key="opposed_check",
        ru="Встречная проверка",
        en="Opposed check",
        trigger=_t(
            "Сложность зависит от противодействия оппонента.",
            "The difficulty is an opponent's resistance.",
        ),
        source="«Встречные проверки»",
        roll="trait",
        params=_params(
            _roll_params(),
            _roll_params("defender_"),
            pool=POOL_PARAM,
            defender=_sheet_param("Защищающийся", "Defender"),
            defender_total=IntField(
                ru="Итог защищающегося, если он бросал сам",
                en="Defender's total, if rolled elsewhere",
                nullable=True,
                default=None,
                min=-40,
                max=999,
            ),
        ),
        results={
            "attacker": _t("Побеждает нападающий.", "The attacker wins."),
            "defender": _t("Побеждает защищающийся.", "The defender wins."),
            "stalemate": _t(
                "Ничья: оппоненты продолжают бороться на равных.",
                "A tie: the struggle goes on.",
            ),
        },
        options={"reroll": REROLL},
    ),
    MoveSpec(
        key="cooperative_check",
        ru="Совместная проверка",
        en="Cooperative check",
        trigger=_t(
            "Несколько персонажей работают вместе, и ведущий это допускает.",
            "Several characters work together and the GM allows it.",
        ),
        source="«Совместные проверки»",
        roll="trait",
        params=_params(
            _roll_params(),
            tn=TN_PARAM,
            pool=POOL_PARAM,
            helpers=ListField(
                ru="Помощники (листы)",
                en="Helpers (sheets)",
                item=ObjectField(fields=SHEET.fields),
                max_items=20,
            ),
            helper_modifiers=ListField(
                ru="Модификаторы помощников",
                en="Helpers' modifiers",
                item=IntField(min=-20, max=20),
                max_items=20,
            ),
            helper_totals=ListField(
                ru="Итоги помощников, если они бросали сами",
                en="Helpers' totals, if rolled elsewhere",
                item=IntField(min=-40, max=999),
                max_items=20,
            ),
        ),
        results=TRAIT_RESULTS,
        options={"reroll": REROLL},
    ),
    MoveSpec(
        key="group_check",
        ru="Групповая проверка",
        en="Group check",
        trigger=_t(
            "Проверка параметра для группы статистов вне боя.",
            "A trait check for a group of extras outside combat.",
        ),
        source="«Групповые проверки»",
        roll="trait",
        params=_params(
            _roll_params(),
            tn=TN_PARAM,
            pool=POOL_PARAM,
            count=IntField(
                ru="Статистов в группе", en="Extras in the group", default=2, min=1, max=10_000
            ),
            in_combat=BoolField(ru="Идёт бой", en="In combat"),
        ),
        results=TRAIT_RESULTS,
        options={"reroll": REROLL},
    ),
    MoveSpec(
        key="attack",
        ru="Атака",
        en="Attack",
        trigger=_t(
            "Драка против Защиты цели, стрельба и метание против 4.",
            "Fighting against the target's Parry, Shooting/Throwing against 4.",
        ),
        source=PUBLISHED + "; aces on damage «Взрывной бросок»; bennies on damage «Фишки»",
        roll="trait",
        params=_params(
            _roll_params(),
            pool=POOL_PARAM,
            weapon=StrField(ru="Оружие с листа", en="Weapon from the sheet", max_length=60),
            damage=StrField(
                ru="Урон (если не с листа): Сила+к6, 2d6",
                en="Damage (if not from the sheet): str+d6, 2d6",
                max_length=40,
            ),
            ap=IntField(ru="Бронебойность", en="Armor piercing", default=0, min=0, max=50),
            damage_modifier=IntField(
                ru="Модификатор урона", en="Damage modifier", default=0, min=-20, max=20
            ),
            range=ChoiceField(
                ru="Дистанция (стрельба)",
                en="Range (ranged attacks)",
                default="short",
                choices=(
                    Choice("short", "Близкая (0)", "Short (0)"),
                    Choice("medium", "Средняя (–2)", "Medium (-2)"),
                    Choice("long", "Дальняя (–4)", "Long (-4)"),
                ),
            ),
            target=_sheet_param("Цель", "Target"),
            target_parry=IntField(
                ru="Защита цели (если без листа)",
                en="Target's Parry (without a sheet)",
                nullable=True,
                default=None,
                min=0,
                max=60,
            ),
        ),
        results={
            **TRAIT_RESULTS,
            RAISE: _t("Попадание с подъёмом: +к6 к урону.", "Hit with a raise: +d6 damage."),
            SUCCESS: _t("Попадание.", "Hit."),
            FAILURE: _t("Промах.", "Miss."),
        },
        options={"reroll": REROLL},
    ),
    MoveSpec(
        key="damage_roll",
        ru="Проверка урона",
        en="Damage roll",
        trigger=_t("Бросок урона: все кубики взрываются.", "Roll damage: every die aces."),
        source="«Взрывной бросок»; «Фишки»; " + PUBLISHED,
        roll="damage",
        params=_params(
            damage=StrField(
                ru="Урон: Сила+к6, 2d6+1", en="Damage: str+d6, 2d6+1", max_length=40, required=True
            ),
            raise_die=BoolField(ru="Попадание с подъёмом (+к6)", en="Hit with a raise (+d6)"),
            joker=BoolField(ru="Джокер (+2)", en="Joker (+2)"),
            modifier=IntField(ru="Модификатор", en="Modifier", default=0, min=-20, max=20),
        ),
        options={"reroll": REROLL},
    ),
    MoveSpec(
        key="take_damage",
        ru="Получить урон",
        en="Take damage",
        trigger=_t(
            "Урон против Стойкости: шок и ранения; можно сделать проверку на прочность.",
            "Damage against Toughness: Shaken and wounds; a soak roll may follow.",
        ),
        source="«Дикие карты и статисты»; «Фишки»; " + PUBLISHED,
        params=_params(
            damage=IntField(ru="Урон", en="Damage", required=True, min=-99, max=999),
            ap=IntField(ru="Бронебойность", en="Armor piercing", default=0, min=0, max=50),
            pool=POOL_PARAM,
        ),
        results={
            "none": _t("Урон не пробил Стойкость.", "The damage does not beat Toughness."),
            "shaken": _t("В шоке.", "Shaken."),
            "wounded": _t("Ранен.", "Wounded."),
            "incapacitated": _t("Выведен из строя.", "Incapacitated."),
        },
        options={"soak": SOAK, "reroll": REROLL},
    ),
    MoveSpec(
        key="recover_shaken",
        ru="Выйти из шока",
        en="Recover from Shaken",
        trigger=_t(
            "В начале своего действия персонаж в шоке проверяет Характер.",
            "A Shaken character rolls Spirit at the start of its action.",
        ),
        source=PUBLISHED,
        roll="spirit",
        params=_params(
            modifier=IntField(ru="Модификатор", en="Modifier", default=0, min=-20, max=20),
            joker=BoolField(ru="Джокер (+2)", en="Joker (+2)"),
            pool=POOL_PARAM,
        ),
        results=TRAIT_RESULTS,
        options={"reroll": REROLL},
    ),
    MoveSpec(
        key="incapacitation_roll",
        ru="Проверка выведения из строя",
        en="Incapacitation roll",
        trigger=_t(
            "Дикая карта выведена из строя: немедленная проверка Выносливости.",
            "A wild card is incapacitated: an immediate Vigor roll.",
        ),
        source=PUBLISHED + "; Injury Table: Savage Worlds Deluxe p. 78",
        roll="vigor",
        params=_params(
            modifier=IntField(ru="Модификатор", en="Modifier", default=0, min=-20, max=20),
            location=LOCATION_PARAM,
            pool=POOL_PARAM,
        ),
        results=TRAIT_RESULTS,
        options={"reroll": REROLL},
    ),
    MoveSpec(
        key="injury_roll",
        ru="Таблица травм",
        en="Injury Table",
        trigger=_t(
            "Дикая карта получает травму: 2d6 по таблице, для корпуса и головы ещё к6. "
            "После проверки выведения из строя бросается сама.",
            "A wild card is injured: 2d6 on the table, and a d6 for the guts and the head. "
            "The incapacitation roll rolls it by itself.",
        ),
        source=PUBLISHED + "; Savage Worlds Deluxe p. 78; no bennies on table results",
        roll="injury",
        params=_params(
            location=LOCATION_PARAM,
            duration=ChoiceField(
                ru="Срок травмы", en="How long it lasts", default="permanent", choices=DURATIONS
            ),
        ),
        results=INJURY_RESULTS,
    ),
    MoveSpec(
        key="heal_injury",
        ru="Травма прошла",
        en="An injury heals",
        trigger=_t(
            "Раны зажили, прошли сутки или кончился бой: временная травма проходит.",
            "The wounds healed, a day passed or the fight ended: a temporary injury goes away.",
        ),
        source=PUBLISHED,
        kind="action",
        params=_params(
            number=IntField(
                ru="Номер травмы в списке (пусто — все временные)",
                en="Injury number in the list (empty: every temporary one)",
                nullable=True,
                default=None,
                min=1,
                max=40,
            ),
            permanent=BoolField(
                ru="Снять и постоянную (магия, хирургия)",
                en="Also a permanent one (magic, surgery)",
            ),
        ),
    ),
    MoveSpec(
        key="bleeding_out",
        ru="Истекает кровью",
        en="Bleeding out",
        trigger=_t(
            "В начале каждого раунда — проверка Выносливости.",
            "A Vigor roll at the start of each round.",
        ),
        source=PUBLISHED,
        roll="vigor",
        params=_params(
            modifier=IntField(ru="Модификатор", en="Modifier", default=0, min=-20, max=20),
            pool=POOL_PARAM,
        ),
        results=TRAIT_RESULTS,
        options={"reroll": REROLL},
    ),
    MoveSpec(
        key="spend_benny",
        ru="Потратить фишку",
        en="Spend a benny",
        trigger=_t(
            "Фишка на переброс проверки параметра, прочность или выход из шока.",
            "A benny to re-roll a trait check, soak, or shake off Shaken.",
        ),
        source="«Фишки»; «Фишки ведущего»",
        kind="action",
        params=_params(
            purpose=ChoiceField(
                ru="На что",
                en="What for",
                default="trait_reroll",
                choices=tuple(Choice(k, ru, en) for k, ru, en in PURPOSES),
            ),
            source=ChoiceField(
                ru="Чья фишка",
                en="Whose benny",
                default="own",
                choices=(
                    Choice("own", "Своя", "Own"),
                    Choice("pool", "Из пула ведущего", "From the GM's pool"),
                ),
            ),
            pool=POOL_PARAM,
        ),
    ),
    MoveSpec(
        key="award_benny",
        ru="Наградить фишкой",
        en="Award a benny",
        trigger=_t(
            "Ведущий награждает за стиль, находчивость, остроумие.",
            "The GM rewards style, ingenuity, wit.",
        ),
        source="«Фишки»",
        kind="action",
        params=_params(amount=IntField(ru="Сколько", en="How many", default=1, min=1, max=10)),
    ),
    MoveSpec(
        key="give_benny",
        ru="Отдать фишку",
        en="Give a benny",
        trigger=_t(
            "Передать свою фишку другому персонажу.",
            "Hand one's own benny to another character.",
        ),
        source="«Фишки ведущего»; Common Bond: " + PUBLISHED,
        kind="action",
        params=_params(recipient=_sheet_param("Кому", "To whom")),
    ),
    MoveSpec(
        key="start_session",
        ru="Начало сессии",
        en="Start of session",
        trigger=_t(
            "Игрокам по 3 фишки, ведущему — по одной за персонажа игрока, его дикие карты — по 2.",
            "Players get 3 bennies, the GM one per player character, GM wild cards 2 each.",
        ),
        source="«Фишки»; «Фишки ведущего»",
        kind="action",
        subject="table",
        params=_params(
            characters=ListField(
                ru="Все персонажи кампании",
                en="Every character in the campaign",
                item=ObjectField(fields=SHEET.fields),
                max_items=500,
            )
        ),
    ),
    MoveSpec(
        key="end_session",
        ru="Конец сессии",
        en="End of session",
        trigger=_t("Неиспользованные фишки сгорают.", "Unused bennies are lost."),
        source="«Фишки ведущего»",
        kind="action",
        subject="table",
        params=_params(
            characters=ListField(
                ru="Все персонажи кампании",
                en="Every character in the campaign",
                item=ObjectField(fields=SHEET.fields),
                max_items=500,
            )
        ),
    ),
    MoveSpec(
        key="start_combat",
        ru="Начало боя",
        en="Start of combat",
        trigger=_t("Тасуем колоду действий.", "Shuffle the action deck."),
        source=PUBLISHED,
        kind="action",
        subject="table",
    ),
    MoveSpec(
        key="deal_round",
        ru="Раздать карты",
        en="Deal the round",
        trigger=_t(
            "Каждой дикой карте и каждой группе статистов по карте.",
            "A card to each wild card and each group of extras.",
        ),
        source=PUBLISHED,
        kind="action",
        subject="table",
        params=_params(
            participants=ListField(
                ru="Участники (группа статистов — один участник)",
                en="Participants (a group of extras is one)",
                item=PARTICIPANT,
                min_items=1,
                max_items=40,
            )
        ),
    ),
    MoveSpec(
        key="end_combat",
        ru="Конец боя",
        en="End of combat",
        trigger=_t("Карты в сброс.", "Cards to the discards."),
        source=PUBLISHED,
        kind="action",
        subject="table",
    ),
)
MOVES_BY_KEY: dict[str, MoveSpec] = {m.key: m for m in MOVES}
RANGE_KEYS = tuple(RANGE_PENALTY)
