"""Production settings refuse unsafe defaults; /healthz reports real component state."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from celery.contrib.testing.worker import start_worker
from django.test import Client

from vtt.celery import app as celery_app
from vtt.core.models import WorkerHeartbeat

ROOT = Path(__file__).resolve().parents[2]


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY"}}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_refuses_default_secret_key():
    result = _manage("check", DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_production_accepts_secret_from_file(tmp_path):
    secret = tmp_path / "secret"
    secret.write_text(secrets.token_urlsafe(50))
    result = _manage("check", DEBUG="0", SECRET_KEY_FILE=str(secret))
    assert result.returncode == 0, result.stderr


def test_check_deploy_is_clean_in_production_settings():
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="vtt.example.org",
        CSRF_TRUSTED_ORIGINS="https://vtt.example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.django_db(transaction=True)
def test_healthz_without_a_worker_is_503():
    assert not [t for t in threading.enumerate() if t.name == "embedded-celery"]
    response = Client().get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["channel_layer"]["ok"] is True
    assert body["checks"]["worker"]["ok"] is False


@pytest.mark.django_db(transaction=True)
def test_healthz_with_a_real_worker_is_200():
    with start_worker(celery_app, perform_ping_check=False, shutdown_timeout=20):
        assert celery_app.send_task("vtt.core.ping") is not None
        response = Client().get("/healthz")
    assert WorkerHeartbeat.objects.exists()
    assert response.status_code == 200, response.json()
    checks = response.json()["checks"]
    assert all(c["ok"] for c in checks.values())
    assert checks["worker"]["workers"]


def test_favicon_is_served(client, db):
    """Issue 18 item 15: /favicon.ico was a 404 on every page."""
    from django.contrib.staticfiles import finders

    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith("/favicon.svg")
    assert finders.find("favicon.svg")
    page = client.get("/accounts/login/").content.decode()
    assert 'rel="icon"' in page
