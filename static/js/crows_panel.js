/* Crows on the map panel: the travel day (hex maps) and the combat strip (square maps).
 *
 * State comes from the server already filtered for this user (vtt/maps/views.py crows_config,
 * vtt/maps/travel.py, vtt/maps/battle.py): a player's browser never holds an encounter or
 * drift roll, the party's true hex while it is lost, or a creature it cannot see. Writes go
 * over HTTP; every step reaches every browser as a `travel` or `combat` event (table.js fires
 * "vtt:event"), each carrying the whole state for its audience, so the newest one wins. The
 * referee's browser reads the referee's copies, everyone else the players' copies.
 */
(function () {
  "use strict";

  var panel = document.querySelector("[data-map-panel]");
  var configNode = document.getElementById("map-config");
  if (!panel || !configNode) return;
  var C = JSON.parse(configNode.textContent);
  if (C.ruleset !== "crows" || !C.crows) return;
  var K = C.crows;
  var L = Object.assign({}, C.labels, K.labels);
  var lang = (C.lang || "ru").slice(0, 2);
  var me = C.me;
  var isReferee = C.isReferee;
  var audience = isReferee ? "referee" : "players";

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

  function tr(text) {
    if (text === null || text === undefined) return "";
    if (typeof text === "string") return text;
    return text[lang] || text.en || text.ru || "";
  }

  function fmt(text, vars) {
    return String(text).replace(/\{(\w+)\}/g, function (m, key) {
      return Object.prototype.hasOwnProperty.call(vars, key) ? String(vars[key]) : m;
    });
  }

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

  function toast(message) {
    var t = document.getElementById("toast");
    if (!t) { window.alert(message); return; }
    t.textContent = message;
    t.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(function () { t.hidden = true; }, 6000);
  }

  function api(method, url, body) {
    var options = {
      method: method,
      credentials: "same-origin",
      headers: { "Accept": "application/json", "X-CSRFToken": C.csrf },
    };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    return fetch(url, options).then(function (response) {
      return response.text().then(function (text) {
        var data = null;
        try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
        if (!response.ok) {
          var error = new Error((data && (data.detail || data.message)) || L.failed);
          error.status = response.status;
          throw error;
        }
        return data;
      });
    });
  }

  function fail(error) { toast((error && error.message) || L.failed); throw error; }

  function mapState() { return window.VTTMap ? window.VTTMap.state() : null; }

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
      travelState.appendChild(node("p", "muted", L.notTravelling));
      return;
    }
    var t = travel;
    var head = node("p", "travel-summary");
    var pace = byKey(K.paces, t.pace);
    head.appendChild(node("strong", "travel-day", fmt(L.day, { n: t.day })));
    if (t.day > 0) {
      head.appendChild(document.createTextNode(" · " + L.pace + ": "));
      head.appendChild(node("span", "travel-pace", pace ? tr(pace) : "—", { "data-pace": t.pace || "" }));
      head.appendChild(document.createTextNode(" · " + fmt(L.hexes, { moved: t.moved, hexes: t.hexes })));
    }
    travelState.appendChild(head);
    var where = node("p", "travel-where");
    where.appendChild(document.createTextNode(L.position + ": "));
    var pos;
    if (t.lost || !t.hex) pos = node("span", "travel-position unknown", L.unknown, { "data-position": "unknown" });
    else {
      var cr = offset(t.hex);
      pos = node("span", "travel-position", fmt(L.hex, { col: cr[0], row: cr[1] }), { "data-position": cr.join(",") });
    }
    where.appendChild(pos);
    if (t.lost) where.appendChild(node("span", "badge warn travel-lost", L.lost));
    if (t.arrived) where.appendChild(node("span", "badge ok", fmt(L.arrived, { place: t.arrived })));
    travelState.appendChild(where);
    if (t.day > 0) {
      travelState.appendChild(node("p", "muted travel-thresholds",
        fmt(L.thresholds, { travel: t.travel_threshold, rest: t.rest_threshold })));
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
        li.appendChild(node("span", "travel-outcome", " · " + fmt(L.tier, { n: r.tier || "?" }) + (result ? " — " + result : ""), { "data-tier": String(r.tier || "") }));
      } else {
        var mine = myCharacter(r.name);
        if (mine && C.canPlay) {
          li.appendChild(button(L.check, function () { return roleCheck(mine, r.task); }, "primary travel-check", { "data-travel-check": r.name }));
        }
      }
      list.appendChild(li);
    });
    if (!(t.roles || []).length && t.day > 0) travelState.appendChild(node("p", "muted", L.noRoles));
    travelState.appendChild(list);
    if ((t.prompts || []).length) {
      var prompts = node("ul", "travel-prompts");
      t.prompts.forEach(function (p) { prompts.appendChild(node("li", "muted", (p.by ? p.by + ": " : "") + (p.note || p.kind))); });
      travelState.appendChild(prompts);
    }
  }

  function roleCheck(character, task) {
    return api("POST", url("travel", "role"), { character_id: character.id, task: task })
      .then(function (data) { if (data && data.travel !== undefined) setTravel(data.travel, 0); })
      .catch(fail);
  }

  function setTravel(state, seq) {
    if (seq && seq <= travelSeq) return;
    if (seq) travelSeq = seq;
    travel = state;
    renderTravel();
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
      var roles = [];
      panel.querySelectorAll("[data-role-for]").forEach(function (select) {
        if (select.value) roles.push({ character_id: Number(select.getAttribute("data-role-for")), task: select.value });
      });
      return { roles: roles };
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
      travelSecret.appendChild(node("p", "", L.saves + ": " + data.saves.map(function (s) {
        return s.name + " " + s.total + (s.tier ? " (" + fmt(L.tier, { n: s.tier }) + ")" : "");
      }).join(", ")));
    }
    if (!secret) return;
    var box = node("p", "travel-secret-line");
    box.appendChild(node("span", "badge warn", L.secret));
    if (secret.roll !== undefined && secret.threshold !== undefined) {
      box.appendChild(document.createTextNode(" " + fmt(secret.encounter ? L.encounterYes : L.encounterNo, secret)));
    }
    if (secret.hex) box.appendChild(document.createTextNode(" " + fmt(L.driftTo, { col: secret.hex[0], row: secret.hex[1] })));
    travelSecret.appendChild(box);
  }

  function travelStep(step, params) {
    return api("POST", url("travel", step), params || travelParams(step)).then(function (data) {
      if (data && data.travel !== undefined) setTravel(data.travel, 0);
      showSecret(data);
    }).catch(fail);
  }

  function buildTravelControls() {
    if (!isReferee || !panel.querySelector("[data-travel-controls]")) return;
    var pace = panel.querySelector("[data-travel-pace]");
    K.paces.forEach(function (p) {
      var o = node("option", "", tr(p)); o.value = p.key; if (p.key === "normal") o.selected = true; pace.appendChild(o);
    });
    var river = panel.querySelector("[data-travel-river]");
    K.rivers.forEach(function (r) { var o = node("option", "", tr(r)); o.value = r.key; river.appendChild(o); });
    var form = panel.querySelector("[data-travel-roles-form]");
    (C.characters || []).forEach(function (c) {
      var label = node("label", "travel-role-pick", c.name + " ");
      var select = node("select", "", null, { "data-role-for": String(c.id) });
      var none = node("option", "", L.noTask); none.value = ""; select.appendChild(none);
      K.roles.forEach(function (role) {
        var group = node("optgroup"); group.label = tr(role);
        K.tasks.filter(function (t) { return t.role === role.key; }).forEach(function (t) {
          var o = node("option", "", tr(t)); o.value = t.key; group.appendChild(o);
        });
        select.appendChild(group);
      });
      label.appendChild(select);
      form.appendChild(label);
    });
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
    return api("POST", url("combat", step), body || {}).then(function (data) {
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
    if (!combat) {
      combatState.appendChild(node("p", "muted", L.combatNone));
      fillSurprised();
      return;
    }
    var head = node("p", "combat-summary");
    head.appendChild(node("strong", "combat-round", combat.round ? fmt(L.round, { n: combat.round }) : L.noRound, { "data-round": String(combat.round) }));
    if (combat.round) {
      head.appendChild(document.createTextNode(" · " + fmt(L.first, { side: sideName(combat.first) }) + " (1d10 = " + combat.initiative_roll + ")"));
      if (!combat.turn && combat.waiting) head.appendChild(document.createTextNode(" · " + fmt(L.waiting, { side: sideName(combat.waiting) })));
    }
    combatState.appendChild(head);
    var list = node("ul", "combatants");
    combat.combatants.forEach(function (c) {
      var li = node("li", "combatant side-" + c.side + (combat.current === c.id ? " current" : ""), null, { "data-combatant": c.id });
      li.appendChild(node("span", "name", c.name));
      var marks = [];
      if (c.surprised) marks.push(L.surprised);
      if (c.acted) marks.push(L.acted);
      if (c.reaction_used) marks.push(L.reactionSpent);
      if (marks.length) li.appendChild(node("small", "muted marks", " " + marks.join(", ")));
      li.setAttribute("data-reaction-used", c.reaction_used ? "1" : "0");
      if (mine(c) && C.canPlay) {
        if (!combat.turn && combat.round && !c.acted && !c.surprised && c.side === combat.waiting) {
          li.appendChild(button(L.startTurn, function () { return combatStep("turn", { combatant: c.id }); }, "primary", { "data-combat-turn-start": c.id }));
        }
        if (!c.reaction_used && combat.round) {
          li.appendChild(button(L.reaction, function () { return combatStep("spend", { combatant: c.id, cost: "reaction" }); }, "", { "data-combat-reaction": c.id }));
        }
      }
      list.appendChild(li);
    });
    combatState.appendChild(list);
    var turn = combat.turn;
    if (!turn) return;
    if (turn.hidden) {
      combatTurn.appendChild(node("p", "combat-current", L.hiddenTurn));
      return;
    }
    var who = combat.combatants.filter(function (c) { return c.id === turn.combatant; })[0];
    var p = node("p", "combat-current");
    p.appendChild(node("strong", "", fmt(L.turnOf, { name: who ? who.name : "?" })));
    p.appendChild(document.createTextNode(" · " + fmt(L.spent, { m: turn.maneuvers, a: turn.actions })));
    if (turn.left) p.appendChild(document.createTextNode(" · " + fmt(L.left, { m: turn.left.maneuvers, a: turn.left.actions })));
    if (turn.move_left) p.appendChild(document.createTextNode(" · " + fmt(L.moveLeft, { n: turn.move_left })));
    combatTurn.appendChild(p);
    if (mine(who) && C.canPlay) {
      var bar = node("div", "combat-actions");
      var left = turn.left || { maneuvers: 0, actions: 0 };
      if (left.maneuvers > 0) {
        bar.appendChild(button(L.moveManeuver, function () { return combatStep("spend", { cost: "maneuver", move: true }); }, "", { "data-combat-spend": "move" }));
        bar.appendChild(button(L.maneuver, function () { return combatStep("spend", { cost: "maneuver" }); }, "", { "data-combat-spend": "maneuver" }));
      }
      if (left.actions > 0) bar.appendChild(button(L.action, function () { return combatStep("spend", { cost: "action" }); }, "", { "data-combat-spend": "action" }));
      bar.appendChild(button(L.endTurn, function () { return combatStep("end_turn"); }, "primary", { "data-combat-end-turn": "" }));
      combatTurn.appendChild(bar);
    }
  }

  function fillSurprised() {
    var select = panel.querySelector("[data-combat-surprised]");
    if (!select || !window.VTTMap) return;
    var tokens = window.VTTMap.tokens() || {};
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
    if (!m) return;
    if (m.kind === "square") {
      api("GET", url("combat")).then(function (data) { combat = data.combat; renderCombat(); }).catch(function () {});
    }
  }

  document.addEventListener("vtt:event", function (e) {
    var ev = e.detail;
    if (!ev || !ev.payload) return;
    var p = ev.payload;
    if (ev.kind === "travel" && p.audience === audience && "travel" in p) setTravel(p.travel, ev.seq);
    else if (ev.kind === "combat" && p.audience === audience && "combat" in p) {
      var m = currentMap();
      if (m && p.map_id === m.id) setCombat(p.combat, ev.seq);
    } else if (ev.kind === "map.token" || ev.kind === "map.token.gone") {
      if (!combat) setTimeout(fillSurprised, 50);
    }
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
  renderCombat();
  window.VTTCrows = {
    travel: function () { return travel; },
    combat: function () { return combat; },
  };
})();
