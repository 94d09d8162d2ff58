from vtt.rulesets.base import RulesetAppConfig
from vtt.rulesets.dungeon_world.web import DungeonWorldWeb


class DungeonWorldConfig(RulesetAppConfig):
    name = "vtt.rulesets.dungeon_world"
    label = "rulesets_dungeon_world"
    verbose_name = DungeonWorldWeb.label
    web = DungeonWorldWeb()
