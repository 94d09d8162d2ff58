/* Move outcomes and the choices they wait for, shared by the sheet page (sheet.js) and the
 * table's log. On the table page this file registers renderers for `move` and `move.details`
 * events (lib/renderers.js); table.js imports this module.
 *
 * A move's outcome (faces, total, band, text) comes from the server, which rolled the dice; a
 * choice (`outcome.options`, `pick`, `chooser`) is offered to whoever makes it (the sheet's
 * owner for "player", the referee for "referee") and POSTed to the pending endpoint. A later
 * `move` event whose `resolves` names the pending id marks the earlier one resolved.
 */
import { request as apiRequest } from "./api.js";
import { h } from "./lib/dom.js";
import { fmt, signed } from "./lib/format.js";
import { gettext, localized as tr } from "./lib/i18n.js";
import { renderers } from "./lib/renderers.js";

// A move's result band (systems: PbtA bands, tiers, outcomes), by the key the server sends.
const BAND_NAMES = {
  "10+": "10+",
  "7-9": "7–9",
  "6-": "6−",
  "1": gettext("tier 1"),
  "2": gettext("tier 2"),
  "3": gettext("tier 3"),
  success: gettext("success"),
  failure: gettext("failure"),
  repeat: gettext("roll again"),
  critical_failure: gettext("critical failure"),
  raise: gettext("raise"),
};

// The page's URL patterns ({id}, {pid}): see init().
var urls = {};

export function bandLabel(band) {
  if (band === null || band === undefined) return "";
  return BAND_NAMES[band] || String(band);
}

/* Faces, modifier, total, band and text of an outcome (the public part every viewer gets). */
export function outcomeNode(outcome) {
  var o = outcome || {};
  var box = h("div", { "class": "outcome", "data-band": o.band === null || o.band === undefined ? "" : String(o.band) });
  var faces = o.faces || [];
  if (faces.length || (o.total !== null && o.total !== undefined)) {
    var dice = h("span", { "class": "dice" });
    faces.forEach(function (face) { dice.appendChild(h("span", { "class": "die", text: String(face) })); });
    var line = h("div", { "class": "roll-line outcome-line" }, [dice]);
    if (o.modifier) line.appendChild(h("span", { "class": "modifier", title: gettext("modifier"), text: signed(o.modifier) }));
    if (o.total !== null && o.total !== undefined) {
      line.appendChild(h("span", { "class": "total", title: gettext("Total"), "data-total": String(o.total), text: String(o.total) }));
    }
    if (o.band !== null && o.band !== undefined && o.band !== "") {
      line.appendChild(h("span", { "class": "band band-" + String(o.band).replace(/[^a-z0-9]/gi, "_"), "data-band": String(o.band), text: bandLabel(o.band) }));
    }
    box.appendChild(line);
  }
  var text = tr(o.text);
  if (text) box.appendChild(h("p", { "class": "outcome-text", text: text }));
  return box;
}

/* Who makes a pending choice: the referee for "referee"; for "player" the sheet's owner, or
 * the referee when the sheet has no owner (an NPC); for "target" (a reaction such as a
 * counterattack) the target's player, whose id the event names as `chooser_id`, or the
 * referee. */
export function isChooser(chooser, ownerId, me, isReferee, chooserId) {
  if (chooser === "referee") return !!isReferee;
  if (chooser === "target") return !!isReferee || (chooserId !== undefined && chooserId === me.id);
  // any other word (the rules' "opponent" in an old event) is not the mover's to answer
  if (chooser && chooser !== "player") return !!isReferee;
  if (ownerId === null || ownerId === undefined) return !!isReferee;
  return ownerId === me.id;
}

/* api.js's call with the page's CSRF token.
 * options.command/args name the table command (docs/table-protocol.md, "Commands"): sent
 * over the page's socket when one is registered with api.js, else by HTTP. */
export function request(method, url, body, csrf, options) {
  var all = { csrf: csrf };
  if (options && options.command) {
    all.command = options.command;
    all.args = options.args;
  }
  return apiRequest(method, url, body, all);
}

/* The command that answers a pending choice, from the sheet it is answered on. */
function choiceCommand(sheetId, pendingId) {
  return { command: "character.choice", args: { cid: Number(sheetId), pending_id: Number(pendingId) } };
}

