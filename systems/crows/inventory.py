"""Inventory slots («Слоты инвентаря») as pure validation and placement.

Shape of an inventory (JSON, stored on the character)::

    {
      "placed": [{"area": "hands" | "belt" | "backpack", "slot": 1, "items": [card, ...]}],
      "magic": {"head": [card], "neck": [], "waist": [], "arms": [], "finger": [], "feet": []},
      "worn_armour": "<item id>" | "",
      "wounds": [{"slot": 9, "hunger": false}],
    }

A placement is one run of contiguous slots of one type («Слоты инвентаря») starting at ``slot``
(1-based; hands 1-2, belt 1-4, backpack 1-10, «Слоты инвентаря») and as long as its cards'
``slots``; ``items`` is a stack of one kind («Слоты инвентаря»), a single card in hands
(«Слоты инвентаря»: hands never stack). Wounds live in backpack slots («Урон и смерть › Раны») and
may share a slot with an item («Урон и смерть › Раны»).

Every function returns a new inventory and never mutates its input; a refusal is a
``RulesError`` with a ru/en reason the web layer shows as is.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from systems.core.ruleset import RulesError
from systems.core.schema import (
    BoolField,
    Choice,
    ChoiceField,
    IntField,
    ListField,
    ObjectField,
    StrField,
    msg,
    validate,
)
from systems.crows.items import ITEM, STACK_MAX, clean_item, stack_kind
from systems.crows.terms import MAGIC_SLOT_KEYS, MAGIC_SLOTS

HANDS, BELT, BACKPACK = "hands", "belt", "backpack"
AREAS: tuple[Choice, ...] = (
    Choice(HANDS, "Слоты рук", "Hand slots"),
    Choice(BELT, "Слоты пояса", "Belt slots"),
    Choice(BACKPACK, "Слоты рюкзака", "Backpack slots"),
)
AREA_KEYS: tuple[str, ...] = tuple(a.key for a in AREAS)
AREA_SIZE: dict[str, int] = {HANDS: 2, BELT: 4, BACKPACK: 10}  # «Слоты инвентаря»
AREA_RU: dict[str, str] = {HANDS: "рук", BELT: "пояса", BACKPACK: "рюкзака"}
AREA_ALIASES: dict[str, str] = {
    "hands": HANDS,
    "hand": HANDS,
    "руки": HANDS,
    "рука": HANDS,
    "belt": BELT,
    "пояс": BELT,
    "backpack": BACKPACK,
    "pack": BACKPACK,
    "рюкзак": BACKPACK,
}
BACKPACK_SLOTS = AREA_SIZE[BACKPACK]

PLACEMENT = ObjectField(
    ru="Предметы в слотах",
    en="Items in slots",
    fields={
        "area": ChoiceField(ru="Тип слотов", en="Slot type", default=BACKPACK, choices=AREAS),
        "slot": IntField(ru="Первый слот", en="First slot", default=1, min=1, max=BACKPACK_SLOTS),
        "items": ListField(ru="Стопка", en="Stack", item=ITEM, min_items=1, max_items=STACK_MAX),
    },
)
WOUND = ObjectField(
    ru="Рана",
    en="Wound",
    fields={
        "slot": IntField(
            ru="Слот рюкзака", en="Backpack slot", default=1, min=1, max=BACKPACK_SLOTS
        ),
        "hunger": BoolField(ru="Рана от голода", en="Hunger wound"),
    },
)
INVENTORY = ObjectField(
    ru="Инвентарь",
    en="Inventory",
    fields={
        "placed": ListField(ru="Предметы", en="Items", item=PLACEMENT, max_items=16),
        "magic": ObjectField(
            ru="Слоты магических предметов",
            en="Magic item slots",
            fields={
                m.key: ListField(ru=m.ru, en=m.en, item=ITEM, max_items=10) for m in MAGIC_SLOTS
            },
        ),
        "worn_armour": StrField(ru="Надетый доспех", en="Worn armour", max_length=64),
        "wounds": ListField(ru="Раны", en="Wounds", item=WOUND, max_items=BACKPACK_SLOTS),
    },
)


def _refuse(path: str, ru: str, en: str) -> RulesError:
    return RulesError({path: [msg(ru, en)]})


def empty_inventory() -> dict[str, Any]:
    return INVENTORY.default_value()


# --- reading ----------------------------------------------------------------------------------


def span(placement: dict[str, Any]) -> list[int]:
    """Slot numbers a placement covers: its first slot and as many as its cards use."""
    size = placement["items"][0]["slots"]
    return list(range(placement["slot"], placement["slot"] + size))


def occupied(inventory: dict[str, Any]) -> dict[tuple[str, int], int]:
    """(area, slot) -> index of the placement covering it."""
    out: dict[tuple[str, int], int] = {}
    for i, p in enumerate(inventory["placed"]):
        for s in span(p):
            out[(p["area"], s)] = i
    return out


def iter_items(inventory: dict[str, Any]) -> Iterator[tuple[str, int | str, dict[str, Any]]]:
    """Every carried card once, as (area, first slot or magic slot key, card), in table order:
    hands, belt, backpack, then the six magic slots. A worn magic item that also takes an
    inventory slot (the ``magic_in_inventory`` rule) is listed where it is worn."""
    worn = {c["id"] for key in MAGIC_SLOT_KEYS for c in inventory["magic"][key]}
    for p in sorted(inventory["placed"], key=_order):
        for card in p["items"]:
            if card["id"] not in worn:
                yield p["area"], p["slot"], card
    for key in MAGIC_SLOT_KEYS:
        for card in inventory["magic"][key]:
            yield "magic", key, card


def find(inventory: dict[str, Any], item_id: str) -> tuple[str, int | str, dict[str, Any]] | None:
    for area, slot, card in iter_items(inventory):
        if card["id"] == item_id:
            return area, slot, card
    return None


def get(inventory: dict[str, Any], item_id: str, *, path: str = "item_id") -> dict[str, Any]:
    """The card with ``item_id`` or a clear refusal."""
    found = find(inventory, item_id)
    if found is None:
        raise _refuse(path, f"Нет предмета «{item_id}».", f"No item {item_id!r}.")
    return found[2]


def placement_of(inventory: dict[str, Any], item_id: str) -> dict[str, Any] | None:
    for p in inventory["placed"]:
        if any(c["id"] == item_id for c in p["items"]):
            return p
    return None


def free_slots(inventory: dict[str, Any], area: str) -> list[int]:
    taken = occupied(inventory)
    return [s for s in range(1, AREA_SIZE[area] + 1) if (area, s) not in taken]


def _order(p: dict[str, Any]) -> tuple[int, int]:
    return AREA_KEYS.index(p["area"]), p["slot"]


def _stack_limit(card: dict[str, Any], area: str) -> int:
    return 1 if area == HANDS else card["stack"]


# --- validation -------------------------------------------------------------------------------


def validate_inventory(
    inventory: dict[str, Any] | None, *, magic_in_inventory: bool = False
) -> dict[str, Any]:
    """Clean an inventory or refuse it: fields, then every slot rule of «Слоты инвентаря».

    ``magic_in_inventory`` is a campaign setting, the rulebook being silent: when set, an item worn
    in a magic slot must also be carried in an inventory slot (same id).
    """
    inv = validate(INVENTORY, inventory if inventory is not None else {}, path="inventory")
    for i, p in enumerate(inv["placed"]):
        p["items"] = [
            clean_item(c, path=f"inventory.placed.{i}.items.{j}") for j, c in enumerate(p["items"])
        ]
    for key in MAGIC_SLOT_KEYS:
        inv["magic"][key] = [
            clean_item(c, path=f"inventory.magic.{key}.{j}")
            for j, c in enumerate(inv["magic"][key])
        ]
    inv["placed"].sort(key=_order)
    _check_placements(inv)
    _check_ids(inv, magic_in_inventory=magic_in_inventory)
    _check_worn(inv)
    _check_wounds(inv)
    return inv


def _check_placements(inv: dict[str, Any]) -> None:
    taken: dict[tuple[str, int], int] = {}
    for i, p in enumerate(inv["placed"]):
        path = f"inventory.placed.{i}"
        area, items = p["area"], p["items"]
        first = items[0]
        if any(c["slots"] != first["slots"] for c in items):
            raise _refuse(
                path,
                "В одной стопке предметы разного размера.",
                "A stack holds items of different sizes.",
            )
        kinds = {stack_kind(c) for c in items}
        if len(kinds) > 1:
            raise _refuse(
                path,
                "В стопке могут быть только предметы одного вида.",
                "A stack may hold only items of one kind.",
            )
        if area == HANDS and len(items) > 1:
            raise _refuse(
                path,
                "Каждая рука держит только один предмет.",
                "Each hand holds only one item.",
            )
        limit = min(_stack_limit(c, area) for c in items)
        if len(items) > limit:
            raise _refuse(
                path,
                f"В одном слоте помещается не больше {limit} таких предметов.",
                f"At most {limit} such items fit one slot.",
            )
        end = p["slot"] + first["slots"] - 1
        if end > AREA_SIZE[area]:
            raise _refuse(
                path,
                f"«{first['name']}» занимает {first['slots']} сл. и не помещается в слоты "
                f"{AREA_RU[area]} с {p['slot']}-го.",
                f"{first['name']!r} needs {first['slots']} slots and does not fit the {area} "
                f"slots from slot {p['slot']}.",
            )
        for s in span(p):
            if (area, s) in taken:
                raise _refuse(
                    path,
                    f"Слот {AREA_RU[area]} {s} уже занят.",
                    f"{area.capitalize()} slot {s} is already taken.",
                )
            taken[(area, s)] = i


def _check_ids(inv: dict[str, Any], *, magic_in_inventory: bool) -> None:
    """Ids are unique within the slots and within the magic slots. A worn magic item may also
    hold an inventory slot (same id); with ``magic_in_inventory`` it must."""
    placed_ids: set[str] = set()
    for p in inv["placed"]:
        for c in p["items"]:
            if c["id"] in placed_ids:
                raise _refuse(
                    "inventory", f"Предмет «{c['id']}» лежит дважды.", f"Item {c['id']!r} twice."
                )
            placed_ids.add(c["id"])
    worn: set[str] = set()
    for key in MAGIC_SLOT_KEYS:
        for c in inv["magic"][key]:
            path = f"inventory.magic.{key}"
            if not c["magic"]:
                raise _refuse(
                    path,
                    "В слотах магических предметов носят только магические предметы.",
                    "Only magic items go in magic item slots.",
                )
            if c["id"] in worn:
                raise _refuse(path, f"Предмет «{c['id']}» надет дважды.", f"{c['id']!r} twice.")
            worn.add(c["id"])
            if magic_in_inventory and c["id"] not in placed_ids:
                raise _refuse(
                    path,
                    "По правилам кампании надетый магический предмет занимает и слот инвентаря.",
                    "By this campaign's rule a worn magic item also uses an inventory slot.",
                )


def _check_worn(inv: dict[str, Any]) -> None:
    worn = inv["worn_armour"]
    if not worn:
        return
    p = placement_of(inv, worn)
    card = None if p is None else next(c for c in p["items"] if c["id"] == worn)
    if p is None or p["area"] != BACKPACK:
        raise _refuse(
            "inventory.worn_armour",
            "Надетым можно объявить только доспех в слотах рюкзака.",
            "Only armour in backpack slots can be declared worn.",
        )
    assert card is not None
    if card["armour"] is None or card["armour"]["shield"]:
        raise _refuse(
            "inventory.worn_armour",
            "Надеть можно доспех, но не щит.",
            "Only armour, not a shield, can be worn.",
        )


def _check_wounds(inv: dict[str, Any]) -> None:
    slots = [w["slot"] for w in inv["wounds"]]
    if len(slots) != len(set(slots)):
        raise _refuse(
            "inventory.wounds",
            "В одном слоте не больше одной раны.",
            "At most one wound per slot.",
        )
    inv["wounds"].sort(key=lambda w: w["slot"])


# --- placing ----------------------------------------------------------------------------------


def parse_target(target: Any) -> tuple[str, list[int] | None]:
    """A target is an area (``"backpack"``: first place that fits), one slot
    (``"backpack:3"``, ``("backpack", 3)``, ``{"area": ..., "slot": ...}``) or an explicit list
    of slots (``["backpack:2", "backpack:7"]``), which must be one type and contiguous
    («Слоты инвентаря»)."""
    if isinstance(target, dict):
        return _area(target.get("area")), [_slot_number(target.get("slot"))]
    if isinstance(target, str):
        text = target.strip()
        for sep in (":", ".", " "):
            if sep in text:
                area, _, number = text.partition(sep)
                return _area(area), [_slot_number(number)]
        return _area(text), None
    if isinstance(target, tuple | list):
        if len(target) == 2 and isinstance(target[0], str) and not _looks_like_slot(target[0]):
            return _area(target[0]), [_slot_number(target[1])]
        parsed = [parse_target(t) for t in target]
        if not parsed or any(slots is None for _, slots in parsed):
            raise _bad_target()
        areas = {a for a, _ in parsed}
        if len(areas) > 1:
            raise _refuse(
                "target",
                "Предмет занимает слоты одного типа: нельзя нести его в слотах рук и пояса сразу .",
                "An item uses slots of one type: not hand and belt slots at once.",
            )
        numbers = sorted(n for _, slots in parsed for n in (slots or []))
        return areas.pop(), numbers
    raise _bad_target()


def _looks_like_slot(text: str) -> bool:
    return any(sep in text for sep in (":", "."))


def _bad_target() -> RulesError:
    return _refuse(
        "target",
        "Укажите слот: например «backpack:3» или «hands».",
        "Give a slot such as 'backpack:3' or 'hands'.",
    )


def _area(text: Any) -> str:
    area = AREA_ALIASES.get(str(text or "").strip().casefold())
    if area is None:
        raise _refuse(
            "target",
            f"Нет таких слотов: «{text}». Есть руки, пояс и рюкзак.",
            f"No such slots: {text!r}. There are hands, belt and backpack.",
        )
    return area


def _slot_number(value: Any) -> int:
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise _bad_target() from None
    return number


def place(inventory: dict[str, Any], item: dict[str, Any], target_slot: Any) -> dict[str, Any]:
    """Put ``item`` into ``target_slot`` and return the new inventory (the input is untouched).

    One slot that holds a stack of the same kind with room joins the stack («Слоты инвентаря»);
    otherwise the item takes free contiguous slots of one type starting there («Слоты инвентаря»).
    An area alone picks the first joinable stack, else the first free run. Refusals explain why in
    ru/en.
    """
    inv = validate_inventory(inventory)
    card = clean_item(item)
    if find(inv, card["id"]) is not None:
        raise _refuse(
            "item.id",
            f"Предмет «{card['id']}» уже в инвентаре.",
            f"Item {card['id']!r} is already in the inventory.",
        )
    area, slots = parse_target(target_slot)
    size = AREA_SIZE[area]
    if card["slots"] > size:
        raise _refuse(
            "target",
            f"«{card['name']}» занимает {card['slots']} сл., а слотов {AREA_RU[area]} всего "
            f"{size}.",
            f"{card['name']!r} needs {card['slots']} slots; there are only {size} {area} slots.",
        )
    if slots is None:
        return _place_auto(inv, card, area)
    if len(slots) == 1:
        taken = occupied(inv)
        index = taken.get((area, slots[0]))
        if index is not None:
            return _join_stack(inv, index, card)
        return _place_run(inv, card, area, slots[0])
    if len(slots) != card["slots"]:
        raise _refuse(
            "target",
            f"«{card['name']}» занимает {card['slots']} сл., указано {len(slots)}.",
            f"{card['name']!r} needs {card['slots']} slots, {len(slots)} given.",
        )
    if slots != list(range(slots[0], slots[0] + len(slots))):
        raise _refuse(
            "target",
            "Слоты под предмет должны идти подряд: нельзя положить его в слоты "
            + ", ".join(map(str, slots))
            + ".",
            "An item's slots must be contiguous, not " + ", ".join(map(str, slots)) + ".",
        )
    return _place_run(inv, card, area, slots[0])


def _join_stack(inv: dict[str, Any], index: int, card: dict[str, Any]) -> dict[str, Any]:
    p = inv["placed"][index]
    head = p["items"][0]
    where = f"{AREA_RU[p['area']]} {p['slot']}"
    if p["area"] == HANDS:
        raise _refuse(
            "target",
            f"Слот {where} занят: каждая рука держит только один предмет.",
            f"Hand slot {p['slot']} is taken: each hand holds one item.",
        )
    if stack_kind(head) != stack_kind(card) or head["slots"] != card["slots"]:
        raise _refuse(
            "target",
            f"Слот {where} занят «{head['name']}»: в стопке только предметы одного вида.",
            f"Slot {p['slot']} holds {head['name']!r}: a stack holds one kind only.",
        )
    limit = min(_stack_limit(c, p["area"]) for c in [*p["items"], card])
    if len(p["items"]) + 1 > limit:
        raise _refuse(
            "target",
            f"Стопка в слоте {where} полна ({limit}): нужен новый слот.",
            f"The stack in slot {p['slot']} is full ({limit}): it needs a new slot.",
        )
    p["items"].append(card)
    return validate_inventory(inv)


def _place_run(inv: dict[str, Any], card: dict[str, Any], area: str, start: int) -> dict[str, Any]:
    size = AREA_SIZE[area]
    if not 1 <= start <= size:
        raise _refuse(
            "target",
            f"Слоты {AREA_RU[area]} пронумерованы от 1 до {size}.",
            f"{area.capitalize()} slots are numbered 1 to {size}.",
        )
    end = start + card["slots"] - 1
    if end > size:
        raise _refuse(
            "target",
            f"«{card['name']}» занимает {card['slots']} сл. подряд и не помещается со слота "
            f"{start}.",
            f"{card['name']!r} needs {card['slots']} contiguous slots and does not fit from "
            f"slot {start}.",
        )
    taken = occupied(inv)
    busy = [s for s in range(start, end + 1) if (area, s) in taken]
    if busy:
        raise _refuse(
            "target",
            f"Слоты {AREA_RU[area]} заняты: {', '.join(map(str, busy))}.",
            f"{area.capitalize()} slots taken: {', '.join(map(str, busy))}.",
        )
    inv["placed"].append({"area": area, "slot": start, "items": [card]})
    return validate_inventory(inv)


def _place_auto(inv: dict[str, Any], card: dict[str, Any], area: str) -> dict[str, Any]:
    for index, p in enumerate(inv["placed"]):  # sorted by slot (validate_inventory)
        if p["area"] != area or area == HANDS:
            continue
        head = p["items"][0]
        if stack_kind(head) == stack_kind(card) and head["slots"] == card["slots"]:
            limit = min(_stack_limit(c, area) for c in [*p["items"], card])
            if len(p["items"]) < limit:
                return _join_stack(inv, index, card)
    taken = occupied(inv)
    for start in range(1, AREA_SIZE[area] - card["slots"] + 2):
        if all((area, s) not in taken for s in range(start, start + card["slots"])):
            return _place_run(inv, card, area, start)
    raise _refuse(
        "target",
        f"В слотах {AREA_RU[area]} нет места для «{card['name']}» ({card['slots']} сл. подряд).",
        f"No room in the {area} slots for {card['name']!r} ({card['slots']} contiguous).",
    )


def remove(inventory: dict[str, Any], item_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Take a card out (from a stack, a run of slots or a magic slot): (new inventory, card)."""
    inv = validate_inventory(inventory)
    for p in inv["placed"]:
        for j, c in enumerate(p["items"]):
            if c["id"] == item_id:
                del p["items"][j]
                inv["placed"] = [q for q in inv["placed"] if q["items"]]
                if inv["worn_armour"] == item_id:
                    inv["worn_armour"] = ""
                return validate_inventory(inv), c
    for key in MAGIC_SLOT_KEYS:
        for j, c in enumerate(inv["magic"][key]):
            if c["id"] == item_id:
                del inv["magic"][key][j]
                return validate_inventory(inv), c
    raise _refuse("item_id", f"Нет предмета «{item_id}».", f"No item {item_id!r}.")


