"""Crows combat rounds on the battle map (rulebook «Бой»; «Бой › Реакции»).

The rules are ``systems.crows.combat`` behind the ruleset's campaign moves (``combat_start``,
``combat_round``, ``combat_turn``, ``combat_spend``, ``combat_end_turn``, ``combat_end``); this
module names the combatants after the map's tokens (``"t<token id>"``), decides who may do
what, and publishes every step as a ``combat`` event twice, like the travel day: the referee's
copy (``blind``, ``audience: "referee"``) with every combatant, and the players' copy
(``players``, ``audience: "players"``) without the creatures players cannot see (a hidden
token, a hidden NPC, a token under fog). A turn of such a creature reaches players only as
"the enemies' side is acting": no name, nothing it spent.

The combat lives where the rules keep it, on the campaign state of the dungeon clock row
(``DungeonClock.ruleset_state["combat"]``), next to the travel day.

Who does what («Бой › Кто ходит первым?»: the players order their side's turns, the referee
the enemies'):
the referee everything; a player starts, spends and ends the turns of their own characters'
tokens and spends their reactions; observers only watch.
"""

from __future__ import annotations

import copy
from typing import Any

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext, gettext_noop

from systems import get_ruleset
from systems.core.dice import Dice, RandomDice
from systems.core.outcome import Outcome
from systems.core.ruleset import RulesError
from systems.core.schema import fail
from systems.crows import combat as cb
from systems.crows import movement as mv
from systems.crows.conditions import speed as crow_speed
from systems.crows.sheet import READY_TEXT_MAX
from systems.crows.terms import COSTS
from vtt.accounts.models import User
from vtt.campaigns.models import Campaign, Membership, Role
from vtt.characters.models import Kind
from vtt.core.errors import Conflict, Invalid, ServiceError, invalid_from_rules
from vtt.maps import selectors
from vtt.maps.fog import Fog
from vtt.maps.models import GridKind, Map, Token
from vtt.maps.services import MAX_PATH
from vtt.table.models import DungeonClock
from vtt.table.models import Visibility as V
from vtt.table.services import publish

CROWS = "crows"
STEPS = (
    "start",
    "round",
    "roller",
    "initiative",
    "turn",
    "spend",
    "taunt",
    "ready",
    "trigger",
    "extra_action",
    "release",
    "join",
    "end_turn",
    "end",
)
PLAYER_STEPS = {
    "turn",
    "spend",
    "end_turn",
    "initiative",
    "taunt",
    "ready",
    "trigger",
    "release",
    "join",
}
TAUNT_RANGE = 10  # squares («Бой › Действие «Насмешка»»)
COST_KEYS = {c.key for c in COSTS}
COST_NAMES = {c.key: {"ru": c.ru.lower(), "en": c.en.lower()} for c in COSTS}
SIDE_NAMES = {
    "pcs": {"ru": "персонажи и союзники", "en": "the PCs and allies"},
    "enemies": {"ru": "враги", "en": "the enemies"},
}


def _both(message: str, **values: Any) -> dict[str, str]:
    """A message in both languages; ``{"ru", "en"}`` values are filled in per language."""
    out = {}
    for lang in ("ru", "en"):
        with translation.override(lang):
            filled = {k: v[lang] if isinstance(v, dict) else v for k, v in values.items()}
            out[lang] = gettext(message) % filled
    return out


def token_id(cid: str) -> int | None:
    """``"t12"`` → 12 (other ids, e.g. a summoned creature added by the rules, → None)."""
    if isinstance(cid, str) and cid.startswith("t") and cid[1:].isdigit():
        return int(cid[1:])
    return None


def _require(m: Map) -> None:
    if m.campaign.ruleset != CROWS:
        raise Invalid(gettext("Combat rounds follow the Crows rules."), code="not_crows")
    if m.kind != GridKind.SQUARE:
        raise Invalid(gettext("Combat is fought on a square battle map."), code="not_battle_map")


def current_combat(campaign: Campaign | int) -> dict[str, Any] | None:
    campaign_id = campaign if isinstance(campaign, int) else campaign.pk
    state = (
        DungeonClock.objects.filter(campaign_id=campaign_id)
        .values_list("ruleset_state", flat=True)
        .first()
    )
    return (state or {}).get("combat")


def _tokens(m: Map) -> dict[int, Token]:
    return {t.pk: t for t in Token.objects.filter(map=m).select_related("character")}


def _seen_by_players(token: Token | None, m: Map, fog: Fog) -> bool:
    if token is None:
        return False
    if token.character_id and token.character.hidden:
        return False
    return selectors.token_visible(token, m, fog)


