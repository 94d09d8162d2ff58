/* The client for the table socket (docs/table-protocol.md), for the table page and the others:
 * `hello` with the last sequence number, `replay` on a gap, pings, reconnect with back-off and
 * jitter, a visible state.
 *
 *   const sock = connect({   // this module's export
 *     url: "/ws/campaigns/1/", position: head,
 *     onEvent: function (ev) {...},        // every event, in order, exactly once
 *     onState: function (state, info) {...},  // connecting | connected | reconnecting | offline
 *                                          // | denied; info.retryAt: when the next try starts
 *     // optional, for the table page:
 *     onFrame: function (frame) {...},     // frames this client does not handle (presence, error)
 *     onDrop: function () {...},           // the socket went away (presence is stale)
 *     everyState: true,                    // call onState on every change, even to the same state
 *     reloadIfBehind: true,                // reload when the server's log is behind the page
 *   });
 *
 * Actions travel on the same socket as `command` frames (docs/table-protocol.md, "Commands"):
 *   sock.command("roll", {}, {notation: "2d6"}, key)  // a Promise of the ack's result, or
 *                                                    // null when the socket is not connected
 * A refusal rejects with an Error carrying `status`, `code` and `data` (the API's error body).
 * A command whose answer never came (the socket dropped) rejects with status 0: the caller
 * may send it again by HTTP with the same key, which never acts twice (api.js does).
 */
var PING_EVERY = 25000;
var DEAD_AFTER = 65000;
var MAX_BACKOFF = 30000;
var OFFLINE_AFTER = 4;
var COMMAND_TIMEOUT = 15000;

