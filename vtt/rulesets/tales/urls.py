"""Pages of the Tales new-character wizard."""

from django.urls import path

from vtt.rulesets.tales import views

urlpatterns = [
    path("campaigns/<int:pk>/tales/wizard/", views.wizard_page, name="tales_wizard"),
    path(
        "campaigns/<int:pk>/tales/wizard/restart/",
        views.wizard_restart,
        name="tales_wizard_restart",
    ),
]
