"""The Celery app. Tasks stay thin wrappers around services (DESIGN.md, pitfalls)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "vtt.settings")

app = Celery("vtt")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
