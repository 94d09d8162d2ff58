"""Reads shared by pages and the API."""

from __future__ import annotations

from django.db.models import Count, OuterRef, QuerySet, Subquery
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone

from vtt.campaigns.models import Campaign, Invite, Membership


def campaigns_for_user(user, *, archived: bool | None = False) -> QuerySet[Campaign]:
    """The user's campaigns with their role and member count, newest activity first."""
    role = Membership.objects.filter(campaign=OuterRef("pk"), user=user).values("role")[:1]
    # Filter through a subquery, not a join: a join on memberships would leave only the user's
    # own row for Count() to see (every campaign would say "1 member").
    mine = Membership.objects.filter(user=user).values("campaign")
    qs = (
        Campaign.objects.filter(pk__in=mine)
        .annotate(my_role=Subquery(role), member_count=Count("memberships", distinct=True))
        .order_by("-updated_at", "-id")
    )
    if archived is True:
        qs = qs.filter(archived_at__isnull=False)
    elif archived is False:
        qs = qs.filter(archived_at__isnull=True)
    return qs


def campaign_members(campaign: Campaign) -> QuerySet[Membership]:
    return (
        Membership.objects.filter(campaign=campaign)
        .select_related("user")
        .order_by("joined_at", "id")
    )


def campaign_invites(campaign: Campaign, *, active_only: bool = False) -> QuerySet[Invite]:
    qs = Invite.objects.filter(campaign=campaign).select_related("created_by")
    if active_only:
        qs = qs.filter(revoked_at__isnull=True, expires_at__gt=timezone.now())
    return qs


def invite_link(invite: Invite, request: HttpRequest | None = None) -> str:
    path = reverse("invite_accept", args=[invite.token])
    return request.build_absolute_uri(path) if request is not None else path
