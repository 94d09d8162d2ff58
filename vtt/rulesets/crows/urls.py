"""Crows pages: the inventory slot board (its writes go through the character API)."""

from django.urls import path

from vtt.rulesets.crows.inventory_views import inventory_page

urlpatterns = [
    path("characters/<int:cid>/inventory/", inventory_page, name="character_inventory"),
]