def _decorate(combat: dict[str, Any], tokens: dict[int, Token]) -> dict[str, Any]:
    """Add what the strip shows and the rules do not keep: the token, its owner, whether a
    player may see it, and what is left of the current turn."""
    out = copy.deepcopy(combat)
    for c in out["combatants"]:
        token = tokens.get(token_id(c["id"]) or -1)
        c["token_id"] = token.pk if token else None
        c["owner_id"] = (
            token.character.owner_id
            if token and token.character_id and token.character.kind == Kind.PC
            else None
        )
    if out.get("turn"):
        out["turn"]["left"] = cb.turn_budget(out["turn"])
        out["turn"]["side"] = next(
            (c["side"] for c in out["combatants"] if c["id"] == out["turn"]["combatant"]), ""
        )
    out["waiting"] = cb.waiting_side(combat) if combat["round"] >= 1 else ""
    # whether a new round may be rolled (what "waiting" already tells, as a yes or no)
    out["round_over"] = combat.get("turn") is None and (
        combat["round"] < 1 or not any(cb._can_take_turn(c) for c in combat["combatants"])
    )
    return out


def public_view(combat: dict[str, Any] | None, m: Map) -> dict[str, Any] | None:
    """What players may see: only the combatants whose token they see; a hidden creature's
    turn shows as its side acting, with nothing it spent."""
    if combat is None:
        return None
    tokens = _tokens(m)
    fog = Fog.for_map(m)
    visible = {
        c["id"]
        for c in combat["combatants"]
        if _seen_by_players(tokens.get(token_id(c["id"]) or -1), m, fog)
    }
    out = _decorate(combat, tokens)
    out["combatants"] = [c for c in out["combatants"] if c["id"] in visible]
    for c in out["combatants"]:
        if c.get("taunted_by") and c["taunted_by"] not in visible:
            c["taunted_by"] = ""
        if c.get("grabbing") and c["grabbing"] not in visible:
            c["grabbing"] = ""
        if c.get("pet_of") and c["pet_of"] not in visible:
            c["pet_of"] = ""
        c["readied"] = None if c.get("readied") is None else {"hidden": True}
    turn = out.get("turn")
    if turn and turn["combatant"] not in visible:
        out["turn"] = {"hidden": True, "round": turn["round"], "side": turn["side"]}
        out["current"] = ""
    return out


def referee_view(combat: dict[str, Any] | None, m: Map) -> dict[str, Any] | None:
    return None if combat is None else _decorate(combat, _tokens(m))


def combat_view(m: Map, *, referee: bool) -> dict[str, Any]:
    """``GET``: the combat for this viewer (``None`` when no combat is under way)."""
    combat = current_combat(m.campaign_id)
    return {
        "combat": referee_view(combat, m) if referee else public_view(combat, m),
        "audience": "referee" if referee else "players",
        "map_id": m.pk,
    }


# --- the steps ------------------------------------------------------------------------------


def _resolve(campaign: Campaign, move: str, state: dict[str, Any], dice: Dice, **params):
    try:
        return get_ruleset(CROWS).resolve(
            move, state, dice=dice, settings=campaign.rules or None, **params
        )
    except RulesError as exc:
        raise invalid_from_rules(exc, code="combat_refused") from exc


def _token_list(m: Map, raw: Any, field: str) -> list[Token]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise Invalid(gettext("A list of tokens is expected."), fields={field: ["[]"]})
    tokens = _tokens(m)
    out = []
    for value in raw:
        try:
            token = tokens[int(value)]
        except (KeyError, TypeError, ValueError):
            raise Invalid(
                gettext("No such token on this map."), code="no_token", fields={field: [str(value)]}
            ) from None
        out.append(token)
    return out


def _start(m, membership, camp, params, dice):
    if camp.get("combat") is not None:
        raise Conflict(gettext("A combat is already under way."), code="combat_on")
    chosen = _token_list(m, params.get("tokens"), "tokens")
    if not chosen:
        chosen = [t for t in _tokens(m).values() if t.character_id]
    if not chosen:
        raise Invalid(gettext("Put the combatants' tokens on the map first."), code="no_tokens")
    if len({t.pk for t in chosen}) != len(chosen):
        raise Invalid(gettext("A token is listed twice."), fields={"tokens": ["duplicate"]})
    sides = params.get("sides") or {}
    if not isinstance(sides, dict):
        raise Invalid(gettext("Sides map a token to pcs or enemies."), fields={"sides": ["{}"]})
    surprised = _token_list(m, params.get("surprised"), "surprised")
    ids = {t.pk for t in chosen}
    if any(t.pk not in ids for t in surprised):
        raise Invalid(
            gettext("Only combatants can be surprised."), fields={"surprised": ["not in"]}
        )
    combatants = []
    for t in chosen:
        default = "pcs" if t.character_id and t.character.kind == Kind.PC else "enemies"
        side = sides.get(str(t.pk), default)
        if side not in SIDE_NAMES:
            raise Invalid(gettext("A side is pcs or enemies."), fields={"sides": [str(t.pk)]})
        combatants.append({"id": f"t{t.pk}", "name": t.name, "side": side})
    out = _resolve(
        m.campaign,
        "combat_start",
        camp,
        dice,
        combatants=combatants,
        surprised=[f"t{t.pk}" for t in surprised],
    )
    return out, {"type": "combat_started", "subject": None}


