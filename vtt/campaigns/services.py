"""Every campaign write. Each runs in one transaction and locks the campaign row first, so two
referees' clicks (or a transfer racing a removal) are serialised and the "exactly one referee"
rule holds."""

from __future__ import annotations

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from systems import RULESET_KEYS
from vtt.accounts.models import User
from vtt.campaigns.models import Campaign, Invite, Membership, Role
from vtt.core.errors import Conflict, Gone, Invalid, invalid_from_rules

NAME_MAX = Campaign._meta.get_field("name").max_length  # the column is the limit
DESCRIPTION_MAX = Campaign._meta.get_field("description").max_length
INVITE_MIN_HOURS = 1
INVITE_MAX_DAYS = 90
INVITE_DEFAULT = timedelta(days=7)
INVITES_ACTIVE_MAX = 50
INVITE_USES_MAX = 100


def _clean_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise Invalid(_("Enter a campaign name."), fields={"name": [_("This field is required.")]})
    if len(name) > NAME_MAX:
        raise Invalid(
            _("The name is longer than %(max)d characters.") % {"max": NAME_MAX},
            fields={"name": [_("At most %(max)d characters.") % {"max": NAME_MAX}]},
        )
    return name


def _lock(campaign: Campaign) -> Campaign:
    """FOR NO KEY UPDATE: serialises campaign edits without blocking the key-share locks every
    event insert takes on its campaign (a plain FOR UPDATE could deadlock with the log)."""
    return Campaign.objects.select_for_update(no_key=True).get(pk=campaign.pk)


@transaction.atomic
def campaign_create(*, user: User, name: str, ruleset: str, description: str = "") -> Campaign:
    if ruleset not in RULESET_KEYS:
        raise Invalid(
            _("Unknown ruleset “%(key)s”.") % {"key": ruleset},
            fields={"ruleset": [_("Choose one of: %s.") % ", ".join(RULESET_KEYS)]},
        )
    campaign = Campaign.objects.create(
        name=_clean_name(name),
        ruleset=ruleset,
        description=(description or "")[:DESCRIPTION_MAX],
        created_by=user,
    )
    Membership.objects.create(campaign=campaign, user=user, role=Role.REFEREE)
    return campaign


@transaction.atomic
def campaign_update(
    *, campaign: Campaign, name: str | None = None, description: str | None = None
) -> Campaign:
    campaign = _lock(campaign)
    fields = ["updated_at"]
    if name is not None:
        campaign.name = _clean_name(name)
        fields.append("name")
    if description is not None:
        if len(description) > DESCRIPTION_MAX:
            raise Invalid(
                _("The description is longer than %(max)d characters.") % {"max": DESCRIPTION_MAX},
                fields={"description": [str(DESCRIPTION_MAX)]},
            )
        campaign.description = description
        fields.append("description")
    campaign.save(update_fields=fields)
    return campaign


@transaction.atomic
def campaign_archive(*, campaign: Campaign) -> Campaign:
    campaign = _lock(campaign)
    if campaign.archived_at is None:
        campaign.archived_at = timezone.now()
        campaign.save(update_fields=["archived_at", "updated_at"])
    return campaign


@transaction.atomic
def campaign_unarchive(*, campaign: Campaign) -> Campaign:
    campaign = _lock(campaign)
    if campaign.archived_at is not None:
        campaign.archived_at = None
        campaign.save(update_fields=["archived_at", "updated_at"])
    return campaign


@transaction.atomic
def invite_create(
    *,
    campaign: Campaign,
    created_by: User,
    role: str = Role.PLAYER,
    expires_in: timedelta = INVITE_DEFAULT,
    max_uses: int | None = None,
) -> Invite:
    campaign = _lock(campaign)
    if role not in (Role.PLAYER, Role.OBSERVER):
        raise Invalid(
            _("Invites are for players or observers; the referee role is handed over separately."),
            fields={"role": [_("Allowed: player, observer.")]},
        )
    if not timedelta(hours=INVITE_MIN_HOURS) <= expires_in <= timedelta(days=INVITE_MAX_DAYS):
        raise Invalid(
            _("An invite must be valid for 1 hour to %(days)d days.") % {"days": INVITE_MAX_DAYS},
            fields={"expires_in": [_("From 1 hour to %(days)d days.") % {"days": INVITE_MAX_DAYS}]},
        )
    if max_uses is not None and not 1 <= max_uses <= INVITE_USES_MAX:
        raise Invalid(
            _("The number of uses must be from 1 to %(max)d.") % {"max": INVITE_USES_MAX},
            fields={"max_uses": [_("From 1 to %(max)d.") % {"max": INVITE_USES_MAX}]},
        )
    active = Invite.objects.filter(
        campaign=campaign, revoked_at__isnull=True, expires_at__gt=timezone.now()
    ).count()
    if active >= INVITES_ACTIVE_MAX:
        raise Conflict(
            _("Too many active invites (%(max)d); revoke the ones you no longer need.")
            % {"max": INVITES_ACTIVE_MAX},
            code="too_many_invites",
        )
    return Invite.objects.create(
        campaign=campaign,
        role=role,
        created_by=created_by,
        expires_at=timezone.now() + expires_in,
        max_uses=max_uses,
    )


