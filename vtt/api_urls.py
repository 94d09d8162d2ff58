"""Everything under /api/."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import DefaultRouter

from vtt.accounts.api import AuthToken, AuthTokenRevoke, Me
from vtt.campaigns.api import (
    CampaignViewSet,
    InviteAccept,
    InviteByToken,
    InviteDetail,
    MemberDetail,
)
from vtt.characters import api as char_api
from vtt.maps import api as map_api
from vtt.rulesets.registry import api_urlpatterns as ruleset_api_urlpatterns
from vtt.table import api as table_api
from vtt.tablestate import api as tablestate_api

# No ".json" suffix routes: the API answers JSON only, and the viewset actions take no
# `format` argument (a suffixed URL was a 500).
router = DefaultRouter(trailing_slash="/?")
router.include_format_suffixes = False
router.register("campaigns", CampaignViewSet, basename="campaign")

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
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
    path("campaigns/<int:pk>/rolls/", table_api.Rolls.as_view(), name="api-rolls"),
    path(
        "campaigns/<int:pk>/rolls/<int:roll_id>/reveal/",
        table_api.RollReveal.as_view(),
        name="api-roll-reveal",
    ),
    path("campaigns/<int:pk>/chat/", table_api.Chat.as_view(), name="api-chat"),
    path("campaigns/<int:pk>/clock/", table_api.Clock.as_view(), name="api-clock"),
    path("campaigns/<int:pk>/events/", table_api.Events.as_view(), name="api-events"),
    path(
        "campaigns/<int:pk>/events/verify/",
        table_api.EventsVerify.as_view(),
        name="api-events-verify",
    ),
    path("campaigns/<int:pk>/initiative/", table_api.Initiative.as_view(), name="api-initiative"),
    path(
        "campaigns/<int:pk>/initiative/<int:entry_id>/",
        table_api.InitiativeEntryDetail.as_view(),
        name="api-initiative-entry",
    ),
    path(
        "campaigns/<int:pk>/initiative/order/",
        table_api.InitiativeOrder.as_view(),
        name="api-initiative-order",
    ),
    path(
        "campaigns/<int:pk>/initiative/step/",
        table_api.InitiativeStep.as_view(),
        name="api-initiative-step",
    ),
    path(
        "campaigns/<int:pk>/initiative/reset/",
        table_api.InitiativeReset.as_view(),
        name="api-initiative-reset",
    ),
    path(
        "campaigns/<int:pk>/characters/",
        char_api.CampaignCharacters.as_view(),
        name="api-characters",
    ),
    path(
        "campaigns/<int:pk>/characters/import/",
        char_api.CharacterImport.as_view(),
        name="api-characters-import",
    ),
    path("campaigns/<int:pk>/rules/", char_api.CampaignRules.as_view(), name="api-rules"),
    path(
        "campaigns/<int:pk>/party-moves/<slug:move>/",
        char_api.PartyMove.as_view(),
        name="api-party-move",
    ),
    path("characters/<int:cid>/", char_api.CharacterDetail.as_view(), name="api-character"),
    path(
        "characters/<int:cid>/history/",
        char_api.CharacterHistory.as_view(),
        name="api-character-history",
    ),
    path(
        "characters/<int:cid>/revert/",
        char_api.CharacterRevert.as_view(),
        name="api-character-revert",
    ),
    path(
        "characters/<int:cid>/export/",
        char_api.CharacterExport.as_view(),
        name="api-character-export",
    ),
    path(
        "characters/<int:cid>/moves/<slug:move>/",
        char_api.CharacterMove.as_view(),
        name="api-character-move",
    ),
    path(
        "characters/<int:cid>/moves/<slug:move>/odds/",
        char_api.CharacterMoveOdds.as_view(),
        name="api-character-move-odds",
    ),
    path(
        "characters/<int:cid>/pending/",
        char_api.PendingList.as_view(),
        name="api-character-pending",
    ),
    path(
        "characters/<int:cid>/pending/<int:pending_id>/",
        char_api.PendingChoose.as_view(),
        name="api-character-choose",
    ),
    path(
        "campaigns/<int:pk>/table-state/",
        tablestate_api.TableStateView.as_view(),
        name="api-table-state",
    ),
    path(
        "campaigns/<int:pk>/table-state/choices/",
        tablestate_api.TableChoiceView.as_view(),
        name="api-table-choice",
    ),
    path(
        "campaigns/<int:pk>/table-moves/<slug:move>/",
        tablestate_api.TableMoveView.as_view(),
        name="api-table-move",
    ),
    path("rulesets/<slug:key>/", char_api.RulesetDescribe.as_view(), name="api-ruleset"),
    path("campaigns/<int:pk>/maps/", map_api.Maps.as_view(), name="api-maps"),
    path("campaigns/<int:pk>/maps/<int:map_id>/", map_api.MapDetail.as_view(), name="api-map"),
    path("campaigns/<int:pk>/maps/<int:map_id>/activate/", map_api.MapActivate.as_view()),
    path("campaigns/<int:pk>/maps/<int:map_id>/background/", map_api.MapBackground.as_view()),
    path("campaigns/<int:pk>/maps/<int:map_id>/fog/", map_api.MapFog.as_view()),
    path("campaigns/<int:pk>/maps/<int:map_id>/round/", map_api.MapRound.as_view()),
    path("campaigns/<int:pk>/maps/<int:map_id>/terrain/", map_api.MapTerrain.as_view()),
    path("campaigns/<int:pk>/maps/<int:map_id>/party/", map_api.MapParty.as_view()),
    path("campaigns/<int:pk>/maps/<int:map_id>/features/", map_api.MapFeatures.as_view()),
    path("campaigns/<int:pk>/maps/<int:map_id>/notes/", map_api.Notes.as_view()),
    path(
        "campaigns/<int:pk>/maps/<int:map_id>/notes/<int:note_id>/",
        map_api.NoteDetail.as_view(),
    ),
    path("campaigns/<int:pk>/maps/<int:map_id>/tokens/", map_api.Tokens.as_view()),
    path(
        "campaigns/<int:pk>/maps/<int:map_id>/tokens/<int:token_id>/",
        map_api.TokenDetail.as_view(),
    ),
    path(
        "campaigns/<int:pk>/maps/<int:map_id>/tokens/<int:token_id>/move/",
        map_api.TokenMove.as_view(),
    ),
    path(
        "campaigns/<int:pk>/maps/<int:map_id>/tokens/<int:token_id>/image/",
        map_api.TokenImage.as_view(),
    ),
    path("campaigns/<int:pk>/prep/", include("vtt.prep.api_urls")),
    path("campaigns/<int:pk>/journal/", include("vtt.journal.api_urls")),
    path("", include(router.urls)),
    # Each ruleset's own endpoints (vtt/rulesets/<key>/urls.py), through its plugin.
    *ruleset_api_urlpatterns(),
]
