"""Сказания волшебного мира moves and sheet actions as data: names, triggers,
parameters and result texts. ``describe()`` and ``resolve`` read the same specs, so a form and
the rule behind it cannot drift apart.

``subject`` says what ``resolve`` takes as ``state``: ``"character"`` (a sheet, PCs and GM
characters alike), ``"battle"`` (the battle record ``BATTLE``) or ``"none"`` (anything; it is
returned unchanged — the random tables).
"""

from __future__ import annotations

from typing import Any

from systems.core.outcome import Text
from systems.core.schema import (
    BoolField,
    Choice,
    ChoiceField,
    Field,
    IntField,
    ListField,
    MoveSpec,
    ObjectField,
    SheetField,
    StrField,
)
from systems.tales.checks import FAILURE, REPEAT, SUCCESS
from systems.tales.data import (
    ATTACK_MODES,
    CONDITIONS,
    DIFFICULTIES,
    ELEMENTS,
    NATURAL,
    SHIELDS,
    SKILLS,
    SPELLS,
    STATS,
    TRAPS,
    WEAPONS,
    choices_of,
)
from systems.tales.sheet import SHEET, SIDES
from systems.tales.tables import TABLES


def _t(ru: str, en: str) -> Text:
    return Text(ru, en)


def _params(*groups: dict[str, Field], **fields: Field) -> ObjectField:
    merged: dict[str, Field] = {}
    for group in groups:
        merged.update(group)
    merged.update(fields)
    return ObjectField(fields=merged)


def sheet_param(ru: str, en: str) -> SheetField:
    """The other side of an attack, a patient, a follower... (nullable)."""
    return SheetField(ru=ru, en=en, nullable=True, default=None, fields=SHEET.fields)


STAT = ChoiceField(ru="Характеристика", en="Stat", default=None, required=True, choices=STATS)
OPT_SKILL = ChoiceField(
    ru="Навык", en="Skill", default="", choices=(Choice("", "—", "—"), *choices_of(SKILLS))
)
DETAIL = StrField(ru="Уточнение навыка (ремесло…)", en="Skill detail (craft…)", max_length=60)
BONUS = IntField(ru="Прочие модификаторы", en="Other modifiers", default=0, min=-30, max=30)
DIFFICULTY = ChoiceField(ru="Сложность", en="Difficulty", default="check", choices=DIFFICULTIES)
DICE_COUNT = IntField(
    ru="Сколько d10 бросает персонаж", en="d10s the character dares", default=2, min=1, max=10
)
OPPONENT_DICE = IntField(
    ru="Сколько d10 бросает противник", en="d10s the opponent dares", default=2, min=1, max=10
)
OPPONENT_VALUE = IntField(
    ru="Характеристика противника (если нет его листа)",
    en="Opponent's value (when there is no sheet)",
    default=None,
    nullable=True,
    min=0,
    max=300,
)
TARGET = sheet_param("Цель (лист)", "Target (sheet)")
DISTANCE = IntField(
    ru="Расстояние до цели",
    en="Distance to the target",
    default=None,
    nullable=True,
    min=0,
    max=999,
)

CHECK_PARAMS: dict[str, Field] = {"difficulty": DIFFICULTY, "bonus": BONUS}
OPPOSED_PARAMS: dict[str, Field] = {
    "dice_count": DICE_COUNT,
    "opponent_dice": OPPONENT_DICE,
    "opponent_value": OPPONENT_VALUE,
}
ATTACK_PARAMS: dict[str, Field] = {
    "weapon": ChoiceField(
        ru="Оружие",
        en="Weapon",
        default="unarmed",
        choices=(*choices_of(WEAPONS), Choice(NATURAL, "Природное оружие", "Natural weapon")),
    ),
    "mode": ChoiceField(
        ru="Как", en="How", default="", choices=(Choice("", "Обычно", "Default"), *ATTACK_MODES)
    ),
    "target": TARGET,
    "distance": DISTANCE,
    "bonus": BONUS,
    "target_shield": ChoiceField(
        ru="Щит цели (если нет листа)",
        en="Target's shield (no sheet)",
        default="none",
        choices=choices_of(SHIELDS),
    ),
    "target_armour": IntField(
        ru="Броня цели (если нет листа)", en="Target's armour (no sheet)", default=0, min=0, max=20
    ),
    "target_conditions": ListField(
        ru="Состояния цели (если нет листа)",
        en="Target's conditions (no sheet)",
        item=ChoiceField(default="prone", choices=choices_of(CONDITIONS)),
        max_items=20,
    ),
    "counter_weapon": ChoiceField(
        ru="Оружие ответной атаки цели",
        en="Target's counter-attack weapon",
        default="",
        choices=(
            Choice("", "Что в руке", "Whatever is drawn"),
            *choices_of(WEAPONS),
            Choice(NATURAL, "Природное оружие", "Natural weapon"),
        ),
    ),
}

