"""Start the real processes (daphne, celery) the way Procfile and `make run` do."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def child_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update({"DJANGO_SETTINGS_MODULE": "vtt.settings", "PYTHONUNBUFFERED": "1"})
    env.update(extra)
    return env


@contextlib.contextmanager
def process(args: list[str], env: dict[str, str], log: Path) -> Iterator[subprocess.Popen]:
    with log.open("wb") as out:
        proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            yield proc
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)


@contextlib.contextmanager
def daphne(env: dict[str, str], log: Path) -> Iterator[str]:
    port = free_port()
    args = [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "vtt.asgi:application"]
    with process(args, env, log) as proc:
        base = f"http://127.0.0.1:{port}"
        wait_http(base + "/accounts/login/", proc, log)
        yield base


def wait_http(url: str, proc: subprocess.Popen, log: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"process exited early:\n{log.read_text()[-3000:]}")
        try:
            httpx.get(url, timeout=2)
            return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer in {timeout}s:\n{log.read_text()[-3000:]}")


def poll(fn, *, timeout: float = 30, interval: float = 0.3):
    """Call ``fn`` until it returns a truthy value; return it (or the last value on timeout)."""
    deadline = time.monotonic() + timeout
    value = fn()
    while not value and time.monotonic() < deadline:
        time.sleep(interval)
        value = fn()
    return value


def celery_worker_args(name: str) -> list[str]:
    """The command line of a Celery worker as Procfile's ``worker`` runs it (solo pool: one
    task at a time), with a unique node name so several workers can share one broker."""
    return [
        str(BIN / "celery"),
        "-A",
        "vtt",
        "worker",
        "-l",
        "info",
        "--pool",
        "solo",
        "-n",
        f"{name}-{uuid.uuid4().hex[:6]}@%h",
        "--without-gossip",
        "--without-mingle",
    ]


def celery_worker(
    env: dict[str, str], log: Path, name: str
) -> contextlib.AbstractContextManager[subprocess.Popen]:
    """A running Celery worker (see ``celery_worker_args``), stopped when the block ends."""
    return process(celery_worker_args(name), env, log)
