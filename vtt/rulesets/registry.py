"""Where generic code finds a ruleset's web side: the installed ``RulesetAppConfig`` apps."""

from __future__ import annotations

from functools import cache

from django.apps import apps
from django.urls import URLPattern, URLResolver

from vtt.rulesets.base import RulesetAppConfig, RulesetWeb


@cache
def _plugins() -> dict[str, RulesetWeb]:
    found: dict[str, RulesetWeb] = {}
    for config in apps.get_app_configs():
        if isinstance(config, RulesetAppConfig):
            found[config.web.key] = config.web
    return found


def web_for(ruleset_key: str) -> RulesetWeb:
    """The web side of a ruleset; raises ``LookupError`` for a key no app declares."""
    try:
        return _plugins()[ruleset_key]
    except KeyError:
        raise LookupError(f"no web plugin for ruleset {ruleset_key!r}") from None


def all_webs() -> list[RulesetWeb]:
    """Every installed ruleset's web side, in the order of ``INSTALLED_APPS``."""
    return list(_plugins().values())


def ruleset_choices() -> list[tuple[str, str]]:
    """The rulesets a campaign may use, as form and model choices."""
    return [(web.key, web.label) for web in all_webs()]


def urlpatterns() -> list[URLPattern | URLResolver]:
    """Every ruleset's pages, for the site's URL configuration."""
    return [pattern for web in all_webs() for pattern in web.urlpatterns()]


def api_urlpatterns() -> list[URLPattern | URLResolver]:
    """Every ruleset's REST endpoints, included under /api/."""
    return [pattern for web in all_webs() for pattern in web.api_urlpatterns()]