def _round(m, membership, camp, params, dice):
    out = _resolve(m.campaign, "combat_round", camp, dice)
    event = out.details["events"][0]
    roller = None
    if params.get("roller_id") not in (None, ""):
        roller = (
            Membership.objects.filter(
                campaign_id=m.campaign_id, user_id=_int(params["roller_id"]), role=Role.PLAYER
            )
            .select_related("user")
            .first()
        )
        if roller is None:
            raise Invalid(
                gettext("The initiative roller is one of the players."),
                fields={"roller_id": [str(params["roller_id"])]},
            )
    return out, {
        "type": "round_started",
        "subject": None,
        "round": event["round"],
        "initiative_roll": event["initiative_roll"],
        "first": event["first"],
        "roller": roller.user.display_name if roller else "",
        "surprised_no_turn": event["surprised_no_turn"],
    }


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1


def _subject(m: Map, camp: dict[str, Any], params: dict[str, Any], membership) -> str:
    """The combatant a step is about; a player's must be their own character's token."""
    combat = camp.get("combat")
    if combat is None:
        raise Conflict(gettext("No combat is under way."), code="no_combat")
    cid = str(params.get("combatant") or "")
    if not cid and combat.get("turn"):
        cid = combat["turn"]["combatant"]
    entry = next((c for c in combat["combatants"] if c["id"] == cid), None)
    tokens = _tokens(m)
    token = tokens.get(token_id(cid) or -1)
    if membership.role != Role.REFEREE:
        visible = entry is not None and _seen_by_players(token, m, Fog.for_map(m))
        if not visible:
            raise Invalid(
                gettext("No such combatant."), code="no_combatant", fields={"combatant": [cid]}
            )
        character = token.character if token.character_id else None
        if not (
            character is not None
            and character.kind == Kind.PC
            and character.owner_id == membership.user_id
        ):
            raise ServiceError(
                gettext("Players run the turns of their own characters."),
                code="not_owner",
                status=403,
            )
    elif entry is None:
        raise Invalid(
            gettext("No such combatant."), code="no_combatant", fields={"combatant": [cid]}
        )
    return cid


def _turn(m, membership, camp, params, dice):
    cid = _subject(m, camp, params, membership)
    force = bool(params.get("force")) and membership.role == Role.REFEREE
    out = _resolve(m.campaign, "combat_turn", camp, dice, combatant=cid, force=force)
    return out, {"type": "combat_turn_started", "subject": cid}


def _move_speed(m: Map, cid: str) -> int:
    token = _tokens(m).get(token_id(cid) or -1)
    if token is None:
        return 0
    if token.character_id:
        return int(crow_speed(token.character.state))
    return int(token.speed or 0)


def _spend(m, membership, camp, params, dice):
    cid = _subject(m, camp, params, membership)
    cost = params.get("cost")
    if cost not in COST_KEYS:
        raise Invalid(gettext("Spend a maneuver, an action or a reaction."), fields={"cost": ["?"]})
    squares = _int(params.get("squares", 0) or 0)
    if squares < 0 or squares > 1000:
        raise Invalid(gettext("Squares walked are 0 to 1000."), fields={"squares": ["?"]})
    move = bool(params.get("move")) and cost == "maneuver"
    out = _resolve(
        m.campaign,
        "combat_spend",
        camp,
        dice,
        combatant=cid,
        cost=cost,
        speed=_move_speed(m, cid) if move else 0,
        squares=squares,
    )
    return out, {"type": "spent", "subject": cid, "cost": cost, "move": move}


def _end_turn(m, membership, camp, params, dice):
    combat = camp.get("combat")
    if combat is None:
        raise Conflict(gettext("No combat is under way."), code="no_combat")
    if combat.get("turn") is None:
        raise Conflict(gettext("No turn is under way."), code="no_turn")
    cid = _subject(m, camp, {"combatant": combat["turn"]["combatant"]}, membership)
    out = _resolve(m.campaign, "combat_end_turn", camp, dice)
    event = out.details["events"][0]
    return out, {"type": "combat_turn_ended", "subject": cid, "round_over": event["round_over"]}


def _end(m, membership, camp, params, dice):
    if camp.get("combat") is None:
        raise Conflict(gettext("No combat is under way."), code="no_combat")
    out = _resolve(m.campaign, "combat_end", camp, dice)
    return out, {"type": "combat_ended", "subject": None}


