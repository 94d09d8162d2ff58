"""Dungeon World party moves: moves one hero rolls that act on the whole party (
"Нести дозор" and "Отправиться в опасное путешествие").

A party move takes every sheet it touches at once, keyed by a name the caller chooses (the
table uses the sheet's id), and returns every new sheet in one ``PartyResult`` so the table can
save them in one transaction:

* ``take_watch``: the watcher rolls +WIS; on a 10+ *everyone in the camp* takes +1 forward,
  written on each sheet's ``forward`` so their next move reads it;
* ``perilous_journey``: the trailblazer, the scout and the quartermaster each roll +WIS; each
  role is held by a different hero and a hero holds at most one role. A role nobody holds
  rolls nothing and gives no benefit (our reading).

``party_actors`` says which keys a move's parameters name to roll (the watcher, each role's
hero) before anything is checked, so the table can let a player name only their own
characters there (the camp that merely takes +1 forward may hold anyone's).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Protocol

from systems.core.dice import Dice
from systems.core.outcome import Outcome
from systems.core.pbta import STRONG
from systems.core.schema import fail
from systems.dungeon_world.moves import ROLES

# The forward a 10+ on watch gives everyone in the camp (rulebook: "все, кто в лагере, получают +1
# на следующий ход"), written as the move itself writes it on the watcher's sheet.
CAMP_FORWARD_NOTE = "Нести дозор"
MAX_PARTY = 12
ROLE_KEYS = tuple(c.key for c in ROLES)


class _Resolver(Protocol):
    def resolve(self, move: str, state: dict[str, Any], **kw: Any) -> Outcome: ...

    def validate_state(self, state: dict[str, Any]) -> dict[str, Any]: ...


@dataclass
class PartyResult:
    """The new sheets (the same keys as given), the rolls in the order they were made
    (``rolls``: ``(key, outcome)``) and what the table should announce (``summary``)."""

    move: str
    characters: dict[str, dict[str, Any]]
    rolls: list[tuple[str, Outcome]] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)

    @property
    def rollers(self) -> list[str]:
        return [key for key, _out in self.rolls]


def _party(rules: _Resolver, party: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    if not isinstance(party, dict) or not party:
        raise fail("characters", "Нужен хотя бы один персонаж.", "At least one character.")
    if len(party) > MAX_PARTY:
        raise fail(
            "characters",
            f"Не больше {MAX_PARTY} персонажей.",
            f"At most {MAX_PARTY} characters.",
        )
    return {str(k): rules.validate_state(copy.deepcopy(v)) for k, v in party.items()}


def _member(party: dict[str, Any], key: Any, path: str) -> str:
    key = str(key) if key is not None else ""
    if key not in party:
        raise fail(path, "Этого персонажа нет в группе.", "This character is not in the party.")
    return key


def take_watch(
    rules: _Resolver,
    party: dict[str, dict[str, Any]],
    *,
    watcher: Any,
    dice: Dice,
    settings: dict[str, Any] | None = None,
) -> PartyResult:
    """Нести дозор: the watcher rolls; on a 10+ every sheet in the camp takes +1 forward
    (the watcher's own comes from the move, the others' from ``camp_forward``)."""
    camp = _party(rules, party)
    key = _member(camp, watcher, "watcher")
    out = rules.resolve("take_watch", camp[key], dice=dice, settings=settings)
    camp[key] = out.state
    forward = int(out.details.get("camp_forward", 0))
    woken: list[str] = []
    if forward:
        for other, sheet in camp.items():
            if other == key:
                continue
            sheet["forward"] = [
                *sheet["forward"],
                {"value": forward, "move": "", "note": CAMP_FORWARD_NOTE},
            ]
            camp[other] = rules.validate_state(sheet)
            woken.append(other)
    summary = {
        "watcher": key,
        "band": out.band,
        "camp": list(camp),
        "forward": forward,
        "forward_to": [key, *woken] if forward else [],
    }
    return PartyResult("take_watch", camp, [(key, out)], summary)


def perilous_journey(
    rules: _Resolver,
    party: dict[str, dict[str, Any]],
    *,
    roles: dict[str, Any],
    dice: Dice,
    settings: dict[str, Any] | None = None,
) -> PartyResult:
    """Отправиться в опасное путешествие: each role's hero rolls +WIS, in the rulebook's order
    (trailblazer, scout, quartermaster). Refused before any roll if a role is unknown, a hero
    is named twice or is not in the party."""
    travellers = _party(rules, party)
    if not isinstance(roles, dict) or not roles:
        raise fail("roles", "Назначьте хотя бы одну роль.", "Assign at least one role.")
    unknown = sorted(set(roles) - set(ROLE_KEYS))
    if unknown:
        raise fail("roles", "Нет такой роли.", f"No such role: {', '.join(unknown)}.")
    holders = {role: _member(travellers, roles[role], f"roles.{role}") for role in roles}
    if len(set(holders.values())) != len(holders):
        raise fail(
            "roles",
            "Каждую роль играет другой герой: один герой — не больше одной роли.",
            "Each role is held by a different hero; a hero holds at most one role.",
        )
    rolls: list[tuple[str, Outcome]] = []
    bands: dict[str, str | None] = {}
    for role in ROLE_KEYS:
        if role not in holders:
            continue
        hero = holders[role]
        others = [r for r in holders if r != role]
        out = rules.resolve(
            "perilous_journey",
            travellers[hero],
            dice=dice,
            settings=settings,
            role=role,
            party_roles=others,
        )
        travellers[hero] = out.state
        rolls.append((hero, out))
        bands[role] = out.band
    summary = {
        "roles": holders,
        "bands": bands,
        "rations_saved": int(bands.get("quartermaster") == STRONG),
        "journey_shortened": bands.get("trailblazer") == STRONG,
        "spots_danger_first": bands.get("scout") == STRONG,
    }
    return PartyResult("perilous_journey", travellers, rolls, summary)


PARTY_MOVES = {
    "take_watch": take_watch,
    "perilous_journey": perilous_journey,
}


def party_actors(move: str, params: dict[str, Any]) -> list[str]:
    """The keys of ``party`` that ``params`` name to roll: Take Watch's watcher, Perilous
    Journey's role holders. Read leniently, before any check: a value of the wrong shape is
    left out here and refused by the move itself."""
    if not isinstance(params, dict):
        return []
    if move == "take_watch":
        named = [params.get("watcher")]
    elif move == "perilous_journey":
        roles = params.get("roles")
        named = list(roles.values()) if isinstance(roles, dict) else []
    else:
        named = []
    return [str(key) for key in named if isinstance(key, int | str) and not isinstance(key, bool)]
