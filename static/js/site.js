/* Site-wide htmx behaviour. Clear refusals (400, 403, 404, 409, 410, 413, 429) come back as
 * fragments the page shows (htmx-config in base.html swaps them). Under DEBUG, django-htmx adds
 * a handler on `document` that replaces the whole page with any error response: stop these
 * expected ones from reaching it. */
(function () {
  "use strict";
  var EXPECTED = [400, 403, 404, 409, 410, 413, 429];
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
})();
