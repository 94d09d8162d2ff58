"""Attacks on the battle map (Crows, rulebook «Свет»; «Линия эффекта»; «Бой › Как атаковать»): the
client names the attacker's token, the target's token and the weapon; the server reads cover, light,
concealment, height and the other tokens from the map (``systems.crows.battlemap``), passes them to
the ``attack`` move as its situation, and publishes the move with the map's sources beside it.

The move itself goes through ``vtt.characters.services.move_make`` (one path: the sheet's new
state, the target's damage, a counterattack offered to the target's player, the ``move`` and
``move.details`` events); this module only adds what the map knows.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from systems.core.dice import Dice
from systems.core.outcome import Outcome
from systems.core.ruleset import RulesError
from systems.crows import battlemap as bm
from systems.crows import combat as crows_combat
from systems.crows.checks import SOURCES_BY_KEY
from systems.crows.conditions import condition_keys
from systems.crows.light import lit_items
from vtt.accounts.models import User
from vtt.campaigns.models import Role
from vtt.characters import services as character_services
from vtt.characters.models import Character, Kind, PendingMove
from vtt.core.errors import Conflict, Invalid, ServiceError, invalid_from_rules
from vtt.maps.fog import Fog
from vtt.maps.models import GridKind, Map, Token
from vtt.maps.selectors import parse_key, token_visible
from vtt.maps.services import _lock, can_move
from vtt.rulesets.crows import battle

PARTY = "party"
# a plain token's size from its space, for a grab's size check
# («Бой › Размеры существ»)
SIZE_BY_CELLS = {1: "medium", 2: "large", 3: "huge", 4: "colossal"}
ENEMIES = "enemies"


def _side(character: Character | None) -> str:
    """Who fights beside whom: player characters, and the referee's hirelings and pets, are the
    party; the referee's other creatures are its enemies; objects and plain tokens are neither
    (the map cannot know)."""
    if character is None:
        return ""
    kind = (character.state or {}).get("kind", "pc")
    if kind == "object":
        return ""
    if character.kind == Kind.PC or kind in ("hireling", "pet"):
        return PARTY
    return ENEMIES


def _body(token: Token) -> bm.Body:
    sheet = token.character.state if token.character_id else None
    conditions = frozenset(condition_keys(sheet)) if sheet else frozenset()
    return bm.Body(
        token.col, token.row, max(1, token.cells), name=token.name, conditions=conditions
    )


def board_for(m: Map, tokens: list[Token]) -> bm.Board:
    """The map's squares as the rules read them, with every carried light («Свет») on it."""
    walls, low, heights, light, concealment = set(), set(), {}, {}, {}
    for key, feature in (m.features or {}).items():
        cell = parse_key(key)
        if feature.get("cover") == "wall":
            walls.add(cell)
        elif feature.get("cover") == "low":
            low.add(cell)
        if feature.get("height"):
            heights[cell] = int(feature["height"])
        if feature.get("light"):
            light[cell] = feature["light"]
        if feature.get("concealment"):
            concealment[cell] = feature["concealment"]
    sources = []
    for token in tokens:
        if not token.character_id:
            continue
        for lamp in lit_items([token.character.state]):
            sources.append(bm.LightSource(_body(token), lamp["bright"], lamp["dim"]))
    return bm.Board(
        walls=frozenset(walls),
        low=frozenset(low),
        heights=heights,
        light=light,
        concealment=concealment,
        ambient=m.ambient_light,
        sources=tuple(sources),
    )


def _token(m: Map, tokens: dict[int, Token], token_id: Any, fog: Fog, role: str) -> Token:
    try:
        token = tokens.get(int(token_id))
    except (TypeError, ValueError):
        token = None
    if token is None or (role != Role.REFEREE and not token_visible(token, m, fog)):
        raise Invalid(_("No such token on this map."), code="no_token")
    return token


def _acting_token(
    m: Map, tokens: dict[int, Token], token_id: Any, fog: Fog, actor: User, role: str, *, what: str
) -> Token:
    """The token ``token_id`` names to act with (attack, grab), if this member may act with
    it. The referee acts with any token on the map. A player with their own characters'
    tokens: one they cannot see does not exist for them (404, as for an id that names
    nothing; their own they see under the fog too, as when they move it), another's they see
    is a 403, and their own under the fog cannot act from there (400)."""
    if role == Role.REFEREE:
        return _token(m, tokens, token_id, fog, role)
    try:
        token = tokens.get(int(token_id))
    except (TypeError, ValueError):
        token = None
    if token is None or not token_visible(token, m, fog, viewer_id=actor.pk):
        raise Invalid(_("No such token on this map."), code="no_token", status=404)
    if not can_move(token, user_id=actor.pk, role=role):
        message = (
            _("You may grab only with your own characters' tokens.")
            if what == "grab"
            else _("You may attack only with your own characters' tokens.")
        )
        raise ServiceError(message, code="not_owner", status=403)
    return _token(m, tokens, token.pk, fog, role)


