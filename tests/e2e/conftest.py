"""A real deployment for browser tests: its own database, migrated and seeded, served by daphne
(plus a Celery worker process when REDIS_URL is set), driven by Debian's Chromium.

The app under test shares nothing with pytest-django's test database; tests act only through
the browser and HTTP, like users do.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e import leakscan
from tests.integration.procs import BIN, ROOT, child_env, daphne, poll, process

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
DEMO_PASSWORD = "demo-vtt-2026"
ARTIFACTS = ROOT / "test-results"
# What each test's browsers received, one gzipped JSON-lines file per test (tests/e2e/leakscan.py).
LEAK_RECORDS = ARTIFACTS / "leak-scan"
# Browser contexts of the running test by id, with what they receive; markers a test adds.
_RECORDERS: dict[int, leakscan.Recorder] = {}
_EXTRA_SECRETS: list[leakscan.Secret] = []
_SCANNED: list[tuple[str, str]] = []
# Issue 18: every page runs under the Content-Security-Policy; any violation fails the test.
# The browser reports each one as a `securitypolicyviolation` event in the page, before the
# page's own scripts run (an init script), and logs it to the console.
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", function (e) {
  window.__vttCspViolation([e.effectiveDirective, e.blockedURI, e.documentURI,
                            e.sourceFile + ":" + e.lineNumber, (e.sample || "").slice(0, 80)]
                           .join(" | "));
});
"""


def watch_csp(context, violations: list[str]) -> None:
    """Collect the context's CSP violations into ``violations``."""
    context.expose_binding("__vttCspViolation", lambda _source, text: violations.append(text))
    context.add_init_script(CSP_LISTENER)

    def on_console(message) -> None:
        if "Content Security Policy" in message.text:
            violations.append(f"console: {message.text[:300]}")

    context.on("console", on_console)


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


