"""Join what the load generator sent with what the clients received; percentiles; report."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

KINDS = ("roll", "move", "token")
# A turn whose deadline is this close to the clients' STOP may not have reached them yet: it
# is neither expected nor missing (one that did arrive still counts).
CLOCK_MARGIN_S = 3.0


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list (q in 0..100); NaN for an empty list."""
    if not sorted_values:
        return math.nan
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def _spread(values: list[float]) -> tuple[float, float, float, float]:
    values.sort()
    p50, p95, p99 = (percentile(values, q) for q in (50, 95, 99))
    return p50, p95, p99, values[-1] if values else math.nan


@dataclass
class KindStats:
    """One request kind: how many were sent and answered, delivered, and how fast."""

    kind: str
    sent: int = 0
    ok: int = 0
    rate_limited: int = 0
    failed: int = 0  # refused or unanswered (any non-2xx, a 429 included)
    expected: int = 0
    delivered: int = 0
    missing: int = 0
    measured: int = 0
    p50: float = math.nan
    p95: float = math.nan
    p99: float = math.nan
    max: float = math.nan
    http_p50: float = math.nan
    http_p99: float = math.nan
    duplicates: int = 0  # events of this kind a socket got twice
    order: int = 0  # events of this kind that came out of order
    cpu_ms: float = math.nan  # the web processes' CPU per answered action, fan-out included
    latencies: list[float] = field(default_factory=list, repr=False)  # sorted, ms

    @property
    def errors(self) -> int:
        return self.failed + self.missing + self.duplicates + self.order

    def result_line(self, tag: str) -> str:
        """The figures the issue asks for, in its order: p50 and p99 from the send to every
        other socket of the table, errors (must be 0), web CPU per action."""
        return (
            f"{tag}{self.kind:<5} p50_ms={self.p50:.2f} p99_ms={self.p99:.2f} "
            f"errors={self.errors} (lost={self.missing} duplicated={self.duplicates} "
            f"out_of_order={self.order} failed={self.failed}) "
            f"web_cpu_ms_per_action={self.cpu_ms:.2f} ({self.ok} actions, "
            f"{self.measured} latencies)"
        )

    def line(self, tag: str) -> str:
        return (
            f"{tag}kind={self.kind:<5} sent={self.sent} ok={self.ok} 429s={self.rate_limited} "
            f"delivered={self.delivered}/{self.expected} latency_ms p50={self.p50:.2f} "
            f"p95={self.p95:.2f} p99={self.p99:.2f} max={self.max:.2f} "
            f"answer_ms p50={self.http_p50:.2f} p99={self.http_p99:.2f}"
        )


@dataclass
class ClockStats:
    """Running dungeon clocks: turns that ended, their deliveries, and how late they came
    against the turn's scheduled end (``turn.ended`` arrival − deadline)."""

    started: int = 0
    due: int = 0  # turns whose deadline passed before the clients stopped (with a margin)
    ended: int = 0  # distinct turns any client saw end (due ones and any just after)
    expected: int = 0  # due turns × clients of their table
    delivered: int = 0  # of those, the ones that arrived
    missing: int = 0
    duplicates: int = 0
    p50: float = math.nan
    p95: float = math.nan
    p99: float = math.nan
    max: float = math.nan

    def line(self, tag: str) -> str:
        return (
            f"{tag}clock    tables={self.started} turns_due={self.due} turns_ended={self.ended} "
            f"delivered={self.delivered}/{self.expected} missing={self.missing} "
            f"twice={self.duplicates} lateness_ms p50={self.p50:.1f} p95={self.p95:.1f} "
            f"p99={self.p99:.1f} max={self.max:.1f}"
        )