def attack_authorize(*, map: Map, actor: User, role: str, attacker_token: Any) -> None:
    """May this member attack with the token the request names? Asked before the rest of the
    request is read (the API calls it first, then ``map_attack`` again with the map locked):
    another player's token is a 403, one the player cannot see a 404, whatever the target or
    the weapon. A value that is no token id is left for the request's own checks (400)."""
    if role == Role.REFEREE or not isinstance(attacker_token, int | str):
        return
    try:
        pk = int(attacker_token)
    except ValueError:
        return
    if isinstance(attacker_token, bool) or not 0 < pk < 2**63:  # no such row (nor SQL int)
        return
    token = Token.objects.filter(map=map, pk=pk).select_related("character").first()
    _acting_token(
        map, {pk: token} if token else {}, pk, Fog.for_map(map), actor, role, what="attack"
    )


def _attack_kind(sheet: dict[str, Any], weapon_id: str, attack: str) -> str:
    try:
        profile, _card = crows_combat.weapon_profile(sheet, weapon_id)
    except RulesError as exc:
        raise invalid_from_rules(exc, code="move_refused") from exc
    if attack:
        return attack
    return {"ranged": "ranged", "thrown": ""}.get(profile["type"], "melee")


def source_labels(keys: list[str]) -> list[dict[str, Any]]:
    """Sources as the table shows them: the rules' Russian and English names, and whether each
    is an advantage (+) or a disadvantage (−), doubled for darkness or heavy concealment."""
    out = []
    for key in keys:
        source = SOURCES_BY_KEY[key]
        out.append(
            {
                "key": key,
                "ru": source.ru,
                "en": source.en,
                "side": source.side,
                "weight": source.weight,
            }
        )
    return out


@transaction.atomic
def map_attack(
    *,
    map: Map,
    actor: User,
    role: str,
    attacker_token: Any,
    target_token: Any,
    weapon_id: str = "",
    attack: str = "",
    characteristic: str | None = None,
    dice: Dice | None = None,
) -> tuple[Outcome, PendingMove | None, dict[str, Any]]:
    """One attack from a token at a token. Players attack only with their own characters'
    tokens, at tokens they can see; the referee with any token that has a sheet. Returns the
    outcome, the choice it waits for (an expertise, or the target's counterattack) and what the
    map contributed (``context``, published with the move)."""
    m = _lock(map)
    if m.campaign.ruleset != "crows":
        raise Invalid(_("Attacks from the map follow the Crows rules."), code="not_crows")
    if m.kind != GridKind.SQUARE:
        raise Invalid(_("Attacks are made on square battle maps."), code="not_square")
    fog = Fog.for_map(m)
    tokens = {t.pk: t for t in Token.objects.filter(map=m).select_related("character")}
    # whose token attacks comes first: another player's is a 403 whatever else was asked
    attacker = _acting_token(m, tokens, attacker_token, fog, actor, role, what="attack")
    if attack not in ("", "melee", "ranged"):
        raise Invalid(_("An attack is melee or ranged."), fields={"attack": ["melee, ranged"]})
    target = _token(m, tokens, target_token, fog, role)
    if attacker.pk == target.pk:
        raise Invalid(_("Choose another token as the target."), code="same_token")
    if attacker.character_id is None:
        raise Invalid(
            _("Link the token to a character sheet first: the sheet makes the attack."),
            code="no_sheet",
        )
    # in a combat under way the attack is the attacker's action («Бой › Ход»): refused (409) when it
    # is not its turn or the action is spent; a target whose reaction is spent has no
    # counterattack to offer («Бой › Реакции»)
    turn_info = battle.check_action(m.campaign_id, attacker)
    kind = _attack_kind(attacker.character.state, weapon_id, attack)
    side = _side(attacker.character)
    allies = [
        _body(t)
        for t in tokens.values()
        if t.pk not in (attacker.pk, target.pk) and side and _side(t.character) == side
    ]
    board = board_for(m, list(tokens.values()))
    found = bm.situation(_body(attacker), _body(target), attack=kind, board=board, allies=allies)
    if found.cover == "full":
        raise Invalid(
            _("No line of effect: a wall hides %(name)s completely.") % {"name": target.name},
            code="no_line_of_effect",
        )
    params: dict[str, Any] = {
        "weapon_id": weapon_id,
        "attack": attack,
        "target_name": target.name,
        "combatant": f"t{target.pk}",  # the combat under way says if it is surprised
        **found.params(),
    }
    if characteristic:
        params["characteristic"] = characteristic
    if turn_info is not None:
        params["on_own_turn"] = turn_info["own_turn"]
        if battle.reaction_used(m.campaign_id, target):
            params["target_reaction_used"] = True
    context = {
        "map_id": m.pk,
        "attacker_token": attacker.pk,
        "target_token": target.pk,
        "target_name": target.name,
        "attack": kind,
        "distance": found.distance,
        "cover": found.cover,
        "light": found.light,
        "concealment": found.concealment,
        "high_ground": found.high_ground,
        "flanking": found.flanking,
        "sources": source_labels(found.sources(kind)),
    }
    outcome, follow = character_services.move_make(
        character=attacker.character,
        actor=actor,
        move="attack",
        params=params,
        target_id=target.character_id,
        dice=dice,
        context=context,
        # a token players cannot see makes the whole attack the referee's business
        hidden=not (token_visible(attacker, m, fog) and token_visible(target, m, fog)),
        routed=True,  # the map found the target's combatant: ``_combat_params`` keeps it
    )
    if turn_info is not None:
        _spend_attack(m, actor, turn_info["combatant"], f"t{target.pk}", outcome)
    return outcome, follow, {**context, "net": outcome.flags.get("net", 0)}


