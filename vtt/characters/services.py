"""Sheet writes: validated by the ruleset, versioned, recorded, and published to the table."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from systems import get_ruleset
from systems.core.dice import Dice, RandomDice
from systems.core.outcome import Outcome, outcome_from_dict
from systems.core.ruleset import RulesError
from systems.core.schema import OPPONENT
from vtt.accounts.models import User
from vtt.campaigns.models import Campaign, Membership, Role
from vtt.characters.models import Character, CharacterChange, Kind, PendingMove
from vtt.characters.selectors import character_row
from vtt.characters.visibility import public_keys, public_state
from vtt.core.errors import Conflict, Invalid, ServiceError, invalid_from_rules
from vtt.rulesets.registry import web_for
from vtt.table.models import Visibility as V
from vtt.table.services import Draft, publish, publish_many

EXPORT_FORMAT = "vtt-character"
EXPORT_VERSION = 1
IMPORT_MAX_BYTES = 512 * 1024  # an exported sheet is a few KB
MAX_CHARACTERS = 500
NAME_MAX = Character._meta.get_field("name").max_length  # the column is the limit
REASON_MAX = CharacterChange._meta.get_field("reason").max_length


# Keyword names the server passes to a ruleset itself; a caller's move parameters may not use them.
RESERVED_PARAMS = frozenset({"move", "state", "dice", "settings", "choices"})


def _validate(character_or_ruleset: Character | str, kind: str, state: dict) -> dict:
    key = (
        character_or_ruleset
        if isinstance(character_or_ruleset, str)
        else (character_or_ruleset.ruleset)
    )
    validate = web_for(key).sheet_validator(kind)
    if not isinstance(state, dict):
        raise Invalid(_("A sheet is a JSON object."), fields={"state": [_("Expected an object.")]})
    try:
        return validate(state)
    except RulesError as exc:
        raise invalid_from_rules(exc, code="invalid_sheet") from exc


def _default(ruleset_key: str, kind: str) -> dict:
    return web_for(ruleset_key).default_sheet(kind)


def _table(ruleset_key: str) -> Any:
    """The services of a table-wide benny pool that moves spend from (the ruleset's plugin
    gives them, imported late: they import this module), else ``None``."""
    return web_for(ruleset_key).benny_pool()


def _rules_state(character: Character) -> dict:
    """The sheet as the rules should read it: through the ruleset's NPC (or PC) validation
    where it has one (for Savage Worlds that makes the record's kind the sheet's role)."""
    state = copy.deepcopy(character.state)
    hook = web_for(character.ruleset).sheet_rules_hook(character.kind)
    if hook is not None:
        try:
            state = hook(state)
        except RulesError as exc:
            raise invalid_from_rules(exc, code="invalid_sheet") from exc
    return state


def diff(before: Any, after: Any, path: str = "") -> list[dict[str, Any]]:
    """Changed leaves as ``{"path", "from", "to"}`` (lists compare as wholes)."""
    if isinstance(before, dict) and isinstance(after, dict):
        changes: list[dict[str, Any]] = []
        for key in sorted(set(before) | set(after), key=str):
            sub = f"{path}.{key}" if path else str(key)
            changes += diff(before.get(key), after.get(key), sub)
        return changes
    return [] if before == after else [{"path": path, "from": before, "to": after}]


def _visibility(character: Character) -> str:
    return V.BLIND if character.hidden else V.EVERYONE


def _publish_sheet(character: Character, actor: User | None, kind: str, changes: list) -> None:
    shown = set(public_keys(character.ruleset, character.kind))
    publish(
        campaign=character.campaign_id,
        kind=kind,
        payload={
            "character_id": character.pk,
            "name": character.name,
            "kind": character.kind,
            "owner_id": character.owner_id,
            "version": character.version,
            "public": public_state(character.ruleset, character.state, character.kind),
            "changed": sorted({c["path"].split(".")[0] for c in changes} & shown),
        },
        actor=actor,
        visibility=_visibility(character),
    )


def _save_version(
    character: Character, *, actor: User | None, new_state: dict, reason: str
) -> list[dict[str, Any]]:
    changes = diff(character.state, new_state)
    if not changes:
        return []
    character.state = new_state
    character.name = str(new_state.get("name") or character.name)[:NAME_MAX] or character.name
    character.version += 1
    character.save(update_fields=["state", "name", "version", "updated_at"])
    CharacterChange.objects.create(
        character=character,
        version=character.version,
        actor=actor,
        reason=reason[:REASON_MAX],
        diff=changes,
        state=new_state,
    )
    _publish_sheet(character, actor, "character.updated", changes)
    return changes


@transaction.atomic
def character_create(
    *,
    campaign: Campaign,
    actor: User,
    role: str,
    name: str,
    kind: str = Kind.PC,
    state: dict | None = None,
    owner_id: int | None = None,
    hidden: bool = False,
) -> Character:
    name = " ".join((name or "").split())[:NAME_MAX]
    if not name:
        raise Invalid(_("Give the character a name."), fields={"name": [_("Required.")]})
    if kind not in Kind.values:
        raise Invalid(_("Kind is pc or npc."), fields={"kind": ["pc, npc"]})
    if role != Role.REFEREE:
        if kind == Kind.NPC or hidden:
            raise Invalid(_("Only the referee creates NPCs."), code="npc_referee_only")
        owner_id = actor.pk
    elif kind == Kind.PC and owner_id is None:
        owner_id = actor.pk
    if (
        owner_id is not None
        and not Membership.objects.filter(campaign=campaign, user_id=owner_id).exists()
    ):
        raise Invalid(_("The owner must be a member of the campaign."), code="owner_not_member")
    if Character.objects.filter(campaign=campaign).count() >= MAX_CHARACTERS:
        raise Conflict(
            _("A campaign holds at most %(max)d sheets.") % {"max": MAX_CHARACTERS},
            code="too_many_characters",
        )
    full = _default(campaign.ruleset, kind)
    full.update(copy.deepcopy(state or {}))
    if "name" in full or "name" in _default(campaign.ruleset, kind):
        full["name"] = name
    full = _validate(campaign.ruleset, kind, full)
    character = Character.objects.create(
        campaign=campaign,
        owner_id=owner_id if kind == Kind.PC else None,
        kind=kind,
        ruleset=campaign.ruleset,
        name=name,
        state=full,
        hidden=hidden and kind == Kind.NPC,
    )
    CharacterChange.objects.create(
        character=character, version=1, actor=actor, reason="create", diff=[], state=full
    )
    _publish_sheet(character, actor, "character.created", [])
    return character


@transaction.atomic
def character_update(
    *,
    character: Character,
    actor: User,
    state: dict,
    version: int,
    reason: str = "edit",
    hidden: bool | None = None,
) -> Character:
    """Save a whole new state written against ``version``; a stale version is a 409 that carries
    the current sheet, so the page can offer to reload or merge. Nothing is silently lost."""
    character = Character.objects.select_for_update().get(pk=character.pk)
    if version != character.version:
        raise Conflict(
            _("Someone saved this sheet first (version %(v)d). Reload or merge your changes.")
            % {"v": character.version},
            code="stale_version",
            extra={"version": character.version, "state": character.state},
        )
    new_state = _validate(character, character.kind, state)
    if hidden is not None and character.kind == Kind.NPC and hidden != character.hidden:
        character.hidden = hidden
        character.save(update_fields=["hidden"])
    _save_version(character, actor=actor, new_state=new_state, reason=reason)
    return character


@transaction.atomic
def character_revert(*, character: Character, actor: User, to_version: int) -> Character:
    character = Character.objects.select_for_update().get(pk=character.pk)
    target = CharacterChange.objects.filter(character=character, version=to_version).first()
    if target is None:
        raise Invalid(_("No such version."), code="no_version")
    if to_version == character.version:
        return character
    _save_version(
        character,
        actor=actor,
        new_state=_validate(character, character.kind, target.state),
        reason=f"revert:{to_version}",
    )
    return character


@transaction.atomic
def character_delete(*, character: Character, actor: User) -> None:
    visibility = _visibility(character)
    payload = {"character_id": character.pk, "name": character.name}
    campaign_id = character.campaign_id
    character.delete()
    publish(
        campaign=campaign_id,
        kind="character.deleted",
        payload=payload,
        actor=actor,
        visibility=visibility,
    )


def character_export(character: Character) -> dict[str, Any]:
    return {
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_VERSION,
        "ruleset": character.ruleset,
        "kind": character.kind,
        "name": character.name,
        "version": character.version,
        "exported_at": timezone.now().isoformat(),
        "state": character.state,
    }


def character_import(*, campaign: Campaign, actor: User, role: str, data: Any) -> Character:
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise Invalid(_("This is not a VTT character file."), code="bad_format")
    if data.get("format_version") != EXPORT_VERSION:
        raise Invalid(
            _("Unsupported character file version %(v)s.") % {"v": data.get("format_version")},
            code="bad_format_version",
        )
    if data.get("ruleset") != campaign.ruleset:
        raise Invalid(
            _("The character is for another ruleset (%(r)s).") % {"r": data.get("ruleset")},
            code="wrong_ruleset",
        )
    return character_create(
        campaign=campaign,
        actor=actor,
        role=role,
        name=str(data.get("name") or ""),
        kind=data.get("kind") or Kind.PC,
        state=data.get("state") or {},
    )


# --- moves at the table ------------------------------------------------------------------

# A reaction or choice that belongs to the move's target (a counterattack,
# «Бой › Контратака») is answered by the target's player, or the referee;
# ``PendingMove.chooser`` is then "target".
TARGET_CHOOSER = "target"
# Outcome hooks: (ruleset, move) → callables run after a move or choice is applied, in the same
# transaction (e.g. the travel day keeps the campaign's travel state in step with role checks).
OutcomeHook = Callable[..., None]
_OUTCOME_HOOKS: dict[tuple[str, str], list[OutcomeHook]] = {}
# Moves that read campaign state the client must not supply, made only through their own
# service (``routed=True``), never from the sheet's generic move endpoint.
_ROUTED_MOVES: set[tuple[str, str]] = set()


def register_outcome_hook(
    ruleset: str, move: str, hook: OutcomeHook, *, routed: bool = False
) -> None:
    """Run ``hook(character=, outcome=, actor=, resolved=)`` after every outcome of ``move``
    (``resolved`` is the PendingMove just answered, or None). ``routed``: the move may only be
    made by a service that passes ``routed=True`` to ``move_make``."""
    hooks = _OUTCOME_HOOKS.setdefault((ruleset, move), [])
    if hook not in hooks:
        hooks.append(hook)
    if routed:
        _ROUTED_MOVES.add((ruleset, move))


# Parameter hooks: (ruleset, move) → callables that set the parameters only the server knows
# (the combat under way), over anything the client sent, before the rules resolve the move.
ParamHook = Callable[..., dict[str, Any]]
_PARAM_HOOKS: dict[tuple[str, str], list[ParamHook]] = {}


def register_param_hook(ruleset: str, move: str, hook: ParamHook) -> None:
    """Run ``hook(character=, target=, params=, routed=) -> params`` before every ``move``
    of ``ruleset`` is resolved (``routed``: a service made it, not the sheet's endpoint)."""
    hooks = _PARAM_HOOKS.setdefault((ruleset, move), [])
    if hook not in hooks:
        hooks.append(hook)


_ACTION_KEYS: dict[str, frozenset[str]] = {}


def _action_keys(ruleset_key: str) -> frozenset[str]:
    """The keys of the ruleset's sheet actions (bookkeeping, not rolled moves); computed once
    per process, as ``describe()`` is pure and costs up to tens of milliseconds."""
    if ruleset_key not in _ACTION_KEYS:
        described = get_ruleset(ruleset_key).describe()
        _ACTION_KEYS[ruleset_key] = frozenset(a["key"] for a in described.get("actions", []))
    return _ACTION_KEYS[ruleset_key]


_MOVE_SPECS: dict[str, dict[str, dict[str, Any]]] = {}


def _move_spec(ruleset_key: str, move: str) -> dict[str, Any]:
    """The move's or action's description (read only). Indexed once per process like
    ``_action_keys``: describing a ruleset was a fifth of a sheet move's CPU."""
    specs = _MOVE_SPECS.get(ruleset_key)
    if specs is None:
        described = get_ruleset(ruleset_key).describe()
        specs = {}
        for spec in [*described.get("moves", []), *described.get("actions", [])]:
            specs.setdefault(spec["key"], spec)  # the first of a key, as the scan found it
        _MOVE_SPECS[ruleset_key] = specs
    if move not in specs:
        raise Invalid(_("No such move in this ruleset: %(m)s.") % {"m": move}, code="no_move")
    return specs[move]


def _names(spec: dict[str, Any]) -> dict[str, str]:
    return {"ru": spec.get("ru", spec["key"]), "en": spec.get("en", spec["key"])}


def _public_outcome(outcome: Outcome) -> dict[str, Any]:
    """What everyone at the table sees of a move: the roll and its result, not the details
    (which can hold a monster's hit points or a private sheet)."""
    data = outcome.as_dict()
    return {
        k: data[k]
        for k in (
            "move",
            "total",
            "band",
            "faces",
            "modifier",
            "options",
            "pick",
            "chooser",
            "text",
            "flags",
            "pending",
        )
    }


def _lock_target(campaign: Campaign, target_id: int | None) -> Character | None:
    if target_id is None:
        return None
    target = Character.objects.select_for_update().filter(campaign=campaign, pk=target_id).first()
    if target is None:
        raise Invalid(_("No such target in this campaign."), code="no_target")
    return target


def _is_reaction(outcome: Outcome) -> bool:
    """Does the waiting choice belong to someone other than the mover (a counterattack)?"""
    step = outcome.details.get("pending") or {}
    return bool(outcome.flags.get("reaction_by")) and step.get("kind") not in (None, "expertise")


def _chooser(outcome: Outcome, target: Character | None) -> str:
    """Who answers the choice: the rules say player, referee or the opponent; a reaction of a
    target that is a player's character, or the opponent's pick (the player character on the
    other side of a fight between players), goes to that player (or the referee), any other
    reaction or opponent's pick to the referee."""
    chooser = outcome.chooser or "player"
    if chooser == "referee":
        return chooser
    if chooser != OPPONENT and not _is_reaction(outcome):
        return chooser
    if target is not None and target.kind == Kind.PC and target.owner_id is not None:
        return TARGET_CHOOSER
    return "referee"


def _apply_outcome(
    *,
    character: Character,
    target: Character | None,
    actor: User,
    outcome: Outcome,
    spec: dict,
    pending: PendingMove | None,
    context: dict[str, Any] | None = None,
    hidden: bool = False,
    dice: Dice | None = None,
) -> PendingMove | None:
    reason = f"move:{spec['key']}"
    if outcome.state and outcome.state != character.state:
        _save_version(character, actor=actor, new_state=outcome.state, reason=reason)
    new_target = outcome.details.get("target") if target is not None else None
    if isinstance(new_target, dict) and new_target != target.state:
        _save_version(
            target, actor=actor, new_state=_validate(target, target.kind, new_target), reason=reason
        )
    if pending is not None:
        pending.resolved_at = timezone.now()
        pending.save(update_fields=["resolved_at"])
    follow = None
    chooser = _chooser(outcome, target) if outcome.pending else None
    if outcome.pending:
        follow = PendingMove.objects.create(
            character=character,
            move=spec["key"],
            outcome=outcome.as_dict(),
            chooser=chooser,
            actor=actor,
            target=target,
        )
    public = _public_outcome(outcome)
    payload = {
        "character_id": character.pk,
        "character_name": character.name,
        "move_name": _names(spec),
        "pending_id": follow.pk if follow else None,
        "resolves": pending.pk if pending else None,
        "outcome": public,
    }
    if chooser is not None:
        # who answers as the table decided: the rules' "opponent" is the target's player or
        # the referee, never the mover (the page reads it from here)
        public["chooser"] = chooser
    if chooser == TARGET_CHOOSER:
        payload["chooser_id"] = target.owner_id
        payload["chooser_character_id"] = target.pk
    if context:
        payload["context"] = context
    hidden = hidden or character.hidden or bool(target and target.hidden)
    visibility = V.BLIND if hidden else V.EVERYONE
    # The move, its reaction and its details go into the log under one cursor lock and one
    # INSERT (two statements, not two per event), in the order they always had.
    drafts = [Draft("move", payload, visibility)]
    if chooser == TARGET_CHOOSER and visibility == V.BLIND:
        # a hidden creature's move still asks the target's player for a reaction: they get
        # the choice alone, without the mover's name or roll
        reaction = {
            "pending_id": follow.pk,
            "chooser_id": target.owner_id,
            "chooser_character_id": target.pk,
            "character_name": target.name,
            "move_name": _names(spec),
            "outcome": {
                "options": public["options"],
                "pick": public["pick"],
                "chooser": TARGET_CHOOSER,
                "text": public["text"],
            },
        }
        drafts.append(Draft("move.reaction", reaction, V.WHISPER, target.owner))
    table = _table(character.ruleset)
    injury = outcome.details.get("injury")
    if table is not None and isinstance(injury, dict):
        publish_many(campaign=character.campaign_id, events=drafts, actor=actor)
        drafts = []  # the injury's own events come between the move and its details
        table.injury_rolled(actor=actor, character=character, injury=injury)
    if outcome.details:
        details = {
            "character_id": character.pk,
            "details": outcome.details,
            "pending_id": follow.pk if follow else None,
        }
        drafts.append(Draft("move.details", details, V.BLIND))
    publish_many(campaign=character.campaign_id, events=drafts, actor=actor)
    for hook in _OUTCOME_HOOKS.get((character.ruleset, spec["key"]), []):
        hook(character=character, outcome=outcome, actor=actor, resolved=pending)
    _follow_moves(character=character, target=target, actor=actor, outcome=outcome, dice=dice)
    return follow


def _follow_moves(
    *,
    character: Character,
    target: Character | None,
    actor: User,
    outcome: Outcome,
    dice: Dice | None,
) -> None:
    """Make the moves the rules say follow at once (``details["follow_moves"]``: City of
    Judas, a character hurt in a conflict rolls Take Damage): with the same dice, on this
    move's sheet (``"self"``) or its target's, the other one as their target."""
    if outcome.pending or target is None:
        return
    for step in outcome.details.get("follow_moves", []):
        subject, other = (character, target) if step["subject"] == "self" else (target, character)
        move_make(
            character=subject,
            actor=actor,
            move=step["move"],
            params=step["params"],
            target_id=other.pk,
            dice=dice,
            routed=True,
        )


@transaction.atomic
def move_make(
    *,
    character: Character,
    actor: User,
    move: str,
    params: dict[str, Any] | None = None,
    target_id: int | None = None,
    dice: Dice | None = None,
    context: dict[str, Any] | None = None,
    hidden: bool = False,
    routed: bool = False,
) -> tuple[Outcome, PendingMove | None]:
    """Make a move from a sheet. ``context`` is published with the move (e.g. what the map
    found for an attack); ``hidden`` makes its events the referee's only; ``routed`` is how a
    service makes a move that reads campaign state (see ``register_outcome_hook``)."""
    spec = _move_spec(character.ruleset, move)
    if move in _party_moves(character.ruleset):
        raise Invalid(
            _("This move acts on the whole party: make it from the party panel at the table."),
            code="party_move",
        )
    if (character.ruleset, move) in _ROUTED_MOVES and not routed:
        raise Invalid(
            _("This move is made from its own panel at the table, not from the sheet."),
            code="routed_move",
        )
    params = dict(params or {})
    if set(params) & RESERVED_PARAMS:
        raise Invalid(_("Reserved parameter name."), code="bad_params")
    if target_id is not None and target_id == character.pk:
        # The sheet would be saved twice as two objects: both writes claim the same version.
        raise Invalid(_("A move cannot target the sheet that makes it."), code="self_target")
    # The API's authorisation read the campaign moments ago (with the membership): reuse it.
    campaign = (
        character.campaign
        if Character.campaign.is_cached(character)
        else Campaign.objects.get(pk=character.campaign_id)
    )
    table = _table(campaign.ruleset)
    # The table row (a benny pool) is locked before the sheet, as every benny path does.
    ts = (
        table.before_move(campaign=campaign, actor=actor, move=move, params=params, spec=spec)
        if table is not None
        else None
    )
    # Only the sheet's row: locking the campaign row too would deadlock against any event
    # append (which holds the log cursor, then needs a key-share lock on the campaign for its
    # FK).
    locked = character_row(character.pk, lock=True)
    if locked is None:
        raise Character.DoesNotExist("the sheet was deleted")
    locked._state.fields_cache["campaign"] = campaign
    character = locked
    if spec.get("subject") == "npc" and character.kind != Kind.NPC:
        raise Invalid(_("This move is made on an NPC sheet."), code="npc_move")
    target = _lock_target(character.campaign, target_id)
    if target is not None:
        params["target"] = copy.deepcopy(target.state)
    for hook in _PARAM_HOOKS.get((character.ruleset, move), []):
        params = hook(character=character, target=target, params=params, routed=routed)
    if character.kind == Kind.NPC and target is None and move in _action_keys(character.ruleset):
        # What the referee does to an NPC's own sheet (damage taken, hit points, conditions)
        # is the referee's business like the sheet itself: its text says "HP: 4". An NPC's
        # moves, and its actions at someone (a counterattack), stay at the table.
        hidden = True
    ruleset = get_ruleset(character.ruleset)
    dice = dice or RandomDice()
    try:
        outcome = ruleset.resolve(
            move,
            _rules_state(character),
            dice=dice,
            settings=character.campaign.rules or None,
            **params,
        )
    except RulesError as exc:
        raise invalid_from_rules(exc, code="move_refused") from exc
    if table is not None:
        table.after_move(
            campaign=campaign, actor=actor, character=character, move=move, outcome=outcome, ts=ts
        )
    follow = _apply_outcome(
        character=character,
        target=target,
        actor=actor,
        outcome=outcome,
        spec=spec,
        pending=None,
        context=context,
        hidden=hidden,
        dice=dice,
    )
    return outcome, follow


def may_choose(pending: PendingMove, *, user_id: int, role: str) -> bool:
    """The referee answers every choice; a player their own character's, and a reaction of
    their character that a move targeted (``chooser == "target"``)."""
    if role == Role.REFEREE:
        return True
    if pending.chooser == "referee" or role != Role.PLAYER:
        return False
    if pending.chooser == TARGET_CHOOSER:
        target = pending.target
        return target is not None and target.owner_id == user_id
    return pending.character.owner_id == user_id


def choice_authorize(*, pending: PendingMove, actor: User, role: str) -> None:
    """A 403 that says who answers this waiting choice, unless this member may
    (``may_choose``). Asked before the answer is read: the API calls it first, then
    ``move_choose`` again with the choice locked."""
    if may_choose(pending, user_id=actor.pk, role=role):
        return
    if role != Role.PLAYER:
        raise ServiceError(_("Observers make no choices."), code="forbidden", status=403)
    if pending.chooser == TARGET_CHOOSER:
        target = pending.target
        raise ServiceError(
            _("Only the player of %(name)s (or the referee) answers this reaction.")
            % {"name": target.name if target else "?"},
            code="reaction_owner",
            status=403,
        )
    if pending.chooser == "referee":
        raise ServiceError(_("The referee makes this choice."), code="referee_chooses", status=403)
    raise ServiceError(
        _("The character's player makes this choice."), code="player_chooses", status=403
    )


@transaction.atomic
def move_choose(
    *, pending: PendingMove, actor: User, role: str, choices: list[str], dice: Dice | None = None
) -> tuple[Outcome, PendingMove | None]:
    campaign = Campaign.objects.get(characters__pk=pending.character_id)
    table = _table(campaign.ruleset)
    ts = None
    if table is not None:
        # A choice that spends a benny locks the table row before the sheet (every benny path
        # takes the locks in this order), so two spends from the pool queue on it.
        unlocked = PendingMove.objects.get(pk=pending.pk)
        if table.choice_spend(choices, unlocked.outcome) is not None:
            ts = table.lock_for_spend(campaign)
    pending = PendingMove.objects.select_for_update().select_related("character").get(pk=pending.pk)
    choice_authorize(pending=pending, actor=actor, role=role)
    if pending.resolved_at is not None:
        raise Conflict(_("This choice was already made."), code="already_chosen")
    character = Character.objects.select_for_update().get(pk=pending.character_id)
    if not isinstance(choices, list) or not all(isinstance(c, str) for c in choices):
        raise Invalid(_("Choices are a list of option keys."), code="bad_choices")
    target = Character.objects.select_for_update().filter(pk=pending.target_id).first()
    spec = _move_spec(character.ruleset, pending.move)
    ruleset = get_ruleset(character.ruleset)
    waiting = pending.outcome
    if table is not None:
        waiting = table.before_choice(
            campaign=campaign,
            actor=actor,
            role=role,
            character=character,
            pending=pending,
            choices=choices,
            ts=ts,
        )
    dice = dice or RandomDice()
    try:
        outcome = ruleset.apply_choice(outcome_from_dict(waiting), choices, dice=dice)
    except RulesError as exc:
        raise invalid_from_rules(exc, code="choice_refused") from exc
    follow = _apply_outcome(
        character=character,
        target=target,
        actor=actor,
        outcome=outcome,
        spec=spec,
        pending=pending,
        dice=dice,
    )
    return outcome, follow


def move_odds(character: Character, move: str, params: dict[str, Any]) -> dict[str, float]:
    """Exact chances before rolling. ``params`` come from the caller: the names the server
    passes itself are refused, as in ``move_make`` (they used to collide: a 500)."""
    _move_spec(character.ruleset, move)
    if set(params) & RESERVED_PARAMS:
        raise Invalid(_("Reserved parameter name."), code="bad_params")
    try:
        return get_ruleset(character.ruleset).odds(
            move,
            copy.deepcopy(character.state),
            settings=character.campaign.rules or None,
            **params,
        )
    except RulesError as exc:
        raise invalid_from_rules(exc, code="move_refused") from exc


def record_procedure_result(character: Character, new_state: dict, *, reason: str) -> None:
    """Save a state produced by a table procedure (e.g. the end of a dungeon turn)."""
    _save_version(character, actor=None, new_state=new_state, reason=reason)


# --- party moves ------------------------------------------------------------------------------

MAX_PARTY = 12
_PARTY_MOVES: dict[str, dict[str, dict[str, Any]]] = {}


def _party_moves(ruleset_key: str) -> dict[str, dict[str, Any]]:
    """The ruleset's party moves (``describe()["party_moves"]``), read once per process."""
    if ruleset_key not in _PARTY_MOVES:
        _PARTY_MOVES[ruleset_key] = dict(get_ruleset(ruleset_key).describe().get("party_moves", {}))
    return _PARTY_MOVES[ruleset_key]


def _party_ids(character_ids: Any) -> list[int]:
    if (
        not isinstance(character_ids, list)
        or not character_ids
        or len(character_ids) > MAX_PARTY
        or not all(isinstance(i, int) and not isinstance(i, bool) for i in character_ids)
        or len(set(character_ids)) != len(character_ids)
    ):
        message = _("Name from 1 to %(n)d different characters of the party.") % {"n": MAX_PARTY}
        raise Invalid(message, code="bad_party", fields={"character_ids": [message]})
    return character_ids


_DIGITS = re.compile(r"[0-9]{1,18}")


def _not_yours() -> ServiceError:
    return ServiceError(
        _(
            "In a party move you may put only your own characters on watch or in a role; "
            "the referee may name anyone."
        ),
        code="not_your_character",
        status=403,
    )


def party_move_authorize(
    *, campaign: Campaign, actor: User, role: str, move: str, params: Any
) -> dict[str, Any]:
    """May this member make this party move with these parameters? Asked before the request
    is read any further (the API calls it first, then ``party_move_make`` again under its
    transaction). Returns the move's spec.

    The referee names anyone. A player names only their own characters to roll (the ones
    the ruleset's ``party_actors`` reads from the parameters: Take Watch's watcher, Perilous
    Journey's role holders); the other sheets a move merely carries along (the camp that
    takes +1 forward) may be anyone's they can see. A value that cannot name a sheet is left
    for the rules to refuse (400)."""
    if role not in (Role.REFEREE, Role.PLAYER):
        raise ServiceError(_("Observers make no moves."), code="forbidden", status=403)
    spec = _party_moves(campaign.ruleset).get(move)
    if spec is None:
        raise Invalid(_("No such party move in this ruleset: %(m)s.") % {"m": move}, code="no_move")
    if role == Role.REFEREE:
        return spec
    # a ruleset without ``party_actors`` still has its rolls checked in ``party_move_make``
    actors = getattr(get_ruleset(campaign.ruleset), "party_actors", None)
    named = actors(move, params if isinstance(params, dict) else {}) if actors else []
    ids = {int(key) for key in named if _DIGITS.fullmatch(key)}
    own = Character.objects.filter(campaign=campaign, pk__in=ids, owner=actor, kind=Kind.PC)
    if len(ids) != own.count():
        raise _not_yours()
    return spec


@transaction.atomic
def party_move_make(
    *,
    campaign: Campaign,
    actor: User,
    role: str,
    move: str,
    character_ids: list[int],
    params: dict[str, Any] | None = None,
    dice: Dice | None = None,
) -> dict[str, Any]:
    """A move one hero rolls that acts on the party (Dungeon World's Take Watch, Perilous
    Journey): the ruleset's ``party_move`` gets every sheet named, keyed by its id, and every
    sheet it changes is saved, versioned and published in this one transaction.

    The referee makes any party move; a player one in which only characters of theirs roll
    (``party_move_authorize``). Players name only the sheets they can see."""
    spec = party_move_authorize(campaign=campaign, actor=actor, role=role, move=move, params=params)
    ids = _party_ids(character_ids)
    params = dict(params or {})
    if set(params) & RESERVED_PARAMS:
        raise Invalid(_("Reserved parameter name."), code="bad_params")
    rows = Character.objects.select_for_update().filter(campaign=campaign, pk__in=ids, kind=Kind.PC)
    if role != Role.REFEREE:
        rows = rows.filter(hidden=False)
    characters = {str(c.pk): c for c in rows.order_by("pk")}
    if len(characters) != len(ids):
        raise Invalid(_("No such character in this campaign."), code="no_character")
    party = {key: _rules_state(c) for key, c in characters.items()}
    try:
        result = get_ruleset(campaign.ruleset).party_move(
            move, party, dice=dice or RandomDice(), settings=campaign.rules or None, **params
        )
    except RulesError as exc:
        raise invalid_from_rules(exc, code="move_refused") from exc
    if role != Role.REFEREE and not all(
        characters[key].owner_id == actor.pk for key in result.rollers
    ):
        # the rolls themselves, should the ruleset's ``party_actors`` have missed one: raised
        # before anything is saved or published, so the transaction rolls the roll back
        raise _not_yours()
    reason = f"party:{move}"
    for key, sheet in result.characters.items():
        character = characters[key]
        _save_version(
            character,
            actor=actor,
            new_state=_validate(character, character.kind, sheet),
            reason=reason,
        )
    hidden = any(c.hidden for c in characters.values())
    drafts = []
    for key, outcome in result.rolls:
        character = characters[key]
        payload = {
            "character_id": character.pk,
            "character_name": character.name,
            "move_name": _names(_move_spec(campaign.ruleset, outcome.move)),
            "pending_id": None,
            "resolves": None,
            "outcome": _public_outcome(outcome),
            "context": {"party_move": move},
        }
        drafts.append(Draft("move", payload, V.BLIND if character.hidden else V.EVERYONE))
    summary = {
        "move": move,
        "move_name": {"ru": spec.get("ru", move), "en": spec.get("en", move)},
        "character_ids": [c.pk for c in characters.values()],
        "rollers": [int(key) for key in result.rollers],
        # not "summary" or "text": the log shows those as a line of text
        "result": result.summary,
    }
    drafts.append(Draft("party.move", summary, V.BLIND if hidden else V.EVERYONE))
    publish_many(campaign=campaign, events=drafts, actor=actor)
    return {
        **summary,
        "outcomes": [
            {"character_id": int(key), "outcome": _public_outcome(out)} for key, out in result.rolls
        ],
        "versions": {c.pk: c.version for c in characters.values()},
    }