def _roller(m, membership, camp, params, dice):
    """The referee names the player who rolls the side initiative («Бой › Кто ходит первым?»); empty
    clears it."""
    combat = camp.get("combat")
    if combat is None:
        raise Conflict(gettext("No combat is under way."), code="no_combat")
    raw = params.get("roller_id")
    roller = None
    if raw not in (None, ""):
        roller = (
            Membership.objects.filter(
                campaign_id=m.campaign_id, user_id=_int(raw), role=Role.PLAYER
            )
            .select_related("user")
            .first()
        )
        if roller is None:
            raise Invalid(
                gettext("The initiative roller is one of the players."),
                fields={"roller_id": [str(raw)]},
            )
    combat["roller"] = str(roller.user_id) if roller else ""
    out = Outcome(move="combat_roller", state=get_ruleset(CROWS).validate_campaign(camp))
    return out, {
        "type": "roller_named",
        "subject": None,
        "roller": roller.user.display_name if roller else "",
    }


def _initiative(m, membership, camp, params, dice):
    """The named player rolls the side initiative from their own browser; the server rolls.
    Only between rounds: a round still under way keeps its order («Бой › Кто ходит первым?»)."""
    combat = camp.get("combat")
    if combat is None:
        raise Conflict(gettext("No combat is under way."), code="no_combat")
    if membership.role != Role.REFEREE and combat.get("roller") != str(membership.user_id):
        raise ServiceError(
            gettext("The referee named another player to roll the initiative."),
            code="not_roller",
            status=403,
        )
    if combat.get("turn") is not None or (
        combat["round"] >= 1 and any(cb._can_take_turn(c) for c in combat["combatants"])
    ):
        raise Conflict(
            gettext("The round is still under way: roll when every turn is over."),
            code="round_on",
        )
    out, info = _round(m, membership, camp, {}, dice)
    info["roller"] = membership.user.display_name
    return out, info


def _target(m: Map, combat: dict[str, Any], raw: Any, membership, field: str = "target") -> Token:
    """A token named by id (or ``"t<id>"``) that is in the combat and the actor may see."""
    value = raw[1:] if isinstance(raw, str) and raw.startswith("t") else raw
    token = _tokens(m).get(_int(value))
    ids = {c["id"] for c in combat["combatants"]}
    missing = token is None or f"t{token.pk}" not in ids
    if not missing and membership.role != Role.REFEREE:
        missing = not _seen_by_players(token, m, Fog.for_map(m))
    if missing:
        raise Invalid(
            gettext("No such combatant."), code="no_combatant", fields={field: [str(raw)]}
        )
    return token


def squares_between(a: Token, b: Token) -> int:
    """Squares between two spaces (a diagonal counts as one, «Бой › Сетка и дистанции»): 1 when
    adjacent."""
    gap_x = max(0, b.col - (a.col + a.cells), a.col - (b.col + b.cells))
    gap_y = max(0, b.row - (a.row + a.cells), a.row - (b.row + b.cells))
    return max(gap_x, gap_y) + 1


def _taunt(m, membership, camp, params, dice):
    """Насмешка («Бой › Действие «Насмешка»»): an action; the target, within 10 squares, has
    disadvantage on attacks that do not include the taunter until the taunter's next turn."""
    cid = _subject(m, camp, params, membership)
    target = _target(m, camp["combat"], params.get("target"), membership)
    if f"t{target.pk}" == cid:
        raise Invalid(gettext("Choose another creature to taunt."), fields={"target": ["self"]})
    me = _tokens(m)[token_id(cid)]
    distance = squares_between(me, target)
    if distance > TAUNT_RANGE:
        raise Invalid(
            gettext("Taunt a creature within 10 squares."),
            code="too_far",
            fields={"target": [str(distance)]},
        )
    _need_action(camp["combat"], cid)
    out = _resolve(
        m.campaign,
        "combat_taunt",
        camp,
        dice,
        combatant=cid,
        target=f"t{target.pk}",
        distance=distance,
    )
    return out, {"type": "taunted", "subject": cid, "target": f"t{target.pk}"}


def _ready(m, membership, camp, params, dice):
    """Подготовить действие («Бой › Подготовить действие»): spend the action now, name the
    trigger; the readied action is performed later with the reaction, and lapses at the creature's
    next turn."""
    cid = _subject(m, camp, params, membership)
    kind = params.get("kind") or "action"
    if kind not in ("action", "maneuver"):
        raise Invalid(gettext("A readied action or maneuver."), fields={"kind": [str(kind)]})
    trigger = str(params.get("trigger") or "").strip()[:READY_TEXT_MAX]
    if not trigger:
        raise Invalid(gettext("Name the trigger."), fields={"trigger": ["required"]})
    _need_action(camp["combat"], cid)
    out = _resolve(
        m.campaign,
        "combat_ready",
        camp,
        dice,
        combatant=cid,
        what=str(params.get("what") or "").strip()[:READY_TEXT_MAX],
        trigger=trigger,
        kind=kind,
    )
    readied = cb.combatant(out.state["combat"], cid)["readied"]
    return out, {"type": "readied", "subject": cid, "readied": readied}


