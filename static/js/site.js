/* Site-wide htmx behaviour. Clear refusals (400, 403, 404, 409, 410, 413, 429) come back as
 * fragments the page shows (htmx-config in base.html swaps them). Under DEBUG, django-htmx adds
 * a handler on `document` that replaces the whole page with any error response: stop these
 * expected ones from reaching it. */
const EXPECTED = [400, 403, 404, 409, 410, 413, 429];
document.addEventListener("DOMContentLoaded", function () {
  document.body.addEventListener("htmx:beforeOnLoad", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && EXPECTED.indexOf(xhr.status) >= 0) event.stopPropagation();
  });
  // A successful swap clears the last error message.
  document.body.addEventListener("htmx:afterSwap", function (event) {
    var errors = document.getElementById("htmx-errors");
    var xhr = event.detail.xhr;
    if (errors && xhr && xhr.status < 400 && event.detail.target !== errors) {
      errors.innerHTML = "";
    }
  });
});

/* Behaviour that used to sit in inline handlers (onsubmit, onclick, javascript: links), which
 * the Content-Security-Policy (script-src 'self') forbids. Declared in the markup instead:
 * - <form data-confirm="Question?">: asks before submitting;
 * - <button data-print>: prints the page;
 * - <input data-select-on-click>: selects its text (a link to copy);
 * - <a data-back href="…">: goes back in history when there is history, else follows href. */
document.addEventListener("submit", function (event) {
  var form = event.target;
  var question = form && form.getAttribute && form.getAttribute("data-confirm");
  if (question && !window.confirm(question)) event.preventDefault();
});
document.addEventListener("click", function (event) {
  var target = event.target;
  if (!target || !target.closest) return;
  if (target.closest("[data-print]")) {
    window.print();
    return;
  }
  var input = target.closest("[data-select-on-click]");
  if (input) {
    input.select();
    return;
  }
  var back = target.closest("a[data-back]");
  if (back && window.history.length > 1) {
    event.preventDefault();
    window.history.back();
  }
});
