"""Ready-made tables for Crows: Fortune or Death, from the digests (seed 001).

Same generic shape as ``systems/tales/tables.py`` (``name``/``text`` in ru and en), plus
``modifier_label`` for tables rolled "d10 + cruelty" or "d100 + rank": a roll adds the
modifier and totals past the last row read the last row ("13+").

The Miasma and backlash rows come from ``systems/crows/terms.py`` (the rules' own tables); the
rows written out here give the tables their names and shape.

Not shipped: the campfire table («Свет › Яркость костра») looks light up by fire size, nothing is
rolled on it (``systems/crows/terms.py`` CAMPFIRE); encounter tables proper are in the Referee's
book, not in the seed («Встречи в подземелье»), so only the encounter checks are here.
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

MIASMA = {
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
    "entries": [
        _e(
            1,
            2,
            "Уныние: пока не покинете Миазму, говорите, только когда к вам обращаются, и одним "
            "словом. Зато преимущество на проверки скрытности",
            "Gloom: until you leave the Miasma, speak only when spoken to, in one word. And: "
            "advantage on sneak and hide checks",
            key="gloom",
        ),
        _e(
            3,
            4,
            "Чревоугодие: пока не покинете Миазму, отдых помогает, только если съесть не меньше "
            "2 пайков. Зато +2 к проверкам сбора пищи",
            "Gluttony: until you leave the Miasma, a rest helps only if you eat 2 or more "
            "rations. And: +2 on Forage checks",
            key="gluttony",
        ),
        _e(
            5,
            6,
            "Ярость: уничтожьте 1 случайный обычный предмет из рюкзака (выбирает Рефери). Зато "
            "восстановите 3 выносливости, а при полной — избавьтесь от 1 раны",
            "Rage: destroy 1 random mundane backpack item (the Referee picks). And: regain 3 "
            "Stamina, or at full Stamina lose 1 wound",
            key="rage",
        ),
        _e(
            7,
            8,
            "Ложь: пока не покинете Миазму, говорите только неправду. Зато получите экспертизу, "
            "которой у вас нет, на выбор",
            "Lying: until you leave the Miasma, speak only untruths. And: gain an expertise you "
            "lack, of your choice",
            key="lying",
        ),
        _e(
            9,
            10,
            "Лень: пока не покинете Миазму, отказывайтесь от любой дорожной роли. Зато отдых "
            "снимает 2 раны вместо 1",
            "Sloth: until you leave the Miasma, refuse any travel role. And: a rest removes 2 "
            "wounds instead of 1",
            key="sloth",
        ),
        _e(
            11,
            12,
            "Жажда крови: в бою преследуйте и бейте врагов, пока их чуете; проходит при 0 "
            "жестокости. Зато +1 к урону атак оружием",
            "Bloodlust: in combat, pursue and fight enemies until you no longer sense them; ends "
            "at 0 cruelty. And: +1 damage on weapon attacks",
            key="bloodlust",
        ),
        _e(
            13,
            13,
            "13+: все прочие эффекты Миазмы и вся жестокость уходят, новых больше не будет; "
            "персонаж навсегда жесток и становится персонажем Рефери. Отдых в Миазме обновляет "
            "экспертизы",
            "13+: all other Miasma effects and all cruelty end, and no new ones ever come; the "
            "character is cruel for good and becomes an NPC run by the Referee. Resting in the "
            "Miasma refreshes expertise",
            key="lost",
        ),
    ],
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

# (range, ru, en); «Заклинания › Виды отдачи». WD: кости износа / wear dice; EoT: до конца хода
# подземелья / until the end of this dungeon turn; Draw: перемешайте карты инвентаря, бросьте
# d10 и возьмите столько карт, затронут предмет с последней.
_BACKLASH: tuple[tuple[int, int, str, str], ...] = (
    (
        1,
        2,
        "Ослиная голова: вы не можете говорить, только реветь. 1 КИ",
        "Donkey head: you cannot speak, only bray. 1 WD",
    ),
    (
        3,
        4,
        "Вынужденный танец: скорость −2; помеха на проверки лазанья, скрытности и плавания. 1 КИ",
        "Forced dancing: speed −2; disadvantage on climb, hide, sneak and swim checks. 1 WD",
    ),
    (
        5,
        6,
        "Неуничтожимый призрачный аккордеон играет вокруг вас польку до конца хода; пройти "
        "незамеченным нельзя",
        "An indestructible spectral accordion plays polka around you "
        "until the end of the turn; you cannot go anywhere unnoticed",
    ),
    (
        7,
        8,
        "До конца хода, когда говорите, бросайте d10; на 10 гром наносит 1d6 каждому "
        "существу в пределах 3. Повтор: +1d6",
        "Until the end of the turn, whenever you speak "
        "roll d10; on a 10, thunder deals 1d6 to each creature within 3. Again: +1d6",
    ),
    (
        9,
        10,
        "Если до конца хода вы не раните другое существо, получите 1d6 колющего. Повтор: +1d6",
        "If you harm no other creature by the end of the turn, you take 1d6 piercing. Again: +1d6",
    ),
    (
        11,
        12,
        "Холод до конца хода: скорость −1; начать ход в воде или мокрым — 1d6 колющего. "
        "Повтор: ещё −1 к скорости",
        "Cold until the end of the turn: speed −1; starting a turn "
        "underwater or wet deals 1d6 piercing. Again: a further speed −1",
    ),
    (13, 14, "Ослаблен", "Weakened"),
    (
        15,
        16,
        "Следующий урон до конца хода удваивается",
        "The next damage you take before the end of the turn is doubled",
    ),
    (17, 18, "Уязвим", "Vulnerable"),
    (
        19,
        20,
        "Рефери выбирает ваш слот руки: предмет падает, слот недоступен до конца хода",
        "The Referee picks one of your hand slots: you drop its item, and the slot is unusable "
        "until the end of the turn",
    ),
    (21, 22, "Ближайшие 1d6 пайков уничтожены", "The nearest 1d6 rations are destroyed"),
    (
        23,
        24,
        "Гром слышен в пределах 100 клеток; любопытные придут",
        "Thunder is heard within 100 squares; the curious come",
    ),
    (
        25,
        26,
        "Порыв ветра толкает вас и всех в пределах 10 клеток на 1d6 клеток в случайную "
        "сторону (выбирает Рефери)",
        "A gust pushes you and every creature within 10 squares 1d6 "
        "squares in a random direction (the Referee picks)",
    ),
    (27, 28, "Вы получаете 1d6 урона", "You take 1d6 damage"),
    (
        29,
        30,
        "Вы телепортируетесь на 1d6 клеток в сторону, выбранную Рефери, на свободное место",
        "You teleport 1d6 squares in a direction the Referee picks, to an unoccupied space",
    ),
    (
        31,
        32,
        "Карты: предмет становится козой под управлением Рефери, пока коза не умрёт",
        "Draw: the item becomes a goat controlled by the Referee until the goat dies",
    ),
    (
        33,
        34,
        "Карты: предмет телепортируется к случайному другому существу в пределах 20 клеток",
        "Draw: the item teleports to a random other creature within 20 squares",
    ),
    (
        35,
        36,
        "Карты: предмет до конца хода становится метёлкой из перьев",
        "Draw: the item becomes a feather duster until the end of the turn",
    ),
    (
        37,
        38,
        "Слизь до конца хода: скорость −2. Повтор: ещё −2",
        "Slime until the end of the turn: speed −2. Again: a further −2",
    ),
    (
        39,
        40,
        "Облако вони: помеха на все проверки. 1 КИ",
        "Stench cloud: disadvantage on all checks. 1 WD",
    ),
    (
        41,
        42,
        "Ваши союзники в пределах 10 клеток от цели заклинания получают по 1d6 колющего",
        "Your allies within 10 squares of the spell's target take 1d6 piercing each",
    ),
    (
        43,
        44,
        "Говорить можно только рифмованными двустишиями; каждая неудача — 1d6 колющего. 1 КИ",
        "You may speak only in rhyming couplets; each failure deals 1d6 piercing. 1 WD",
    ),
    (
        45,
        46,
        "1d6 враждебных кровавых существ A появляются на свободных местах в пределах 5 клеток",
        "1d6 hostile blood creatures A appear in unoccupied spaces within 5 squares",
    ),
    (
        47,
        48,
        "Светящийся контур: спрятаться нельзя; атаки по вам получают +2. 1 КИ",
        "Glowing outline: you cannot hide; attacks against you get +2. 1 WD",
    ),
    (
        49,
        50,
        "Вы и все существа в пределах 2 клеток получаете 1d6",
        "You and every creature within 2 squares take 1d6",
    ),
    (
        51,
        52,
        "Демонические пчёлы: вы и все в пределах 3 клеток делаете спасбросок Силы: ≤11 — "
        "6 урона и ослаблен; 12–16 — 3 урона; 17+ — ничего",
        "Demon bees: you and every creature "
        "within 3 squares make a Str save: ≤11 6 damage and weakened; 12–16 3 damage; 17+ "
        "nothing",
    ),
    (
        53,
        54,
        "Вы и все в пределах 3 клеток получаете 1d6. У вас 3 особые раны (щупальца): "
        "действие клинком — вашим или того, кто до вас дотянется, — снимает одну без вреда; "
        "щупальца исчезают, когда сняты все",
        "You and every creature within 3 squares take 1d6. "
        "You gain 3 special wounds (the tentacles): an action with a bladed tool or weapon, by you "
        "or anyone who can reach you, removes one harmlessly; the tentacles vanish when all are "
        "gone",
    ),
    (
        55,
        56,
        "Обвал на вас и всех в пределах 2 клеток, спасбросок Ловкости: ≤11 — 6 урона и "
        "сбит с ног; 12–16 — 3 урона; 17+ — ничего",
        "Falling earth on you and every creature "
        "within 2 squares, Agi save: ≤11 6 damage and prone; 12–16 3 damage; 17+ nothing",
    ),
    (
        57,
        58,
        "Фарфоровое тело: некалющий урон удваивается. 1 КИ",
        "Porcelain body: non-piercing damage is doubled. 1 WD",
    ),
    (
        59,
        60,
        "Вы лежите, встать не можете, только ползти. 1 КИ",
        "Prone, cannot stand, must crawl. 1 WD",
    ),
    (
        61,
        62,
        "Руки становятся ногами до конца хода: скорость +2; держать предметы и "
        "пользоваться руками нельзя",
        "Hands become feet until the end of the turn: speed +2; you "
        "cannot hold items or use your hands",
    ),
    (
        63,
        64,
        "Зыбучий песок в пределах 1 клетки от вас. Каждый стоящий на земле делает "
        "спасбросок Ловкости: ≤11 — схвачен и получает 1d6 колющего в конце каждого раунда, пока "
        "схвачен; 12–16 — схвачен до конца своего следующего хода; 17+ — может пройти 2 клетки. "
        "Не схваченный, кто входит в песок или начинает там ход, спасается снова. "
        "Если вы не касаетесь земли, "
        "бросьте отдачу ещё раз",
        "Quicksand within 1 square of you. Each creature standing on "
        "the ground makes an Agi save: ≤11 grabbed, taking 1d6 piercing at the end of each round "
        "while grabbed; 12–16 grabbed until the end of its next turn; 17+ may move 2 squares. An "
        "ungrabbed creature entering the sand or starting its turn there saves again. "
        "If you are not "
        "touching the ground, roll another backlash",
    ),
    (
        65,
        66,
        "До конца хода за вами следует односторонний портал-окно: вы сквозь него ничего "
        "не видите, а с той стороны вас видят и слышат. Другой конец — рядом с вашим личным "
        "врагом или соперником (выбирает Рефери)",
        "A one-way portal window follows you until "
        "the end of the turn: you perceive nothing through it, but those beyond see and hear you. "
        "Its far end is beside a personal enemy or rival (the Referee picks)",
    ),
    (
        67,
        68,
        "Вы телепортируетесь до 50 клеток по горизонтали в сторону, выбранную Рефери, на "
        "свободное место",
        "You teleport up to 50 squares horizontally in a direction the Referee "
        "picks, to an unoccupied space",
    ),
    (
        69,
        70,
        "Вы получаете 1d6, оказываетесь закопаны по шею и схвачены. Другое существо "
        "может освободить вас действием. Каждый раунд боя, начатый схваченным, — 1d6",
        "You take "
        "1d6, end up buried to the neck and grabbed. Another creature can free you with an "
        "action. Each combat round you start grabbed deals 1d6",
    ),
    (
        71,
        72,
        "Полезное заклинание действует на ближайшего врага, вредное — на вас (дальность "
        "не важна; что есть что, решает Рефери)",
        "A beneficial spell affects the nearest enemy, "
        "a harmful one affects you (range ignored; the Referee rules which)",
    ),
    (
        73,
        74,
        "В начале каждого своего хода в бою бросайте любой кубик; на нечётном весь ход "
        "вас рвёт слизнями, и вы ничего не делаете. 1 КИ",
        "At the start of each of your combat "
        "turns roll any die; on an odd result you vomit slugs all turn and do nothing else. 1 WD",
    ),
    (
        75,
        76,
        "Плавятся 1d6×100 монет, самоцвет или другое обычное сокровище при вас (выбор случаен)",
        "1d6×100 coins, a gem or another mundane treasure you carry (picked at random) melts",
    ),
    (
        77,
        78,
        "Лягушка: крошечный размер, максимум выносливости 1, 0 слотов, без экспертиз; "
        "лазанье и плавание со скоростью ходьбы; прыжок +2. 1 КИ",
        "Frog: Tiny, max Stamina 1, 0 "
        "slots, no expertise; climb and swim speed equal walking speed; Jump +2. 1 WD",
    ),
    (
        79,
        80,
        "Карты: предмет телепортируется в подземелье на выбор Рефери",
        "Draw: the item teleports to a dungeon of the Referee's choice",
    ),
    (
        81,
        82,
        "Рот и уши срастаются до конца отдыха: вы не говорите и не слышите",
        "Mouth and ears fused until your rest ends: you cannot speak or hear",
    ),
    (83, 84, "Яркий свет для вас — темнота. 2 КИ", "You perceive bright light as darkness. 2 WD"),
    (
        85,
        86,
        "Жалящие насекомые преследуют вас и не дают отдыхать, пока не скормите им 1000 "
        "фунтов плоти",
        "Stinging insects follow you and prevent rest until you feed them 1000 lb of flesh",
    ),
    (87, 88, "Сила −1 до конца отдыха; складывается", "Str −1 until you finish a rest; stacks"),
    (89, 90, "Ловкость −1 до конца отдыха; складывается", "Agi −1 until you finish a rest; stacks"),
    (91, 92, "Разум −1 до конца отдыха; складывается", "Reason −1 until you finish a rest; stacks"),
    (93, 94, "Вы получаете 1d6 ран", "You take 1d6 wounds"),
    (
        95,
        96,
        "Вы и все существа в пределах 5 клеток получаете 3d6",
        "You and every creature within 5 squares take 3d6",
    ),
    (
        97,
        98,
        "Когда вы или существо в пределах 10 клеток активирует волшебный предмет или "
        "творит заклинание, вы получаете 1d6 колющего. 2 КИ",
        "Whenever you or a creature within "
        "10 squares activates a magic item or casts a spell, you take 1d6 piercing. 2 WD",
    ),
    (
        99,
        100,
        "Ваши заклинания срабатывают на уровень ниже, а 1 уровень считается роком. 2 КИ",
        "Your casts count one tier lower, and tier 1 counts as a doom. 2 WD",
    ),
    (
        101,
        101,
        "Рога, отрастающие после срезания; обычный головной убор не надеть. Навсегда",
        "Antlers that regrow if cut; no ordinary headgear. Permanent",
    ),
    (
        102,
        102,
        "Одна случайная ваша экспертиза и одна, которой нет: потеряйте все применения "
        "первой и получите столько же применений второй",
        "One random expertise you have and one "
        "you lack: lose all uses of the first, gain that many uses of the second",
    ),
    (
        103,
        103,
        "Одна рука навсегда становится случайным обычным одноручным оружием; этот слот "
        "больше не держит другой предмет",
        "One hand becomes a random mundane one-handed weapon, "
        "permanently; that slot can never hold another item",
    ),
    (
        104,
        104,
        "Выносливость падает до 0; вы получаете 2d6 ран",
        "Stamina drops to 0; you take 2d6 wounds",
    ),
    (
        105,
        105,
        "105+: утянут в Ад и запечатан навеки (персонаж потерян)",
        "105+: dragged into Hell and sealed forever (the character is gone)",
    ),
)

BACKLASH = {
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
    "entries": [_e(lo, hi, ru, en) for lo, hi, ru, en in _BACKLASH],
}

# The Crows rules (systems/crows/terms.py) carry the Miasma and backlash rows as data; the
# library reads them from there, so the rules and the ready-made table cannot disagree.


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
    return {**MIASMA, "entries": entries}


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
    return {**BACKLASH, "entries": entries}


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
