"""Default DRF permission (its own module: DRF imports it while ``rest_framework.views`` loads)."""

from django.utils import translation
from rest_framework.permissions import IsAuthenticated


class IsAuthenticatedInOwnLanguage(IsAuthenticated):
    """``IsAuthenticated`` that also switches to the user's saved language.

    Token-authenticated calls are authenticated inside DRF, after the language middleware ran,
    so this is the first place that knows who is asking: messages then come back in their
    language, as on the pages.
    """

    def has_permission(self, request, view) -> bool:
        allowed = super().has_permission(request, view)
        language = getattr(request.user, "language", None)
        if allowed and language:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return allowed
