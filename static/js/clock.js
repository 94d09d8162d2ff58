/* The dungeon-turn clock on the table page (templates/table/_clock.html).
 *
 * The server keeps the clock (vtt/table/clock.py) and ends turns with a task at the deadline;
 * it never pushes a tick. This script draws the countdown from the snapshot's `deadline` and
 * an estimate of the server's clock: offset = server_time − the middle of the request that
 * fetched it. Snapshots come from `GET/POST /api/campaigns/<id>/clock/` and from the events
 * `clock` and `turn.ended` (its `next`); `turn.<type>` events are the end-of-turn results,
 * shown in the log (through table.js's renderer extension point) and in the clock's box.
 */
import { request as apiRequest } from "./api.js";
import { fmt } from "./lib/format.js";
import { gettext } from "./lib/i18n.js";
import { renderers } from "./lib/renderers.js";

// The clock's states, by the key the server sends.
const STATE_NAMES = {
  running: gettext("running"),
  paused: gettext("paused"),
  stopped: gettext("stopped"),
};

// Conditions that end with a turn (systems/crows), by key.
const CONDITIONS = {
  blessed: gettext("Blessed"),
  grabbed: gettext("Grabbed"),
  prone: gettext("Prone"),
  vulnerable: gettext("Vulnerable"),
  unconscious: gettext("Unconscious"),
  weakened: gettext("Weakened"),
};

// What an exhausted light or tool does next, by the outcome's key.
const WEAR_OUTCOMES = {
  useless: gettext("It is useless now."),
  needs_refuel: gettext("It needs refuelling."),
  needs_rest: gettext("It comes back after a rest."),
  empty: gettext("No dice left."),
};

