/* The table form: add and remove entry rows (without JavaScript the form always carries a few
 * blank rows, and blank rows are ignored on save). */
function setup() {
  var form = document.getElementById("table-form");
  if (!form || form.dataset.ready) return;
  form.dataset.ready = "1";
  var rows = form.querySelector("#entry-rows");
  var template = form.querySelector("#entry-row-template");
  var add = form.querySelector("#add-row");
  if (!rows || !template || !add) return;
  add.hidden = false;
  form.querySelectorAll("[data-remove-row]").forEach(function (b) { b.hidden = false; });
  add.addEventListener("click", function () {
    var row = template.content.firstElementChild.cloneNode(true);
    row.querySelector("[data-remove-row]").hidden = false;
    rows.appendChild(row);
    var first = row.querySelector("input:not([type=hidden]), textarea");
    if (first) first.focus();
  });
  rows.addEventListener("click", function (event) {
    var button = event.target.closest("[data-remove-row]");
    if (!button) return;
    var row = button.closest(".entry-row");
    if (row) row.remove();
  });
}

document.addEventListener("DOMContentLoaded", setup);
// The form re-renders in place (htmx) when a save is refused.
document.addEventListener("htmx:afterSettle", setup);
