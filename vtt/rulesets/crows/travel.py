"""The Crows travel day driven from the hex map (rulebook «Путешествие по суше»).

The travel state lives where the rules keep it, in the campaign state of the dungeon clock
(``DungeonClock.ruleset_state["travel"]``), so arriving somewhere switches to dungeon turns with
the day's threshold («Путешествие по суше › Точки интереса»). Every step runs the ruleset's
campaign move and publishes a ``travel`` event twice, like map events: the referee's copy
(``blind``, ``audience: "referee"``) with the whole state and what is secret, and the players' copy
(``players``, ``audience: "players"``) built from ``systems.crows.travel.public_view``: no
encounter rolls, no drift rolls, no true hex while the party is lost (players see the position as
unknown, «Путешествие по суше › Заблудились»). The party's marker on the map follows: the true hex
is the referee's, and players are shown the hex only while the party knows where it is.

Role checks are moves on the character's sheet (``travel_role``), made here with a view of the
travel state that holds nothing secret (``rules_view``); their roll is a ``move`` event as any
other. Their result reaches the campaign's travel state through an outcome hook, which replays
the result (task, tier and the dice it rolled) on the current state, so a check answered later
(an expertise, a "choose one") never overwrites another check made meanwhile.
"""

from __future__ import annotations

import copy
from typing import Any

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext, gettext_noop

from systems import get_ruleset
from systems.core.dice import Dice, RandomDice, ScriptedDice
from systems.core.hexgrid import Hex, axial_to_offset, offset_to_axial
from systems.core.outcome import Outcome
from systems.core.ruleset import RulesError
from systems.crows import travel as travel_rules
from systems.crows.conditions import speed
from systems.crows.miasma import is_person
from systems.crows.modifiers import SLOTH, has_effect
from systems.crows.sheet import QUARRY_MAX
from systems.crows.terms import HEX_DIRECTIONS, PACES_BY_KEY, TASKS_BY_KEY
from vtt.accounts.models import User
from vtt.campaigns.models import Campaign, Role
from vtt.characters import services as character_services
from vtt.characters.models import Character, Kind, PendingMove
from vtt.core.errors import Conflict, Invalid, ServiceError, invalid_from_rules
from vtt.maps.models import GridKind, HexOrientation, Map
from vtt.maps.selectors import cell_key
from vtt.maps.services import UNSET, party_set
from vtt.table import clock as table_clock
from vtt.table.models import ClockState, DungeonClock
from vtt.table.models import Visibility as V
from vtt.table.services import publish

CROWS = "crows"
REVEAL = 1  # hexes around the party it has seen
STEPS_FOR_PLAYERS = {"role", "miasma_choice"}
STEPS = (
    "begin",
    "day",
    "roles",
    "role",
    "encounter",
    "move",
    "found",
    "arrive",
    "end",
    "miasma",
    "miasma_choice",
    "miasma_resolve",
)


# Compass points as the reader's language writes them (С, СВ … / N, NE …).
_DIRECTION = {key: {"ru": ru, "en": en} for key, ru, en, _vector in HEX_DIRECTIONS}


def _both(message: str, **values: Any) -> dict[str, str]:
    """A message in both languages (events reach Russian and English readers alike); values
    that are ``{"ru", "en"}`` dicts are filled in per language."""
    out = {}
    for lang in ("ru", "en"):
        with translation.override(lang):
            filled = {k: v[lang] if isinstance(v, dict) else v for k, v in values.items()}
            out[lang] = gettext(message) % filled
    return out


# --- where the travel state lives ---------------------------------------------------------------


def _require(m: Map) -> None:
    if m.campaign.ruleset != CROWS:
        raise Invalid(gettext("Overland travel follows the Crows rules."), code="not_crows")
    if m.kind != GridKind.HEX or m.orientation != HexOrientation.FLAT:
        raise Invalid(
            gettext("Travel needs a hex map with flat-topped hexes (north is straight up)."),
            code="not_travel_map",
        )


def _lock_clock(campaign: Campaign | int) -> DungeonClock:
    campaign_id = campaign if isinstance(campaign, int) else campaign.pk
    row, _created = DungeonClock.objects.select_for_update().get_or_create(campaign_id=campaign_id)
    return row