def move(inventory: dict[str, Any], item_id: str, target_slot: Any) -> dict[str, Any]:
    """Move a carried item to another slot (free out of rounds,
    «Слоты инвентаря › Перекладывание между слотами»)."""
    worn = validate_inventory(inventory)["worn_armour"] == item_id
    inv, card = remove(inventory, item_id)
    inv = place(inv, card, target_slot)
    landed = placement_of(inv, item_id)
    if worn and landed is not None and landed["area"] == BACKPACK:
        inv["worn_armour"] = item_id  # armour moved within the backpack stays worn
    return validate_inventory(inv)


def replace_card(inventory: dict[str, Any], card: dict[str, Any]) -> dict[str, Any]:
    """The same item with new data (wear dice, lit, AD) in the same place (every copy of it,
    when a worn magic item also takes an inventory slot)."""
    inv = validate_inventory(inventory)
    new = clean_item(card)
    found = False
    for p in inv["placed"]:
        for j, c in enumerate(p["items"]):
            if c["id"] == new["id"]:
                if c["slots"] != new["slots"]:
                    raise _refuse("item", "Размер предмета изменился.", "The item changed size.")
                p["items"][j] = copy.deepcopy(new)
                found = True
    for key in MAGIC_SLOT_KEYS:
        for j, c in enumerate(inv["magic"][key]):
            if c["id"] == new["id"]:
                inv["magic"][key][j] = copy.deepcopy(new)
                found = True
    if not found:
        raise _refuse("item", f"Нет предмета «{new['id']}».", f"No item {new['id']!r}.")
    return validate_inventory(inv)


