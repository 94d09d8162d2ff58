"""The browser enforces the Content-Security-Policy, and the collector every browser test uses
(tests/e2e/conftest.py ``watch_csp``) sees what it refuses (issue 18 item 6)."""

from __future__ import annotations

from tests.e2e.conftest import login, poll, watch_csp


def test_inline_code_is_refused_and_reported(browser, app_server):
    context = browser.new_context(base_url=app_server)
    violations: list[str] = []
    watch_csp(context, violations)
    try:
        page = context.new_page()
        page.goto("/accounts/login/")
        # our own scripts run: htmx and site.js are files from 'self'
        assert page.evaluate("typeof window.htmx") == "object"
        assert violations == []
        # what an injected snippet would do: an inline script and an inline handler
        page.evaluate(
            """() => {
              const s = document.createElement("script");
              s.textContent = "window.__ran = true";
              document.body.appendChild(s);
              const b = document.createElement("button");
              b.setAttribute("onclick", "window.__clicked = true");
              document.body.appendChild(b);
              b.click();
            }"""
        )
        assert poll(lambda: len(violations) >= 2, timeout=5)
        assert page.evaluate("window.__ran === undefined && window.__clicked === undefined")
        assert any("script-src" in v for v in violations)
    finally:
        context.close()


def test_confirmations_moved_out_of_inline_handlers_still_ask(new_page):
    """Leaving a campaign asks first (was onsubmit="return confirm(...)")."""
    page = new_page()
    login(page, "alice")
    page.click("main a.title")  # a demo campaign, where alice plays
    questions: list[str] = []

    def dismiss(dialog) -> None:
        questions.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    url = page.url
    page.click("form[data-confirm] button[type=submit]")
    assert poll(lambda: questions, timeout=5)
    assert page.url == url  # dismissed: nothing was submitted
