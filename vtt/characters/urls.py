"""Character pages; the REST API lives in vtt/api_urls.py."""

from django.urls import path

from vtt.characters import views

urlpatterns = [
    path("campaigns/<int:pk>/characters/", views.character_list, name="character_list"),
    path(
        "campaigns/<int:pk>/characters/import/",
        views.character_import,
        name="character_import",
    ),
    path("campaigns/<int:pk>/table/party/", views.party_panel, name="party_panel"),
    path("characters/<int:cid>/", views.character_sheet, name="character_sheet"),
    path("characters/<int:cid>/print/", views.character_print, name="character_print"),
    path("characters/<int:cid>/export/", views.character_export, name="character_export"),
]
