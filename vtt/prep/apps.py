from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PrepConfig(AppConfig):
    name = "vtt.prep"
    label = "prep"
    verbose_name = _("Referee preparation")
