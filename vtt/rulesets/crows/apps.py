from vtt.rulesets.base import RulesetAppConfig
from vtt.rulesets.crows.web import CrowsWeb


class CrowsConfig(RulesetAppConfig):
    name = "vtt.rulesets.crows"
    label = "rulesets_crows"
    verbose_name = CrowsWeb.label
    web = CrowsWeb()
