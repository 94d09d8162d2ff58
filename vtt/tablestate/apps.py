from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TableStateConfig(AppConfig):
    name = "vtt.tablestate"
    label = "tablestate"
    verbose_name = _("Table state")

    def ready(self) -> None:
        from vtt.tablestate import commands  # noqa: F401  (socket commands)
