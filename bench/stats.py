"""Join what the load generator sent with what the clients received; percentiles; report."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list (q in 0..100); NaN for an empty list."""
    if not sorted_values:
        return math.nan
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


@dataclass
class Summary:
    name: str
    rolls_sent: int = 0
    rolls_ok: int = 0
    expected: int = 0
    delivered: int = 0
    measured: int = 0
    http_errors: int = 0
    drops: int = 0
    connect_errors: int = 0
    missing: int = 0
    duplicates: int = 0
    order_errors: int = 0
    p50: float = math.nan
    p95: float = math.nan
    p99: float = math.nan
    max: float = math.nan
    http_p50: float = math.nan
    http_p99: float = math.nan
    send_lag_max: float = 0.0
    window: float = 0.0
    rss_mb: dict[str, float] = field(default_factory=dict)
    cpu_s: dict[str, float] = field(default_factory=dict)
    http_error_samples: list[str] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return (
            self.http_errors
            + self.drops
            + self.connect_errors
            + self.missing
            + self.duplicates
            + self.order_errors
        )

    @property
    def rolls_per_s(self) -> float:
        return self.rolls_ok / self.window if self.window > 0 else 0.0

    @property
    def deliveries_per_s(self) -> float:
        return self.delivered / self.window if self.window > 0 else 0.0

    def lines(self) -> list[str]:
        tag = f"{self.name:<9}"
        rss = " ".join(f"{k}={v:.0f}" for k, v in self.rss_mb.items())
        cpu = " ".join(f"{k}={v:.1f}" for k, v in self.cpu_s.items())
        out = [
            f"{tag}latency_ms p50={self.p50:.2f} p95={self.p95:.2f} p99={self.p99:.2f} "
            f"max={self.max:.2f} (over {self.measured} deliveries)",
            f"{tag}throughput rolls={self.rolls_ok} ({self.rolls_per_s:.1f}/s) "
            f"deliveries={self.delivered} ({self.deliveries_per_s:.1f}/s) "
            f"http_ms p50={self.http_p50:.2f} p99={self.http_p99:.2f} "
            f"send_lag_max_ms={self.send_lag_max:.1f}",
            f"{tag}errors={self.errors} (http={self.http_errors} connect={self.connect_errors} "
            f"drops={self.drops} missing={self.missing} duplicates={self.duplicates} "
            f"order={self.order_errors})",
            f"{tag}peak_rss_mb {rss}",
            f"{tag}cpu_s {cpu}",
        ]
        out += [f"{tag}http error: {s}" for s in self.http_error_samples]
        return out


def summarise(
    name: str,
    *,
    sent: list[dict[str, Any]],
    received: dict[str, Any],
    clients_per_table: int,
    warmup_s: float = 0.0,
) -> Summary:
    """``sent``: the load generator's records (label, table, t_send, t_done, status, error,
    lag). ``received``: the clients' report (arrivals per label, drops, connect errors, order
    and duplicate counts). Latency = arrival wall clock − send wall clock, same machine."""
    s = Summary(name)
    s.rolls_sent = len(sent)
    arrivals: dict[str, list[list[float]]] = received["arrivals"]
    s.drops = received["drops"]
    s.connect_errors = received["connect_errors"]
    s.order_errors = received["order_errors"]
    s.duplicates = received["duplicates"]
    t0 = min((r["t_send"] for r in sent), default=0.0)
    latencies: list[float] = []
    http: list[float] = []
    last_arrival = t0
    for r in sent:
        s.send_lag_max = max(s.send_lag_max, r["lag"] * 1000)
        if r["status"] is None or not 200 <= r["status"] < 300:
            s.http_errors += 1
            if len(s.http_error_samples) < 5:
                s.http_error_samples.append(f"{r['label']}: {r['status']} {r['error']}"[:200])
            continue
        s.rolls_ok += 1
        http.append((r["t_done"] - r["t_send"]) * 1000)
        got = arrivals.get(r["label"], [])
        s.expected += clients_per_table
        s.delivered += len(got)
        s.missing += max(0, clients_per_table - len(got))
        in_window = r["t_send"] - t0 >= warmup_s
        for _client, t in got:
            last_arrival = max(last_arrival, t)
            if in_window:
                latencies.append((t - r["t_send"]) * 1000)
    latencies.sort()
    http.sort()
    s.measured = len(latencies)
    s.p50, s.p95, s.p99 = (percentile(latencies, q) for q in (50, 95, 99))
    s.max = latencies[-1] if latencies else math.nan
    s.http_p50, s.http_p99 = percentile(http, 50), percentile(http, 99)
    s.window = max(0.0, last_arrival - t0)
    return s


def last_line(vtt: Summary, baseline: Summary | None) -> str:
    if baseline is None:
        return f"p99_ms={vtt.p99:.2f} baseline_p99_ms=nan ratio=nan"
    ratio = vtt.p99 / baseline.p99 if baseline.p99 and baseline.p99 > 0 else math.nan
    return f"p99_ms={vtt.p99:.2f} baseline_p99_ms={baseline.p99:.2f} ratio={ratio:.2f}"
