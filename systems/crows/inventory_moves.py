"""Crows inventory moves: placing, moving, dropping and retrieving items, armour and
magic slots, lights and wear dice («Слоты инвентаря»; «Кости износа»; «Свет»; «Бой › Общие манёвры»
for picking up and drawing from the belt).
"""

from __future__ import annotations

from typing import Any

from systems.core.outcome import Outcome, Text
from systems.core.schema import fail
from systems.crows import combat as cb
from systems.crows import inventory as inv_rules
from systems.crows.calls import Call
from systems.crows.conditions import speed
from systems.crows.inventory import BELT, HANDS, find, place, remove
from systems.crows.resolution import item_text
from systems.crows.wear import extinguish, light_up, refuel, roll_activation


class InventoryMoves:
    """Inventory slots, item use and wear dice on one creature's sheet."""

    def _inv(self, call: Call) -> dict[str, Any]:
        return call.state["inventory"]

    def _set_inv(self, call: Call, inventory: dict[str, Any]) -> dict[str, Any]:
        st = call.state
        st["inventory"] = inv_rules.validate_inventory(
            inventory, magic_in_inventory=call.settings["magic_in_inventory"]
        )
        return st

    def _do_place_item(self, call: Call) -> Outcome:
        """Slots of one type, contiguous; stacks of one kind; hands never stack
        («Слоты инвентаря»)."""
        p = call.params
        st = self._set_inv(call, inv_rules.place(self._inv(call), p["item"], p["target"]))
        text = item_text(p["item"], "Предмет «{}» уложен", "Item “{}” placed")
        return self._outcome(call, state=st, text=text, details={"speed": speed(st)})

    def _do_move_item(self, call: Call) -> Outcome:
        """Free out of rounds; hands↔belt a maneuver in rounds; out of the backpack in rounds
        only through «Достать из рюкзака» («Слоты инвентаря › Перекладывание между слотами»)."""
        p = call.params
        found = inv_rules.find(self._inv(call), p["item_id"])
        if found is None:
            raise fail("item_id", f"Нет предмета «{p['item_id']}».", f"No item {p['item_id']!r}.")
        area, _ = inv_rules.parse_target(p["target"])
        cost = inv_rules.move_cost(str(found[0]), area, in_rounds=p["in_rounds"])
        if cost == "retrieve":
            raise fail(
                "target",
                "В раундах предмет из рюкзака достают манёвром с броском 1d10.",
                "In rounds, take an item out of the backpack with the d10 maneuver.",
            )
        st = self._set_inv(call, inv_rules.move(self._inv(call), p["item_id"], p["target"]))
        text = item_text(found[2], "Предмет «{}» перемещён", "Item “{}” moved")
        return self._outcome(call, state=st, text=text, details={"cost": cost})

    def _do_drop_item(self, call: Call) -> Outcome:
        inventory, card = inv_rules.remove(self._inv(call), call.params["item_id"])
        return self._outcome(
            call,
            state=self._set_inv(call, inventory),
            text=item_text(card, "Предмет «{}» выброшен", "Item “{}” dropped"),
            details={"dropped": card},
        )

    def _do_retrieve(self, call: Call) -> Outcome:
        """Достать из рюкзака («Слоты инвентаря › Перекладывание между слотами»): 1d10 ≥ the number
        of a slot the item occupies."""
        p = call.params
        inv_rules.retrieve_needs(self._inv(call), p["item_id"])  # refuse before rolling
        roll = self._need_dice(call).roll(10)
        got = inv_rules.retrieve_from_backpack(
            self._inv(call), p["item_id"], roll, make_room=p["make_room"], release=p["release"]
        )
        st = self._set_inv(call, got.inventory)
        text = (
            Text("Предмет в руках.", "The item is in hand.")
            if got.success
            else Text(
                "Не достали: манёвр потрачен, можно переложить вещи в рюкзаке.",
                "Not retrieved: the maneuver is spent; you may rearrange the backpack.",
            )
        )
        return Outcome(
            move=call.spec.key,
            total=roll,
            faces=[roll],
            state=st,
            text=text,
            flags={"success": got.success},
            details=got.as_dict(),
        )

    def _do_dump_backpack(self, call: Call) -> Outcome:
        ids = call.params["item_ids"] or None
        inventory, dropped = inv_rules.dump_backpack(self._inv(call), ids)
        st = self._set_inv(call, inventory)
        return self._outcome(call, state=st, details={"dropped": dropped})

    def _do_wear_armour(self, call: Call) -> Outcome:
        p = call.params
        inventory = inv_rules.wear_armour(self._inv(call), p["item_id"], in_rounds=p["in_rounds"])
        return self._outcome(call, state=self._set_inv(call, inventory))

    def _do_take_off_armour(self, call: Call) -> Outcome:
        return self._outcome(
            call, state=self._set_inv(call, inv_rules.take_off_armour(self._inv(call)))
        )

    def _do_equip_magic(self, call: Call) -> Outcome:
        p = call.params
        inventory = inv_rules.equip_magic(
            self._inv(call),
            p["item_id"],
            p["magic_slot"],
            keep_in_inventory=call.settings["magic_in_inventory"],
        )
        overloaded = inv_rules.overloaded_slots(inventory)
        text = None
        if overloaded:
            text = Text(
                "Больше одного предмета в слоте: отдыхать нельзя, 1d6 ран в конце каждого хода "
                "подземелья.",
                "More than one item in a slot: no rest, 1d6 wounds at the end of every dungeon "
                "turn.",
            )
        st = self._set_inv(call, inventory)
        return self._outcome(call, state=st, text=text, flags={"overloaded": overloaded})

    def _do_unequip_magic(self, call: Call) -> Outcome:
        p = call.params
        inventory = inv_rules.unequip_magic(
            self._inv(call),
            p["item_id"],
            p["target"],
            keep_in_inventory=call.settings["magic_in_inventory"],
        )
        return self._outcome(call, state=self._set_inv(call, inventory))

    def _card(self, call: Call, item_id: str, path: str = "item_id") -> dict[str, Any]:
        return inv_rules.get(self._inv(call), item_id, path=path)

    def _do_light(self, call: Call) -> Outcome:
        card = light_up(self._card(call, call.params["item_id"]))
        st = self._set_inv(call, inv_rules.replace_card(self._inv(call), card))
        return self._outcome(call, state=st, details={"light": card["light"]})

    def _do_extinguish(self, call: Call) -> Outcome:
        """Тушение («Свет › Тушение источников света»): roll the dice of a light whose dice roll at
        a turn's end."""
        card = self._card(call, call.params["item_id"])
        card, event = extinguish(card, self._need_dice(call))
        st = self._set_inv(call, inv_rules.replace_card(self._inv(call), card))
        faces = event["faces"] if event else []
        return Outcome(
            move=call.spec.key,
            faces=faces,
            state=st,
            text=Text("Потушено.", "Put out."),
            details={"wear": event},
            flags={"exhausted": bool(event and event["exhausted"])},
        )

    def _do_use_item(self, call: Call) -> Outcome:
        """Активация («Кости износа › Кости износа снаряжения»): the wear dice roll after the use's
        primary effects."""
        card, event = roll_activation(
            self._card(call, call.params["item_id"]), self._need_dice(call)
        )
        st = self._set_inv(call, inv_rules.replace_card(self._inv(call), card))
        return Outcome(
            move=call.spec.key,
            faces=event["faces"] if event else [],
            state=st,
            text=Text("Использовано.", "Used."),
            details={"wear": event},
        )

    def _do_refuel(self, call: Call) -> Outcome:
        """Заправка («Кости износа › Кости износа снаряжения»): the named item (one from a stack)
        refills the maximum."""
        p = call.params
        card = self._card(call, p["item_id"])
        fuel = self._card(call, p["fuel_id"], "fuel_id")
        card = refuel(card, fuel)
        inventory = inv_rules.replace_card(self._inv(call), card)
        inventory, used = inv_rules.remove(inventory, p["fuel_id"])
        st = self._set_inv(call, inventory)
        return self._outcome(
            call, state=st, details={"wear": card["wear"], "fuel_used": used["id"]}
        )

    def _do_pick_up(self, call: Call) -> Outcome:
        """Подобрать предмет («Бой › Общие манёвры»): within reach, into free hand slots."""
        st, p = call.state, call.params
        if p["distance"] > cb.reach(st["size"]):
            raise fail("distance", "Предмет вне досягаемости.", "Out of reach.")
        st["inventory"] = place(st["inventory"], p["card"], HANDS)
        return self._cost(self._outcome(call, state=st), "maneuver")

    def _do_draw_from_belt(self, call: Call) -> Outcome:
        """Достать с пояса («Бой › Общие манёвры»): one or two belt items into the hands, one
        maneuver."""
        st = call.state
        for item_id in call.params["item_ids"]:
            found = find(st["inventory"], item_id)
            if found is None or found[0] != BELT:
                raise fail("item_ids", f"На поясе нет «{item_id}».", f"No {item_id!r} on the belt.")
            st["inventory"], card = remove(st["inventory"], item_id)
            st["inventory"] = place(st["inventory"], card, HANDS)
        return self._cost(self._outcome(call, state=st), "maneuver")
