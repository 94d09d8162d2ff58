"""Account writes."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _

from vtt.accounts.models import User
from vtt.core.errors import Invalid


def user_set_language(*, user: User, language: str) -> User:
    codes = [code for code, _name in settings.LANGUAGES]
    if language not in codes:
        raise Invalid(
            _("Unknown language “%(lang)s”. Available: %(codes)s.")
            % {"lang": language, "codes": ", ".join(codes)},
            fields={"language": [_("Choose ru or en.")]},
        )
    if user.language != language:
        user.language = language
        user.save(update_fields=["language"])
    return user
