/* Party moves on the table page (templates/characters/_party_panel.html): Take Watch names the
 * camp and the watcher, Perilous Journey a hero for each role. The server rolls; the rolls and
 * every changed sheet reach the log through the socket like any move.
 *
 * The panel lists the campaign's characters as the server rendered them; when a sheet is
 * created, renamed or deleted the panel fetches its fragment again, so the live page offers
 * what a freshly loaded one would (tests/e2e/test_event_replay.py). */
import { request as apiRequest } from "./api.js";

function start() {

  var panel = document.getElementById("party-moves");
  if (!panel) return;
  var base = panel.getAttribute("data-url");
  var tableConfig = document.getElementById("table-config");
  // Events up to the page's head are already in the rendered panel.
  var head = tableConfig ? JSON.parse(tableConfig.textContent).head : 0;
  var refreshTimer = null;
  var stale = false; // a newer panel came while the user was in this one

  function ids(values) {
    return values.filter(function (v) { return v !== ""; }).map(Number);
  }

  function body(form, move) {
    if (move === "take_watch") {
      var camp = Array.prototype.map.call(
        form.querySelectorAll("input[name=party]:checked"), function (box) { return box.value; }
      );
      var watcher = form.querySelector("select[name=watcher]").value;
      if (camp.indexOf(watcher) < 0) camp.push(watcher);
      return { character_ids: ids(camp), params: { watcher: Number(watcher) } };
    }
    var roles = {};
    var heroes = [];
    Array.prototype.forEach.call(form.querySelectorAll("select[data-role]"), function (select) {
      if (!select.value) return;
      roles[select.getAttribute("data-role")] = Number(select.value);
      if (heroes.indexOf(select.value) < 0) heroes.push(select.value);
    });
    return { character_ids: ids(heroes), params: { roles: roles } };
  }

  // One listener on the panel: its forms are replaced when the panel is fetched again.
  panel.addEventListener("submit", function (event) {
    var form = event.target.closest("form[data-party-move]");
    if (!form) return;
    event.preventDefault();
    var move = form.getAttribute("data-party-move");
    var error = form.querySelector(".form-error");
    var button = form.querySelector("button[type=submit]");
    error.hidden = true;
    button.disabled = true;
    var csrf = form.querySelector("input[name=csrfmiddlewaretoken]").value;
    apiRequest("POST", base.replace("MOVE", move), body(form, move), {
      csrf: csrf,
      command: "party.move", args: { move: move },
    }).then(function () {
      button.disabled = false;
    }, function (err) {
      button.disabled = false;
      error.textContent = err.message;
      error.hidden = !err.message;
    });
  });

  function refresh() {
    fetch(panel.getAttribute("data-panel-url"), { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("party-moves");
        if (!fresh) return;
        // Not under the user's fingers: a panel in use is replaced when focus leaves it.
        stale = panel.contains(document.activeElement);
        if (!stale) panel.innerHTML = fresh.innerHTML;
      })
      .catch(function () { /* the next sheet event fetches again */ });
  }

  panel.addEventListener("focusout", function (event) {
    if (stale && !panel.contains(event.relatedTarget)) refreshSoon();
  });

  function refreshSoon() {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(refresh, 150);
  }

  /* Whether a sheet event changes what the panel lists: a player character it does not show,
   * or shows under another name or owner, or one deleted (NPCs are not offered). */
  function changesLists(ev) {
    var p = ev.payload || {};
    var shown = JSON.parse(document.getElementById("party-characters").textContent);
    var known = shown.filter(function (c) { return c.id === p.character_id; })[0];
    if (ev.kind === "character.deleted") return !!known;
    if (p.kind !== "pc") return !!known;
    return !known || known.name !== p.name || known.owner_id !== p.owner_id;
  }

  document.addEventListener("vtt:event", function (e) {
    var ev = e.detail;
    if (!ev || ev.seq <= head || typeof ev.kind !== "string") return;
    if (ev.kind.indexOf("character.") === 0 && changesLists(ev)) refreshSoon();
  });
}

start();