def _require_browser() -> None:
    if Path(CHROMIUM).exists():
        return
    message = f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
    if os.environ.get("VTT_REQUIRE_BROWSER"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def app_server(tmp_path_factory) -> Iterator[str]:
    """Base URL of a freshly migrated and seeded VTT served by daphne."""
    _require_browser()
    workdir = tmp_path_factory.mktemp("e2e-app")
    env = child_env(
        MEDIA_ROOT=str(workdir / "media"),
        DEBUG="1",
        WORKER_HEARTBEAT_SECONDS="2",
        DEMO_PASSWORD=DEMO_PASSWORD,
        CLOCK_MIN_SECONDS="1",  # the browser tests run 2-3 second dungeon turns
    )
    dbname = None
    db_url = os.environ.get("DATABASE_URL")
    if db_url and db_url.startswith("postgres"):
        dbname = f"vtt_e2e_{uuid.uuid4().hex[:8]}"
        admin = db_url.rsplit("/", 1)[0]
        subprocess.run(
            ["psql", f"{admin}/postgres", "-qc", f"CREATE DATABASE {dbname}"], check=True
        )
        env["DATABASE_URL"] = f"{admin}/{dbname}"
    else:
        env.pop("DATABASE_URL", None)
        env["SQLITE_PATH"] = str(workdir / "e2e.sqlite3")
    if env.get("REDIS_URL"):
        env["CHANNEL_PREFIX"] = env["CACHE_PREFIX"] = f"e2e{uuid.uuid4().hex[:6]}"
    manage = [str(BIN / "python"), "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    subprocess.run([*manage, "seed_demo"], cwd=ROOT, env=env, check=True, capture_output=True)
    try:
        with daphne(env, workdir / "daphne.log") as base:
            if env.get("REDIS_URL"):
                worker = [
                    str(BIN / "celery"),
                    "-A",
                    "vtt",
                    "worker",
                    "-l",
                    "info",
                    "-c",
                    "1",
                    "-n",
                    f"e2e-{uuid.uuid4().hex[:6]}@%h",
                ]
                with process(worker, env, workdir / "worker.log"):
                    yield base
            else:
                yield base
    finally:
        if dbname:
            subprocess.run(
                [
                    "psql",
                    f"{admin}/postgres",
                    "-qc",
                    f"DROP DATABASE IF EXISTS {dbname} WITH (FORCE)",
                ],
                check=False,
            )


@pytest.fixture(scope="module")
def browser():
    """Per module: Playwright's sync API keeps an event loop running in the main thread while
    it is open, which would break asyncio tests that run after the browser tests."""
    _require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser, app_server, request):
    """Open a fresh browser context (its own cookies) and page; screenshots land in
    test-results/ when a test fails."""
    contexts = []
    recorders: list[leakscan.Recorder] = []
    violations: list[str] = []
    _RECORDERS.clear()
    _EXTRA_SECRETS.clear()

    def _open(*, viewport=None):
        context = browser.new_context(
            base_url=app_server, viewport=viewport or {"width": 1280, "height": 860}
        )
        context.set_default_timeout(10_000)
        watch_csp(context, violations)
        contexts.append(context)
        recorder = leakscan.Recorder(context, label=f"context {len(contexts)}")
        recorders.append(recorder)
        _RECORDERS[id(context)] = recorder
        page = context.new_page()
        recorder.watch(page)
        return page

    yield _open
    failed = getattr(request.node, "rep_call", None) and request.node.rep_call.failed
    for i, context in enumerate(contexts):
        if failed:
            ARTIFACTS.mkdir(exist_ok=True)
            for j, page in enumerate(context.pages):
                page.screenshot(path=str(ARTIFACTS / f"{request.node.name}-{i}-{j}.png"))
        context.close()
    _scan_after_test(request.node, recorders)
    if violations:
        unique = list(dict.fromkeys(violations))
        pytest.fail("Content-Security-Policy violations:\n" + "\n".join(unique), pytrace=False)


def register_secret(marker: str, allowed: tuple[str, ...] = ()) -> None:
    """A secret this test made (a tagged hidden name, an invite token...): the scan after the
    test fails if it reached a non-referee other than the usernames in ``allowed``."""
    _EXTRA_SECRETS.append(leakscan.Secret(marker, frozenset(allowed)))


def current_secrets() -> list[leakscan.Secret]:
    """The demo data's markers and those this test registered."""
    return leakscan.default_secrets() + _EXTRA_SECRETS


def recorder_of(page) -> leakscan.Recorder:
    """What the page's browser context has received so far (pages, API calls, socket frames)."""
    return _RECORDERS[id(page.context)]


def _scan_after_test(node, recorders: list[leakscan.Recorder]) -> None:
    """Issue 9: nothing the referee hides reaches a player's browser. Store what every
    context received, then scan what the non-referee ones got (``VTT_LEAK_SCAN=0`` skips)."""
    name = re.sub(r"[^\w.-]+", "_", node.nodeid.split("::", 1)[-1])[:120]
    for i, recorder in enumerate(recorders):
        recorder.dump(
            LEAK_RECORDS / node.module.__name__.rsplit(".", 1)[-1] / f"{name}-{i}.jsonl.gz"
        )
    if os.environ.get("VTT_LEAK_SCAN") == "0":
        return
    report = leakscan.scan_all(recorders, current_secrets())
    _SCANNED.append((node.nodeid, report.summary()))
    if report.leaks:
        pytest.fail(leakscan.format_leaks(report), pytrace=False)


def pytest_terminal_summary(terminalreporter) -> None:
    """What the leak scan looked at, per browser test (the evidence that it ran)."""
    if _SCANNED:
        terminalreporter.section("leak scan of what players received")
        for nodeid, summary in _SCANNED:
            terminalreporter.write_line(f"{nodeid}: {summary}")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


def login(page, username: str, password: str = DEMO_PASSWORD) -> None:
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit].primary")
    page.wait_for_url("**/campaigns/")
    recorder = _RECORDERS.get(id(page.context))
    if recorder is not None:  # from now on its items are this user's
        me = page.request.get("/api/me/").json()
        recorder.logged_in(username, me.get("id"))


__all__ = ["current_secrets", "login", "poll", "recorder_of", "register_secret", "shutil"]
