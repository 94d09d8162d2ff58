"""The app as it is really run: daphne processes and Celery workers as separate processes."""

from __future__ import annotations

import os
import subprocess

import httpx
import pytest
from django.db import connection

from tests.integration.procs import BIN, ROOT, child_env, daphne, poll, process

pytestmark = pytest.mark.integration


def test_embedded_mode_serves_russian_login_and_a_healthy_worker(tmp_path):
    """What `make run` does: SQLite file, in-memory layer, worker inside daphne."""
    env = child_env(
        DEBUG="1",
        SQLITE_PATH=str(tmp_path / "embedded.sqlite3"),
        WORKER_HEARTBEAT_SECONDS="1",
    )
    for key in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):
        env.pop(key, None)
    subprocess.run(
        [str(BIN / "python"), "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=120,
    )
    seeded = subprocess.run(
        [str(BIN / "python"), "manage.py", "seed_demo"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=120,
        capture_output=True,
        text=True,
    )
    assert "referee" in seeded.stdout
    with daphne(env, tmp_path / "daphne.log") as base:
        login = httpx.get(base + "/accounts/login/")
        assert login.status_code == 200
        assert '<html lang="ru">' in login.text and "Вход" in login.text
        health = poll(lambda: httpx.get(base + "/healthz").status_code == 200, timeout=20)
        assert health, httpx.get(base + "/healthz").text
        body = httpx.get(base + "/healthz").json()
        assert body["checks"]["worker"]["workers"][0].startswith("embedded@")
        assert body["checks"]["channel_layer"]["backend"] == "InMemoryChannelLayer"
        # the printed demo login works against the running server
        with httpx.Client(base_url=base, follow_redirects=False) as browser:
            page = browser.get("/accounts/login/")
            csrf = browser.cookies["csrftoken"]
            assert page.status_code == 200
            resp = browser.post(
                "/accounts/login/",
                data={
                    "username": "alice",
                    "password": "demo-vtt-2026",
                    "csrfmiddlewaretoken": csrf,
                },
                headers={"Referer": base + "/accounts/login/"},
            )
            assert resp.status_code == 302, resp.text[:500]
            assert browser.get("/campaigns/").text.count('class="card campaign"') == 5


@pytest.mark.django_db(transaction=True)
def test_separate_worker_and_web_on_redis_and_postgres(tmp_path):
    """The Procfile shape: daphne and a Celery worker on PostgreSQL and Redis."""
    if not os.environ.get("REDIS_URL") or connection.vendor != "postgresql":
        pytest.skip("needs DATABASE_URL (PostgreSQL) and REDIS_URL; CI sets both")
    settings_dict = connection.settings_dict
    db_url = (
        f"postgres://{settings_dict['USER']}@{settings_dict['HOST']}:{settings_dict['PORT']}"
        f"/{settings_dict['NAME']}"
    )
    env = child_env(DEBUG="1", DATABASE_URL=db_url, WORKER_HEARTBEAT_SECONDS="1")
    with daphne(env, tmp_path / "daphne.log") as base:
        first = httpx.get(base + "/healthz")
        assert first.json()["checks"]["channel_layer"]["backend"] == "RedisChannelLayer"
        worker_args = [
            str(BIN / "celery"),
            "-A",
            "vtt",
            "worker",
            "-l",
            "info",
            "-c",
            "1",
            "-n",
            f"it-{os.getpid()}@%h",
        ]
        with process(worker_args, env, tmp_path / "worker.log"):
            ok = poll(lambda: httpx.get(base + "/healthz").status_code == 200, timeout=40)
            assert ok, (tmp_path / "worker.log").read_text()[-3000:]
            names = httpx.get(base + "/healthz").json()["checks"]["worker"]["workers"]
            assert any(n.startswith("it-") for n in names)
