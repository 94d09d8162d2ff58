"""Starting and stopping what a bench run measures, shared by ``make bench`` (``bench.run``)
and ``make bench-compare`` (``bench.compare``): the checks that PostgreSQL and Redis are on
loopback, a database of the run's own, the servers' environment, migrate and seed, daphne as the
Procfile starts it, a Celery worker, the bare-broadcast floor, and the clean-up of the run's
Redis keys. Every child process started here is stopped when its ``with`` block ends."""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
BIN = Path(sys.executable).parent


def host_services(redis_db: int) -> tuple[str, str]:
    """PostgreSQL's admin URL and the run's Redis URL (its own DB number), both on loopback;
    the open-file limit raised, since one process holds every socket of the run."""
    admin_url, redis_base = pg_admin_url(), redis_base_url()
    require_loopback(admin_url)
    require_loopback(redis_base)
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return admin_url, f"{redis_base}/{redis_db}"


def migrate_and_seed(
    env: dict[str, str],
    seed_args: list[str],
    *,
    root: Path = ROOT,
    py: str = PY,
    cwd: Path | None = None,
    timeout: float = 600,
) -> None:
    """``manage.py migrate`` in ``root`` (the tree whose code runs), then ``bench.seed`` with
    ``seed_args`` (run from ``cwd``, ``root`` by default)."""
    subprocess.run(  # noqa: S603 (our own interpreter and tools)
        [py, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=root,
        env=env,
        check=True,
        timeout=timeout,
    )
    subprocess.run(  # noqa: S603 (our own interpreter and tools)
        [py, "-m", "bench.seed", *seed_args],
        cwd=cwd or root,
        env=env,
        check=True,
        timeout=timeout,
    )


def pg_admin_url() -> str:
    """The server of DATABASE_URL (CI) or BENCH_PG_URL, else the loopback default."""
    url = os.environ.get("BENCH_PG_URL") or os.environ.get("DATABASE_URL")
    url = url or "postgres://postgres@127.0.0.1:5432/postgres"
    return with_path(url, "/postgres")


def redis_base_url() -> str:
    url = os.environ.get("BENCH_REDIS_URL") or os.environ.get("REDIS_URL")
    return with_path(url or "redis://127.0.0.1:6379/0", "")


def with_path(url: str, path: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def require_loopback(url: str) -> None:
    host = urlsplit(url).hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit(f"the bench runs on loopback only, not on {host}")


@contextlib.contextmanager
def bench_database(admin_url: str, name: str) -> Iterator[str]:
    import psycopg

    with psycopg.connect(dsn(admin_url), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield with_path(admin_url, "/" + name)
    finally:
        with psycopg.connect(dsn(admin_url), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def dsn(url: str) -> str:
    return url.replace("postgres://", "postgresql://", 1)


def redis_cleanup(url: str, prefix: str) -> int:
    import redis

    client = redis.Redis.from_url(url)
    deleted = 0
    batch: list[bytes] = []
    for count, key in enumerate(client.scan_iter(match=f"{prefix}*", count=1000)):
        if count > 1_000_000:
            break
        batch.append(key)
        if len(batch) >= 500:
            deleted += client.delete(*batch)
            batch = []
    if batch:
        deleted += client.delete(*batch)
    client.close()
    return deleted


# What kombu keeps in the broker's DB for the default queue (``celery``) and its bookkeeping:
# the bench's worker and daphne share the bench's own Redis DB number, so these are the bench's.
CELERY_KEYS = ("celery", "unacked", "unacked_index", "unacked_mutex", "_kombu.binding*")


def celery_cleanup(url: str) -> int:
    import redis

    client = redis.Redis.from_url(url)
    try:
        keys = [k for pattern in CELERY_KEYS for k in client.scan_iter(match=pattern, count=100)]
        return client.delete(*keys) if keys else 0
    finally:
        client.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop(proc: subprocess.Popen, timeout: float = 15) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


def wait_port(port: int, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited early with {proc.returncode}")
        with socket.socket() as s, contextlib.suppress(OSError):
            s.settimeout(1)
            s.connect(("127.0.0.1", port))
            return
        time.sleep(0.2)
    raise TimeoutError(f"nothing listens on {port} after {timeout}s")


@dataclass
class Phase:
    name: str
    http: str  # http://127.0.0.1:port (rolls)
    ws: str  # ws://127.0.0.1:port (sockets)
    origin: str
    servers: list[subprocess.Popen] = field(default_factory=list)
    workers: list[subprocess.Popen] = field(default_factory=list)
    clock_seconds: int = 0


def django_env(database_url: str, redis_url: str, tag: str, root: Path = ROOT) -> dict[str, str]:
    """The server's environment; ``root`` is the tree whose code runs (``bench.compare``
    passes the base commit's)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "vtt.settings",
            "PYTHONUNBUFFERED": "1",
            # Measure the tree this bench lives in, whatever the venv's editable install says.
            "PYTHONPATH": os.pathsep.join(
                p for p in (str(root), os.environ.get("PYTHONPATH", "")) if p
            ),
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            # Plain HTTP on loopback: no HTTPS redirect, no secure-only cookies, no HSTS.
            "SECURE_SSL_REDIRECT": "0",
            "SESSION_COOKIE_SECURE": "0",
            "CSRF_COOKIE_SECURE": "0",
            "SECURE_HSTS_SECONDS": "0",
            "STATIC_MANIFEST": "0",  # no collectstatic for an API-and-socket run
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "CELERY_BROKER_URL": redis_url,
            "EMBEDDED_WORKER": "0",
            "CHANNEL_PREFIX": tag,
            "CACHE_PREFIX": f"{tag}-cache",
            # --clocks turns last seconds, not the 60 s minimum tables use
            "CLOCK_MIN_SECONDS": "1",
        }
    )
    return env


@contextlib.contextmanager
def daphne_servers(
    args: argparse.Namespace,
    env: dict[str, str],
    work: Path,
    root: Path = ROOT,
    bin_dir: Path = BIN,
) -> Iterator[Phase]:
    """``--daphne-procs`` daphne processes on one port, started as the Procfile starts one
    (from ``root`` with ``bin_dir``'s daphne: ``bench.compare`` runs another tree's).
    Each gets its own ``SO_REUSEPORT`` listening socket, so the kernel spreads connections
    evenly over them, as a load balancer in front of several web processes would."""
    listeners: list[socket.socket] = []
    port = 0
    for _ in range(args.daphne_procs):
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        listener.bind(("127.0.0.1", port))
        listener.listen(1024)
        listener.set_inheritable(True)
        port = listener.getsockname()[1]
        listeners.append(listener)
    base = f"http://127.0.0.1:{port}"
    phase = Phase("vtt", base, f"ws://127.0.0.1:{port}", base)
    extra = args.daphne_args.split()
    try:
        for i, listener in enumerate(listeners):
            fd = listener.fileno()
            cmd = [str(bin_dir / "daphne"), "--fd", str(fd), "--proxy-headers", *extra]
            phase.servers.append(
                subprocess.Popen(  # noqa: S603 (our own interpreter and tools)
                    [*cmd, "vtt.asgi:application"],
                    cwd=root,
                    env=env,
                    pass_fds=[fd],
                    stdout=(work / f"daphne{i}.log").open("wb"),
                    stderr=subprocess.STDOUT,
                )
            )
            listener.close()  # the child has it
        wait_http(base + "/healthz", phase.servers, work)
        yield phase
    finally:
        for listener in listeners:
            listener.close()
        for proc in phase.servers:
            stop(proc)


def wait_http(url: str, servers: list[subprocess.Popen], work: Path, timeout: float = 90) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(p.poll() is not None for p in servers):
            raise RuntimeError(f"daphne exited early; see {work}/daphne*.log")
        try:
            body = httpx.get(url, timeout=5).json()
            if body["checks"]["database"]["ok"] and body["checks"]["channel_layer"]["ok"]:
                return
        except (httpx.HTTPError, ValueError, KeyError):
            pass
        time.sleep(0.3)
    raise TimeoutError(f"{url} not healthy after {timeout}s; see {work}/daphne*.log")


@contextlib.contextmanager
def celery_worker(
    args: argparse.Namespace, env: dict[str, str], work: Path, phase: Phase
) -> Iterator[None]:
    """A Celery worker as the Procfile starts one (it ends the clocks' turns), without the
    gossip, mingle and heartbeat chatter a single bench worker does not need."""
    log = work / "celery.log"
    proc = subprocess.Popen(  # noqa: S603 (our own interpreter and tools)
        [
            str(BIN / "celery"),
            "-A",
            "vtt",
            "worker",
            "--loglevel",
            "INFO",
            "--concurrency",
            str(args.worker_concurrency),
            "-n",
            f"bench-{os.getpid()}@%h",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 90
        while " ready." not in log.read_text(errors="replace"):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the Celery worker did not start; see {log}")
            time.sleep(0.3)
        phase.workers.append(proc)
        phase.clock_seconds = args.clock_seconds
        yield
    finally:
        stop(proc, timeout=30)


@contextlib.contextmanager
def baseline_server(
    args: argparse.Namespace,
    work: Path,
    plan_path: Path,
    write_dsn: str | None = None,
) -> Iterator[Phase]:
    """The floor (bench/baseline.py); with ``write_dsn`` it commits each event first."""
    name = "floorpg" if write_dsn else "baseline"
    ws_port, http_port = free_port(), free_port()
    span = len(args.windows) * (args.duration + args.grace)
    budget = 300 + 0.1 * args.tables * args.clients + span
    proc = subprocess.Popen(  # noqa: S603 (our own interpreter and tools)
        [
            PY,
            "-m",
            "bench.baseline",
            "--ws-port",
            str(ws_port),
            "--http-port",
            str(http_port),
            "--max-seconds",
            str(budget),
            "--plan",
            str(plan_path),
            *(["--write-dsn", write_dsn] if write_dsn else []),
        ],
        cwd=ROOT,
        stdout=(work / f"{name}.log").open("wb"),
        stderr=subprocess.STDOUT,
    )
    phase = Phase(
        name,
        f"http://127.0.0.1:{http_port}",
        f"ws://127.0.0.1:{ws_port}",
        f"http://127.0.0.1:{ws_port}",
        [proc],
    )
    try:
        wait_port(ws_port, proc)
        wait_port(http_port, proc)
        yield phase
    finally:
        stop(proc)
