"""Сказания волшебного мира: ``RULESET`` is what ``systems.get_ruleset("tales")``
returns. Data lives in ``data``, random tables in ``tables``, the new-character wizard in
``wizard``, roll-under and opposed checks with exact odds in ``checks``."""

from systems.tales.ruleset import RULESET, Tales

__all__ = ["RULESET", "Tales"]
