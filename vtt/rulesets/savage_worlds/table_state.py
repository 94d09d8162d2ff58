"""The Savage Worlds table state: the action deck, the GM's benny pool and every benny spent.

The rows, the lock and the log are the generic campaign-wide rules state's
(``vtt.tablestate``); this module declares the moves, who may make them, their hooks and what
each viewer may see (players never see the draw pile or its order, the discards, hidden NPCs or
other players' bennies).
"""

from __future__ import annotations

import copy
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from systems.core.dice import Dice
from systems.core.outcome import Outcome
from systems.savage_worlds import bennies as sw_bennies
from systems.savage_worlds import deck as dk
from systems.savage_worlds.sheet import ATTRIBUTES
from vtt.accounts.models import User
from vtt.campaigns.models import Campaign, Membership, Role
from vtt.characters import services as character_services
from vtt.characters.models import Character, Kind, PendingMove
from vtt.core.errors import Conflict, Invalid
from vtt.rulesets.base import RULES_STATE_REFEREE as REFEREE
from vtt.rulesets.base import RulesState
from vtt.tablestate.models import TableState
from vtt.tablestate.services import (
    NotSupported,
    get_or_create_state,
    lock_state,
    publish_state,
    save_state,
)

KEY = "savage_worlds"
MAX_PARTICIPANTS = 40
NAME_MAX = 50
POOL_DELTA_MAX = 99  # one change of the bennies pool
POOL_MAX = 999
OWN_BENNY = {"reroll", "soak"}
POOL_BENNY = {"reroll_pool", "soak_pool"}


def pid_for(character_id: int) -> str:
    """A sheet's participant id on the deck."""
    return f"c{character_id}"


def extra_pid(name: str) -> str:
    """A named group of extras without a sheet (one card for the whole group)."""
    return "x:" + " ".join(name.split()).casefold()[:57]


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


def snapshot(ts, chars: list[Character], *, referee: bool) -> dict[str, Any]:
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
        "ruleset": KEY,
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


def mine(ts, chars: list[Character], *, referee: bool) -> list[dict[str, Any]]:
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


def _start_session_params(*, ts, campaign, actor, role, params):
    if params:
        raise Invalid(_("This move takes no parameters."), code="bad_params")
    chars = _sw_characters(campaign)
    return {"characters": [sw_sheet(c) for c in chars]}, {"_chars": chars}


def _start_session_after(*, ts, campaign, actor, outcome, extra):
    """«Фишки»; «Фишки ведущего»: each sheet gets its session bennies; only the count is written
    back."""
    for character, sheet in zip(extra["_chars"], outcome.details["characters"], strict=True):
        _set_bennies(character, actor, sheet["bennies"], "session:start")
    ts.meta["session"] = True
    return {"pool": ts.state["pool"], "pcs": sum(1 for c in extra["_chars"] if c.kind == Kind.PC)}


_end_session_params = _start_session_params


def _end_session_after(*, ts, campaign, actor, outcome, extra):
    """«Фишки ведущего»: every unused benny is lost, the players' and the GM's."""
    for character, sheet in zip(extra["_chars"], outcome.details["characters"], strict=True):
        _set_bennies(character, actor, sheet["bennies"], "session:end")
    ts.meta["session"] = False
    return {}


def _start_combat_after(*, ts, campaign, actor, outcome, extra):
    ts.meta["combat"] = True
    ts.meta["dealt"] = {}
    return {}


def _end_combat_after(*, ts, campaign, actor, outcome, extra):
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
            pid = pid_for(pk)
        else:
            name = " ".join(str(item.get("name") or "").split())[:NAME_MAX]
            if not name:
                raise Invalid(
                    _("Name the group of extras."), fields={"participants": [_("A name.")]}
                )
            entry = {"name": name, "hidden": bool(item.get("hidden"))}
            pid = extra_pid(name)
        if pid in seen:
            raise Invalid(
                _("A participant is listed twice."), fields={"participants": [_("Twice.")]}
            )
        seen.add(pid)
        clean.append(entry)
    return clean


