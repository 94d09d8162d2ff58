"""State shapes of part B that are not a creature sheet: the combat (round, initiative, the
current turn) and the travel day. Both live on the campaign state (``campaign["combat"]``,
``campaign["travel"]``) and are also accepted alone by the pure functions in ``combat`` and
``travel``. One spec serves forms, the API and validation (``systems.core.schema``).
"""

from __future__ import annotations

from systems.core.schema import (
    BoolField,
    ChoiceField,
    IntField,
    ListField,
    ObjectField,
    StrField,
)
from systems.core.schema import Choice as C
from systems.crows.terms_b import (
    COSTS,
    PACE_CHOICES,
    RIVER,
    ROLES,
    SIDES,
    TASK_CHOICES,
)

# --- combat (L701-L773, L835) -----------------------------------------------------------------

READIED = ObjectField(
    ru="Подготовленное действие",
    en="Readied action",
    nullable=True,
    default=None,
    fields={
        "kind": ChoiceField(
            ru="Что подготовлено",
            en="What is readied",
            default="action",
            choices=(C("action", "Действие", "Action"), C("maneuver", "Манёвр", "Maneuver")),
        ),
        "what": StrField(ru="Действие или манёвр", en="Action or maneuver", max_length=200),
        "trigger": StrField(ru="Триггер", en="Trigger", max_length=200),
        "round": IntField(ru="Раунд", en="Round", default=0, min=0),
    },
)

COMBATANT = ObjectField(
    ru="Участник боя",
    en="Combatant",
    fields={
        "id": StrField(ru="Идентификатор", en="Id", required=True, max_length=64, internal=True),
        "name": StrField(ru="Имя", en="Name", max_length=100),
        "side": ChoiceField(ru="Сторона", en="Side", default="pcs", choices=SIDES),
        "surprised": BoolField(ru="Застигнут врасплох", en="Surprised"),
        "reaction_used": BoolField(ru="Реакция потрачена", en="Reaction spent"),
        "acted": BoolField(ru="Уже ходил в этом раунде", en="Has acted this round"),
        "out": BoolField(
            ru="Не может ходить (мёртв, без сознания)", en="Cannot act (dead, unconscious)"
        ),
        "pet_of": StrField(
            ru="Питомец (ходит по команде хозяина)",
            en="Pet of (acts on its owner's Command)",
            max_length=64,
        ),
        "taunted_by": StrField(ru="Под насмешкой", en="Taunted by", max_length=64),
        "readied": READIED,
        "grabbing": StrField(ru="Держит в захвате", en="Grabbing", max_length=64),
        "extra_now": IntField(
            ru="Доп. действий немедленно (крит не в свой ход)",
            en="Extra actions to use at once (off-turn crit)",
            default=0,
            min=0,
            max=10,
        ),
    },
)

TURN = ObjectField(
    ru="Текущий ход",
    en="Current turn",
    nullable=True,
    default=None,
    fields={
        "combatant": StrField(ru="Чей ход", en="Whose turn", max_length=64),
        "round": IntField(ru="Раунд", en="Round", default=1, min=0),
        "maneuvers": IntField(ru="Манёвров потрачено", en="Maneuvers spent", default=0, min=0),
        "actions": IntField(ru="Действий потрачено", en="Actions spent", default=0, min=0),
        "extra_actions": IntField(
            ru="Доп. действий от критов", en="Extra actions from crits", default=0, min=0
        ),
        "extra_used": IntField(ru="Из них потрачено", en="Extra actions spent", default=0, min=0),
        "move_left": IntField(
            ru="Осталось клеток текущего «Передвижения»",
            en="Squares left of the current Move",
            default=0,
            min=0,
        ),
        "moved": IntField(ru="Пройдено за ход", en="Squares moved this turn", default=0, min=0),
        "log": ListField(
            ru="Что потрачено", en="Spent", item=ChoiceField(default="free", choices=COSTS)
        ),
    },
)

COMBAT = ObjectField(
    ru="Бой",
    en="Combat",
    nullable=True,
    default=None,
    fields={
        "round": IntField(ru="Раунд", en="Round", default=0, min=0, max=100_000),
        "first": ChoiceField(
            ru="Первыми ходят",
            en="Acting first",
            default="",
            choices=(C("", "—", "—"), *SIDES),
        ),
        "initiative_roll": IntField(
            ru="Бросок инициативы", en="Initiative roll", nullable=True, default=None, min=1
        ),
        "combatants": ListField(ru="Участники", en="Combatants", item=COMBATANT, max_items=100),
        "current": StrField(ru="Чей ход", en="Whose turn", max_length=64),
        "turn": TURN,
        # L707: "a player the Referee picks" rolls the side initiative; the web layer keeps
        # that player's id here so the roll can come from their own browser.
        "roller": StrField(ru="Бросает инициативу", en="Rolls the initiative", max_length=64),
    },
)

# --- travel (L953-L1208) ----------------------------------------------------------------------

HEX = ObjectField(
    ru="Гекс",
    en="Hex",
    nullable=True,
    default=None,
    fields={
        "q": IntField(ru="Столбец", en="Column", default=0),
        "r": IntField(ru="Ряд", en="Row", default=0),
    },
)

