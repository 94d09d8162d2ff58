"""The table page and its htmx endpoints; the REST API lives in vtt/api_urls.py."""

from django.urls import path

from vtt.table import views

urlpatterns = [
    path("campaigns/<int:pk>/table/", views.table_page, name="table"),
    path("campaigns/<int:pk>/table/roll/", views.table_roll, name="table_roll"),
    path("campaigns/<int:pk>/table/chat/", views.table_chat, name="table_chat"),
    path("campaigns/<int:pk>/table/odds/", views.table_odds, name="table_odds"),
]
