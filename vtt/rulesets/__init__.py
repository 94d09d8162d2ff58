"""Each ruleset's web side, one Django app per ruleset (``vtt/rulesets/<key>/``).

Generic apps never compare ruleset keys: they ask ``registry.web_for(key)`` for the
``RulesetWeb`` the ruleset's app declares (docs/architecture.md, "The plugin interface").
"""
