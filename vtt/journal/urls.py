"""The journal's pages; the REST API is in vtt/journal/api_urls.py."""

from django.urls import path

from vtt.journal import views

P = "campaigns/<int:pk>/journal/"

urlpatterns = [
    path(P, views.journal_index, name="journal"),
    path(P + "<int:jid>/", views.entry_page, name="journal-entry"),
    path(P + "<int:jid>/delete/", views.entry_delete, name="journal-entry-delete"),
    path(P + "<int:jid>/images/<int:image_id>/", views.entry_image, name="journal-image"),
]
