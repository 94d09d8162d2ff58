from vtt.rulesets.base import RulesetAppConfig
from vtt.rulesets.crows.web import CrowsWeb


class CrowsConfig(RulesetAppConfig):
    name = "vtt.rulesets.crows"
    label = "rulesets_crows"
    verbose_name = CrowsWeb.label
    web = CrowsWeb()

    def ready(self) -> None:
        # The travel day keeps the campaign's travel state in step with role checks made on
        # the sheets (an outcome hook registered with the characters' move service); an attack
        # reads the combat under way from the server (a parameter hook), whichever path made it.
        # The commands register for the API views and the table socket alike, the event kinds
        # (travel, combat) for publishing and the campaign archive.
        from vtt.rulesets.crows import combat, commands, kinds, travel  # noqa: F401
