"""Campaign API: thin views that authorise through ``vtt.permissions`` and call services."""

from __future__ import annotations

from datetime import timedelta

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from systems import RULESET_KEYS
from vtt.campaigns import selectors, services
from vtt.campaigns.models import INVITABLE_ROLES, Campaign, Invite, Membership, Role
from vtt.core import serializers
from vtt.permissions import Action, authorize


class CampaignSerializer(serializers.ModelSerializer):
    my_role = serializers.SerializerMethodField()
    is_archived = serializers.BooleanField(read_only=True)

    class Meta:
        model = Campaign
        fields = [
            "id",
            "name",
            "ruleset",
            "description",
            "created_at",
            "updated_at",
            "archived_at",
            "is_archived",
            "my_role",
        ]
        read_only_fields = ["id", "created_at", "updated_at", "archived_at"]

    def get_my_role(self, obj: Campaign) -> str | None:
        role = getattr(obj, "my_role", None)
        if role is None and "membership" in self.context:
            role = self.context["membership"].role
        return role


class CampaignCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=services.NAME_MAX)
    ruleset = serializers.ChoiceField(choices=RULESET_KEYS)
    description = serializers.CharField(
        max_length=services.DESCRIPTION_MAX, required=False, allow_blank=True
    )


class CampaignUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=services.NAME_MAX, required=False)
    description = serializers.CharField(
        max_length=services.DESCRIPTION_MAX, required=False, allow_blank=True
    )


class MemberSerializer(serializers.ModelSerializer):
    """A member as the others see them: named by their display name. The login (``username``)
    stays private to sign-in and is not sent, to the referee either (issue 18)."""

    user_id = serializers.IntegerField(source="user.id")
    display_name = serializers.CharField(source="user.display_name")

    class Meta:
        model = Membership
        fields = ["user_id", "display_name", "role", "joined_at"]


class MemberRoleSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=INVITABLE_ROLES)


class RefereeTransferSerializer(serializers.Serializer):
    user_id = serializers.IntegerField()


class InviteSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    is_active = serializers.BooleanField(read_only=True)

    class Meta:
        model = Invite
        fields = [
            "id",
            "token",
            "url",
            "role",
            "created_at",
            "expires_at",
            "revoked_at",
            "max_uses",
            "uses",
            "is_active",
        ]

    def get_url(self, obj: Invite) -> str:
        return selectors.invite_link(obj, self.context.get("request"))


class InviteCreateSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=INVITABLE_ROLES, default=Role.PLAYER)
    expires_in_hours = serializers.IntegerField(
        min_value=services.INVITE_MIN_HOURS, max_value=services.INVITE_MAX_DAYS * 24, default=168
    )
    max_uses = serializers.IntegerField(
        min_value=1, max_value=services.INVITE_USES_MAX, required=False
    )


class InvitePreviewSerializer(serializers.Serializer):
    campaign = serializers.CharField()
    ruleset = serializers.CharField()
    role = serializers.CharField()
    is_active = serializers.BooleanField()
    expires_at = serializers.DateTimeField()


