from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "vtt.core"
    label = "core"
    verbose_name = "VTT core"