/* The choice a pending move waits for. opts: {options, pick, chooser, mine, url, csrf,
 * sheetId, pendingId (the command's args), onDone(data), onGone()}. `mine`: this user makes the choice (buttons); otherwise a note. */
export function choiceNode(opts) {
  var box = h("div", { "class": "choices", "data-chooser": opts.chooser || "player" });
  var options = opts.options || [];
  var pick = opts.pick || 1;
  if (!opts.mine) {
    box.appendChild(h("p", {
      "class": "awaiting",
      text: opts.chooser === "referee" ? gettext("Waiting for the referee's choice")
        : opts.chooser === "target" ? gettext("Waiting for the target's player to react") : gettext("Waiting for the player's choice"),
    }));
    if (options.length) {
      var list = h("ul", { "class": "option-list" });
      options.forEach(function (o) { list.appendChild(h("li", { text: tr(o) })); });
      box.appendChild(list);
    }
    return box;
  }
  var error = h("p", { "class": "choice-error", role: "alert", hidden: true });
  var buttons = [];
  function send(keys) {
    buttons.forEach(function (b) { b.disabled = true; });
    error.hidden = true;
    var named = opts.sheetId && opts.pendingId ? choiceCommand(opts.sheetId, opts.pendingId) : null;
    request("POST", opts.url, { choices: keys }, opts.csrf, named).then(function (data) {
      box.classList.add("is-chosen");
      if (opts.onDone) opts.onDone(data);
    }, function (err) {
      if (err.status === 409 && err.data && err.data.code === "already_chosen") {
        if (opts.onGone) opts.onGone();
        return;
      }
      error.textContent = err.message || gettext("The choice was not accepted.");
      error.hidden = false;
      buttons.forEach(function (b) { b.disabled = false; });
    });
  }
  box.appendChild(h("p", { "class": "choose-n", text: fmt(gettext("Choose {n}:"), { n: pick }) }));
  if (pick === 1) {
    var row = h("div", { "class": "choice-buttons" });
    options.forEach(function (o) {
      var b = h("button", { type: "button", "class": "choice-btn", "data-option": o.key, text: tr(o) });
      b.addEventListener("click", function () { send([o.key]); });
      buttons.push(b);
      row.appendChild(b);
    });
    box.appendChild(row);
  } else {
    var selects = [];
    var grid = h("div", { "class": "choice-selects" });
    for (var i = 0; i < pick; i += 1) {
      var select = h("select", { "aria-label": gettext("Choose") + " " + (i + 1), "data-choice-index": String(i) });
      options.forEach(function (o, j) {
        var option = h("option", { value: o.key, text: tr(o) });
        if (j === i % options.length) option.selected = true;
        select.appendChild(option);
      });
      selects.push(select);
      grid.appendChild(select);
    }
    var go = h("button", { type: "button", "class": "primary choice-go", text: gettext("Choose") });
    go.addEventListener("click", function () {
      send(selects.map(function (s) { return s.value; }));
    });
    buttons.push(go);
    selects.forEach(function (s) { buttons.push(s); });
    box.appendChild(grid);
    box.appendChild(go);
  }
  box.appendChild(error);
  return box;
}

export function markResolved(pendingId, root) {
  var scope = root || document;
  var nodes = scope.querySelectorAll('[data-pending-id="' + pendingId + '"]');
  Array.prototype.forEach.call(nodes, function (node) {
    if (node.classList.contains("is-resolved")) return;
    node.classList.add("is-resolved");
    var choices = node.querySelector(".choices");
    if (choices) choices.replaceWith(h("p", { "class": "resolved-mark", text: "✓ " + gettext("resolved") }));
  });
}

