from django.urls import path

from vtt.campaigns import views

urlpatterns = [
    path("campaigns/", views.campaign_list, name="campaign_list"),
    path("campaigns/<int:pk>/", views.campaign_detail, name="campaign_detail"),
    path("campaigns/<int:pk>/rename/", views.campaign_rename, name="campaign_rename"),
    path("campaigns/<int:pk>/archive/", views.campaign_archive, name="campaign_archive"),
    path("campaigns/<int:pk>/unarchive/", views.campaign_unarchive, name="campaign_unarchive"),
    path("campaigns/<int:pk>/leave/", views.campaign_leave, name="campaign_leave"),
    path("campaigns/<int:pk>/invites/", views.invite_create, name="invite_create"),
    path(
        "campaigns/<int:pk>/invites/<int:invite_id>/revoke/",
        views.invite_revoke,
        name="invite_revoke",
    ),
    path(
        "campaigns/<int:pk>/members/<int:user_id>/remove/",
        views.member_remove,
        name="member_remove",
    ),
    path("campaigns/<int:pk>/members/<int:user_id>/role/", views.member_role, name="member_role"),
    path("campaigns/<int:pk>/referee/", views.referee_transfer, name="referee_transfer"),
    path("invite/<str:token>/", views.invite_accept, name="invite_accept"),
]
