"""City of Judas (Град Иуды, seed 002): ``RULESET`` is what
``systems.get_ruleset("city_of_judas")`` returns."""

from systems.city_of_judas.ruleset import RULESET, CityOfJudas

__all__ = ["RULESET", "CityOfJudas"]
