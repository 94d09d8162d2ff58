from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from vtt.accounts.models import PUBLIC_NAME_MAX, User


def public_name_field() -> forms.CharField:
    """The display name as sign-up and the profile page ask it (one label, one limit)."""
    return forms.CharField(
        label=_("Display name"),
        max_length=PUBLIC_NAME_MAX,
        help_text=_("How the others at the table see you: in the log, the chat and the rolls."),
    )


class SignupForm(UserCreationForm):
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


class ProfileForm(forms.Form):
    public_name = public_name_field()
    email = forms.EmailField(label=_("Email"), required=False)
