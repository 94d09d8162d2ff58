from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class JournalConfig(AppConfig):
    name = "vtt.journal"
    verbose_name = _("Journal")
    default_auto_field = "django.db.models.BigAutoField"
