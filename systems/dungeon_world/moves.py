"""Dungeon World moves and sheet actions as data: names, triggers, results, option lists and
parameter specs («Основные ходы персонажей»; «Руби и кромсай»; «Дать залп»; «Спастись от угрозы»;
«Встать на защиту»; «Покопаться в памяти»; «Изучить обстановку»; «Договориться»; «Пирушка»;
«Последний вздох»; «Тяжкая ноша»; «Разбить лагерь»; «Нести дозор»; «Помочь или помешать»;
«Отправиться в опасное путешествие»; «Пополнить припасы»; «Восстановить силы»; «Найм»;
«Неоплаченный долг»; «Усердно заниматься»; «Повысить уровень»; «Конец сессии», damage
«Урон и лечение»; «ОЗ (очки здоровья)»; «Урон»; «Одновременный урон от нескольких противников»;
«Оглушающий урон»; «Увеличение и уменьшение урона»; «Больший и меньший»; «Лечение»; «Смерть»;
«После смерти»; «Травмы»).

``describe()`` is built from these specs and ``resolve`` validates parameters with the same
specs, so the form a page renders and the rule that runs can never disagree.
"""

from __future__ import annotations

from typing import Any

from systems.core.outcome import Option, Text
from systems.core.pbta import MISS, STRONG, WEAK
from systems.core.schema import (
    PLAYER,
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
from systems.dungeon_world.damage import check_expression
from systems.dungeon_world.sheet import DEBILITIES, MOVE_CHOICES, MOVE_NAMES, NPC, STATS


def _t(ru: str, en: str) -> Text:
    return Text(ru, en)


def _o(key: str, ru: str, en: str) -> Option:
    return Option(key, ru, en)


MISS_TEXT = _t(
    "Ведущий говорит, что произошло; запишите опыт.", "The GM says what happens; mark XP."
)

# Parameters every ordinary move roll accepts (not Last Breath: no bonuses at all,
# «Последний вздох»).
ROLL_PARAMS: dict[str, Field] = {
    "preparation": IntField(
        ru="Потратить очки подготовки (не больше 1 за бросок)",
        en="Spend preparation (at most 1 per roll)",
        default=0,
        min=0,
        max=99,
    ),
    "aid": IntField(
        ru="Помощь или помеха других (+1 / -2 за каждого)",
        en="Aid or interference from others (+1 / -2 each)",
        default=0,
        min=-12,
        max=6,
    ),
    "bonus": IntField(
        ru="Прочие бонусы к броску (предметы, ведущий)",
        en="Other bonuses to the roll (items, GM)",
        default=0,
        min=-5,
        max=5,
    ),
    "overload": ChoiceField(
        ru="Перегруз: сбросить груз или провалить бросок",
        en="Overloaded: drop weight or fail the roll",
        default="",
        choices=(
            Choice("", "—", "—"),
            Choice("drop", "Сбросить груз", "Drop weight"),
            Choice("auto_fail", "Автоматом провалить бросок", "Automatically fail"),
        ),
    ),
    "drop_weight": IntField(
        ru="Сколько веса сбросить", en="Weight to drop", default=0, min=0, max=999
    ),
}

TARGET = ObjectField(
    ru="Цель (персонаж ведущего)",
    en="Target (GM character)",
    nullable=True,
    default=None,
    fields=NPC.fields,
)

DAMAGE_PARAMS: dict[str, Field] = {
    "target": TARGET,
    "damage_bonus": IntField(ru="Бонус к урону", en="Damage bonus", default=0, min=-20, max=20),
    "ignores_armor": BoolField(ru="Урон игнорирует броню", en="Damage ignores armor"),
}


def _params(*groups: dict[str, Field], **fields: Field) -> ObjectField:
    merged: dict[str, Field] = {}
    for group in groups:
        merged.update(group)
    merged.update(fields)
    return ObjectField(fields=merged)


def _name(key: str) -> tuple[str, str]:
    return MOVE_NAMES[key]


HOLD_DEFEND = OptionSet(
    pick=1,
    chooser=PLAYER,
    options=(
        _o(
            "take_attack",
            "Заслонить объект и принять атаку на себя.",
            "Take the attack on yourself.",
        ),
        _o("halve", "Ополовинить урон.", "Halve the damage."),
        _o(
            "open_attacker",
            "Заставить атакующего открыться; один из союзников получает +1 на следующий бросок "
            "против него.",
            "Open the attacker up: one ally gets +1 on their next roll against it.",
        ),
        _o(
            "level_damage",
            "Нанести атакующему урон, равный вашему уровню.",
            "Deal damage to the attacker equal to your level.",
        ),
    ),
)

DISCERN_QUESTIONS = (
    _o("recent", "Что здесь недавно произошло?", "What happened here recently?"),
    _o("about_to", "Что вот-вот случится?", "What is about to happen?"),
    _o("beware", "Чего мне стоит опасаться?", "What should I be on the lookout for?"),
    _o(
        "useful",
        "Что здесь есть полезного или ценного для меня?",
        "What here is useful or valuable to me?",
    ),
    _o("in_charge", "Кто здесь на самом деле главный?", "Who's really in control here?"),
    _o("not_as_seems", "Что здесь не то, чем кажется?", "What here is not what it appears to be?"),
)

CAROUSE_OPTIONS = (
    _o(
        "befriend",
        "Вы заводите знакомство с важным персонажем ведущего.",
        "You befriend a useful GM character.",
    ),
    _o(
        "rumours",
        "До вас доходят интересные многообещающие слухи.",
        "You hear rumours of an opportunity.",
    ),
    _o("information", "Вы получаете полезную информацию.", "You gain useful information."),
    _o(
        "unharmed",
        "Во время пирушки вас никто не обманул, не околдовал и вы не встречаете утро за решёткой.",
        "You are not cheated, bewitched or jailed during the party.",
    ),
)

RECRUIT_SEND_AWAY = _o(
    "send_away",
    "Прогнать кандидатов (-1 на следующую попытку найма)",
    "Send them away (-1 forward to Recruit)",
)

AFTER_TEN = OptionSet(
    pick=1,
    chooser=PLAYER,
    options=(
        _o("retire", "Уйти на покой", "Retire"),
        _o("apprentice", "Взять ученика", "Take an apprentice"),
        _o("change_class", "Полностью изменить класс", "Change class completely"),
    ),
)

APPROACHES = (
    Choice("force", "грубой силой (СИЛ)", "brute force (STR)"),
    Choice("agility", "проворством и скоростью (ЛОВ)", "agility and speed (DEX)"),
    Choice("endurance", "выносливостью (ТЕЛ)", "endurance (CON)"),
    Choice("wits", "сообразительностью (ИНТ)", "quick thinking (INT)"),
    Choice("spirit", "силой духа (МДР)", "strength of spirit (WIS)"),
    Choice("charm", "шармом и изящными словами (ХАР)", "charm and fine words (CHA)"),
)
APPROACH_STAT = {
    "force": "str",
    "agility": "dex",
    "endurance": "con",
    "wits": "int",
    "spirit": "wis",
    "charm": "cha",
}

ROLES = (
    Choice("trailblazer", "Проводник", "Trailblazer"),
    Choice("scout", "Разведчик", "Scout"),
    Choice("quartermaster", "Интендант", "Quartermaster"),
)

COVER = ChoiceField(
    ru="Укрытие (броня 1 за частичное, 2 за полное)",
    en="Cover (armor 1 partial, 2 full)",
    default="none",
    choices=(
        Choice("none", "нет", "none"),
        Choice("partial", "частичное", "partial"),
        Choice("full", "полное", "full"),
    ),
)

ATTACKER = ObjectField(
    ru="Атакующий",
    en="Attacker",
    fields={
        "damage": StrField(
            ru="Урон", en="Damage", default="к6", max_length=60, check=check_expression
        ),
        "ignores_armor": BoolField(ru="Игнорирует броню", en="Ignores armor"),
    },
)

FORWARD_FIELDS: dict[str, Field] = {
    "value": IntField(ru="Бонус", en="Bonus", default=1, min=-10, max=10),
    "for_move": ChoiceField(
        ru="Только для хода", en="Only for move", default="", choices=MOVE_CHOICES
    ),
    "note": StrField(ru="Откуда / условие", en="Source / condition", max_length=200),
}


def _move(key: str, trigger: Text, source: str, **kwargs: Any) -> MoveSpec:
    ru, en = _name(key)
    return MoveSpec(key=key, ru=ru, en=en, trigger=trigger, source=source, **kwargs)


def _action(key: str, ru: str, en: str, trigger: Text, source: str, **kwargs: Any) -> MoveSpec:
    return MoveSpec(key=key, ru=ru, en=en, trigger=trigger, source=source, kind="action", **kwargs)


MOVES: tuple[MoveSpec, ...] = (
    _move(
        "hack_and_slash",
        _t(
            "Когда вы атакуете противника в ближнем бою, бросьте+СИЛ.",
            "When you attack an enemy in melee, roll+STR.",
        ),
        "«Ходы»; «Некоторые ходы»; «Руби и кромсай»",
        roll="str",
        params=_params(
            ROLL_PARAMS,
            DAMAGE_PARAMS,
            counter_attack=BoolField(
                ru="Бросить урон ответной атаки цели",
                en="Roll the target's counter-attack",
                default=True,
            ),
        ),
        results={
            STRONG: _t(
                "Вы наносите урон противнику и уходите от его атаки. Если хотите, можете "
                "нанести дополнительно 1к6 урона, но пропустить ответную атаку.",
                "You deal your damage and avoid the enemy's attack. You may deal +1d6 "
                "damage, but then you take their counter-attack.",
            ),
            WEAK: _t(
                "Вы наносите урон противнику, а он атакует вас.",
                "You deal your damage and the enemy attacks you.",
            ),
            MISS: MISS_TEXT,
        },
        options={
            STRONG: OptionSet(
                1,
                PLAYER,
                (
                    _o("avoid", "Уйти от атаки противника", "Avoid the enemy's attack"),
                    _o(
                        "extra_damage",
                        "Нанести дополнительно 1к6 урона, но пропустить ответную атаку",
                        "Deal +1d6 damage but take the counter-attack",
                    ),
                ),
            ),
        },
    ),
    _move(
        "volley",
        _t(
            "Когда, находясь на расстоянии, вы целитесь и стреляете в противника, бросьте+ЛОВ.",
            "When you take aim and shoot at an enemy at range, roll+DEX.",
        ),
        "«Дать залп»",
        roll="dex",
        params=_params(ROLL_PARAMS, DAMAGE_PARAMS),
        results={
            STRONG: _t(
                "Вы делаете точный выстрел и наносите обычный урон.",
                "You have a clear shot and deal your damage.",
            ),
            WEAK: _t(
                "Нанесите урон и выберите один из вариантов.", "Deal your damage and choose one."
            ),
            MISS: MISS_TEXT,
        },
        options={
            WEAK: OptionSet(
                1,
                PLAYER,
                (
                    _o(
                        "danger",
                        "Чтобы попасть, ваш герой должен занять опасную позицию. Ведущий "
                        "опишет детали.",
                        "You have to move into a dangerous position to get the shot; "
                        "the GM describes it.",
                    ),
                    _o(
                        "less_damage",
                        "Выстрел выйдет не очень удачный: -1к6 урона.",
                        "You take what you can get: -1d6 damage.",
                    ),
                    _o(
                        "ammo",
                        "Придется сделать несколько выстрелов: боезапас падает на 1.",
                        "You have to take several shots: ammo drops by 1.",
                    ),
                ),
            ),
        },
    ),
    _move(
        "defy_danger",
        _t(
            "Когда вы действуете, невзирая на опасность или оказываетесь в бедственном положении, "
            "скажите, как именно вы решаете возникшую проблему, и бросьте нужную характеристику.",
            "When you act despite an imminent threat or find yourself in dire straits, say how "
            "you deal with it and roll the matching stat.",
        ),
        "«Ходы»; «Спастись от угрозы»",
        roll="approach",
        params=_params(
            ROLL_PARAMS,
            approach=ChoiceField(
                ru="Как вы решаете проблему",
                en="How you deal with it",
                default=None,
                required=True,
                choices=APPROACHES,
            ),
        ),
        results={
            STRONG: _t(
                "Вам удаётся осуществить задуманное и избежать опасности.",
                "You do what you set out to do and avoid the danger.",
            ),
            WEAK: _t(
                "Вы спотыкаетесь, медлите или отступаете: ведущий может предложить вам исход "
                "похуже, невыгодную сделку или тяжёлый выбор.",
                "You stumble, hesitate or flinch: the GM may offer a worse outcome, a hard "
                "bargain or an ugly choice.",
            ),
            MISS: MISS_TEXT,
        },
    ),
    _move(
        "defend",
        _t(
            "Когда вы защищаете от нападения кого-то или что-то, бросьте+ТЕЛ.",
            "When you defend someone or something from an attack, roll+CON.",
        ),
        "«Некоторые ходы»; «Встать на защиту»",
        roll="con",
        params=_params(
            ROLL_PARAMS,
            protecting=StrField(
                ru="Кого или что вы защищаете", en="Whom or what you defend", max_length=100
            ),
        ),
        results={
            STRONG: _t("Вы получаете запас 3.", "Hold 3."),
            WEAK: _t("Вы получаете запас 1.", "Hold 1."),
            MISS: MISS_TEXT,
        },
        hold=HOLD_DEFEND,
    ),
    _move(
        "spout_lore",
        _t(
            "Когда вы пытаетесь найти в залежах памяти сведения о чём-либо, бросьте+ИНТ.",
            "When you search your memory for knowledge about something, roll+INT.",
        ),
        "«Некоторые ходы»; «Покопаться в памяти»",
        roll="int",
        params=_params(ROLL_PARAMS),
        results={
            STRONG: _t(
                "Ведущий сообщает вам что-то интересное и полезное о том, что связано с "
                "текущей ситуацией.",
                "The GM tells you something interesting and useful about the current situation.",
            ),
            WEAK: _t(
                "Ведущий говорит что-то интересное, а как извлечь пользу — ваша проблема.",
                "The GM tells you something interesting; making it useful is up to you.",
            ),
            MISS: MISS_TEXT,
        },
    ),
    _move(
        "discern_realities",
        _t(
            "Когда вы внимательно изучаете человека или ситуацию, бросьте+МДР.",
            "When you closely study a person or a situation, roll+WIS.",
        ),
        "«Изучить обстановку»",
        roll="wis",
        params=_params(ROLL_PARAMS),
        results={
            STRONG: _t(
                "Задайте ведущему три вопроса из списка. Получите +1 на следующий ход, "
                "если используете полученные сведения.",
                "Ask the GM three questions from the list. Take +1 forward when acting "
                "on the answers.",
            ),
            WEAK: _t(
                "Задайте один вопрос. Получите +1 на следующий ход, если используете "
                "полученные сведения.",
                "Ask one question. Take +1 forward when acting on the answer.",
            ),
            MISS: MISS_TEXT,
        },
        options={
            STRONG: OptionSet(3, PLAYER, DISCERN_QUESTIONS, repeat=True),
            WEAK: OptionSet(1, PLAYER, DISCERN_QUESTIONS),
        },
    ),
    _move(
        "parley",
        _t(
            "Когда вы пытаетесь повлиять на персонажа ведущего и манипулировать им, бросьте+ХАР. "
            "Повлиять можно, предложив ему что-то, что ему необходимо или чего он желает.",
            "When you try to influence and manipulate a GM character, roll+CHA. Your leverage is "
            "something they need or want.",
        ),
        "«Договориться»",
        roll="cha",
        params=_params(ROLL_PARAMS),
        results={
            STRONG: _t(
                "Он просит вас о чём-то и, заручившись вашим обещанием, сам помогает вам.",
                "They ask something of you and, once you promise it, they help you.",
            ),
            WEAK: _t(
                "Персонажу необходимо немедленно предоставить какие-то гарантии, что "
                "обещание будет исполнено.",
                "They need some concrete assurance of your promise right now.",
            ),
            MISS: MISS_TEXT,
        },
    ),
    _move(
        "carouse",
        _t(
            "Когда вы возвращаетесь с победой и устраиваете по этому поводу большую гулянку, "
            "потратьте 100 монет и сделайте бросок с бонусом +1 за каждые 100 монет, потраченные "
            "сверх этой суммы.",
            "When you return triumphant and throw a big party, spend 100 coins and roll +1 for "
            "every extra 100 coins spent.",
        ),
        "«Пирушка»",
        roll="plain",
        params=_params(
            ROLL_PARAMS,
            coins_spent=IntField(
                ru="Потрачено монет", en="Coins spent", default=100, min=100, max=10_000_000
            ),
        ),
        results={
            STRONG: _t("Выберите три пункта из списка.", "Choose three."),
            WEAK: _t("Выберите один пункт.", "Choose one."),
            MISS: _t(
                "Вы всё равно выбираете один пункт, однако что-то идёт на перекосяк "
                "(ведущий скажет, что именно); запишите опыт.",
                "You still choose one, but something goes wrong (the GM says what); mark XP.",
            ),
        },
        options={
            STRONG: OptionSet(3, PLAYER, CAROUSE_OPTIONS),
            WEAK: OptionSet(1, PLAYER, CAROUSE_OPTIONS),
            MISS: OptionSet(1, PLAYER, CAROUSE_OPTIONS),
        },
    ),
    _move(
        "last_breath",
        _t(
            "Когда вы умираете, вы на какое-то мгновение видите, что лежит за Чёрными Вратами "
            "Царства Смерти (ведущий должен это описать). Потом сделайте бросок — просто бросок, "
            "безо всяких бонусов.",
            "When you are dying you glimpse what lies beyond the Black Gates of Death's Kingdom "
            "(the GM describes it). Then roll: just roll, with no bonuses at all.",
        ),
        "«Последний вздох»; «Смерть»",
        roll="last_breath",
        results={
            STRONG: _t(
                "Вы обманули смерть: вы чувствуете себя неважно, но вы всё ещё живы.",
                "You cheat Death: you feel awful, but you are still alive.",
            ),
            WEAK: _t(
                "Смерть предлагает сделку. Примите её — и ваше состояние стабилизируется; "
                "откажетесь — шагнёте за Чёрные Врата навстречу своей судьбе.",
                "Death offers a bargain. Accept and you stabilize; refuse and you pass "
                "beyond the Black Gates.",
            ),
            MISS: _t(
                "Ваша судьба предрешена: на вас лежит Метка Смерти, и вы скоро пересечёте "
                "черту. Ведущий скажет, когда это случится. Запишите опыт.",
                "Your fate is sealed: you bear Death's mark and will cross over soon; the "
                "GM says when. Mark XP.",
            ),
        },
        options={
            WEAK: OptionSet(
                1,
                PLAYER,
                (
                    _o("accept", "Принять сделку со Смертью", "Accept Death's bargain"),
                    _o("refuse", "Отказаться от сделки", "Refuse the bargain"),
                ),
            ),
        },
    ),
    _move(
        "encumbrance",
        _t(
            "Когда вы делаете ход, будучи нагруженным чем-либо, вы можете быть перегружены.",
            "When you make a move while carrying weight, you may be encumbered.",
        ),
        "«Тяжкая ноша»",
        results={
            "none": _t("Вес не больше нагрузки: штрафа нет.", "Weight within load: no penalty."),
            "burdened": _t(
                "Вес не больше нагрузки+2: -1 на все ходы, пока не избавитесь от груза.",
                "Weight up to load+2: -1 ongoing until you unburden yourself.",
            ),
            "overloaded": _t(
                "Вес больше нагрузки+2: сбросьте груз по меньшей мере на 1 веса или "
                "автоматом провалите бросок.",
                "Weight above load+2: drop at least 1 weight or automatically fail the roll.",
            ),
        },
        options={
            "overloaded": OptionSet(
                1,
                PLAYER,
                (
                    _o("drop", "Сбросить груз по меньшей мере на 1 веса", "Drop at least 1 weight"),
                    _o("auto_fail", "Автоматом провалить бросок", "Automatically fail the roll"),
                ),
            ),
        },
    ),
    _move(
        "make_camp",
        _t(
            "Когда вы устраиваете привал, потратьте паёк. В опасном месте договоритесь, в какой "
            "очерёдности будете нести дозор. Если вы спите хотя бы несколько часов без перерыва, "
            "вы исцеляете количество урона, равное половине ваших ОЗ.",
            "When you settle in to rest, consume a ration. In a dangerous place, agree on the "
            "watch order. After a few uninterrupted hours of sleep, heal half your HP.",
        ),
        "«Разбить лагерь»; «Лечение»",
        params=_params(
            dangerous=BoolField(ru="Опасное место", en="Dangerous place"),
            slept=BoolField(
                ru="Спали несколько часов без перерыва",
                en="Slept a few uninterrupted hours",
                default=True,
            ),
        ),
    ),
    _move(
        "take_watch",
        _t(
            "Когда вы несёте дозор и нечто приближается к лагерю, бросьте+МДР.",
            "When you are on watch and something approaches the camp, roll+WIS.",
        ),
        "«Нести дозор»",
        roll="wis",
        params=_params(ROLL_PARAMS),
        results={
            STRONG: _t(
                "Вы будите товарищей и успеваете подготовиться: все, кто в лагере, "
                "получают +1 на следующий ход.",
                "You wake the camp and prepare: everyone in the camp takes +1 forward.",
            ),
            WEAK: _t(
                "Вы реагируете слишком поздно: лагерь проснулся, но времени на подготовку "
                "нет. Оружие и броня у вас есть, но никаких других преимуществ.",
                "You react too late: the camp is awake but unprepared; weapons and armor, "
                "no other advantage.",
            ),
            MISS: _t(
                "Это нечто застаёт вас врасплох, прокравшись к лагерному костру "
                "незамеченным. Запишите опыт.",
                "It reaches the campfire unnoticed and surprises you. Mark XP.",
            ),
        },
    ),
    _move(
        "aid_or_interfere",
        _t(
            "Когда вы помогаете или мешаете кому-то, с кем у вас узы, бросьте+число уз, "
            "связывающих вас.",
            "When you help or hinder someone you have bonds with, roll+the number of your bonds "
            "with them.",
        ),
        "«Помочь или помешать»",
        roll="bonds",
        params=_params(
            ROLL_PARAMS,
            target=StrField(
                ru="Кому вы помогаете или мешаете",
                en="Whom you aid or hinder",
                max_length=100,
                default=None,
                required=True,
            ),
        ),
        results={
            STRONG: _t(
                "Они получают +1 или -2 к броску, на ваш выбор.",
                "They take +1 or -2 to their roll, your choice.",
            ),
            WEAK: _t(
                "Они получают +1 или -2 к броску, но вы сами оказываетесь в опасности, "
                "получаете отпор или расплачиваетесь как-то ещё.",
                "They take +1 or -2, but you expose yourself to danger, retribution or "
                "another cost.",
            ),
            MISS: MISS_TEXT,
        },
        options={
            band: OptionSet(
                1,
                PLAYER,
                (
                    _o("aid", "Помочь: +1 к их броску", "Aid: +1 to their roll"),
                    _o("interfere", "Помешать: -2 к их броску", "Interfere: -2 to their roll"),
                ),
            )
            for band in (STRONG, WEAK)
        },
    ),
    _move(
        "perilous_journey",
        _t(
            "Когда вы держите путь по враждебным территориям, выберите проводника, разведчика и "
            "интенданта. Каждый из них делает бросок и прикладывает МДР.",
            "When you travel through hostile territory, choose a trailblazer, a scout and a "
            "quartermaster. Each of them rolls+WIS.",
        ),
        "«Отправиться в опасное путешествие»",
        roll="wis",
        params=_params(
            ROLL_PARAMS,
            role=ChoiceField(ru="Роль", en="Role", default=None, required=True, choices=ROLES),
            party_roles=ListField(
                ru="Роли, уже занятые другими героями",
                en="Roles already held by other heroes",
                item=ChoiceField(choices=ROLES, default=None),
                max_items=3,
            ),
        ),
        results={
            STRONG: _t(
                "Интендант снижает трату пайков на один; проводник уменьшает время в пути "
                "(на сколько, говорит ведущий); разведчик замечает любую опасность до "
                "нападения.",
                "Quartermaster: one ration fewer used; trailblazer: the journey is "
                "shorter (the GM says how much); scout: spots any danger before it "
                "strikes.",
            ),
            WEAK: _t(
                "Каждый исполняет свою роль так, как и ожидалось: пайков и времени уходит "
                "столько, сколько предполагали, столкновений вы избегаете, но и сами никого "
                "врасплох не застаёте.",
                "Everyone does their job as expected: normal rations and time, you avoid "
                "encounters but surprise no one.",
            ),
            MISS: MISS_TEXT,
        },
    ),
    _move(
        "supply",
        _t(
            "Когда вы хотите потратить наличность, вы можете приобрести нужные вещи по рыночным "
            "ценам, если они есть в продаже. Если нужно что-то эдакое, бросьте+ХАР.",
            "When you spend money you can buy what the settlement sells at market price. For "
            "something unusual, roll+CHA.",
        ),
        "«Пополнить припасы»",
        roll="cha",
        params=_params(
            ROLL_PARAMS,
            unusual=BoolField(ru="Нужно что-то эдакое (бросок)", en="Something unusual (roll)"),
            price=IntField(ru="Цена, монет", en="Price in coins", default=0, min=0, max=10_000_000),
        ),
        results={
            STRONG: _t(
                "Вы находите то, что ищете, по приемлемой цене.",
                "You find what you are looking for at a fair price.",
            ),
            WEAK: _t(
                "Придётся заплатить куда больше или приобрести похожую, но не аналогичную "
                "вещь. Ведущий скажет, из чего вы можете выбирать.",
                "You pay much more or get something similar but not the same; the GM lists "
                "your options.",
            ),
            MISS: MISS_TEXT,
        },
    ),
    _move(
        "recover",
        _t(
            "Когда вы бездельничаете, отдыхая со всеми удобствами в безопасном месте: за день "
            "восстанавливаете все ОЗ; за три дня излечиваете одну травму (с целителем — за два).",
            "When you do nothing but rest in comfort and safety: after a day you recover all "
            "HP; after three days you heal a debility (two days with a healer).",
        ),
        "«Восстановить силы»",
        params=_params(
            days=IntField(ru="Дней отдыха", en="Days of rest", default=1, min=1, max=365),
            healer=BoolField(ru="За вами ухаживает целитель", en="Tended by a healer"),
            cure=ListField(
                ru="Какие травмы излечить",
                en="Debilities to heal",
                item=ChoiceField(choices=DEBILITIES, default=None),
                max_items=6,
                nullable=True,
                default=None,
            ),
        ),
    ),
    _move(
        "recruit",
        _t(
            "Когда вы хотите обзавестись наёмниками, сделайте бросок с бонусом +1 за каждое "
            "условие: обещаете щедро заплатить; не скрываете, какая нужна помощь; объявляете долю "
            "добычи; у вас хорошая репутация в этих местах.",
            "When you want to hire help, roll +1 for each: you promise generous pay; you are "
            "open about the help you need; you offer a share of the loot; you have a good "
            "reputation here.",
        ),
        "«Найм»",
        roll="plain",
        params=_params(
            ROLL_PARAMS,
            generous_pay=BoolField(ru="Обещаете щедро заплатить", en="Promise generous pay"),
            open_about_help=BoolField(
                ru="Не скрываете, какая нужна помощь", en="Open about the help needed"
            ),
            loot_share=BoolField(ru="Объявляете долю добычи", en="Offer a share of the loot"),
            reputation=BoolField(ru="Хорошая репутация в этих местах", en="Good reputation here"),
        ),
        results={
            STRONG: _t(
                "Вы выбираете между несколькими умелыми кандидатами и не получаете "
                "штрафа, если откажете кому-то из них.",
                "You choose among several skilled candidates, with no penalty for "
                "turning some away.",
            ),
            WEAK: _t(
                "Придётся согласиться на кого-то похожего на того, кого вы хотите, или "
                "прогнать всех кандидатов.",
                "Settle for someone close to what you want, or send them all away.",
            ),
            MISS: _t(
                "С вами хочет пойти влиятельная, но совершенно неподходящая личность: "
                "возьмите её и пожинайте последствия или прогоните. Запишите опыт.",
                "An influential but unsuitable person wants to join: take them and the "
                "consequences, or send them away. Mark XP.",
            ),
        },
        options={
            WEAK: OptionSet(
                1,
                PLAYER,
                (
                    _o("settle", "Согласиться на похожего кандидата", "Settle for someone close"),
                    RECRUIT_SEND_AWAY,
                ),
            ),
            MISS: OptionSet(
                1,
                PLAYER,
                (
                    _o(
                        "take",
                        "Взять их с собой и пожинать последствия",
                        "Take them and the consequences",
                    ),
                    RECRUIT_SEND_AWAY,
                ),
            ),
        },
    ),
    _move(
        "outstanding_warrants",
        _t(
            "Когда вы возвращаетесь в поселение, где ранее стали причиной каких-то неприятностей, "
            "бросьте+ХАР.",
            "When you return to a settlement where you caused trouble before, roll+CHA.",
        ),
        "«Неоплаченный долг»",
        roll="cha",
        params=_params(ROLL_PARAMS),
        results={
            STRONG: _t(
                "Слава о ваших деяниях распространилась, и все узнают вас.",
                "Word of your deeds has spread and everyone recognises you.",
            ),
            WEAK: _t(
                "Все узнают вас, и, помимо этого, вы сталкиваетесь с проблемами на выбор ведущего.",
                "Everyone recognises you, and on top of that the GM picks a complication.",
            ),
            MISS: MISS_TEXT,
        },
        options={
            WEAK: OptionSet(
                1,
                REFEREE,
                (
                    _o(
                        "arrest",
                        "У местных стражей порядка есть приказ вас арестовать.",
                        "The local guards have orders to arrest you.",
                    ),
                    _o(
                        "bounty",
                        "Кто-то назначил награду за вашу голову.",
                        "Someone has put a price on your head.",
                    ),
                    _o(
                        "someone_in_trouble",
                        "Кто-то важный для вас нажил проблем из-за ваших действий.",
                        "Someone important to you got into trouble because of you.",
                    ),
                ),
            ),
        },
    ),
    _move(
        "bolster",
        _t(
            "Когда вы тратите свободное время на учёбу, медитацию или тренировки, вы получаете "
            "очки подготовки: неделя или две — 1, месяц или дольше — 3. Потом, занимаясь тем, что "
            "тренировали, тратьте очко на +1 к любому броску, не больше одного на бросок.",
            "When you spend free time studying, meditating or training, gain preparation: a week "
            "or two gives 1, a month or more gives 3. Spend 1 for +1 to a roll when doing what "
            "you trained for, at most 1 per roll.",
        ),
        "«Усердно заниматься»",
        params=_params(
            days=IntField(ru="Дней занятий", en="Days spent", default=7, min=1, max=3650),
        ),
    ),
    _move(
        "level_up",
        _t(
            "Когда у вас есть свободное время, а ваш опыт не меньше текущего уровня+7: вычтите "
            "уровень+7 из опыта, поднимите уровень на 1 (маг получает новое заклинание) и "
            "увеличьте одну характеристику на 1 (не выше 18).",
            "When you have free time and XP of at least your level+7: subtract level+7 from XP, "
            "gain a level (a Wizard adds a spell) and raise one stat score by 1 (max 18).",
        ),
        "«Повысить уровень»; «Повышение уровня»; «После десятого уровня»",
        params=_params(
            stat=ChoiceField(
                ru="Какую характеристику повысить",
                en="Stat to raise",
                default=None,
                nullable=True,
                choices=STATS,
            ),
            new_spell=StrField(
                ru="Новое заклинание (маг)", en="New spell (Wizard)", max_length=100
            ),
            new_move=StrField(
                ru="Новый ход (по желанию)", en="New move (optional)", max_length=100
            ),
        ),
        options={"after_10": AFTER_TEN},
    ),
    _move(
        "end_of_session",
        _t(
            "В конце сессии: избавьтесь от одних исчерпавших себя уз (с согласия другого игрока) "
            "и запишите новые; если мировоззрение хоть раз повлияло на ваши действия — опыт; "
            "за каждый ответ «да» на вопросы все записывают себе опыт.",
            "At the end of a session: resolve a bond that has run its course (if the other "
            "player agrees) and write a new one; XP if your alignment guided you at least once; "
            "everyone marks XP for each 'yes'.",
        ),
        "«Конец сессии»; «Избавление от уз»; «Создание новых уз»",
        params=_params(
            resolve_bond=IntField(
                ru="Номер исчерпанных уз (с 0)",
                en="Bond to resolve (index)",
                default=None,
                nullable=True,
                min=0,
                max=19,
            ),
            bond_agreed=BoolField(ru="Другой игрок согласен", en="The other player agrees"),
            new_bond_with=StrField(ru="Новые узы: с кем", en="New bond: with", max_length=100),
            new_bond_text=StrField(ru="Новые узы: текст", en="New bond: text", max_length=300),
            alignment_fulfilled=BoolField(
                ru="Мировоззрение повлияло на ваши действия",
                en="Your alignment guided your actions",
            ),
            learned=BoolField(
                ru="Узнали ли мы о мире что-то новое и важное?",
                en="Did we learn something new and important about the world?",
            ),
            defeated=BoolField(
                ru="Одолели ли мы значительного врага или монстра?",
                en="Did we overcome a notable monster or enemy?",
            ),
            treasure=BoolField(
                ru="Нашли ли мы какие-то достойные упоминания сокровища?",
                en="Did we loot a memorable treasure?",
            ),
        ),
    ),
    # --- sheet actions: not rulebook moves, but rules the rulebook states -------------------------
    _action(
        "take_damage",
        "Получить урон",
        "Take damage",
        _t(
            "Урон минус броня вычитается из ОЗ, но не ниже 0; на 0 ОЗ — последний вздох.",
            "Damage minus armor comes off HP, never below 0; at 0 HP, Last Breath.",
        ),
        "«Урон»; «Одновременный урон от нескольких противников»; «Оглушающий урон»; «Смерть»",
        params=_params(
            amount=IntField(
                ru="Урон (число)", en="Damage (number)", default=None, nullable=True, min=0, max=999
            ),
            damage=StrField(
                ru="Урон (кубики, например к6)",
                en="Damage (dice, e.g. d6)",
                default="",
                max_length=60,
                check=check_expression,
            ),
            attacker=ObjectField(
                ru="Атакующий персонаж ведущего (его урон)",
                en="Attacking GM character (its damage)",
                nullable=True,
                default=None,
                fields=NPC.fields,
            ),
            attackers=ListField(
                ru="Несколько атакующих", en="Several attackers", item=ATTACKER, max_items=20
            ),
            ignores_armor=BoolField(ru="Игнорирует броню", en="Ignores armor"),
            cover=COVER,
            stun=BoolField(ru="Оглушающий урон", en="Stun damage"),
        ),
    ),
    _action(
        "deal_damage",
        "Нанести урон",
        "Deal damage",
        _t(
            "Бросьте кубик базового урона класса, прибавьте модификатор оружия и бонусы.",
            "Roll your class damage die, add the weapon modifier and bonuses.",
        ),
        "«Некоторые ходы»; «Урон»; «Увеличение и уменьшение урона»; «Больший и меньший»",
        params=_params(
            DAMAGE_PARAMS,
            amount=IntField(
                ru="Фиксированный урон (вместо броска)",
                en="Fixed damage (no roll)",
                default=None,
                nullable=True,
                min=0,
                max=999,
            ),
            expression=StrField(
                ru="Другое выражение урона",
                en="Other damage expression",
                max_length=60,
                check=check_expression,
            ),
            stun=BoolField(ru="Оглушающий урон", en="Stun damage"),
        ),
    ),
    _action(
        "npc_take_damage",
        "Урон персонажу ведущего",
        "Damage to a GM character",
        _t(
            "Урон минус броня цели вычитается из её ОЗ; оглушающий урон ОЗ не отнимает.",
            "Damage minus the target's armor comes off its HP; stun damage takes none.",
        ),
        "«Урон»; «Оглушающий урон»",
        subject="npc",
        params=_params(
            amount=IntField(
                ru="Урон (число)", en="Damage (number)", default=None, nullable=True, min=0, max=999
            ),
            damage=StrField(
                ru="Урон (кубики)", en="Damage (dice)", max_length=60, check=check_expression
            ),
            ignores_armor=BoolField(ru="Игнорирует броню", en="Ignores armor"),
            stun=BoolField(ru="Оглушающий урон", en="Stun damage"),
        ),
    ),
    _action(
        "spend_hold",
        "Потратить запас",
        "Spend hold",
        _t(
            "Запас тратится только на варианты хода, который его дал.",
            "Hold is spent only on the options of the move that gave it.",
        ),
        "«Некоторые ходы»; «Встать на защиту»",
        params=_params(
            for_move=ChoiceField(
                ru="Ход, давший запас",
                en="Move that gave the hold",
                default="defend",
                choices=MOVE_CHOICES[1:],
            ),
            option=StrField(ru="Вариант", en="Option", default=None, required=True, max_length=40),
            damage=IntField(ru="Урон атаки", en="Attack damage", default=0, min=0, max=999),
            armor=IntField(
                ru="Броня защищаемого", en="Armor of the defended", default=0, min=0, max=20
            ),
            attacker=TARGET,
        ),
    ),
    _action(
        "heal",
        "Лечение",
        "Healing",
        _t(
            "Лечение восстанавливает ОЗ, но не выше максимума; стабилизированный приходит в себя.",
            "Healing restores HP up to the maximum; a stabilized character comes round.",
        ),
        "«Лечение»; «Смерть»",
        params=_params(
            amount=IntField(
                ru="Сколько ОЗ", en="HP healed", default=None, nullable=True, min=0, max=999
            ),
            full=BoolField(ru="Все ОЗ", en="All HP"),
        ),
    ),
    _action(
        "add_forward",
        "+N на следующий ход",
        "Take forward",
        _t(
            "Бонус к следующему броску хода (не урона); с условием — только к этому ходу.",
            "A bonus to the next move roll (not damage); a bound one only to that move.",
        ),
        "«Некоторые ходы»",
        params=_params(FORWARD_FIELDS),
    ),
    _action(
        "add_ongoing",
        "+N на все ходы",
        "Take ongoing",
        _t(
            "Бонус ко всем броскам ходов (не урона), пока не выполнено условие окончания.",
            "A bonus to all move rolls (not damage) until its end condition.",
        ),
        "«Некоторые ходы»",
        params=_params(FORWARD_FIELDS, note=StrField(ru="Пока не…", en="Until…", max_length=200)),
    ),
    _action(
        "end_ongoing",
        "Снять «+N на все ходы»",
        "End ongoing",
        _t("Условие окончания выполнено.", "Its end condition has come."),
        "«Некоторые ходы»",
        params=_params(index=IntField(ru="Номер (с 0)", en="Index", default=0, min=0, max=19)),
    ),
    _action(
        "take_debility",
        "Получить травму",
        "Take a debility",
        _t(
            "Травма даёт -1 к модификатору характеристики; одинаковые травмы не складываются.",
            "A debility gives -1 to its stat's modifier; the same one does not stack.",
        ),
        "«Травмы»",
        params=_params(
            debility=ChoiceField(
                ru="Травма", en="Debility", default=None, required=True, choices=DEBILITIES
            )
        ),
    ),
    _action(
        "cure_debility",
        "Излечить травму",
        "Heal a debility",
        _t(
            "Мощное заклинание или события истории излечивают травму.",
            "A strong spell or the fiction heals a debility.",
        ),
        "«Травмы»",
        params=_params(
            debility=ChoiceField(
                ru="Травма", en="Debility", default=None, required=True, choices=DEBILITIES
            )
        ),
    ),
    _action(
        "mark_xp",
        "Запишите опыт",
        "Mark XP",
        _t(
            "Опыт за мировоззрение, узы или особые задачи ведущего.",
            "XP for alignment, bonds or the GM's special tasks.",
        ),
        "«Некоторые ходы»; «Повышение уровня»",
        params=_params(amount=IntField(ru="Сколько", en="How much", default=1, min=1, max=10)),
    ),
    _action(
        "change_stat",
        "Изменить характеристику",
        "Change a stat",
        _t(
            "Если Телосложение изменится (временные изменения не в счёт), измените ОЗ.",
            "If CON changes for good (not temporarily), change HP to match.",
        ),
        "«ОЗ (очки здоровья)»; «Повысить уровень»",
        params=_params(
            stat=ChoiceField(
                ru="Характеристика", en="Stat", default=None, required=True, choices=STATS
            ),
            score=IntField(
                ru="Новое значение", en="New score", default=None, required=True, min=1, max=18
            ),
            temporary=BoolField(ru="Временно", en="Temporary"),
        ),
    ),
    _action(
        "multiclass",
        "Мультиклассовый ход",
        "Multiclass move",
        _t(
            "Ход другого класса ниже вашего уровня; уровни для него считаются с момента взятия.",
            "Another class's move below your level; its levels count from when you took it.",
        ),
        "«Мультиклассовые ходы»",
        params=_params(
            move_name=StrField(ru="Ход", en="Move", default=None, required=True, max_length=100),
            move_level=IntField(ru="Уровень хода", en="Move level", default=1, min=1, max=10),
            source_class=StrField(ru="Класс", en="Class", max_length=60),
        ),
    ),
)

MOVES_BY_KEY: dict[str, MoveSpec] = {m.key: m for m in MOVES}
