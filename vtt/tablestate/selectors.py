"""What each viewer may see of the table state (pages, the API and the events share this).

Players never see the draw pile or its order, the discards, hidden NPCs (their cards, names
and sides) or other players' bennies; the referee sees everything but the draw order, which
no one needs to see.
"""

from __future__ import annotations

from typing import Any

from systems.savage_worlds import bennies as sw_bennies
from systems.savage_worlds import deck as dk
from systems.savage_worlds.sheet import ATTRIBUTES
from systems.tales.sheet import skill_level
from vtt.campaigns.models import Role
from vtt.characters.models import Character, Kind, PendingMove

SAVAGE = "savage_worlds"
TALES = "tales"


def pid_for(character_id: int) -> str:
    """A sheet's participant id on the deck."""
    return f"c{character_id}"


def extra_pid(name: str) -> str:
    """A named group of extras without a sheet (one card for the whole group)."""
    return "x:" + " ".join(name.split()).casefold()[:57]


def _characters(campaign_id: int) -> list[Character]:
    chars = list(Character.objects.filter(campaign_id=campaign_id))
    chars.sort(key=lambda c: (c.kind != Kind.PC, c.name.casefold(), c.pk))
    return chars


# Priority when a sheet has several edges that change the deal (the rules take one).
CARD_EDGES = ("improved_level_headed", "level_headed", "quick")


def card_edge(state: dict[str, Any]) -> str:
    """The edge or hindrance that changes how a sheet is dealt cards (one; the strongest)."""
    try:
        for rule in CARD_EDGES:
            if sw_bennies.has_rule(state, rule):
                return rule
        return "hesitant" if sw_bennies.has_rule(state, "hesitant") else ""
    except (KeyError, TypeError, AttributeError):
        return ""


def selected_ids(chars: list[Character], meta: dict[str, Any]) -> set[str]:
    """Who the next deal includes unless the referee says otherwise: the last selection, plus
    every sheet made since then that is not dead (a new character joins the fight)."""
    chosen = meta.get("participants")
    known = set(meta.get("known") or [])
    out: set[str] = set()
    for item in chosen or []:
        if item.get("character_id") is not None:
            out.add(pid_for(item["character_id"]))
        else:
            out.add(extra_pid(item.get("name") or ""))
    for c in chars:
        pid = pid_for(c.pk)
        if (chosen is None or pid not in known) and (c.state or {}).get("status") != "dead":
            out.add(pid)
    return out


def _red(card: str) -> bool:
    return card == "RJ" or card[-1] in "HD"


def snapshot(ts, *, referee: bool) -> dict[str, Any]:
    """The table state as a player (``referee=False``) or the referee may see it."""
    chars = _characters(ts.campaign_id)
    if ts.ruleset == SAVAGE:
        return _savage(ts, chars, referee=referee)
    return _tales(ts, chars, referee=referee)


def snapshot_for(ts, *, user_id: int, role: str) -> dict[str, Any]:
    """``snapshot`` plus what this user controls: own sheets' bennies, their open benny
    choices and the traits they can roll (Savage Worlds), or who can use Tactics (Tales)."""
    referee = role == Role.REFEREE
    data = snapshot(ts, referee=referee)
    chars = [
        c
        for c in _characters(ts.campaign_id)
        if referee or (role == Role.PLAYER and c.owner_id == user_id and c.kind == Kind.PC)
    ]
    if ts.ruleset == SAVAGE:
        data["mine"] = _savage_mine(ts, chars, referee=referee)
    else:
        data["mine"] = _tales_mine(chars)
    return data


# --- Savage Worlds ----------------------------------------------------------------------------


