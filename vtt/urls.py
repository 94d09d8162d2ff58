from django.contrib import admin
from django.urls import include, path

from vtt.campaigns.views import home
from vtt.core.views import favicon, healthz, javascript_catalogue
from vtt.rulesets.registry import urlpatterns as ruleset_urlpatterns

urlpatterns = [
    path("", home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", favicon, name="favicon"),
    path("jsi18n/<str:language>/", javascript_catalogue, name="javascript-catalogue"),
    path("accounts/", include("vtt.accounts.urls")),
    path("api/", include("vtt.api_urls")),
    path("admin/", admin.site.urls),
    path("", include("vtt.campaigns.urls")),
    path("", include("vtt.table.urls")),
    path("", include("vtt.maps.urls")),
    path("", include("vtt.prep.urls")),
    path("", include("vtt.journal.urls")),
    path("", include("vtt.characters.urls")),
    # Each ruleset's own pages (vtt/rulesets/<key>/urls.py), through its plugin.
    path("", include(ruleset_urlpatterns())),
]

# JSON under /api/, the site's pages elsewhere (vtt/core/views.py).
handler400 = "vtt.core.views.bad_request"
handler403 = "vtt.core.views.permission_denied"
handler404 = "vtt.core.views.page_not_found"
handler500 = "vtt.core.views.server_error"