def _camp(row: DungeonClock) -> dict[str, Any]:
    return copy.deepcopy(row.ruleset_state) or get_ruleset(CROWS).default_campaign()


def current_travel(campaign: Campaign | int) -> dict[str, Any] | None:
    campaign_id = campaign if isinstance(campaign, int) else campaign.pk
    state = (
        DungeonClock.objects.filter(campaign_id=campaign_id)
        .values_list("ruleset_state", flat=True)
        .first()
    )
    return (state or {}).get("travel")


def rules_view(travel: dict[str, Any]) -> dict[str, Any]:
    """The travel state a role check may see: what players see (no encounter or drift rolls,
    no true hex while lost). Back on track needs no more: the replay on the real state puts
    the party where it truly is («Путешествие по суше › Снова на пути»)."""
    return travel_rules.clean_travel(travel_rules.public_view(travel))


def travel_view(campaign: Campaign, *, referee: bool) -> dict[str, Any]:
    """``GET``: the travel state for this viewer (``None`` when the party is not travelling)."""
    travel = current_travel(campaign)
    if travel is None:
        return {"travel": None}
    return {
        "travel": copy.deepcopy(travel) if referee else travel_rules.public_view(travel),
        "audience": "referee" if referee else "players",
    }


def _resolve(campaign: Campaign, move: str, state: dict[str, Any], dice: Dice, **params):
    try:
        return get_ruleset(CROWS).resolve(
            move, state, dice=dice, settings=campaign.rules or None, **params
        )
    except RulesError as exc:
        raise invalid_from_rules(exc, code="travel_refused") from exc


def _offset(hex_: dict[str, int] | None) -> tuple[int, int] | None:
    if hex_ is None:
        return None
    return axial_to_offset(Hex(hex_["q"], hex_["r"]), "flat")


def _on_map(m: Map, cell: tuple[int, int] | None) -> list[int] | None:
    if cell is None or not (0 <= cell[0] < m.width and 0 <= cell[1] < m.height):
        return None
    return [cell[0], cell[1]]


def _sync_map(m: Map, actor: User | None, travel: dict[str, Any] | None) -> None:
    """The party's marker: the true hex for the referee; the shown hex (revealing what the
    party sees around it) only while the party knows where it is."""
    if travel is None:
        return
    true = _on_map(m, _offset(travel["hex"]))
    shown = None if travel["lost"] else _on_map(m, _offset(travel["seen_hex"]))
    current_true = None if m.true_col is None else [m.true_col, m.true_row]
    current_shown = None if m.party_col is None else [m.party_col, m.party_row]
    if true == current_true and shown == current_shown:
        return
    party_set(
        map=m,
        actor=actor,
        true=true if true != current_true else UNSET,
        shown=shown if shown != current_shown else UNSET,
        reveal=REVEAL if shown is not None else None,
    )
    m.refresh_from_db()


def _publish(
    campaign: Campaign | int,
    actor: User | None,
    step: dict[str, Any],
    travel: dict[str, Any] | None,
    *,
    secret: dict[str, Any] | None = None,
    referee_text: dict[str, str] | None = None,
    map_id: int | None = None,
) -> None:
    """The referee's full copy, then the players' copy without anything secret."""
    base = {**step, "map_id": map_id}
    referee = {
        **base,
        "travel": copy.deepcopy(travel),
        "audience": "referee",
    }
    if secret:
        referee["referee_only"] = secret
    if referee_text:
        referee["text"] = referee_text
    publish(campaign=campaign, kind="travel", payload=referee, actor=actor, visibility=V.BLIND)
    players = {
        **base,
        "travel": travel_rules.public_view(travel) if travel is not None else None,
        "audience": "players",
    }
    publish(campaign=campaign, kind="travel", payload=players, actor=actor, visibility=V.PLAYERS)


def _save(row: DungeonClock, state: dict[str, Any]) -> None:
    row.ruleset_state = state
    row.save(update_fields=["ruleset_state", "updated_at"])


def _referee_only(role: str) -> None:
    if role != Role.REFEREE:
        raise ServiceError(
            gettext("The referee runs the travel day."), code="referee_only", status=403
        )


