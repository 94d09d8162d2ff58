/* The live table: the event log over the socket, presence, hidden-roll verification and the
 * initiative tracker. Protocol: docs/table-protocol.md. Actions travel as `command` frames on
 * the same socket (api.js's useSocket): the reveal and the initiative through api.js, the roll
 * bar and chat (htmx forms) as the `roll` and `chat` commands while the socket is connected.
 * With the socket down, api.js uses the REST API and htmx posts the forms as before.
 *
 * The socket client is socket.js's (shared with the character sheet); this file adds presence,
 * the connection badge and the frames besides the log's.
 *
 * Positions: `position` is the last sequence number this browser processed. The page starts at
 * the head it was rendered with; `hello` sends it, the server replays what came after. A live
 * event whose `prev` is ahead of `position` means something was missed: ask for a replay from
 * `position` and drop live events until it arrives (the replay covers them).
 */
import { failedText, request as apiRequest, newKey, useSocket } from "./api.js";
import { h, onParsed } from "./lib/dom.js";
import { fmt } from "./lib/format.js";
import { gettext } from "./lib/i18n.js";
import { renderers } from "./lib/renderers.js";
import { toast } from "./lib/toast.js";
import { digest as sha256Digest } from "./sha256.js";
import { connect as connectSocket } from "./socket.js";

// A member's role (vtt/campaigns/models.py Role), by key.
const ROLE_NAMES = {
  referee: gettext("Referee"),
  player: gettext("Player"),
  observer: gettext("Observer"),
};

