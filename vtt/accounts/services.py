"""Account writes."""

from __future__ import annotations

import hashlib
import unicodedata

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils.translation import gettext as _

from vtt.accounts.models import PUBLIC_NAME_MAX, User
from vtt.core.errors import Invalid
from vtt.core.ratelimit import RateLimited, TokenBucket


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
# One set of limits for every way in (the login page and POST /api/auth/token/), so a password
# cannot be guessed at speed through either door. Every limit is set here.
# - Per client address: one address that failed LOGIN_MAX_FAILURES_PER_ADDRESS times (any
#   names) is refused for the window.
# - Per address and name: one address that failed LOGIN_MAX_FAILURES_PER_NAME_AT_ADDRESS times
#   at one name is refused for the window.
# - Per name, from any address (issue 18): a token bucket (vtt/core/ratelimit.py) spent
#   *before* the password is checked, so a name gets at most LOGIN_NAME_BURST checks at once
#   and then LOGIN_NAME_PER_SECOND, across every address and however many requests run in
#   parallel; past that an attempt is refused (429, "try again in N s") and its password is
#   never looked at. A login with the right password gives its guess back, and an address
#   that logged in as the name before (the owner at home) is not counted against it.
#
# Why a refusal, and why per second rather than per window. A cap on failures per window would
# let a stranger on rotating addresses lock the owner out for the whole window; so the first
# answer here was a pause (1 s before checking the password of a name under attack), never a
# refusal. But a pause does not bound guesses: N requests sent together all wait the same
# second and are all checked, and each holds one of the web process's threads and database
# connections while it sleeps. The bucket bounds the guesses outright and answers a
# refused attempt at once, holding nothing. What it gives up: while someone keeps guessing a
# name, its owner on an address that never logged in as it (a phone on the road) may be told
# to wait a second or two and try again, as a guesser would be. At home the owner is never
# refused, and the refusal ends seconds after the guessing stops (no window to sit out).

LOGIN_MAX_FAILURES_PER_ADDRESS = 20  # a club behind one NAT shares an address
LOGIN_MAX_FAILURES_PER_NAME_AT_ADDRESS = 10
LOGIN_WINDOW_SECONDS = 15 * 60
LOGIN_NAME_BURST = 10  # typos and a few devices, at full speed
LOGIN_NAME_PER_SECOND = 1.0  # then ~3,600 guesses an hour at most, from the whole internet
LOGIN_KNOWN_ADDRESS_SECONDS = 30 * 24 * 3600
LOGIN_NAME_BUCKET = TokenBucket(
    "login-name", burst=LOGIN_NAME_BURST, per_second=LOGIN_NAME_PER_SECOND
)


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
        "known": f"login-ok:{name}:{address}",
    }


def login_check(*, address: str, username: str) -> None:
    """Call before checking a password: ``RateLimited`` (429, with ``retry_after``) if this
    address failed too often, for any name or for this one, in the window, or if the name has
    no guess left (it is being guessed from elsewhere). Spends one of the name's guesses
    unless this address has logged in as it before; the guess is spent whatever the password
    turns out to be, so that parallel attempts cannot all get through before any is counted."""
    keys = _login_keys(address, username)
    counts = cache.get_many([keys["address"], keys["address_name"], keys["known"]])
    if (
        counts.get(keys["address"], 0) >= LOGIN_MAX_FAILURES_PER_ADDRESS
        or counts.get(keys["address_name"], 0) >= LOGIN_MAX_FAILURES_PER_NAME_AT_ADDRESS
    ):
        raise RateLimited(
            _("Too many failed attempts. Wait %(minutes)d minutes and try again.")
            % {"minutes": LOGIN_WINDOW_SECONDS // 60},
            extra={"retry_after": LOGIN_WINDOW_SECONDS},
        )
    if counts.get(keys["known"]):
        return
    try:
        LOGIN_NAME_BUCKET.hit(_name_digest(username))
    except RateLimited as exc:
        seconds = exc.extra["retry_after"]
        raise RateLimited(
            _("Too many attempts to log in under this name. Try again in %(s)d s.")
            % {"s": seconds},
            extra={"retry_after": seconds},
        ) from None


def login_failed(*, address: str, username: str) -> None:
    """Count one failed attempt (each window starts at its counter's first failure)."""
    keys = _login_keys(address, username)
    for key in (keys["address"], keys["address_name"]):
        if not cache.add(key, 1, LOGIN_WINDOW_SECONDS):
            try:
                cache.incr(key)
            except ValueError:  # expired between add() and incr()
                cache.set(key, 1, LOGIN_WINDOW_SECONDS)


def login_succeeded(*, address: str, username: str) -> None:
    """Give back the guess ``login_check`` spent (only failures use up a name's guesses), and
    remember the address, so an attack on the name elsewhere never refuses its owner here."""
    key = _login_keys(address, username)["known"]
    if not cache.get(key):  # login_check spent a guess: the address was not known
        LOGIN_NAME_BUCKET.refund(_name_digest(username))
    cache.set(key, 1, LOGIN_KNOWN_ADDRESS_SECONDS)
