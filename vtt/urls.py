from django.contrib import admin
from django.urls import include, path

from vtt.campaigns.views import home
from vtt.core.views import healthz

urlpatterns = [
    path("", home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("accounts/", include("vtt.accounts.urls")),
    path("api/", include("vtt.api_urls")),
    path("admin/", admin.site.urls),
    path("", include("vtt.campaigns.urls")),
    path("", include("vtt.table.urls")),
]