function start() {
  var box = document.getElementById("clock");
  if (!box) return null;
  var tableConfig = {};
  try { tableConfig = JSON.parse(document.getElementById("table-config").textContent); } catch (e) { /* no table */ }

  var campaign = box.getAttribute("data-campaign");
  var isReferee = box.getAttribute("data-referee") === "1";
  var URL_CLOCK = "/api/campaigns/" + campaign + "/clock/";
  var URL_RULES = "/api/campaigns/" + campaign + "/rules/";
  var TICK_MS = 250;
  var RESYNC_MS = 5 * 60 * 1000;
  var LATE_MS = 6000; // past the deadline with no turn.ended: ask the server

  var timeNode = document.getElementById("clock-time");
  var stateNode = document.getElementById("clock-state");
  var turnNode = document.getElementById("clock-turn");
  var roomsNode = document.getElementById("clock-rooms");
  var resultsBox = document.getElementById("clock-results");
  var resultsTitle = resultsBox.querySelector(".clock-results-title");
  var resultsList = resultsBox.querySelector(".clock-results-list");
  var errorNode = document.getElementById("clock-error");

  var clock = {
    snap: null,        // the newest snapshot
    snapAt: -Infinity, // its server_time (ms): older snapshots never replace newer ones
    offset: 0,         // server clock − this browser's clock, ms (see measure())
    best: null,        // the measurement in use: {rtt, at}
    resultsTurn: null,
    lastSync: 0,
  };

  // ---- time ------------------------------------------------------------------------------------

  function serverNow() { return Date.now() + clock.offset; }

  /* Seconds left in this turn, or null when the clock is not counting time. */
  function remaining() {
    var s = clock.snap;
    if (!s) return null;
    if (s.state === "running" && s.deadline) {
      // A turn never has more left than its length (a clock estimate a little behind would).
      return Math.min(s.length_seconds, (Date.parse(s.deadline) - serverNow()) / 1000);
    }
    if (s.state === "paused" && s.remaining_seconds !== null && s.remaining_seconds !== undefined) return s.remaining_seconds;
    return null;
  }

  function clockText(seconds) {
    var total = Math.max(0, Math.ceil(seconds));
    var h = Math.floor(total / 3600);
    var m = Math.floor((total % 3600) / 60);
    var sec = total % 60;
    var mm = h ? ("0" + m).slice(-2) : String(m);
    return (h ? h + ":" : "") + mm + ":" + ("0" + sec).slice(-2);
  }

  function lengthText(seconds) {
    if (seconds % 60 === 0) return fmt(gettext("{n} min"), { n: seconds / 60 });
    return fmt(gettext("{n} s"), { n: seconds });
  }

  /* One measurement of the server's clock from a request sent at t0 and answered at t1 (this
   * browser's clock): the server wrote server_time somewhere in between, most likely near the
   * middle. The shortest round trip gives the tightest estimate (as NTP does); a busy page
   * that handles the answer late makes a long one, so a sample replaces the current one only
   * when its round trip is about as short, or the current one is old. */
  function measure(serverTime, t0, t1) {
    var rtt = t1 - t0;
    var best = clock.best;
    if (best && rtt > best.rtt + 40 && Date.now() - best.at < 10 * 60 * 1000) return;
    clock.best = { rtt: rtt, at: Date.now() };
    clock.offset = Date.parse(serverTime) - (t0 + t1) / 2;
  }

  function applySnapshot(snap) {
    if (!snap || !snap.server_time) return;
    var at = Date.parse(snap.server_time);
    if (at < clock.snapAt) return;
    clock.snapAt = at;
    clock.snap = snap;
    var publicBox = document.getElementById("clock-public");
    if (publicBox && !configTouched) publicBox.checked = !!snap.public_encounters;
    draw();
  }

  function draw() {
    var s = clock.snap;
    if (!s) return;
    var rooms = s.mode === "rooms";
    box.setAttribute("data-state", s.state);
    box.setAttribute("data-mode", s.mode);
    box.setAttribute("data-turn", String(s.turn));
    box.setAttribute("data-deadline", s.state === "running" && s.deadline ? s.deadline : "");
    turnNode.textContent = s.turn ? fmt(gettext("Turn {n}"), { n: s.turn }) : gettext("No turn yet");
    roomsNode.hidden = !(rooms && s.state !== "stopped" && s.rooms_left !== null);
    roomsNode.textContent = fmt(gettext("Rooms left this turn: {n}"), { n: s.rooms_left });
    var left = remaining();
    var label = STATE_NAMES[s.state] || s.state;
    if (rooms && s.state === "running") label = gettext("counting rooms");
    if (left === null) {
      timeNode.textContent = rooms && s.state !== "stopped" ? "—" : clockText(s.length_seconds);
    } else {
      timeNode.textContent = clockText(left);
      if (s.state === "running" && left <= 0) label = gettext("time is up: ending the turn…");
    }
    box.setAttribute("data-remaining", left === null ? "" : String(Math.max(0, Math.ceil(left))));
    box.classList.toggle("clock-low", left !== null && s.state === "running" && left <= 60);
    stateNode.textContent = label;
    syncControls();
  }

  function tick() {
    var s = clock.snap;
    if (!s || s.state !== "running" || !s.deadline) return;
    draw();
    var late = serverNow() - Date.parse(s.deadline);
    if (late > LATE_MS && Date.now() - clock.lastSync > LATE_MS) sync();
  }

  function sync() {
    clock.lastSync = Date.now();
    var t0 = Date.now();
    return request("GET", URL_CLOCK).then(function (snap) {
      measure(snap.server_time, t0, Date.now());
      applySnapshot(snap);
    }, function () { /* the socket will bring the next change */ });
  }

  /* A plain API call (api.js): the server's refusal as the Error's message. */
  function request(method, url, body) {
    return apiRequest(method, url, body, { csrf: tableConfig.csrf });
  }

  /* A change of the clock is the table's `clock` command (docs/table-protocol.md,
   * "Commands"): over the table socket when it is connected, else by HTTP with a key. */
  function command(body) {
    return apiRequest("POST", URL_CLOCK, body, {
      csrf: tableConfig.csrf, command: "clock", args: {},
    });
  }

  // ---- referee controls --------------------------------------------------------------------------

  var controls = document.getElementById("clock-controls");

  function syncControls() {
    if (!controls || !clock.snap) return;
    var s = clock.snap;
    Array.prototype.forEach.call(controls.querySelectorAll("[data-when]"), function (node) {
      var when = node.getAttribute("data-when").split(" ");
      var show = when.indexOf(s.state) >= 0;
      if (when.indexOf("rooms") >= 0) show = s.mode === "rooms" && s.state === "running";
      node.hidden = !show;
    });
    if (!configTouched) {
      var known = ["1200", "1800", "3600"].indexOf(String(s.length_seconds)) >= 0;
      lengthSelect.value = known ? String(s.length_seconds) : "custom";
      secondsInput.value = known ? "" : String(s.length_seconds);
      secondsInput.hidden = known;
      modeSelect.value = s.mode;
    }
  }

  function showError(message) {
    errorNode.textContent = message;
    errorNode.hidden = !message;
  }

  function post(body) {
    showError("");
    var t0 = Date.now();
    return command(body).then(function (snap) {
      measure(snap.server_time, t0, Date.now());
      applySnapshot(snap);
      return snap;
    }, function (err) {
      showError(err.message);
      throw err;
    });
  }

  var lengthSelect = document.getElementById("clock-length");
  var secondsInput = document.getElementById("clock-seconds");
  var modeSelect = document.getElementById("clock-mode");
  var configTouched = false;

  if (controls) {
    controls.addEventListener("click", function (event) {
      var button = event.target.closest("[data-clock]");
      if (!button) return;
      var action = button.getAttribute("data-clock");
      var question = button.getAttribute("data-confirm");
      if (question && !window.confirm(question)) return;
      var body = { action: action };
      if (action === "start") body.dungeon = document.getElementById("clock-dungeon").value.trim();
      button.disabled = true;
      post(body).catch(function () {}).then(function () { button.disabled = false; });
    });

    lengthSelect.addEventListener("change", function () {
      configTouched = true;
      secondsInput.hidden = lengthSelect.value !== "custom";
      if (!secondsInput.hidden) secondsInput.focus();
    });
    secondsInput.addEventListener("input", function () { configTouched = true; });
    modeSelect.addEventListener("change", function () { configTouched = true; });

    document.getElementById("clock-config").addEventListener("submit", function (event) {
      event.preventDefault();
      var seconds = lengthSelect.value === "custom" ? Number(secondsInput.value) : Number(lengthSelect.value);
      if (!seconds) { secondsInput.focus(); return; }
      var mode = modeSelect.value;
      var button = event.target.querySelector("button[type=submit]");
      button.disabled = true;
      var publicBox = document.getElementById("clock-public");
      post({
        action: "configure", length_seconds: seconds, mode: mode,
        public_encounters: publicBox ? publicBox.checked : null
      }).then(function () {
        configTouched = false;
        return saveRules(seconds, mode);
      }).catch(function () {}).then(function () { button.disabled = false; });
    });
  }

  /* Rulesets with turn settings (Crows: turn_minutes 20/30/60, turn_mode) keep
   * them in step with the clock, so the end-of-turn procedure reads the same length and mode.
   * A custom length in seconds (demos) leaves the minutes alone. */
  function saveRules(seconds, mode) {
    return request("GET", URL_RULES).then(function (rules) {
      if (!rules || !("turn_minutes" in rules)) return null;
      var next = Object.assign({}, rules);
      if ("turn_mode" in next) next.turn_mode = mode;
      if ([1200, 1800, 3600].indexOf(seconds) >= 0) next.turn_minutes = seconds / 60;
      if (next.turn_mode === rules.turn_mode && next.turn_minutes === rules.turn_minutes) return null;
      return request("PUT", URL_RULES, next);
    }).catch(function (err) { showError(err.message); });
  }

  // ---- events: the countdown and the end-of-turn results -------------------------------------------

  function conditionName(key) { return CONDITIONS[key] || key; }

  function faces(list) { return (list || []).join(", "); }

  /* The Russian (or English) line for one end-of-turn result, or "" to show nothing. */
  function resultText(type, p) {
    var owner = p.owner ? p.owner + ": " : "";
    switch (type) {
      case "turn_ended": return fmt(gettext("End of dungeon turn {turn}: wear dice, expiries, the encounter check."), { turn: p.turn });
      case "wear_rolled": {
        var text = fmt(gettext("Wear dice of “{name}”: {faces}, {after} of {before} left."), { name: p.name, faces: faces(p.faces), after: p.after, before: p.before });
        if (p.exhausted) text += " " + (WEAR_OUTCOMES[p.outcome] || gettext("No dice left."));
        if (p.light_out) text += " " + gettext("The light goes out.");
        return text;
      }
      case "effect_wear_rolled":
        return owner + fmt(gettext("Effect “{name}”: wear dice {faces}, {after} left."), { name: p.name || p.effect, faces: faces(p.faces), after: p.after });
      case "effect_ended": return owner + fmt(gettext("Effect “{name}” ends."), { name: p.name || p.effect });
      case "darkness": return gettext("The last light is out: darkness. Attack and search checks at double disadvantage.");
      case "condition_ended": return fmt(gettext("{name}: “{condition}” ends."), { name: p.name, condition: conditionName(p.condition) });
      case "overload_wounds":
        return fmt(gettext("{name}: overloaded magic slot, 1d6 = {roll}, {wounds} wounds."), { name: p.name, roll: p.roll, wounds: p.wounds }) + (p.died ? " " + gettext("Dies.") : "");
      case "woke": return fmt(gettext("{name} comes to."), { name: p.name });
      case "greed_window_closed": return gettext("The greed reward is over for this dungeon.");
      case "encounter_overdue": return fmt(gettext("A signed encounter (turn {signed_turn}) is overdue."), { signed_turn: p.signed_turn });
      case "encounter_check": {
        var verdict = p.result === "immediate" ? gettext("An encounter, right now!")
          : p.result === "sign" ? fmt(gettext("A sign now; the encounter comes during turn {due}."), { due: p.due_turn }) : gettext("No encounter.");
        return fmt(gettext("Encounter check: 1d10 = {roll} against {threshold}."), { roll: p.roll, threshold: p.threshold }) + " " + verdict;
      }
      case "encounter_check_skipped": return gettext("No encounter check: an encounter is already pending.");
      case "turn_started": {
        // `turn` is the turn that starts; `ended_turn` the one that ended.
        var line = fmt(gettext("Dungeon turn {turn} begins."), { turn: p.turn || (p.ended_turn || 0) + 1 });
        if (p.greed_percent) line += " " + fmt(gettext("Treasure found now is worth +{percent}%."), { percent: p.greed_percent });
        // (p.rooms is the ruleset's own 1d6; the clock rolls the count it keeps, shown above.)
        if (isReferee && p.pending_encounters && p.pending_encounters.length) {
          line += " " + fmt(gettext("Encounters due: {n}."), { n: p.pending_encounters.length });
        }
        return line;
      }
      default: return fmt(gettext("Dungeon turn: {type}."), { type: type });
    }
  }

  function addResult(turn, text, cls) {
    if (clock.resultsTurn !== turn) {
      clock.resultsTurn = turn;
      resultsList.textContent = "";
      resultsTitle.textContent = fmt(gettext("End of dungeon turn {turn}"), { turn: turn });
    }
    if (!text) return;
    var li = document.createElement("li");
    if (cls) li.className = cls;
    li.textContent = text;
    resultsList.appendChild(li);
    resultsBox.hidden = false;
  }

  function logEntry(ev, api, text, cls) {
    if (!api || !api.entryShell) return null;
    var li = api.entryShell(ev, "turn", cls || "");
    var body = document.createElement("div");
    body.className = "turn-text";
    body.textContent = text;
    li.appendChild(body);
    return li;
  }

  renderers["clock"] = function (ev, api) {
    var p = ev.payload || {};
    applySnapshot(p);
    var text = fmt(gettext("Dungeon clock: turn {turn}, {state}."), { turn: p.turn, state: STATE_NAMES[p.state] || p.state });
    if (p.state !== "stopped" && p.mode === "rooms" && p.rooms_left !== null) text += " " + fmt(gettext("Rooms left this turn: {n}"), { n: p.rooms_left });
    else if (p.state !== "stopped") text += " " + fmt(gettext("Turn length {length}."), { length: lengthText(p.length_seconds) });
    return logEntry(ev, api, text, "clock-entry");
  };

  renderers["turn.entered"] = function (ev, api) {
    return logEntry(ev, api, fmt(gettext("The party enters the dungeon “{dungeon}”."), { dungeon: (ev.payload || {}).dungeon || "" }));
  };

  renderers["turn.ended"] = function (ev, api) {
    var p = ev.payload || {};
    if (p.next) applySnapshot(p.next);
    if (!p.results) {
      addResult(p.turn, "");
      resultsList.textContent = "";
      var li = document.createElement("li");
      li.textContent = gettext("Nothing to roll this turn.");
      resultsList.appendChild(li);
      resultsBox.hidden = false;
    }
    return logEntry(ev, api, fmt(gettext("Dungeon turn {turn} is over."), { turn: p.turn }), "turn-over");
  };

  function resultRenderer(type) {
    return function (ev, api) {
      var p = ev.payload || {};
      var text = resultText(type, p);
      var secret = ev.visibility === "blind" && p.audience !== "referee";
      var cls = "turn-" + type.replace(/_/g, "-") + (secret ? " referee-only" : "");
      addResult(p.ended_turn || p.turn, type === "turn_ended" ? "" : text, cls);
      return logEntry(ev, api, text, "turn-result " + cls);
    };
  }

  // Every result kind the rules can publish (systems/crows/ruleset.py EVENT_TYPES), and a few
  // spare names so a new kind still reads as a turn result rather than a bare payload.
  [
    "turn_ended", "wear_rolled", "effect_wear_rolled", "effect_ended", "darkness",
    "condition_ended", "overload_wounds", "woke", "greed_window_closed", "encounter_overdue",
    "encounter_check", "encounter_check_skipped", "turn_started", "dungeon_entered",
    "dungeon_left", "outside_turn", "event",
  ].forEach(function (type) {
    renderers["turn." + type] = resultRenderer(type);
  });

  // ---- start -----------------------------------------------------------------------------------------

  setInterval(tick, TICK_MS);
  setInterval(sync, RESYNC_MS);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") sync(); // a phone that slept
  });
  window.addEventListener("online", sync);
  // A few samples while the page settles: the quietest one sets the offset.
  sync();
  setTimeout(sync, 1500);
  setTimeout(sync, 5000);

  return {
    snapshot: function () { return clock.snap; },
    offset: function () { return clock.offset; },
    remaining: remaining,
  };
}

/** The running clock (null without one), for the unit tests (tests/js). */
export const clock = start();
