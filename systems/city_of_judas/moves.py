"""City of Judas moves as data: names, triggers, results, option lists, params.

Russian names and option texts are the rulebook's own; English names are working translations.
Engage in Battle, Take a Shot, Defy Danger and Face Death are only mentioned in the rulebook: they
roll and band here, with the few options the rulebook names.
"""

from __future__ import annotations

from systems.city_of_judas.sheet import SHEET
from systems.core.outcome import Option, Text
from systems.core.pbta import MISS, STRONG, WEAK
from systems.core.schema import (
    PLAYER,
    REFEREE,
    BoolField,
    Field,
    IntField,
    ListField,
    MoveSpec,
    ObjectField,
    OptionSet,
    SheetField,
    StrField,
)


def _t(ru: str, en: str) -> Text:
    return Text(ru, en)


def _o(key: str, ru: str, en: str) -> Option:
    return Option(key, ru, en)


HIT = ObjectField(
    ru="Удар (источник урона)",
    en="Hit (damage source)",
    fields={
        "damage": IntField(ru="Урон", en="Damage", default=0, min=0, max=99),
        "ap": IntField(ru="Из него бронебойного (бб)", en="Of it AP", default=0, min=0, max=99),
    },
)

DAMAGE_PARAMS: dict[str, Field] = {
    "damage": IntField(
        ru="Урон (оружие или ситуация + бонусы)",
        en="Damage (weapon + bonuses)",
        default=0,
        min=0,
        max=99,
    ),
    "ap": IntField(
        ru="Из него бронебойного (бб)", en="Of it armour-piercing (AP)", default=0, min=0, max=99
    ),
    "hits": ListField(
        ru="Несколько источников урона (броня вычитается из каждого)",
        en="Several damage sources (armor applies to each)",
        item=HIT,
        max_items=10,
    ),
    "dealt": IntField(
        ru="Урон за вычетом брони (если уже посчитан)",
        en="Damage after armor (if already known)",
        default=None,
        nullable=True,
        min=0,
        max=99,
    ),
    "reuse_faces": ListField(
        ru="Кубики хода, вызвавшего урон (правило одного броска)",
        en="Dice of the move that caused it (one-roll rule)",
        item=IntField(min=1, max=6),
        max_items=2,
        min_items=2,
        default=None,
        nullable=True,
    ),
}

ROLL_PARAMS: dict[str, Field] = {
    "bonus": IntField(
        ru="Прочие бонусы к броску", en="Other bonuses to the roll", default=0, min=-5, max=5
    ),
}

STAT_PARAM = StrField(
    ru="Характеристика", en="Stat", default="steel", max_length=30, choices_from="stats"
)

DS_STRONG = OptionSet(
    1,
    PLAYER,
    (
        _o(
            "killed",
            "Враг убит, смертельно ранен или жестоко изувечен и выведен из строя.",
            "The enemy is killed, mortally wounded or brutally maimed, and out of the fight.",
        ),
        _o(
            "defeated",
            "Враг лишен сознания, сбит с ног или как-то иначе побежден.",
            "The enemy is knocked out, knocked down or otherwise beaten.",
        ),
        _o(
            "two_of_list",
            "Вместо этого выбери два из списка ниже.",
            "Instead, choose two from the list below.",
        ),
    ),
)
DS_LIST = (
    _o(
        "serious_wound",
        "Рана серьезная, противник получает +1 урон (бб).",
        "A serious wound: the enemy takes +1 damage (AP).",
    ),
    _o(
        "advantage",
        "Персонаж получает преимущество и +1 к превосходству.",
        "The character gains an advantage and +1 superiority.",
    ),
    _o(
        "panic",
        "Противник в панике, обезоружен или чего-то лишается.",
        "The enemy panics, is disarmed or loses something.",
    ),
)
DS_WEAK = OptionSet(1, REFEREE, DS_LIST)
DS_TWO = OptionSet(2, PLAYER, DS_LIST)

