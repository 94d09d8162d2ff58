from vtt.rulesets.base import RulesetAppConfig
from vtt.rulesets.savage_worlds.web import SavageWorldsWeb


class SavageWorldsConfig(RulesetAppConfig):
    name = "vtt.rulesets.savage_worlds"
    label = "rulesets_savage_worlds"
    verbose_name = SavageWorldsWeb.label
    web = SavageWorldsWeb()
