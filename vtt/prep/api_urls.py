"""The prep API, included under ``/api/campaigns/<int:pk>/prep/`` by ``vtt/api_urls.py``."""

from django.urls import path

from vtt.prep import api

urlpatterns = [
    path("tables/", api.Tables.as_view(), name="api-prep-tables"),
    path("tables/import/", api.TablesImport.as_view(), name="api-prep-tables-import"),
    path("tables/export/", api.TablesExport.as_view(), name="api-prep-tables-export"),
    path("tables/<int:tid>/", api.TableDetail.as_view(), name="api-prep-table"),
    path("tables/<int:tid>/roll/", api.TableRoll.as_view(), name="api-prep-table-roll"),
    path("tables/<int:tid>/export/", api.TableExport.as_view(), name="api-prep-table-export"),
    path("results/", api.Results.as_view(), name="api-prep-results"),
    path("library/", api.Library.as_view(), name="api-prep-library"),
    path("library/tables/copy/", api.LibraryCopy.as_view(), name="api-prep-library-copy"),
    path(
        "library/npcs/<slug:key>/place/",
        api.LibraryPlace.as_view(),
        name="api-prep-library-place",
    ),
    path("dungeons/", api.Dungeons.as_view(), name="api-prep-dungeons"),
    path("dungeons/<int:did>/", api.DungeonDetail.as_view(), name="api-prep-dungeon"),
    path("dungeons/<int:did>/rooms/", api.Rooms.as_view(), name="api-prep-rooms"),
    path("rooms/<int:rid>/", api.RoomDetail.as_view(), name="api-prep-room"),
    path("rooms/<int:rid>/monsters/", api.RoomMonsters.as_view(), name="api-prep-room-monsters"),
    path(
        "rooms/<int:rid>/monsters/<int:mid>/",
        api.RoomMonsterDetail.as_view(),
        name="api-prep-room-monster",
    ),
    path(
        "rooms/<int:rid>/monsters/<int:mid>/initiative/",
        api.RoomMonsterInitiative.as_view(),
        name="api-prep-room-monster-initiative",
    ),
]
