from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A person at the table. ``language`` is remembered per user, across devices."""

    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )

    @property
    def display_name(self) -> str:
        return self.get_full_name() or self.username