def _savage(ts, chars: list[Character], *, referee: bool) -> dict[str, Any]:
    state, meta = ts.state, ts.meta or {}
    deck = state["deck"]
    by_pid = {pid_for(c.pk): c for c in chars}
    dealt_meta = meta.get("dealt") or {}
    cards = {e["id"]: e["card"] for e in deck["dealt"]}
    order = []
    for position, entry in enumerate(dk.initiative(deck), start=1):
        c = by_pid.get(entry["id"])
        m = dealt_meta.get(entry["id"]) or {}
        hidden = c.hidden if c else bool(m.get("hidden"))
        if hidden and not referee:
            continue
        order.append(
            {
                "id": entry["id"],
                "position": position,
                "name": c.name if c else (m.get("name") or "?"),
                "character_id": c.pk if c else None,
                "kind": c.kind if c else "group",
                "owner_id": c.owner_id if c else None,
                "hidden": hidden,
                "card": entry["card"],
                "label": entry["label"],
                "joker": entry["joker"],
                "bonus": entry["bonus"],
                "red": _red(entry["card"]),
            }
        )
    selected = selected_ids(chars, meta)
    participants = []
    for c in chars:
        if c.hidden and not referee:
            continue
        st = c.state or {}
        pid = pid_for(c.pk)
        item: dict[str, Any] = {
            "id": pid,
            "character_id": c.pk,
            "name": c.name,
            "kind": c.kind,
            "owner_id": c.owner_id,
            "hidden": c.hidden,
            "wild_card": c.kind == Kind.PC or bool(st.get("wild_card")),
            "card": cards.get(pid),
        }
        if referee:
            item["bennies"] = int(st.get("bennies") or 0)
            item["selected"] = pid in selected
            item["edge"] = card_edge(st)
        participants.append(item)
    data: dict[str, Any] = {
        "ruleset": SAVAGE,
        "version": ts.version,
        "pool": int(state.get("pool") or 0),
        "session": bool(meta.get("session")),
        "combat": bool(meta.get("combat")),
        "round": deck["round"],
        "shuffle_due": bool(deck["shuffle_due"]),
        "joker_round": any(dk.is_joker(e["card"]) for e in deck["dealt"]),
        "order": order,
        "participants": participants,
    }
    if referee:
        data["extras"] = [
            {"id": extra_pid(item["name"]), "name": item["name"], "hidden": bool(item["hidden"])}
            for item in meta.get("participants") or []
            if item.get("character_id") is None
        ]
        data["draw_count"] = len(deck["draw"])
        data["discard_count"] = len(deck["discard"])
    return data


def _traits(state: dict[str, Any]) -> list[dict[str, Any]]:
    attributes = state.get("attributes") or {}
    out = [
        {"key": a.key, "ru": a.ru, "en": a.en, "die": attributes.get(a.key, "d4"), "skill": False}
        for a in ATTRIBUTES
    ]
    for skill in state.get("skills") or []:
        name = skill.get("name") or skill.get("key") or ""
        if name:
            out.append(
                {"key": name, "ru": name, "en": name, "die": skill.get("die", "d4"), "skill": True}
            )
    return out


def _savage_mine(ts, chars: list[Character], *, referee: bool) -> list[dict[str, Any]]:
    cards = {e["id"]: e["card"] for e in ts.state["deck"]["dealt"]}
    pending = PendingMove.objects.filter(
        character__in=[c.pk for c in chars], resolved_at__isnull=True
    ).order_by("id")
    waiting: dict[int, list[dict[str, Any]]] = {}
    for p in pending:
        if p.chooser == "referee" and not referee:
            continue
        outcome = p.outcome or {}
        waiting.setdefault(p.character_id, []).append(
            {
                "id": p.pk,
                "move": p.move,
                "total": outcome.get("total"),
                "faces": outcome.get("faces") or [],
                "text": outcome.get("text") or {"ru": "", "en": ""},
                "options": outcome.get("options") or [],
            }
        )
    out = []
    for c in chars:
        st = c.state or {}
        card = cards.get(pid_for(c.pk))
        out.append(
            {
                "character_id": c.pk,
                "name": c.name,
                "kind": c.kind,
                "bennies": int(st.get("bennies") or 0),
                "joker": bool(card and dk.is_joker(card)),
                "traits": _traits(st),
                "pending": waiting.get(c.pk, []),
            }
        )
    return out


# --- Tales ------------------------------------------------------------------------------------


def _tales(ts, chars: list[Character], *, referee: bool) -> dict[str, Any]:
    sides: dict[str, list[dict[str, Any]]] = {"party": [], "enemies": []}
    for c in chars:
        if c.hidden and not referee:
            continue
        side = "party" if c.kind == Kind.PC else "enemies"
        sides[side].append(
            {
                "character_id": c.pk,
                "name": c.name,
                "owner_id": c.owner_id,
                "hidden": c.hidden,
                "dead": (c.state or {}).get("status") == "dead",
            }
        )
    return {"ruleset": TALES, "version": ts.version, "battle": dict(ts.state), "sides": sides}


def _tales_mine(chars: list[Character]) -> list[dict[str, Any]]:
    out = []
    for c in chars:
        try:
            level = skill_level(c.state or {}, "tactics")
        except (KeyError, TypeError, AttributeError):
            level = 0
        out.append({"character_id": c.pk, "name": c.name, "kind": c.kind, "tactics": level})
    return out
