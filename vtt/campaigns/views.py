"""Campaign pages. Each view authorises through ``vtt.permissions`` and calls a service;
htmx requests get the affected fragment back, plain posts a redirect."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from vtt.campaigns import selectors, services
from vtt.campaigns.forms import (
    CampaignCreateForm,
    CampaignRenameForm,
    InviteCreateForm,
    MemberRoleForm,
    RefereeTransferForm,
)
from vtt.campaigns.models import Invite, Role
from vtt.core.errors import Conflict, Invalid
from vtt.permissions import Action, authorize, is_referee


def home(request: HttpRequest) -> HttpResponse:
    return redirect("campaign_list" if request.user.is_authenticated else "login")


@login_required
@require_http_methods(["GET", "POST"])
def campaign_list(request: HttpRequest) -> HttpResponse:
    form = CampaignCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        campaign = services.campaign_create(user=request.user, **form.cleaned_data)
        messages.success(request, _("Campaign “%(name)s” created.") % {"name": campaign.name})
        return redirect("campaign_detail", campaign.pk)
    context = {
        "form": form,
        "campaigns": selectors.campaigns_for_user(request.user, archived=False),
        "archived": selectors.campaigns_for_user(request.user, archived=True),
    }
    return render(request, "campaigns/list.html", context, status=400 if form.errors else 200)


@login_required
def campaign_detail(request: HttpRequest, pk: int) -> HttpResponse:
    membership = authorize(request.user, pk, Action.VIEW)
    return render(request, "campaigns/detail.html", _detail_context(request, membership))


def _detail_context(request: HttpRequest, membership, **extra) -> dict:
    campaign = membership.campaign
    referee = is_referee(membership)
    context = {
        "campaign": campaign,
        "membership": membership,
        "is_referee": referee,
        "members": selectors.campaign_members(campaign),
        "rename_form": CampaignRenameForm(
            initial={"name": campaign.name, "description": campaign.description}
        ),
        "invite_form": InviteCreateForm(),
    }
    if referee:
        context["invites"] = [
            (invite, selectors.invite_link(invite, request))
            for invite in selectors.campaign_invites(campaign)[:50]
        ]
    context.update(extra)
    return context


@login_required
@require_POST
def campaign_rename(request: HttpRequest, pk: int) -> HttpResponse:
    membership = authorize(request.user, pk, Action.MANAGE)
    form = CampaignRenameForm(request.POST)
    if not form.is_valid():
        context = _detail_context(request, membership, rename_form=form)
        return render(request, "campaigns/detail.html", context, status=400)
    services.campaign_update(campaign=membership.campaign, **form.cleaned_data)
    messages.success(request, _("Saved."))
    return redirect("campaign_detail", pk)


@login_required
@require_POST
def campaign_archive(request: HttpRequest, pk: int) -> HttpResponse:
    membership = authorize(request.user, pk, Action.MANAGE, allow_archived=True)
    services.campaign_archive(campaign=membership.campaign)
    messages.success(request, _("Campaign archived."))
    return redirect("campaign_detail", pk)


@login_required
@require_POST
def campaign_unarchive(request: HttpRequest, pk: int) -> HttpResponse:
    membership = authorize(request.user, pk, Action.MANAGE, allow_archived=True)
    services.campaign_unarchive(campaign=membership.campaign)
    messages.success(request, _("Campaign restored from the archive."))
    return redirect("campaign_detail", pk)


@login_required
@require_POST
def invite_create(request: HttpRequest, pk: int) -> HttpResponse:
    membership = authorize(request.user, pk, Action.MANAGE)
    form = InviteCreateForm(request.POST)
    if not form.is_valid():
        raise Invalid(_("Check the invite fields."), fields=form.errors)
    services.invite_create(
        campaign=membership.campaign,
        created_by=request.user,
        role=form.cleaned_data["role"],
        expires_in=timedelta(hours=form.cleaned_data["expires_in_hours"]),
        max_uses=form.cleaned_data.get("max_uses"),
    )
    return _manage_response(request, membership, _("Invite created."))


@login_required
@require_POST
def invite_revoke(request: HttpRequest, pk: int, invite_id: int) -> HttpResponse:
    membership = authorize(request.user, pk, Action.MANAGE, allow_archived=True)
    invite = get_object_or_404(Invite, pk=invite_id, campaign=membership.campaign)
    services.invite_revoke(invite=invite)
    return _manage_response(request, membership, _("Invite revoked."))


@login_required
@require_POST
def member_remove(request: HttpRequest, pk: int, user_id: int) -> HttpResponse:
    membership = authorize(request.user, pk, Action.MANAGE, allow_archived=True)
    services.member_remove(campaign=membership.campaign, user_id=user_id)
    return _manage_response(request, membership, _("Member removed from the campaign."))


@login_required
@require_POST
def member_role(request: HttpRequest, pk: int, user_id: int) -> HttpResponse:
    membership = authorize(request.user, pk, Action.MANAGE)
    form = MemberRoleForm(request.POST)
    if not form.is_valid():
        raise Invalid(_("Choose a role: player or observer."), fields=form.errors)
    services.member_set_role(
        campaign=membership.campaign, user_id=user_id, role=form.cleaned_data["role"]
    )
    return _manage_response(request, membership, _("Role changed."))


@login_required
@require_POST
def referee_transfer(request: HttpRequest, pk: int) -> HttpResponse:
    membership = authorize(request.user, pk, Action.MANAGE)
    form = RefereeTransferForm(request.POST)
    if not form.is_valid():
        raise Invalid(_("Choose a member."), fields=form.errors)
    target = services.referee_transfer(
        campaign=membership.campaign, to_user_id=form.cleaned_data["user_id"]
    )
    messages.success(
        request, _("%(name)s is now the referee.") % {"name": target.user.display_name}
    )
    return redirect("campaign_detail", pk)


@login_required
@require_POST
def campaign_leave(request: HttpRequest, pk: int) -> HttpResponse:
    membership = authorize(request.user, pk, Action.VIEW)
    services.member_remove(campaign=membership.campaign, user_id=request.user.pk)
    messages.success(
        request, _("You left the campaign “%(name)s”.") % {"name": membership.campaign}
    )
    return redirect("campaign_list")


def _manage_response(request: HttpRequest, membership, message: str) -> HttpResponse:
    """htmx swaps the management panel in place; a plain form post goes back to the page."""
    if request.htmx:
        membership.campaign.refresh_from_db()
        context = _detail_context(request, membership, notice=message)
        return render(request, "campaigns/detail.html#manage", context)
    messages.success(request, message)
    return redirect("campaign_detail", membership.campaign_id)


@require_http_methods(["GET", "POST"])
def invite_accept(request: HttpRequest, token: str) -> HttpResponse:
    invite = Invite.objects.select_related("campaign").filter(token=token).first()
    if not request.user.is_authenticated:
        return render(
            request,
            "campaigns/invite.html",
            {"invite": invite, "token": token},
            status=200 if invite is not None else 404,
        )
    name_taken = None
    if request.method == "POST":
        try:
            membership = services.invite_accept(token=token, user=request.user)
        except Conflict as exc:
            if exc.code != "public_name_taken":
                raise
            name_taken = exc  # the invite page again, with the way to the profile
        else:
            messages.success(
                request,
                _("You joined the campaign “%(name)s”.") % {"name": membership.campaign.name},
            )
            return redirect("campaign_detail", membership.campaign_id)
    already = None
    if invite is not None:
        already = invite.campaign.memberships.filter(user=request.user).first()
    status = name_taken.status if name_taken else 200 if invite is not None else 404
    return render(
        request,
        "campaigns/invite.html",
        {
            "invite": invite,
            "token": token,
            "already": already,
            "roles": Role,
            "name_taken": name_taken,
        },
        status=status,
    )
