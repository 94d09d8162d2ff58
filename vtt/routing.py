"""Websocket routes; each app adds its consumers here."""

from django.urls import path

from vtt.table.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/campaigns/<int:campaign_id>/", TableConsumer.as_asgi()),
]