/* What the referee sees of a move's details (a monster's HP, the damage rolls). */
export function detailsNode(details) {
  var d = details || {};
  var parts = [];
  if (d.damage && d.damage.expression) {
    parts.push(gettext("damage") + " " + d.damage.expression + (d.damage.faces && d.damage.faces.length ? " [" + d.damage.faces.join(", ") + "]" : "") + " = " + d.damage.total);
  }
  if (d.dealt !== undefined && d.dealt !== null) parts.push(fmt(gettext("dealt {n}"), { n: d.dealt }));
  if (d.target && typeof d.target === "object" && d.target.hp !== undefined) {
    parts.push((d.target.name || "") + ": " + gettext("HP") + " " + d.target.hp + (d.target.max_hp ? "/" + d.target.max_hp : "") + (d.target.hp === 0 ? " (" + gettext("down") + ")" : ""));
  }
  if (d.counter_attack && typeof d.counter_attack === "object") {
    var c = d.counter_attack;
    parts.push(fmt(gettext("counter-attack: {n} damage"), { n: c.final !== undefined ? c.final : (c.damage || 0) }) + (c.hp !== undefined ? " → " + gettext("HP") + " " + c.hp : ""));
  }
  if (d.hp !== undefined && d.final !== undefined) parts.push(gettext("HP") + " " + d.hp);
  if (!parts.length) return null;
  return h("p", { "class": "details-text", text: parts.join(" · ") });
}

/* What the map added to an attack (cover, light, height, flanking) and the check's net
 * advantage, as a line under the move (vtt/rulesets/crows/combat.py puts it in `context`). */
export function contextNode(context, outcome) {
  if (!context || !context.sources) return null;
  var names = context.sources.map(function (s) {
    var mark = (s.side > 0 ? "+" : "−") + (s.weight > 1 ? "×2" : "");
    return tr(s) + " (" + mark + ")";
  });
  var net = ((outcome || {}).flags || {}).net;
  var netText = { "-2": gettext("double disadvantage"), "-1": gettext("disadvantage"), "0": gettext("a plain roll"), "1": gettext("advantage"), "2": gettext("double advantage") }[String(net || 0)];
  var box = h("p", { "class": "map-context", "data-net": String(net || 0) }, [
    h("span", { "class": "map-context-label", text: fmt(gettext("From the map against {target}:"), { target: context.target_name || "" }) + " " }),
    h("span", { "class": "map-context-sources", text: names.length ? names.join(", ") : gettext("nothing from the map") }),
    h("span", { "class": "map-context-net", text: " → " + (netText || "") }),
  ]);
  return box;
}

/** The page's URL patterns: `sheet_url`, `choose_url`, `characters` and, on the table page,
 * `list_url` (vtt/characters/views.py move_urls(): the sheet's config.moveUrls, the table's
 * moves-config). */
export function init(pageUrls) {
  urls = pageUrls || {};
}

// ---- the table log ----------------------------------------------------------------------

