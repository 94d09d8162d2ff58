from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from vtt.accounts.forms import ProfileForm, SignupForm
from vtt.accounts.services import (
    login_check,
    login_failed,
    login_succeeded,
    user_set_language,
    user_update_profile,
)
from vtt.core.errors import Invalid, ServiceError
from vtt.core.ratelimit import RateLimited


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("campaign_list")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save(commit=False)
        user.language = request.LANGUAGE_CODE
        user.public_name = form.cleaned_data["public_name"]  # checked by the form
        user.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(_safe_next(request) or "campaign_list")
    return render(request, "registration/signup.html", {"form": form, "next": _safe_next(request)})


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    """The user's display name (shown to everyone at their tables) and e-mail."""
    user = request.user
    initial = {"public_name": user.display_name, "email": user.email}
    form = ProfileForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            user_update_profile(user=user, **form.cleaned_data)
        except ServiceError as exc:
            for field, errors in (exc.fields or {}).items():
                for error in errors:
                    form.add_error(field if field in form.fields else None, error)
        else:
            messages.success(request, _("Profile saved."))
            return redirect("profile")
    status = 400 if form.errors else 200
    return render(request, "registration/profile.html", {"form": form}, status=status)


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Save the choice on the user (remembered everywhere) and in a cookie (for the login page)."""
    language = request.POST.get("language", "")
    codes = {code for code, _name in settings.LANGUAGES}
    if language not in codes:
        raise Invalid(_("Unknown language “%(lang)s”.") % {"lang": language})
    if request.user.is_authenticated:
        user_set_language(user=request.user, language=language)
    response = redirect(_safe_next(request) or "home")
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
    return response


def _safe_next(request: HttpRequest) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


class RateLimitedLoginView(LoginView):
    """Django's login with a cap on failed attempts per address and per address and name, and
    on attempts at one name from everywhere (``vtt.accounts.services``: the limits and why
    they are what they are), so passwords cannot be guessed at speed, in sequence or in
    parallel, and the owner at an address where they logged in before is never refused.
    A refused attempt is a 429 with the form and a message saying when to try again; its
    password is not checked. The API's token endpoint shares the counters."""

    redirect_authenticated_user = True

    def _who(self) -> dict[str, str]:
        return {
            "address": self.request.META.get("REMOTE_ADDR", "?"),
            "username": self.request.POST.get("username") or "",
        }

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        try:
            login_check(**self._who())
        except RateLimited as exc:
            # An unbound form with the name filled in: a bound one would be validated, and
            # validating it checks the password (AuthenticationForm.clean authenticates).
            form = self.get_form_class()(request, initial={"username": self._who()["username"]})
            form.cleaned_data = {}  # add_error expects it; an unbound form never sets it
            form.add_error(None, exc.message)
            response = self.render_to_response(self.get_context_data(form=form), status=429)
            response["Retry-After"] = str(exc.extra["retry_after"])
            return response
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        login_succeeded(**self._who())
        return super().form_valid(form)

    def form_invalid(self, form):
        login_failed(**self._who())
        return super().form_invalid(form)