@dataclass
class Summary:
    name: str
    via: str = ""  # socket (command frames) or http (the API)
    rolls_sent: int = 0
    rolls_ok: int = 0
    requests_ok: int = 0
    expected: int = 0
    delivered: int = 0
    measured: int = 0
    http_errors: int = 0
    drops: int = 0
    connect_errors: int = 0
    missing: int = 0
    duplicates: int = 0
    order_errors: int = 0
    gap_replays: int = 0
    frames: int = 0
    p50: float = math.nan
    p95: float = math.nan
    p99: float = math.nan
    max: float = math.nan
    http_p50: float = math.nan
    http_p99: float = math.nan
    send_lag_max: float = 0.0
    window: float = 0.0
    kinds: dict[str, KindStats] = field(default_factory=dict)
    clock: ClockStats | None = None
    rss_mb: dict[str, float] = field(default_factory=dict)
    cpu_s: dict[str, float] = field(default_factory=dict)
    http_error_samples: list[str] = field(default_factory=list)
    cpu_ms_all: float = math.nan  # web CPU per action over a mixed window

    @property
    def errors(self) -> int:
        clock = self.clock.missing + self.clock.duplicates if self.clock else 0
        return (
            self.http_errors
            + self.drops
            + self.connect_errors
            + self.missing
            + self.duplicates
            + self.order_errors
            + clock
        )

    @property
    def rolls_per_s(self) -> float:
        return self.requests_ok / self.window if self.window > 0 else 0.0

    @property
    def deliveries_per_s(self) -> float:
        return self.delivered / self.window if self.window > 0 else 0.0

    def lines(self) -> list[str]:
        tag = f"{self.name:<8} "
        rss = " ".join(f"{k}={v:.0f}" for k, v in self.rss_mb.items())
        cpu = " ".join(f"{k}={v:.1f}" for k, v in self.cpu_s.items())
        mixed = [k for k in self.kinds.values() if k.sent]
        if len(mixed) > 1:
            counts = " ".join(f"{k.kind}s={k.ok}" for k in mixed)
            sent = f"{counts} requests={self.requests_ok} ({self.rolls_per_s:.1f}/s)"
        else:
            only = mixed[0] if mixed else KindStats("roll")
            sent = f"{only.kind}s={only.ok} ({self.rolls_per_s:.1f}/s)"
        clock = (
            f" clock_missing={self.clock.missing} clock_twice={self.clock.duplicates}"
            if self.clock
            else ""
        )
        out = [
            f"{tag}latency_ms p50={self.p50:.2f} p95={self.p95:.2f} p99={self.p99:.2f} "
            f"max={self.max:.2f} (over {self.measured} deliveries)",
            f"{tag}throughput {sent} "
            f"deliveries={self.delivered} ({self.deliveries_per_s:.1f}/s) "
            f"answer_ms p50={self.http_p50:.2f} p99={self.http_p99:.2f} "
            f"send_lag_max_ms={self.send_lag_max:.1f}",
            *(k.line(tag) for k in mixed),
        ]
        if self.clock is not None:
            out.append(self.clock.line(tag))
        out += [
            f"{tag}errors={self.errors} (http={self.http_errors} connect={self.connect_errors} "
            f"drops={self.drops} missing={self.missing} duplicates={self.duplicates} "
            f"order={self.order_errors}{clock})",
            f"{tag}sockets frames={self.frames} gap_replays={self.gap_replays} "
            "(a frame whose prev skips events this user may not see makes the browser replay)",
            f"{tag}peak_rss_mb {rss}",
            f"{tag}cpu_s {cpu}",
        ]
        out += [f"{tag}http error: {s}" for s in self.http_error_samples]
        via = f" via {self.via}" if self.via else ""
        cpu_all = f" all kinds: {self.cpu_ms_all:.2f}" if not math.isnan(self.cpu_ms_all) else ""
        out.append(
            f"{tag}result{via}: latency from the send to every other socket of the table, "
            f"errors, web CPU ms per action{cpu_all} (sockets that failed to join: "
            f"{self.connect_errors}, dropped: {self.drops})"
        )
        out += [k.result_line(f"{tag}  ") for k in mixed]
        return out


def _label_moves(sent: list[dict[str, Any]]) -> None:
    """Number each character's answered moves in send order (``mv<cid>#<n>``), as each client
    numbers the character's ``move`` events in log order. A refused move publishes nothing, so
    it takes no number."""
    by_char: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for r in sent:
        if r.get("kind") == "move" and r["status"] is not None and 200 <= r["status"] < 300:
            by_char[r["char"]].append(r)
    for cid, records in by_char.items():
        records.sort(key=lambda r: r["t_send"])
        for n, r in enumerate(records):
            r["label"] = f"mv{cid}#{n}"