ROLE_ENTRY = ObjectField(
    ru="Дорожная роль",
    en="Travel role",
    fields={
        "name": StrField(ru="Кто", en="Who", required=True, max_length=100),
        "role": ChoiceField(ru="Роль", en="Role", default="helper", choices=ROLES),
        "task": ChoiceField(ru="Задача", en="Task", default="forage", choices=TASK_CHOICES),
        "done": BoolField(ru="Проверка сделана", en="Check made"),
        "tier": IntField(ru="Ступень", en="Tier", nullable=True, default=None, min=1, max=3),
        "allies": ListField(
            ru="Союзники (Помочь всем, Противостоять Миазме)",
            en="Allies (Help everyone, Counter the Miasma)",
            item=StrField(max_length=100),
            max_items=4,
        ),
        "quarry": StrField(
            ru="Кого выслеживаете (Рефери согласен)",
            en="Quarry (the Referee agrees)",
            max_length=200,
        ),
    },
)

TRAVEL = ObjectField(
    ru="Путешествие",
    en="Travel",
    nullable=True,
    default=None,
    fields={
        "day": IntField(ru="День пути", en="Travel day", default=0, min=0, max=100_000),
        "hex": HEX,
        "seen_hex": HEX,
        "goal": HEX,
        "lost": BoolField(ru="Заблудились", en="Lost"),
        "terrain": StrField(ru="Местность", en="Terrain", max_length=60),
        "in_miasma": BoolField(ru="Под открытым небом (Миазма)", en="In the Miasma", default=True),
        "pace": ChoiceField(
            ru="Темп", en="Pace", default="normal", choices=(C("", "—", "—"), *PACE_CHOICES)
        ),
        "slowest_speed": IntField(
            ru="Самая низкая скорость", en="Slowest speed", default=5, min=0, max=99
        ),
        "road": BoolField(ru="Весь день по дороге", en="On a road all day"),
        "river": ChoiceField(ru="Река", en="River", default="none", choices=RIVER),
        "base_hexes": IntField(ru="Гексов по темпу", en="Hexes by pace", default=0),
        "hex_mod": IntField(ru="Поправка гексов", en="Hex modifier", default=0),
        "base_threshold": IntField(ru="Порог по темпу", en="Threshold by pace", default=7),
        "travel_mod": IntField(ru="Поправка порога пути", en="Travel threshold mod", default=0),
        "rest_mod": IntField(ru="Поправка порога отдыха", en="Rest threshold mod", default=0),
        "hexes": IntField(ru="Гексов сегодня", en="Hexes today", default=0, min=0),
        "travel_threshold": IntField(
            ru="Порог дорожных встреч", en="Travel threshold", default=7, min=1, max=10
        ),
        "rest_threshold": IntField(
            ru="Порог встреч на отдыхе", en="Rest threshold", default=7, min=1, max=10
        ),
        "role_net": IntField(
            ru="Преимущество ролей (+1/0/−1)", en="Role advantage (+1/0/−1)", default=0
        ),
        "roles": ListField(ru="Роли", en="Roles", item=ROLE_ENTRY, max_items=20),
        "helping": ListField(
            ru="Помогают вместо роли",
            en="Helping instead of a role",
            max_items=20,
            item=ObjectField(
                fields={
                    "name": StrField(ru="Кто", en="Who", max_length=100),
                    "helps": StrField(ru="Кому", en="Whom", max_length=100),
                }
            ),
        ),
        "role_bonus": ListField(
            ru="Бонусы к проверкам ролей (Помочь всем)",
            en="Role-check bonuses (Help everyone)",
            max_items=20,
            item=ObjectField(
                fields={
                    "name": StrField(ru="Кому", en="Whom", max_length=100),
                    "bonus": IntField(ru="Бонус", en="Bonus", default=0, min=-4, max=4),
                }
            ),
        ),
        "miasma_advantage": ListField(
            ru="Преимущество на бросок против Миазмы",
            en="Advantage on the Miasma save",
            max_items=20,
            item=ObjectField(
                fields={
                    "name": StrField(ru="Кому", en="Whom", max_length=100),
                    "count": IntField(ru="Сколько", en="How many", default=1, min=1, max=2),
                }
            ),
        ),
        "crafting_bonus": IntField(
            ru="Бонус к изготовлению в лагере", en="Camp crafting bonus", default=0, min=0, max=4
        ),
        "rations_found": IntField(ru="Добыто пайков", en="Rations gained", default=0, min=0),
        "hides_found": IntField(ru="Добыто шкур", en="Hides gained", default=0, min=0),
        "prompts": ListField(
            ru="Просьбы к Рефери",
            en="Prompts for the Referee",
            max_items=40,
            item=ObjectField(
                fields={
                    "kind": StrField(max_length=40),
                    "by": StrField(max_length=100),
                    "note": StrField(max_length=200),
                }
            ),
        ),
        "moved": IntField(ru="Пройдено гексов сегодня", en="Hexes moved today", default=0, min=0),
        "arrived": StrField(ru="Прибыли в", en="Arrived at", max_length=100),
        "encounters": ListField(
            ru="Проверки на встречу (только Рефери)",
            en="Encounter checks (Referee only)",
            max_items=40,
            item=ObjectField(
                fields={
                    "kind": StrField(max_length=20),
                    "day": IntField(default=0, min=0),
                    "roll": IntField(default=1, min=1, max=10),
                    "threshold": IntField(default=7, min=1, max=10),
                    "encounter": BoolField(),
                }
            ),
        ),
        "drift": ListField(
            ru="Блуждание (только Рефери)",
            en="Drift while lost (Referee only)",
            max_items=100,
            item=ObjectField(
                fields={
                    "day": IntField(default=0, min=0),
                    "roll": IntField(default=1, min=1, max=6),
                    "direction": StrField(max_length=4),
                    "to": HEX,
                }
            ),
        ),
    },
)
