from vtt.rulesets.base import RulesetAppConfig
from vtt.rulesets.city_of_judas.web import CityOfJudasWeb


class CityOfJudasConfig(RulesetAppConfig):
    name = "vtt.rulesets.city_of_judas"
    label = "rulesets_city_of_judas"
    verbose_name = CityOfJudasWeb.label
    web = CityOfJudasWeb()