TD_STRONG = OptionSet(
    1,
    PLAYER,
    (
        _o(
            "not_so_bad",
            "Все не так плохо: если можешь вычесть 1 из значения превосходства, вычти "
            "и еще получи на 1 урон меньше.",
            "Not so bad: if you can take 1 from your superiority, do it and take 1 less damage.",
        ),
        _o(
            "fight_on",
            "Забудь про боль и сражайся; получи +1 к превосходству и не меняй урон.",
            "Forget the pain and fight: +1 superiority, the damage stays.",
        ),
    ),
)
TD_WEAK = OptionSet(
    1,
    PLAYER,
    (
        _o("really_hurts", "Очень больно: не меняй урон.", "It really hurts: the damage stays."),
        _o(
            "cost_something",
            "Удар чего-то тебя лишил: предложи что-то Мастеру и не торгуйся. "
            "Если он согласен, ты получишь на 1 урон меньше (вплоть до 0). "
            "Если откажется, урон остается, и ты получаешь -1 к превосходству.",
            "The blow cost you something: offer the GM something, no haggling. If the GM accepts, "
            "take 1 less damage (down to 0); if not, the damage stays and you take -1 superiority.",
        ),
    ),
)
TD_OFFER = OptionSet(
    1,
    REFEREE,
    (
        _o("gm_accepts", "Мастер согласен: на 1 урон меньше.", "The GM accepts: 1 less damage."),
        _o(
            "gm_refuses",
            "Мастер отказывается: урон остаётся, -1 к превосходству.",
            "The GM refuses: the damage stays, -1 superiority.",
        ),
    ),
)
TD_MISS = OptionSet(
    1,
    REFEREE,
    (
        _o(
            "serious",
            "Все серьезно: ты можешь что-то потерять, быть обезоруженным, вынужденным "
            "отступить, упасть на землю.",
            "It's serious: you may lose something, be disarmed, forced back or knocked down.",
        ),
        _o(
            "scary",
            "Все страшно: ты можешь быть в ловушке, в панике, на время выведен из строя или "
            "нечто похуже.",
            "It's scary: you may be trapped, panicked, briefly out of action or worse.",
        ),
        _o(
            "critical",
            "Хлещет кровь, хрустят кости, ситуация критическая: отметь состояние нестабилен.",
            "Blood and bones, it's critical: mark unstable.",
        ),
        _o(
            "deadly",
            "Смертельно, но только если твое здоровье -3: рана смертельна, если ты не "
            "возьмешь вместо этого увечье.",
            "Deadly, only at health -3: the wound is mortal unless you take a maim instead.",
        ),
    ),
)
MORTAL = _o("mortal_wound", "Принять смертельную рану", "Accept the mortal wound")

ENGAGE_OPTIONS = (
    _o("ap_damage", "+1 урон (бб)", "+1 damage (AP)"),
    _o("maneuver", "Отличный маневр", "An excellent manoeuvre"),
    _o(
        "superior_tactics",
        "Превосходная тактика: +1 к превосходству",
        "Superior tactics: +1 superiority",
    ),
)

MISS_GM = _t("Мастер делает ход.", "The GM makes a move.")
# "Победитель первый выбирает варианты хода, за ним это делает проигравший, но он не может
# противоречить вариантам, выбранным победителем": of Engage in Battle's options only the
# excellent manoeuvre (the better position) is held by one side at a time, so a loser may not
# pick it after the winner did. On a tie both pick with no limits.
CONFLICT_EXCLUSIVE = frozenset({"maneuver"})

