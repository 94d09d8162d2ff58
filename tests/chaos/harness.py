"""The app stack for the fault tests: a private PostgreSQL and Redis, daphne processes on
fixed ports (so a killed one restarts where the balancer expects it), Celery workers, the
seeded campaigns, and read access to the event log (the truth every check compares with)."""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg

from tests.chaos.servers import PrivatePostgres, PrivateRedis
from tests.integration.procs import BIN, ROOT, celery_worker_args, child_env, free_port

FULL = os.environ.get("VTT_CHAOS_FULL", "") not in ("", "0")
FIGURES: list[str] = []


def figure(line: str) -> None:
    """A line for the run's summary (docs/operations.md quotes them)."""
    FIGURES.append(line)
    print(line, flush=True)


def spread(values: list[float]) -> str:
    if not values:
        return "n=0"
    return f"n={len(values)} median={statistics.median(values):.2f}s max={max(values):.2f}s"


class Proc:
    """One child process that a test may kill -9 and start again."""

    def __init__(self, name: str, args: list[str], env: dict[str, str], logdir: Path) -> None:
        self.name = name
        self.args = args
        self.env = env
        self.log = logdir / f"{name}.log"
        self.proc: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        out = self.log.open("ab")
        out.write(f"\n===== start {self.starts} =====\n".encode())
        out.flush()
        self.proc = subprocess.Popen(
            self.args, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT
        )

    def kill9(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill9()
        self.proc = None

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def tail(self, chars: int = 3000) -> str:
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else ""


class Web(Proc):
    def __init__(self, name: str, env: dict[str, str], logdir: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        args = [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(self.port)]
        super().__init__(name, [*args, "vtt.asgi:application"], env, logdir)

    def start(self, wait: bool = True) -> float:
        """Start daphne; return the seconds until it answered."""
        super().start()
        return self.wait_ready() if wait else 0.0

    def wait_ready(self, timeout: float = 60) -> float:
        """Seconds until the login page answers (no database needed for it)."""
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            if not self.alive():
                raise RuntimeError(f"{self.name} exited:\n{self.tail()}")
            try:
                httpx.get(self.base + "/accounts/login/", timeout=2)
                return time.monotonic() - started
            except httpx.HTTPError:
                time.sleep(0.1)
        raise TimeoutError(f"{self.name} did not answer:\n{self.tail()}")


class Worker(Proc):
    def __init__(self, name: str, env: dict[str, str], logdir: Path) -> None:
        super().__init__(name, celery_worker_args(name), env, logdir)

    def start(self, wait: bool = True) -> None:
        size = self.log.stat().st_size if self.log.exists() else 0
        super().start()
        if wait:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                if not self.alive():
                    raise RuntimeError(f"{self.name} exited:\n{self.tail()}")
                text = self.log.read_text(errors="replace")[size:]
                if " ready." in text:
                    return
                time.sleep(0.1)
            raise TimeoutError(f"{self.name} never became ready:\n{self.tail()}")


class Stack:
    """Private services, migrated and seeded once per module; processes per test."""

    def __init__(self, workdir: Path, campaigns: int) -> None:
        self.workdir = workdir
        self.pg = PrivatePostgres()
        self.redis = PrivateRedis(workdir)
        self.procs: list[Proc] = []
        self.env = child_env(
            DEBUG="1",
            DATABASE_URL=self.pg.url,
            REDIS_URL=self.redis.url,
            CELERY_BROKER_URL=self.redis.url,
            CLOCK_MIN_SECONDS="1",
            WORKER_HEARTBEAT_SECONDS="1",
            LOG_LEVEL="WARNING",
        )
        self.campaigns_wanted = campaigns
        self.plan: dict[str, Any] = {}

    def up(self) -> None:
        self.pg.init()
        self.redis.start()
        for args in (
            ["manage.py", "migrate", "--noinput", "-v", "0"],
            [
                *("-m", "tests.chaos.seed", "--campaigns", str(self.campaigns_wanted)),
                *("--out", str(self.workdir / "plan.json")),
            ],
        ):
            subprocess.run(
                [str(BIN / "python"), *args], cwd=ROOT, env=self.env, check=True, timeout=300
            )
        self.plan = json.loads((self.workdir / "plan.json").read_text())

    def down(self) -> None:
        for proc in self.procs:
            proc.stop()
        self.redis.stop()
        self.pg.destroy()

    def campaign(self, index: int) -> dict[str, Any]:
        return self.plan["campaigns"][index]

    def web(self, name: str, **env: str) -> Web:
        web = Web(name, {**self.env, **env}, self.workdir)
        self.procs.append(web)
        return web

    def worker(self, name: str, **env: str) -> Worker:
        worker = Worker(name, {**self.env, **env}, self.workdir)
        self.procs.append(worker)
        return worker

    # --- the event log, read straight from PostgreSQL ---------------------------------------

    def sql(self, query: str, *args: Any) -> list[tuple]:
        with psycopg.connect(self.pg.url, connect_timeout=5) as conn:
            return conn.execute(query, args).fetchall()

    def events(self, campaign_id: int) -> list[tuple[int, str, str]]:
        """``(seq, kind, visibility)`` of every event, in order."""
        return self.sql(
            "SELECT seq, kind, visibility FROM table_tableevent WHERE campaign_id = %s "
            "ORDER BY seq",
            campaign_id,
        )

    def turns_ended(self, campaign_id: int) -> list[int]:
        rows = self.sql(
            "SELECT (payload->>'turn')::int FROM table_tableevent "
            "WHERE campaign_id = %s AND kind = 'turn.ended' ORDER BY seq",
            campaign_id,
        )
        return [r[0] for r in rows]

    def rolls(self, campaign_id: int) -> int:
        return self.sql(
            "SELECT count(*) FROM table_tableevent WHERE campaign_id = %s AND kind = 'roll'",
            campaign_id,
        )[0][0]
