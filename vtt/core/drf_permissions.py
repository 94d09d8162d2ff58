"""Default DRF permission (its own module: DRF imports it while ``rest_framework.views`` loads)."""

from django.utils import translation
from rest_framework.permissions import IsAuthenticated

from vtt.accounts.middleware import language_for


class IsAuthenticatedInOwnLanguage(IsAuthenticated):
    """``IsAuthenticated`` that also switches to the caller's language.

    Token-authenticated calls are authenticated inside DRF, after the language middleware ran,
    so this is the first place that knows who is asking: messages then come back in the
    language ``vtt.accounts.middleware.choose_language`` picks for them (a script's
    Accept-Language, else the user's saved language), as on the pages and the socket.
    """

    def has_permission(self, request, view) -> bool:
        allowed = super().has_permission(request, view)
        if allowed:
            language = language_for(request)
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return allowed
