"""Crows pages: the inventory slot board (its writes go through the character API)."""

from django.urls import path

from vtt.rulesets.crows import api
from vtt.rulesets.crows.inventory_views import inventory_page

urlpatterns = [
    path("characters/<int:cid>/inventory/", inventory_page, name="character_inventory"),
]

# Under /api/ (vtt/api_urls.py includes every ruleset's API patterns).
api_urlpatterns = [
    path(
        "campaigns/<int:pk>/maps/<int:map_id>/attack/",
        api.MapAttack.as_view(),
        name="api-map-attack",
    ),
    path(
        "campaigns/<int:pk>/maps/<int:map_id>/travel/",
        api.MapTravel.as_view(),
        name="api-map-travel",
    ),
    path(
        "campaigns/<int:pk>/maps/<int:map_id>/travel/<slug:step>/",
        api.MapTravelStep.as_view(),
        name="api-map-travel-step",
    ),
    path(
        "campaigns/<int:pk>/maps/<int:map_id>/combat/",
        api.MapCombat.as_view(),
        name="api-map-combat",
    ),
    path(
        "campaigns/<int:pk>/maps/<int:map_id>/combat/<slug:step>/",
        api.MapCombatStep.as_view(),
        name="api-map-combat-step",
    ),
]
