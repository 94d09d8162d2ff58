"""The action deck (колода действий) as pure functions over a JSON deck state.

[published edition] The rulebook's chapter stops before combat: initiative comes
from the published game this text belongs to (Savage Worlds Deluxe / Explorer's, the Russian
"Дневник авантюриста"). A 54-card deck (52 + two jokers) is dealt each round; cards count down
from Ace to 2, ties break by suit ♠ > ♥ > ♦ > ♣; a joker acts at any point of the round with +2
to trait and damage rolls; the deck is shuffled before the deal after any round in which a
joker was dealt. Level Headed draws an extra card and keeps the best (Improved: two extra);
Quick redraws a card of 5 or lower.

Deck state (every list holds card codes such as ``"AS"``, ``"10H"``, ``"2C"``, ``"RJ"``)::

    {"draw": [...],          # top of the deck first
     "discard": [...],
     "dealt": [{"id": "A", "card": "KS", "drawn": ["3C", "KS"]}, ...],   # this round
     "round": 0,             # rounds dealt since the last start of combat
     "shuffle_due": true}    # shuffle before the next deal (new deck, or a joker came up)

``draw + discard + every "drawn"`` is always the 54 cards, each once. Shuffling goes through
``dice.shuffle(list)``, so ``ScriptedDice(shuffles=[order])`` scripts it in tests.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any, Protocol

RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS: tuple[str, ...] = ("C", "D", "H", "S")  # ascending: ♣ < ♦ < ♥ < ♠
SUIT_SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
JOKERS: tuple[str, ...] = ("RJ", "BJ")
JOKER_BONUS = 2  # [published edition] +2 to trait and damage rolls for the round
QUICK_MAX = 5  # [published edition] Quick redraws a card of 5 or lower

DRAW_EXTRA: dict[str, int] = {"level_headed": 1, "improved_level_headed": 2}


class Shuffler(Protocol):
    def shuffle(self, items: list) -> None: ...


def full_deck() -> list[str]:
    """All 54 codes in a fixed order (clubs 2 .. spades A, then the jokers)."""
    return [rank + suit for suit in SUITS for rank in RANKS] + list(JOKERS)


ALL_CARDS: frozenset[str] = frozenset(full_deck())


def is_joker(card: str) -> bool:
    return card in JOKERS


def card_value(card: str) -> tuple[int, int]:
    """Sort key, higher acts first: jokers on top, then rank (A high), then suit ♠ ♥ ♦ ♣."""
    if card not in ALL_CARDS:
        raise ValueError(f"not a card: {card!r}")
    if is_joker(card):
        return (len(RANKS) + 2, JOKERS.index(card))
    return (RANKS.index(card[:-1]) + 2, SUITS.index(card[-1]))


def card_label(card: str) -> dict[str, str]:
    """How the table shows a card, in both languages."""
    if is_joker(card):
        colour = ("красный", "red") if card == "RJ" else ("чёрный", "black")
        return {"ru": f"Джокер ({colour[0]})", "en": f"Joker ({colour[1]})"}
    text = card[:-1] + SUIT_SYMBOL[card[-1]]
    return {
        "ru": text.replace("J", "В").replace("Q", "Д").replace("K", "К").replace("A", "Т"),
        "en": text,
    }


def new_deck() -> dict[str, Any]:
    """A fresh deck in box order; it must be shuffled before the first deal."""
    return {"draw": full_deck(), "discard": [], "dealt": [], "round": 0, "shuffle_due": True}


def check_deck(deck: dict[str, Any]) -> list[str]:
    """Problems with a deck state (empty when it holds each of the 54 cards exactly once)."""
    seen = list(deck["draw"]) + list(deck["discard"])
    for entry in deck["dealt"]:
        seen.extend(entry["drawn"])
    problems = []
    unknown = sorted(set(seen) - ALL_CARDS)
    if unknown:
        problems.append(f"unknown cards: {', '.join(unknown)}")
    dupes = sorted({c for c in seen if seen.count(c) > 1})
    if dupes:
        problems.append(f"cards twice: {', '.join(dupes)}")
    missing = sorted(ALL_CARDS - set(seen))
    if missing:
        problems.append(f"cards missing: {', '.join(missing)}")
    for entry in deck["dealt"]:
        if entry["card"] not in entry["drawn"]:
            problems.append(f"{entry['id']}: kept card {entry['card']} was not drawn")
    ids = [entry["id"] for entry in deck["dealt"]]
    if len(set(ids)) != len(ids):
        problems.append("a participant was dealt twice")
    return problems


def shuffle(deck: dict[str, Any], dice: Shuffler) -> dict[str, Any]:
    """Gather every card (draw pile, discards and cards in play) and shuffle them."""
    new = copy.deepcopy(deck)
    cards = full_deck()
    dice.shuffle(cards)
    new.update(draw=cards, discard=[], dealt=[], shuffle_due=False)
    return new


def draw(deck: dict[str, Any], count: int, dice: Shuffler) -> tuple[dict[str, Any], list[str]]:
    """Draw ``count`` cards from the top. An empty draw pile takes the shuffled discards
    (cards in play stay out); cards drawn here are the caller's to place."""
    new = copy.deepcopy(deck)
    cards: list[str] = []
    for _ in range(count):
        if not new["draw"]:
            if not new["discard"]:
                raise ValueError("no cards left to draw: every card is in play")
            pile = list(new["discard"])
            dice.shuffle(pile)
            new["draw"], new["discard"] = pile, []
        cards.append(new["draw"].pop(0))
    return new, cards


