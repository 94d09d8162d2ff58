from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MapsConfig(AppConfig):
    name = "vtt.maps"
    label = "maps"
    verbose_name = _("Maps")

    def ready(self) -> None:
        # The travel day keeps the campaign's travel state in step with role checks made on
        # the sheets (an outcome hook registered with the characters' move service); an attack
        # reads the combat under way from the server (a parameter hook), whichever path made it.
        # The map's commands register for the API views and the table socket alike.
        from vtt.maps import combat, commands, travel  # noqa: F401
