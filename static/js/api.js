/* One JSON API call for the page scripts (table.js, moves.js, inventory.js), so they read the
 * server's refusals the same way: the message is `detail`, else the first field error, else
 * `options.failed`, else failedText(); the Error carries `status` (0 when the network failed)
 * and the parsed body as `data` for callers that react to 409 and the like.
 *
 *   request("POST", url, {params: {}}, {csrf: token}).then(...)
 *
 * `keyed: true` puts the field name before a field error ("hp: too high").
 *
 * A table action names its command (docs/table-protocol.md, "Commands"):
 *
 *   request("POST", url, body, {csrf: token, command: "roll", args: {}})
 *
 * It goes over the page's table socket when one is open (useSocket), else by HTTP, and
 * carries an idempotency key either way: if the socket drops before the answer, the same key
 * goes again by HTTP and the server answers the first result, never a second action.
 */
import { gettext } from "./lib/i18n.js";

/** What a failed request says when the server gave no reason (or could not be reached). */
export function failedText() {
  return gettext("The request failed. Check the connection and try again.");
}

export function firstFieldError(data, keyed) {
  var source = data.fields || data;
  for (var key in source) {
    if (Array.isArray(source[key]) && source[key].length) {
      return keyed ? key + ": " + source[key][0] : source[key][0];
    }
  }
  return null;
}

var socket = null;

export function newKey() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
}

export function request(method, url, body, options) {
  options = options || {};
  if (!options.command) return http(method, url, body, options);
  var key = options.key || newKey();
  var sent = socket ? socket.command(options.command, options.args, body, key) : null;
  if (!sent) return http(method, url, body, options, key);
  return sent.catch(function (error) {
    if (error.status !== 0) {
      if (!error.message) error.message = options.failed || failedText();
      throw error;
    }
    return http(method, url, body, options, key);  // the answer was lost: ask again
  });
}

/* A key the server is still acting on (409 in_progress: the socket's copy of this action is
 * running) is asked again shortly; the answer is then that action's, never a second one. */
function http(method, url, body, options, key, tries) {
  return once(method, url, body, options, key).catch(function (error) {
    var busy = error.status === 409 && error.data && error.data.code === "in_progress";
    if (!busy || !key || (tries || 0) >= 10) throw error;
    return new Promise(function (resolve) { setTimeout(resolve, 1000); }).then(function () {
      return http(method, url, body, options, key, (tries || 0) + 1);
    });
  });
}

function once(method, url, body, options, key) {
  var init = {
    method: method,
    credentials: "same-origin",
    headers: { "Accept": "application/json", "X-CSRFToken": options.csrf || "" },
  };
  if (key) init.headers["Idempotency-Key"] = key;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  return fetch(url, init).then(function (response) {
    return response.text().then(function (text) {
      var data = null;
      try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
      if (!response.ok) {
        var message = data && (data.detail || firstFieldError(data, options.keyed));
        var error = new Error(message || (options.failed || failedText()));
        error.status = response.status;
        error.data = data;
        throw error;
      }
      return data;
    });
  }, function () {
    var error = new Error(options.failed || failedText());
    error.status = 0;
    throw error;
  });
}

/* The page's table socket (socket.js's connect()): actions that name a command go over it. */
export function useSocket(conn) { socket = conn; }
