"""The referee's preparation pages; the REST API is in vtt/prep/api_urls.py."""

from django.urls import path

from vtt.prep import views

P = "campaigns/<int:pk>/prep/"

urlpatterns = [
    path(P, views.prep_index, name="prep"),
    path(P + "dungeons/new/", views.dungeon_create, name="prep_dungeon_create"),
    path(P + "dungeons/<int:did>/", views.dungeon_page, name="prep_dungeon"),
    path(P + "dungeons/<int:did>/edit/", views.dungeon_edit, name="prep_dungeon_edit"),
    path(P + "dungeons/<int:did>/delete/", views.dungeon_delete, name="prep_dungeon_delete"),
    path(P + "dungeons/<int:did>/rooms/new/", views.room_create, name="prep_room_create"),
    path(P + "rooms/<int:rid>/", views.room_page, name="prep_room"),
    path(P + "rooms/<int:rid>/edit/", views.room_edit, name="prep_room_edit"),
    path(P + "rooms/<int:rid>/delete/", views.room_delete, name="prep_room_delete"),
    path(P + "rooms/<int:rid>/monsters/", views.room_monster_add, name="prep_room_monster_add"),
    path(
        P + "rooms/<int:rid>/monsters/<int:mid>/remove/",
        views.room_monster_remove,
        name="prep_room_monster_remove",
    ),
    path(
        P + "rooms/<int:rid>/monsters/<int:mid>/initiative/",
        views.room_monster_initiative,
        name="prep_room_monster_initiative",
    ),
    path(P + "tables/new/", views.table_new, name="prep_table_new"),
    path(P + "tables/import/", views.tables_import, name="prep_tables_import"),
    path(P + "tables/export/", views.tables_export, name="prep_tables_export"),
    path(P + "tables/<int:tid>/", views.table_page, name="prep_table"),
    path(P + "tables/<int:tid>/edit/", views.table_edit, name="prep_table_edit"),
    path(P + "tables/<int:tid>/delete/", views.table_delete, name="prep_table_delete"),
    path(P + "tables/<int:tid>/roll/", views.table_roll, name="prep_table_roll"),
    path(P + "tables/<int:tid>/export/", views.tables_export, name="prep_table_export"),
    path(P + "library/", views.library_page, name="prep_library"),
    path(P + "library/copy/", views.library_copy, name="prep_library_copy"),
    path(P + "library/npcs/<slug:key>/place/", views.library_place, name="prep_library_place"),
]
