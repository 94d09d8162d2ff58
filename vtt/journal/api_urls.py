"""The journal's API, mounted at /api/campaigns/<pk>/journal/."""

from django.urls import path

from vtt.journal import api

urlpatterns = [
    path("", api.Entries.as_view(), name="api-journal"),
    path("<int:jid>/", api.EntryDetail.as_view(), name="api-journal-entry"),
    path("<int:jid>/show/", api.EntryShow.as_view(), name="api-journal-show"),
    path("<int:jid>/images/", api.EntryImages.as_view(), name="api-journal-images"),
    path(
        "<int:jid>/images/<int:image_id>/",
        api.EntryImageDetail.as_view(),
        name="api-journal-image",
    ),
]