def _travelling(camp: dict[str, Any]) -> dict[str, Any]:
    if camp.get("travel") is None:
        raise Conflict(gettext("The party is not travelling."), code="not_travelling")
    return camp["travel"]


# --- the steps ----------------------------------------------------------------------------------


def _characters(campaign: Campaign) -> list[Character]:
    return list(Character.objects.filter(campaign=campaign).order_by("pk"))


def _by_id(campaign: Campaign, value: Any, field: str) -> Character:
    try:
        pk = int(value)
    except (TypeError, ValueError):
        pk = -1
    character = Character.objects.filter(campaign=campaign, pk=pk).first()
    if character is None:
        raise Invalid(
            gettext("No such character in this campaign."),
            code="no_character",
            fields={field: [str(value)]},
        )
    return character


def _begin(m, campaign, actor, camp, params, dice):
    """Set out from the party's hex on the map (the true one if set, else the shown one)."""
    start = (
        (m.true_col, m.true_row)
        if m.true_col is not None
        else (m.party_col, m.party_row)
        if m.party_col is not None
        else None
    )
    if start is None:
        raise Invalid(gettext("Put the party on the map first (the Party tool)."), code="no_party")
    here = offset_to_axial(start[0], start[1], "flat")
    goal = params.get("goal")
    goal_q = goal_r = None
    if goal is not None:
        try:
            gc, gr = (int(v) for v in goal)
        except (TypeError, ValueError):
            raise Invalid(
                gettext("The goal is a hex: [column, row]."), fields={"goal": ["?"]}
            ) from None
        if not (0 <= gc < m.width and 0 <= gr < m.height):
            raise Invalid(gettext("That cell is outside the map."), fields={"goal": ["outside"]})
        target = offset_to_axial(gc, gr, "flat")
        goal_q, goal_r = target.q, target.r
    terrain = (m.terrain or {}).get(cell_key(*start), "")
    out = _resolve(
        campaign,
        "travel_begin",
        camp,
        dice,
        q=here.q,
        r=here.r,
        goal_q=goal_q,
        goal_r=goal_r,
        terrain=terrain,
    )
    return (
        out,
        {"type": "travel_begun", "text": _both(gettext_noop("The party sets out."))},
        None,
        None,
    )


def _slowest(campaign: Campaign) -> int:
    """The slowest living traveller's speed («Путешествие по суше › Темп пути»; wounds slow a crow,
    «Урон и смерть › Раны»)."""
    speeds = [
        speed(c.state)
        for c in _characters(campaign)
        if (c.kind == Kind.PC or c.state.get("kind") in ("hireling", "pet"))
        and not c.state.get("dead")
    ]
    return min(speeds) if speeds else 5


def _day(m, campaign, actor, camp, params, dice):
    travel = _travelling(camp)
    slowest = params.get("slowest_speed")
    here = _offset(travel["hex"])
    terrain = (m.terrain or {}).get(cell_key(*here), "") if here else ""
    out = _resolve(
        campaign,
        "travel_day",
        camp,
        dice,
        pace=params.get("pace", "normal"),
        slowest_speed=_slowest(campaign) if slowest in (None, "") else slowest,
        road=bool(params.get("road", False)),
        river=params.get("river", "none"),
        terrain=terrain,
        in_miasma=bool(params.get("in_miasma", True)),
    )
    t = out.state["travel"]
    pace = PACES_BY_KEY[t["pace"]]
    step = {
        "type": "travel_day",
        "day": t["day"],
        "pace": t["pace"],
        "hexes": t["hexes"],
        "travel_threshold": t["travel_threshold"],
        "rest_threshold": t["rest_threshold"],
        "text": _both(
            gettext_noop(
                "Travel day %(day)d: %(pace)s pace, %(hexes)d hexes; encounter threshold "
                "%(travel)d on the road, %(rest)d at rest."
            ),
            day=t["day"],
            pace={"ru": pace.ru.lower(), "en": pace.en.lower()},
            hexes=t["hexes"],
            travel=t["travel_threshold"],
            rest=t["rest_threshold"],
        ),
    }
    return out, step, None, None