def _trigger(m, membership, camp, params, dice):
    """The trigger happened: the readied action is performed with the reaction
    («Бой › Подготовить действие»)."""
    cid = _subject(m, camp, params, membership)
    me = cb.combatant(camp["combat"], cid)
    if me["readied"] is None:
        raise Conflict(gettext("Nothing is readied."), code="nothing_readied")
    _need_reaction(camp["combat"], cid)
    out = _resolve(m.campaign, "combat_trigger", camp, dice, combatant=cid)
    return out, {"type": "readied_triggered", "subject": cid, "readied": me["readied"]}


def _extra_action(m, membership, camp, params, dice):
    """Дополнительное действие («Бой › Криты на атаках»): the referee grants it (a
    crit made outside the map); on the creature's own turn it is usable any time this turn,
    otherwise at once."""
    cid = _subject(m, camp, params, membership)
    turn = camp["combat"].get("turn")
    on_own_turn = bool(turn and turn["combatant"] == cid)
    out = _resolve(
        m.campaign, "combat_extra_action", camp, dice, combatant=cid, on_own_turn=on_own_turn
    )
    return out, {"type": "extra_action", "subject": cid, "use": out.details["events"][0]["use"]}


def _release(m, membership, camp, params, dice):
    """Let go of the creature held in a grab («Бой › Общие манёвры»): it is free (its Grabbed
    condition is the referee's to clear on its sheet, as any condition)."""
    cid = _subject(m, camp, params, membership)
    if not cb.combatant(camp["combat"], cid)["grabbing"]:
        raise Conflict(gettext("Nobody is held in a grab."), code="not_grabbing")
    out = _resolve(m.campaign, "combat_grabbing", camp, dice, combatant=cid, target="")
    return out, {"type": "released", "subject": cid}


def _join(m, membership, camp, params, dice):
    """A creature joins a fight under way («Бой»): the referee any token, a player their own
    character's. It acts from the next turn its side may take."""
    combat = camp.get("combat")
    if combat is None:
        raise Conflict(gettext("No combat is under way."), code="no_combat")
    chosen = _token_list(m, [params.get("token")], "token")[0]
    referee = membership.role == Role.REFEREE
    if not referee:
        visible = _seen_by_players(chosen, m, Fog.for_map(m))
        if not visible:
            raise Invalid(gettext("No such token on this map."), code="no_token")
        character = chosen.character if chosen.character_id else None
        if not (
            character is not None
            and character.kind == Kind.PC
            and character.owner_id == membership.user_id
        ):
            raise ServiceError(
                gettext("Players bring only their own characters into a fight."),
                code="not_owner",
                status=403,
            )
    if any(c["id"] == f"t{chosen.pk}" for c in combat["combatants"]):
        raise Conflict(gettext("That token is already in the fight."), code="already_in")
    default = "pcs" if chosen.character_id and chosen.character.kind == Kind.PC else "enemies"
    side = params.get("side") or default if referee else default
    if side not in SIDE_NAMES:
        raise Invalid(gettext("A side is pcs or enemies."), fields={"side": [str(side)]})
    entry = {"id": f"t{chosen.pk}", "name": chosen.name, "side": side}
    out = _resolve(m.campaign, "combat_join", camp, dice, combatant=entry)
    return out, {"type": "joined", "subject": f"t{chosen.pk}"}


HANDLERS = {
    "start": _start,
    "round": _round,
    "roller": _roller,
    "initiative": _initiative,
    "turn": _turn,
    "spend": _spend,
    "taunt": _taunt,
    "ready": _ready,
    "trigger": _trigger,
    "extra_action": _extra_action,
    "release": _release,
    "join": _join,
    "end_turn": _end_turn,
    "end": _end,
}


