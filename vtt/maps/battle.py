"""Crows combat rounds on the battle map (seed L701-L773, L835; digest §2 "combat").

The rules are ``systems.crows.combat`` behind the ruleset's campaign moves (``combat_start``,
``combat_round``, ``combat_turn``, ``combat_spend``, ``combat_end_turn``, ``combat_end``); this
module names the combatants after the map's tokens (``"t<token id>"``), decides who may do
what, and publishes every step as a ``combat`` event twice, like the travel day: the referee's
copy (``blind``, ``audience: "referee"``) with every combatant, and the players' copy
(``everyone``, ``audience: "players"``) without the creatures players cannot see (a hidden
token, a hidden NPC, a token under fog). A turn of such a creature reaches players only as
"the enemies' side is acting": no name, nothing it spent.

The combat lives where the rules keep it, on the campaign state of the dungeon clock row
(``DungeonClock.ruleset_state["combat"]``), next to the travel day.

Who does what (seed L707: the players order their side's turns, the referee the enemies'):
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
from systems.core.ruleset import RulesError
from systems.crows import combat as cb
from systems.crows.conditions import speed as crow_speed
from systems.crows.terms_b import COSTS
from vtt.accounts.models import User
from vtt.campaigns.models import Campaign, Membership, Role
from vtt.characters.models import Kind
from vtt.core.errors import Conflict, Invalid, ServiceError, invalid_from_rules
from vtt.maps import selectors
from vtt.maps.fog import Fog
from vtt.maps.models import GridKind, Map, Token
from vtt.table.models import DungeonClock
from vtt.table.models import Visibility as V
from vtt.table.services import publish

CROWS = "crows"
STEPS = ("start", "round", "turn", "spend", "end_turn", "end")
PLAYER_STEPS = {"turn", "spend", "end_turn"}
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
        "roller": roller.user.get_username() if roller else "",
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


HANDLERS = {
    "start": _start,
    "round": _round,
    "turn": _turn,
    "spend": _spend,
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
    if step.get("move"):
        return _both(gettext_noop("%(name)s moves (a maneuver)."), name=name)
    return _both(
        gettext_noop("%(name)s spends: %(cost)s."), name=name, cost=COST_NAMES[step["cost"]]
    )


def _lock_clock(campaign_id: int) -> DungeonClock:
    row, _created = DungeonClock.objects.select_for_update().get_or_create(campaign_id=campaign_id)
    return row


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
        player_step = {"type": "hidden", "subject": None}
    else:
        player_step = dict(step_info)
        if "surprised_no_turn" in player_step:
            player_step["surprised_no_turn"] = [
                cid for cid in player_step["surprised_no_turn"] if cid in shown
            ]
    publish(
        campaign=m.campaign,
        kind="combat",
        payload={**player_step, "map_id": m.pk, "combat": players, "audience": "players"},
        actor=actor,
        visibility=V.EVERYONE,
    )
    return {
        "step": step_info if referee else player_step,
        "combat": full if referee else players,
    }
