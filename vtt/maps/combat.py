"""Attacks on the battle map (Crows, seed L576-L660, L777-L831): the client names the attacker's
token, the target's token and the weapon; the server reads cover, light, concealment, height
and the other tokens from the map (``systems.crows.battlemap``), passes them to the ``attack``
move as its situation, and publishes the move with the map's sources beside it.

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
from vtt.core.errors import Invalid, ServiceError, invalid_from_rules
from vtt.maps.fog import Fog
from vtt.maps.models import GridKind, Map, Token
from vtt.maps.selectors import parse_key, token_visible
from vtt.maps.services import _lock, can_move

PARTY = "party"
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
    """The map's squares as the rules read them, with every carried light (L578) on it."""
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
    if attack not in ("", "melee", "ranged"):
        raise Invalid(_("An attack is melee or ranged."), fields={"attack": ["melee, ranged"]})
    fog = Fog.for_map(m)
    tokens = {t.pk: t for t in Token.objects.filter(map=m).select_related("character")}
    attacker = _token(m, tokens, attacker_token, fog, role)
    target = _token(m, tokens, target_token, fog, role)
    if attacker.pk == target.pk:
        raise Invalid(_("Choose another token as the target."), code="same_token")
    if not can_move(attacker, user_id=actor.pk, role=role):
        raise ServiceError(
            _("You may attack only with your own characters' tokens."), code="not_owner", status=403
        )
    if attacker.character_id is None:
        raise Invalid(
            _("Link the token to a character sheet first: the sheet makes the attack."),
            code="no_sheet",
        )
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
        **found.params(),
    }
    if characteristic:
        params["characteristic"] = characteristic
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
    )
    return outcome, follow, {**context, "net": outcome.flags.get("net", 0)}