def _roles(m, campaign, actor, camp, params, dice):
    """``roles: [{character_id, task, allies: [character ids], quarry}]``, ``helping:
    [{character_id, helps: character_id}]``: characters by id, the rules by name."""
    _travelling(camp)
    raw_roles, raw_help = params.get("roles") or [], params.get("helping") or []
    if not isinstance(raw_roles, list) or not isinstance(raw_help, list):
        raise Invalid(gettext("Roles are a list."), fields={"roles": ["[]"]})
    roles, helping, refusing, names = [], [], [], set()
    for i, entry in enumerate(raw_roles):
        if not isinstance(entry, dict) or entry.get("task") not in TASKS_BY_KEY:
            raise Invalid(
                gettext("Each role names a character and a task."), fields={"roles": [str(i)]}
            )
        character = _by_id(campaign, entry.get("character_id"), "roles")
        if character.name in names:
            raise Invalid(
                gettext("Two travellers share the name %(name)s: rename one first.")
                % {"name": character.name},
                code="duplicate_name",
            )
        names.add(character.name)
        if has_effect(character.state, SLOTH):
            refusing.append(character.name)
        allies = [_by_id(campaign, a, "roles").name for a in entry.get("allies") or []]
        task = TASKS_BY_KEY[entry["task"]]
        roles.append(
            {
                "name": character.name,
                "role": task.role,
                "task": task.key,
                "allies": allies,
                "quarry": str(entry.get("quarry") or "")[:QUARRY_MAX],
            }
        )
    for entry in raw_help:
        if not isinstance(entry, dict):
            raise Invalid(gettext("Each helper names whom they help."), fields={"helping": ["?"]})
        helper = _by_id(campaign, entry.get("character_id"), "helping")
        helped = _by_id(campaign, entry.get("helps"), "helping")
        helping.append({"name": helper.name, "helps": helped.name})
    out = _resolve(
        campaign, "travel_roles", camp, dice, roles=roles, helping=helping, refusing=refusing
    )
    step = {
        "type": "travel_roles",
        "roles": [
            {k: r[k] for k in ("name", "role", "task", "allies", "quarry")}
            for r in out.state["travel"]["roles"]
        ],
        "helping": out.state["travel"]["helping"],
        "text": _both(gettext_noop("Travel roles are set for the day.")),
    }
    return out, step, None, None


def _encounter(m, campaign, actor, camp, params, dice):
    """The referee's 1d10 against the threshold («Путешествие по суше › Дорожные встречи»): the roll
    is the referee's."""
    _travelling(camp)
    kind = params.get("kind", "travel")
    out = _resolve(campaign, "travel_encounter", camp, dice, kind=kind)
    event = out.details["events"][0]
    secret = event["referee_only"]
    step = {
        "type": "travel_encounter_check",
        "kind": kind,
        "hidden": True,
        "text": _both(gettext_noop("The referee checks for an encounter.")),
    }
    referee_text = _both(
        gettext_noop("Encounter check: %(roll)d against %(threshold)d — %(result)s."),
        roll=secret["roll"],
        threshold=secret["threshold"],
        result=_both(gettext_noop("an encounter"))
        if secret["encounter"]
        else _both(gettext_noop("no encounter")),
    )
    return out, step, secret, referee_text


def _move(m, campaign, actor, camp, params, dice):
    """Today's hexes («Путешествие по суше › Порядок путешествия»); while lost each hex left is a
    secret 1d6 («Путешествие по суше › Заблудились»)."""
    _travelling(camp)
    out = _resolve(
        campaign,
        "travel_move",
        camp,
        dice,
        directions=params.get("directions") or [],
        stop_at=params.get("stop_at"),
    )
    event = out.details["events"][0]
    t = out.state["travel"]
    step = {
        "type": "travel_moved",
        "moved": event["moved"],
        "position": "unknown" if t["lost"] else _on_map(m, _offset(t["hex"])),
        "text": _both(gettext_noop("The party wanders, lost: where it is now is unknown."))
        if t["lost"]
        else _both(gettext_noop("The party travels on: %(n)d hexes today."), n=event["moved"]),
    }
    secret, referee_text = None, None
    if event.get("referee_only"):
        drift = event["referee_only"]["drift"]
        true = _offset(event["referee_only"]["hex"])
        secret = {
            "drift": [
                {"roll": d["roll"], "direction": d["direction"], "to": _offset(d["to"])}
                for d in drift
            ],
            "hex": true,
            "off_map": _on_map(m, true) is None,
        }
        referee_text = _both(
            gettext_noop(
                "Lost: the hidden d6 gave %(rolls)s; the party is truly at %(col)d, %(row)d."
            ),
            rolls={
                lang: ", ".join(f"{d['roll']} ({_DIRECTION[d['direction']][lang]})" for d in drift)
                for lang in ("ru", "en")
            },
            col=true[0],
            row=true[1],
        )
    return out, step, secret, referee_text