def _texts(step: dict[str, Any], names: dict[str, str]) -> dict[str, str]:
    name = names.get(step.get("subject") or "", "?")
    kind = step["type"]
    if kind == "combat_started":
        return _both(gettext_noop("Combat begins."))
    if kind == "combat_ended":
        return _both(gettext_noop("Combat ends."))
    if kind == "round_started":
        text = _both(
            gettext_noop("Round %(round)d: initiative %(roll)d — %(side)s act first."),
            round=step["round"],
            roll=step["initiative_roll"],
            side=SIDE_NAMES[step["first"]],
        )
        if step.get("roller"):
            text = {k: f"{v} ({step['roller']})" for k, v in text.items()}
        return text
    if kind == "combat_turn_started":
        return _both(gettext_noop("%(name)s's turn."), name=name)
    if kind == "combat_turn_ended":
        text = _both(gettext_noop("%(name)s ends the turn."), name=name)
        if step.get("round_over"):
            more = _both(gettext_noop("The round is over."))
            text = {k: f"{v} {more[k]}" for k, v in text.items()}
        return text
    target = names.get(step.get("target") or "", "")
    simple = {
        "roller_named": gettext_noop("%(name)s rolls the initiative."),
        "taunted": gettext_noop("%(name)s taunts %(target)s."),
        "readied": gettext_noop("%(name)s readies an action."),
        "readied_triggered": gettext_noop("%(name)s acts on the readied trigger (a reaction)."),
        "extra_action": gettext_noop("%(name)s has an extra action."),
        "released": gettext_noop("%(name)s lets go of the grab."),
        "joined": gettext_noop("%(name)s joins the fight."),
        "attacked": gettext_noop("%(name)s attacks %(target)s (an action)."),
        "counterattacked": gettext_noop("%(name)s counterattacks (a reaction)."),
        "grabbed": gettext_noop("%(name)s tries to grab %(target)s (a maneuver)."),
        "walked": gettext_noop("%(name)s moves %(squares)d squares."),
    }
    if kind == "roller_named":
        if not step.get("roller"):
            return _both(gettext_noop("The referee rolls the initiative."))
        return _both(simple[kind], name=step["roller"])
    if kind in simple:
        return _both(
            simple[kind],
            name=name,
            target=target or "?",
            squares=int(step.get("squares") or 0),
        )
    if step.get("move"):
        return _both(gettext_noop("%(name)s moves (a maneuver)."), name=name)
    return _both(
        gettext_noop("%(name)s spends: %(cost)s."), name=name, cost=COST_NAMES[step["cost"]]
    )


def _lock_clock(campaign_id: int) -> DungeonClock:
    row, _created = DungeonClock.objects.select_for_update().get_or_create(campaign_id=campaign_id)
    return row


def _need_action(combat: dict[str, Any], cid: str) -> None:
    """Refuse (409) an action when it is not the creature's turn (unless a crit left it an
    extra action to use at once, «Бой › Криты на атаках») or its turn has no action
    left («Бой › Ход»)."""
    me = cb.combatant(combat, cid)
    turn = combat.get("turn")
    if turn is None or turn["combatant"] != cid:
        if me["extra_now"]:
            return
        raise Conflict(
            gettext("It is not %(name)s's turn: an action waits for it.") % {"name": me["name"]},
            code="not_your_turn",
        )
    if cb.turn_budget(turn)["actions"] < 1:
        raise Conflict(
            gettext("%(name)s has no action left this turn.") % {"name": me["name"]},
            code="no_action_left",
        )


def _need_reaction(combat: dict[str, Any], cid: str) -> None:
    """Refuse (409) a reaction already spent this round («Бой › Реакции»)."""
    me = cb.combatant(combat, cid)
    if me["reaction_used"]:
        raise Conflict(
            gettext("%(name)s has already spent the reaction this round.") % {"name": me["name"]},
            code="reaction_spent",
        )


def combatant_of(campaign_id: int, token: Token | None) -> tuple[dict | None, str]:
    """(combat, combatant id) when a combat is under way and the token fights in it, else
    (None, "")."""
    if token is None:
        return None, ""
    combat = current_combat(campaign_id)
    cid = f"t{token.pk}"
    if combat is None or not any(c["id"] == cid for c in combat["combatants"]):
        return None, ""
    return combat, cid


def check_action(campaign_id: int, token: Token) -> dict[str, Any] | None:
    """Before an attack from the map: None outside combat (or for a token not in it); else
    what the attack needs to know, after refusing one that has no action now (409)."""
    combat, cid = combatant_of(campaign_id, token)
    if combat is None:
        return None
    _need_action(combat, cid)
    turn = combat.get("turn")
    return {"combatant": cid, "own_turn": bool(turn and turn["combatant"] == cid)}


def check_reaction(combat: dict[str, Any], cid: str) -> None:
    """Refuse (409) a reaction the creature has already spent this round («Бой › Реакции»)."""
    _need_reaction(combat, cid)


def reaction_used(campaign_id: int, token: Token | None) -> bool:
    """Whether the token's creature has spent its reaction this round (False outside combat)."""
    combat, cid = combatant_of(campaign_id, token)
    return bool(combat and cb.combatant(combat, cid)["reaction_used"])


