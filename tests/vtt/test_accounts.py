"""Sign up, log in, log out, change password, and the remembered language."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.conftest import PASSWORD, make_user
from vtt.accounts.models import User

pytestmark = pytest.mark.django_db


def test_signup_logs_in_and_keeps_the_chosen_language():
    client = Client()
    client.post(reverse("set_language"), {"language": "en", "next": "/accounts/signup/"})
    resp = client.post(
        reverse("signup"),
        {
            "username": "olga",
            "public_name": "Ольга",
            "password1": "vtt-strong-pass-9",
            "password2": "vtt-strong-pass-9",
        },
    )
    assert resp.status_code == 302
    user = User.objects.get(username="olga")
    assert user.language == "en" and user.display_name == "Ольга"
    assert client.get(reverse("campaign_list")).status_code == 200


def test_signup_errors_are_shown_and_create_nothing():
    make_user("taken")
    resp = Client().post(
        reverse("signup"), {"username": "TAKEN", "password1": "123", "password2": "456"}
    )
    assert resp.status_code == 200
    page = resp.content.decode()
    assert page.count('class="error-text"') >= 2
    assert User.objects.count() == 1


def test_login_bad_password_shows_error_then_good_password_works():
    make_user("ivan")
    client = Client()
    bad = client.post(reverse("login"), {"username": "ivan", "password": "wrong"})
    assert bad.status_code == 200
    assert "msg error" in bad.content.decode()
    good = client.post(reverse("login"), {"username": "ivan", "password": PASSWORD})
    assert good.status_code == 302
    assert good["Location"] == reverse("campaign_list")


def test_logout_is_post_only_and_ends_the_session():
    user = make_user("ivan")
    client = Client()
    client.force_login(user)
    assert client.get(reverse("logout")).status_code == 405
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(reverse("campaign_list")).status_code == 302


def test_password_change():
    user = make_user("ivan")
    client = Client()
    client.force_login(user)
    bad = client.post(
        reverse("password_change"),
        {"old_password": "nope", "new_password1": "x", "new_password2": "y"},
    )
    assert bad.status_code == 200 and 'class="error-text"' in bad.content.decode()
    ok = client.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "brand-new-secret-42",
            "new_password2": "brand-new-secret-42",
        },
    )
    assert ok.status_code == 302
    user.refresh_from_db()
    assert user.check_password("brand-new-secret-42")


def test_language_is_russian_by_default_and_remembered_per_user():
    user = make_user("ivan")
    client = Client(HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    client.force_login(user)
    page = client.get(reverse("campaign_list"))
    assert page["Content-Language"] == "ru"
    assert '<html lang="ru">' in page.content.decode()
    client.post(reverse("set_language"), {"language": "en"})
    user.refresh_from_db()
    assert user.language == "en"
    # another device, no cookie: the saved choice follows the user
    other_device = Client()
    other_device.force_login(user)
    assert other_device.get(reverse("campaign_list"))["Content-Language"] == "en"


def test_set_language_rejects_unknown_codes():
    user = make_user("ivan")
    client = Client()
    client.force_login(user)
    resp = client.post(reverse("set_language"), {"language": "de"})
    assert resp.status_code == 400
    user.refresh_from_db()
    assert user.language == "ru"


def test_set_language_ignores_offsite_next():
    resp = Client().post(
        reverse("set_language"), {"language": "en", "next": "https://evil.example/"}
    )
    assert resp.status_code == 302
    assert resp["Location"] == reverse("home")


def test_api_me_and_language():
    user = make_user("ivan")
    client = APIClient()
    client.force_authenticate(user)
    me = {"id": user.pk, "username": "ivan", "display_name": "ivan", "language": "ru"}
    assert client.get("/api/me/").json() == me
    assert client.patch("/api/me/", {"language": "xx"}, format="json").status_code == 400
    assert client.patch("/api/me/", {"language": "en"}, format="json").json()["language"] == "en"


def test_token_auth_for_scripts_and_csrf_for_browsers():
    make_user("bot")
    anon = APIClient()
    bad = anon.post("/api/auth/token/", {"username": "bot", "password": "no"}, format="json")
    assert bad.status_code == 400
    token = anon.post(
        "/api/auth/token/", {"username": "bot", "password": PASSWORD}, format="json"
    ).json()["token"]
    script = APIClient()
    script.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    created = script.post("/api/campaigns/", {"name": "Скрипт", "ruleset": "crows"}, format="json")
    assert created.status_code == 201  # token auth needs no CSRF token

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(User.objects.get(username="bot"))
    no_csrf = browser.post(
        "/api/campaigns/", {"name": "X", "ruleset": "crows"}, content_type="application/json"
    )
    assert no_csrf.status_code == 403
    assert "CSRF" in no_csrf.json()["detail"]


def test_anonymous_api_gets_401_with_challenge():
    resp = APIClient().get("/api/campaigns/")
    assert resp.status_code == 401
    assert resp["WWW-Authenticate"].startswith("Token")


def test_login_failures_are_rate_limited():
    make_user("ivan")
    client = Client()
    for _ in range(10):
        assert (
            client.post(reverse("login"), {"username": "ivan", "password": "x"}).status_code == 200
        )
    blocked = client.post(reverse("login"), {"username": "ivan", "password": PASSWORD})
    assert blocked.status_code == 429
    assert "msg error" in blocked.content.decode()
    assert client.get(reverse("campaign_list")).status_code == 302  # still logged out
