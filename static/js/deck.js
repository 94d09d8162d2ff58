/* The table-state panel on the table page.
 *
 * Savage Worlds: the action deck (the server shuffles and deals; everyone sees each
 * participant's card and the turn order by card value and suit ♠ > ♥ > ♦ > ♣; a joker acts
 * when it likes with +2), the GM's benny pool, each sheet's bennies for those who may see them,
 * a trait roll with the joker bonus applied, and the benny choice after it (keep / re-roll).
 * Tales: the battle record (surprise, tactics, side initiative, whose side acts).
 *
 * It registers the `tablestate` log renderer (lib/renderers.js; table.js imports this module)
 * and listens to the `vtt:event` DOM event.
 * Writes are commands (deck.move, deck.choice, character.move; docs/table-protocol.md): over
 * the table's socket when it is connected, else by HTTP; events carry snapshots with a
 * version, and a snapshot older than the one shown is ignored.
 */
import { request as apiRequest } from "./api.js";
import { h } from "./lib/dom.js";
import { fmt } from "./lib/format.js";
import { gettext, localized as loc } from "./lib/i18n.js";
import { renderers } from "./lib/renderers.js";
import { toast } from "./lib/toast.js";

function start() {
  var cfgNode = document.getElementById("tablestate-config");
  var panel = document.getElementById("tablestate");
  if (!cfgNode || !panel) return;
  var cfg = JSON.parse(cfgNode.textContent);
  var body = document.getElementById("ts-body");
  var roundNode = document.getElementById("ts-round");
  var state = cfg.snapshot;
  var referee = cfg.isReferee;
  var canPlay = cfg.canPlay;
  var live = false; // false while table.js applies the events the page came with
  var busy = new Set(); // writes in flight, by key: a second click waits for the first
  var ui = { picked: new Map(), groups: null, traits: {}, npc: "", pickerOpen: false, unaware: "party", tactician: "" };

  // ---- helpers -------------------------------------------------------------------------------

  function csrf() {
    var node = document.getElementById("table-config");
    try { return JSON.parse(node.textContent).csrf || ""; } catch (e) { return ""; }
  }

  /* An API call; `named` ({command, args}) sends a table action as a socket command over the
   * table page's socket (static/js/api.js, docs/table-protocol.md "Commands"), by HTTP when
   * the socket is down. */
  function request(method, url, data, named) {
    var all = { csrf: csrf() };
    if (named) { all.command = named.command; all.args = named.args; }
    return apiRequest(method, url, data, all);
  }

  // ---- state ---------------------------------------------------------------------------------

  function setState(next, force) {
    if (!next) return;
    if (!force && state && next.version < state.version) return;
    if (!next.mine && state && state.mine) next.mine = state.mine; // events carry no per-user part
    state = next;
    render();
  }

  var refreshTimer = null;
  function refresh() {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(function () {
      request("GET", cfg.urls.state).then(function (data) {
        if (data && (!state || data.version >= state.version)) setState(data, true);
      }, function () { /* the next event or a reload will catch up */ });
    }, 200);
  }

  function characterIds() {
    var ids = {};
    (state.participants || []).forEach(function (p) { if (p.character_id) ids[p.character_id] = true; });
    (state.mine || []).forEach(function (m) { ids[m.character_id] = true; });
    var sides = state.sides || {};
    ["party", "enemies"].forEach(function (side) {
      (sides[side] || []).forEach(function (p) { ids[p.character_id] = true; });
    });
    return ids;
  }

  function mineById(id) {
    var found = null;
    (state.mine || []).forEach(function (m) { if (m.character_id === id) found = m; });
    return found;
  }

  function bennies(characterId) {
    var mine = mineById(characterId);
    if (mine) return mine.bennies;
    var found = null;
    (state.participants || []).forEach(function (p) {
      if (p.character_id === characterId && typeof p.bennies === "number") found = p.bennies;
    });
    return found;
  }

  // ---- writes --------------------------------------------------------------------------------

  function tableMove(move, params, button) {
    if (busy.has(move)) return Promise.resolve();
    busy.add(move);
    if (button) button.disabled = true;
    var body = { params: params || {}, version: state.version };
    var named = { command: "deck.move", args: { move: move } };
    return request("POST", fmt(cfg.urls.move, { move: move }), body, named).then(function (data) {
      setState(data, true);
    }, function (err) {
      if (err.status === 409 && err.data && err.data.code === "stale_version") {
        toast(gettext("The table changed meanwhile; it is up to date now."));
        refresh();
      } else toast(err.message);
    }).then(function () {
      busy.delete(move);
      if (button && button.isConnected) button.disabled = false;
    });
  }
  function choose(characterId, pendingId, choice, button) {
    var key = "choice-" + pendingId;
    if (busy.has(key)) return;
    busy.add(key);
    disableGroup(button);
    request("POST", cfg.urls.choice, {
      character_id: characterId, pending_id: pendingId, choice: choice,
    }, { command: "deck.choice" }).then(function (data) {
      setState(data, true);
    }, function (err) { toast(err.message); refresh(); }).then(function () { busy.delete(key); });
  }

  function disableGroup(button) {
    if (!button || !button.parentNode) return;
    Array.prototype.forEach.call(button.parentNode.querySelectorAll("button"), function (b) { b.disabled = true; });
  }

  function traitRoll(character, traitKey, button) {
    var key = "roll-" + character.character_id;
    if (busy.has(key)) return;
    busy.add(key);
    if (button) button.disabled = true;
    var params = { trait: traitKey, joker: !!character.joker };
    if (character.kind === "npc") params.pool = state.pool || 0;
    request("POST", fmt(cfg.urls.characterMove, { id: character.character_id, move: "trait_check" }),
      { params: params },
      { command: "character.move", args: { cid: character.character_id, move: "trait_check" } }).then(function () {
      refresh();
    }, function (err) { toast(err.message); }).then(function () {
      busy.delete(key);
      if (button && button.isConnected) button.disabled = false;
    });
  }

  // ---- rendering: shared ---------------------------------------------------------------------

  function render() {
    var active = document.activeElement;
    var focusKey = active && panel.contains(active) ? active.getAttribute("data-key") : null;
    body.textContent = "";
    if (state.ruleset === "savage_worlds") renderSavage();
    else renderTales();
    if (focusKey) {
      var again = body.querySelector('[data-key="' + focusKey + '"]');
      if (again && !again.disabled) again.focus();
    }
  }

  function button(text, attrs, onClick) {
    var b = h("button", Object.assign({ type: "button", "class": "small", text: text }, attrs || {}));
    b.addEventListener("click", function (event) { onClick(b, event); });
    return b;
  }

  function confirmed(question) {
    return !question || window.confirm(question);
  }

  function cardNode(entry) {
    var label = loc(entry.label);
    if (entry.joker) {
      return h("span", { "class": "playing-card joker", title: label + " — " + gettext("acts at any point of the round, +2 to trait and damage rolls"), "data-card": entry.card }, [
        h("span", { "class": "card-rank", text: "★" }),
        h("span", { "class": "card-joker", text: gettext("Joker") }),
      ]);
    }
    return h("span", {
      "class": "playing-card" + (entry.red ? " red" : ""),
      title: label, "data-card": entry.card, "aria-label": label,
    }, [h("span", { "class": "card-rank", text: label })]);
  }

  function benniesNode(count, name) {
    if (typeof count !== "number") return null;
    var chips = [];
    for (var i = 0; i < Math.min(count, 6); i += 1) chips.push(h("span", { "class": "benny", "aria-hidden": "true" }));
    return h("span", {
      "class": "bennies", "data-bennies": String(count),
      title: name ? fmt(gettext("{name}: {n} bennies"), { name: name, n: count }) : gettext("Bennies"),
    }, [h("span", { "class": "benny-chips" }, chips), h("b", { "class": "benny-count", text: String(count) })]);
  }

  // ---- rendering: Savage Worlds --------------------------------------------------------------

  function renderSavage() {
    roundNode.textContent = state.combat && state.round ? fmt(gettext("Round {n}"), { n: state.round }) : "";
    panel.setAttribute("data-combat", state.combat ? "1" : "0");
    panel.setAttribute("data-version", String(state.version));
    body.appendChild(statusLine());
    if (referee && canPlay) body.appendChild(refereeControls());
    body.appendChild(orderBlock());
    var mine = mineBlock();
    if (mine) body.appendChild(mine);
    if (referee && canPlay) body.appendChild(picker());
  }

  function statusLine() {
    var pool = h("span", { "class": "pool", title: gettext("GM's pool") }, [
      h("span", { "class": "pool-label", text: gettext("GM's pool") + ": " }),
      h("b", { "class": "pool-count", "data-pool": String(state.pool), text: String(state.pool) }),
    ]);
    var line = h("div", { "class": "ts-status" }, [pool]);
    if (referee && canPlay) {
      line.appendChild(button("−", { title: gettext("Take a benny from the pool"), "aria-label": gettext("Take a benny from the pool"), "class": "small icon", "data-key": "pool-minus", disabled: state.pool <= 0 },
        function (b) { tableMove("adjust_pool", { delta: -1 }, b); }));
      line.appendChild(button("+", { title: gettext("Add a benny to the pool"), "aria-label": gettext("Add a benny to the pool"), "class": "small icon", "data-key": "pool-plus" },
        function (b) { tableMove("adjust_pool", { delta: 1 }, b); }));
    }
    if (state.session) line.appendChild(h("span", { "class": "badge session-on", text: gettext("session running") }));
    if (state.combat && state.shuffle_due && state.round) {
      line.appendChild(h("span", { "class": "badge shuffle-note", text: state.joker_round ? gettext("A joker came up: the deck is shuffled before the next deal.") : gettext("The deck is shuffled before the next deal.") }));
    }
    return line;
  }

  function refereeControls() {
    var session = h("div", { "class": "ts-controls", role: "group", "aria-label": gettext("Session") }, [
      state.session ? button(gettext("End session"), { "data-key": "end-session", "data-action": "end_session" }, function (b) {
        if (confirmed(gettext("End the session? Every unused benny is lost."))) tableMove("end_session", {}, b);
      }) : button(gettext("Start session"), { "data-key": "start-session", "data-action": "start_session" }, function (b) {
        if (confirmed(gettext("Start a session? Players get 3 bennies each, GM wild cards 2, the pool one per player character."))) tableMove("start_session", {}, b);
      }),
    ]);
    var fight = h("div", { "class": "ts-controls", role: "group", "aria-label": gettext("Action deck") }, [
      state.combat ? null : button(gettext("Start a fight"), { "class": "small primary", "data-key": "start-combat", "data-action": "start_combat" },
        function (b) { tableMove("start_combat", {}, b); }),
      state.combat ? button(gettext("Deal the round"), { "class": "small primary", "data-key": "deal", "data-action": "deal_round" },
        function (b) { tableMove("deal_round", { participants: selectedParticipants() }, b); }) : null,
      state.combat ? button(gettext("End the fight"), { "data-key": "end-combat", "data-action": "end_combat" }, function (b) {
        if (confirmed(gettext("End the fight? The cards go back to the deck."))) tableMove("end_combat", {}, b);
      }) : null,
    ]);
    return h("div", { "class": "ts-referee" }, [session, fight]);
  }

  function orderBlock() {
    var wrap = h("div", { "class": "ts-order" });
    if (!state.combat) {
      wrap.appendChild(h("p", { "class": "muted ts-note", text: gettext("No fight is going on.") }));
      wrap.appendChild(participantList());
      return wrap;
    }
    if (!state.order.length) {
      wrap.appendChild(h("p", { "class": "muted ts-note", text: gettext("Cards are not dealt yet.") }));
      wrap.appendChild(participantList());
      return wrap;
    }
    var list = h("ol", { "class": "deck-order", "aria-label": gettext("Turn order") });
    state.order.forEach(function (entry) {
      var mine = entry.character_id && (mineById(entry.character_id) && (!referee || entry.owner_id === cfg.me));
      var count = entry.character_id ? bennies(entry.character_id) : null;
      var li = h("li", {
        "class": "deck-entry" + (entry.joker ? " is-joker" : "") + (mine ? " is-mine" : "") + (entry.hidden ? " is-hidden" : ""),
        "data-participant": entry.id,
        "data-card": entry.card,
        "data-character": entry.character_id ? String(entry.character_id) : null,
      }, [
        h("span", { "class": "deck-pos", text: String(entry.position) }),
        cardNode(entry),
        h("span", { "class": "deck-name" }, [
          h("span", { "class": "deck-name-text", text: entry.name }),
          mine ? h("small", { "class": "yours", text: gettext("yours") }) : null,
          entry.hidden ? h("small", { "class": "hidden-note", text: gettext("hidden") }) : null,
          entry.joker ? h("small", { "class": "joker-hint", text: gettext("acts at any point of the round, +2 to trait and damage rolls") }) : null,
        ]),
        entry.joker ? h("span", { "class": "joker-bonus", title: gettext("acts at any point of the round, +2 to trait and damage rolls"), text: "+" + entry.bonus }) : null,
        benniesNode(count, entry.name),
      ]);
      list.appendChild(li);
    });
    wrap.appendChild(list);
    return wrap;
  }

  function participantList() {
    var people = state.participants || [];
    if (!people.length) return h("p", { "class": "muted", text: gettext("No characters in this campaign yet.") });
    var list = h("ul", { "class": "ts-participants", "aria-label": gettext("Participants") });
    people.forEach(function (p) {
      list.appendChild(h("li", { "class": "ts-participant" + (p.hidden ? " is-hidden" : ""), "data-character": String(p.character_id) }, [
        h("span", { "class": "deck-name-text", text: p.name }),
        p.hidden ? h("small", { "class": "hidden-note", text: gettext("hidden") }) : null,
        benniesNode(bennies(p.character_id), p.name),
      ]));
    });
    return list;
  }

  function mineBlock() {
    var mine = (state.mine || []).filter(function (m) { return referee ? m.kind === "npc" : true; });
    if (!mine.length || !canPlay) return null;
    var wrap = h("div", { "class": "ts-mine" });
    if (referee) {
      // the referee's pick while it exists, else the first (as a fresh page shows it)
      var shown = ui.npc && mineById(Number(ui.npc)) ? ui.npc : String(mine[0].character_id);
      var npc = mineById(Number(shown));
      var select = h("select", { "class": "ts-npc", "aria-label": gettext("Roll for"), "data-key": "npc-select" });
      mine.forEach(function (m) {
        var option = h("option", { value: String(m.character_id), text: m.name });
        if (String(m.character_id) === shown) option.selected = true;
        select.appendChild(option);
      });
      select.addEventListener("change", function () { ui.npc = select.value; render(); });
      wrap.appendChild(h("div", { "class": "mine-char", "data-character": String(npc.character_id) }, [
        h("div", { "class": "mine-head" }, [select, benniesNode(npc.bennies, npc.name)]),
        rollForm(npc),
      ]));
      mine.forEach(function (m) { pendingNodes(m).forEach(function (n) { wrap.appendChild(n); }); });
      return wrap;
    }
    mine.forEach(function (m) {
      var card = h("div", { "class": "mine-char", "data-character": String(m.character_id) }, [
        h("div", { "class": "mine-head" }, [
          h("b", { "class": "mine-name", text: m.name }),
          h("span", { "class": "muted", text: gettext("Bennies") + ":" }),
          benniesNode(m.bennies, m.name),
          m.joker ? h("span", { "class": "joker-bonus", title: gettext("+2 from the joker"), text: "+2" }) : null,
        ]),
        rollForm(m),
      ]);
      pendingNodes(m).forEach(function (n) { card.appendChild(n); });
      wrap.appendChild(card);
    });
    return wrap;
  }

  function rollForm(character) {
    var id = character.character_id;
    var select = h("select", { "class": "ts-trait", "aria-label": gettext("Trait"), "data-key": "trait-" + id });
    var attrs = h("optgroup", { label: "—" });
    var skills = h("optgroup", { label: "—" });
    attrs.label = gettext("Trait");
    skills.label = "⋯";
    character.traits.forEach(function (t) {
      var option = h("option", { value: t.key, text: loc(t) + " " + t.die });
      if (ui.traits[id] === t.key) option.selected = true;
      (t.skill ? skills : attrs).appendChild(option);
    });
    select.appendChild(attrs);
    if (skills.children.length) select.appendChild(skills);
    select.addEventListener("change", function () { ui.traits[id] = select.value; });
    var go = h("button", { type: "submit", "class": "small primary", text: gettext("Roll"), "data-key": "roll-" + id });
    var form = h("form", { "class": "ts-roll" }, [select, go]);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      ui.traits[id] = select.value;
      traitRoll(character, select.value, go);
    });
    return form;
  }

  function pendingNodes(character) {
    return (character.pending || []).map(function (p) {
      var row = h("div", { "class": "ts-pending", "data-pending": String(p.id), role: "group", "aria-label": gettext("Waiting for a choice") }, [
        h("div", { "class": "pending-text" }, [
          referee ? h("b", { text: character.name + ": " }) : null,
          p.faces && p.faces.length ? facesNode(p.faces, null) : null,
          h("span", { text: loc(p.text) }),
        ]),
      ]);
      var buttons = h("div", { "class": "pending-options" });
      p.options.forEach(function (o) {
        var spends = o.key !== "keep" && o.key !== "accept";
        buttons.appendChild(button(loc(o), {
          "class": "small" + (spends ? " primary" : ""),
          "data-choice": o.key,
          "data-key": "choice-" + p.id + "-" + o.key,
          title: spends ? gettext("costs a benny") : null,
        }, function (b) { choose(character.character_id, p.id, o.key, b); }));
      });
      row.appendChild(buttons);
      return row;
    });
  }

  function facesNode(faces, sides) {
    return h("span", { "class": "ts-faces" }, faces.map(function (f) {
      return h("span", { "class": "die" + (sides ? " d" + sides : ""), text: String(f) });
    }));
  }

  function picker() {
    var people = state.participants || [];
    if (ui.groups === null) ui.groups = (state.extras || []).map(function (g) { return { name: g.name, hidden: g.hidden }; });
    var count = people.filter(isPicked).length + ui.groups.length;
    var details = h("details", { "class": "ts-picker" });
    details.open = ui.pickerOpen;
    details.addEventListener("toggle", function () { ui.pickerOpen = details.open; });
    details.appendChild(h("summary", { text: gettext("Who is dealt in") + " (" + count + ")" }));
    var list = h("ul", { "class": "picker-list" });
    people.forEach(function (p) {
      var box = h("input", { type: "checkbox", "data-pid": p.id, "data-key": "pick-" + p.id });
      box.checked = isPicked(p);
      box.addEventListener("change", function () {
        ui.picked.set(p.id, box.checked);
        details.querySelector("summary").textContent = gettext("Who is dealt in") + " (" + (list.querySelectorAll("input:checked").length + ui.groups.length) + ")";
      });
      list.appendChild(h("li", {}, [h("label", { "class": "check" }, [
        box, " ", p.name,
        p.hidden ? h("small", { "class": "hidden-note", text: " " + gettext("hidden") }) : null,
      ])]));
    });
    ui.groups.forEach(function (g, i) {
      list.appendChild(h("li", { "class": "picker-group" }, [
        h("span", { text: g.name }),
        g.hidden ? h("small", { "class": "hidden-note", text: " " + gettext("hidden from players") }) : null,
        button("✕", { "class": "small icon danger", title: gettext("Remove"), "aria-label": gettext("Remove") + ": " + g.name }, function () {
          ui.groups.splice(i, 1);
          render();
        }),
      ]));
    });
    details.appendChild(list);
    var name = h("input", { name: "group", maxlength: cfg.limits.name, placeholder: gettext("Group of extras (one card)"), "aria-label": gettext("Group of extras (one card)"), "data-key": "group-name" });
    var hidden = h("input", { type: "checkbox", name: "hidden" });
    var form = h("form", { "class": "picker-add" }, [
      name,
      h("label", { "class": "check" }, [hidden, " " + gettext("hidden")]),
      h("button", { type: "submit", "class": "small", text: gettext("Add") }),
    ]);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var value = name.value.trim();
      if (!value) return;
      ui.groups.push({ name: value, hidden: hidden.checked });
      ui.pickerOpen = true;
      render();
    });
    details.appendChild(form);
    return details;
  }

  /* Who the referee ticked; a box never touched follows the server (the last deal's choice,
   * and every new sheet that is not dead). */
  function isPicked(p) {
    return ui.picked.has(p.id) ? ui.picked.get(p.id) : !!p.selected;
  }

  function selectedParticipants() {
    var out = [];
    (state.participants || []).forEach(function (p) {
      if (isPicked(p)) out.push({ character_id: p.character_id });
    });
    (ui.groups || state.extras || []).forEach(function (g) { out.push({ name: g.name, hidden: g.hidden }); });
    return out;
  }

  // ---- rendering: Tales ----------------------------------------------------------------------

  function sideName(key) { return key ? loc((cfg.sides || {})[key]) || key : "—"; }

  function renderTales() {
    var b = state.battle;
    roundNode.textContent = b.phase === "rounds" && b.round ? fmt(gettext("Round {n}"), { n: b.round }) : "";
    panel.setAttribute("data-phase", b.phase);
    panel.setAttribute("data-version", String(state.version));
    var status = h("div", { "class": "ts-status" }, [
      h("span", { "class": "badge phase" }, [gettext("Phase") + ": ", h("b", { text: loc((cfg.phases || {})[b.phase]) || b.phase })]),
    ]);
    if (b.phase === "rounds" && b.current) {
      status.appendChild(h("span", { "class": "badge acting", "data-side": b.current, text: fmt(gettext("Acting now: {side}"), { side: sideName(b.current) }) }));
    }
    body.appendChild(status);
    var facts = [];
    if (b.surprise_roll) facts.push(gettext("Surprise") + ": d6 = " + b.surprise_roll + (b.unaware ? " (" + gettext("Caught unaware") + ": " + sideName(b.unaware) + ")" : ""));
    if (b.initiative && b.initiative.party !== null && b.initiative.party !== undefined) {
      facts.push(gettext("Initiative") + ": " + sideName("party") + " " + b.initiative.party + " · " + sideName("enemies") + " " + b.initiative.enemies);
    }
    if (b.first) facts.push(fmt(gettext("First: {side}"), { side: sideName(b.first) }));
    if (b.tactics_tried) facts.push(gettext("Tactics was tried in this battle."));
    if (facts.length) body.appendChild(h("ul", { "class": "ts-facts" }, facts.map(function (f) { return h("li", { text: f }); })));
    var sides = h("div", { "class": "ts-sides" });
    ["party", "enemies"].forEach(function (key) {
      var list = (state.sides || {})[key] || [];
      sides.appendChild(h("div", { "class": "ts-side" + (b.phase === "rounds" && b.current === key ? " is-acting" : ""), "data-side": key }, [
        h("h3", { text: sideName(key) }),
        h("ul", {}, list.length ? list.map(function (p) {
          return h("li", { "class": (p.dead ? "is-dead" : "") + (p.hidden ? " is-hidden" : "") }, [
            p.name, p.hidden ? h("small", { "class": "hidden-note", text: " " + gettext("hidden") }) : null,
          ]);
        }) : [h("li", { "class": "muted", text: "—" })]),
      ]));
    });
    body.appendChild(sides);
    if (canPlay) {
      var tacticians = (state.mine || []).filter(function (m) { return m.tactics > 0; });
      if (tacticians.length && !b.tactics_tried && b.phase !== "rounds") body.appendChild(tacticsForm(tacticians));
    }
    if (referee && canPlay) body.appendChild(battleControls(b));
  }

  function tacticsForm(tacticians) {
    var select = h("select", { "aria-label": gettext("Tactics"), "data-key": "tactician" });
    tacticians.forEach(function (m) {
      var option = h("option", { value: String(m.character_id), text: m.name + " (" + gettext("Tactics") + " " + m.tactics + ")" });
      if (ui.tactician === String(m.character_id)) option.selected = true;
      select.appendChild(option);
    });
    select.addEventListener("change", function () { ui.tactician = select.value; });
    var go = h("button", { type: "submit", "class": "small", text: gettext("Use Tactics"), "data-action": "tactics" });
    var form = h("form", { "class": "ts-roll ts-tactics" }, [select, go]);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      tableMove("tactics", { character_id: Number(select.value) }, go);
    });
    return form;
  }

  function battleControls(b) {
    var group = h("div", { "class": "ts-controls", role: "group", "aria-label": gettext("Battle") });
    if (b.phase === "start") {
      var unaware = h("select", { "aria-label": gettext("Caught unaware"), "data-key": "unaware" });
      ["party", "enemies"].forEach(function (key) {
        var option = h("option", { value: key, text: gettext("Caught unaware") + ": " + sideName(key) });
        if (ui.unaware === key) option.selected = true;
        unaware.appendChild(option);
      });
      unaware.addEventListener("change", function () { ui.unaware = unaware.value; });
      group.appendChild(h("span", { "class": "ts-inline" }, [
        unaware,
        button(gettext("Roll surprise (d6)"), { "data-action": "surprise" }, function (btn) { tableMove("surprise", { unaware: unaware.value }, btn); }),
      ]));
    }
    if (b.phase !== "rounds") {
      group.appendChild(button(gettext("Roll initiative (d10 each side)"), { "class": "small primary", "data-action": "initiative" }, function (btn) { tableMove("initiative", {}, btn); }));
    } else {
      group.appendChild(button(gettext("Next side") + " ▶", { "class": "small primary", "data-action": "next_side" }, function (btn) { tableMove("next_side", {}, btn); }));
    }
    group.appendChild(button(gettext("New battle"), { "data-action": "reset_battle" }, function (btn) {
      if (confirmed(gettext("Start a new battle? The initiative is rolled again."))) tableMove("reset_battle", {}, btn);
    }));
    return group;
  }

  // ---- the log -------------------------------------------------------------------------------

  function logText(p) {
    var d = p.data || {};
    switch (p.action) {
      case "start_session": return fmt(gettext("Session starts: players get 3 bennies each, the GM's pool holds {pool}."), { pool: d.pool });
      case "end_session": return gettext("Session over: unused bennies are lost.");
      case "start_combat": return gettext("The fight begins: the action deck is shuffled.");
      case "deal_round": return fmt(gettext("Round {n}: cards dealt."), { n: d.round });
      case "end_combat": return gettext("The fight is over.");
      case "adjust_pool": return fmt(gettext("GM's pool: {pool}."), { pool: d.pool });
      case "benny":
        if (d.purpose === "soak") return fmt(d.source === "pool" ? gettext("{name}: a benny from the GM's pool spent on a soak roll.") : gettext("{name}: a benny spent on a soak roll."), { name: d.name });
        if (d.purpose === "spend") return fmt(d.source === "pool" ? gettext("{name}: a benny from the GM's pool spent.") : gettext("{name}: a benny spent."), { name: d.name });
        return fmt(d.source === "pool" ? gettext("{name}: a benny from the GM's pool spent on a re-roll.") : gettext("{name}: a benny spent on a re-roll."), { name: d.name });
      case "injury":
        return fmt(gettext("{name}: Injury Table — {result} ({change}), {duration}."), {
          name: d.name,
          result: loc(d.label || {}),
          change: loc(d.change || {}),
          duration: loc(d.duration_label || {}).toLowerCase(),
        });
      case "reset_battle": return gettext("A new battle.");
      case "next_side":
        return fmt(gettext("Round {n}: {side} act."), { n: p.snapshot.battle.round, side: sideName(p.snapshot.battle.current) });
      default: return p.outcome ? loc(p.outcome.text) : p.action;
    }
  }

  function renderTableState(ev, api) {
    var p = ev.payload || {};
    // Each browser receives one copy of a change, its own audience's: a newer snapshot
    // replaces the shown one.
    var snap = p.snapshot;
    if (snap && snap.version > state.version) setState(snap, true);
    if (live) refresh();
    // Logs written before the players' visibility hold the referee's second copy of a change
    // as `log: false`: the line came with the copy before it.
    if (p.log === false) return null;
    var li = api.entryShell(ev, "tablestate", "ts-" + p.action);
    li.setAttribute("data-action", p.action);
    var text = h("div", { "class": "ts-log-text", text: logText(p) });
    li.appendChild(text);
    if (p.action === "injury" && p.data) {
      // [published edition] the Injury Table's roll: 2d6 (none for a called shot), then a d6
      var injuryFaces = (p.data.faces || []).slice();
      if (p.data.sub_face) injuryFaces.push(p.data.sub_face);
      var injuryLine = h("div", { "class": "roll-line ts-log-roll" }, [facesNode(injuryFaces, 6)]);
      if (p.data.called) injuryLine.appendChild(h("span", { "class": "muted", text: " " + gettext("a called shot") }));
      li.appendChild(injuryLine);
    }
    if (p.action === "deal_round" && p.snapshot) {
      var cards = h("ol", { "class": "ts-log-cards" });
      (p.snapshot.order || []).forEach(function (entry) {
        cards.appendChild(h("li", { "class": entry.joker ? "is-joker" : "" }, [cardNode(entry), " ", entry.name]));
      });
      li.appendChild(cards);
      var notes = [];
      if (p.data && p.data.shuffled) notes.push(gettext("The deck was shuffled first."));
      if (p.data && p.data.joker) notes.push(gettext("Joker! The deck is shuffled before the next deal."));
      if (p.data && p.data.joker_bennies) notes.push(gettext("A joker: every player and GM wild card gets a benny."));
      if (notes.length) li.appendChild(h("div", { "class": "ts-log-note", text: notes.join(" ") }));
    }
    if (p.outcome && p.outcome.faces && p.outcome.faces.length) {
      var sides = p.action === "surprise" ? 6 : 10;
      li.appendChild(h("div", { "class": "roll-line ts-log-roll" }, [facesNode(p.outcome.faces, sides)]));
      if (p.action !== "initiative" && p.action !== "surprise" && p.outcome.text) {
        text.textContent = loc(p.outcome.text);
      }
    }
    var rolled = p.snapshot && p.snapshot.battle && p.snapshot.battle.initiative;
    if (p.action === "initiative" && rolled && p.outcome && p.outcome.faces && p.outcome.faces.length) {
      text.textContent = loc(p.outcome.text) + " (" + sideName("party") + " " + rolled.party +
        " · " + sideName("enemies") + " " + rolled.enemies + ")";
    }
    return li;
  }

  // `move` events have their renderer in moves.js (with the choice buttons in the log); this
  // panel offers the same Savage Worlds choices next to the character, through the table's
  // endpoint, which also takes pool bennies off the table and logs the spend.
  renderers.tablestate = renderTableState;

  document.addEventListener("vtt:event", function (e) {
    if (!live) return;
    var ev = e.detail || {};
    var p = ev.payload || {};
    if (ev.kind === "character.created" || ev.kind === "character.deleted") refresh();
    else if ((ev.kind === "move" || ev.kind === "character.updated") && characterIds()[p.character_id]) refresh();
  });
  document.addEventListener("vtt:live", function () { live = true; });

  render();
}

start();