def _deal_round_params(*, ts, campaign, actor, role, params):
    unknown = set(params) - {"participants"}
    if unknown:
        raise Invalid(_("Unknown parameters: %(p)s.") % {"p": ", ".join(sorted(unknown))})
    characters = {c.pk: c for c in Character.objects.filter(campaign=campaign)}
    raw = params.get("participants")
    if raw is None:
        # The last selection in its order, then sheets made since (unless dead).
        selected = selected_ids(list(characters.values()), ts.meta)
        raw = [
            p
            for p in ts.meta.get("participants") or []
            if p.get("character_id") is None or p["character_id"] in characters
        ]
        seen = {p.get("character_id") for p in raw}
        raw += [
            {"character_id": pk} for pk in characters if pk not in seen and pid_for(pk) in selected
        ]
    chosen = _clean_participants(campaign, raw, characters)
    rules_participants = []
    dealt: dict[str, dict[str, Any]] = {}
    for entry in chosen:
        if "character_id" in entry:
            c = characters[entry["character_id"]]
            pid = pid_for(c.pk)
            rules_participants.append({"id": pid, "edge": card_edge(c.state)})
            dealt[pid] = {"name": c.name, "character_id": c.pk, "hidden": c.hidden}
        else:
            pid = extra_pid(entry["name"])
            rules_participants.append({"id": pid, "edge": ""})
            dealt[pid] = {"name": entry["name"], "character_id": None, "hidden": entry["hidden"]}
    ts.meta["participants"] = chosen
    ts.meta["known"] = [pid_for(pk) for pk in characters]
    return {"participants": rules_participants}, {"_dealt": dealt}


def _deal_round_after(*, ts, campaign, actor, outcome, extra):
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


def _adjust_pool(*, ts, campaign, actor, role, params):
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
    save_state(ts, state)
    return {"pool": state["pool"], "delta": delta}, None


def pool(campaign: Campaign) -> int:
    """The GM's pool as the table keeps it (for a move that needs ``pool``)."""
    ts = TableState.objects.filter(campaign=campaign).first()
    return int(ts.state.get("pool", 0)) if ts and campaign.ruleset == KEY else 0


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
    return lock_state(campaign)


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
        save_state(ts, state)
    data = {
        "character_id": character.pk,
        "name": character.name,
        "purpose": purpose,
        "source": source,
        "move": move,
        "pool": ts.state["pool"],
    }
    publish_state(
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
    ts = lock_state(campaign)
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
    publish_state(
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
    if campaign.ruleset != KEY:
        raise NotSupported(_("Bennies are a Savage Worlds rule."))
    pending = PendingMove.objects.filter(character=character, pk=pending_id).first()
    if pending is None:
        raise Invalid(_("No such choice is waiting."), code="no_pending", status=404)
    outcome, follow = character_services.move_choose(
        pending=pending, actor=actor, role=role, choices=[choice], dice=dice
    )
    character.refresh_from_db()
    return outcome, follow, get_or_create_state(campaign)


def name_outcome(ts: TableState, outcome: Outcome, *, players: bool) -> dict[str, str] | None:
    """A deal's text from the rules lists participants by their ids ("Round 1: c12 (A♥),
    x:ambush (7♣)."); the log names them, and the players' copy lists only those they may see
    (hidden NPCs and hidden groups of extras left out), as their snapshot does."""
    if outcome.move != "deal_round":
        return None
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
    return text


def panel_config(campaign: Campaign) -> dict[str, Any]:
    """The limits the panel's inputs carry, read from the constants this module checks."""
    return {"limits": {"name": NAME_MAX}}


RULES_STATE = RulesState(
    procedures="table",
    panel_title=gettext_lazy("Action deck"),
    roles={
        "start_session": REFEREE,
        "end_session": REFEREE,
        "start_combat": REFEREE,
        "deal_round": REFEREE,
        "end_combat": REFEREE,
        "adjust_pool": REFEREE,
    },
    prepare={
        "start_session": _start_session_params,
        "end_session": _end_session_params,
        "deal_round": _deal_round_params,
    },
    after={
        "start_session": _start_session_after,
        "end_session": _end_session_after,
        "start_combat": _start_combat_after,
        "end_combat": _end_combat_after,
        "deal_round": _deal_round_after,
    },
    actions={"adjust_pool": _adjust_pool},
    snapshot=snapshot,
    mine=mine,
    name_outcome=name_outcome,
    panel_config=panel_config,
)