CHECK_RESULTS = {
    SUCCESS: _t("Успех.", "Success."),
    FAILURE: _t("Провал.", "Failure."),
}
OPPOSED_RESULTS = {
    **CHECK_RESULTS,
    REPEAT: _t("Оба перебрали или ничья: проверка повторяется.", "Both bust or a tie: repeat."),
}
ATTACK_RESULTS = {
    SUCCESS: _t("Попадание.", "Hit."),
    FAILURE: _t("Промах.", "Miss."),
}


def _move(key: str, ru: str, en: str, trigger: Text, source: str, **kw: Any) -> MoveSpec:
    return MoveSpec(key=key, ru=ru, en=en, trigger=trigger, source=source, **kw)


def _action(key: str, ru: str, en: str, trigger: Text, source: str, **kw: Any) -> MoveSpec:
    return MoveSpec(key=key, ru=ru, en=en, trigger=trigger, source=source, kind="action", **kw)


MOVES: tuple[MoveSpec, ...] = (
    # --- checks -----------------------------------------------------------------------------
    _move(
        "check",
        "Проверка",
        "Check",
        _t(
            "Исход не очевиден: 2d10 (сложная — 3d10) не выше характеристики.",
            "The outcome is unclear: 2d10 (hard: 3d10) at most the stat.",
        ),
        "«Проверка ловкости, силы и разума»",
        roll="stat",
        params=_params(CHECK_PARAMS, stat=STAT, skill=OPT_SKILL, detail=DETAIL),
        results=CHECK_RESULTS,
    ),
    _move(
        "skill",
        "Применить навык",
        "Use a skill",
        _t(
            "Проверка характеристики навыка, +1 за уровень; особые последствия навыка.",
            "A check of the skill's stat, +1 per level, with the skill's own effects.",
        ),
        (
            "«Навыки»; «Боевые навыки»; «Спортивные навыки»; «Социальные навыки»; "
            "«Навыки выживания»; «Воровские навыки»; «Ремёсла»"
        ),
        roll="skill",
        params=_params(
            CHECK_PARAMS,
            OPPOSED_PARAMS,
            skill=ChoiceField(
                ru="Навык", en="Skill", default=None, required=True, choices=choices_of(SKILLS)
            ),
            detail=DETAIL,
            target=sheet_param("Кого лечат, ведут и т.п. (лист)", "Patient, follower… (sheet)"),
            in_town=BoolField(ru="В городе", en="In a town"),
            stat=ChoiceField(
                ru="Характеристика зелья (алхимия)",
                en="Potion's stat (alchemy)",
                default="any",
                choices=(*STATS, Choice("any", "Любая", "Any")),
            ),
        ),
        results=OPPOSED_RESULTS,
    ),
    _move(
        "opposed_check",
        "Противопоставленная проверка",
        "Opposed check",
        _t(
            "Кто-то мешает: каждый бросает сколько хватит смелости d10; перебор проигрывает.",
            "Someone opposes: each rolls as many d10 as they dare; a bust loses.",
        ),
        "«Противопоставленная проверка»",
        roll="opposed",
        params=_params(
            OPPOSED_PARAMS,
            stat=STAT,
            skill=OPT_SKILL,
            detail=DETAIL,
            bonus=BONUS,
            target=sheet_param("Противник (лист)", "Opponent (sheet)"),
            opponent_stat=ChoiceField(
                ru="Характеристика противника",
                en="Opponent's stat",
                default="",
                choices=(Choice("", "Та же", "The same"), *STATS),
            ),
        ),
        results=OPPOSED_RESULTS,
    ),
    # --- battle ------------------------------------------------------------------------------
    _move(
        "surprise",
        "Внезапность",
        "Surprise",
        _t(
            "Одна сторона не ждала битвы: её представитель бросает d6; на 1–4 сначала "
            "действует противник.",
            "One side did not expect the battle: it rolls d6; on 1-4 the enemy acts first.",
        ),
        "«Внезапность»",
        subject="battle",
        roll="d6",
        params=_params(
            unaware=ChoiceField(
                ru="Кого застали врасплох", en="Unaware side", default="party", choices=SIDES
            )
        ),
        results={
            SUCCESS: _t("Опасность почуяли в последний момент.", "Danger sensed in time."),
            FAILURE: _t(
                "Противник действует первым, потом бросок инициативы.",
                "The enemy acts first, then initiative.",
            ),
        },
    ),
    _move(
        "tactics",
        "Тактика",
        "Tactics",
        _t(
            "Успешная проверка разума с тактикой отдаёт инициативу стороне персонажей.",
            "A successful Mind check with Tactics gives the initiative to the characters.",
        ),
        "«Навыки выживания»",
        subject="battle",
        roll="mind",
        params=_params(
            character=sheet_param("Кто применяет тактику", "Who uses Tactics"), bonus=BONUS
        ),
        results=CHECK_RESULTS,
    ),
    _move(
        "initiative",
        "Инициатива",
        "Initiative",
        _t(
            "Каждая сторона бросает d10; у кого больше, тот действует первым, дальше по очереди.",
            "Each side rolls d10; the higher acts first, then they alternate.",
        ),
        "«Инициатива»",
        subject="battle",
        roll="d10",
        results={
            "party": _t("Первыми действуют персонажи.", "The characters act first."),
            "enemies": _t("Первыми действуют противники.", "The enemies act first."),
            REPEAT: _t("Ничья: перебросьте.", "A tie: roll again."),
        },
    ),
    _action(
        "next_side",
        "Черёд другой стороны",
        "Next side",
        _t("Сторона закончила: черёд другой.", "A side has finished: the other acts."),
        "«Инициатива»; «Ходы»",
        subject="battle",
    ),
    _action(
        "start_turn",
        "Начало хода",
        "Start of turn",
        _t(
            "Ход персонажа: движение на половину ловкости и одно действие; отреагировавший "
            "пропускает ход.",
            "A character's turn: move half Dex and one action; one who reacted skips it.",
        ),
        "«Ход»; «Атака»",
        params=_params(
            in_fire=BoolField(
                ru="Начинает ход в огне",
                en="Starts the turn in fire",
                help_ru="2 повреждения, броня не помогает.",
                help_en="2 damage, armour does not help.",
            )
        ),
    ),
    _action(
        "new_round",
        "Новый раунд",
        "New round",
        _t("Реагировать снова можно раз в раунд.", "A reaction is again possible once a round."),
        "«Атака»",
    ),
    _action(
        "move",
        "Движение",
        "Move",
        _t("Пройти часть дистанции хода.", "Move part of the turn's distance."),
        "«Ход»; «Атака»",
        params=_params(
            units=IntField(ru="Сколько", en="Units", default=1, min=1, max=999),
            with_action=BoolField(
                ru="Действие на ходу (достать оружие, поднять предмет)",
                en="Acting while moving (draw, pick up)",
            ),
        ),
    ),
    _action(
        "handle_weapon",
        "Оружие: достать, убрать, бросить, поднять",
        "Weapon: draw, sheathe, drop, pick up",
        _t(
            "Достать или убрать оружие — действие, бросить — нет.",
            "Drawing or sheathing is an action; dropping is free.",
        ),
        "«Атака»; «Оружие»",
        params=_params(
            op=ChoiceField(
                ru="Что сделать",
                en="Do what",
                default="draw",
                choices=(
                    Choice("draw", "Достать", "Draw"),
                    Choice("sheathe", "Убрать", "Sheathe"),
                    Choice("drop", "Бросить", "Drop"),
                    Choice("pick_up", "Поднять", "Pick up"),
                ),
            ),
            index=IntField(
                ru="Номер оружия в списке", en="Weapon's index", default=0, min=0, max=19
            ),
        ),
    ),
    _action(
        "reload",
        "Перезарядка",
        "Reload",
        _t("Арбалет — действие, тяжёлый арбалет — два.", "A crossbow: 1 action; heavy: 2."),
        "«Атака»",
        params=_params(
            index=IntField(ru="Номер оружия", en="Weapon's index", default=0, min=0, max=19)
        ),
    ),
    _move(
        "attack",
        "Атака",
        "Attack",
        _t(
            "Один удар, выстрел или бросок по одному врагу: 2d10 не выше ловкости; после атаки "
            "двигаться нельзя.",
            "One strike, shot or throw at one enemy: 2d10 at most Dex; no moving after it.",
        ),
        "«Проверка на попадание по врагу»; «Атака»; «Оружие»; «Доспехи и щиты»",
        roll="dex",
        params=_params(ATTACK_PARAMS),
        results=ATTACK_RESULTS,
    ),
    _move(
        "opportunity_attack",
        "Ответная атака по проходящему",
        "Opportunity attack",
        _t(
            "Кто-то прошёл слишком близко: атака ценой следующего действия, раз в раунд.",
            "Someone moved too close: attack at the cost of the next action, once a round.",
        ),
        "«Атака»",
        roll="dex",
        params=_params(ATTACK_PARAMS),
        results=ATTACK_RESULTS,
    ),
    _move(
        "push",
        "Толчок",
        "Push",
        _t(
            "Противопоставленная проверка силы или ловкости (объявить до броска): цель падает "
            "или отступает на одну дистанцию.",
            "An opposed Str or Dex check declared beforehand: the target falls or steps back.",
        ),
        "«Атака»",
        roll="opposed",
        params=_params(
            OPPOSED_PARAMS,
            stat=ChoiceField(ru="Чем толкать", en="Stat", default="str", choices=STATS[:2]),
            goal=ChoiceField(
                ru="Цель толчка",
                en="Goal",
                default="knock_down",
                choices=(
                    Choice("knock_down", "Сбить с ног", "Knock down"),
                    Choice("push_back", "Оттолкнуть на одну дистанцию", "Push back 1 unit"),
                ),
            ),
            target=TARGET,
            bonus=BONUS,
        ),
        results=OPPOSED_RESULTS,
    ),
    _move(
        "grapple",
        "Захват",
        "Grapple",
        _t("Выиграть противопоставленную проверку силы.", "Win an opposed Str check."),
        "«Атака»",
        roll="opposed",
        params=_params(OPPOSED_PARAMS, target=TARGET, bonus=BONUS),
        results=OPPOSED_RESULTS,
    ),
    _action(
        "grapple_action",
        "Действие в захвате",
        "Grappling action",
        _t(
            "Отпустить, нанести автоматический урон или перейти вместе на одну дистанцию.",
            "Release, deal automatic damage, or move 1 unit together.",
        ),
        "«Атака»",
        params=_params(
            op=ChoiceField(
                ru="Что сделать",
                en="Do what",
                default="damage",
                choices=(
                    Choice("release", "Отпустить", "Release"),
                    Choice("damage", "Рукопашный урон", "Hand-to-hand damage"),
                    Choice("move", "Перейти вместе", "Move together"),
                ),
            ),
            target=TARGET,
        ),
    ),
    _move(
        "break_free",
        "Вырваться из захвата",
        "Break free",
        _t("Выиграть противопоставленную проверку силы.", "Win an opposed Str check."),
        "«Атака»",
        roll="opposed",
        params=_params(
            OPPOSED_PARAMS,
            target=sheet_param("Кто держит (лист)", "Grappler (sheet)"),
            bonus=BONUS,
        ),
        results=OPPOSED_RESULTS,
    ),
    _move(
        "break_bonds",
        "Разорвать путы",
        "Break the bonds",
        _t(
            "Проверка силы; для крепких пут — сложная.",
            "A Str check; a hard one for Strong bonds.",
        ),
        "«Чары»",
        roll="str",
        params=_params(bonus=BONUS),
        results=CHECK_RESULTS,
    ),
    _move(
        "cast",
        "Колдовство",
        "Cast a spell",
        _t(
            "Прямое — противопоставленная проверка разума; непрямое — сложная проверка "
            "разума (с посохом — обычная).",
            "Direct: an opposed Mind check; indirect: a hard Mind check (normal with a staff).",
        ),
        "«Колдовство»; «Чары»; «Мгновенные заклинания»",
        roll="mind",
        params=_params(
            OPPOSED_PARAMS,
            spell=ChoiceField(
                ru="Заклинание",
                en="Spell",
                default=None,
                required=True,
                choices=choices_of(SPELLS),
            ),
            x=IntField(
                ru="X: сколько повреждений нанести себе",
                en="X: self-damage",
                default=0,
                min=0,
                max=999,
            ),
            target=TARGET,
            targets=ListField(
                ru="Все, кого задевает (листы)",
                en="Everyone affected (sheets)",
                item=SheetField(fields=SHEET.fields),
                max_items=30,
            ),
            on_self=BoolField(ru="На себя", en="On oneself"),
            distance=DISTANCE,
            target_resists=BoolField(
                ru="Цель сопротивляется", en="The target resists", default=True
            ),
            stat=ChoiceField(
                ru="Характеристика (форсаж энергий)",
                en="Stat (Energy boost)",
                default="str",
                choices=STATS,
            ),
            soul=sheet_param("Умерший, чья душа возвращается", "The dead whose soul returns"),
            element=ChoiceField(ru="Стихия", en="Element", default="earth", choices=ELEMENTS),
            bonus=BONUS,
        ),
        results={
            SUCCESS: _t("Заклинание сработало.", "The spell works."),
            FAILURE: _t("Заклинание не сработало.", "The spell fails."),
            REPEAT: OPPOSED_RESULTS[REPEAT],
        },
    ),
    _action(
        "end_form",
        "Вернуть человеческий облик",
        "Return to human shape",
        _t("Конец превращения.", "The transformation ends."),
        "«Чары»",
    ),
    # --- wounds, rest, hazards -----------------------------------------------------------------
    _action(
        "take_damage",
        "Получить повреждения",
        "Take damage",
        _t("Хиты 0 или меньше — смерть.", "At 0 HP or less the character dies."),
        "«Ранения и лечение»; «Доспехи и щиты»",
        params=_params(
            amount=IntField(ru="Повреждения", en="Damage", default=1, min=0, max=999),
            ignores_armour=BoolField(ru="Броня не помогает", en="Armour does not help"),
            hit=BoolField(ru="Это попадание (минимум 1)", en="A hit (at least 1)", default=True),
        ),
    ),
    _action(
        "heal",
        "Восстановить хиты",
        "Heal",
        _t("Не выше максимума.", "Never above max."),
        "«Ранения и лечение»",
        params=_params(amount=IntField(ru="Хиты", en="HP", default=1, min=1, max=999)),
    ),
    _action(
        "rest_day",
        "День отдыха",
        "A day of rest",
        _t(
            "Семь дней полного покоя возвращают все хиты; любое прерывание сбрасывает счёт.",
            "Seven days of full rest restore all HP; any interruption resets the count.",
        ),
        "«Ранения и лечение»",
        params=_params(interrupted=BoolField(ru="Отдых прерван", en="Rest interrupted")),
    ),
    _action(
        "drink_potion",
        "Выпить зелье",
        "Drink a potion",
        _t("Зелье лечения или алхимическое.", "A healing or an alchemical potion."),
        "«Ремёсла»",
        params=_params(
            index=IntField(ru="Номер зелья", en="Potion's index", default=0, min=0, max=29)
        ),
    ),
    _action(
        "gain_spirit",
        "Получить пункты духа",
        "Gain spirit points",
        _t("Слушатель исполнения получает пункты духа.", "A listener gains spirit points."),
        "«Ремёсла»",
        params=_params(points=IntField(ru="Пункты", en="Points", default=1, min=1, max=99)),
    ),
    _action(
        "end_scene",
        "Конец сцены",
        "End of scene",
        _t("Чары рассеиваются.", "Charms end."),
        "«Колдовство»; «Структуры игры»",
    ),
    _action(
        "set_condition",
        "Отметить состояние",
        "Set a condition",
        _t("Тьма, лёд, сбит с ног и т.п.", "Darkness, ice, knocked down and so on."),
        "«Атака»; «Чары»",
        params=_params(
            condition=ChoiceField(
                ru="Состояние",
                en="Condition",
                default=None,
                required=True,
                choices=choices_of(CONDITIONS),
            ),
            clear=BoolField(ru="Снять", en="Remove"),
        ),
    ),
    _action(
        "change_stat",
        "Изменить характеристику",
        "Change a stat",
        _t(
            "Болезнь, проклятье и т.п.; сила меняет и максимум хитов.",
            "Disease, a curse…; Str also changes max HP.",
        ),
        "«Структуры игры»",
        params=_params(
            stat=STAT,
            delta=IntField(ru="На сколько", en="By", default=-1, min=-200, max=200),
            until=ChoiceField(
                ru="Действует",
                en="Lasts",
                default="lasting",
                choices=(
                    Choice("lasting", "Пока не снимут", "Until removed"),
                    Choice("scene", "До конца сцены", "Until the end of the scene"),
                    Choice("permanent", "Навсегда (значение листа)", "For good (the sheet value)"),
                ),
            ),
            source=StrField(ru="Причина", en="Cause", max_length=60),
        ),
    ),
    _move(
        "fall",
        "Падение",
        "Fall",
        _t(
            "1d6 за каждые 2 м после первых двух; акробатика снимает 1d6 за уровень.",
            "1d6 per 2 m beyond the first 2 m; Acrobatics removes 1d6 per level.",
        ),
        "«Спортивные навыки»; «Структуры игры»",
        roll="damage",
        params=_params(metres=IntField(ru="Метров", en="Metres", default=2, min=0, max=1000)),
    ),
    _action(
        "hunger_day",
        "День без еды или с едой",
        "A day with or without food",
        _t(
            "Каждый день без еды после первого отнимает силу; с едой она возвращается по 1.",
            "Each foodless day after the first costs Str; with food it returns 1 a day.",
        ),
        "«Структуры игры»",
        params=_params(ate=BoolField(ru="Ел", en="Ate", default=True)),
    ),
    _move(
        "trap",
        "Ловушка",
        "Trap",
        _t(
            "d10 по таблице ловушек; избежать — проверка указанной характеристики.",
            "d10 on the trap table; avoid it with a check of the listed stat.",
        ),
        "«Ловушки»",
        roll="trap",
        params=_params(
            trap=ChoiceField(
                ru="Ловушка (пусто — бросить d10)",
                en="Trap (empty: roll d10)",
                default="",
                choices=(Choice("", "Бросить d10", "Roll d10"), *choices_of(TRAPS)),
            ),
            depth=IntField(
                ru="Глубина ямы, м (пусто — бросить)",
                en="Pit depth, m (empty: roll)",
                default=None,
                nullable=True,
                min=0,
                max=100,
            ),
            bonus=BONUS,
        ),
        results={
            SUCCESS: _t("Ловушки удалось избежать.", "The trap is avoided."),
            FAILURE: _t("Ловушка сработала.", "The trap goes off."),
        },
    ),
    # --- advancement ---------------------------------------------------------------------------
    _action(
        "spend_money",
        "Потратить деньги",
        "Spend money",
        _t(
            "Траты на бесполезное для приключений дают опыт, на снаряжение — нет.",
            "Spending on things useless for adventuring gives XP; on gear it does not.",
        ),
        "«Развитие персонажа»",
        params=_params(
            silver=IntField(ru="Серебро", en="Silver", default=0, min=0, max=10**9),
            gold=IntField(ru="Золото", en="Gold", default=0, min=0, max=10**9),
            purpose=ChoiceField(
                ru="На что",
                en="On what",
                default="xp",
                choices=(
                    Choice(
                        "xp",
                        "Выпивка, яства, украшения, храм, недвижимость…",
                        "Drink, food, jewellery, temples, property…",
                    ),
                    Choice(
                        "gear",
                        "Оружие, зелья, снятие проклятий…",
                        "Weapons, potions, lifting curses…",
                    ),
                ),
            ),
        ),
    ),
    _action(
        "keep_trinket",
        "Оставить безделушку",
        "Keep a trinket",
        _t(
            "Понравившаяся драгоценность даёт опыт, но продать её уже нельзя.",
            "A kept trinket gives XP but can never be sold.",
        ),
        "«Развитие персонажа»",
        params=_params(
            value=IntField(ru="Стоимость", en="Value", default=0, min=0, max=10**9),
            name=StrField(ru="Что это", en="What it is", max_length=100),
        ),
    ),
    _action(
        "add_xp",
        "Записать опыт",
        "Add XP",
        _t("Опыт по решению ведущего.", "XP as the GM decides."),
        "«Развитие персонажа»",
        params=_params(amount=IntField(ru="Опыт", en="XP", default=0, min=-(10**9), max=10**9)),
    ),
    _action(
        "buy_skill",
        "Взять навык за опыт",
        "Buy a skill with XP",
        _t("1000 опыта: новый навык или уровень.", "1000 XP: a new skill or a level."),
        "«Развитие персонажа»",
        params=_params(
            skill=ChoiceField(
                ru="Навык", en="Skill", default=None, required=True, choices=choices_of(SKILLS)
            ),
            detail=DETAIL,
        ),
    ),
    _action(
        "buy_spell",
        "Взять заклинание за опыт",
        "Buy a spell with XP",
        _t(
            "1000 опыта, если позволяет происхождение и разум.",
            "1000 XP, if origin and Mind allow.",
        ),
        "«Колдовство»; «Развитие персонажа»",
        params=_params(
            spell=ChoiceField(
                ru="Заклинание",
                en="Spell",
                default=None,
                required=True,
                choices=choices_of(SPELLS),
            )
        ),
    ),
    _action(
        "raise_stat",
        "Повысить характеристику",
        "Raise a stat",
        _t("Новое значение × 1000 опыта.", "New value × 1000 XP."),
        "«Развитие персонажа»",
        params=_params(stat=STAT),
    ),
    # --- random tables -------------------------------------------------------------------------
    _move(
        "roll_table",
        "Бросок по таблице",
        "Roll on a table",
        _t("Любая случайная таблица игры.", "Any random table of the game."),
        "«Подземелье»; «Ловушки»; «Открытая местность и города»",
        subject="none",
        roll="table",
        params=_params(
            table=ChoiceField(
                ru="Таблица",
                en="Table",
                default="room_contents",
                choices=tuple(Choice(t["key"], t["name"]["ru"], t["name"]["en"]) for t in TABLES),
            )
        ),
    ),
    _move(
        "dungeon_room",
        "Комната подземелья",
        "Dungeon room",
        _t("Для каждой комнаты d10 и d6.", "For each room, d10 and d6."),
        "«Подземелье»",
        subject="none",
        roll="table",
    ),
    _move(
        "treasure",
        "Сокровище",
        "Treasure",
        _t("Каждая строка — свой d10.", "Each line rolls its own d10."),
        "«Подземелье»",
        subject="none",
        roll="table",
        params=_params(
            size=ChoiceField(
                ru="Какое",
                en="Size",
                default="small",
                choices=(
                    Choice("small", "Малое", "Small"),
                    Choice("normal", "Нормальное", "Normal"),
                ),
            )
        ),
    ),
)

MOVES_BY_KEY: dict[str, MoveSpec] = {m.key: m for m in MOVES}