def _found(m, campaign, actor, camp, params, dice):
    _travelling(camp)
    out = _resolve(campaign, "travel_found_way", camp, dice)
    step = {
        "type": "travel_found_way",
        "text": _both(gettext_noop("The party knows where it is again.")),
    }
    return out, step, None, None


def _arrive(m, campaign, actor, camp, params, dice):
    """A dungeon or point of interest: dungeon turns, with today's threshold
    («Путешествие по суше › Точки интереса»)."""
    _travelling(camp)
    place = " ".join(str(params.get("place") or "").split())[: table_clock.DUNGEON_NAME_MAX]
    out = _resolve(campaign, "travel_arrive", camp, dice, place=place)
    step = {
        "type": "travel_arrived",
        "place": place,
        "threshold": out.state["travel"]["travel_threshold"],
        "text": _both(
            gettext_noop("The party arrives at %(place)s: dungeon turns begin."), place=place or "?"
        ),
    }
    return out, step, None, None


def _end(m, campaign, actor, camp, params, dice):
    _travelling(camp)
    out = _resolve(campaign, "travel_end", camp, dice)
    return (
        out,
        {"type": "travel_ended", "text": _both(gettext_noop("The journey ends."))},
        None,
        None,
    )


HANDLERS = {
    "begin": _begin,
    "day": _day,
    "roles": _roles,
    "encounter": _encounter,
    "move": _move,
    "found": _found,
    "arrive": _arrive,
    "end": _end,
}


@transaction.atomic
def travel_step(
    *,
    map: Map,
    actor: User,
    role: str,
    step: str,
    params: dict[str, Any] | None = None,
    dice: Dice | None = None,
) -> dict[str, Any]:
    """One referee step of the travel day; returns the referee's view of the travel state."""
    _require(map)
    if step not in HANDLERS:
        raise Invalid(gettext("No such travel step: %(s)s.") % {"s": step}, code="no_step")
    _referee_only(role)
    params = dict(params or {})
    campaign = map.campaign
    m = Map.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=map.pk)
    row = _lock_clock(campaign)
    camp = _camp(row)
    out, event, secret, referee_text = HANDLERS[step](
        m, campaign, actor, camp, params, dice or RandomDice()
    )
    _save(row, out.state)
    travel = out.state.get("travel")
    _publish(campaign, actor, event, travel, secret=secret, referee_text=referee_text, map_id=m.pk)
    _sync_map(m, actor, travel)
    if step == "arrive" and row.state == ClockState.STOPPED:
        table_clock.clock_start(campaign=campaign, actor=actor, dungeon=event["place"])
    return {"travel": travel, "step": event, "referee_only": secret}


# --- role checks: moves on the sheets, replayed onto the day -------------------------------------


