from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from vtt.accounts.models import PUBLIC_NAME_MAX, User
from vtt.accounts.services import clean_public_name
from vtt.core.errors import Invalid


def public_name_field() -> forms.CharField:
    """The display name as sign-up and the profile page ask it (one label, one limit)."""
    return forms.CharField(
        label=_("Display name"),
        max_length=PUBLIC_NAME_MAX,
        help_text=_("How the others at the table see you: in the log, the chat and the rolls."),
    )


class PublicNameMixin:
    """The display name through ``clean_public_name`` (NFC, no invisible characters): the
    form's cleaned value is the name that will be saved."""

    def clean_public_name(self) -> str:
        try:
            return clean_public_name(self.cleaned_data["public_name"])
        except Invalid as exc:
            raise forms.ValidationError(exc.message, code=exc.code) from exc


class SignupForm(PublicNameMixin, UserCreationForm):
    public_name = public_name_field()
    email = forms.EmailField(label=_("Email"), required=False)

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "public_name", "email")

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(_("This username is already taken."))
        return username


class ProfileForm(PublicNameMixin, forms.Form):
    public_name = public_name_field()
    email = forms.EmailField(label=_("Email"), required=False)
