"""Writes to the campaign-wide rules state (DESIGN.md, "One path for table state"): the one
home of a ruleset's state that belongs to the whole table rather than one sheet. What a ruleset
keeps there, who may make which move and its hooks come from its plugin
(``RulesetWeb.rules_state``; the Savage Worlds deck and pool, the Tales battle record).

Every write locks the campaign's ``TableState`` row (``select_for_update``), runs the move
through the ruleset (which validates the state and its parameters), saves the new state with a
new version, and publishes a ``tablestate`` event in the same transaction. Two deals racing
each other therefore queue on the lock: the second one sees the first one's deck and can never
deal a card that is already out.

Events (kind ``tablestate``) carry a snapshot that players may see (no draw order, no hidden
NPCs, no private bennies); when the referee's view differs, a second, ``blind`` event carries
the full snapshot, as the initiative tracker does.
"""

from __future__ import annotations

import copy
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from systems import get_ruleset
from systems.core.dice import Dice, RandomDice
from systems.core.outcome import Outcome
from systems.core.ruleset import RulesError
from vtt.accounts.models import User
from vtt.campaigns.models import Campaign, Role
from vtt.core.errors import Conflict, Invalid, ServiceError, invalid_from_rules
from vtt.rulesets.base import RULES_STATE_CONTROLLER, RULES_STATE_REFEREE, RulesState
from vtt.rulesets.registry import web_for
from vtt.table.models import Visibility as V
from vtt.table.services import Draft, publish, publish_many
from vtt.tablestate import selectors
from vtt.tablestate.models import TableState

REFEREE = RULES_STATE_REFEREE  # only the referee
CONTROLLER = RULES_STATE_CONTROLLER  # the referee, or a player with their own character


class NotSupported(ServiceError):
    status = 404
    code = "no_table_state"


def hooks(ruleset_key: str) -> RulesState | None:
    """What the ruleset's plugin declares about its campaign-wide rules state, if it keeps one."""
    return web_for(ruleset_key).rules_state()


def keeps_state(ruleset_key: str) -> bool:
    return hooks(ruleset_key) is not None


def supported(campaign: Campaign) -> bool:
    return keeps_state(campaign.ruleset)


def _declared(ruleset_key: str) -> RulesState:
    declared = hooks(ruleset_key)
    if declared is None:
        raise NotSupported(_("This ruleset keeps no table state."))
    return declared


def default_state(ruleset_key: str) -> dict[str, Any]:
    return _declared(ruleset_key).default(get_ruleset(ruleset_key))


def validate_state(ruleset_key: str, state: dict[str, Any]) -> dict[str, Any]:
    return _declared(ruleset_key).validate(get_ruleset(ruleset_key), state)


def _require_supported(campaign: Campaign) -> None:
    if not supported(campaign):
        raise NotSupported(_("This ruleset keeps no table state."))


def get_or_create_state(campaign: Campaign) -> TableState:
    """The campaign's row, created with the ruleset's fresh state on first use (read only)."""
    _require_supported(campaign)
    ts = TableState.objects.filter(campaign=campaign).first()
    if ts is None:
        ts = TableState(campaign=campaign, ruleset=campaign.ruleset)
        ts.state = default_state(campaign.ruleset)
    return ts


def lock_state(campaign: Campaign) -> TableState:
    """Lock the row for this transaction. Everything that reads the state to write it back
    goes through here, so two writers queue instead of both reading the same deck."""
    _require_supported(campaign)
    ts, _created = TableState.objects.select_for_update().get_or_create(
        campaign=campaign,
        defaults={"ruleset": campaign.ruleset, "state": default_state(campaign.ruleset)},
    )
    if ts.ruleset != campaign.ruleset:  # the campaign changed rulesets: start afresh
        ts.ruleset, ts.state, ts.meta = campaign.ruleset, default_state(campaign.ruleset), {}
    return ts


def save_state(ts: TableState, state: dict[str, Any]) -> None:
    ts.state = validate_state(ts.ruleset, state)
    ts.version += 1
    ts.save()


def move_role(ruleset_key: str, move: str) -> str | None:
    """``REFEREE``, ``CONTROLLER`` or ``None`` for a key that is no table move here."""
    declared = hooks(ruleset_key)
    return declared.roles.get(move) if declared is not None else None


# --- the entry point ----------------------------------------------------------------------


