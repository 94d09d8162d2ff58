"""Writes to the table-wide rules state (DESIGN.md, "One path for table state").

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
from vtt.campaigns.models import Campaign, Membership, Role
from vtt.characters import services as character_services
from vtt.characters.models import Character, Kind, PendingMove
from vtt.core.errors import Conflict, Invalid, ServiceError, invalid_from_rules
from vtt.table.models import Visibility as V
from vtt.table.services import Draft, publish, publish_many
from vtt.tablestate import selectors
from vtt.tablestate.models import TableState

SAVAGE = "savage_worlds"
TALES = "tales"
SUPPORTED: dict[str, str] = {SAVAGE: "table", TALES: "battle"}

REFEREE = "referee"  # only the referee
CONTROLLER = "controller"  # the referee, or a player with their own character

# Web-side actions next to the rules' own table moves.
WEB_ACTIONS: dict[str, dict[str, str]] = {
    SAVAGE: {"adjust_pool": REFEREE},
    TALES: {"reset_battle": REFEREE},
}
# Who may make each of the rules' table/battle moves. Tactics is a character's skill (L304),
# so its player may roll it; everything else steers the deck, the session or the battle.
RULE_MOVE_ROLES: dict[str, dict[str, str]] = {
    SAVAGE: {
        "start_session": REFEREE,
        "end_session": REFEREE,
        "start_combat": REFEREE,
        "deal_round": REFEREE,
        "end_combat": REFEREE,
    },
    TALES: {
        "surprise": REFEREE,
        "tactics": CONTROLLER,
        "initiative": REFEREE,
        "next_side": REFEREE,
    },
}
MAX_PARTICIPANTS = 40
NAME_MAX = 50
POOL_DELTA_MAX = 99  # one change of the bennies pool
POOL_MAX = 999
OWN_BENNY = {"reroll", "soak"}
POOL_BENNY = {"reroll_pool", "soak_pool"}


class NotSupported(ServiceError):
    status = 404
    code = "no_table_state"


def supported(campaign: Campaign) -> bool:
    return campaign.ruleset in SUPPORTED


def default_state(ruleset_key: str) -> dict[str, Any]:
    ruleset = get_ruleset(ruleset_key)
    if SUPPORTED[ruleset_key] == "table":
        return ruleset.default_table()
    return ruleset.default_battle()


def validate_state(ruleset_key: str, state: dict[str, Any]) -> dict[str, Any]:
    ruleset = get_ruleset(ruleset_key)
    if SUPPORTED[ruleset_key] == "table":
        return ruleset.validate_table(state)
    return ruleset.validate_battle(state)


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


def _lock(campaign: Campaign) -> TableState:
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


def _save(ts: TableState, state: dict[str, Any]) -> None:
    ts.state = validate_state(ts.ruleset, state)
    ts.version += 1
    ts.save()


def move_role(ruleset_key: str, move: str) -> str | None:
    """``REFEREE``, ``CONTROLLER`` or ``None`` for a key that is no table move here."""
    return RULE_MOVE_ROLES.get(ruleset_key, {}).get(move) or WEB_ACTIONS.get(ruleset_key, {}).get(
        move
    )


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
    ts = _lock(campaign)
    if version is not None and version != ts.version:
        raise Conflict(
            _("The table changed meanwhile (version %(v)d). Look again and retry.")
            % {"v": ts.version},
            code="stale_version",
            extra={"version": ts.version},
        )
    handler = globals()[f"_{campaign.ruleset}_{move}"] if move in _web(campaign) else None
    dice = dice or RandomDice()
    if handler is not None:
        data, outcome = handler(ts=ts, campaign=campaign, actor=actor, role=role, params=params)
    else:
        data, outcome = _rule_move(
            ts=ts, campaign=campaign, actor=actor, role=role, move=move, params=params, dice=dice
        )
    _publish(ts, actor=actor, action=move, data=data, outcome=outcome)
    return ts, outcome


def _web(campaign: Campaign) -> dict[str, str]:
    return WEB_ACTIONS.get(campaign.ruleset, {})


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
    prepare = globals().get(f"_{ts.ruleset}_{move}_params")
    extra: dict[str, Any] = {}
    if prepare is not None:
        params, extra = prepare(ts=ts, campaign=campaign, actor=actor, role=role, params=params)
    if set(params) & {"state", "dice", "settings", "choices", "move"}:
        raise Invalid(_("Reserved parameter name."), code="bad_params")
    outcome = _resolve(ts, campaign, move, dice=dice, **params)
    _save(ts, outcome.state)
    after = globals().get(f"_{ts.ruleset}_{move}_after")
    data = dict(extra)
    if after is not None:
        data.update(after(ts=ts, campaign=campaign, actor=actor, outcome=outcome, extra=extra))
        ts.save(update_fields=["meta", "updated_at"])
    return data, outcome


# --- Savage Worlds: bennies and the action deck ---------------------------------------------


def _sw_characters(campaign: Campaign) -> list[Character]:
    return list(Character.objects.select_for_update().filter(campaign=campaign).order_by("id"))


def sw_sheet(character: Character) -> dict[str, Any]:
    """The sheet as the rules should read it: who is a player's character is the record's
    kind (an NPC made from a PC template still counts as the GM's)."""
    sheet = copy.deepcopy(character.state)
    sheet["role"] = "npc" if character.kind == Kind.NPC else "pc"
    if character.kind == Kind.PC:
        sheet["wild_card"] = True
    return sheet


def _set_bennies(character: Character, actor: User, value: int, reason: str) -> None:
    if character.state.get("bennies") == value:
        return
    state = copy.deepcopy(character.state)
    state["bennies"] = value
    character_services.character_update(
        character=character, actor=actor, state=state, version=character.version, reason=reason
    )
    character.refresh_from_db()


def _savage_worlds_start_session_params(*, ts, campaign, actor, role, params):
    if params:
        raise Invalid(_("This move takes no parameters."), code="bad_params")
    chars = _sw_characters(campaign)
    return {"characters": [sw_sheet(c) for c in chars]}, {"_chars": chars}


def _savage_worlds_start_session_after(*, ts, campaign, actor, outcome, extra):
    """L77, L93-L95: each sheet gets its session bennies; only the count is written back."""
    for character, sheet in zip(extra["_chars"], outcome.details["characters"], strict=True):
        _set_bennies(character, actor, sheet["bennies"], "session:start")
    ts.meta["session"] = True
    return {"pool": ts.state["pool"], "pcs": sum(1 for c in extra["_chars"] if c.kind == Kind.PC)}


_savage_worlds_end_session_params = _savage_worlds_start_session_params


def _savage_worlds_end_session_after(*, ts, campaign, actor, outcome, extra):
    """L95: every unused benny is lost, the players' and the GM's."""
    for character, sheet in zip(extra["_chars"], outcome.details["characters"], strict=True):
        _set_bennies(character, actor, sheet["bennies"], "session:end")
    ts.meta["session"] = False
    return {}


def _savage_worlds_start_combat_after(*, ts, campaign, actor, outcome, extra):
    ts.meta["combat"] = True
    ts.meta["dealt"] = {}
    return {}


def _savage_worlds_end_combat_after(*, ts, campaign, actor, outcome, extra):
    ts.meta["combat"] = False
    ts.meta["dealt"] = {}
    return {}


def _clean_participants(
    campaign: Campaign, raw: Any, characters: dict[int, Character]
) -> list[dict[str, Any]]:
    """The referee's selection: ``[{"character_id": 3}, {"name": "Волки", "hidden": true}]``.
    A group of extras is one participant (one card)."""
    if not isinstance(raw, list):
        raise Invalid(_("Participants are a list."), fields={"participants": [_("A list.")]})
    if not raw:
        raise Invalid(
            _("Choose who takes part in the fight."),
            code="no_participants",
            fields={"participants": [_("At least one.")]},
        )
    if len(raw) > MAX_PARTICIPANTS:
        raise Invalid(
            _("At most %(n)d participants.") % {"n": MAX_PARTICIPANTS},
            fields={"participants": [str(MAX_PARTICIPANTS)]},
        )
    clean: list[dict[str, Any]] = []
    seen: set[str] = set()
    for item in raw:
        if not isinstance(item, dict):
            raise Invalid(_("Each participant is an object."), fields={"participants": ["{}"]})
        if item.get("character_id") is not None:
            try:
                pk = int(item["character_id"])
            except (TypeError, ValueError):
                pk = -1
            if pk not in characters:
                raise Invalid(
                    _("No such character in this campaign."),
                    code="no_character",
                    fields={"participants": [str(item.get("character_id"))]},
                )
            entry = {"character_id": pk}
            pid = selectors.pid_for(pk)
        else:
            name = " ".join(str(item.get("name") or "").split())[:NAME_MAX]
            if not name:
                raise Invalid(
                    _("Name the group of extras."), fields={"participants": [_("A name.")]}
                )
            entry = {"name": name, "hidden": bool(item.get("hidden"))}
            pid = selectors.extra_pid(name)
        if pid in seen:
            raise Invalid(
                _("A participant is listed twice."), fields={"participants": [_("Twice.")]}
            )
        seen.add(pid)
        clean.append(entry)
    return clean


def _savage_worlds_deal_round_params(*, ts, campaign, actor, role, params):
    unknown = set(params) - {"participants"}
    if unknown:
        raise Invalid(_("Unknown parameters: %(p)s.") % {"p": ", ".join(sorted(unknown))})
    characters = {c.pk: c for c in Character.objects.filter(campaign=campaign)}
    raw = params.get("participants")
    if raw is None:
        # The last selection in its order, then sheets made since (unless dead).
        selected = selectors.selected_ids(list(characters.values()), ts.meta)
        raw = [
            p
            for p in ts.meta.get("participants") or []
            if p.get("character_id") is None or p["character_id"] in characters
        ]
        seen = {p.get("character_id") for p in raw}
        raw += [
            {"character_id": pk}
            for pk in characters
            if pk not in seen and selectors.pid_for(pk) in selected
        ]
    chosen = _clean_participants(campaign, raw, characters)
    rules_participants = []
    dealt: dict[str, dict[str, Any]] = {}
    for entry in chosen:
        if "character_id" in entry:
            c = characters[entry["character_id"]]
            pid = selectors.pid_for(c.pk)
            rules_participants.append({"id": pid, "edge": selectors.card_edge(c.state)})
            dealt[pid] = {"name": c.name, "character_id": c.pk, "hidden": c.hidden}
        else:
            pid = selectors.extra_pid(entry["name"])
            rules_participants.append({"id": pid, "edge": ""})
            dealt[pid] = {"name": entry["name"], "character_id": None, "hidden": entry["hidden"]}
    ts.meta["participants"] = chosen
    ts.meta["known"] = [selectors.pid_for(pk) for pk in characters]
    return {"participants": rules_participants}, {"_dealt": dealt}


def _savage_worlds_deal_round_after(*, ts, campaign, actor, outcome, extra):
    """Remember who was dealt in (names survive a deleted sheet). SWADE's joker bennies (a
    campaign setting) go to every player character and to the GM's wild cards dealt in."""
    ts.meta["combat"] = True
    ts.meta["dealt"] = extra["_dealt"]
    details = outcome.details
    if details.get("joker_bennies"):
        dealt_ids = {d["character_id"] for d in extra["_dealt"].values() if d["character_id"]}
        for c in _sw_characters(campaign):
            wild = c.kind == Kind.PC or (c.pk in dealt_ids and c.state.get("wild_card"))
            if wild:
                _set_bennies(c, actor, min(99, int(c.state.get("bennies", 0)) + 1), "joker")
    return {
        "round": details["round"],
        "shuffled": details["shuffled"],
        "joker": bool(details["jokers"]),
        "joker_bennies": bool(details.get("joker_bennies")),
    }


def _savage_worlds_adjust_pool(*, ts, campaign, actor, role, params):
    """The referee corrects the GM's pool by hand (a pool benny spent outside the table
    panel, an award the book allows)."""
    try:
        delta = int(params.get("delta", 0))
    except (TypeError, ValueError):
        delta = 0
    if set(params) - {"delta"} or not -POOL_DELTA_MAX <= delta <= POOL_DELTA_MAX or delta == 0:
        raise Invalid(
            _("Change the pool by -%(max)d to %(max)d.") % {"max": POOL_DELTA_MAX},
            fields={"delta": [f"-{POOL_DELTA_MAX}..{POOL_DELTA_MAX}"]},
        )
    state = copy.deepcopy(ts.state)
    state["pool"] = max(0, min(POOL_MAX, state["pool"] + delta))
    _save(ts, state)
    return {"pool": state["pool"], "delta": delta}, None


def pool(campaign: Campaign) -> int:
    """The GM's pool as the table keeps it (for a move that needs ``pool``)."""
    ts = TableState.objects.filter(campaign=campaign).first()
    return int(ts.state.get("pool", 0)) if ts and campaign.ruleset == SAVAGE else 0


# --- bennies spent from a sheet: every path comes through here ------------------------------
#
# A benny can be spent from the table panel (``benny_choice``), from the generic pending-choice
# endpoint (``characters.services.move_choose``) or with the sheet's "spend a benny" action
# (``characters.services.move_make``). All three call the hooks below, so a pool benny comes
# off the table's pool exactly once, under the table row's lock, and the log says so. Locks are
# always taken table row first, then the sheet: two spends queue instead of deadlocking, and
# the second one sees the pool the first one left.


def _offered(outcome: dict[str, Any], choice: str) -> bool:
    return choice in {o.get("key") for o in outcome.get("options") or []}


def _role_of(campaign: Campaign, actor: User) -> str | None:
    return (
        Membership.objects.filter(campaign=campaign, user=actor).values_list("role", flat=True)
    ).first()


def choice_spend(choices: Any, outcome: dict[str, Any]) -> str | None:
    """``"own"`` or ``"pool"`` when answering ``outcome`` with ``choices`` spends a benny."""
    if not isinstance(choices, list) or len(choices) != 1 or not isinstance(choices[0], str):
        return None
    choice = choices[0]
    if choice not in OWN_BENNY | POOL_BENNY or not _offered(outcome, choice):
        return None
    return "pool" if choice in POOL_BENNY else "own"


def lock_for_spend(campaign: Campaign) -> TableState:
    """Lock the table row before the sheet's (see above)."""
    return _lock(campaign)


def spend_benny(
    ts: TableState,
    *,
    actor: User,
    role: str | None,
    character: Character,
    source: str,
    purpose: str,
    move: str,
) -> None:
    """Record one benny spent for ``character``: a pool benny comes off the table's pool (the
    referee's only; 409 when the pool is empty); either kind goes into the table log."""
    if source == "pool":
        if role != Role.REFEREE:
            raise Conflict(_("Only the referee spends the GM's pool."), code="referee_only")
        if ts.state["pool"] <= 0:
            raise Conflict(_("The GM's pool is empty: no benny left to spend."), code="pool_empty")
        state = copy.deepcopy(ts.state)
        state["pool"] -= 1
        _save(ts, state)
    data = {
        "character_id": character.pk,
        "name": character.name,
        "purpose": purpose,
        "source": source,
        "move": move,
        "pool": ts.state["pool"],
    }
    _publish(
        ts,
        actor=actor,
        action="benny",
        data=data,
        outcome=None,
        hidden=character.hidden,
        single=True,
    )


def before_choice(
    *,
    campaign: Campaign,
    actor: User,
    role: str,
    character: Character,
    pending: PendingMove,
    choices: Any,
    ts: TableState | None,
) -> dict[str, Any]:
    """Pay for a benny choice before the re-roll it buys (``ts`` is the locked row when the
    choice spends). Returns the pending outcome to continue, with the pool it counts set to
    the table's, so the next offer of a pool re-roll matches what is really left."""
    outcome = copy.deepcopy(pending.outcome)
    source = choice_spend(choices, outcome)
    if source is not None and ts is not None:
        choice = choices[0]
        spend_benny(
            ts,
            actor=actor,
            role=role,
            character=character,
            source=source,
            purpose="soak" if choice.startswith("soak") else "reroll",
            move=pending.move,
        )
        current = ts.state["pool"] + (1 if source == "pool" else 0)  # the rules take it off
    else:
        current = pool(campaign)
    flow = (outcome.get("details") or {}).get("pending")
    if isinstance(flow, dict) and "pool" in flow:
        flow["pool"] = current
    return outcome


def before_move(
    *, campaign: Campaign, actor: User, move: str, params: dict[str, Any], spec: dict[str, Any]
) -> TableState | None:
    """Before a sheet move: the GM's pool the move may spend from is the table's, whatever
    the caller sent. A ``spend_benny`` from the pool locks the table row first (then the sheet)
    and is refused with 409 when the pool is empty. Returns the locked row, if any."""
    if "pool" in (spec.get("params") or {}):
        params["pool"] = pool(campaign)
    if not (move == "spend_benny" and params.get("source") == "pool"):
        return None
    ts = _lock(campaign)
    if _role_of(campaign, actor) != Role.REFEREE:
        raise Conflict(_("Only the referee spends the GM's pool."), code="referee_only")
    if ts.state["pool"] <= 0:
        raise Conflict(_("The GM's pool is empty: no benny left to spend."), code="pool_empty")
    params["pool"] = ts.state["pool"]
    return ts


def after_move(
    *,
    campaign: Campaign,
    actor: User,
    character: Character,
    move: str,
    outcome: Outcome,
    ts: TableState | None,
) -> None:
    """Book a ``spend_benny`` action: the pool benny it took, or the sheet's own, into the log."""
    if move != "spend_benny":
        return
    source = outcome.flags.get("source")
    if source == "pool" and ts is None:  # pragma: no cover - move_make locks first
        raise Conflict(_("The table changed meanwhile. Try again."), code="retry")
    purpose = outcome.flags.get("purpose", "")
    purpose = {"trait_reroll": "reroll", "soak": "soak"}.get(purpose, "spend")
    spend_benny(
        ts if ts is not None else get_or_create_state(campaign),
        actor=actor,
        role=_role_of(campaign, actor),
        character=character,
        source=source,
        purpose=purpose,
        move=move,
    )


def injury_rolled(*, actor: User, character: Character, injury: dict[str, Any]) -> None:
    """[published edition] Put an Injury Table roll into the table log (a hidden NPC's to the
    referee only). Reads the table row without locking it: the sheet is locked already, and
    nothing here writes the table."""
    ts = get_or_create_state(character.campaign)
    data = {
        "character_id": character.pk,
        "name": character.name,
        "faces": list(injury.get("faces") or []),
        "sub_face": injury.get("sub_face"),
        "total": injury.get("total"),
        "called": bool(injury.get("called")),
        "location": injury.get("location"),
        "result": injury.get("key"),
        "label": injury.get("label"),
        "change": injury.get("change"),
        "duration": injury.get("duration"),
        "duration_label": injury.get("duration_label"),
    }
    _publish(
        ts,
        actor=actor,
        action="injury",
        data=data,
        outcome=None,
        hidden=character.hidden,
        single=True,
    )


@transaction.atomic
def benny_choice(
    *,
    campaign: Campaign,
    actor: User,
    role: str,
    character: Character,
    pending_id: int,
    choice: str,
    dice: Dice | None = None,
) -> tuple[Outcome, PendingMove | None, TableState]:
    """Answer a Savage Worlds pending choice (keep / reroll / reroll_pool, accept / soak /
    soak_pool) from the table. The characters service does the work (and pays through the
    hooks above), exactly as the generic pending endpoint does."""
    if campaign.ruleset != SAVAGE:
        raise NotSupported(_("Bennies are a Savage Worlds rule."))
    pending = PendingMove.objects.filter(character=character, pk=pending_id).first()
    if pending is None:
        raise Invalid(_("No such choice is waiting."), code="no_pending", status=404)
    outcome, follow = character_services.move_choose(
        pending=pending, actor=actor, role=role, choices=[choice], dice=dice
    )
    character.refresh_from_db()
    return outcome, follow, get_or_create_state(campaign)


# --- Tales: the battle record ---------------------------------------------------------------


def _tales_tactics_params(*, ts, campaign, actor, role, params):
    unknown = set(params) - {"character_id", "bonus"}
    if unknown:
        raise Invalid(_("Unknown parameters: %(p)s.") % {"p": ", ".join(sorted(unknown))})
    character = (
        Character.objects.select_for_update()
        .filter(campaign=campaign, pk=params.get("character_id") or 0)
        .first()
    )
    if character is None or (character.hidden and role != Role.REFEREE):
        raise Invalid(
            _("Choose who uses Tactics."), code="no_character", fields={"character_id": ["?"]}
        )
    if role != Role.REFEREE and character.owner_id != actor.pk:
        raise Conflict(
            _("Players use Tactics with their own characters."), code="not_owner", status=403
        )
    try:
        bonus = int(params.get("bonus") or 0)
    except (TypeError, ValueError):
        bonus = 0
    return (
        {"character": copy.deepcopy(character.state), "bonus": bonus},
        {"_character": character, "character_id": character.pk, "name": character.name},
    )


def _tales_tactics_after(*, ts, campaign, actor, outcome, extra):
    """A check may use up a one-shot bonus on the sheet; keep the sheet in step."""
    character = extra["_character"]
    sheet = outcome.details.get("character")
    if isinstance(sheet, dict) and sheet != character.state:
        character_services.character_update(
            character=character,
            actor=actor,
            state=sheet,
            version=character.version,
            reason="move:tactics",
        )
    return {"success": outcome.band == "success"}


def _tales_reset_battle(*, ts, campaign, actor, role, params):
    if params:
        raise Invalid(_("This move takes no parameters."), code="bad_params")
    _save(ts, default_state(TALES))
    return {}, None


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
    """The outcome as its readers see it. A deal's text from the rules lists participants by
    their ids ("Round 1: c12 (A♥), x:ambush (7♣)."); the log names them, and the players' copy
    lists only those they may see (hidden NPCs and hidden groups of extras left out), as their
    snapshot does."""
    data = _public_outcome(outcome)
    if data is None or outcome.move != "deal_round":
        return data
    dealt = (ts.meta or {}).get("dealt") or {}
    order = outcome.details.get("initiative") or []
    shown = [e for e in order if not (players and dealt.get(e["id"], {}).get("hidden"))]
    number = outcome.details.get("round")
    text = {}
    for lang, word in (("ru", "Раунд"), ("en", "Round")):
        cards = ", ".join(
            f"{dealt.get(e['id'], {}).get('name') or e['id']} ({e['label'][lang]})" for e in shown
        )
        text[lang] = f"{word} {number}: {cards}." if cards else f"{word} {number}."
    return {**data, "text": text}


def _publish(
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