export function connect(options) {
  var conn = {
    ws: null,
    position: options.position || 0,
    state: "connecting",
    attempts: 0,
    timer: null,
    ping: null,
    lastHeard: 0,
    replayPending: false,
    replayTimer: null,
    retryAt: 0,
    firstReplay: false,
    unloading: false,
    denied: false,
    pending: {},
  };

  function setState(state) {
    if (conn.state === state && !options.everyState) return;
    conn.state = state;
    if (options.onState) options.onState(state, { retryAt: conn.retryAt });
  }

  function send(frame) {
    if (conn.ws && conn.ws.readyState === WebSocket.OPEN) {
      conn.ws.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }

  function open() {
    clearTimeout(conn.timer);
    if (conn.denied || conn.unloading || conn.ws) return;
    setState(conn.attempts ? "reconnecting" : "connecting");
    var scheme = location.protocol === "https:" ? "wss:" : "ws:";
    var ws;
    try {
      ws = new WebSocket(scheme + "//" + location.host + options.url);
    } catch (e) {
      schedule();
      return;
    }
    conn.ws = ws;
    ws.onopen = function () { conn.lastHeard = Date.now(); };
    ws.onmessage = function (message) {
      if (ws !== conn.ws) return;
      conn.lastHeard = Date.now();
      var frame;
      try { frame = JSON.parse(message.data); } catch (e) { return; }
      handle(frame);
    };
    ws.onclose = function (event) {
      if (ws !== conn.ws) return;
      drop();
      closed(event.code);
    };
  }

  function drop() {
    var ws = conn.ws;
    conn.ws = null;
    clearInterval(conn.ping);
    clearTimeout(conn.replayTimer);
    conn.replayPending = false;
    Object.keys(conn.pending).forEach(function (key) { settle(key, lost()); });
    if (options.onDrop) options.onDrop();
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = null;
      try { ws.close(); } catch (e) { /* already closed */ }
    }
  }

  function closed(code) {
    if (conn.unloading) return;
    if (code === 4403) {
      conn.denied = true;
      setState("denied");
      return;
    }
    if (code === 4000) {
      // role changed: reconnect at once to be authorised again
      conn.attempts = 0;
      conn.timer = setTimeout(open, 100);
      return;
    }
    schedule(code === 4429 ? MAX_BACKOFF : null);
  }

  /* Exponential back-off with jitter: about 1, 2, 4, 8, 16, 30, 30 … seconds. */
  function schedule(fixed) {
    conn.attempts += 1;
    var base = Math.min(MAX_BACKOFF, 1000 * Math.pow(2, conn.attempts - 1));
    var delay = fixed || Math.round(base / 2 + Math.random() * base / 2);
    conn.retryAt = Date.now() + delay;
    clearTimeout(conn.timer);
    conn.timer = setTimeout(open, delay);
    setState(!navigator.onLine || conn.attempts > OFFLINE_AFTER ? "offline" : "reconnecting");
  }

  function startPing() {
    clearInterval(conn.ping);
    conn.ping = setInterval(function () {
      if (Date.now() - conn.lastHeard > DEAD_AFTER) {
        // A phone that slept or a dead NAT mapping: the socket may never report closing.
        drop();
        schedule();
        return;
      }
      send({ type: "ping", t: Date.now() });
    }, PING_EVERY);
  }

  function apply(ev) {
    if (ev.seq <= conn.position) return;
    conn.position = ev.seq;
    try { options.onEvent(ev); } catch (e) { if (window.console) console.error(e); }
  }

  function requestReplay() {
    if (conn.replayPending) return;
    conn.replayPending = true;
    send({ type: "replay", since: conn.position });
    clearTimeout(conn.replayTimer);
    conn.replayTimer = setTimeout(function () { conn.replayPending = false; }, 10000);
  }

  function lost() {
    var error = new Error("lost");
    error.status = 0;
    return error;
  }

  function settle(key, error, result) {
    var waiting = conn.pending[key];
    if (!waiting) return false;
    delete conn.pending[key];
    clearTimeout(waiting.timer);
    if (error) waiting.reject(error); else waiting.resolve(result);
    return true;
  }

  function command(name, args, params, key) {
    if (conn.state !== "connected" || !conn.ws || conn.ws.readyState !== WebSocket.OPEN) return null;
    if (conn.pending[key]) return null;  // the same key in flight: let HTTP decide
    return new Promise(function (resolve, reject) {
      conn.pending[key] = {
        resolve: resolve,
        reject: reject,
        timer: setTimeout(function () { settle(key, lost()); }, COMMAND_TIMEOUT),
      };
      send({ type: "command", command: name, key: key, args: args || {}, params: params || {} });
    });
  }

  function handle(frame) {
    switch (frame.type) {
      case "ack":
        settle(frame.key, null, frame.result);
        break;
      case "error":
        if (frame.key && conn.pending[frame.key]) {
          var error = new Error(frame.message);
          error.status = frame.status;
          error.code = frame.code;
          error.data = frame.data || { detail: frame.message, code: frame.code };
          settle(frame.key, error);
        } else if (options.onFrame) {
          options.onFrame(frame);
        }
        break;
      case "welcome":
        conn.attempts = 0;
        conn.firstReplay = !!options.reloadIfBehind;
        setState("connected");
        send({ type: "hello", last_seq: conn.position });
        startPing();
        break;
      case "replay":
        if (conn.firstReplay && frame.cursor < conn.position) {
          // The server's log is behind this page (a restored database): start over.
          location.reload();
          return;
        }
        conn.firstReplay = false;
        if (frame.after > conn.position) {
          // It starts past what we have: (position, after] would be lost.
          conn.replayPending = false;
          requestReplay();
          return;
        }
        frame.events.forEach(apply);
        conn.position = Math.max(conn.position, frame.cursor);
        conn.replayPending = false;
        clearTimeout(conn.replayTimer);
        break;
      case "event":
        if (frame.event.seq <= conn.position) return;
        if (frame.prev > conn.position) {
          // A gap: events in (position, prev] never arrived here.
          requestReplay();
          return;
        }
        apply(frame.event);
        break;
      case "reauth":
        // A role change: the page's forms and what it may show depend on the role.
        conn.unloading = true;
        location.reload();
        break;
      default:
        if (options.onFrame) options.onFrame(frame);
        break;
    }
  }

  function retry() {
    clearTimeout(conn.timer);
    if (!conn.ws) open();
  }

  window.addEventListener("online", retry);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && !conn.ws) retry();
  });
  window.addEventListener("pagehide", function () { conn.unloading = true; });
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) { conn.unloading = false; retry(); }
  });
  open();

  return {
    position: function () { return conn.position; },
    state: function () { return conn.state; },
    retry: retry,
    handle: handle,
    command: command,
    close: function () { conn.unloading = true; drop(); },
  };
}

