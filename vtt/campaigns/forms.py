from django import forms
from django.utils.translation import gettext_lazy as _

from vtt.campaigns import services
from vtt.campaigns.models import INVITABLE_ROLES
from vtt.rulesets.registry import ruleset_choices

EXPIRY_CHOICES = [
    (24, _("1 day")),
    (72, _("3 days")),
    (168, _("7 days")),
    (720, _("30 days")),
]


class CampaignCreateForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=services.NAME_MAX)
    ruleset = forms.ChoiceField(label=_("Ruleset"), choices=ruleset_choices)
    description = forms.CharField(
        label=_("Description"),
        required=False,
        max_length=services.DESCRIPTION_MAX,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class CampaignRenameForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=services.NAME_MAX)
    description = forms.CharField(
        label=_("Description"),
        required=False,
        max_length=services.DESCRIPTION_MAX,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class InviteCreateForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=INVITABLE_ROLES)
    expires_in_hours = forms.TypedChoiceField(
        label=_("Valid for"), choices=EXPIRY_CHOICES, coerce=int, initial=168
    )
    max_uses = forms.IntegerField(
        label=_("Maximum number of uses"),
        required=False,
        min_value=1,
        max_value=services.INVITE_USES_MAX,
    )


class MemberRoleForm(forms.Form):
    role = forms.ChoiceField(choices=INVITABLE_ROLES)


class RefereeTransferForm(forms.Form):
    user_id = forms.IntegerField()
