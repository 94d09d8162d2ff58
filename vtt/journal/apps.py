from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class JournalConfig(AppConfig):
    name = "vtt.journal"
    verbose_name = _("Journal")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The handout kind joins the table's registry and its command the socket's and API's.
        from vtt.journal import commands, kinds  # noqa: F401