def summarise(
    name: str,
    *,
    sent: list[dict[str, Any]],
    received: dict[str, Any],
    clients_per_table: int,
    warmup_s: float = 0.0,
    clock_seconds: float = 0.0,
    table_ids: list[int] | None = None,
) -> Summary:
    """``sent``: the load generator's records (kind, label, table, t_send, t_done, status,
    error, lag). ``received``: the clients' report (arrivals per label, turn ends, drops,
    connect errors, order and duplicate counts). Latency = arrival wall clock − send wall
    clock, same machine. The overall figures are over every request kind's deliveries; turn
    ends are reported apart (``ClockStats``)."""
    s = Summary(name)
    arrivals: dict[str, list[list[float]]] = received["arrivals"]
    s.drops = received["drops"]
    s.connect_errors = received["connect_errors"]
    s.order_errors = received["order_errors"]
    s.duplicates = received["duplicates"]
    s.gap_replays = received.get("gap_replays", 0)
    s.frames = received.get("frames", 0)
    _label_moves(sent)
    requests = [r for r in sent if r.get("kind", "roll") in KINDS]
    t0 = min((r["t_send"] for r in requests), default=0.0)
    latencies: list[float] = []
    http: list[float] = []
    per_kind: dict[str, tuple[list[float], list[float]]] = {k: ([], []) for k in KINDS}
    s.kinds = {k: KindStats(k) for k in KINDS}
    last_arrival = t0
    for r in sent:
        kind = r.get("kind", "roll")
        s.send_lag_max = max(s.send_lag_max, r["lag"] * 1000)
        stats = s.kinds.get(kind)
        if stats is not None:
            stats.sent += 1
        if r["status"] is None or not 200 <= r["status"] < 300:
            s.http_errors += 1
            if stats is not None and r["status"] == 429:
                stats.rate_limited += 1
            if stats is not None:
                stats.failed += 1
            if len(s.http_error_samples) < 5:
                label = r["label"] or f"character {r.get('char')}"
                s.http_error_samples.append(f"{kind} {label}: {r['status']} {r['error']}"[:200])
            continue
        if stats is None:
            continue  # a clock request: answered, nothing to deliver by label
        kind_latency, kind_http = per_kind[kind]
        stats.ok += 1
        elapsed = (r["t_done"] - r["t_send"]) * 1000
        http.append(elapsed)
        kind_http.append(elapsed)
        got = arrivals.get(r["label"], [])
        stats.expected += clients_per_table
        stats.delivered += len(got)
        stats.missing += max(0, clients_per_table - len(got))
        in_window = r["t_send"] - t0 >= warmup_s
        sender = r.get("sender")
        for client, t in got:
            last_arrival = max(last_arrival, t)
            if in_window and client != sender:  # the sender's own copy is not a delivery
                # to another browser (with the socket, it follows the ack on the same socket)
                latency = (t - r["t_send"]) * 1000
                latencies.append(latency)
                kind_latency.append(latency)
    by_kind = received.get("errors_by_kind", {})
    for kind, stats in s.kinds.items():
        kind_latency, kind_http = per_kind[kind]
        stats.measured = len(kind_latency)
        stats.p50, stats.p95, stats.p99, stats.max = _spread(kind_latency)
        stats.latencies = kind_latency
        stats.duplicates = by_kind.get(kind, {}).get("duplicates", 0)
        stats.order = by_kind.get(kind, {}).get("order", 0)
        kind_http.sort()
        stats.http_p50, stats.http_p99 = percentile(kind_http, 50), percentile(kind_http, 99)
        s.requests_ok += stats.ok
        s.expected += stats.expected
        s.delivered += stats.delivered
        s.missing += stats.missing
    s.rolls_sent = s.kinds["roll"].sent
    s.rolls_ok = s.kinds["roll"].ok
    http.sort()
    s.measured = len(latencies)
    s.p50, s.p95, s.p99, s.max = _spread(latencies)
    s.http_p50, s.http_p99 = percentile(http, 50), percentile(http, 99)
    s.window = max(0.0, last_arrival - t0)
    if clock_seconds > 0:
        s.clock = _clocks(sent, received, clients_per_table, clock_seconds, table_ids or [])
    return s


def _clocks(
    sent: list[dict[str, Any]],
    received: dict[str, Any],
    clients_per_table: int,
    length: float,
    table_ids: list[int],
) -> ClockStats:
    """Turns due = every deadline from each table's first one, a turn apart, up to the clients'
    STOP less a margin; each must reach every client of its table once."""
    c = ClockStats()
    arrivals: dict[str, list[list[Any]]] = received.get("clock_arrivals", {})
    cutoff = received.get("stopped_at", 0.0) - CLOCK_MARGIN_S
    due: set[str] = set()
    for r in sent:
        if r.get("kind") == "clock" and r.get("deadline") is not None:
            c.started += 1
            campaign = table_ids[r["table"]] if r["table"] < len(table_ids) else r["table"]
            turn, deadline = 1, r["deadline"]
            while deadline <= cutoff:
                due.add(f"clk{campaign}-{turn}")
                turn, deadline = turn + 1, deadline + length
    c.due = len(due)
    c.ended = len(arrivals)
    lateness: list[float] = []
    for label in due | set(arrivals):
        got = arrivals.get(label, [])
        clients = {index for index, _t, _due in got}
        c.duplicates += len(got) - len(clients)
        if label in due:
            c.expected += clients_per_table
            c.delivered += len(clients)
            c.missing += max(0, clients_per_table - len(clients))
        lateness += [(t - end) * 1000 for _i, t, end in got if end is not None]
    c.p50, c.p95, c.p99, c.max = _spread(lateness)
    return c


def last_line(vtt: Summary, baseline: Summary | None) -> str:
    if baseline is None:
        return f"p99_ms={vtt.p99:.2f} baseline_p99_ms=nan ratio=nan"
    ratio = vtt.p99 / baseline.p99 if baseline.p99 and baseline.p99 > 0 else math.nan
    return f"p99_ms={vtt.p99:.2f} baseline_p99_ms={baseline.p99:.2f} ratio={ratio:.2f}"