@transaction.atomic
def invite_revoke(*, invite: Invite) -> Invite:
    invite = Invite.objects.select_for_update().get(pk=invite.pk)
    if invite.revoked_at is None:
        invite.revoked_at = timezone.now()
        invite.save(update_fields=["revoked_at"])
    return invite


def ensure_public_name_free(
    *, user: User, name: str | None = None, campaign: Campaign | None = None
) -> None:
    """The one check that nobody at a table can pass for another member: display names are
    unique among a campaign's members, compared by ``public_name_key`` (NFKC, case-folded).

    - ``name``: the user wants to be called ``name`` (the profile page); no member of any
      campaign they are in may already be called that. Keeping one's own name (or changing
      only its case) is always allowed, even where an older duplicate exists.
    - ``campaign``: the user, named as now, wants to join ``campaign`` (an invite); none of
      its members may be called that.

    Raises ``Conflict`` (409, code ``public_name_taken``). Runs inside the caller's transaction:
    it locks the user's row, then the campaigns' rows in id order (FOR NO KEY UPDATE, as
    ``_lock``; no key-share lock of the event log waits for it). A rename and a join, or two
    renames, that could produce the same name in one campaign lock a common row (the user or
    the campaign), so the second one waits and then sees the first one's name.
    """
    from vtt.accounts.services import public_name_key

    me = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    if campaign is not None:
        wanted = me.display_name
        campaign_ids = [campaign.pk]
    else:
        wanted = name or ""
        if public_name_key(wanted) == public_name_key(me.display_name):
            return
        campaign_ids = list(
            Membership.objects.filter(user=me).values_list("campaign_id", flat=True)
        )
    if not campaign_ids:
        return
    list(
        Campaign.objects.select_for_update(no_key=True)
        .filter(pk__in=campaign_ids)
        .order_by("pk")
        .only("pk")
    )
    key = public_name_key(wanted)
    others = (
        Membership.objects.filter(campaign_id__in=campaign_ids)
        .exclude(user=me)
        .select_related("user", "campaign")
        .order_by("campaign_id", "id")
    )
    clash = next((m for m in others if public_name_key(m.user.display_name) == key), None)
    if clash is None:
        return
    names = {"name": wanted, "campaign": clash.campaign.name}
    if campaign is not None:
        message = (
            _(
                "A member of “%(campaign)s” is already called “%(name)s”. Change your display "
                "name in your profile, then open the invite again."
            )
            % names
        )
        raise Conflict(message, code="public_name_taken")
    message = (
        _(
            "A member of “%(campaign)s”, a campaign you are in, is already called “%(name)s”. "
            "Choose another display name."
        )
        % names
    )
    raise Conflict(message, code="public_name_taken", fields={"public_name": [message]})


@transaction.atomic
def invite_accept(*, token: str, user: User) -> Membership:
    """Join through a link. Someone already in the campaign keeps their current role."""
    invite = (
        Invite.objects.select_for_update(of=("self",))
        .select_related("campaign")
        .filter(token=token)
    )
    invite = invite.first()
    if invite is None:
        raise Gone(_("Invite not found or revoked."), code="invite_not_found")
    existing = Membership.objects.filter(campaign=invite.campaign, user=user).first()
    if existing is not None:
        return existing
    if invite.revoked_at is not None:
        raise Gone(_("The referee has revoked this invite."), code="invite_revoked")
    if invite.is_expired:
        raise Gone(_("This invite has expired."), code="invite_expired")
    if invite.is_used_up:
        raise Gone(_("This invite has been used up."), code="invite_used_up")
    if invite.campaign.is_archived:
        raise Conflict(
            _("The campaign is archived and cannot be joined."), code="campaign_archived"
        )
    ensure_public_name_free(user=user, campaign=invite.campaign)
    try:
        with transaction.atomic():
            membership = Membership.objects.create(
                campaign=invite.campaign, user=user, role=invite.role
            )
    except IntegrityError:  # a double click that raced: the first one joined
        return Membership.objects.get(campaign=invite.campaign, user=user)
    invite.uses += 1
    invite.save(update_fields=["uses"])
    return membership