def apply_to_combat(
    *,
    m: Map,
    actor: User | None,
    cid: str,
    change: Any,
    step: dict[str, Any],
) -> dict[str, Any] | None:
    """Apply ``change(combat) -> combat`` (pure rules calls) to the combat under way for
    ``cid`` and publish it as a step of ``step["type"]``: how an attack, a counterattack, a
    grab and a token's move spend the turn. Rules refusals are 409s. Locks the clock row (the
    callers hold the map and the sheets first, as every path does)."""
    row = _lock_clock(m.campaign_id)
    camp = copy.deepcopy(row.ruleset_state) or get_ruleset(CROWS).default_campaign()
    combat = camp.get("combat")
    if combat is None or not any(c["id"] == cid for c in combat["combatants"]):
        return None
    names = {c["id"]: c["name"] for c in combat["combatants"]}
    try:
        camp["combat"] = change(combat)
        state = get_ruleset(CROWS).validate_campaign(camp)
    except RulesError as exc:
        error = invalid_from_rules(exc, code="combat_refused")
        raise Conflict(error.message, code="combat_refused") from exc
    row.ruleset_state = state
    row.save(update_fields=["ruleset_state", "updated_at"])
    info = {"subject": cid, **step}
    info["text"] = _texts(info, names)
    full, _players, _player_step = _publish_both(m, actor, info, state["combat"])
    return full


def _publish_both(
    m: Map, actor: User | None, step_info: dict[str, Any], combat: dict[str, Any] | None
) -> tuple[dict | None, dict | None, dict[str, Any]]:
    """The referee's copy (blind) and the players' copy (players) of one combat step."""
    full = referee_view(combat, m)
    publish(
        campaign=m.campaign,
        kind="combat",
        payload={**step_info, "map_id": m.pk, "combat": full, "audience": "referee"},
        actor=actor,
        visibility=V.BLIND,
    )
    players = public_view(combat, m)
    subject = step_info.get("subject")
    shown = {c["id"] for c in (players or {}).get("combatants", [])}
    if subject and subject not in shown:
        # a hidden creature: players learn nothing about it, only the state they may see
        player_step: dict[str, Any] = {"type": "hidden", "subject": None}
    else:
        player_step = dict(step_info)
        if "surprised_no_turn" in player_step:
            player_step["surprised_no_turn"] = [
                cid for cid in player_step["surprised_no_turn"] if cid in shown
            ]
        if player_step.get("target") and player_step["target"] not in shown:
            player_step["target"] = ""
        if "readied" in player_step:
            # what a creature readies, and on what trigger, is its side's secret
            # («Бой › Подготовить действие»)
            player_step["readied"] = {"hidden": True}
    publish(
        campaign=m.campaign,
        kind="combat",
        payload={**player_step, "map_id": m.pk, "combat": players, "audience": "players"},
        actor=actor,
        visibility=V.PLAYERS,
    )
    return full, players, player_step


# --- a token's move in combat: the Move maneuver's squares ----------------------------------
# («Бой › Общие манёвры»; «Бой › Передвижение»)


def _path_cells(start: tuple[int, int], target: tuple[int, int], raw: Any) -> list[tuple[int, int]]:
    """The squares entered, in order: the path the browser sent (each square next to the one
    before, ending on the target), or the straightest path of single steps (a diagonal counts
    as one, «Бой › Сетка и дистанции»)."""
    if raw in (None, "", []):
        cells, (x, y) = [], start
        while (x, y) != target:
            x += (target[0] > x) - (target[0] < x)
            y += (target[1] > y) - (target[1] < y)
            cells.append((x, y))
        return cells
    bad = Invalid(
        gettext("A path is a list of neighbouring squares ending where the token stops."),
        code="bad_path",
        fields={"path": ["[[col, row], …]"]},
    )
    if not isinstance(raw, list) or len(raw) > MAX_PATH:
        raise bad
    cells = []
    for item in raw:
        if not (isinstance(item, list | tuple) and len(item) == 2):
            raise bad
        cell = (_int(item[0]), _int(item[1]))
        if not cells and cell == start:
            continue
        prev = cells[-1] if cells else start
        if max(abs(cell[0] - prev[0]), abs(cell[1] - prev[1])) != 1:
            raise bad
        cells.append(cell)
    if (cells[-1] if cells else start) != target:
        raise bad
    return cells


def _path_steps(
    m: Map, combat: dict[str, Any], cid: str, token: Token, cells: list, *, referee: bool
) -> list[dict[str, Any]]:
    """Each square entered as the rules read it (``systems.crows.movement``): difficult ground
    and water from the painted squares, an enemy's space as difficult terrain
    («Бой › Размер и пространство»)."""
    features = m.features or {}
    tokens = _tokens(m)
    fog = Fog.for_map(m)
    me = cb.combatant(combat, cid)
    enemies = []
    for c in combat["combatants"]:
        other = tokens.get(token_id(c["id"]) or -1)
        if other is None or c["id"] == cid or c["side"] == me["side"] or c["out"]:
            continue
        if not referee and not _seen_by_players(other, m, fog):
            continue  # a creature the player cannot see costs nothing they could notice
        enemies.append(other)
    size = max(1, token.cells)
    steps = []
    for x, y in cells:
        space = {(x + i, y + j) for i in range(size) for j in range(size)}
        grounds = {(features.get(f"{cx},{cy}") or {}).get("ground") for cx, cy in space}
        enemy = any(
            space & {(e.col + i, e.row + j) for i in range(e.cells) for j in range(e.cells)}
            for e in enemies
        )
        steps.append(
            {"difficult": "difficult" in grounds, "swim": "water" in grounds, "enemy": enemy}
        )
    return steps


