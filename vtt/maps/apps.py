from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MapsConfig(AppConfig):
    name = "vtt.maps"
    label = "maps"
    verbose_name = _("Maps")

    def ready(self) -> None:
        # The travel day keeps the campaign's travel state in step with role checks made on
        # the sheets (an outcome hook registered with the characters' move service).
        from vtt.maps import travel  # noqa: F401