@transaction.atomic
def member_remove(*, campaign: Campaign, user_id: int) -> None:
    """Remove a member (or leave). The referee cannot go: hand the role over first."""
    _lock(campaign)
    membership = Membership.objects.filter(campaign=campaign, user_id=user_id).first()
    if membership is None:
        raise Invalid(_("This user is not a member of the campaign."), code="not_a_member")
    if membership.role == Role.REFEREE:
        raise Conflict(
            _("A campaign always has a referee: hand the referee role to another member first."),
            code="last_referee",
        )
    membership.delete()
    from vtt.campaigns import signals

    transaction.on_commit(
        lambda: signals.member_removed.send(
            sender=Membership, campaign_id=campaign.pk, user_id=user_id
        )
    )


@transaction.atomic
def member_set_role(*, campaign: Campaign, user_id: int, role: str) -> Membership:
    _lock(campaign)
    if role not in (Role.PLAYER, Role.OBSERVER):
        raise Invalid(
            _("Assign player or observer; the referee role is handed over separately."),
            fields={"role": [_("Allowed: player, observer.")]},
        )
    membership = Membership.objects.filter(campaign=campaign, user_id=user_id).first()
    if membership is None:
        raise Invalid(_("This user is not a member of the campaign."), code="not_a_member")
    if membership.role == Role.REFEREE:
        raise Conflict(
            _("The referee role changes only by handing it to another member."), code="last_referee"
        )
    membership.role = role
    membership.save(update_fields=["role"])
    _after_commit_role_changed(campaign.pk, [user_id])
    return membership


@transaction.atomic
def referee_transfer(*, campaign: Campaign, to_user_id: int) -> Membership:
    """Hand the referee role to another member; the old referee becomes a player.

    Demote first, then promote, inside one transaction under the campaign lock: the partial
    unique index never sees two referees and no reader ever sees none.
    """
    _lock(campaign)
    target = Membership.objects.filter(campaign=campaign, user_id=to_user_id).first()
    if target is None:
        raise Invalid(_("The role can only be handed to a campaign member."), code="not_a_member")
    if target.role == Role.REFEREE:
        return target
    old = list(
        Membership.objects.filter(campaign=campaign, role=Role.REFEREE).values_list(
            "user_id", flat=True
        )
    )
    Membership.objects.filter(campaign=campaign, role=Role.REFEREE).update(role=Role.PLAYER)
    _after_commit_role_changed(campaign.pk, [*old, to_user_id])
    target.role = Role.REFEREE
    target.save(update_fields=["role"])
    return target


__all__ = [
    "campaign_archive",
    "campaign_create",
    "campaign_unarchive",
    "campaign_update",
    "ensure_public_name_free",
    "invite_accept",
    "invite_create",
    "invite_revoke",
    "member_remove",
    "member_set_role",
    "referee_transfer",
]


def _after_commit_role_changed(campaign_id: int, user_ids: list[int]) -> None:
    from vtt.campaigns import signals

    def send() -> None:
        for user_id in user_ids:
            signals.member_role_changed.send(
                sender=Membership, campaign_id=campaign_id, user_id=user_id
            )

    transaction.on_commit(send)


@transaction.atomic
def campaign_set_rules(*, campaign: Campaign, settings: dict) -> Campaign:
    """Replace the campaign's rule settings; the ruleset validates and fills defaults."""
    from systems import get_ruleset
    from systems.core.ruleset import RulesError

    campaign = _lock(campaign)
    try:
        cleaned = get_ruleset(campaign.ruleset).clean_settings(settings)
    except RulesError as exc:
        raise invalid_from_rules(exc, code="bad_settings") from exc
    campaign.rules = cleaned
    campaign.save(update_fields=["rules", "updated_at"])
    return campaign