# --- moving in round-timed play («Слоты инвентаря › Перекладывание между слотами») ------------


def move_cost(from_area: str, to_area: str, *, in_rounds: bool) -> str:
    """What a move costs: ``"free"`` out of rounds
    («Слоты инвентаря › Перекладывание между слотами»); in rounds hands<->belt is a ``"maneuver"``,
    out of the backpack a ``"retrieve"`` (maneuver + d10,
    «Слоты инвентаря › Перекладывание между слотами»). Putting an item into the backpack in rounds
    is not in the rulebook; a maneuver is the reading here."""
    if not in_rounds or from_area == to_area == BACKPACK:
        return "free"
    if from_area == BACKPACK:
        return "retrieve"
    return "maneuver"


@dataclass
class Retrieval:
    """What a backpack retrieval did."""

    inventory: dict[str, Any]
    success: bool
    roll: int
    needed: int
    dropped: list[dict[str, Any]] = field(default_factory=list)
    swapped: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "success": self.success,
            "roll": self.roll,
            "needed": self.needed,
            "dropped": copy.deepcopy(self.dropped),
            "swapped": list(self.swapped),
        }


def retrieve_needs(inventory: dict[str, Any], item_id: str) -> int:
    """The lowest backpack slot the item occupies: the d10 must reach it
    («Слоты инвентаря › Перекладывание между слотами»; a multi-slot item by its lowest slot)."""
    p = placement_of(validate_inventory(inventory), item_id)
    if p is None or p["area"] != BACKPACK:
        raise _refuse(
            "item_id",
            f"«{item_id}» не в рюкзаке.",
            f"{item_id!r} is not in the backpack.",
        )
    card = next(c for c in p["items"] if c["id"] == item_id)
    if card["slots"] > AREA_SIZE[HANDS]:
        raise _refuse(
            "item_id",
            f"«{card['name']}» ({card['slots']} сл.) не удержать в руках.",
            f"{card['name']!r} ({card['slots']} slots) cannot be held in hands.",
        )
    return p["slot"]


