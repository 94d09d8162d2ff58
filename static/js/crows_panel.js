/* Crows on the map panel: the travel day (hex maps) and the combat strip (square maps).
 *
 * State comes from the server already filtered for this user (vtt/maps/views.py crows_config,
 * vtt/rulesets/crows/travel.py, battle.py): a player's browser never holds an encounter or
 * drift roll, the party's true hex while it is lost, or a creature it cannot see. Writes go
 * over HTTP; every step reaches every browser as a `travel` or `combat` event (table.js fires
 * "vtt:event"), each carrying the whole state for its audience, so the newest one wins. The
 * referee's browser reads the referee's copies, everyone else the players' copies.
 */
import { failedText, request as apiRequest } from "./api.js";
import { fmt } from "./lib/format.js";
import { gettext, localized as tr } from "./lib/i18n.js";
import { toast } from "./lib/toast.js";
import { map } from "./map.js";

function start() {
  var panel = document.querySelector("[data-map-panel]");
  var configNode = document.getElementById("map-config");
  if (!panel || !configNode) return null;
  var C = JSON.parse(configNode.textContent);
  if (C.ruleset !== "crows" || !C.crows) return null;
  var K = C.crows;
  var me = C.me;
  var isReferee = C.isReferee;

  var travelBox = panel.querySelector("[data-travel-panel]");
  var travelState = panel.querySelector("[data-travel-state]");
  var travelSecret = panel.querySelector("[data-travel-secret]");
  var combatBox = panel.querySelector("[data-combat-strip]");
  var combatState = panel.querySelector("[data-combat-state]");
  var combatTurn = panel.querySelector("[data-combat-turn]");

  var travel = K.travel;        // this viewer's copy
  var combat = K.combat;
  var travelSeq = K.head || 0;
  var combatSeq = K.head || 0;

  // ---- helpers -------------------------------------------------------------------------------

  function node(tag, cls, text, attrs) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined && text !== null) n.textContent = text;
    Object.keys(attrs || {}).forEach(function (k) { n.setAttribute(k, attrs[k]); });
    return n;
  }

  function button(text, handler, cls, attrs) {
    var b = node("button", "small " + (cls || ""), text, attrs);
    b.type = "button";
    b.addEventListener("click", function () {
      b.disabled = true;
      Promise.resolve(handler()).then(function () { b.disabled = false; }, function () { b.disabled = false; });
    });
    return b;
  }

  /* `command`/`args`: the table action's command (docs/table-protocol.md, "Commands"), sent
   * over the table socket when the page has one, else by HTTP with an idempotency key. */
  function api(method, url, body, command, args) {
    return apiRequest(method, url, body, {
      csrf: C.csrf, command: command, args: args,
    });
  }

  // A travel or combat step (the `travel` and `combat` commands): its API URL and its args.
  function stepCall(kind, step, body) {
    return api("POST", url(kind, step), body, kind, { map_id: currentMap().id, step: step });
  }

  function fail(error) { toast((error && error.message) || failedText()); throw error; }

  function mapState() { return map ? map.state() : null; }

  function currentMap() { var S = mapState(); return S ? S.map : null; }

  function url(kind, step) {
    var m = currentMap();
    return C.urls[kind].replace("{id}", m.id) + (step ? step + "/" : "");
  }

  function byKey(list, key) { return (list || []).filter(function (x) { return x.key === key; })[0]; }

  // flat-topped hexes, odd-q offsets (systems/core/hexgrid.py)
  function offset(hex) { return [hex.q, hex.r + (hex.q - (hex.q & 1)) / 2]; }

  // ---- which parts show ------------------------------------------------------------------------

  function layout() {
    var m = currentMap();
    var hexFlat = !!m && m.kind === "hex" && m.orientation === "flat";
    var square = !!m && m.kind === "square";
    travelBox.hidden = !hexFlat;
    combatBox.hidden = !square;
    if (!square && combat) combatBox.hidden = true;
  }

  // ---- the travel day --------------------------------------------------------------------------

  function taskName(key) { var t = byKey(K.tasks, key); return t ? tr(t) : key; }
  function roleName(key) { var r = byKey(K.roles, key); return r ? tr(r) : key; }

  function myCharacter(name) {
    return (C.characters || []).filter(function (c) {
      return c.name === name && (isReferee || (c.owner_id === me.id && c.kind === "pc"));
    })[0];
  }

  function renderTravel() {
    travelState.textContent = "";
    travelBox.classList.toggle("is-travelling", !!travel);
    panel.querySelectorAll("[data-travel-when]").forEach(function (row) {
      row.hidden = (row.getAttribute("data-travel-when") === "on") !== !!travel;
    });
    if (!travel) {
      travelState.appendChild(node("p", "muted", gettext("The party is not travelling.")));
      return;
    }
    var t = travel;
    var head = node("p", "travel-summary");
    var pace = byKey(K.paces, t.pace);
    head.appendChild(node("strong", "travel-day", fmt(gettext("Day {n}"), { n: t.day })));
    if (t.day > 0) {
      head.appendChild(document.createTextNode(" · " + gettext("Pace") + ": "));
      head.appendChild(node("span", "travel-pace", pace ? tr(pace) : "—", { "data-pace": t.pace || "" }));
      head.appendChild(document.createTextNode(" · " + fmt(gettext("Hexes today: {moved} of {hexes}"), { moved: t.moved, hexes: t.hexes })));
    }
    travelState.appendChild(head);
    var where = node("p", "travel-where");
    where.appendChild(document.createTextNode(gettext("Position") + ": "));
    var pos;
    if (t.lost || !t.hex) pos = node("span", "travel-position unknown", gettext("unknown"), { "data-position": "unknown" });
    else {
      var cr = offset(t.hex);
      pos = node("span", "travel-position", fmt(gettext("hex {col}, {row}"), { col: cr[0], row: cr[1] }), { "data-position": cr.join(",") });
    }
    where.appendChild(pos);
    if (t.lost) where.appendChild(node("span", "badge warn travel-lost", gettext("The party is lost")));
    if (t.arrived) where.appendChild(node("span", "badge ok", fmt(gettext("Arrived at {place}"), { place: t.arrived })));
    travelState.appendChild(where);
    if (t.day > 0) {
      travelState.appendChild(node("p", "muted travel-thresholds",
        fmt(gettext("Encounter threshold: {travel} on the road, {rest} at rest"), { travel: t.travel_threshold, rest: t.rest_threshold })));
    }
    var list = node("ul", "travel-roles");
    list.setAttribute("data-travel-roles", "");
    (t.roles || []).forEach(function (r) {
      var li = node("li", "travel-role");
      li.setAttribute("data-role-name", r.name);
      li.appendChild(node("span", "who", r.name));
      li.appendChild(document.createTextNode(" — " + roleName(r.role) + ": " + taskName(r.task)));
      if (r.done) {
        var task = byKey(K.tasks, r.task);
        var result = task && r.tier ? tr(task.results[String(r.tier)]) : "";
        li.appendChild(node("span", "travel-outcome", " · " + fmt(gettext("tier {n}"), { n: r.tier || "?" }) + (result ? " — " + result : ""), { "data-tier": String(r.tier || "") }));
      } else {
        var mine = myCharacter(r.name);
        if (mine && C.canPlay) {
          li.appendChild(button(gettext("Check"), function () { return roleCheck(mine, r.task); }, "primary travel-check", { "data-travel-check": r.name }));
        }
      }
      list.appendChild(li);
    });
    if (!(t.roles || []).length && t.day > 0) travelState.appendChild(node("p", "muted", gettext("No travel roles yet.")));
    travelState.appendChild(list);
    if ((t.prompts || []).length) {
      var prompts = node("ul", "travel-prompts");
      t.prompts.forEach(function (p) { prompts.appendChild(node("li", "muted", (p.by ? p.by + ": " : "") + (p.note || p.kind))); });
      travelState.appendChild(prompts);
    }
  }

  function roleCheck(character, task) {
    return stepCall("travel", "role", { character_id: character.id, task: task })
      .then(function (data) {
        if (data && data.travel !== undefined) setTravel(data.travel, 0);
        offerChoice(character, data);
      })
      .catch(fail);
  }

  // A role check (or an answer to one) that waits for a choice: its options as buttons; the
  // answer goes to the sheet's pending move, and may itself offer the next choice.
  var choiceBox = null;
  function offerChoice(character, data) {
    if (!choiceBox) {
      choiceBox = node("div", "travel-choice", null, { "data-travel-choice": "", "aria-live": "polite" });
      travelBox.insertBefore(choiceBox, travelState.nextSibling);
    }
    choiceBox.textContent = "";
    var outcome = data && data.outcome;
    if (outcome && outcome.text) choiceBox.appendChild(node("p", "travel-choice-text", character.name + ": " + tr(outcome.text)));
    if (!data || !data.pending_id || !outcome || !(outcome.options || []).length) return;
    choiceBox.appendChild(node("span", "", gettext("Choose:") + " "));
    outcome.options.forEach(function (o) {
      choiceBox.appendChild(button(tr(o), function () {
        var target = C.urls.choose.replace("{cid}", character.id).replace("{pid}", data.pending_id);
        return api("POST", target, { choices: [o.key] }).then(function (answer) {
          offerChoice(character, answer);
        }).catch(fail);
      }, "", { "data-travel-option": o.key }));
    });
  }

  // ---- the Miasma's 17+ choices: each player for their own character ----------------------
  // («Путешествие по суше › Миазма»)

  var miasma = K.miasma;  // {day, saves: [...], choices: {character_id: "clear" | id}} or null

  function ownCharacter(id) {
    return (C.characters || []).filter(function (c) {
      return c.id === id && (isReferee || (c.owner_id === me.id && c.kind === "pc"));
    })[0];
  }

  function renderMiasma() {
    var box = travelBox.querySelector("[data-miasma-choices]");
    if (!box) {
      box = node("div", "travel-miasma", null, { "data-miasma-choices": "" });
      travelBox.insertBefore(box, travelState.nextSibling);
    }
    box.textContent = "";
    if (!miasma || !travel || !C.canPlay) return;
    var names = {};
    miasma.saves.forEach(function (s) { names[s.character_id] = s.name; });
    miasma.saves.forEach(function (s) {
      if (s.skipped || s.tier !== 3) return;
      var mineChar = ownCharacter(s.character_id);
      if (!mineChar) return;
      var row = node("p", "miasma-choice", null, { "data-miasma-for": String(s.character_id) });
      row.appendChild(node("strong", "", s.name + ": "));
      row.appendChild(document.createTextNode(gettext("17+ on the Miasma save: clear your cruelty or lift another's save") + " "));
      var chosen = (miasma.choices || {})[String(s.character_id)];
      if (chosen !== undefined) {
        row.appendChild(node("span", "badge ok", fmt(gettext("Chosen: {choice}"), {
          choice: chosen === "clear" ? gettext("Clear my cruelty") : fmt(gettext("Lift {name}'s save"), { name: names[chosen] || "?" }),
        }), { "data-miasma-chosen": String(chosen) }));
      }
      row.appendChild(button(gettext("Clear my cruelty"), function () { return miasmaChoice(s.character_id, "clear"); }, "", { "data-miasma-clear": "" }));
      miasma.saves.forEach(function (o) {
        if (o.skipped || o.character_id === s.character_id) return;
        row.appendChild(button(fmt(gettext("Lift {name}'s save"), { name: o.name }), function () { return miasmaChoice(s.character_id, o.character_id); }, "", { "data-miasma-lift": String(o.character_id) }));
      });
      box.appendChild(row);
    });
  }

  function miasmaChoice(characterId, choice) {
    return stepCall("travel", "miasma_choice", { character_id: characterId, choice: choice })
      .then(function (step) { noteMiasma(step); })
      .catch(fail);
  }

  function noteMiasma(step) {
    if (!step || !step.type) return;
    if (step.type === "miasma_saves") miasma = { day: step.day, saves: step.saves, choices: {} };
    else if (step.type === "miasma_choice" && miasma && miasma.day === step.day) {
      miasma.choices = Object.assign({}, miasma.choices);
      miasma.choices[String(step.character_id)] = step.choice;
    } else if (step.type === "miasma_resolved" || step.type === "travel_ended") miasma = null;
    else return;
    renderMiasma();
  }

  function setTravel(state, seq) {
    if (seq && seq <= travelSeq) return;
    if (seq) travelSeq = seq;
    travel = state;
    renderTravel();
    renderMiasma();
  }

  function travelParams(step) {
    var q = function (sel) { return panel.querySelector(sel); };
    if (step === "begin") {
      var goal = (q("[data-travel-goal]").value || "").split(/[ ,;]+/).filter(Boolean).map(Number);
      return goal.length === 2 ? { goal: goal } : {};
    }
    if (step === "day") {
      return {
        pace: q("[data-travel-pace]").value,
        road: q("[data-travel-road]").checked,
        river: q("[data-travel-river]").value,
        in_miasma: q("[data-travel-miasma]").checked,
      };
    }
    if (step === "roles") {
      var roles = [], helping = [];
      panel.querySelectorAll("[data-role-for]").forEach(function (select) {
        var id = select.getAttribute("data-role-for");
        var helps = q("[data-helps-for='" + id + "']");
        if (helps && helps.value) {
          helping.push({ character_id: Number(id), helps: Number(helps.value) });
          return;
        }
        if (!select.value) return;
        var allies = Array.prototype.map.call(q("[data-allies-for='" + id + "']").selectedOptions || [], function (o) { return Number(o.value); });
        var entry = { character_id: Number(id), task: select.value };
        if (allies.length) entry.allies = allies;
        var quarry = q("[data-quarry-for='" + id + "']").value.trim();
        if (quarry) entry.quarry = quarry;
        roles.push(entry);
      });
      return { roles: roles, helping: helping };
    }
    if (step === "encounter") return { kind: q("[data-travel-encounter-kind]").value };
    if (step === "arrive") return { place: q("[data-travel-place]").value };
    return {};
  }

  function showSecret(data) {
    if (!travelSecret) return;
    travelSecret.textContent = "";
    var secret = data && data.referee_only;
    if (data && data.saves) {
      travelSecret.appendChild(node("p", "", gettext("Miasma saves") + ": " + data.saves.map(function (s) {
        return s.name + " " + s.total + (s.tier ? " (" + fmt(gettext("tier {n}"), { n: s.tier }) + ")" : "");
      }).join(", ")));
    }
    if (!secret) return;
    var box = node("p", "travel-secret-line");
    box.appendChild(node("span", "badge warn", gettext("Referee only")));
    if (secret.roll !== undefined && secret.threshold !== undefined) {
      box.appendChild(document.createTextNode(" " + fmt(secret.encounter ? gettext("Encounter check {roll} against {threshold}: an encounter!") : gettext("Encounter check {roll} against {threshold}: nothing."), secret)));
    }
    if (secret.hex) box.appendChild(document.createTextNode(" " + fmt(gettext("Truly at {col}, {row}"), { col: secret.hex[0], row: secret.hex[1] })));
    travelSecret.appendChild(box);
  }

  function travelStep(step, params) {
    return stepCall("travel", step, params || travelParams(step)).then(function (data) {
      if (data && data.travel !== undefined) setTravel(data.travel, 0);
      showSecret(data);
      noteMiasma(data);
    }).catch(fail);
  }

  /* A travel role, allies and help for each character (``C.characters``, which map.js keeps
   * as a fresh page would list them). */
  function buildTravelRoles() {
    var form = panel.querySelector("[data-travel-roles-form]");
    if (!isReferee || !form) return;
    // what the referee has picked so far survives a rebuild
    var picked = Array.prototype.map.call(form.querySelectorAll("select, input"), function (field) {
      var values = field.multiple
        ? Array.prototype.map.call(field.selectedOptions, function (o) { return o.value; })
        : [field.value];
      return { name: field.getAttributeNames().filter(function (a) { return /-for$/.test(a); })[0],
               id: field.getAttribute("data-role-for") || field.getAttribute("data-allies-for") ||
                   field.getAttribute("data-helps-for") || field.getAttribute("data-quarry-for"),
               values: values };
    });
    form.textContent = "";
    (C.characters || []).forEach(function (c) {
      var label = node("label", "travel-role-pick", c.name + " ");
      var select = node("select", "", null, { "data-role-for": String(c.id) });
      var none = node("option", "", gettext("— no role —")); none.value = ""; select.appendChild(none);
      K.roles.forEach(function (role) {
        var group = node("optgroup"); group.label = tr(role);
        K.tasks.filter(function (t) { return t.role === role.key; }).forEach(function (t) {
          var o = node("option", "", tr(t)); o.value = t.key; group.appendChild(o);
        });
        select.appendChild(group);
      });
      label.appendChild(select);
      var allies = node("select", "travel-allies", null, { multiple: "", size: "2", "data-allies-for": String(c.id), "aria-label": gettext("Allies") + ": " + c.name, title: gettext("Allies") });
      var helps = node("select", "travel-helps", null, { "data-helps-for": String(c.id), "aria-label": gettext("Helps instead") + ": " + c.name, title: gettext("Helps instead") });
      var nobody = node("option", "", gettext("— takes a role —")); nobody.value = ""; helps.appendChild(nobody);
      (C.characters || []).forEach(function (other) {
        if (other.id === c.id) return;
        var a = node("option", "", other.name); a.value = String(other.id); allies.appendChild(a);
        var h = node("option", "", other.name); h.value = String(other.id); helps.appendChild(h);
      });
      label.appendChild(node("span", "muted", " " + gettext("Allies") + " "));
      label.appendChild(allies);
      label.appendChild(node("input", "travel-quarry", null, { "data-quarry-for": String(c.id), maxlength: K.limits.quarry, size: "10", placeholder: gettext("Quarry"), "aria-label": gettext("Quarry") + ": " + c.name }));
      label.appendChild(node("span", "muted", " " + gettext("Helps instead") + " "));
      label.appendChild(helps);
      form.appendChild(label);
    });
    picked.forEach(function (was) {
      var field = form.querySelector("[" + was.name + "='" + was.id + "']");
      if (!field) return;
      if (!field.multiple) { field.value = was.values[0]; return; }
      Array.prototype.forEach.call(field.options, function (o) { o.selected = was.values.indexOf(o.value) >= 0; });
    });
  }

  function buildTravelControls() {
    if (!isReferee || !panel.querySelector("[data-travel-controls]")) return;
    var pace = panel.querySelector("[data-travel-pace]");
    K.paces.forEach(function (p) {
      var o = node("option", "", tr(p)); o.value = p.key; if (p.key === "normal") o.selected = true; pace.appendChild(o);
    });
    var river = panel.querySelector("[data-travel-river]");
    K.rivers.forEach(function (r) { var o = node("option", "", tr(r)); o.value = r.key; river.appendChild(o); });
    buildTravelRoles();
    var directions = panel.querySelector("[data-travel-directions]");
    K.directions.forEach(function (d) {
      directions.appendChild(button(tr(d), function () {
        return travelStep("move", { directions: [d.key], stop_at: 1 });
      }, "travel-dir", { "data-direction": d.key }));
    });
    panel.querySelectorAll("[data-travel-step]").forEach(function (b) {
      b.addEventListener("click", function () {
        b.disabled = true;
        travelStep(b.getAttribute("data-travel-step")).then(function () { b.disabled = false; }, function () { b.disabled = false; });
      });
    });
  }

  // ---- the combat strip ------------------------------------------------------------------------

  function sideName(key) { var s = byKey(K.sides, key); return s ? tr(s) : key; }

  function mine(c) { return !!c && (isReferee || (c.owner_id !== null && c.owner_id === me.id)); }

  function combatStep(step, body) {
    return stepCall("combat", step, body || {}).then(function (data) {
      if (data && data.combat !== undefined) setCombat(data.combat, 0);
    }).catch(fail);
  }

  function setCombat(state, seq) {
    if (seq && seq <= combatSeq) return;
    if (seq) combatSeq = seq;
    combat = state;
    renderCombat();
  }

  function renderCombat() {
    combatState.textContent = "";
    combatTurn.textContent = "";
    combatBox.classList.toggle("in-combat", !!combat);
    panel.querySelectorAll("[data-combat-when]").forEach(function (part) {
      part.hidden = (part.getAttribute("data-combat-when") === "on") !== !!combat;
    });
    fillSurprised();  // the tokens on the map, whether a fight is on or not
    if (!combat) {
      combatState.appendChild(node("p", "muted", gettext("No combat.")));
      return;
    }
    var head = node("p", "combat-summary");
    head.appendChild(node("strong", "combat-round", combat.round ? fmt(gettext("Round {n}"), { n: combat.round }) : gettext("No round yet"), { "data-round": String(combat.round) }));
    if (combat.round) {
      head.appendChild(document.createTextNode(" · " + fmt(gettext("Acting first: {side}"), { side: sideName(combat.first) }) + " (1d10 = " + combat.initiative_roll + ")"));
      if (!combat.turn && combat.waiting) head.appendChild(document.createTextNode(" · " + fmt(gettext("Waiting to act: {side}"), { side: sideName(combat.waiting) })));
    }
    combatState.appendChild(head);
    var list = node("ul", "combatants");
    combat.combatants.forEach(function (c) {
      var li = node("li", "combatant side-" + c.side + (combat.current === c.id ? " current" : ""), null, { "data-combatant": c.id });
      li.appendChild(node("span", "name", c.name));
      var marks = [];
      if (c.surprised) marks.push(gettext("surprised"));
      if (c.acted) marks.push(gettext("has acted"));
      if (c.reaction_used) marks.push(gettext("reaction spent"));
      if (c.taunted_by) marks.push(gettext("taunted"));
      if (c.readied) marks.push(gettext("readied"));
      if (c.grabbing) marks.push(fmt(gettext("grabbing {name}"), { name: nameOf(c.grabbing) }));
      if (c.extra_now) marks.push(gettext("extra action now"));
      if (marks.length) li.appendChild(node("small", "muted marks", " " + marks.join(", ")));
      li.setAttribute("data-reaction-used", c.reaction_used ? "1" : "0");
      if (mine(c) && C.canPlay) {
        if (!combat.turn && combat.round && !c.acted && !c.surprised && c.side === combat.waiting) {
          li.appendChild(button(gettext("Start the turn"), function () { return combatStep("turn", { combatant: c.id }); }, "primary", { "data-combat-turn-start": c.id }));
        }
        if (!c.reaction_used && combat.round) {
          li.appendChild(button(gettext("Reaction"), function () { return combatStep("spend", { combatant: c.id, cost: "reaction" }); }, "", { "data-combat-reaction": c.id }));
        }
        if (c.readied && !c.reaction_used) {
          li.appendChild(button(gettext("Trigger fired: act"), function () { return combatStep("trigger", { combatant: c.id }); }, "", { "data-combat-trigger": c.id }));
        }
      }
      if (isReferee && C.canPlay && combat.round) {
        li.appendChild(button(gettext("Extra action"), function () { return combatStep("extra_action", { combatant: c.id }); }, "", { "data-combat-extra": c.id }));
      }
      list.appendChild(li);
    });
    combatState.appendChild(list);
    renderInitiative();
    renderJoin();
    var turn = combat.turn;
    if (!turn) return;
    if (turn.hidden) {
      combatTurn.appendChild(node("p", "combat-current", gettext("The enemies act")));
      return;
    }
    var who = combat.combatants.filter(function (c) { return c.id === turn.combatant; })[0];
    var p = node("p", "combat-current");
    p.appendChild(node("strong", "", fmt(gettext("{name}'s turn"), { name: who ? who.name : "?" })));
    p.appendChild(document.createTextNode(" · " + fmt(gettext("Spent: maneuvers {m}, actions {a}"), { m: turn.maneuvers, a: turn.actions })));
    if (turn.left) p.appendChild(document.createTextNode(" · " + fmt(gettext("Left: maneuvers {m}, actions {a}"), { m: turn.left.maneuvers, a: turn.left.actions })));
    if (turn.move_left) p.appendChild(document.createTextNode(" · " + fmt(gettext("{n} squares of the Move left"), { n: turn.move_left })));
    combatTurn.appendChild(p);
    if (mine(who) && C.canPlay) {
      var bar = node("div", "combat-actions");
      var left = turn.left || { maneuvers: 0, actions: 0 };
      if (left.maneuvers > 0) {
        bar.appendChild(button(gettext("Move (maneuver)"), function () { return combatStep("spend", { cost: "maneuver", move: true }); }, "", { "data-combat-spend": "move" }));
        bar.appendChild(button(gettext("Maneuver"), function () { return combatStep("spend", { cost: "maneuver" }); }, "", { "data-combat-spend": "maneuver" }));
      }
      if (left.actions > 0) bar.appendChild(button(gettext("Action"), function () { return combatStep("spend", { cost: "action" }); }, "", { "data-combat-spend": "action" }));
      bar.appendChild(button(gettext("End the turn"), function () { return combatStep("end_turn"); }, "primary", { "data-combat-end-turn": "" }));
      combatTurn.appendChild(bar);
      combatTurn.appendChild(turnOptions(who, left));
    }
  }

  function nameOf(cid) {
    var c = (combat ? combat.combatants : []).filter(function (x) { return x.id === cid; })[0];
    return c ? c.name : "?";
  }

  // The turn's other options («Бой › Общие манёвры»; «Бой › Действие «Насмешка»»;
  // «Бой › Подготовить действие»): a target among the combatants this browser sees, then
  // taunt (an action), grab (a maneuver, rolled from the sheet) and ready.
  function turnOptions(who, left) {
    var bar = node("div", "combat-options", null, { "data-combat-options": who.id });
    var target = node("select", "", null, { "data-combat-target": "", "aria-label": gettext("Target") });
    combat.combatants.forEach(function (c) {
      if (c.id === who.id) return;
      var o = node("option", "", c.name); o.value = c.id; target.appendChild(o);
    });
    bar.appendChild(node("span", "muted", gettext("Target") + " "));
    bar.appendChild(target);
    function tokenOf(cid) {
      var c = combat.combatants.filter(function (x) { return x.id === cid; })[0];
      return c ? c.token_id : null;
    }
    if (left.actions > 0) {
      bar.appendChild(button(gettext("Taunt"), function () { return combatStep("taunt", { combatant: who.id, target: target.value }); }, "", { "data-combat-taunt": "" }));
    }
    if (left.maneuvers > 0) {
      bar.appendChild(button(gettext("Grab"), function () {
        return stepCall("combat", "grab", { attacker: who.token_id, target: tokenOf(target.value) })
          .then(function (data) {
            if (data && data.combat !== undefined) setCombat(data.combat, 0);
            if (data && data.outcome && data.outcome.text) toast(tr(data.outcome.text));
          }).catch(fail);
      }, "", { "data-combat-grab": "" }));
    }
    if (who.grabbing) {
      bar.appendChild(button(gettext("Let go"), function () { return combatStep("release", { combatant: who.id }); }, "", { "data-combat-release": "" }));
    }
    if (left.actions > 0) {
      var what = node("input", "", null, { "data-combat-ready-what": "", maxlength: K.limits.readyText, size: "10", placeholder: gettext("What (e.g. attack)"), "aria-label": gettext("What (e.g. attack)") });
      var trigger = node("input", "", null, { "data-combat-ready-trigger": "", maxlength: K.limits.readyText, size: "14", placeholder: gettext("When… (the trigger)"), "aria-label": gettext("Trigger") });
      bar.appendChild(what);
      bar.appendChild(trigger);
      bar.appendChild(button(gettext("Ready an action"), function () {
        return combatStep("ready", { combatant: who.id, what: what.value, trigger: trigger.value });
      }, "", { "data-combat-ready": "" }));
    }
    return bar;
  }

  // «Бой › Кто ходит первым?»: the player the referee named rolls the side initiative from here; the server rolls.
  function renderInitiative() {
    var roller = combat.roller ? String(combat.roller) : "";
    if (isReferee) {
      var select = panel.querySelector("[data-combat-roller]");
      if (select && select.value !== roller) select.value = roller;
      return;
    }
    if (roller && roller === String(me.id) && combat.round_over && C.canPlay) {
      var box = node("p", "combat-initiative");
      box.appendChild(button(gettext("Roll the initiative (1d10)"), function () { return combatStep("initiative"); }, "primary", { "data-combat-initiative": "" }));
      combatState.appendChild(box);
    }
  }

  // Joining a fight under way («Бой»): the referee any token, a player their own characters'.
  function renderJoin() {
    if (!C.canPlay || !map) return;
    var inFight = {};
    combat.combatants.forEach(function (c) { if (c.token_id) inFight[c.token_id] = true; });
    var tokens = map.tokens() || {};
    var choices = Object.keys(tokens).filter(function (id) {
      var t = tokens[id];
      return !inFight[t.id] && (isReferee || (t.owner_id !== null && t.owner_id === me.id));
    });
    if (!choices.length) return;
    var box = node("p", "combat-join");
    var select = node("select", "", null, { "data-combat-join-token": "", "aria-label": gettext("Join the fight") });
    choices.forEach(function (id) { var o = node("option", "", tokens[id].name); o.value = String(tokens[id].id); select.appendChild(o); });
    box.appendChild(select);
    box.appendChild(button(gettext("Join the fight"), function () { return combatStep("join", { token: Number(select.value) }); }, "", { "data-combat-join": "" }));
    combatState.appendChild(box);
  }

  function fillSurprised() {
    var select = panel.querySelector("[data-combat-surprised]");
    if (!select || !map) return;
    var tokens = map.tokens() || {};
    var chosen = {};
    Array.prototype.forEach.call(select.selectedOptions || [], function (o) { chosen[o.value] = true; });
    select.textContent = "";
    Object.keys(tokens).forEach(function (id) {
      var o = node("option", "", tokens[id].name); o.value = id; o.selected = !!chosen[id]; select.appendChild(o);
    });
  }

  function buildCombatControls() {
    if (!isReferee || !panel.querySelector("[data-combat-controls]")) return;
    var roller = panel.querySelector("[data-combat-roller]");
    K.players.forEach(function (p) { var o = node("option", "", p.name); o.value = String(p.id); roller.appendChild(o); });
    roller.addEventListener("change", function () {
      if (combat) combatStep("roller", { roller_id: roller.value ? Number(roller.value) : "" });
    });
    panel.querySelectorAll("[data-combat-step]").forEach(function (b) {
      b.addEventListener("click", function () {
        var step = b.getAttribute("data-combat-step");
        var body = {};
        if (step === "start") {
          var select = panel.querySelector("[data-combat-surprised]");
          body.surprised = Array.prototype.map.call(select.selectedOptions || [], function (o) { return Number(o.value); });
        }
        if (step === "round" && roller.value) body.roller_id = Number(roller.value);
        b.disabled = true;
        combatStep(step, body).then(function () { b.disabled = false; }, function () { b.disabled = false; });
      });
    });
  }

  // ---- live events -----------------------------------------------------------------------------

  function reload() {
    var m = currentMap();
    layout();
    if (m && m.kind === "square") {
      api("GET", url("combat")).then(function (data) { combat = data.combat; renderCombat(); }).catch(function () {});
    } else {
      combat = null;  // a fight belongs to its battle map: none on this one
      renderCombat();
    }
  }

  document.addEventListener("vtt:event", function (e) {
    var ev = e.detail;
    if (!ev || !ev.payload) return;
    var p = ev.payload;
    if (ev.kind === "travel" && "travel" in p) {
      setTravel(p.travel, ev.seq);
      noteMiasma(p);
    }
    else if (ev.kind === "combat" && "combat" in p) {
      var m = currentMap();
      if (m && p.map_id === m.id) setCombat(p.combat, ev.seq);
    } else if (ev.kind === "map.token" || ev.kind === "map.token.gone") {
      setTimeout(fillSurprised, 50);
    }
  });

  // The characters changed (a sheet created, renamed or deleted): map.js has the new list.
  document.addEventListener("vtt:characters", function () {
    C.characters = map.characters();
    buildTravelRoles();
  });

  // map.js loads another map on its own (map.active); follow it when it has.
  var shownMap = currentMap() ? currentMap().id : null;
  setInterval(function () {
    var m = currentMap();
    var id = m ? m.id : null;
    if (id !== shownMap) { shownMap = id; reload(); }
  }, 700);

  buildTravelControls();
  buildCombatControls();
  layout();
  renderTravel();
  renderMiasma();
  renderCombat();
  // Also window.VTTCrows, read by the browser tests (tests/e2e) through page.evaluate.
  var crowsView = {
    travel: function () { return travel; },
    combat: function () { return combat; },
  };
  window.VTTCrows = crowsView;
  return crowsView;
}

/** The Crows panel (null on other maps). */
export const crows = start();