class CampaignViewSet(viewsets.ViewSet):
    """Campaigns the caller belongs to. Others do not exist for them (404)."""

    serializer_class = CampaignSerializer
    lookup_value_regex = r"\d+"

    @extend_schema(responses=CampaignSerializer(many=True))
    def list(self, request: Request) -> Response:
        archived = {"1": True, "true": True, "all": None}.get(
            request.query_params.get("archived", ""), False
        )
        qs = selectors.campaigns_for_user(request.user, archived=archived)
        return Response(CampaignSerializer(qs, many=True).data)

    @extend_schema(request=CampaignCreateSerializer, responses={201: CampaignSerializer})
    def create(self, request: Request) -> Response:
        data = _valid(CampaignCreateSerializer, request)
        campaign = services.campaign_create(user=request.user, **data)
        campaign.my_role = Role.REFEREE
        return Response(CampaignSerializer(campaign).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=CampaignSerializer)
    def retrieve(self, request: Request, pk: str) -> Response:
        membership = authorize(request.user, pk, Action.VIEW)
        return Response(
            CampaignSerializer(membership.campaign, context={"membership": membership}).data
        )

    @extend_schema(request=CampaignUpdateSerializer, responses=CampaignSerializer)
    def partial_update(self, request: Request, pk: str) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE)
        data = _valid(CampaignUpdateSerializer, request)
        campaign = services.campaign_update(campaign=membership.campaign, **data)
        return Response(CampaignSerializer(campaign, context={"membership": membership}).data)

    @extend_schema(request=None, responses=CampaignSerializer)
    @action(detail=True, methods=["post"])
    def archive(self, request: Request, pk: str) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE, allow_archived=True)
        campaign = services.campaign_archive(campaign=membership.campaign)
        return Response(CampaignSerializer(campaign, context={"membership": membership}).data)

    @extend_schema(request=None, responses=CampaignSerializer)
    @action(detail=True, methods=["post"])
    def unarchive(self, request: Request, pk: str) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE, allow_archived=True)
        campaign = services.campaign_unarchive(campaign=membership.campaign)
        return Response(CampaignSerializer(campaign, context={"membership": membership}).data)

    @extend_schema(responses=MemberSerializer(many=True))
    @action(detail=True, methods=["get"])
    def members(self, request: Request, pk: str) -> Response:
        membership = authorize(request.user, pk, Action.VIEW)
        members = selectors.campaign_members(membership.campaign)
        return Response(MemberSerializer(members, many=True).data)

    @extend_schema(request=RefereeTransferSerializer, responses=MemberSerializer)
    @action(detail=True, methods=["post"])
    def referee(self, request: Request, pk: str) -> Response:
        """Hand the referee role to another member; you become a player."""
        membership = authorize(request.user, pk, Action.MANAGE)
        data = _valid(RefereeTransferSerializer, request)
        target = services.referee_transfer(campaign=membership.campaign, to_user_id=data["user_id"])
        return Response(MemberSerializer(target).data)

    @extend_schema(responses=InviteSerializer(many=True))
    @action(detail=True, methods=["get"], url_path="invites")
    def invites(self, request: Request, pk: str) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE, allow_archived=True)
        invites = selectors.campaign_invites(membership.campaign)
        return Response(InviteSerializer(invites, many=True, context={"request": request}).data)

    @extend_schema(request=InviteCreateSerializer, responses={201: InviteSerializer})
    @invites.mapping.post
    def invite_create(self, request: Request, pk: str) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE)
        data = _valid(InviteCreateSerializer, request)
        invite = services.invite_create(
            campaign=membership.campaign,
            created_by=request.user,
            role=data["role"],
            expires_in=timedelta(hours=data["expires_in_hours"]),
            max_uses=data.get("max_uses"),
        )
        return Response(
            InviteSerializer(invite, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )


class MemberDetail(APIView):
    """Change a member's role, or remove them. Any member may remove themselves (leave)."""

    @extend_schema(request=MemberRoleSerializer, responses=MemberSerializer)
    def patch(self, request: Request, pk: str, user_id: int) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE)
        data = _valid(MemberRoleSerializer, request)
        changed = services.member_set_role(
            campaign=membership.campaign, user_id=user_id, role=data["role"]
        )
        return Response(MemberSerializer(changed).data)

    @extend_schema(request=None, responses={204: OpenApiResponse(description="Removed")})
    def delete(self, request: Request, pk: str, user_id: int) -> Response:
        leaving = user_id == request.user.pk
        membership = authorize(
            request.user, pk, Action.VIEW if leaving else Action.MANAGE, allow_archived=True
        )
        services.member_remove(campaign=membership.campaign, user_id=user_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class InviteDetail(APIView):
    @extend_schema(request=None, responses={204: OpenApiResponse(description="Revoked")})
    def delete(self, request: Request, pk: str, invite_id: int) -> Response:
        membership = authorize(request.user, pk, Action.MANAGE, allow_archived=True)
        invite = get_object_or_404(Invite, pk=invite_id, campaign=membership.campaign)
        services.invite_revoke(invite=invite)
        return Response(status=status.HTTP_204_NO_CONTENT)


class InviteByToken(APIView):
    """What an invite link offers, for the person who holds it."""

    @extend_schema(responses=InvitePreviewSerializer)
    def get(self, request: Request, token: str) -> Response:
        invite = get_object_or_404(Invite.objects.select_related("campaign"), token=token)
        return Response(
            {
                "campaign": invite.campaign.name,
                "ruleset": invite.campaign.ruleset,
                "role": invite.role,
                "is_active": invite.is_active,
                "expires_at": invite.expires_at,
            }
        )


class InviteAccept(APIView):
    @extend_schema(request=None, responses={200: MemberSerializer})
    def post(self, request: Request, token: str) -> Response:
        membership = services.invite_accept(token=token, user=request.user)
        data = MemberSerializer(membership).data
        data["campaign_id"] = membership.campaign_id
        return Response(data)


def _valid(serializer_class: type[serializers.Serializer], request: Request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
