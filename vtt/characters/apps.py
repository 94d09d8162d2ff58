from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CharactersConfig(AppConfig):
    name = "vtt.characters"
    label = "characters"
    verbose_name = _("Characters")

    def ready(self) -> None:
        from vtt.characters import commands  # noqa: F401  (socket commands)