def retrieve_from_backpack(
    inventory: dict[str, Any],
    item_id: str,
    roll: int,
    *,
    make_room: str = "swap",
    release: list[str] | None = None,
) -> Retrieval:
    """Достать из рюкзака in round-timed play («Слоты инвентаря › Перекладывание между слотами»): a
    maneuver and a d10.

    The roll succeeds if it is at least the number of one backpack slot the item occupies.
    On success the item goes to the hands; hand items in the way (``release``, else those in
    the first hands needed) are swapped into the backpack (``make_room="swap"``) or dropped
    (``"drop"``). On a failure nothing is taken (the backpack may be rearranged, for free).
    """
    needed = retrieve_needs(inventory, item_id)
    if not 1 <= roll <= 10:
        raise _refuse("roll", "Бросок d10: от 1 до 10.", "A d10 roll is 1 to 10.")
    inv = validate_inventory(inventory)
    if roll < needed:
        return Retrieval(inv, False, roll, needed)
    inv, card = remove(inv, item_id)
    held = [c for p in inv["placed"] if p["area"] == HANDS for c in p["items"]]
    free = free_slots(inv, HANDS)
    out_ids: list[str] = list(release or [])
    unknown = [i for i in out_ids if i not in {c["id"] for c in held}]
    if unknown:
        raise _refuse(
            "release",
            f"В руках нет: {', '.join(unknown)}.",
            f"Not held: {', '.join(unknown)}.",
        )
    if not out_ids and len(free) < card["slots"]:
        for c in held:
            out_ids.append(c["id"])
            if len(free) + sum(h["slots"] for h in held if h["id"] in out_ids) >= card["slots"]:
                break
    dropped: list[dict[str, Any]] = []
    for hid in out_ids:
        inv, hcard = remove(inv, hid)
        dropped.append(hcard)
    inv = place(inv, card, HANDS)
    swapped: list[str] = []
    if make_room == "swap":
        for hcard in dropped:
            inv = place(inv, hcard, BACKPACK)
            swapped.append(hcard["id"])
        dropped = []
    elif make_room != "drop":
        raise _refuse("make_room", "Либо поменять, либо бросить.", "Either swap or drop.")
    return Retrieval(validate_inventory(inv), True, roll, needed, dropped, swapped)


