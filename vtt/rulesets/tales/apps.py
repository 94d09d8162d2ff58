from vtt.rulesets.base import RulesetAppConfig
from vtt.rulesets.tales.web import TalesWeb


class TalesConfig(RulesetAppConfig):
    name = "vtt.rulesets.tales"
    # The label of the app this one grew from: its table (the character wizard) and its
    # migrations keep their names.
    label = "tales_web"
    verbose_name = TalesWeb.label
    web = TalesWeb()