function startLog() {
  var configNode = document.getElementById("moves-config");
  var tableNode = document.getElementById("table-config");
  if (!configNode || !tableNode) return;
  init(JSON.parse(configNode.textContent));
  var table = JSON.parse(tableNode.textContent);
  var resolved = new Set();
  var owners = null;       // character id -> owner id (null for NPCs)
  var waiting = [];        // callbacks for when owners are known

  function withOwners(callback) {
    if (owners) { callback(); return; }
    waiting.push(callback);
    if (waiting.length > 1) return;
    request("GET", urls.list_url, undefined, table.csrf).then(function (list) {
      owners = {};
      (list || []).forEach(function (c) { owners[c.id] = c.owner_id; });
    }, function () {
      owners = {};
    }).then(function () {
      var run = waiting;
      waiting = [];
      run.forEach(function (cb) { cb(); });
    });
  }

  document.addEventListener("vtt:event", function (event) {
    var ev = event.detail;
    if (owners && ev && (ev.kind === "character.created" || ev.kind === "character.updated")) {
      owners[ev.payload.character_id] = ev.payload.owner_id;
    }
  });

  renderers.move = function (ev, api) {
    var p = ev.payload || {};
    var li = api.entryShell(ev, "move", "");
    li.setAttribute("data-character-id", String(p.character_id));
    var title = h("div", { "class": "move-what" }, [
      h("a", { "class": "move-char", href: urls.sheet_url.replace("{id}", p.character_id), text: p.character_name || "" }),
      h("span", { "class": "move-name", text: tr(p.move_name) }),
    ]);
    li.appendChild(title);
    li.appendChild(outcomeNode(p.outcome));
    var context = contextNode(p.context, p.outcome);
    if (context) li.appendChild(context);
    if (p.resolves) {
      resolved.add(p.resolves);
      markResolved(p.resolves);
    }
    if (p.pending_id) {
      li.setAttribute("data-pending-id", String(p.pending_id));
      if (resolved.has(p.pending_id)) {
        li.classList.add("is-resolved");
        li.appendChild(h("p", { "class": "resolved-mark", text: "✓ " + gettext("resolved") }));
      } else {
        var slot = h("div", { "class": "choices" });
        li.appendChild(slot);
        var o = p.outcome || {};
        withOwners(function () {
          if (resolved.has(p.pending_id) || !slot.parentNode) return;
          var owner = Object.prototype.hasOwnProperty.call(owners, p.character_id) ? owners[p.character_id] : undefined;
          var reaction = o.chooser === "target";
          var mine = table.canPlay && (reaction || owner !== undefined) &&
            isChooser(o.chooser, owner, table.me, table.isReferee, p.chooser_id);
          // a reaction is answered from the target's own sheet (always visible to its player)
          var sheetId = reaction && p.chooser_character_id ? p.chooser_character_id : p.character_id;
          slot.replaceWith(choiceNode({
            options: o.options, pick: o.pick, chooser: o.chooser, mine: mine, csrf: table.csrf,
            url: urls.choose_url.replace("{id}", sheetId).replace("{pid}", p.pending_id),
            sheetId: sheetId, pendingId: p.pending_id,
            onGone: function () { resolved.add(p.pending_id); markResolved(p.pending_id); },
          }));
        });
      }
    }
    return li;
  };

  /* A reaction offered to this player by a creature they cannot see (a whisper). */
  renderers["move.reaction"] = function (ev, api) {
    var p = ev.payload || {};
    var o = p.outcome || {};
    var li = api.entryShell(ev, "move", "reaction");
    li.setAttribute("data-pending-id", String(p.pending_id));
    li.appendChild(h("div", { "class": "move-what" }, [
      h("span", { "class": "move-char", text: p.character_name || "" }),
      h("span", { "class": "move-name", text: tr(p.move_name) }),
    ]));
    if (o.text) li.appendChild(h("p", { "class": "outcome-text", text: tr(o.text) }));
    if (resolved.has(p.pending_id)) {
      li.classList.add("is-resolved");
      li.appendChild(h("p", { "class": "resolved-mark", text: "✓ " + gettext("resolved") }));
      return li;
    }
    li.appendChild(choiceNode({
      options: o.options, pick: o.pick, chooser: "target", csrf: table.csrf,
      mine: table.canPlay && isChooser("target", null, table.me, table.isReferee, p.chooser_id),
      url: urls.choose_url.replace("{id}", p.chooser_character_id).replace("{pid}", p.pending_id),
      sheetId: p.chooser_character_id, pendingId: p.pending_id,
      onGone: function () { resolved.add(p.pending_id); markResolved(p.pending_id); },
    }));
    return li;
  };

  /* The travel day (Crows): one line per step (the referee's copy carries the secret rolls;
   * players get theirs without them, and each receives only its own). */
  renderers.travel = function (ev, api) {
    var p = ev.payload || {};
    var text = tr(p.text);
    if (!text) return null;
    var li = api.entryShell(ev, "travel", "");
    li.setAttribute("data-travel-type", p.type || "");
    li.appendChild(h("div", { "class": "chat-text travel-text", text: text }));
    return li;
  };

  /* Combat rounds on the battle map (Crows): one line per step (a hidden creature's steps
   * reach players without a text, so nothing is drawn for them). */
  renderers.combat = function (ev, api) {
    var p = ev.payload || {};
    var text = tr(p.text);
    if (!text) return null;
    var li = api.entryShell(ev, "combat", "");
    li.setAttribute("data-combat-type", p.type || "");
    li.appendChild(h("div", { "class": "chat-text combat-text", text: text }));
    return li;
  };

  renderers["move.details"] = function (ev, api) {
    var node = detailsNode(ev.payload && ev.payload.details);
    if (!node) return null;
    var li = api.entryShell(ev, "details", "");
    var vis = li.querySelector(".vis");
    if (vis) vis.textContent = gettext("Referee only");
    li.setAttribute("data-character-id", String(ev.payload.character_id));
    li.appendChild(node);
    return li;
  };
}

startLog();