def dump_backpack(
    inventory: dict[str, Any], item_ids: list[str] | None = None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Вытряхнуть рюкзак («Слоты инвентаря › Перекладывание между слотами»; «Бой › Общие манёвры»):
    drop any number of backpack items (all by default)."""
    inv = validate_inventory(inventory)
    in_pack = [c["id"] for p in inv["placed"] if p["area"] == BACKPACK for c in p["items"]]
    ids = in_pack if item_ids is None else list(item_ids)
    stray = [i for i in ids if i not in in_pack]
    if stray:
        raise _refuse(
            "item_ids",
            f"Не в рюкзаке: {', '.join(stray)}.",
            f"Not in the backpack: {', '.join(stray)}.",
        )
    dropped = []
    for item_id in ids:
        inv, card = remove(inv, item_id)
        dropped.append(card)
    return inv, dropped


# --- armour and magic slots («Слоты инвентаря») -----------------------------------------------


def wear_armour(inventory: dict[str, Any], item_id: str, *, in_rounds: bool = False) -> dict:
    """Declare one armour (not a shield) in the backpack worn; never during rounds
    («Слоты инвентаря › Ношение доспеха»)."""
    if in_rounds:
        raise _refuse(
            "in_rounds",
            "Надеть новый доспех можно только вне боевых раундов.",
            "New armour can be put on only outside round-timed play.",
        )
    inv = validate_inventory(inventory)
    inv["worn_armour"] = item_id
    return validate_inventory(inv)


def take_off_armour(inventory: dict[str, Any]) -> dict[str, Any]:
    inv = validate_inventory(inventory)
    inv["worn_armour"] = ""
    return inv


def equip_magic(
    inventory: dict[str, Any],
    item: str | dict[str, Any],
    magic_slot: str,
    *,
    keep_in_inventory: bool = False,
) -> dict[str, Any]:
    """Wear a magic item in one of the six magic slots
    («Слоты инвентаря › Слоты магических предметов»). A carried item (by id) leaves its inventory
    slot unless ``keep_in_inventory`` (a campaign setting, the rulebook being silent); a card is
    taken as new. More than one item in a slot is allowed and has its price
    («Слоты инвентаря › Слоты магических предметов», see ``overloaded_slots``)."""
    if magic_slot not in MAGIC_SLOT_KEYS:
        raise _refuse(
            "magic_slot",
            f"Нет такого слота магических предметов: {magic_slot}.",
            f"No such magic item slot: {magic_slot}.",
        )
    inv = validate_inventory(inventory, magic_in_inventory=keep_in_inventory)
    if isinstance(item, str):
        if any(c["id"] == item for k in MAGIC_SLOT_KEYS for c in inv["magic"][k]):
            raise _refuse("item_id", "Предмет уже надет.", "The item is already worn.")
        if keep_in_inventory:
            card = copy.deepcopy(get(inv, item))
        else:
            inv, card = remove(inv, item)
    else:
        card = clean_item(item)
        if find(inv, card["id"]) is not None:
            raise _refuse(
                "item.id",
                f"Предмет «{card['id']}» уже в инвентаре.",
                f"Item {card['id']!r} is already carried.",
            )
    inv["magic"][magic_slot].append(card)
    return validate_inventory(inv, magic_in_inventory=keep_in_inventory)


def unequip_magic(
    inventory: dict[str, Any],
    item_id: str,
    target_slot: Any = BACKPACK,
    *,
    keep_in_inventory: bool = False,
) -> dict[str, Any]:
    """Take a magic item off: back to ``target_slot``, or, when it also holds an inventory slot
    (``keep_in_inventory``), just out of its magic slot."""
    inv = validate_inventory(inventory, magic_in_inventory=keep_in_inventory)
    for key in MAGIC_SLOT_KEYS:
        for j, c in enumerate(inv["magic"][key]):
            if c["id"] == item_id:
                del inv["magic"][key][j]
                if keep_in_inventory:
                    return validate_inventory(inv, magic_in_inventory=True)
                return place(inv, c, target_slot)
    raise _refuse("item_id", f"«{item_id}» не надет.", f"{item_id!r} is not worn.")


def overloaded_slots(inventory: dict[str, Any]) -> list[str]:
    """Magic slots holding more than one item: no rest, and 1d6 wounds at the end of every
    dungeon turn («Слоты инвентаря › Слоты магических предметов»)."""
    return [k for k in MAGIC_SLOT_KEYS if len(inventory["magic"][k]) > 1]


# --- wounds in backpack slots («Урон и смерть › Раны») ----------------------------------------


def wound_slots(inventory: dict[str, Any]) -> list[int]:
    return sorted(w["slot"] for w in inventory["wounds"])


def item_slots(inventory: dict[str, Any], area: str = BACKPACK) -> set[int]:
    return {s for (a, s) in occupied(inventory) if a == area}


def speed_penalty(inventory: dict[str, Any]) -> int:
    """-1 speed for every backpack slot holding both a wound and an item
    («Урон и смерть › Раны»)."""
    items = item_slots(inventory)
    return sum(1 for s in wound_slots(inventory) if s in items)


def free_wound_slots(inventory: dict[str, Any]) -> list[int]:
    taken = set(wound_slots(inventory))
    return [s for s in range(1, BACKPACK_SLOTS + 1) if s not in taken]


def default_wound_slots(inventory: dict[str, Any], count: int) -> list[int]:
    """Where wounds go when the player has not chosen: empty slots first (no speed penalty),
    then slots with items, lowest number first («Урон и смерть › Раны»: the slot is the character's
    choice)."""
    items = item_slots(inventory)
    free = free_wound_slots(inventory)
    ordered = [s for s in free if s not in items] + [s for s in free if s in items]
    return ordered[:count]


def add_wounds(
    inventory: dict[str, Any],
    count: int,
    *,
    slots: list[int] | None = None,
    hunger: bool = False,
) -> tuple[dict[str, Any], list[int], int]:
    """Put ``count`` wounds into backpack slots: (inventory, slots used, wounds with no room).

    Chosen ``slots`` must be free of wounds; missing choices are filled by
    ``default_wound_slots``. Wounds that find no slot are returned as overflow: the creature
    dies («Урон и смерть › Раны»).
    """
    inv = validate_inventory(inventory)
    chosen = list(dict.fromkeys(slots or []))[:count]
    free = free_wound_slots(inv)
    bad = [s for s in chosen if s not in free]
    if bad:
        raise _refuse(
            "wound_slots",
            f"В слотах уже есть рана или их нет: {', '.join(map(str, bad))}.",
            f"Slots already wounded or missing: {', '.join(map(str, bad))}.",
        )
    for s in chosen:
        inv["wounds"].append({"slot": s, "hunger": hunger})
    rest = default_wound_slots(inv, count - len(chosen))
    for s in rest:
        inv["wounds"].append({"slot": s, "hunger": hunger})
    used = [*chosen, *rest]
    return validate_inventory(inv), used, count - len(used)


def remove_wound(inventory: dict[str, Any], slot: int | None = None) -> tuple[dict, int | None]:
    """Take one wound away (the player's choice, «Отдых»); by default one that also holds an item
    (it costs speed), else the highest slot. Returns (inventory, slot freed or None)."""
    inv = validate_inventory(inventory)
    if not inv["wounds"]:
        return inv, None
    slots = wound_slots(inv)
    if slot is None:
        items = item_slots(inv)
        with_item = [s for s in slots if s in items]
        slot = with_item[0] if with_item else slots[-1]
    if slot not in slots:
        raise _refuse("wound_slot", f"В слоте {slot} нет раны.", f"No wound in slot {slot}.")
    inv["wounds"] = [w for w in inv["wounds"] if w["slot"] != slot]
    return validate_inventory(inv), slot


def remove_hunger_wounds(inventory: dict[str, Any]) -> tuple[dict[str, Any], list[int]]:
    """Eating a ration removes every hunger wound («Частые опасности › Голод»)."""
    inv = validate_inventory(inventory)
    gone = [w["slot"] for w in inv["wounds"] if w["hunger"]]
    inv["wounds"] = [w for w in inv["wounds"] if not w["hunger"]]
    return inv, gone


def move_wound(inventory: dict[str, Any], from_slot: int, to_slot: int) -> dict[str, Any]:
    """Wounds sit where the character chooses («Урон и смерть › Раны»); out of rounds they may be
    rearranged."""
    inv = validate_inventory(inventory)
    if from_slot not in wound_slots(inv):
        raise _refuse("from_slot", f"В слоте {from_slot} нет раны.", f"No wound in {from_slot}.")
    if to_slot in wound_slots(inv):
        raise _refuse("to_slot", f"В слоте {to_slot} уже рана.", f"Slot {to_slot} is wounded.")
    for w in inv["wounds"]:
        if w["slot"] == from_slot:
            w["slot"] = to_slot
    return validate_inventory(inv)
