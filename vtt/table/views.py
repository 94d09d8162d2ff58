"""The live table page and its htmx endpoints (DESIGN.md, "Front end").

The page renders the log the user may see up to the current head, then ``static/js/table.js``
takes over: it opens the socket, sends ``hello`` with that head and applies what follows.
With the socket connected the page sends its actions as socket commands; these htmx endpoints
serve the forms when it is not (and pages without JavaScript), through the same services,
rate-limit buckets and idempotency keys as the commands (``vtt/table/commands.py``).
"""

from __future__ import annotations

import math
import uuid
from fractions import Fraction
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from rest_framework.exceptions import ValidationError

from systems import get_ruleset
from systems.core.notation import MAX_CHARS as NOTATION_MAX
from systems.core.notation import NotationError, parse_notation
from systems.core.odds import OddsTooComplex, chance, distribution
from vtt.campaigns.models import Membership, Role
from vtt.campaigns.selectors import campaign_members
from vtt.core.commands import IDEMPOTENCY_KEY_MAX, Answer, Command, execute
from vtt.core.errors import Invalid, ServiceError
from vtt.core.ratelimit import TokenBucket
from vtt.permissions import Action, authorize, can
from vtt.rulesets.registry import web_for
from vtt.table import commands, services
from vtt.table.events import visible_events, wire
from vtt.table.models import USER_CHOICES, EventCursor
from vtt.table.models import Visibility as V

# How many of the latest visible events the page carries; older ones load on demand from the
# events API ("Show earlier").
LOG_WINDOW = 300
# Odds are exact and can cost up to about a second of CPU for large notations (the budget in
# systems/core/odds.py); the preview fires as the user types, so it has its own bucket.
ODDS_BUCKET = TokenBucket("odds", burst=30, per_second=5)
QUICK_DICE = ("1d4", "1d6", "1d8", "1d10", "1d12", "1d20", "1d100", "2d6")
# PbtA rulesets (their plugin's ``odds_bands``) read 2d6+stat in three bands; others get a
# target number ("chance of N+").
PBTA_BANDS: tuple[tuple[str, int | None, int | None], ...] = (
    ("10+", 10, None),
    ("7–9", 7, 9),
    ("6−", None, 6),
)
ODDS_TARGET_MAX = 10**9  # "at least" in the odds query, either sign