def role_check(
    *,
    map: Map,
    actor: User,
    role: str,
    character_id: Any,
    task: str,
    characteristic: str | None = None,
    dice: Dice | None = None,
) -> tuple[Outcome, PendingMove | None]:
    """A traveller's role check («Путешествие по суше › Дорожные роли»), by its player or the
    referee, in the day's order («Путешествие по суше › Порядок путешествия»). The roll is the
    sheet's ``travel_role`` move; the day changes in the hook below."""
    _require(map)
    campaign = map.campaign
    character = _by_id(campaign, character_id, "character_id")
    if character.hidden and role != Role.REFEREE:
        raise Invalid(gettext("No such character in this campaign."), code="no_character")
    if role != Role.REFEREE and not (
        role == Role.PLAYER and character.kind == Kind.PC and character.owner_id == actor.pk
    ):
        raise ServiceError(
            gettext("Players make the role checks of their own characters."),
            code="not_owner",
            status=403,
        )
    travel = current_travel(campaign)
    if travel is None:
        raise Conflict(gettext("The party is not travelling."), code="not_travelling")
    entry = next((r for r in travel["roles"] if r["name"] == character.name), None)
    if entry is None or entry["task"] != task:
        raise Invalid(
            gettext("%(name)s has no such task today: the referee assigns the roles.")
            % {"name": character.name},
            code="no_role",
        )
    params: dict[str, Any] = {
        "travel": rules_view(travel),
        "travel_task": task,
        "allies": entry["allies"],
        "quarry": entry["quarry"],
    }
    if characteristic:
        params["characteristic"] = characteristic
    return character_services.move_make(
        character=character,
        actor=actor,
        move="travel_role",
        params=params,
        dice=dice,
        routed=True,
    )


def _after_role_check(
    *, character: Character, outcome: Outcome, actor: User, resolved: PendingMove | None
) -> None:
    """Keep the campaign's day in step with a role check: a result is applied when the check
    finishes (at once, or after an expertise was offered), a "choose one" when it is chosen."""
    step_kind = None
    if resolved is not None:
        step_kind = ((resolved.outcome.get("details") or {}).get("pending") or {}).get("kind")
    details = outcome.details
    if step_kind == "travel_choice":
        choice = details.get("travel_choice")
        if not choice:
            return
        result = details["travel_result"]
        apply = lambda t: travel_rules.apply_task_choice(  # noqa: E731
            t, result["task"], result["tier"], choice["choice"]
        )
    elif "travel_result" in details and step_kind in (None, "expertise"):
        result = details["travel_result"]
        faces = list(result.get("faces") or [])
        apply = lambda t: travel_rules.apply_task(  # noqa: E731
            t, result["name"], result["task"], result["tier"], dice=ScriptedDice(faces)
        )
    else:
        return
    row = _lock_clock(character.campaign_id)
    camp = _camp(row)
    travel = camp.get("travel")
    if travel is None or travel["day"] != details["travel"]["day"]:
        raise Conflict(
            gettext("That travel day is over: the check no longer counts."), code="stale_day"
        )
    try:
        new, info = apply(travel)
    except RulesError as exc:
        raise invalid_from_rules(exc, code="travel_refused") from exc
    camp["travel"] = new
    _save(row, get_ruleset(CROWS).validate_campaign(camp))
    text = _both(
        gettext_noop(
            "Today: %(hexes)d hexes, encounter threshold %(travel)d on the road and %(rest)d "
            "at rest."
        ),
        hexes=new["hexes"],
        travel=new["travel_threshold"],
        rest=new["rest_threshold"],
    )
    if new["lost"]:
        text = {k: v + " " + _both(gettext_noop("The party is lost."))[k] for k, v in text.items()}
    step = {"type": info["type"], "name": character.name, "result": info, "text": text}
    maps = Map.objects.filter(campaign_id=character.campaign_id, active=True, kind=GridKind.HEX)
    m = maps.select_for_update(of=("self",)).first()
    if m is not None and info.get("found_at") is not None:
        info["found_at"] = _on_map(m, _offset(info["found_at"]))
    _publish(character.campaign_id, actor, step, new, map_id=m.pk if m else None)
    if m is not None and m.orientation == HexOrientation.FLAT:
        _sync_map(m, actor, new)


character_services.register_outcome_hook(CROWS, "travel_role", _after_role_check, routed=True)


# --- the Miasma after the rest («Путешествие по суше › Миазма») ----------------------------------


def _persons(campaign: Campaign) -> list[Character]:
    """ "Each person" («Путешествие по суше › Миазма»): the PCs and human hirelings, living."""
    return [
        c
        for c in _characters(campaign)
        if is_person(c.state)
        and not c.state.get("dead")
        and (c.kind == Kind.PC or c.state.get("kind") == "hireling")
    ]


