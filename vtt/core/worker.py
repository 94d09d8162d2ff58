"""Worker liveness and the embedded worker used when no broker is configured."""

from __future__ import annotations

import logging
import socket
import threading
from datetime import timedelta

from celery import bootsteps
from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from vtt.celery import app

log = logging.getLogger(__name__)
_embedded_lock = threading.Lock()
_embedded_started = False


def record_heartbeat(hostname: str) -> None:
    """Upsert this worker's heartbeat row; runs on the worker's timer thread."""
    from vtt.core.models import WorkerHeartbeat

    close_old_connections()
    try:
        now = timezone.now()
        updated = WorkerHeartbeat.objects.filter(hostname=hostname).update(last_seen=now)
        if not updated:
            WorkerHeartbeat.objects.update_or_create(
                hostname=hostname, defaults={"last_seen": now, "started_at": now}
            )
    except Exception:  # a heartbeat must never kill the worker; healthz will show it stale
        log.exception("worker heartbeat failed")
    finally:
        connection.close()


def live_workers(max_age: timedelta | None = None) -> list[str]:
    from vtt.core.models import WorkerHeartbeat

    max_age = max_age or timedelta(seconds=3 * settings.WORKER_HEARTBEAT_SECONDS)
    since = timezone.now() - max_age
    return list(
        WorkerHeartbeat.objects.filter(last_seen__gte=since).values_list("hostname", flat=True)
    )


class HeartbeatStep(bootsteps.StartStopStep):
    """Consumer bootstep: beats while the consumer runs, stops when it stops."""

    requires = {"celery.worker.consumer.tasks:Tasks"}

    def __init__(self, parent, **kwargs) -> None:
        super().__init__(parent, **kwargs)
        self.tref = None

    def start(self, c) -> None:
        record_heartbeat(c.hostname)
        self.tref = c.timer.call_repeatedly(
            settings.WORKER_HEARTBEAT_SECONDS, record_heartbeat, (c.hostname,)
        )

    def stop(self, c) -> None:
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None


app.steps["consumer"].add(HeartbeatStep)


class ClockRecoveryStep(bootsteps.StartStopStep):
    """Consumer bootstep: each time the worker (re)connects to the broker, end the turns that
    came due while it was away and re-enqueue the running ones (vtt/table/clock.py, rearm).

    Runs on every consumer start, not only at worker start-up: after a Redis restart the
    consumer restarts, and the queued ETA tasks may be gone with Redis's memory."""

    requires = {"celery.worker.consumer.tasks:Tasks"}

    def start(self, c) -> None:
        try:
            c.app.send_task("vtt.table.sweep_clocks", kwargs={"rearm": True})
        except Exception:  # the broker went away again; the next start retries
            log.warning("could not enqueue the clock sweep", exc_info=True)


app.steps["consumer"].add(ClockRecoveryStep)


def start_embedded_worker() -> None:
    """Run a solo-pool worker in a daemon thread of this process (embedded mode only).

    Uses ``WorkController`` rather than the CLI ``Worker`` so no signal handlers are installed
    (they may only be set from the main thread).
    """
    global _embedded_started
    with _embedded_lock:
        if _embedded_started:
            return
        _embedded_started = True
    from celery.worker import WorkController

    worker = WorkController(
        app=app,
        hostname=f"embedded@{socket.gethostname()}",
        pool="solo",
        concurrency=1,
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
        loglevel="INFO",
    )
    threading.Thread(target=worker.start, name="embedded-celery", daemon=True).start()
    threading.Thread(target=_sweep_forever, name="embedded-sweeper", daemon=True).start()
    log.info("embedded Celery worker started (broker %s)", settings.CELERY_BROKER_URL)


def _sweep_forever(interval: float = 15.0) -> None:
    """Embedded mode has no beat process: sweep overdue clocks from a thread instead."""
    import time

    from vtt.table.clock import sweep

    while True:
        try:
            sweep()
        except Exception:
            log.exception("clock sweep failed")
        finally:
            connection.close()
        time.sleep(interval)