class RollForm(forms.Form):
    notation = forms.CharField(max_length=NOTATION_MAX, required=False, strip=True)
    quick = forms.CharField(max_length=NOTATION_MAX, required=False)  # a quick-die button
    label = forms.CharField(max_length=services.LABEL_MAX, required=False)
    visibility = forms.ChoiceField(choices=USER_CHOICES, required=False)
    target_id = forms.IntegerField(required=False)
    idempotency_key = forms.CharField(max_length=IDEMPOTENCY_KEY_MAX, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["notation"] = data.get("quick") or data.get("notation") or ""
        if not data["notation"]:
            self.add_error("notation", _("Type dice notation, for example 2d6+1."))
        data["visibility"] = data.get("visibility") or V.EVERYONE
        return data


class ChatForm(forms.Form):
    text = forms.CharField(max_length=services.CHAT_MAX, required=False, strip=True)
    visibility = forms.ChoiceField(choices=USER_CHOICES, required=False)
    target_id = forms.IntegerField(required=False)


# --- the page -----------------------------------------------------------------------------------


@login_required
@require_GET
def table_page(request: HttpRequest, pk: int) -> HttpResponse:
    membership = authorize(request.user, pk, Action.VIEW)
    return render(request, "table/table.html", _page_context(request, membership))


def _page_context(request: HttpRequest, membership: Membership) -> dict[str, Any]:
    campaign = membership.campaign
    web = web_for(campaign.ruleset)
    is_referee = membership.role == Role.REFEREE
    can_play = can(membership, Action.PLAY) and not campaign.is_archived
    # Head first, then the events up to it and the initiative: the socket replays everything
    # after the head, so a write racing this render is applied once, never lost.
    cursor = EventCursor.objects.filter(campaign_id=campaign.pk).first()
    head = cursor.last_seq if cursor else 0
    latest = list(
        visible_events(campaign.pk, user_id=request.user.pk, role=membership.role)
        .filter(seq__lte=head)
        .order_by("-seq")[: LOG_WINDOW + 1]
    )
    has_earlier = len(latest) > LOG_WINDOW
    events = [wire(e) for e in reversed(latest[:LOG_WINDOW])]
    members = list(campaign_members(campaign))
    member_info = [{"id": m.user_id, "name": m.user.display_name, "role": m.role} for m in members]
    config = {
        "campaign": campaign.pk,
        "me": {"id": request.user.pk, "name": request.user.display_name, "role": membership.role},
        "canPlay": can_play,
        "isReferee": is_referee,
        "head": head,
        "events": events,
        "hasEarlier": has_earlier,
        "initiative": services.initiative_snapshot(campaign.pk, include_hidden=is_referee),
        "members": member_info,
        "lang": get_language() or "ru",
        "limits": {"entryValue": services.ENTRY_VALUE_MAX},
        "csrf": get_token(request),
        "urls": {
            "ws": f"/ws/campaigns/{campaign.pk}/",
            "events": reverse("api-events", args=[campaign.pk]),
            "roll": reverse("api-rolls", args=[campaign.pk]),
            "chat": reverse("api-chat", args=[campaign.pk]),
            "reveal": reverse("api-roll-reveal", args=[campaign.pk, 0]).replace("/0/", "/{id}/"),
            "initiative": reverse("api-initiative", args=[campaign.pk]),
            "initiativeEntry": reverse("api-initiative-entry", args=[campaign.pk, 0]).replace(
                "/0/", "/{id}/"
            ),
            "initiativeOrder": reverse("api-initiative-order", args=[campaign.pk]),
            "initiativeStep": reverse("api-initiative-step", args=[campaign.pk]),
            "initiativeReset": reverse("api-initiative-reset", args=[campaign.pk]),
        },
    }
    return {
        "campaign": campaign,
        "membership": membership,
        "is_referee": is_referee,
        "can_play": can_play,
        "config": config,
        "recipients": [m for m in members if m.user_id != request.user.pk],
        "quick_dice": [(d, d[1:] if d.startswith("1d") else d) for d in QUICK_DICE],
        "roll_key": new_key(),
        "panels": table_panels(campaign.ruleset),
        "ruleset_panels": web.table_panels,
        "pbta": web.odds_bands == "pbta",
        "default_target": web.default_target,
    }


def table_panels(ruleset_key: str) -> dict[str, bool]:
    """Which generic panels the table shows: the ruleset says what its rules have (its own
    panels come from its plugin, ``RulesetWeb.table_panels``)."""
    ruleset = get_ruleset(ruleset_key)
    return {"clock": ruleset.dungeon_clock, "initiative": ruleset.initiative_tracker}


def new_key() -> str:
    return uuid.uuid4().hex


# --- the roll bar -------------------------------------------------------------------------------


@login_required
@require_POST
def table_roll(request: HttpRequest, pk: int) -> HttpResponse:
    """The roll bar's form without the socket: the ``roll`` command, with an idempotency key
    from a hidden field, so a double submit returns the first roll."""
    membership = authorize(request.user, pk, Action.PLAY)  # before the form's checks
    form = RollForm(request.POST)
    try:
        if not form.is_valid():
            raise Invalid(_("Check the roll."), fields=_form_errors(form))
        data = form.cleaned_data
        params = {
            "notation": data["notation"],
            "visibility": data["visibility"],
            "target_id": data.get("target_id"),
            "label": data.get("label") or "",
        }
        answer = _run(request, pk, commands.roll, params, data["idempotency_key"] or None)
    except ServiceError as exc:
        return _failure(request, pk, "table/table.html#roll-result", exc, {"error": exc})
    made = answer.body
    shown = "total" in made  # a blind roll's answer to its roller carries no result
    if not request.htmx:
        if shown:
            summary = made.get("text") or f"{made['notation']} = {made['total']}"
        else:
            summary = _("Blind roll sent: only the referee sees the result.")
        messages.success(request, summary)
        return redirect("table", pk)
    context = {
        "roll_id": made["roll_id"],
        "roll_text": made.get("text", ""),
        "created": not answer.replayed,
        "new_key": new_key(),
        "shown": shown,
        "campaign": membership.campaign,
    }
    return render(request, "table/table.html#roll-result", context, status=answer.status)


# --- chat ---------------------------------------------------------------------------------------


@login_required
@require_POST
def table_chat(request: HttpRequest, pk: int) -> HttpResponse:
    """The chat form without the socket: the ``chat`` command."""
    membership = authorize(request.user, pk, Action.PLAY)  # before the form's checks
    form = ChatForm(request.POST)
    try:
        if not form.is_valid():
            raise Invalid(_("Check the message."), fields=_form_errors(form))
        data = form.cleaned_data
        params = {
            "text": data["text"],
            "visibility": data.get("visibility") or V.EVERYONE,
            "target_id": data.get("target_id"),
        }
        _run(request, pk, commands.chat, params, None)
    except ServiceError as exc:
        context = {
            "error": exc,
            "text": request.POST.get("text", ""),
            "campaign": membership.campaign,
        }
        return _failure(request, pk, "table/table.html#chat-form", exc, context)
    if not request.htmx:
        return redirect("table", pk)
    return render(request, "table/table.html#chat-form", {"campaign": membership.campaign})


# --- odds preview -------------------------------------------------------------------------------


@login_required
@require_GET
def table_odds(request: HttpRequest, pk: int) -> HttpResponse:
    """Exact chances for the notation being typed: JSON, or a fragment for htmx.

    ``?notation=2d6+2&at_least=10`` gives the chance of 10 or more; ``bands=pbta`` adds the
    PbtA bands (10+, 7–9, 6−). Bad notation is a 400 with the parser's message.
    """
    authorize(request.user, pk, Action.VIEW)
    notation = (request.GET.get("notation") or "").strip()
    template = "table/table.html#odds"
    if not notation:
        if request.htmx:
            return HttpResponse("")  # the field was cleared: clear the preview
        error = Invalid(_("Type dice notation, for example 2d6+1."), code="notation_empty")
        return JsonResponse(error.as_dict(), status=400)
    try:
        at_least = _optional_int(request.GET.get("at_least"), "at_least")
        ODDS_BUCKET.hit(str(request.user.pk))
        result = odds_for(
            notation,
            at_least=at_least,
            pbta=request.GET.get("bands") == "pbta",
        )
    except ServiceError as exc:
        if request.htmx:
            return render(request, template, {"error": exc}, status=exc.status)
        return JsonResponse(exc.as_dict(), status=exc.status)
    if request.htmx:
        return render(request, template, {"odds": result})
    return JsonResponse(result)


def odds_for(notation: str, *, at_least: int | None = None, pbta: bool = False) -> dict[str, Any]:
    """Exact odds from ``systems/core/odds.py``; raises ``Invalid`` for bad notation."""
    try:
        parsed = parse_notation(notation)
    except NotationError as exc:
        message = exc.ru if (get_language() or "ru").startswith("ru") else exc.en
        raise Invalid(message, code=f"notation_{exc.code}", fields={"notation": [message]}) from exc
    result: dict[str, Any] = {
        "notation": parsed.notation,
        "min": parsed.min_total,
        "max": parsed.max_total,
        "exact": True,
        "chances": [],
    }
    bands: list[tuple[str, int | None, int | None]] = list(PBTA_BANDS) if pbta else []
    if at_least is not None and not (pbta and at_least == 10):
        bands.insert(0, (f"{at_least}+", at_least, None))
    try:
        # Floats for the mean: summing exact fractions costs more than the odds themselves.
        dist = distribution(parsed)
        result["mean"] = round(
            sum(value * (p.numerator / p.denominator) for value, p in dist.items()), 2
        )
        for label, low, high in bands:
            p = chance(parsed, at_least=low, at_most=high)
            result["chances"].append(
                {
                    "label": label,
                    "at_least": low,
                    "at_most": high,
                    "fraction": str(p),
                    "percent": percent(p),
                }
            )
    except OddsTooComplex as exc:
        result.update(exact=False, mean=None, chances=[])
        result["detail"] = exc.ru if (get_language() or "ru").startswith("ru") else exc.en
    return result


def percent(p: Fraction) -> float:
    """Rounded half up to one decimal: 1/6 → 16.7, 5/12 → 41.7."""
    return math.floor(p * 1000 + Fraction(1, 2)) / 10


# --- helpers ------------------------------------------------------------------------------------


def _failure(
    request: HttpRequest, pk: int, template: str, exc: ServiceError, context: dict[str, Any]
) -> HttpResponse:
    """htmx gets the fragment with the message and the error's status (the page swaps 400, 409
    and 429 into place); a plain form post goes back to the page with a flash message."""
    if not request.htmx:
        messages.error(request, exc.message)
        return redirect("table", pk)
    response = render(request, template, context, status=exc.status)
    if exc.extra.get("retry_after"):
        response["Retry-After"] = str(exc.extra["retry_after"])
    return response


def _run(
    request: HttpRequest, pk: int, declared: Command, params: dict[str, Any], key: str | None
) -> Answer:
    """A form's action through its command; the command's refusals as a ``ServiceError`` the
    page shows (a 403 or 404 stays the page's own answer)."""
    try:
        return execute(declared, user=request.user, campaign_id=pk, args={}, params=params, key=key)
    except ValidationError as exc:
        fields = {f: [str(m) for m in msgs] for f, msgs in exc.detail.items()}
        first = next((m for msgs in fields.values() for m in msgs), _("Check the form."))
        raise Invalid(first, fields=fields) from None


def _form_errors(form: forms.Form) -> dict[str, list[str]]:
    return {field: [str(e) for e in errors] for field, errors in form.errors.items()}


def _optional_int(raw: str | None, name: str) -> int | None:
    if raw is None or raw.strip() == "":
        return None
    try:
        value = int(raw)
    except ValueError:
        raise Invalid(
            _("%(name)s must be a whole number.") % {"name": name}, fields={name: ["integer"]}
        ) from None
    if abs(value) > ODDS_TARGET_MAX:
        raise Invalid(_("%(name)s is out of range.") % {"name": name}, fields={name: ["range"]})
    return value
