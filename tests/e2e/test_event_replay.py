"""Issue 19, in the spirit of Zulip's event tests: for every event kind, the state a browser
builds from the page it loaded plus the live events equals the state of a freshly loaded page.

For each ruleset's demo campaign the referee and a player keep the table open while the
referee and the player act through the API the page itself calls (the same commands the
socket runs). Once both browsers have applied everything, each region of the page (the log,
the map with its tokens, fog, notes, terrain and party marker, the clock, the initiative, the
deck or battle panel, the party moves, the Crows strips) is read into plain data; the page is
reloaded and read again, and the two must be equal, for the referee and for the player.

Every kind in ``vtt/table/kinds.py`` is either exercised by a scenario here (``SCENARIOS``:
the test also checks that the scenario really published it) or listed in ``EXEMPT`` with the
reason; a new kind fails ``test_every_kind_is_replayed_or_exempt`` until it is one or the other
(docs/table-protocol.md, "Replaying events in a browser").

The demo campaigns are shared with other browser tests: the scenario makes its own map and
character and puts the table's map back as it was.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import expect

from systems import RULESET_KEYS, get_ruleset
from systems.crows.inventory import place
from systems.crows.items import make_item
from tests.e2e.conftest import login, register_secret
from tests.e2e.test_player_leak_scan import call, open_table
from vtt.table import kinds as registry

# Kinds no scenario publishes, and why a fresh page and a live one cannot differ by them.
EXEMPT: dict[str, str] = {
    # A pop-up, not page state: a fresh page does not open it again (journal.js skips the
    # events up to the page's head), so live and fresh pages agree by construction;
    # tests/e2e/test_journal.py checks who receives it.
    "handout": "a pop-up that a fresh page does not reopen; test_journal.py covers delivery",
}


def kind_entry(name: str) -> str:
    """The coverage entry of a kind: a family (``turn.<type>``) and the kinds named under it
    (``turn.entered``, ``turn.ended``) count as one, ``turn.*``."""
    for family in registry.KINDS.values():
        if family.family and name.startswith(family.name):
            return family.name + "*"
    return name


# --- the snapshot -------------------------------------------------------------------------

# Each region of the table page, by selector. The log is read from the scenario's first event
# on (a fresh page shows the newest 300 events, the live one everything since it opened).
REGIONS = {
    "map": "#map-panel",
    "clock": "#clock",
    "initiative": "#initiative",
    "tablestate": "#tablestate",
    "party_moves": "#party-moves",
}

# Plain data for a DOM subtree: tag, classes, attributes, text and children. What differs
# between two loads of the same state by design is left out: the map's random id prefix,
# inline styles (scroll and zoom), CSRF tokens, the initial values of controls (their current
# values are compared), relative time texts. SVG
# layers (tokens, notes, terrain…) are compared as sets: the live page appends a token the
# fresh one draws in the server's order.
SNAPSHOT_JS = """
([regions, since]) => {
  const SKIP_ATTRS = new Set(["style", "id", "aria-describedby", "aria-labelledby", "for"]);
  // What a control showed first; what it shows now is read from the control (~value).
  const first = (tag, name) => name === "selected" || name === "checked" ||
    (name === "value" && (tag === "input" || tag === "textarea"));
  const csrf = (n) => n.getAttribute && n.getAttribute("name") === "csrfmiddlewaretoken";
  const uid = (v) => v.replace(/#m[0-9a-z]{1,6}-/g, "#-").replace(/^m[0-9a-z]{1,6}-/, "-");
  function data(node) {
    if (node.nodeType === Node.TEXT_NODE) {
      const text = node.textContent.replace(/\\s+/g, " ").trim();
      return text ? text : null;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return null;
    const tag = node.tagName.toLowerCase();
    if (tag === "script" || tag === "style" || tag === "link" || csrf(node)) return null;
    const out = {t: tag};
    const attrs = {};
    for (const a of node.attributes) {
      if (SKIP_ATTRS.has(a.name) || first(tag, a.name)) continue;
      attrs[a.name] = a.name === "class" ? a.value.split(/\\s+/).filter(Boolean).sort().join(" ")
                                         : uid(a.value);
    }
    if (tag === "input" || tag === "select" || tag === "textarea") {
      attrs["~value"] = node.type === "checkbox" || node.type === "radio" ? String(node.checked)
                                                                         : node.value;
    }
    if (Object.keys(attrs).length) out.a = attrs;
    if (tag === "time") return out;
    let kids = Array.from(node.childNodes).map(data).filter((k) => k !== null);
    if (node.namespaceURI === "http://www.w3.org/2000/svg" && tag === "g") {
      kids = kids.map((k) => JSON.stringify(k)).sort().map((k) => JSON.parse(k));
    }
    if (kids.length) out.k = kids;
    return out;
  }
  const snap = {};
  for (const [name, selector] of Object.entries(regions)) {
    const node = document.querySelector(selector);
    snap[name] = node ? data(node) : null;
  }
  snap.log = Array.from(document.querySelectorAll("#log-list > li"))
    .filter((li) => Number(li.getAttribute("data-seq")) > since)
    .map(data);
  return snap;
}
"""


def snapshot(page, since: int) -> dict[str, Any]:
    """Every region of the table page as plain data (the log from event ``since`` on)."""
    return page.evaluate(SNAPSHOT_JS, [REGIONS, since])


def settled(page, since: int) -> dict[str, Any]:
    """The page's snapshot once two reads 200 ms apart agree (a panel may still be fetching
    what an event told it to reload)."""
    previous = snapshot(page, since)
    for _attempt in range(40):
        page.wait_for_timeout(200)
        current = snapshot(page, since)
        if current == previous:
            return current
        previous = current
    raise AssertionError("the page never settled")


def differences(live: Any, fresh: Any, path: str = "") -> list[str]:
    """Where two snapshots differ, as readable paths (the first few)."""
    if type(live) is not type(fresh):
        return [
            f"{path}: live {json.dumps(live, ensure_ascii=False)[:300]} "
            f"≠ fresh {json.dumps(fresh, ensure_ascii=False)[:300]}"
        ]
    if isinstance(live, dict):
        out: list[str] = []
        for key in sorted(set(live) | set(fresh)):
            out += differences(live.get(key), fresh.get(key), f"{path}.{key}")
        return out
    if isinstance(live, list):
        out = []
        for i in range(max(len(live), len(fresh))):
            a = live[i] if i < len(live) else None
            b = fresh[i] if i < len(fresh) else None
            out += differences(a, b, f"{path}[{i}]")
        return out
    if live != fresh:
        return [
            f"{path}: live {json.dumps(live, ensure_ascii=False)[:300]} "
            f"≠ fresh {json.dumps(fresh, ensure_ascii=False)[:300]}"
        ]
    return []


def assert_reload_agrees(page, since: int, who: str) -> None:
    """The live page's state equals the state of the same page freshly loaded."""
    live = settled(page, since)
    assert live["log"] and live["map"], f"{who}: the page shows no log or no map panel"
    page.reload()
    expect(page.locator("#conn")).to_have_attribute("data-state", "connected")
    fresh = settled(page, since)
    diff = differences(live, fresh)
    assert not diff, f"{who}: the live page differs from a fresh one:\n" + "\n".join(diff[:20])


# --- the scenarios ------------------------------------------------------------------------


@dataclass
class Table:
    """One campaign with the referee's and a player's browser at its table."""

    gm: Any
    pc: Any
    cid: int
    ruleset: str
    tag: str = field(default_factory=lambda: uuid.uuid4().hex[:6])
    character: dict[str, Any] = field(default_factory=dict)
    map_id: int = 0  # the scenario's square map, on the table after ``maps``
    pending: dict[str, Any] = field(default_factory=dict)  # a move's choice left open
    travel_map_id: int = 0  # Crows: the hex map of the travel day
    made: list[int] = field(default_factory=list)  # sheets deleted at the end

    @property
    def api(self) -> str:
        return f"/api/campaigns/{self.cid}"

    def head(self) -> int:
        return call(self.gm, "GET", f"{self.api}/events/?since=0&limit=1")["head"]

    def names_since(self, since: int) -> set[str]:
        """The kinds of every event published after ``since``, as the referee sees them."""
        seen: set[str] = set()
        while True:
            page = call(self.gm, "GET", f"{self.api}/events/?since={since}&limit=500")
            seen |= {e["kind"] for e in page["events"]}
            if not page["more"]:
                return seen
            since = page["cursor"]

    def kinds_since(self, since: int) -> set[str]:
        """The coverage entries of every event published after ``since``."""
        return {kind_entry(name) for name in self.names_since(since)}


def rolls_and_chat(t: Table) -> None:
    call(t.pc, "POST", f"{t.api}/rolls/", {"notation": "2d6+1", "label": f"открыто {t.tag}"})
    hidden = call(
        t.gm,
        "POST",
        f"{t.api}/rolls/",
        {"notation": "1d20", "visibility": "referee", "label": f"тайно {t.tag}"},
    )
    call(t.gm, "POST", f"{t.api}/rolls/", {"notation": "1d8", "visibility": "blind"})
    call(t.pc, "POST", f"{t.api}/rolls/", {"notation": "1d6", "visibility": "referee"})
    call(t.gm, "POST", f"{t.api}/rolls/{hidden['roll_id']}/reveal/")
    call(t.gm, "POST", f"{t.api}/chat/", {"text": f"Привет {t.tag}"})
    members = {m["display_name"]: m["user_id"] for m in call(t.gm, "GET", f"{t.api}/members/")}
    call(
        t.gm,
        "POST",
        f"{t.api}/chat/",
        {"text": f"Шёпот {t.tag}", "visibility": "whisper", "target_id": members["Алиса"]},
    )
    register_secret(f"Борису {t.tag}", allowed=("boris",))
    call(
        t.gm,
        "POST",
        f"{t.api}/chat/",
        {"text": f"Борису {t.tag}", "visibility": "whisper", "target_id": members["Борис"]},
    )


def characters(t: Table) -> None:
    made = call(t.pc, "POST", f"{t.api}/characters/", {"name": f"Вера {t.tag}"})
    sheet = call(t.pc, "GET", f"/api/characters/{made['id']}/")
    state = {**sheet["state"], "notes": f"заметка {t.tag}"}
    t.character = call(
        t.pc, "PUT", f"/api/characters/{made['id']}/", {"state": state, "version": sheet["version"]}
    )
    gone = call(t.pc, "POST", f"{t.api}/characters/", {"name": f"Временный {t.tag}"})
    call(t.pc, "DELETE", f"/api/characters/{gone['id']}/")
    register_secret(f"Соглядатай {t.tag}")
    spy = call(
        t.gm,
        "POST",
        f"{t.api}/characters/",
        {"name": f"Соглядатай {t.tag}", "kind": "npc", "hidden": True},
    )
    t.made += [t.character["id"], spy["id"]]


def initiative(t: Table) -> None:
    """Entries visible and hidden, one added and removed by the player, two turns on."""
    call(t.gm, "POST", f"{t.api}/initiative/", {"name": f"Вера {t.tag}", "value": 12})
    register_secret(f"засада {t.tag}")
    call(
        t.gm,
        "POST",
        f"{t.api}/initiative/",
        {"name": f"засада {t.tag}", "value": 9, "hidden": True},
    )
    added = call(t.pc, "POST", f"{t.api}/initiative/", {"name": f"Гость {t.tag}", "value": 5})
    guest = next(e for e in added["entries"] if e["name"] == f"Гость {t.tag}")
    call(t.pc, "DELETE", f"{t.api}/initiative/{guest['id']}/")
    for _turn in range(2):
        call(t.gm, "POST", f"{t.api}/initiative/step/", {"direction": "next"})


def maps(t: Table) -> None:
    """A map of the scenario's own on the table: tokens (one of them the player's, one
    hidden, one in the fog), fog revealed and hidden again, notes, terrain, battle squares, the
    party marker, a round, a rename, the player's token hidden by the referee; and a second
    map made and deleted."""
    base = f"{t.api}/maps/"
    made = call(
        t.gm, "POST", base, {"name": f"Подвал {t.tag}", "width": 8, "height": 6, "fogged": True}
    )
    t.map_id = made["map"]["id"]
    api = f"{base}{t.map_id}/"
    call(t.gm, "POST", api + "activate/", {"active": True})
    call(t.gm, "POST", api + "fog/", {"mode": "reveal", "rect": [0, 0, 3, 5]})
    own = call(
        t.gm,
        "POST",
        api + "tokens/",
        {"name": f"Вера {t.tag}", "col": 1, "row": 1, "character_id": t.character["id"]},
    )
    call(t.gm, "POST", api + "tokens/", {"name": f"Волк {t.tag}", "col": 6, "row": 2})
    register_secret(f"Тень {t.tag}")
    hidden = call(
        t.gm, "POST", api + "tokens/", {"name": f"Тень {t.tag}", "col": 2, "row": 4, "hidden": True}
    )
    call(t.pc, "POST", api + f"tokens/{own['id']}/move/", {"col": 2, "row": 2})
    call(t.gm, "POST", api + "terrain/", {"terrain": "forest", "cells": [[0, 0], [5, 5]]})
    call(t.gm, "POST", api + "features/", {"cells": [[1, 3], [6, 4]], "cover": "low"})
    door = call(t.gm, "POST", api + "notes/", {"col": 3, "row": 3, "text": f"Дверь {t.tag}"})
    call(t.gm, "PATCH", api + f"notes/{door['id']}/", {"text": f"Дверь открыта {t.tag}"})
    register_secret(f"Ловушка {t.tag}")
    call(
        t.gm,
        "POST",
        api + "notes/",
        {"col": 5, "row": 1, "text": f"Ловушка {t.tag}", "secret": True},
    )
    call(t.gm, "POST", api + "notes/", {"col": 0, "row": 5, "text": f"Стёртая {t.tag}"})
    notes = call(t.gm, "GET", api)["notes"]
    erased = next(n for n in notes if n["text"] == f"Стёртая {t.tag}")
    call(t.gm, "DELETE", api + f"notes/{erased['id']}/")
    call(t.gm, "POST", api + "fog/", {"mode": "reveal", "rect": [4, 0, 7, 5]})
    # the east hidden again: the wolf and a battle square leave the player's map
    call(t.gm, "POST", api + "fog/", {"mode": "hide", "rect": [6, 0, 7, 5]})
    # the player's own token hidden by the referee: theirs to see still (a whisper)
    call(t.gm, "PATCH", api + f"tokens/{own['id']}/", {"hidden": True})
    call(t.gm, "POST", api + "party/", {"shown": [3, 2], "true": [4, 2]})
    call(t.gm, "POST", api + "round/")
    call(t.gm, "PATCH", api, {"name": f"Подвал {t.tag} (верхний)"})
    call(t.gm, "DELETE", api + f"tokens/{hidden['id']}/")
    other = call(t.gm, "POST", base, {"name": f"Черновик {t.tag}", "width": 4, "height": 4})
    call(t.gm, "DELETE", f"{base}{other['map']['id']}/")


def dungeon_world(t: Table) -> None:
    """Discern Realities until a 7+ leaves questions to pick (answered in the next phase), a party
    move, the random table for everyone, and the referee's damage to a visible NPC (its
    details are the referee's)."""
    cid = t.character["id"]
    for _attempt in range(20):
        made = call(
            t.pc,
            "POST",
            f"/api/characters/{cid}/moves/discern_realities/",
            {"params": {}},
        )
        if made.get("pending_id"):
            t.pending = made
            break
    else:
        raise AssertionError("Discern Realities never left a choice open")
    call(
        t.pc,
        "POST",
        f"{t.api}/party-moves/take_watch/",
        {"character_ids": [cid], "params": {"watcher": cid}},
    )
    tables = call(t.gm, "GET", f"{t.api}/prep/tables/")
    call(t.gm, "POST", f"{t.api}/prep/tables/{tables[0]['id']}/roll/", {"visibility": "everyone"})
    keeper = next(
        c for c in call(t.gm, "GET", f"{t.api}/characters/") if c["name"] == "Трактирщик Гаврила"
    )
    call(
        t.gm,
        "POST",
        f"/api/characters/{keeper['id']}/moves/npc_take_damage/",
        {"params": {"amount": 1}},
    )


def dungeon_world_choice(t: Table) -> None:
    """The open choice answered: both pages mark the move resolved."""
    options = t.pending["outcome"]["options"]
    pick = t.pending["outcome"].get("pick") or 1
    call(
        t.pc,
        "POST",
        f"/api/characters/{t.character['id']}/pending/{t.pending['pending_id']}/",
        {"choices": [o["key"] for o in options[:pick]]},
    )


def crows_clock(t: Table) -> None:
    """A dungeon turn counted in rooms until it ends (its results and the next turn), then the
    clock stopped and set back as it was."""
    clock = f"{t.api}/clock/"
    before = call(t.gm, "GET", clock)
    call(t.gm, "POST", clock, {"action": "configure", "mode": "rooms"})
    since = t.head()
    call(t.gm, "POST", clock, {"action": "start", "dungeon": f"Склеп {t.tag}"})
    for _room in range(20):
        call(t.gm, "POST", clock, {"action": "room"})
        if "turn.ended" in t.names_since(since):
            break
    else:
        raise AssertionError("the dungeon turn never ended")
    call(t.gm, "POST", clock, {"action": "stop"})
    call(
        t.gm,
        "POST",
        clock,
        {
            "action": "configure",
            "mode": before["mode"],
            "length_seconds": before["length_seconds"],
        },
    )


def crows_reaction(t: Table) -> None:
    """A hidden creature swings at the player's character until it misses: the counterattack
    it opens reaches the player alone, as ``move.reaction``, and stays open."""
    name = f"Тень-в-углу {t.tag}"
    register_secret(name)
    rules = get_ruleset("crows")
    sword = make_item(
        "sword", "Меч", kind="sword", damage={"type": "melee", "tier2": "3", "tier3": "5"}
    )

    def armed(state: dict[str, Any]) -> dict[str, Any]:
        """The sheet with a sword in hand (a counterattack needs a melee weapon)."""
        state = {**state, "inventory": place(state["inventory"], sword, "hands:1")}
        return rules.validate_state(state)

    lurker = call(
        t.gm,
        "POST",
        f"{t.api}/characters/",
        {"name": name, "kind": "npc", "hidden": True, "state": armed(rules.default_state())},
    )
    t.made.append(lurker["id"])
    target = f"/api/characters/{t.character['id']}/"
    sheet = call(t.gm, "GET", target)
    unhurt = armed(sheet["state"])
    call(t.gm, "PUT", target, {"state": unhurt, "version": sheet["version"]})
    since = t.head()
    for _attempt in range(20):
        call(
            t.gm,
            "POST",
            f"/api/characters/{lurker['id']}/moves/attack/",
            {"params": {"weapon_id": "sword", "distance": 1}, "target_id": t.character["id"]},
        )
        if "move.reaction" in t.kinds_since(since):
            return
        # a hit: the target is healed for the next swing (the sheet's edit, as a referee's)
        version = call(t.gm, "GET", target)["version"]
        call(t.gm, "PUT", target, {"state": unhurt, "version": version})
    raise AssertionError("the creature never missed")


def crows_combat(t: Table) -> None:
    """A fight on the scenario's square map, left under way (the strip shows its round)."""
    combat = f"{t.api}/maps/{t.map_id}/combat/"
    call(t.gm, "POST", combat + "start/", {})
    call(t.gm, "POST", combat + "round/", {})


def crows_travel(t: Table) -> None:
    """A hex map on the table and a travel day on it, left under way."""
    made = call(
        t.gm,
        "POST",
        f"{t.api}/maps/",
        {
            "name": f"Пустоши {t.tag}",
            "kind": "hex",
            "orientation": "flat",
            "width": 10,
            "height": 8,
            "fogged": False,
        },
    )
    t.travel_map_id = made["map"]["id"]
    api = f"{t.api}/maps/{t.travel_map_id}/"
    call(t.gm, "POST", api + "party/", {"shown": [4, 4], "true": [4, 4]})
    call(t.gm, "POST", api + "activate/", {"active": True})
    call(t.gm, "POST", api + "travel/begin/", {})
    call(t.gm, "POST", api + "travel/day/", {"pace": "normal"})


def crows_end(t: Table) -> None:
    """The fight and the journey end (the demo table is shared with other browser tests)."""
    if t.map_id:
        call(t.gm, "POST", f"{t.api}/maps/{t.map_id}/combat/end/", {})
    if t.travel_map_id:
        call(t.gm, "POST", f"{t.api}/maps/{t.travel_map_id}/travel/end/", {})


def savage_worlds(t: Table) -> None:
    """A session's bennies, the pool corrected by hand, a fight dealt and left under way."""
    moves = f"{t.api}/table-moves/"
    call(t.gm, "POST", moves + "start_session/", {})
    call(t.gm, "POST", moves + "adjust_pool/", {"params": {"delta": 2}})
    call(t.gm, "POST", moves + "start_combat/", {})
    call(t.gm, "POST", moves + "deal_round/", {})


def savage_worlds_end(t: Table) -> None:
    """The fight and the session end (the demo table is shared with other browser tests)."""
    call(t.gm, "POST", f"{t.api}/table-moves/end_combat/", {})
    call(t.gm, "POST", f"{t.api}/table-moves/end_session/", {})


def tales(t: Table) -> None:
    """A fresh battle record: the party caught unaware, then initiative."""
    moves = f"{t.api}/table-moves/"
    call(t.gm, "POST", moves + "reset_battle/", {})
    call(t.gm, "POST", moves + "surprise/", {"params": {"unaware": "party"}})
    call(t.gm, "POST", moves + "initiative/", {})


Step = Callable[[Table], None]
COMMON: tuple[Step, ...] = (rolls_and_chat, characters, maps)


@dataclass(frozen=True)
class Scenario:
    """What to do at one ruleset's table, in phases (both pages are compared with fresh ones
    after each), and the kinds (coverage entries) it publishes."""

    phases: tuple[tuple[Step, ...], ...]
    kinds: frozenset[str]
    cleanup: tuple[Step, ...] = ()  # run at the end whatever happened (shared demo tables)


COMMON_KINDS = frozenset(
    {
        "roll",
        "roll.hidden",
        "roll.reveal",
        "chat",
        "character.created",
        "character.updated",
        "character.deleted",
        "map.saved",
        "map.active",
        "map.update",
        "map.deleted",
        "map.token",
        "map.token.gone",
        "map.fog",
        "map.note",
        "map.note.gone",
        "map.terrain",
        "map.features",
        "map.party",
        "map.round",
    }
)

SCENARIOS: dict[str, Scenario] = {
    "dungeon_world": Scenario(
        ((*COMMON, initiative, dungeon_world), (dungeon_world_choice,)),
        COMMON_KINDS | {"initiative", "move", "move.details", "party.move", "random_table.roll"},
    ),
    "crows": Scenario(
        ((*COMMON, initiative, crows_clock, crows_reaction, crows_combat), (crows_travel,)),
        COMMON_KINDS
        | {"initiative", "clock", "turn.*", "move", "move.reaction", "combat", "travel"},
        cleanup=(crows_end,),
    ),
    "city_of_judas": Scenario(((*COMMON, initiative),), COMMON_KINDS | {"initiative"}),
    "tales": Scenario(((*COMMON, initiative, tales),), COMMON_KINDS | {"initiative", "tablestate"}),
    "savage_worlds": Scenario(
        ((*COMMON, savage_worlds), (savage_worlds_end,)), COMMON_KINDS | {"tablestate"}
    ),
}


def test_every_kind_is_replayed_or_exempt():
    """A new kind needs a scenario that publishes it, or a reason in ``EXEMPT``."""
    declared = {kind_entry(name) for name in registry.KINDS}
    replayed = set().union(*(s.kinds for s in SCENARIOS.values()))
    assert set(SCENARIOS) == set(RULESET_KEYS), "one scenario per ruleset"
    assert not replayed & set(EXEMPT), f"replayed and exempt: {sorted(replayed & set(EXEMPT))}"
    missing = declared - replayed - set(EXEMPT)
    assert not missing, f"no replay scenario and no exemption for {sorted(missing)}"
    unknown = (replayed | set(EXEMPT)) - declared
    assert not unknown, f"not kinds of vtt/table/kinds.py: {sorted(unknown)}"


def campaign_of(gm, ruleset: str) -> int:
    return next(
        c["id"]
        for c in call(gm, "GET", "/api/campaigns/")
        if c["ruleset"] == ruleset and c["name"].startswith("Демо: ")
    )


@pytest.mark.parametrize("ruleset", RULESET_KEYS)
def test_a_fresh_page_equals_the_live_one(new_page, ruleset):
    gm = new_page()
    login(gm, "referee")
    pc = new_page()
    login(pc, "alice")
    cid = campaign_of(gm, ruleset)
    table = Table(gm, pc, cid, ruleset)
    active = next((m["id"] for m in call(gm, "GET", f"{table.api}/maps/") if m["active"]), None)
    open_table(gm, cid)
    open_table(pc, cid)
    since = table.head()
    scenario = SCENARIOS[ruleset]
    try:
        for n, phase in enumerate(scenario.phases, 1):
            for step in phase:
                step(table)
            # Events reach a browser in order: once this line shows, everything before it did.
            done = f"готово {n} {table.tag}"
            call(gm, "POST", f"{table.api}/chat/", {"text": done})
            for page in (gm, pc):
                expect(page.locator("#log-list .entry-chat", has_text=done)).to_be_visible()
            assert_reload_agrees(gm, since, f"referee, phase {n}")
            assert_reload_agrees(pc, since, f"player, phase {n}")
        published = table.kinds_since(since)
        assert scenario.kinds <= published, f"not published: {sorted(scenario.kinds - published)}"
    finally:
        for step in scenario.cleanup:
            step(table)
        # Sheets left behind would join other tests' deals and fights.
        for made in table.made:
            call(gm, "DELETE", f"/api/characters/{made}/")
        if active is not None:
            call(gm, "POST", f"{table.api}/maps/{active}/activate/", {"active": True})
