"""Everything under /api/."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from vtt.accounts.api import AuthToken, AuthTokenRevoke, Me
from vtt.campaigns.api import (
    CampaignViewSet,
    InviteAccept,
    InviteByToken,
    InviteDetail,
    MemberDetail,
)

router = DefaultRouter(trailing_slash="/?")
router.register("campaigns", CampaignViewSet, basename="campaign")

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("me/", Me.as_view(), name="api-me"),
    path("auth/token/", AuthToken.as_view(), name="api-token"),
    path("auth/token/revoke/", AuthTokenRevoke.as_view(), name="api-token-revoke"),
    path(
        "campaigns/<int:pk>/members/<int:user_id>/",
        MemberDetail.as_view(),
        name="api-member-detail",
    ),
    path(
        "campaigns/<int:pk>/invites/<int:invite_id>/",
        InviteDetail.as_view(),
        name="api-invite-detail",
    ),
    path("invites/<str:token>/", InviteByToken.as_view(), name="api-invite"),
    path("invites/<str:token>/accept/", InviteAccept.as_view(), name="api-invite-accept"),
    path("", include(router.urls)),
]