@transaction.atomic
def table_move(
    *,
    campaign: Campaign,
    actor: User,
    role: str,
    move: str,
    params: dict[str, Any] | None = None,
    version: int | None = None,
    dice: Dice | None = None,
) -> tuple[TableState, Outcome | None]:
    """Make one table move. ``version`` (optional) is the state the caller saw: a stale one is
    a 409, so a double click or a second referee tab never deals a second round by accident."""
    _require_supported(campaign)
    who = move_role(campaign.ruleset, move)
    if who is None:
        raise Invalid(_("No such table move here: %(m)s.") % {"m": move}, code="no_move")
    if who == REFEREE and role != Role.REFEREE:
        raise Conflict(_("Only the referee does this."), code="referee_only", status=403)
    params = dict(params or {})
    ts = lock_state(campaign)
    if version is not None and version != ts.version:
        raise Conflict(
            _("The table changed meanwhile (version %(v)d). Look again and retry.")
            % {"v": ts.version},
            code="stale_version",
            extra={"version": ts.version},
        )
    handler = _declared(campaign.ruleset).actions.get(move)
    dice = dice or RandomDice()
    if handler is not None:
        data, outcome = handler(ts=ts, campaign=campaign, actor=actor, role=role, params=params)
    else:
        data, outcome = _rule_move(
            ts=ts, campaign=campaign, actor=actor, role=role, move=move, params=params, dice=dice
        )
    publish_state(ts, actor=actor, action=move, data=data, outcome=outcome)
    return ts, outcome


def _resolve(
    ts: TableState, campaign: Campaign, move: str, *, dice: Dice, **params: Any
) -> Outcome:
    try:
        return get_ruleset(ts.ruleset).resolve(
            move, copy.deepcopy(ts.state), dice=dice, settings=campaign.rules or None, **params
        )
    except RulesError as exc:
        raise invalid_from_rules(exc, code="move_refused") from exc


def _rule_move(
    *,
    ts: TableState,
    campaign: Campaign,
    actor: User,
    role: str,
    move: str,
    params: dict[str, Any],
    dice: Dice,
) -> tuple[dict[str, Any], Outcome]:
    declared = _declared(ts.ruleset)
    prepare = declared.prepare.get(move)
    extra: dict[str, Any] = {}
    if prepare is not None:
        params, extra = prepare(ts=ts, campaign=campaign, actor=actor, role=role, params=params)
    if set(params) & {"state", "dice", "settings", "choices", "move"}:
        raise Invalid(_("Reserved parameter name."), code="bad_params")
    outcome = _resolve(ts, campaign, move, dice=dice, **params)
    save_state(ts, outcome.state)
    after = declared.after.get(move)
    data = dict(extra)
    if after is not None:
        data.update(after(ts=ts, campaign=campaign, actor=actor, outcome=outcome, extra=extra))
        ts.save(update_fields=["meta", "updated_at"])
    return data, outcome


# --- publishing -----------------------------------------------------------------------------


def _public_outcome(outcome: Outcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {
        "move": outcome.move,
        "total": outcome.total,
        "band": outcome.band,
        "faces": list(outcome.faces),
        "modifier": outcome.modifier,
        "text": outcome.text.as_dict(),
        "flags": {k: v for k, v in outcome.flags.items() if isinstance(v, bool | int | str)},
    }


def _named_outcome(
    ts: TableState, outcome: Outcome | None, *, players: bool
) -> dict[str, Any] | None:
    """The outcome as its readers see it: the plugin may name the participants its rules list
    by id (``RulesState.name_outcome``), the players' copy only those they may see."""
    data = _public_outcome(outcome)
    name = _declared(ts.ruleset).name_outcome
    if data is None or name is None:
        return data
    text = name(ts, outcome, players=players)
    return {**data, "text": text} if text is not None else data


def publish_state(
    ts: TableState,
    *,
    actor: User,
    action: str,
    data: dict[str, Any],
    outcome: Outcome | None,
    hidden: bool = False,
    single: bool = False,
) -> None:
    """One copy per audience: the players' (public snapshot, ``players``) and the referee's
    (full snapshot, ``blind``) when their views differ (hidden NPCs, every sheet's bennies),
    one copy for everyone when they do not. Each copy is its reader's one log line. A hidden
    action goes to the referee alone; ``single`` (a spend inside a move) sends only the public
    copy, to everyone."""
    data = {k: v for k, v in data.items() if not k.startswith("_")}
    public = selectors.snapshot(ts, referee=False)
    full = selectors.snapshot(ts, referee=True)
    payload = {
        "ruleset": ts.ruleset,
        "action": action,
        "version": ts.version,
        "data": data,
        "outcome": _named_outcome(ts, outcome, players=False),
        "full": False,
        "log": True,
    }
    if hidden:
        publish(
            campaign=ts.campaign_id,
            kind="tablestate",
            payload={**payload, "snapshot": full, "full": True},
            actor=actor,
            visibility=V.BLIND,
        )
        return
    players = {**payload, "outcome": _named_outcome(ts, outcome, players=True), "snapshot": public}
    if single or (full == public and players["outcome"] == payload["outcome"]):
        publish(campaign=ts.campaign_id, kind="tablestate", payload=players, actor=actor)
        return
    drafts = [
        Draft("tablestate", {**players, "audience": "players"}, V.PLAYERS),
        Draft(
            "tablestate",
            {**payload, "snapshot": full, "full": True, "audience": "referee"},
            V.BLIND,
        ),
    ]
    publish_many(campaign=ts.campaign_id, events=drafts, actor=actor)