function start() {
  var root = document.getElementById("table");
  var configNode = document.getElementById("table-config");
  if (!root || !configNode) return null;
  var config = JSON.parse(configNode.textContent);
  // Other modules render their event kinds (lib/renderers.js) and may listen to the
  // "vtt:event" DOM event that fires for every applied event; "vtt:live" fires once the events
  // the page came with are applied.
  var me = config.me;
  var members = {};
  config.members.forEach(function (m) { members[m.id] = m; });
  var rendererApi = {
    h: h, entryShell: entryShell, config: config, me: me, members: members
  };

  // ---- small helpers -----------------------------------------------------------------------

  var ICONS = {
    lock: "M7 10V7a5 5 0 0 1 10 0v3h1a1 1 0 0 1 1 1v9a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1v-9a1 1 0 0 1 1-1h1zm2 0h6V7a3 3 0 0 0-6 0v3z",
    eye: "M12 5c5 0 9 4.5 10 7-1 2.5-5 7-10 7S3 14.5 2 12c1-2.5 5-7 10-7zm0 3a4 4 0 1 0 0 8 4 4 0 0 0 0-8zm0 2a2 2 0 1 1 0 4 2 2 0 0 1 0-4z",
    eyeOff: "M3.3 2 22 20.7 20.7 22l-3.4-3.4A11 11 0 0 1 12 19c-5 0-9-4.5-10-7 .6-1.5 2.2-3.8 4.6-5.4L2 3.3 3.3 2zm5 6 1.5 1.5a2.5 2.5 0 0 0 3.7 3.7l1.5 1.5A4.5 4.5 0 0 1 8.3 8zM12 5c5 0 9 4.5 10 7-.4 1-1.3 2.4-2.5 3.7l-3-3A4.5 4.5 0 0 0 11.3 7.5L9.4 5.6C10.2 5.2 11.1 5 12 5z",
  };

  function icon(name) {
    var ns = "http://www.w3.org/2000/svg";
    var svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("class", "icon-svg");
    svg.setAttribute("aria-hidden", "true");
    var path = document.createElementNS(ns, "path");
    path.setAttribute("d", ICONS[name]);
    path.setAttribute("fill", "currentColor");
    svg.appendChild(path);
    return svg;
  }

  function memberName(id) {
    if (id === me.id) return gettext("you");
    return members[id] ? members[id].name : "#" + id;
  }

  var timeFormat = new Intl.DateTimeFormat(config.lang, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  var dateFormat = new Intl.DateTimeFormat(config.lang, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });

  function timeNode(iso) {
    var date = new Date(iso);
    var today = new Date();
    var text = date.toDateString() === today.toDateString() ? timeFormat.format(date) : dateFormat.format(date);
    return h("time", { datetime: iso, title: date.toLocaleString(config.lang), text: text });
  }

  /* The page's API calls (api.js); a field error names its field. `command`/`args` name the
   * table action, sent over the socket when it is connected. */
  function api(method, url, body, command, args) {
    return apiRequest(method, url, body, {
      csrf: config.csrf, keyed: true, command: command, args: args,
    });
  }

  // ---- the log -----------------------------------------------------------------------------

  var logBox = document.getElementById("log");
  var logList = document.getElementById("log-list");
  var logEmpty = document.getElementById("log-empty");
  var earlierButton = document.getElementById("log-earlier");

  var log = {
    seen: new Set(),         // seqs applied (live, replayed or loaded earlier)
    oldest: null,            // lowest seq loaded, for "Show earlier"
    entries: new Map(),      // roll_id -> the log entry showing that roll (full or placeholder)
    full: new Set(),         // roll_ids whose full result this user saw
    commitments: new Map(),  // roll_id -> commitment seen in the log before any reveal
    revealed: new Set(),     // roll_ids revealed
    waiting: [],             // reveals whose commitment is not loaded yet
  };
  var initiativeSeq = config.head;

  function visibilityMarker(ev) {
    var v = ev.visibility;
    var text = gettext("everyone");
    if (v === "referee") text = gettext("to the referee");
    // The referee's full copy of an event the players get their own copy of (``audience``):
    // public, not blind (docs/table-protocol.md, the two copies of one event).
    else if (v === "blind" && ev.payload && ev.payload.audience === "referee") text = gettext("everyone (players see their own copy)");
    else if (v === "blind") text = gettext("blind");
    else if (v === "whisper") {
      text = ev.target_id === me.id ? gettext("whisper to you") : fmt(gettext("whisper to {name}"), { name: memberName(ev.target_id) });
    }
    return h("span", { "class": "vis vis-" + v, text: text });
  }

  function entryShell(ev, kind, extraClass) {
    var who = ev.actor ? (ev.actor.id === me.id ? ev.actor.name + " (" + gettext("you") + ")" : ev.actor.name) : "—";
    var head = h("div", { "class": "entry-head" }, [
      h("span", { "class": "who", text: who }),
      visibilityMarker(ev),
      timeNode(ev.created_at),
    ]);
    var li = h("li", {
      "class": "entry entry-" + kind + " vis-" + ev.visibility + (extraClass ? " " + extraClass : ""),
      "data-seq": String(ev.seq),
      "data-kind": ev.kind,
    }, [head]);
    return li;
  }

  function diceNodes(term) {
    var out = [];
    (term.dice || []).forEach(function (die) {
      var faces = die.faces || [];
      var group = h("span", {
        "class": "die-group" + (die.kept === false ? " dropped" : "") + (die.exploded ? " exploded" : ""),
        title: "d" + term.sides + (die.kept === false ? " ✕" : "") + (die.capped ? " (max)" : ""),
      });
      faces.forEach(function (face, i) {
        var cls = "die d" + term.sides;
        if (face === term.sides) cls += " max";
        if (face === 1) cls += " min";
        if (i > 0) cls += " chained";
        group.appendChild(h("span", { "class": cls, text: String(face) }));
      });
      out.push(group);
    });
    return out;
  }

  function rollBody(p) {
    var terms = p.terms || [];
    var dice = h("div", { "class": "dice" });
    terms.forEach(function (term, i) {
      var termNode = h("span", { "class": "term", "data-notation": term.notation || "" });
      if (terms.length > 1) termNode.appendChild(h("span", { "class": "term-name", text: term.notation || "" }));
      diceNodes(term).forEach(function (n) { termNode.appendChild(n); });
      dice.appendChild(termNode);
    });
    return h("div", { "class": "roll" }, [
      h("div", { "class": "roll-what" }, [
        p.label ? h("span", { "class": "roll-label", text: p.label }) : null,
        h("code", { "class": "notation", title: gettext("Dice"), text: p.notation || "" }),
      ]),
      h("div", { "class": "roll-line" }, [
        dice,
        h("span", { "class": "total", title: gettext("Total"), "data-total": String(p.total), text: String(p.total) }),
      ]),
      p.text ? h("div", { "class": "roll-text", text: p.text }) : null,
    ]);
  }

  function commitmentNode(commitment) {
    return h("span", { "class": "commitment", title: commitment, "data-commitment": commitment }, [
      gettext("commitment") + " ",
      h("code", { text: commitment.slice(0, 12) + "…" }),
    ]);
  }

  function markRevealed(rollId) {
    var entry = log.entries.get(rollId);
    if (!entry) return;
    var button = entry.querySelector(".reveal-btn");
    if (button) button.remove();
    if (!entry.querySelector(".revealed-mark")) {
      entry.querySelector(".entry-head").appendChild(h("span", { "class": "badge revealed-mark", text: gettext("revealed") }));
    }
  }

  function renderRoll(ev) {
    var p = ev.payload;
    var hidden = !!p.commitment;
    var li = entryShell(ev, "roll", hidden ? "hidden-roll" : "");
    li.setAttribute("data-roll-id", String(p.roll_id));
    li.appendChild(rollBody(p));
    if (hidden) {
      log.commitments.set(p.roll_id, p.commitment);
      var foot = h("div", { "class": "entry-foot" }, [commitmentNode(p.commitment)]);
      if (config.isReferee && config.canPlay && !log.revealed.has(p.roll_id)) {
        var button = h("button", { type: "button", "class": "small reveal-btn", text: gettext("Reveal") });
        button.addEventListener("click", function () { reveal(p.roll_id, button); });
        foot.appendChild(button);
      }
      li.appendChild(foot);
    }
    var placeholder = log.entries.get(p.roll_id);
    if (placeholder && !log.full.has(p.roll_id)) placeholder.remove(); // loaded earlier out of order
    log.full.add(p.roll_id);
    log.entries.set(p.roll_id, li);
    if (log.revealed.has(p.roll_id)) setTimeout(function () { markRevealed(p.roll_id); });
    return li;
  }

  function renderHidden(ev) {
    var p = ev.payload;
    if (!log.commitments.has(p.roll_id)) log.commitments.set(p.roll_id, p.commitment);
    if (log.full.has(p.roll_id)) return null; // this user saw the roll itself
    var li = entryShell(ev, "hidden", "hidden-roll");
    li.setAttribute("data-roll-id", String(p.roll_id));
    li.querySelector(".vis").textContent = p.visibility === "blind" ? gettext("blind") : gettext("to the referee");
    li.appendChild(h("div", { "class": "secret" }, [
      icon("lock"),
      h("span", { text: gettext("rolled in secret") }),
    ]));
    li.appendChild(h("div", { "class": "entry-foot" }, [commitmentNode(p.commitment)]));
    log.entries.set(p.roll_id, li);
    if (log.revealed.has(p.roll_id)) setTimeout(function () { markRevealed(p.roll_id); });
    return li;
  }

  function renderReveal(ev) {
    var p = ev.payload;
    var li = entryShell(ev, "reveal", "");
    li.setAttribute("data-roll-id", String(p.roll_id));
    li.querySelector(".vis").textContent = gettext("hidden roll revealed");
    var parsed = null;
    try { parsed = JSON.parse(p.preimage).roll; } catch (e) { parsed = null; }
    var badge = h("span", { "class": "verify", "data-state": "checking", text: gettext("checking…") });
    if (parsed) li.appendChild(rollBody(parsed));
    li.appendChild(h("div", { "class": "entry-foot" }, [badge]));
    log.revealed.add(p.roll_id);
    markRevealed(p.roll_id);
    verify({ payload: p, parsed: parsed, badge: badge });
    return li;
  }

  /* Hash the revealed preimage here, in this browser, and compare with the commitment this
   * browser saw earlier in the log, not with anything the reveal itself claims. */
  function verify(item) {
    var p = item.payload;
    var seen = log.commitments.get(p.roll_id);
    var badge = item.badge;
    if (!item.parsed) { setVerify(badge, "mismatch", gettext("does NOT match its commitment")); return; }
    sha256Digest(p.preimage).then(function (result) {
      badge.setAttribute("data-via", result.via);
      badge.setAttribute("data-hash", result.hex);
      if (!seen) {
        setVerify(badge, "unseen", gettext("commitment not loaded: show earlier entries to check"));
        if (log.waiting.indexOf(item) < 0) log.waiting.push(item);
        return;
      }
      var ok = result.hex === seen && item.parsed.roll_id === p.roll_id;
      setVerify(badge, ok ? "verified" : "mismatch", ok ? "✓ " + gettext("verified") : "✗ " + gettext("does NOT match its commitment"));
      if (ok) badge.title = gettext("Your browser hashed the revealed roll itself and got the commitment it saw before.");
    });
  }

  function setVerify(badge, state, text) {
    var stick = nearBottom();
    badge.setAttribute("data-state", state);
    badge.textContent = text;
    if (stick) logBox.scrollTop = logBox.scrollHeight;
  }

  function renderChat(ev) {
    var li = entryShell(ev, "chat", "");
    li.appendChild(h("div", { "class": "chat-text", text: ev.payload.text || "" }));
    return li;
  }

  function renderOther(ev) {
    // Kinds added later (moves, timers, tokens) show their text if they carry one.
    var text = ev.payload && (ev.payload.text || ev.payload.summary);
    if (!text) return null;
    var li = entryShell(ev, "other", "");
    li.appendChild(h("div", { "class": "chat-text", text: String(text) }));
    return li;
  }

  function applyEvent(ev) {
    if (log.seen.has(ev.seq)) return;
    log.seen.add(ev.seq);
    if (log.oldest === null || ev.seq < log.oldest) log.oldest = ev.seq;
    var node = null;
    switch (ev.kind) {
      case "initiative":
        if (ev.seq > initiativeSeq) {
          initiativeSeq = ev.seq;
          renderInitiative(ev.payload);
        }
        return;
      case "roll": node = renderRoll(ev); break;
      case "roll.hidden": node = renderHidden(ev); break;
      case "roll.reveal": node = renderReveal(ev); break;
      case "chat": node = renderChat(ev); break;
      default:
        node = renderers[ev.kind]
          ? renderers[ev.kind](ev, rendererApi)
          : renderOther(ev);
    }
    if (node) insertEntry(node, ev.seq);
    document.dispatchEvent(new CustomEvent("vtt:event", { detail: ev }));
  }

  function nearBottom() {
    return logBox.scrollHeight - logBox.scrollTop - logBox.clientHeight < 120;
  }

  function insertEntry(node, seq) {
    var stick = nearBottom();
    var last = logList.lastElementChild;
    if (!last || Number(last.getAttribute("data-seq")) < seq) {
      logList.appendChild(node);
    } else {
      var before = null;
      for (var child = logList.firstElementChild; child; child = child.nextElementSibling) {
        if (Number(child.getAttribute("data-seq")) > seq) { before = child; break; }
      }
      logList.insertBefore(node, before);
      stick = false;
    }
    logEmpty.hidden = true;
    if (stick) logBox.scrollTop = logBox.scrollHeight;
  }

  function loadEarlier() {
    if (log.oldest === null) return;
    var before = log.oldest;
    earlierButton.disabled = true;
    var since = Math.max(0, before - 201);
    var step = function () {
      return api("GET", config.urls.events + "?since=" + since + "&limit=1000").then(function (data) {
        var older = data.events.filter(function (ev) { return ev.seq < before; });
        if (!older.length && since > 0) {
          before = since + 1;
          since = Math.max(0, since - 200);
          return step();
        }
        var height = logBox.scrollHeight;
        var top = logBox.scrollTop;
        older.forEach(applyEvent);
        if (since === 0 || log.oldest === 1) earlierButton.hidden = true;
        logBox.scrollTop = top + (logBox.scrollHeight - height);
        var waiting = log.waiting;
        log.waiting = [];
        waiting.forEach(verify);
      });
    };
    step().catch(function (err) { toast(err.message); }).then(function () { earlierButton.disabled = false; });
  }

  function reveal(rollId, button) {
    button.disabled = true;
    api("POST", config.urls.reveal.replace("{id}", rollId), undefined, "roll.reveal", { roll_id: Number(rollId) }).then(function () {
      // The socket brings roll.reveal to everyone, this browser included.
    }, function (err) {
      button.disabled = false;
      toast(err.message);
    });
  }

  // ---- the socket ----------------------------------------------------------------------------

  var connNode = document.getElementById("conn");
  var connText = connNode.querySelector(".conn-text");
  var retryButton = connNode.querySelector(".conn-retry");
  var uiState = "connecting"; // as shown; "offline" also when the browser says it is
  var countdown = null;
  var sock = null; // socket.js's client, started at the end

  /* Show the connection state: the badge, a countdown to the next try, presence. */
  function setState(state, info) {
    uiState = state;
    connNode.setAttribute("data-state", state);
    clearInterval(countdown);
    var text;
    if (state === "connected") text = gettext("Connected");
    else if (state === "connecting") text = gettext("Connecting…");
    else if (state === "denied") text = gettext("No access to this table");
    else if (state === "offline") text = gettext("Offline");
    else text = gettext("Reconnecting…");
    connText.textContent = text;
    retryButton.hidden = !(state === "reconnecting" || state === "offline");
    if (state === "reconnecting") {
      var retryAt = info ? info.retryAt : 0;
      var tick = function () {
        var seconds = Math.max(0, Math.ceil((retryAt - Date.now()) / 1000));
        connText.textContent = seconds > 0 ? fmt(gettext("Reconnecting in {s} s…"), { s: seconds }) : gettext("Reconnecting…");
      };
      tick();
      countdown = setInterval(tick, 1000);
    }
    root.setAttribute("data-conn", state);
    renderPresence();
  }

  /* Frames besides the event log's, which socket.js handles. */
  function onFrame(frame) {
    switch (frame.type) {
      case "presence": onPresence(frame); break;
      case "error":
        if (frame.code === "removed") toast(frame.message);
        break;
      default: break;
    }
  }

  /* The socket went away: who was online is no longer known. The next connection's snapshot
   * (a `here` from every socket at the table) tells again. */
  function forgetPeers() {
    peers.clear();
    renderPresence();
  }

  // ---- presence ------------------------------------------------------------------------------

  // Who is at the table, by connection: the snapshot after connecting (one `here` per socket
  // already there), then changes (`join`, `leave`). Nothing is repeated, so nothing times out.
  var presenceList = document.getElementById("presence");
  var peers = new Map(); // connection id -> user

  function onPresence(frame) {
    if (frame.op === "leave") peers.delete(frame.conn);
    else peers.set(frame.conn, frame.user); // "here" (the snapshot) or "join"
    renderPresence();
  }

  function renderPresence() {
    var users = new Map(); // one line per person, however many tabs they have open
    peers.forEach(function (user) {
      if (user.id !== me.id) users.set(user.id, user);
    });
    presenceList.textContent = "";
    var online = uiState === "connected";
    presenceList.appendChild(h("li", { "class": "peer self" + (online ? " online" : ""), "data-user-id": String(me.id) }, [
      h("span", { "class": "dot", "aria-hidden": "true" }),
      h("span", { "class": "name", text: me.name + " (" + gettext("you") + ")" }),
      h("span", { "class": "role role-" + me.role, text: roleLabel(me.role) }),
    ]));
    Array.from(users.values())
      .sort(function (a, b) { return a.name.localeCompare(b.name, config.lang); })
      .forEach(function (user) {
        presenceList.appendChild(h("li", { "class": "peer online", "data-user-id": String(user.id) }, [
          h("span", { "class": "dot", "aria-hidden": "true" }),
          h("span", { "class": "name", text: user.name }),
          h("span", { "class": "role role-" + user.role, text: roleLabel(user.role) }),
        ]));
      });
    if (!users.size) presenceList.appendChild(h("li", { "class": "muted nobody", text: gettext("No one else is here.") }));
  }

  function roleLabel(role) {
    return ROLE_NAMES[role] || role;
  }

  // ---- initiative ----------------------------------------------------------------------------

  var initList = document.getElementById("init-list");
  var initRound = document.getElementById("init-round");
  var initHiddenTurn = document.getElementById("init-hidden-turn");
  var initDirty = null;

  function canEdit(entry) {
    return config.canPlay && (config.isReferee || entry.owner_id === me.id);
  }

  function renderInitiative(snapshot) {
    config.initiative = snapshot;
    if (!initList) return; // the ruleset deals initiative itself: no generic tracker on the page
    if (initList.contains(document.activeElement) && document.activeElement.tagName === "INPUT") {
      initDirty = snapshot; // do not pull the field from under the user's fingers
      return;
    }
    initDirty = null;
    initRound.textContent = snapshot.round ? fmt(gettext("Round {n}"), { n: snapshot.round }) : "";
    initHiddenTurn.hidden = !snapshot.current_hidden;
    initHiddenTurn.textContent = gettext("A hidden participant acts.");
    initList.textContent = "";
    if (!snapshot.entries.length) {
      initList.appendChild(h("li", { "class": "muted empty-init", text: gettext("No one in the initiative yet.") }));
      return;
    }
    snapshot.entries.forEach(function (entry) {
      var current = snapshot.current === entry.id;
      var editable = canEdit(entry);
      var li = h("li", {
        "class": "init-entry" + (current ? " current" : "") + (entry.hidden ? " is-hidden" : ""),
        "data-entry-id": String(entry.id),
        "aria-current": current ? "true" : null,
      });
      li.appendChild(h("span", { "class": "turn-mark", title: current ? gettext("Current turn") : "", text: current ? "▶" : "" }));
      li.appendChild(h("span", { "class": "init-name" }, [
        entry.name,
        entry.hidden ? h("small", { "class": "hidden-note", text: gettext("hidden") }) : null,
      ]));
      if (editable) {
        var input = h("input", {
          type: "number", "class": "init-value", "aria-label": gettext("Initiative value") + ": " + entry.name,
          value: entry.value === null ? "" : String(entry.value), min: -config.limits.entryValue, max: config.limits.entryValue,
          inputMode: "numeric",
        });
        input.addEventListener("change", function () {
          var raw = input.value.trim();
          initiativeCall("PATCH", config.urls.initiativeEntry.replace("{id}", entry.id), "initiative.update", entry.id,
            { value: raw === "" ? null : Number(raw) });
        });
        input.addEventListener("blur", function () {
          setTimeout(function () { if (initDirty) renderInitiative(initDirty); }, 0);
        });
        li.appendChild(input);
      } else {
        li.appendChild(h("span", { "class": "init-value-text", text: entry.value === null ? "—" : String(entry.value) }));
      }
      if (config.isReferee && config.canPlay) {
        var toggle = h("button", {
          type: "button", "class": "small icon", title: entry.hidden ? gettext("Show to players") : gettext("Hide from players"),
          "aria-label": (entry.hidden ? gettext("Show to players") : gettext("Hide from players")) + ": " + entry.name,
        }, [icon(entry.hidden ? "eyeOff" : "eye")]);
        toggle.addEventListener("click", function () {
          initiativeCall("PATCH", config.urls.initiativeEntry.replace("{id}", entry.id), "initiative.update", entry.id, { hidden: !entry.hidden });
        });
        li.appendChild(toggle);
      }
      if (editable) {
        var remove = h("button", {
          type: "button", "class": "small icon danger", title: gettext("Remove"), "aria-label": gettext("Remove") + ": " + entry.name, text: "✕",
        });
        remove.addEventListener("click", function () {
          if (!window.confirm(fmt(gettext("Remove {name} from the initiative?"), { name: entry.name }))) return;
          initiativeCall("DELETE", config.urls.initiativeEntry.replace("{id}", entry.id), "initiative.remove", entry.id);
        });
        li.appendChild(remove);
      }
      initList.appendChild(li);
    });
  }

  /* The socket brings the new snapshot to everyone; the response is applied only when the
   * socket is down, since it could be older than an event that already arrived. */
  function initiativeCall(method, url, command, entryId, body) {
    var args = entryId === null ? {} : { entry_id: entryId };
    return api(method, url, body, command, args).then(function (snapshot) {
      if (uiState !== "connected" && snapshot && snapshot.entries) renderInitiative(snapshot);
      return snapshot;
    }, function (err) {
      toast(err.message);
      throw err;
    });
  }

  var controls = document.querySelectorAll("[data-init]");
  Array.prototype.forEach.call(controls, function (button) {
    button.addEventListener("click", function () {
      var action = button.getAttribute("data-init");
      var question = button.getAttribute("data-confirm");
      if (question && !window.confirm(question)) return;
      var call;
      if (action === "next" || action === "previous") {
        call = initiativeCall("POST", config.urls.initiativeStep, "initiative.step", null, { direction: action });
      } else if (action === "sort") {
        call = initiativeCall("POST", config.urls.initiativeOrder, "initiative.order", null, { by_value: true });
      } else if (action === "reset" || action === "clear") {
        call = initiativeCall("POST", config.urls.initiativeReset, "initiative.reset", null, { clear: action === "clear" });
      }
      if (call) {
        button.disabled = true;
        call.catch(function () {}).then(function () { button.disabled = false; });
      }
    });
  });

  var addForm = document.getElementById("init-add");
  if (addForm) {
    addForm.addEventListener("submit", function (event) {
      event.preventDefault();
      var name = addForm.elements.name.value.trim();
      if (!name) return;
      var raw = addForm.elements.value.value.trim();
      var body = { name: name, value: raw === "" ? null : Number(raw) };
      if (addForm.elements.hidden) body.hidden = addForm.elements.hidden.checked;
      var button = addForm.querySelector("button");
      button.disabled = true;
      initiativeCall("POST", config.urls.initiative, "initiative.add", null, body).then(function () {
        addForm.elements.value.value = "";
        if (config.isReferee) addForm.elements.name.value = "";
      }, function () {}).then(function () { button.disabled = false; });
    });
  }

  // ---- forms (htmx) --------------------------------------------------------------------------

  var visibility = document.getElementById("visibility");
  var recipient = document.getElementById("recipient");
  function syncAudience() {
    if (!visibility || !recipient) return;
    var whisper = visibility.value === "whisper";
    recipient.hidden = !whisper;
    recipient.disabled = !whisper;
  }
  if (visibility) {
    visibility.addEventListener("change", syncAudience);
    syncAudience();
  }

  var refocusChat = false;
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.id === "chat-form") refocusChat = true;
  });
  document.body.addEventListener("htmx:afterSettle", function () {
    if (!refocusChat) return;
    refocusChat = false;
    var input = document.querySelector("#chat-form input[name=text]");
    if (input) input.focus();
  });
  document.body.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    toast(failedText() + (xhr && xhr.status ? " (" + xhr.status + ")" : ""));
  });
  document.body.addEventListener("htmx:sendError", function () { toast(failedText()); });

  // ---- the roll bar and chat as socket commands ----------------------------------------------
  // While the socket is connected the two htmx forms are sent as the `roll` and `chat`
  // commands (htmx's request is cancelled in htmx:confirm); the answer is shown where the
  // fragment would have been, and the form reset as the fragment resets it. With the socket
  // down, htmx posts them to the page views as before.

  function audience() {
    var params = {};
    if (visibility) params.visibility = visibility.value || "everyone";
    if (params.visibility === "whisper" && recipient && recipient.value) {
      params.target_id = Number(recipient.value);
    }
    return params;
  }

  function formBusy(form, busy) {
    if (busy) form.setAttribute("data-sending", ""); else form.removeAttribute("data-sending");
    Array.prototype.forEach.call(form.querySelectorAll("button"), function (button) {
      button.disabled = busy;
    });
  }

  function formKey(form) {
    var field = form.elements.idempotency_key;
    return field && field.value ? field.value : newKey();
  }

  function errorNode(err) {
    var node = h("div", { "class": "msg error", role: "alert", "data-code": err.code || "" }, [err.message || failedText()]);
    var fields = (err.data && err.data.fields) || {};
    Object.keys(fields).forEach(function (name) {
      (Array.isArray(fields[name]) ? fields[name] : []).forEach(function (text) {
        if (text !== err.message) { node.appendChild(h("br")); node.appendChild(h("small", { text: text })); }
      });
    });
    return node;
  }

  function showRoll(box, result) {
    var last = box.querySelector(".roll-done");
    // the same roll again: a retry with the key of a roll already made (nothing new rolled)
    var again = !!last && last.getAttribute("data-roll-id") === String(result.roll_id);
    var shown = result.visibility !== "blind";
    box.textContent = "";
    box.appendChild(h("div", {
      "class": "roll-done", "data-roll-id": String(result.roll_id), "data-created": again ? "0" : "1",
    }, [
      shown ? h("span", { "class": "roll-done-text", text: result.text || result.notation + " = " + result.total }) : gettext("Blind roll sent: only the referee sees the result."),
      again ? " " : null,
      again ? h("small", { "class": "muted", text: gettext("(sent twice: this is the first roll, not a new one)") }) : null,
    ]));
  }

  function sendRoll(form, trigger) {
    var box = document.getElementById("roll-result");
    var submitter = trigger && trigger.submitter;
    var quick = submitter && submitter.name === "quick" ? submitter.value : "";
    var notation = quick || (form.elements.notation ? form.elements.notation.value.trim() : "");
    if (!notation) {
      box.textContent = "";
      box.appendChild(errorNode({ message: gettext("Type dice notation, for example 2d6+1."), code: "invalid" }));
      return;
    }
    var params = Object.assign({ notation: notation }, audience());
    var labelField = form.elements.label;
    if (labelField && labelField.value) params.label = labelField.value;
    formBusy(form, true);
    apiRequest("POST", config.urls.roll, params, {
      csrf: config.csrf, command: "roll", args: {}, key: formKey(form),
    }).then(function (result) {
      showRoll(box, result);
      if (form.elements.idempotency_key) form.elements.idempotency_key.value = newKey();
      if (labelField) labelField.value = "";
    }, function (err) {
      box.textContent = "";
      box.appendChild(errorNode(err));
    }).then(function () { formBusy(form, false); });
  }

  function sendChat(form) {
    var input = form.elements.text;
    var params = Object.assign({ text: input.value.trim() }, audience());
    var shown = form.querySelector(".msg.error");
    formBusy(form, true);
    apiRequest("POST", config.urls.chat, params, {
      csrf: config.csrf, command: "chat", args: {}, key: formKey(form),
    }).then(function () {
      input.value = "";
      if (shown) shown.remove();
    }, function (err) {
      if (shown) shown.remove();
      form.appendChild(errorNode(err));
    }).then(function () {
      formBusy(form, false);
      input.focus();
    });
  }

  document.body.addEventListener("htmx:confirm", function (event) {
    var form = event.detail.elt;
    if (!form || (form.id !== "roll-form" && form.id !== "chat-form")) return;
    if (!sock || sock.state() !== "connected") return;  // htmx posts the form as before
    event.preventDefault();
    if (form.hasAttribute("data-sending")) return;  // as hx-sync="this:drop"
    if (form.id === "roll-form") sendRoll(form, event.detail.triggeringEvent);
    else sendChat(form);
  });

  // ---- start ---------------------------------------------------------------------------------

  earlierButton.addEventListener("click", loadEarlier);
  retryButton.addEventListener("click", function () { sock.retry(); });
  window.addEventListener("offline", function () {
    if (uiState !== "connected") setState("offline");
  });

  config.events.forEach(applyEvent);
  if (config.events.length) logBox.scrollTop = logBox.scrollHeight;
  else logEmpty.hidden = false;
  earlierButton.hidden = !config.hasEarlier;
  document.dispatchEvent(new CustomEvent("vtt:live"));
  renderInitiative(config.initiative);
  renderPresence();
  // socket.js also retries when the browser is back online or the tab visible again.
  sock = connectSocket({
    url: config.urls.ws,
    position: config.head,
    onEvent: applyEvent,
    onState: setState,
    onFrame: onFrame,
    onDrop: forgetPeers,
    everyState: true,
    reloadIfBehind: true,
  });
  useSocket(sock);

  // For tests and the curious: read-only views of the client's state, and the frame handler.
  return {
    position: function () { return sock.position(); },
    state: function () { return uiState; },
    handleFrame: function (frame) { sock.handle(frame); },
  };
}

/** The running page (null without the table), for the unit tests (tests/js). It starts once
 * the document is parsed, so every module that renders log entries (lib/renderers.js) has
 * registered them, wherever its script tag is. */
export let table = null;
onParsed(function () { table = start(); });