def _walk_plan(cid: str, cost: int, speed: int):
    """Walk ``cost`` squares: what is left of the current Move first, then a new Move maneuver
    (up to the creature's speed) while the turn has maneuvers («Бой › Ход»;
    «Бой › Общие манёвры»)."""

    def change(combat: dict[str, Any]) -> dict[str, Any]:
        new, remaining = combat, cost
        while remaining > 0:
            turn = new["turn"]
            if turn["move_left"] > 0:
                step = min(turn["move_left"], remaining)
                new, _ = cb.walk(new, cid, step)
                remaining -= step
            elif speed > 0 and cb.turn_budget(turn)["maneuvers"] >= 1:
                new, _ = cb.spend(new, cid, "maneuver", speed=speed)
            else:
                raise fail(
                    "squares",
                    "Дальше в этот ход не уйти.",
                    "No movement is left this turn.",
                )
        return new

    return change


def walk_token(
    *,
    m: Map,
    actor: User,
    role: str,
    token: Token,
    start: tuple[int, int],
    target: tuple[int, int],
    path: Any = None,
) -> dict[str, Any] | None:
    """A token dragged during combat walks its Move (the caller holds the map's lock and has
    not saved the token yet): the squares entered, difficult ground, water and enemies' spaces
    costing one more («Бой › Передвижение»; «Бой › Размер и пространство»), are
    spent from the current Move and then from new Move maneuvers. A player's token moves only on its
    own turn and no further than the turn allows (409); the referee may place any token anywhere
    (then nothing is spent)."""
    combat, cid = combatant_of(m.campaign_id, token)
    if combat is None or start == target:
        return None
    referee = role == Role.REFEREE
    turn = combat.get("turn")
    if turn is None or turn["combatant"] != cid:
        if referee:
            return None
        raise Conflict(
            gettext("It is not %(name)s's turn: the token moves on its turn.")
            % {"name": token.name},
            code="not_your_turn",
        )
    cells = _path_cells(start, target, path)
    steps = _path_steps(m, combat, cid, token, cells, referee=referee)
    speeds = (token.character.state or {}).get("speeds") if token.character_id else None
    try:
        cost, _per_step = mv.path_cost(steps, speeds or {})
    except RulesError as exc:
        raise invalid_from_rules(exc, code="bad_path") from exc
    speed = _move_speed(m, cid)
    change = _walk_plan(cid, cost, speed)
    try:
        change(copy.deepcopy(combat))
    except RulesError:
        if referee:
            return None  # the referee's override: the token goes, the turn is untouched
        left = turn["move_left"] + cb.turn_budget(turn)["maneuvers"] * speed
        raise Conflict(
            gettext("The path costs %(cost)d squares; %(left)d are left this turn.")
            % {"cost": cost, "left": left},
            code="too_far",
        ) from None
    return apply_to_combat(
        m=m, actor=actor, cid=cid, change=change, step={"type": "walked", "squares": cost}
    )


@transaction.atomic
def combat_step(
    *,
    map: Map,
    actor: User,
    membership: Membership,
    step: str,
    params: dict[str, Any] | None = None,
    dice: Dice | None = None,
) -> dict[str, Any]:
    """One step of a combat round; returns the combat as this actor may see it."""
    _require(map)
    if step not in HANDLERS:
        raise Invalid(gettext("No such combat step: %(s)s.") % {"s": step}, code="no_step")
    referee = membership.role == Role.REFEREE
    if not referee and (step not in PLAYER_STEPS or membership.role != Role.PLAYER):
        raise ServiceError(
            gettext("The referee runs this part of the combat."), code="referee_only", status=403
        )
    m = Map.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=map.pk)
    row = _lock_clock(m.campaign_id)
    camp = copy.deepcopy(row.ruleset_state) or get_ruleset(CROWS).default_campaign()
    names = {c["id"]: c["name"] for c in (camp.get("combat") or {}).get("combatants", [])}
    out, step_info = HANDLERS[step](m, membership, camp, dict(params or {}), dice or RandomDice())
    row.ruleset_state = out.state
    row.save(update_fields=["ruleset_state", "updated_at"])
    combat = out.state.get("combat")
    names.update({c["id"]: c["name"] for c in (combat or {}).get("combatants", [])})
    step_info["text"] = _texts(step_info, names)
    full, players, player_step = _publish_both(m, actor, step_info, combat)
    return {
        "step": step_info if referee else player_step,
        "combat": full if referee else players,
    }