def _spend_attack(m: Map, actor: User, cid: str, target_cid: str, outcome: Outcome) -> None:
    """The attack's action in the combat, and a crit's extra action with it
    («Бой › Криты на атаках»)."""
    extra = bool(outcome.flags.get("extra_action"))

    def change(combat: dict[str, Any]) -> dict[str, Any]:
        new, _event = crows_combat.spend(combat, cid, "action")
        if extra:
            turn = new.get("turn")
            own = bool(turn and turn["combatant"] == cid)
            new, _event = crows_combat.grant_extra_action(new, cid, on_own_turn=own)
        return new

    battle.apply_to_combat(
        m=m,
        actor=actor,
        cid=cid,
        change=change,
        step={"type": "attacked", "target": target_cid, "extra_action": extra},
    )


@transaction.atomic
def map_grab(
    *,
    map: Map,
    actor: User,
    role: str,
    attacker_token: Any,
    target_token: Any,
    dice: Dice | None = None,
) -> tuple[Outcome, PendingMove | None, dict[str, Any]]:
    """Захват («Бой › Общие манёвры») from the map: a maneuver of the grabber's turn in a
    combat under way (409 when it is not its turn or no maneuver is left), the ``grab`` move rolled
    from its sheet at the target's sheet with the distance from the map; a 17+ keeps the hold in the
    combat (one grab at a time), a 1st tier opens the target's counterattack."""
    m = _lock(map)
    if m.campaign.ruleset != "crows" or m.kind != GridKind.SQUARE:
        raise Invalid(_("Grabs are made on square battle maps (Crows)."), code="not_square")
    fog = Fog.for_map(m)
    tokens = {t.pk: t for t in Token.objects.filter(map=m).select_related("character")}
    grabber = _acting_token(m, tokens, attacker_token, fog, actor, role, what="grab")
    target = _token(m, tokens, target_token, fog, role)
    if grabber.pk == target.pk:
        raise Invalid(_("Choose another token as the target."), code="same_token")
    if grabber.character_id is None:
        raise Invalid(
            _("Link the token to a character sheet first: the sheet makes the grab."),
            code="no_sheet",
        )
    combat, cid = battle.combatant_of(m.campaign_id, grabber)
    grabbing = ""
    if combat is not None:
        turn = combat.get("turn")
        me = crows_combat.combatant(combat, cid)
        if turn is None or turn["combatant"] != cid:
            raise Conflict(
                _("It is not %(name)s's turn: a grab waits for it.") % {"name": grabber.name},
                code="not_your_turn",
            )
        if crows_combat.turn_budget(turn)["maneuvers"] < 1:
            raise Conflict(
                _("%(name)s has no maneuver left this turn.") % {"name": grabber.name},
                code="no_maneuver_left",
            )
        held = tokens.get(battle.token_id(me["grabbing"]) or -1)
        grabbing = held.name if held is not None else ""
    params: dict[str, Any] = {
        "target_name": target.name,
        "distance": battle.squares_between(grabber, target),
        "grabbing": grabbing,
    }
    if battle.reaction_used(m.campaign_id, target):
        params["target_reaction_used"] = True
    if not target.character_id:
        params["target_size"] = SIZE_BY_CELLS.get(max(1, target.cells), "medium")
    context = {
        "map_id": m.pk,
        "attacker_token": grabber.pk,
        "target_token": target.pk,
        "target_name": target.name,
        "distance": params["distance"],
    }
    outcome, follow = character_services.move_make(
        character=grabber.character,
        actor=actor,
        move="grab",
        params=params,
        target_id=target.character_id,
        dice=dice,
        context=context,
        hidden=not (token_visible(grabber, m, fog) and token_visible(target, m, fog)),
    )
    if combat is not None:
        held = f"t{target.pk}" if outcome.flags.get("grabbing") else ""

        def change(c: dict[str, Any]) -> dict[str, Any]:
            new, _event = crows_combat.spend(c, cid, "maneuver")
            return crows_combat.set_grabbing(new, cid, held) if held else new

        battle.apply_to_combat(
            m=m,
            actor=actor,
            cid=cid,
            change=change,
            step={"type": "grabbed", "target": f"t{target.pk}", "held": bool(held)},
        )
    return outcome, follow, context


