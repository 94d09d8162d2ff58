from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MapsConfig(AppConfig):
    name = "vtt.maps"
    label = "maps"
    verbose_name = _("Maps")

    def ready(self) -> None:
        # The map's commands register for the API views and the table socket alike.
        from vtt.maps import commands  # noqa: F401
