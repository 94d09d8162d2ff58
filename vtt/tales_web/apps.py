from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TalesWebConfig(AppConfig):
    name = "vtt.tales_web"
    label = "tales_web"
    verbose_name = _("Tales of the Magic World")
