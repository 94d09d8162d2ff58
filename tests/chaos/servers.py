"""Private PostgreSQL and Redis servers for the fault tests, on free ports in a temporary
directory: they can be stopped, killed and restarted without touching anyone else's."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from tests.integration.procs import free_port


def _pg_bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def missing_binaries() -> list[str]:
    """What this machine lacks to run the fault tests (empty when all is there)."""
    missing = [n for n in ("initdb", "pg_ctl", "postgres") if _pg_bin(n) is None]
    if shutil.which("redis-server") is None:
        missing.append("redis-server")
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            missing.append("a 'postgres' user (initdb refuses to run as root)")
    return missing


class PrivateRedis:
    """``redis-server`` without persistence: a restart loses everything, as the tests want."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        log = (self.workdir / "redis.log").open("ab")
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            ping = subprocess.run(
                ["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True
            )
            if ping.stdout.strip() == "PONG":
                return
            time.sleep(0.05)
        raise RuntimeError("private redis-server did not start")

    def kill(self) -> None:
        """kill -9: no goodbye to clients, everything in memory gone."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
            self.proc = None


class PrivatePostgres:
    """A throw-away cluster (trust auth, no fsync) owned by the ``postgres`` user when run as
    root, listening on 127.0.0.1:<free port> and a socket in its own directory."""

    def __init__(self) -> None:
        # Its own directory under /tmp (pytest's tmp_path is private to root).
        self.workdir = Path(tempfile.mkdtemp(prefix="vtt-chaos-pg-"))
        self.data = self.workdir / "data"
        self.port = free_port()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/vtt"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        cmd = list(args)
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        return subprocess.run(
            cmd, capture_output=True, text=True, check=check, timeout=120, cwd=self.workdir
        )

    def init(self) -> None:
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.workdir, user.pw_uid, user.pw_gid)
        self._run(
            _pg_bin("initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
            "-N",
        )
        self.start()
        psql = _pg_bin("psql") or "psql"
        subprocess.run(
            [
                psql,
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                "postgres",
                "-qc",
                "CREATE DATABASE vtt",
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.workdir} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._run(
            _pg_bin("pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.workdir / "postgres.log"),
            "-w",
            "-t",
            "60",
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        """``fast`` ends every session at once (what an outage looks like to the app)."""
        self._run(_pg_bin("pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop", check=False)

    def destroy(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.workdir, ignore_errors=True)

    def log_tail(self, chars: int = 2000) -> str:
        path = self.workdir / "postgres.log"
        return path.read_text(errors="replace")[-chars:] if path.exists() else ""