def _draw_for(
    deck: dict[str, Any], edge: str, dice: Shuffler
) -> tuple[dict[str, Any], str, list[str]]:
    """One participant's card: Level Headed keeps the best of 2 (Improved: 3); Hesitant keeps
    the lowest of 2 unless a joker; Quick redraws while the kept card is 5 or lower."""
    deck, drawn = draw(deck, 1 + DRAW_EXTRA.get(edge, 0) + (edge == "hesitant"), dice)
    if edge == "hesitant" and not any(is_joker(c) for c in drawn):
        kept = min(drawn, key=card_value)
    else:
        kept = max(drawn, key=card_value)
    while edge == "quick" and not is_joker(kept) and card_value(kept)[0] <= QUICK_MAX:
        deck, more = draw(deck, 1, dice)
        drawn += more
        kept = more[0]
    return deck, kept, drawn


def deal_round(
    deck: dict[str, Any], participants: Iterable[dict[str, Any]], dice: Shuffler
) -> dict[str, Any]:
    """Deal a round: last round's cards go to the discards; shuffle first if due; one card per
    participant (a group of similar extras is one participant, allies act on their player's
    card). A joker dealt now makes the next deal shuffle first."""
    new = copy.deepcopy(deck)
    for entry in new["dealt"]:
        new["discard"].extend(entry["drawn"])
    new["dealt"] = []
    if new["shuffle_due"]:
        new = shuffle(new, dice)
    joker = False
    seen: set[str] = set()
    for person in participants:
        pid = str(person["id"])
        if pid in seen:
            raise ValueError(f"participant {pid!r} listed twice")
        seen.add(pid)
        new, kept, drawn = _draw_for(new, person.get("edge", "") or "", dice)
        for card in drawn:
            if card != kept:
                new["discard"].append(card)
        new["dealt"].append({"id": pid, "card": kept, "drawn": [kept]})
        joker = joker or is_joker(kept)
    new["round"] += 1
    new["shuffle_due"] = joker
    return new


def end_combat(deck: dict[str, Any]) -> dict[str, Any]:
    """Combat is over: cards in play go to the discards and the next fight starts shuffled."""
    new = copy.deepcopy(deck)
    for entry in new["dealt"]:
        new["discard"].extend(entry["drawn"])
    new.update(dealt=[], round=0, shuffle_due=True)
    return new


def initiative(deck: dict[str, Any]) -> list[dict[str, Any]]:
    """This round's acting order, best card first; joker holders are marked ``any_time``."""
    ranked = sorted(deck["dealt"], key=lambda e: card_value(e["card"]), reverse=True)
    return [
        {
            "id": e["id"],
            "card": e["card"],
            "label": card_label(e["card"]),
            "joker": is_joker(e["card"]),
            "any_time": is_joker(e["card"]),
            "bonus": JOKER_BONUS if is_joker(e["card"]) else 0,
        }
        for e in ranked
    ]


def joker_bonus(deck: dict[str, Any], participant: str) -> int:
    """+2 to trait and damage rolls this round for a participant holding a joker."""
    for entry in deck["dealt"]:
        if entry["id"] == participant:
            return JOKER_BONUS if is_joker(entry["card"]) else 0
    return 0
