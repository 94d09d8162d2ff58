"""Map pages and images; the REST API lives in vtt/api_urls.py."""

from django.urls import path

from vtt.maps import views

urlpatterns = [
    path("campaigns/<int:pk>/maps/", views.maps_page, name="maps_page"),
    path("campaigns/<int:pk>/maps/panel/", views.map_panel, name="map_panel"),
    path("campaigns/<int:pk>/maps/<int:map_id>/", views.map_editor, name="map_editor"),
    path(
        "campaigns/<int:pk>/maps/<int:map_id>/upload/",
        views.map_background_upload,
        name="map_background_upload",
    ),
    path(
        "campaigns/<int:pk>/maps/<int:map_id>/background/",
        views.map_background,
        name="map_background",
    ),
    path(
        "campaigns/<int:pk>/maps/<int:map_id>/tokens/<int:token_id>/image/",
        views.token_image,
        name="map_token_image",
    ),
]
