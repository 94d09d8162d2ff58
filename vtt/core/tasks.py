from celery import shared_task


@shared_task(name="vtt.core.ping")
def ping() -> str:
    """Round-trip check used by tests and operators (``celery call vtt.core.ping``)."""
    return "pong"
