"""The campaign site in a real browser: Russian by default, invites across two people."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS, login


def test_login_page_is_russian_and_language_switch_is_remembered(new_page):
    page = new_page()
    page.goto("/")
    expect(page).to_have_url(re.compile(r"/accounts/login/"))
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator("h1")).to_have_text("Вход")
    login(page, "boris")
    page.click("button[name=language][value=en]")
    expect(page.locator("h1")).to_have_text("My campaigns")
    # a new device (fresh context) gets English from the account, not from a cookie
    other = new_page()
    login(other, "boris")
    expect(other.locator("h1")).to_have_text("My campaigns")
    other.click("button[name=language][value=ru]")
    expect(other.locator("h1")).to_have_text("Мои кампании")


def test_referee_invites_a_newcomer_who_signs_up_and_joins(new_page):
    name = f"Кампания {uuid.uuid4().hex[:6]}"
    gm = new_page()
    login(gm, "referee")
    gm.fill("input[name=name]", name)
    gm.select_option("select[name=ruleset]", "crows")
    gm.click("section.card form button.primary")
    expect(gm.locator("h1")).to_have_text(name)
    gm.select_option("#manage select[name=role]", "observer")
    gm.click("#manage form.row-form button.primary")  # htmx swaps the panel in place
    link = gm.locator("#manage .invite-link").first
    expect(link).to_have_value(re.compile(r"/invite/[\w-]{20,}/$"))
    invite_url = link.input_value()

    newcomer = new_page(viewport={"width": 390, "height": 844})  # a phone
    newcomer.goto(invite_url)
    expect(newcomer.locator("h1")).to_have_text("Приглашение в кампанию")
    newcomer.click("main a.button:has-text('Регистрация')")
    username = f"new{uuid.uuid4().hex[:6]}"
    newcomer.fill("input[name=username]", username)
    newcomer.fill("input[name=public_name]", f"Вера {username[-4:]}")
    newcomer.fill("input[name=password1]", "a-long-pass-123")
    newcomer.fill("input[name=password2]", "a-long-pass-123")
    newcomer.click("button[type=submit].primary")
    expect(newcomer).to_have_url(re.compile(r"/invite/"))
    newcomer.click("button[type=submit].primary")
    expect(newcomer.locator("h1")).to_have_text(name)
    expect(newcomer.locator(".campaign-head .role")).to_have_text("Зритель")
    ARTIFACTS.mkdir(exist_ok=True)
    newcomer.screenshot(path=str(ARTIFACTS / "phone-campaign.png"), full_page=True)

    gm.reload()
    expect(gm.locator("ul.members").first).to_contain_text(f"Вера {username[-4:]}")
    # revoking stops the link working for the next person
    gm.click("#manage .invites button:has-text('Отозвать')")
    expect(gm.locator("#manage .invites")).to_contain_text("отозвано")
    late = new_page()
    login(late, "alice")
    late.goto(invite_url)
    expect(late.locator(".msg.error")).to_contain_text("отозвано")
    gm.screenshot(path=str(ARTIFACTS / "referee-campaign.png"), full_page=True)