MOVES: tuple[MoveSpec, ...] = (
    MoveSpec(
        key="decisive_strike",
        ru="Решающий удар",
        en="Decisive Strike",
        trigger=_t(
            "Когда ты выбираешь этот вариант или когда обстоятельства наносят им урон, прибавь "
            "урон за вычетом брони к ранам персонажа Мастера, а затем брось 2d6+суммарные раны "
            "для малозначимых врагов, 1d6+суммарные раны (да, только один кубик) для важных "
            "персонажей Мастера, чудовищ и демонов.",
            "When you choose this option, or circumstances damage them, add the damage after "
            "armor to the GM character's wounds, then roll 2d6+total wounds for minor enemies, "
            "1d6+total wounds (yes, one die) for important GM characters, monsters and demons.",
        ),
        source=(
            "«Нанесение урона»; «Нанесение урона: ход решающий удар»; «Примеры хода решающий удар»"
        ),
        subject="npc",
        roll="wounds",
        params=ObjectField(
            fields={
                **DAMAGE_PARAMS,
                "attacker": ObjectField(
                    ru="Персонаж игрока, наносящий удар",
                    en="The player character striking",
                    nullable=True,
                    default=None,
                    fields=SHEET.fields,
                ),
            }
        ),
        results={
            STRONG: _t("Игрок выбирает одно за врага.", "The player picks one for the enemy."),
            WEAK: _t(
                "Противник выбирает одно, но Мастер делает ход.",
                "The opponent picks one, and the GM makes a move.",
            ),
            MISS: _t(
                "Было просто больно: бой продолжается, и Мастер делает свой ход первым. "
                "Раны остаются отмеченными.",
                "It just hurt: the fight goes on and the GM moves first. The wounds stay marked.",
            ),
        },
        options={STRONG: DS_STRONG, WEAK: DS_WEAK, "two_of_list": DS_TWO},
    ),
    MoveSpec(
        key="take_damage",
        ru="Получить урон",
        en="Take Damage",
        trigger=_t(
            "Когда ты получаешь урон, уменьши счетчик здоровья на количество урона за вычетом "
            "брони и брось 2d6+здоровье.",
            "When you take damage, lower your health by the damage after armor and roll "
            "2d6+health.",
        ),
        source=(
            "«Урон персонажу»; «Урон персонажу: ход получить урон»; «Урон персонажу: увечья»; "
            "«Примеры хода получить урон»"
        ),
        roll="health",
        params=ObjectField(
            fields={
                **DAMAGE_PARAMS,
                "from_pc": BoolField(
                    ru="Урон от другого персонажа игрока (на 6- выбирает он)",
                    en="Damage from another player character (they pick on 6-)",
                ),
                "target": ObjectField(
                    ru="Лист персонажа, нанёсшего урон",
                    en="Sheet of the character who dealt the damage",
                    nullable=True,
                    default=None,
                    fields=SHEET.fields,
                ),
                "maim_before": StrField(
                    ru="Взять увечье вместо отметки урона (ключ)",
                    en="Take a maim instead of marking damage (key)",
                    max_length=30,
                ),
            }
        ),
        results={
            STRONG: _t("Выбери одно для своего персонажа.", "Pick one for your character."),
            WEAK: _t("Выбери одно для своего персонажа.", "Pick one for your character."),
            MISS: _t(
                "Отметь новый уровень здоровья, получи -1 к превосходству, и Мастер (или "
                "противник) выберет одно.",
                "Mark the new health, take -1 superiority, and the GM (or the opponent) picks one.",
            ),
        },
        options={
            STRONG: TD_STRONG,
            WEAK: TD_WEAK,
            "offer": TD_OFFER,
            MISS: TD_MISS,
            "deadly": OptionSet(1, PLAYER, (MORTAL,)),
        },
    ),
    MoveSpec(
        key="engage_in_battle",
        ru="Вступить в бой",
        en="Engage in Battle",
        trigger=_t(
            "Ход боя, бросок+Сталь (полный текст хода в этой главе не приведён).",
            "A combat move, roll+Steel (its full text is not in this chapter).",
        ),
        source=(
            "«Примеры хода получить урон»; «Урон персонажу: правило одного броска»; "
            "«Примеры конфликта между персонажами игроков»"
        ),
        roll="steel",
        params=ObjectField(fields=dict(ROLL_PARAMS)),
        results={
            STRONG: _t(
                "Выбери два варианта; можно сделать решающий удар.",
                "Pick two; you may make a Decisive Strike.",
            ),
            WEAK: _t(
                "Выбери один вариант; урон наносят обе стороны одновременно; можно сделать "
                "решающий удар; Мастер может сделать ход.",
                "Pick one; both sides deal damage at the same time; you may make a "
                "Decisive Strike; the GM may make a move.",
            ),
            MISS: MISS_GM,
        },
        options={
            STRONG: OptionSet(2, PLAYER, ENGAGE_OPTIONS),
            WEAK: OptionSet(1, PLAYER, ENGAGE_OPTIONS),
        },
    ),
    MoveSpec(
        key="take_a_shot",
        ru="Сделать выстрел",
        en="Take a Shot",
        trigger=_t(
            "Ход боя на расстоянии (полный текст в этой главе не приведён; один из "
            "вариантов даёт +1 бб урона).",
            "A ranged combat move (full text not in this chapter; one option gives +1 AP damage).",
        ),
        source="«Примеры хода решающий удар»; «Урон персонажу: правило одного броска»",
        roll="stat",
        params=ObjectField(fields={**ROLL_PARAMS, "stat": STAT_PARAM}),
        results={
            STRONG: _t(
                "Успех; можно сделать решающий удар.", "Success; you may make a Decisive Strike."
            ),
            WEAK: _t(
                "Успех с ценой; можно сделать решающий удар.",
                "Success at a cost; you may make a Decisive Strike.",
            ),
            MISS: MISS_GM,
        },
    ),
    MoveSpec(
        key="defy_danger",
        ru="Противостоять опасности",
        en="Defy Danger",
        trigger=_t(
            "Ход, который может предшествовать урону (полный текст в главе не приведён).",
            "A move that may come before damage (full text not in this chapter).",
        ),
        source="«Урон персонажу: правило одного броска»",
        roll="stat",
        params=ObjectField(fields={**ROLL_PARAMS, "stat": STAT_PARAM}),
        results={
            STRONG: _t("Успех.", "Success."),
            WEAK: _t("Успех с ценой.", "Success at a cost."),
            MISS: MISS_GM,
        },
    ),
    MoveSpec(
        key="face_death",
        ru="Противостоять смерти",
        en="Face Death",
        trigger=_t(
            "Ход, который может предшествовать урону (полный текст в главе не приведён).",
            "A move that may come before damage (full text not in this chapter).",
        ),
        source="«Примеры хода получить урон»; «Урон персонажу: правило одного броска»",
        roll="stat",
        params=ObjectField(fields={**ROLL_PARAMS, "stat": STAT_PARAM}),
        results={
            STRONG: _t("Успех.", "Success."),
            WEAK: _t("Успех с ценой.", "Success at a cost."),
            MISS: MISS_GM,
        },
    ),
    MoveSpec(
        key="conflict",
        ru="Конфликт",
        en="Conflict",
        trigger=_t(
            "Когда персонажи игроков вступают в бой друг с другом: оба бросают свои ходы "
            "(противник выбирает, чем бросает), побеждает больший результат и получает +1 к "
            "превосходству.",
            "When player characters fight each other: both roll their moves (the opponent "
            "chooses what to roll with); the higher total wins and gets +1 superiority.",
        ),
        source="«Игрок против игрока»; «Примеры конфликта между персонажами игроков»",
        params=ObjectField(
            fields={
                **ROLL_PARAMS,
                "stat": STAT_PARAM,
                "target": SheetField(
                    ru="Противник (персонаж за столом)",
                    en="Opponent (a character at the table)",
                    nullable=True,
                    default=None,
                    fields=SHEET.fields,
                ),
            }
        ),
        options={"picks": OptionSet(1, PLAYER, ENGAGE_OPTIONS)},
    ),
    MoveSpec(
        key="mark_maim",
        ru="Взять увечье",
        en="Take a maim",
        trigger=_t(
            "В любой момент, помечая урон, игрок может отметить увечье вместо последствий "
            "урона за этот раунд.",
            "At any moment while marking damage the player may mark a maim instead of "
            "the consequences of this round's damage.",
        ),
        source="«Урон персонажу: увечья»",
        kind="action",
        params=ObjectField(
            fields={
                "maim": StrField(
                    ru="Увечье (ключ)", en="Maim (key)", default=None, required=True, max_length=30
                )
            }
        ),
    ),
    MoveSpec(
        key="heal_maim",
        ru="Исцелить увечье",
        en="Heal a maim",
        trigger=_t(
            "Если увечье исцелено, убери отметку; его можно будет взять опять.",
            "A healed maim is unmarked and can be taken again.",
        ),
        source="«Урон персонажу: увечья»",
        kind="action",
        params=ObjectField(
            fields={
                "maim": StrField(
                    ru="Увечье (ключ)", en="Maim (key)", default=None, required=True, max_length=30
                )
            }
        ),
    ),
    MoveSpec(
        key="adjust_superiority",
        ru="Изменить превосходство",
        en="Adjust superiority",
        trigger=_t("+1 или -1 к превосходству по итогам хода.", "+1 or -1 superiority."),
        source=(
            "«Нанесение урона: ход решающий удар»; «Урон персонажу: ход получить урон»; "
            "«Примеры хода получить урон»; «Игрок против игрока»"
        ),
        kind="action",
        params=ObjectField(
            fields={"delta": IntField(ru="На сколько", en="By", default=1, min=-6, max=6)}
        ),
    ),
    MoveSpec(
        key="clear_unstable",
        ru="Снять «нестабилен»",
        en="Clear unstable",
        trigger=_t(
            "Как снимается отметка, в главе не сказано: решает Мастер.",
            "The chapter does not say how it clears: the GM decides.",
        ),
        source="«Урон персонажу»",
        kind="action",
    ),
)

MOVES_BY_KEY: dict[str, MoveSpec] = {m.key: m for m in MOVES}
