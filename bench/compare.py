"""``python -m bench compare --base <rev>``: the same workload against two trees, alternating.

Issue 19 asks that table actions as socket commands be no slower than what came before, measured
side by side in one run on one machine. This runs the server code of the base commit and of
this tree in turns (base, head, base, head… ``--rounds`` times), each round on a fresh copy of a
database seeded once per tree, and prints, for each scenario and action, p50, p99, the web
processes' CPU milliseconds per action (fan-out included) and errors, base against head.

- The base tree is checked out into a git worktree (``--base-dir``, made if missing) with its
  own virtual environment (``--base-venv``, ``pip install -c constraints.txt -e .`` if missing:
  the base pins channels-redis below 4.4). Its migrations and daphne run from there; this
  tree's ``bench`` package seeds both (a directory holding only a link to it goes first on the
  path, so ``vtt`` is the base's own) and drives both (clients and load generator).
- The base has no socket commands: it is driven by HTTP, which is what its browsers did. The
  head is driven by socket commands (what its browsers do) and, in a second phase, by HTTP.
- Scenarios: one table of 6 sockets and one of 50 (``--single-rate`` actions a second each),
  and ``--tables`` tables of 6 sockets at ``--rate`` actions a second each. Every scenario
  runs one window per kind (``--kinds``), so each kind has its own CPU per action.
- Latencies of every round are pooled for the percentiles; CPU is the total over the
  answered actions; errors are summed (lost, duplicated, out of order, refused).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bench.loadgen import KINDS, rollers_needed, token_moves_per_roller, windows_of
from bench.run import machine, run_phase
from bench.servers import (
    BIN,
    ROOT,
    daphne_servers,
    django_env,
    dsn,
    host_services,
    migrate_and_seed,
    redis_cleanup,
    with_path,
)
from bench.stats import KindStats, percentile

NAMES = {"roll": "roll", "move": "sheet move", "token": "token move"}


@dataclass
class Tree:
    name: str  # base or head
    root: Path
    bin_dir: Path
    vias: tuple[str, ...]
    rev: str = ""
    plan: dict = field(default_factory=dict)
    template: str = ""


@dataclass
class Scenario:
    key: str
    title: str
    first: int  # index of its first table in the seeded plan
    tables: int
    clients: int
    rate: float


@dataclass
class Pooled:
    """One (scenario, action, tree, via) over every round."""

    latencies: list[float] = field(default_factory=list)
    p99s: list[float] = field(default_factory=list)
    cpu_ms: float = 0.0  # CPU ms summed over answered actions
    cpu_actions: int = 0
    errors: int = 0
    actions: int = 0

    def add(self, k: KindStats) -> None:
        self.latencies += k.latencies
        self.p99s.append(k.p99)
        if not math.isnan(k.cpu_ms):
            self.cpu_ms += k.cpu_ms * k.ok
            self.cpu_actions += k.ok
        self.errors += k.errors
        self.actions += k.sent

    def row(self) -> tuple[float, float, float]:
        values = sorted(self.latencies)
        cpu = self.cpu_ms / self.cpu_actions if self.cpu_actions else math.nan
        return percentile(values, 50), percentile(values, 99), cpu


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench compare", description=__doc__.split("\n")[0])
    p.add_argument("--base", default="0ff6ee7", help="git revision of the base (before issue 19)")
    p.add_argument("--base-dir", default="", help="its worktree (default /tmp/bench-base-<rev>)")
    p.add_argument("--base-venv", default=str(Path(tempfile.gettempdir()) / "bench-base-venv"))
    p.add_argument(
        "--head-dir",
        default="",
        help="the tree measured as head (default: this one), e.g. a worktree of a merge to come",
    )
    p.add_argument("--head-venv", default="", help="its venv (default: this one's)")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--duration", type=float, default=10.0, help="seconds of sending per kind")
    p.add_argument("--grace", type=float, default=3.0, help="seconds after each kind's window")
    p.add_argument("--kinds", default="roll,move,token")
    p.add_argument("--tables", type=int, default=100, help="tables of the many-tables scenario")
    p.add_argument("--rate", type=float, default=1.0, help="actions a second per table there")
    p.add_argument(
        "--single-rate", type=float, default=2.0, help="actions a second at the single tables"
    )
    p.add_argument("--scenarios", default="t6,t50,many", help="t6, t50, many")
    p.add_argument("--map-size", type=int, default=100)
    p.add_argument("--map-tokens", type=int, default=500)
    p.add_argument("--daphne-procs", type=int, default=min(4, os.cpu_count() or 1))
    p.add_argument("--daphne-args", default="")
    p.add_argument("--redis-db", type=int, default=int(os.environ.get("BENCH_REDIS_DB", "13")))
    p.add_argument("--keep", action="store_true", help="keep the work directory (logs)")
    args = p.parse_args(argv)
    args.windows = windows_of(args.kinds, None)
    args.base_dir = args.base_dir or str(Path(tempfile.gettempdir()) / f"bench-base-{args.base}")
    if args.rounds < 1 or args.duration <= 0 or args.tables < 1:
        p.error("--rounds, --duration and --tables must be positive")
    # what run_phase reads from the namespace
    args.warmup, args.http_client, args.profile = 0.0, "raw", False
    args.secret_key = secrets.token_urlsafe(50)
    return args


def scenarios(args: argparse.Namespace) -> list[Scenario]:
    wanted = [s.strip() for s in args.scenarios.split(",") if s.strip()]
    known = {
        "t6": Scenario("t6", "1 table × 6 sockets", 0, 1, 6, args.single_rate),
        "t50": Scenario("t50", "1 table × 50 sockets", 1, 1, 50, args.single_rate),
        "many": Scenario("many", f"{args.tables} tables × 6 sockets", 2, args.tables, 6, args.rate),
    }
    if not wanted or any(w not in known for w in wanted):
        raise SystemExit("--scenarios takes t6, t50 and many, comma-separated")
    return [known[w] for w in wanted]


# --- the base tree ------------------------------------------------------------------------


def prepare_base(args: argparse.Namespace) -> Tree:
    """The base commit's worktree and virtual environment, made when missing."""
    base = Path(args.base_dir)
    if not base.exists():
        subprocess.run(  # noqa: S603
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), args.base],  # noqa: S607
            check=True,
        )
    rev = git_rev(base)
    wanted = git_rev(ROOT, args.base)
    if rev != wanted:
        raise SystemExit(f"{base} is at {rev[:10]}, not {args.base} ({wanted[:10]})")
    venv = Path(args.base_venv)
    if not (venv / "bin" / "daphne").exists():
        print(f"compare  creating {venv} for the base (pip install -c constraints.txt -e .)")
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)  # noqa: S603
        pip = [str(venv / "bin" / "pip"), "install", "--quiet"]
        subprocess.run([*pip, "--upgrade", "pip"], check=True)  # noqa: S603
        subprocess.run([*pip, "-c", "constraints.txt", "-e", "."], cwd=base, check=True)  # noqa: S603
    return Tree("base", base, venv / "bin", ("http",), rev)