@transaction.atomic
def miasma_saves(*, map: Map, actor: User, role: str, dice: Dice | None = None) -> dict:
    """Every person's save after a rest in the Miasma, rolled at once and shown to everyone;
    nothing is applied until the referee resolves them (the 17+ choices come first)."""
    _require(map)
    _referee_only(role)
    campaign = map.campaign
    row = _lock_clock(campaign)
    travel = _travelling(_camp(row))
    people = _persons(campaign)
    if not people:
        raise Invalid(gettext("Nobody here makes a Miasma save."), code="no_persons")
    outs = get_ruleset(CROWS).miasma_saves(
        [c.state for c in people],
        dice=dice or RandomDice(),
        travel=travel,
        settings=campaign.rules or None,
    )
    saves = [
        {
            "character_id": c.pk,
            "name": c.name,
            "faces": list(o.faces),
            "total": o.total,
            "tier": o.flags.get("tier"),
            "skipped": bool(o.flags.get("skipped")),
        }
        for c, o in zip(people, outs, strict=True)
    ]
    step = {
        "type": "miasma_saves",
        "day": travel["day"],
        "saves": saves,
        "text": _both(gettext_noop("Miasma saves after the rest.")),
    }
    _publish(campaign, actor, step, travel, map_id=map.pk)
    return step


def _last_saves(campaign: Campaign, day: int) -> dict[str, Any] | None:
    from vtt.table.models import TableEvent

    for event in TableEvent.objects.filter(
        campaign=campaign, kind="travel", visibility=V.BLIND
    ).order_by("-seq")[:200]:
        kind = event.payload.get("type")
        if kind == "miasma_resolved" and event.payload.get("day") == day:
            return None
        if kind == "miasma_saves" and event.payload.get("day") == day:
            return event.payload
    return None


def pending_saves(campaign: Campaign) -> dict[str, Any] | None:
    """Today's Miasma saves still waiting for the referee to apply them, with the 17+ choices
    the players have made so far (the panel shows them; nothing here is secret: the saves were
    rolled in the open)."""
    travel = current_travel(campaign)
    if travel is None:
        return None
    recorded = _last_saves(campaign, travel["day"])
    if recorded is None:
        return None
    return {
        "day": recorded["day"],
        "saves": recorded["saves"],
        "choices": {str(k): v for k, v in _recorded_choices(campaign, recorded["day"]).items()},
    }


def _recorded_choices(campaign: Campaign | int, day: int) -> dict[int, str | int]:
    """The 17+ choices players made for today's saves (the newest per character wins)."""
    from vtt.table.models import TableEvent

    chosen: dict[int, str | int] = {}
    for event in TableEvent.objects.filter(
        campaign=campaign, kind="travel", visibility=V.BLIND
    ).order_by("-seq")[:200]:
        kind = event.payload.get("type")
        if kind == "miasma_saves" and event.payload.get("day") == day:
            break
        if kind == "miasma_choice" and event.payload.get("day") == day:
            chosen.setdefault(int(event.payload["character_id"]), event.payload["choice"])
    return chosen


