from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TableConfig(AppConfig):
    name = "vtt.table"
    label = "table"
    verbose_name = _("Table")

    def ready(self) -> None:
        from vtt.table import commands, receivers  # noqa: F401  (signal handlers; socket commands)
