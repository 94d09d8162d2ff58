"""Account writes."""

from __future__ import annotations

import hashlib
import time
import unicodedata

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
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


# Characters a display name may not hold, by Unicode category: controls (Cc), format characters
# (Cf: bidi overrides and isolates such as U+202E, zero-width U+200B..U+200D, U+2060, U+FEFF),
# private use (Co), surrogates (Cs), unassigned (Cn), line and paragraph separators (Zl, Zp).
# Plus a few letters and marks that draw nothing (Hangul fillers, the combining grapheme joiner,
# Khmer and Mongolian invisible vowels and selectors, the blank Braille pattern): a name made
# of them, or padded with them, would look like another name or like none.
PUBLIC_NAME_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
PUBLIC_NAME_REFUSED_CHARS = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u2800\u3164\uffa0"
)


def _refused_in_name(char: str) -> bool:
    return (
        unicodedata.category(char) in PUBLIC_NAME_REFUSED_CATEGORIES
        or char in PUBLIC_NAME_REFUSED_CHARS
    )


def clean_public_name(public_name: str) -> str:
    """A display name in NFC with its spaces tidied; never empty (the login is not a name),
    never holding invisible, control or format characters (one name must not pass for another
    at the table, nor reorder the text around it). The one place a display name is checked:
    sign-up, the profile page and archive import all call it."""
    name = unicodedata.normalize("NFC", public_name or "").strip()
    refused = sorted({f"U+{ord(c):04X}" for c in name if _refused_in_name(c)})
    if refused:
        message = _(
            "A display name cannot contain invisible, control or formatting characters "
            "(found: %(chars)s). Type the name again without them."
        ) % {"chars": ", ".join(refused[:5])}
        raise Invalid(message, code="bad_public_name", fields={"public_name": [message]})
    name = " ".join(name.split())
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


def public_name_key(name: str) -> str:
    """What two display names are compared by: compatibility-normalised and case-folded, so
    "Алиса", "АЛИСА" and a full-width "Ａｌｉｃｅ" vs "alice" are one name at a table."""
    folded = unicodedata.normalize("NFKC", name or "").casefold()
    return " ".join(unicodedata.normalize("NFKC", folded).split())


@transaction.atomic
def user_update_profile(*, user: User, public_name: str, email: str = "") -> User:
    """Save how the user is named at the table and their e-mail. A new name must not be the
    name of anyone in a campaign the user is in (``ensure_public_name_free``)."""
    from vtt.campaigns.services import ensure_public_name_free  # campaigns builds on accounts

    name = clean_public_name(public_name)
    ensure_public_name_free(user=user, name=name)
    user.public_name, user.email = name, (email or "").strip()
    user.save(update_fields=["public_name", "email"])
    return user


# --- failed logins -----------------------------------------------------------------------------
# One set of counters for every way in (the login page and POST /api/auth/token/), so a password
# cannot be guessed at speed through either door:
# - per client address: one address trying many names is refused for the window;
# - per address and name: one address trying one name is refused for the window;
# - per name, from any address: slowed down, never refused. A stranger on rotating addresses
#   could otherwise lock the owner out of their own account (issue 18). Once a name has
#   failed LOGIN_NAME_SLOWDOWN_AFTER times, every attempt at it waits LOGIN_SLOWDOWN_SECONDS
#   before the password is checked, except from an address where it logged in before.

LOGIN_MAX_FAILURES_PER_ADDRESS = 20  # a club behind one NAT shares an address
LOGIN_MAX_FAILURES_PER_NAME_AT_ADDRESS = 10
LOGIN_NAME_SLOWDOWN_AFTER = 10
LOGIN_SLOWDOWN_SECONDS = 1.0
LOGIN_WINDOW_SECONDS = 15 * 60
LOGIN_KNOWN_ADDRESS_SECONDS = 30 * 24 * 3600


def _name_digest(username: str) -> str:
    # Hashed: a user name may hold any character, a cache key should not.
    name = (username or "").strip().lower()[:150].encode("utf-8", "replace")
    return hashlib.sha256(name).hexdigest()


def _login_keys(address: str, username: str) -> dict[str, str]:
    address = address or "?"
    name = _name_digest(username)
    return {
        "address": f"login-fail:ip:{address}",
        "address_name": f"login-fail:ip-user:{address}:{name}",
        "name": f"login-fail:user:{name}",
        "known": f"login-ok:{name}:{address}",
    }


def login_blocked(*, address: str, username: str) -> bool:
    """Has this address failed too often, for any name or for this one, in the window?"""
    keys = _login_keys(address, username)
    counts = cache.get_many([keys["address"], keys["address_name"]])
    return (
        counts.get(keys["address"], 0) >= LOGIN_MAX_FAILURES_PER_ADDRESS
        or counts.get(keys["address_name"], 0) >= LOGIN_MAX_FAILURES_PER_NAME_AT_ADDRESS
    )


def login_delay(*, address: str, username: str) -> float:
    """Seconds to wait before checking this attempt's password: 0 unless the name is being
    guessed from many addresses and this address has not logged in as it before."""
    keys = _login_keys(address, username)
    counts = cache.get_many([keys["name"], keys["known"]])
    if counts.get(keys["known"]) or counts.get(keys["name"], 0) < LOGIN_NAME_SLOWDOWN_AFTER:
        return 0.0
    return LOGIN_SLOWDOWN_SECONDS


def login_wait(*, address: str, username: str) -> None:
    """Sleep ``login_delay`` (bounded: one fixed pause, however long the attack)."""
    delay = login_delay(address=address, username=username)
    if delay:
        time.sleep(delay)


def login_failed(*, address: str, username: str) -> None:
    """Count one failed attempt (each window starts at its counter's first failure)."""
    keys = _login_keys(address, username)
    for key in (keys["address"], keys["address_name"], keys["name"]):
        if not cache.add(key, 1, LOGIN_WINDOW_SECONDS):
            try:
                cache.incr(key)
            except ValueError:  # expired between add() and incr()
                cache.set(key, 1, LOGIN_WINDOW_SECONDS)


def login_succeeded(*, address: str, username: str) -> None:
    """Remember the address, so an attack on the name elsewhere does not slow its owner here."""
    cache.set(_login_keys(address, username)["known"], 1, LOGIN_KNOWN_ADDRESS_SECONDS)
