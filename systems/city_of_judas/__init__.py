"""City of Judas (Град Иуды): ``RULESET`` is what
``systems.get_ruleset("city_of_judas")`` returns."""

from systems.city_of_judas.ruleset import RULESET, CityOfJudas

__all__ = ["RULESET", "CityOfJudas"]