@transaction.atomic
def miasma_choice(
    *, map: Map, actor: User, role: str, character_id: Any, choice: Any
) -> dict[str, Any]:
    """A 17+ on today's Miasma save («Путешествие по суше › Миазма»): its player (or the referee)
    chooses to clear the character's cruelty (``"clear"``) or to lift another traveller's save (that
    traveller's character id). Recorded in the log; the referee's "Apply the Miasma" uses it."""
    _require(map)
    campaign = map.campaign
    row = _lock_clock(campaign)
    travel = _travelling(_camp(row))
    recorded = _last_saves(campaign, travel["day"])
    if recorded is None:
        raise Conflict(gettext("Roll the Miasma saves first."), code="no_saves")
    character = _by_id(campaign, character_id, "character_id")
    if role != Role.REFEREE and not (
        role == Role.PLAYER and character.kind == Kind.PC and character.owner_id == actor.pk
    ):
        raise ServiceError(
            gettext("Players choose for their own characters."), code="not_owner", status=403
        )
    saves = {s["character_id"]: s for s in recorded["saves"]}
    mine = saves.get(character.pk)
    if mine is None or mine["skipped"] or mine["tier"] != 3:
        raise Invalid(
            gettext("Only a 17+ on the Miasma save makes this choice."), code="not_17_plus"
        )
    lifted = ""
    if choice == "clear":
        value: str | int = "clear"
    else:
        other = saves.get(_int_or(choice))
        if other is None or other["character_id"] == character.pk or other["skipped"]:
            raise Invalid(
                gettext("Clear your cruelty, or lift another traveller's save."),
                fields={"choice": [str(choice)]},
            )
        value, lifted = other["character_id"], other["name"]
    step = {
        "type": "miasma_choice",
        "day": travel["day"],
        "character_id": character.pk,
        "name": character.name,
        "choice": value,
        "text": (
            _both(gettext_noop("%(name)s clears their cruelty."), name=character.name)
            if value == "clear"
            else _both(
                gettext_noop("%(name)s lifts %(other)s's Miasma save."),
                name=character.name,
                other=lifted,
            )
        ),
    }
    _publish(campaign, actor, step, travel, map_id=map.pk)
    return step


def _int_or(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1


@transaction.atomic
def miasma_resolve(
    *,
    map: Map,
    actor: User,
    role: str,
    choices: dict[str, Any] | None = None,
    dice: Dice | None = None,
) -> dict:
    """Apply the day's saves («Путешествие по суше › Миазма»): ``choices`` maps the character id of
    each 17+ roller to ``"clear"`` (clear your cruelty) or the id of the person whose save it
    lifts; then cruelty and the Miasma table (d10 + cruelty) for each failure."""
    _require(map)
    _referee_only(role)
    campaign = map.campaign
    row = _lock_clock(campaign)
    travel = _travelling(_camp(row))
    recorded = _last_saves(campaign, travel["day"])
    if recorded is None:
        raise Conflict(gettext("Roll the Miasma saves first."), code="no_saves")
    ids = [s["character_id"] for s in recorded["saves"]]
    people = {
        c.pk: c for c in Character.objects.select_for_update().filter(campaign=campaign, pk__in=ids)
    }
    if set(people) != set(ids):
        raise Conflict(gettext("A traveller has gone since the saves."), code="stale_saves")
    order = {pk: i for i, pk in enumerate(ids)}
    chosen: dict[int, str | int] = {}
    # the players' own choices first; the referee's, when given, override them
    merged: dict[Any, Any] = {
        str(k): v for k, v in _recorded_choices(campaign, travel["day"]).items()
    }
    merged.update({str(k): v for k, v in (choices or {}).items()})
    for key, value in merged.items():
        try:
            who = order[int(key)]
            chosen[who] = "clear" if value == "clear" else order[int(value)]
        except (KeyError, TypeError, ValueError):
            raise Invalid(
                gettext("Choices map a traveller to “clear” or another traveller."),
                fields={"choices": [str(key)]},
            ) from None
    saves = [
        Outcome(move="miasma_save", flags={"tier": s["tier"], "skipped": s["skipped"]})
        for s in recorded["saves"]
    ]
    try:
        results = get_ruleset(CROWS).miasma_resolve(
            [people[pk].state for pk in ids], saves, chosen, dice=dice or RandomDice()
        )
    except RulesError as exc:
        raise invalid_from_rules(exc, code="travel_refused") from exc
    report = []
    for pk, result in zip(ids, results, strict=True):
        character = people[pk]
        if result.state != character.state:
            character_services.record_procedure_result(character, result.state, reason="miasma")
        miasma = result.details.get("miasma") or {}
        report.append(
            {
                "character_id": pk,
                "name": character.name,
                "tier": result.flags.get("tier"),
                "cruelty": result.state.get("cruelty", 0),
                "miasma": miasma,
                "cleared": bool(result.details.get("cruelty_cleared") is not None),
            }
        )
    step = {
        "type": "miasma_resolved",
        "day": travel["day"],
        "results": report,
        "text": _both(gettext_noop("The Miasma takes its toll.")),
    }
    _publish(campaign, actor, step, travel, map_id=map.pk)
    return step
