/* Party moves on the table page (templates/characters/_party_panel.html): Take Watch names the
 * camp and the watcher, Perilous Journey a hero for each role. The server rolls; the rolls and
 * every changed sheet reach the log through the socket like any move. */
import { request as apiRequest } from "./api.js";

function start() {
  var panel = document.getElementById("party-moves");
  if (!panel) return;
  var base = panel.getAttribute("data-url");

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

  Array.prototype.forEach.call(panel.querySelectorAll("form[data-party-move]"), function (form) {
    var move = form.getAttribute("data-party-move");
    var error = form.querySelector(".form-error");
    var button = form.querySelector("button[type=submit]");
    form.addEventListener("submit", function (event) {
      event.preventDefault();
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
  });
}

start();
