from django.db import models


class WorkerHeartbeat(models.Model):
    """Last sign of life of each Celery worker, written from inside its consumer loop, so
    ``/healthz`` knows a worker is actually consuming (works for every broker, even memory)."""

    hostname = models.CharField(max_length=255, unique=True)
    last_seen = models.DateTimeField()
    started_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.hostname} @ {self.last_seen:%H:%M:%S}"