def git_rev(where: Path, rev: str = "HEAD") -> str:
    out = subprocess.run(  # noqa: S603
        ["git", "-C", str(where), "rev-parse", rev],  # noqa: S607
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip()


def seed_template(
    tree: Tree, args: argparse.Namespace, admin_url: str, redis_url: str, work: Path
) -> None:
    """Migrate and seed a database once per tree; each round copies it (``TEMPLATE``)."""
    import psycopg

    tree.template = f"vttcmp{os.getpid()}_{tree.name}"
    with psycopg.connect(dsn(admin_url), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{tree.template}"')
    url = with_path(admin_url, "/" + tree.template)
    env = django_env(url, redis_url, f"{tree.template}-seed", tree.root)
    env["SECRET_KEY"] = args.secret_key  # the sessions seeded here must hold in every round
    # this tree's bench package, the tree's own vtt: a directory with only a link to bench
    shim = work / f"shim-{tree.name}"
    shim.mkdir()
    (shim / "bench").symlink_to(ROOT / "bench")
    env["PYTHONPATH"] = os.pathsep.join([str(shim), str(tree.root)])
    py = str(tree.bin_dir / "python")
    t = time.monotonic()
    needed = max(rollers_needed(w, r) for w in args.windows for r in (args.rate, args.single_rate))
    plan_path = work / f"plan-{tree.name}.json"
    migrate_and_seed(
        env,
        [
            "--groups",
            f"1x6,1x50,{args.tables}x6",
            "--rollers",
            str(needed),
            "--characters",
            "--map-size",
            str(args.map_size),
            "--map-tokens",
            str(max(args.map_tokens, needed)),
            "--out",
            str(plan_path),
        ],
        root=tree.root,
        py=py,
        cwd=work,
        timeout=900,
    )
    tree.plan = json.loads(plan_path.read_text())
    print(
        f"compare  {tree.name} ({tree.rev[:10]}) migrated and seeded in "
        f"{time.monotonic() - t:.1f}s",
        flush=True,
    )


@contextlib.contextmanager
def round_database(admin_url: str, template: str, name: str) -> Iterator[str]:
    import psycopg

    with psycopg.connect(dsn(admin_url), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    try:
        yield with_path(admin_url, "/" + name)
    finally:
        with psycopg.connect(dsn(admin_url), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def run_round(
    tree: Tree,
    n: int,
    args: argparse.Namespace,
    todo: list[Scenario],
    admin_url: str,
    redis_url: str,
    work: Path,
    results: dict[tuple[str, str, str, str], Pooled],
) -> None:
    """One tree, one round: a fresh copy of its database, its daphne, every scenario."""
    tag = f"vttcmp{os.getpid()}{tree.name}{n}"
    stride = token_moves_per_roller(max(args.rate, args.single_rate), args.duration, args.windows)
    with round_database(admin_url, tree.template, tag) as url:
        env = django_env(url, redis_url, tag, tree.root)
        env["SECRET_KEY"] = args.secret_key
        try:
            with daphne_servers(args, env, work, tree.root, tree.bin_dir) as phase:
                for sc in todo:
                    plan = dict(tree.plan)
                    plan["tables"] = tree.plan["tables"][sc.first : sc.first + sc.tables]
                    plan_path = work / f"plan-{tree.name}-{sc.key}.json"
                    plan_path.write_text(json.dumps(plan))
                    sargs = argparse.Namespace(**vars(args))
                    sargs.rate = sc.rate
                    for v, via in enumerate(tree.vias):
                        name = f"{tree.name[0]}{n}-{sc.key}-{via}"
                        summary = run_phase(
                            phase,
                            sargs,
                            plan_path,
                            work,
                            redis_url,
                            via=via,
                            name=name,
                            token_offset=v * stride,
                        )
                        for k in summary.kinds.values():
                            if k.sent:
                                pooled = results.setdefault(
                                    (sc.key, k.kind, tree.name, via), Pooled()
                                )
                                pooled.add(k)
                                print(
                                    k.result_line(
                                        f"round {n + 1} {tree.name} {sc.key:<4} {via:<6} "
                                    ),
                                    flush=True,
                                )
        finally:
            redis_cleanup(redis_url, tag)


def table_lines(
    todo: list[Scenario],
    kinds: list[str],
    trees: list[Tree],
    results: dict[tuple[str, str, str, str], Pooled],
) -> list[str]:
    """The comparison as a Markdown table: one row per scenario, action and side."""
    out = [
        "| scenario | action | side | p50 ms | p99 ms | p99 by round | web CPU ms/action | errors "
        "| actions |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for sc in todo:
        for kind in kinds:
            for tree in trees:
                for via in tree.vias:
                    pooled = results.get((sc.key, kind, tree.name, via))
                    if pooled is None:
                        continue
                    p50, p99, cpu = pooled.row()
                    how = "socket commands" if via == "socket" else "HTTP"
                    side = f"{tree.name} ({tree.rev[:7]}), {how}"
                    rounds = " / ".join(f"{x:.1f}" for x in pooled.p99s)
                    out.append(
                        f"| {sc.title} | {NAMES[kind]} | {side} | {p50:.2f} | {p99:.2f} | "
                        f"{rounds} | {cpu:.2f} | {pooled.errors} | {pooled.actions} |"
                    )
    return out


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    todo = scenarios(args)
    admin_url, redis_url = host_services(args.redis_db)
    base = prepare_base(args)
    head_root = Path(args.head_dir).resolve() if args.head_dir else ROOT
    head_bin = Path(args.head_venv) / "bin" if args.head_venv else BIN
    head = Tree("head", head_root, head_bin, ("socket", "http"), git_rev(head_root))
    trees = [base, head]
    kinds = [next(k for k in KINDS if w[k]) for w in args.windows]
    work = Path(tempfile.mkdtemp(prefix="vtt-compare-"))
    print(machine(), flush=True)
    print(
        f"compare  base={base.rev[:10]} ({args.base}; driven by HTTP: it has no socket commands, "
        f"and HTTP is what its browsers sent) head={head.rev[:10]} ({head.root}: socket "
        "commands, then HTTP as scripts send)",
        flush=True,
    )
    print(
        f"compare  rounds={args.rounds} alternating base, head; kinds {','.join(kinds)} "
        f"{args.duration:g}s each + {args.grace:g}s grace; scenarios "
        + "; ".join(f"{s.title} at {s.rate:g}/s a table" for s in todo)
        + f"; daphne_procs={args.daphne_procs} work={work}",
        flush=True,
    )
    results: dict[tuple[str, str, str, str], Pooled] = {}
    try:
        for tree in trees:
            seed_template(tree, args, admin_url, redis_url, work)
        for n in range(args.rounds):
            for tree in trees:
                run_round(tree, n, args, todo, admin_url, redis_url, work, results)
    except BaseException:
        print(f"compare  failed; logs kept in {work}", file=sys.stderr, flush=True)
        raise
    finally:
        import psycopg

        with psycopg.connect(dsn(admin_url), autocommit=True) as conn:
            for tree in trees:
                if tree.template:
                    conn.execute(f'DROP DATABASE IF EXISTS "{tree.template}" WITH (FORCE)')
    print(machine(), flush=True)
    for line in table_lines(todo, kinds, trees, results):
        print(line, flush=True)
    failed = any(p.errors for p in results.values())
    if args.keep or failed:
        print(f"compare  logs kept in {work}", flush=True)
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0
