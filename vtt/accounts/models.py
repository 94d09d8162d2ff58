from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _

PUBLIC_NAME_MAX = 40


class User(AbstractUser):
    """A person at the table. ``language`` is remembered per user, across devices;
    ``public_name`` is how the others see them (the login stays private to sign-in)."""

    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )
    public_name = models.CharField(_("display name"), max_length=PUBLIC_NAME_MAX, blank=True)

    @property
    def display_name(self) -> str:
        """The one name shown wherever a person is named: pages, the log, presence, rolls."""
        return self.public_name or self.get_full_name() or self.username
