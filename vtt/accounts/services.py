"""Account writes."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _

from vtt.accounts.models import PUBLIC_NAME_MAX, User
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


def clean_public_name(public_name: str) -> str:
    """A display name with its spaces tidied; never empty (the login is not a name)."""
    name = " ".join((public_name or "").split())
    if not name:
        raise Invalid(
            _("Enter a display name."), fields={"public_name": [_("This field is required.")]}
        )
    if len(name) > PUBLIC_NAME_MAX:
        raise Invalid(
            _("A display name is at most %(n)d characters.") % {"n": PUBLIC_NAME_MAX},
            fields={"public_name": [_("Too long.")]},
        )
    return name


def user_update_profile(*, user: User, public_name: str, email: str = "") -> User:
    """Save how the user is named at the table and their e-mail."""
    user.public_name, user.email = clean_public_name(public_name), (email or "").strip()
    user.save(update_fields=["public_name", "email"])
    return user


# --- failed logins -----------------------------------------------------------------------------
# One counter for every way in (the login page and POST /api/auth/token/), per client address
# and per user name, so a password cannot be guessed at speed through either door, nor from
# many addresses at one account.

LOGIN_MAX_FAILURES = 10
LOGIN_WINDOW_SECONDS = 15 * 60


def _login_keys(address: str, username: str) -> list[str]:
    # Hashed: a user name may hold any character, a cache key should not.
    name = (username or "").strip().lower()[:150].encode("utf-8", "replace")
    digest = hashlib.sha256(name).hexdigest()
    return [f"login-fail:ip:{address or '?'}", f"login-fail:user:{digest}"]


def login_blocked(*, address: str, username: str) -> bool:
    """Has this address or this user name failed ``LOGIN_MAX_FAILURES`` times in the window?"""
    return any(
        (cache.get(key) or 0) >= LOGIN_MAX_FAILURES for key in _login_keys(address, username)
    )


def login_failed(*, address: str, username: str) -> None:
    """Count one failed attempt (the window starts at the first failure)."""
    for key in _login_keys(address, username):
        if not cache.add(key, 1, LOGIN_WINDOW_SECONDS):
            try:
                cache.incr(key)
            except ValueError:  # expired between add() and incr()
                cache.set(key, 1, LOGIN_WINDOW_SECONDS)
