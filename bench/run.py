"""``make bench``: the live table under load, then the bare-broadcast floor, on loopback.

1. Create a PostgreSQL database of its own (dropped at the end) and a Redis key prefix of its
   own in its own DB number (its keys deleted at the end); migrate; seed N campaigns with M
   member users each, plus roller users with API tokens (``bench.seed``).
2. Phase ``vtt``: daphne as the Procfile runs it (DEBUG off, production settings, channels-redis,
   psycopg pool); ``bench.clients`` opens the N×M websockets and says READY; ``bench.loadgen``
   rolls on an open-loop schedule for DURATION seconds; after a grace period the clients stop
   and report. Peak RSS and CPU of every process are read from the kernel.
3. Phase ``baseline``: the same clients and load generator against ``bench.baseline``.
4. Print both summaries and, last, ``p99_ms=<x> baseline_p99_ms=<y> ratio=<x/y>``.

Exit status 1 when any phase has errors (HTTP failures, refused or dropped sockets, missing,
duplicate or out-of-order deliveries); 2 with ``--strict`` when the targets are missed.
Every child process has a deadline and is killed at the end whatever happens.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import platform
import resource
import secrets
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from bench.stats import Summary, last_line, summarise

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
BIN = Path(sys.executable).parent
CLK_TCK = os.sysconf("SC_CLK_TCK")
QUICK = {"tables": 5, "clients": 3, "duration": 10.0, "rate": 1.0}
TARGET_P99_MS = 100.0
TARGET_RATIO = 3.0


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--clients", type=int, default=6, help="websocket clients per table")
    p.add_argument("--duration", type=float, default=60.0, help="seconds of rolling")
    p.add_argument("--rate", type=float, default=1.0, help="rolls per table per second")
    p.add_argument(
        "--quick", action="store_true", help="CI smoke: 5 tables × 3 clients × 10 s at 1/s"
    )
    p.add_argument("--grace", type=float, default=5.0, help="wait for late deliveries (s)")
    p.add_argument(
        "--warmup", type=float, default=0.0, help="leave the first seconds out of percentiles"
    )
    p.add_argument("--phases", default="vtt,baseline", help="vtt, baseline or both")
    p.add_argument("--http-client", choices=["raw", "httpx"], default="raw")
    p.add_argument("--daphne-procs", type=int, default=1, help="daphne processes on one socket")
    p.add_argument("--daphne-args", default="", help="extra daphne arguments")
    p.add_argument("--server-env", action="append", default=[], help="NAME=VALUE for daphne")
    p.add_argument("--redis-db", type=int, default=int(os.environ.get("BENCH_REDIS_DB", "13")))
    p.add_argument("--profile", action="store_true", help="py-spy record daphne (raw stacks)")
    p.add_argument("--keep", action="store_true", help="keep the work directory (logs)")
    p.add_argument("--strict", action="store_true", help="exit 2 if the targets are missed")
    args = p.parse_args(argv)
    if args.quick:
        for key, value in QUICK.items():
            setattr(args, key, value)
    for name in ("tables", "clients", "duration", "rate"):
        if getattr(args, name) <= 0:
            p.error(f"--{name} must be positive")
    if args.tables * args.clients > 5000 or args.duration > 3600 or args.rate > 50:
        p.error("bounded: at most 5000 sockets, 3600 s and 50 rolls/s per table")
    return args


# --- services ------------------------------------------------------------------------------


def pg_admin_url() -> str:
    """The server of DATABASE_URL (CI) or BENCH_PG_URL, else the loopback default."""
    url = os.environ.get("BENCH_PG_URL") or os.environ.get("DATABASE_URL")
    url = url or "postgres://postgres@127.0.0.1:5432/postgres"
    return _with_path(url, "/postgres")


def redis_base_url() -> str:
    url = os.environ.get("BENCH_REDIS_URL") or os.environ.get("REDIS_URL")
    return _with_path(url or "redis://127.0.0.1:6379/0", "")


def _with_path(url: str, path: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def _loopback(url: str) -> None:
    host = urlsplit(url).hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit(f"the bench runs on loopback only, not on {host}")


@contextlib.contextmanager
def bench_database(admin_url: str, name: str) -> Iterator[str]:
    import psycopg

    with psycopg.connect(_dsn(admin_url), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield _with_path(admin_url, "/" + name)
    finally:
        with psycopg.connect(_dsn(admin_url), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _dsn(url: str) -> str:
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


def redis_cpu(url: str) -> float:
    import redis

    client = redis.Redis.from_url(url)
    try:
        info = client.info("cpu")
        return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
    finally:
        client.close()


def postgres_cpu() -> float:
    """CPU seconds of every process named postgres (the machine's server; approximate)."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1 : stat.rindex(")")]
        if comm.startswith("postgres"):
            fields = stat[stat.rindex(")") + 2 :].split()
            total += int(fields[11]) + int(fields[12])
    return total / CLK_TCK


# --- processes ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def proc_peak_rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return math.nan


def proc_cpu_s(pid: int) -> float:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return math.nan
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def stop(proc: subprocess.Popen, timeout: float = 15) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


def read_line(proc: subprocess.Popen, timeout: float) -> str:
    """One line from the child's stdout, or '' on timeout or exit."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], 0.5)
        if ready:
            return proc.stdout.readline().decode().strip()
        if proc.poll() is not None:
            return ""
    return ""


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


def django_env(database_url: str, redis_url: str, tag: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "vtt.settings",
            "PYTHONUNBUFFERED": "1",
            # Measure the tree this bench lives in, whatever the venv's editable install says.
            "PYTHONPATH": os.pathsep.join(
                p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p
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
        }
    )
    return env


def run_phase(
    phase: Phase,
    args: argparse.Namespace,
    plan_path: Path,
    work: Path,
    redis_url: str,
) -> Summary:
    n_sockets = args.tables * args.clients
    connect_budget = 60 + 0.1 * n_sockets
    budget = connect_budget + args.duration + args.grace + 120
    clients = subprocess.Popen(  # noqa: S603 (our own interpreter and tools)
        [
            PY,
            "-m",
            "bench.clients",
            "--plan",
            str(plan_path),
            "--ws",
            phase.ws,
            "--origin",
            phase.origin,
            "--out",
            str(work / f"{phase.name}-clients.json"),
            "--max-seconds",
            str(budget),
        ],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=(work / f"{phase.name}-clients.log").open("wb"),
    )
    loadgen = profiler = None
    try:
        ready = read_line(clients, connect_budget)
        print(f"{phase.name:<9}clients {ready or 'did not report READY'}", flush=True)
        if not ready.startswith("READY"):
            raise RuntimeError(f"clients not ready; see {work}/{phase.name}-clients.log")
        cpu0 = {f"server{i}": proc_cpu_s(p.pid) for i, p in enumerate(phase.servers)}
        redis0, pg0 = redis_cpu(redis_url), postgres_cpu()
        start_at = time.time() + 1.5
        loadgen = subprocess.Popen(  # noqa: S603 (our own interpreter and tools)
            [
                PY,
                "-m",
                "bench.loadgen",
                "--plan",
                str(plan_path),
                "--base",
                phase.http,
                "--rate",
                str(args.rate),
                "--duration",
                str(args.duration),
                "--start-at",
                str(start_at),
                "--out",
                str(work / f"{phase.name}-loadgen.json"),
                "--client",
                args.http_client,
            ],
            cwd=ROOT,
            stderr=(work / f"{phase.name}-loadgen.log").open("wb"),
        )
        if args.profile and phase.name == "vtt":
            profiler = start_profiler(phase, args, work, start_at)
        loadgen.wait(timeout=args.duration + 40)
        time.sleep(args.grace)
        if profiler is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                profiler.send_signal(signal.SIGINT)  # py-spy writes what it has on ^C
                profiler.wait(timeout=30)
        cpu = {
            f"server{i}" if len(phase.servers) > 1 else "server": proc_cpu_s(p.pid)
            - cpu0[f"server{i}"]
            for i, p in enumerate(phase.servers)
        }
        cpu["redis"] = redis_cpu(redis_url) - redis0
        cpu["postgres~"] = postgres_cpu() - pg0
        rss = {"server": sum(proc_peak_rss_mb(p.pid) for p in phase.servers)}
        clients.stdin.write(b"STOP\n")
        clients.stdin.flush()
        done = read_line(clients, 60)
        if done != "DONE":
            raise RuntimeError(f"clients did not finish; see {work}/{phase.name}-clients.log")
        clients.wait(timeout=30)
    finally:
        for proc in (loadgen, clients, profiler):
            if proc is not None:
                stop(proc)
    received = json.loads((work / f"{phase.name}-clients.json").read_text())
    sent = json.loads((work / f"{phase.name}-loadgen.json").read_text())
    summary = summarise(
        phase.name,
        sent=sent["records"],
        received=received,
        clients_per_table=args.clients,
        warmup_s=args.warmup,
    )
    summary.rss_mb = {
        **rss,
        "clients": received["peak_rss_mb"],
        "loadgen": sent["peak_rss_mb"],
    }
    summary.cpu_s = {**cpu, "clients": received["cpu_s"], "loadgen": sent["cpu_s"]}
    for sample in received["connect_error_samples"] + received["drop_samples"]:
        summary.http_error_samples.append(f"socket: {sample}")
    return summary


def start_profiler(phase: Phase, args, work: Path, start_at: float) -> subprocess.Popen | None:
    spy = shutil.which("py-spy", path=str(BIN)) or shutil.which("py-spy")
    if spy is None:
        print("py-spy not found: .venv/bin/pip install py-spy", file=sys.stderr)
        return None
    time.sleep(max(0.0, start_at - time.time()))
    out = work / "profile-daphne.txt"
    print(f"vtt      profiling daphne into {out}", flush=True)
    return subprocess.Popen(  # noqa: S603 (our own interpreter and tools)
        [
            spy,
            "record",
            "-p",
            str(phase.servers[0].pid),
            "-d",
            str(int(args.duration)),
            "-r",
            "200",
            "-f",
            "raw",
            "-o",
            str(out),
            "--nonblocking",
            *(["--gil"] if os.environ.get("BENCH_PROFILE_GIL") else []),
            *(["--native"] if os.environ.get("BENCH_PROFILE_NATIVE") else []),
        ],
        stdout=subprocess.DEVNULL,
        stderr=(work / "py-spy.log").open("wb"),
    )


@contextlib.contextmanager
def daphne_servers(args: argparse.Namespace, env: dict[str, str], work: Path) -> Iterator[Phase]:
    """``--daphne-procs`` daphne processes accepting on one listening socket (as the Procfile
    runs one; several share the socket the way a process manager would)."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1024)
    listener.set_inheritable(True)
    port = listener.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    phase = Phase("vtt", base, f"ws://127.0.0.1:{port}", base)
    extra = args.daphne_args.split()
    try:
        for i in range(args.daphne_procs):
            cmd = [
                str(BIN / "daphne"),
                "--fd",
                str(listener.fileno()),
                "--proxy-headers",
                *extra,
                "vtt.asgi:application",
            ]
            phase.servers.append(
                subprocess.Popen(  # noqa: S603 (our own interpreter and tools)
                    cmd,
                    cwd=ROOT,
                    env=env,
                    pass_fds=[listener.fileno()],
                    stdout=(work / f"daphne{i}.log").open("wb"),
                    stderr=subprocess.STDOUT,
                )
            )
        listener.close()
        wait_http(base + "/healthz", phase.servers, work)
        yield phase
    finally:
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
def baseline_server(args: argparse.Namespace, work: Path) -> Iterator[Phase]:
    ws_port, http_port = free_port(), free_port()
    budget = 300 + 0.1 * args.tables * args.clients + args.duration
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
        ],
        cwd=ROOT,
        stdout=(work / "baseline.log").open("wb"),
        stderr=subprocess.STDOUT,
    )
    phase = Phase(
        "baseline",
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


def machine() -> str:
    model = "?"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"machine  cpus={os.cpu_count()} ({model}) mem={mem:.0f}GiB "
        f"python={platform.python_version()} loadavg={load}"
    )


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    phases = {p.strip() for p in args.phases.split(",") if p.strip()}
    if not phases <= {"vtt", "baseline"} or not phases:
        raise SystemExit("--phases takes vtt, baseline or vtt,baseline")
    admin_url, redis_base = pg_admin_url(), redis_base_url()
    _loopback(admin_url)
    _loopback(redis_base)
    redis_url = f"{redis_base}/{args.redis_db}"
    tag = f"vttbench{os.getpid()}"
    rollers = max(1, math.ceil(args.rate / 1.5))  # each roller stays under its 2/s limit
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # N×M sockets in one process
    work = Path(tempfile.mkdtemp(prefix="vtt-bench-"))
    print(machine(), flush=True)
    print(
        f"bench    tables={args.tables} clients={args.clients} rate={args.rate:g}/s "
        f"duration={args.duration:g}s grace={args.grace:g}s warmup={args.warmup:g}s "
        f"daphne_procs={args.daphne_procs} work={work}",
        flush=True,
    )
    summaries: dict[str, Summary] = {}
    try:
        with bench_database(admin_url, tag) as database_url:
            env = django_env(database_url, redis_url, tag)
            for extra in args.server_env:
                name, _, value = extra.partition("=")
                env[name] = value
            t = time.monotonic()
            manage = [PY, "manage.py", "migrate", "--noinput", "-v", "0"]
            subprocess.run(  # noqa: S603
                manage, cwd=ROOT, env=env, check=True, timeout=600
            )
            plan_path = work / "plan.json"
            seed = [
                PY,
                "-m",
                "bench.seed",
                "--tables",
                str(args.tables),
                "--clients",
                str(args.clients),
                "--rollers",
                str(rollers),
                "--out",
                str(plan_path),
            ]
            subprocess.run(  # noqa: S603
                seed, cwd=ROOT, env=env, check=True, timeout=600
            )
            print(f"bench    migrated and seeded in {time.monotonic() - t:.1f}s", flush=True)
            try:
                if "vtt" in phases:
                    with daphne_servers(args, env, work) as phase:
                        summaries["vtt"] = run_phase(phase, args, plan_path, work, redis_url)
                    _print(summaries["vtt"])
                if "baseline" in phases:
                    with baseline_server(args, work) as phase:
                        summaries["baseline"] = run_phase(phase, args, plan_path, work, redis_url)
                    _print(summaries["baseline"])
            finally:
                redis_cleanup(redis_url, tag)
    except BaseException:
        print(f"bench    failed; logs kept in {work}", file=sys.stderr, flush=True)
        raise
    vtt, baseline = summaries.get("vtt"), summaries.get("baseline")
    failed = any(s.errors for s in summaries.values())
    if args.keep or failed:
        print(f"bench    logs kept in {work}", flush=True)
    else:
        shutil.rmtree(work, ignore_errors=True)
    missed = vtt is not None and (
        not vtt.p99 <= TARGET_P99_MS
        or (baseline is not None and not vtt.p99 <= TARGET_RATIO * baseline.p99)
    )
    if vtt is None and baseline is not None:
        print(f"p99_ms=nan baseline_p99_ms={baseline.p99:.2f} ratio=nan")
    elif vtt is not None:
        print(
            f"target   p99 <= {TARGET_P99_MS:g} ms and ratio <= {TARGET_RATIO:g}: "
            f"{'missed' if missed else 'met'}"
        )
        print(last_line(vtt, baseline), flush=True)
    if failed:
        return 1
    return 2 if args.strict and missed else 0


def _print(summary: Summary) -> None:
    for line in summary.lines():
        print(line, flush=True)


if __name__ == "__main__":
    sys.exit(main())
