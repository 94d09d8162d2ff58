"""The static files storage production uses: hashed, compressed names (whitenoise) that also
rewrite our ES modules' `import … from "./x.js"` to the hashed names, so every page and every
module loads one copy of each module (static/js, no build step)."""

from __future__ import annotations

from django.contrib.staticfiles.storage import ManifestStaticFilesStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage


class ModuleManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """Without the rewrite a page would load `table.<hash>.js`, which imports `./api.js`, while
    another module imports `./api.<hash>.js`: two copies of one module, each with its state.

    Only static/js is rewritten: vendored scripts (django_htmx's extensions) mention
    `import("…")` in comments, which Django's patterns would take for imports."""

    support_js_module_import_aggregation = True
    _js_module_import_aggregation_patterns = (
        "js/*.js",
        ManifestStaticFilesStorage._js_module_import_aggregation_patterns[1],
    )