def _after_counterattack(
    *, character: Character, outcome: Outcome, actor: User, resolved: PendingMove | None
) -> None:
    """An answered counterattack («Бой › Контратака») spends the counterattacker's
    reaction for the round in a combat under way; one already spent refuses the answer (409, nothing
    changes)."""
    if resolved is None or not outcome.flags.get("counterattack"):
        return
    target = resolved.target
    if target is None:
        return
    for token in Token.objects.filter(
        character_id=target.pk, map__campaign_id=character.campaign_id, map__kind=GridKind.SQUARE
    ).select_related("map", "map__campaign", "character"):
        combat, cid = battle.combatant_of(character.campaign_id, token)
        if combat is None:
            continue
        battle.check_reaction(combat, cid)
        battle.apply_to_combat(
            m=token.map,
            actor=actor,
            cid=cid,
            change=lambda c, cid=cid: crows_combat.spend(c, cid, "reaction")[0],
            step={"type": "counterattacked"},
        )
        return


for _move in ("attack", "grab", "knockback", "escape"):
    character_services.register_outcome_hook("crows", _move, _after_counterattack)


def _target_combatant(character: Character, target: Character | None) -> str:
    """The combatant id of the target sheet's token in the combat under way, or ""."""
    if target is None:
        return ""
    for token in Token.objects.filter(
        character_id=target.pk, map__campaign_id=character.campaign_id, map__kind=GridKind.SQUARE
    ):
        combat, cid = battle.combatant_of(character.campaign_id, token)
        if combat is not None:
            return cid
    return ""


def _combat_params(
    *, character: Character, target: Character | None, params: dict[str, Any], routed: bool
) -> dict[str, Any]:
    """An attack (or a spell) reads surprise from the combat under way ("Застигнут
    врасплох"), never from the client: the server puts in the campaign's combat and, unless
    the map already found it (``routed``), the target sheet's own combatant id."""
    params = {**params, "combat": battle.current_combat(character.campaign_id)}
    if not routed:
        params["combatant"] = _target_combatant(character, target)
        if isinstance(params.get("targets"), list):
            params["targets"] = [
                {**t, "combatant": ""} if isinstance(t, dict) else t for t in params["targets"]
            ]
    return params


def _check_combat_params(
    *, character: Character, target: Character | None, params: dict[str, Any], routed: bool
) -> dict[str, Any]:
    """A check of the attack kind reads the same combat as the attack move."""
    return {
        **params,
        "combat": battle.current_combat(character.campaign_id),
        "target_combatant": _target_combatant(character, target),
    }


for _move in ("attack", "provoked_attack", "cast"):
    character_services.register_param_hook("crows", _move, _combat_params)
character_services.register_param_hook("crows", "check", _check_combat_params)
