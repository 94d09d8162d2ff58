"""The web features a ruleset may provide, declared in one place.

``RulesetWebFeatures`` lists every optional feature; ``RulesetWeb`` gives each a neutral
default (no panels, no extra URLs, plain sheets), so a ruleset's plugin overrides only what its
rules have and generic code calls the features without probing for them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, runtime_checkable

from django.apps import AppConfig
from django.utils.functional import Promise

from systems import get_ruleset
from systems.core.ruleset import Ruleset

if TYPE_CHECKING:
    from django.urls import URLPattern, URLResolver

    from vtt.campaigns.models import Campaign, Membership
    from vtt.characters.models import Character

# How a ruleset orders a fight: an ordered list of values (the generic initiative tracker),
# cards dealt each round (Savage Worlds), or sides acting in turn (Tales); ``None``: no tracker.
InitiativeStyle = Literal["ordered", "cards", "sides"] | None
# Bands the odds preview adds: ``"pbta"`` gives 10+, 7–9 and 6−.
OddsBands = Literal["pbta"] | None
SheetKind = Literal["pc", "npc"]
# Who may make a move of the campaign-wide rules state: the referee only, or also a player for
# their own character.
RULES_STATE_REFEREE = "referee"
RULES_STATE_CONTROLLER = "controller"


@dataclass(frozen=True)
class RulesState:
    """A ruleset's campaign-wide rules state, kept by ``vtt.tablestate`` (one row per campaign,
    written under a row lock, published as ``tablestate`` events): which pair of the rules'
    procedures makes and checks it (``default_table``/``validate_table`` or
    ``default_battle``/``validate_battle``), who may make each move, the web side's hooks
    around the rules' moves, and what each viewer may see."""

    procedures: Literal["table", "battle"]
    panel_title: str | Promise
    # move → RULES_STATE_REFEREE or RULES_STATE_CONTROLLER (rules moves and web actions alike)
    roles: Mapping[str, str]
    # (ts, characters, *, referee) → the snapshot this viewer may see
    snapshot: Callable[..., dict[str, Any]]
    # (ts, characters the viewer controls, *, referee) → what they can act with
    mine: Callable[..., list[dict[str, Any]]]
    # move → (ts, campaign, actor, role, params) → (params for the rules, extra data)
    prepare: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    # move → (ts, campaign, actor, outcome, extra) → data for the log
    after: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    # web-side actions next to the rules' moves: move → (ts, campaign, actor, role, params)
    actions: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    # (ts, outcome, *, players) → the outcome's log text ({ru, en}) naming participants as these
    # readers may see them, or None to keep the rules' text
    name_outcome: Callable[..., dict[str, str] | None] | None = None
    # (campaign) → extra keys of the panel script's configuration
    panel_config: Callable[..., dict[str, Any]] | None = None

    def default(self, rules: Ruleset) -> dict[str, Any]:
        if self.procedures == "table":
            return rules.default_table()  # type: ignore[attr-defined]
        return rules.default_battle()  # type: ignore[attr-defined]

    def validate(self, rules: Ruleset, state: dict[str, Any]) -> dict[str, Any]:
        if self.procedures == "table":
            return rules.validate_table(state)  # type: ignore[attr-defined]
        return rules.validate_battle(state)  # type: ignore[attr-defined]


@runtime_checkable
class RulesetWebFeatures(Protocol):
    """What a ruleset's web side can declare; generic apps read only these."""

    key: str
    label: str | Promise
    # Sheet fields every member of the table sees (the rest is the owner's and the referee's).
    public_fields: tuple[str, ...]
    initiative_style: InitiativeStyle
    odds_bands: OddsBands
    # The target number the roll bar's odds preview starts with ("chance of N+").
    default_target: int | None
    # Templates the table page includes in its sidebar, with the page's context.
    table_panels: tuple[str, ...]
    # Templates the map panel includes under the map, with the panel's context.
    map_panels: tuple[str, ...]
    # Square maps take the ruleset's battle rules (walls, light, reach) on every token move.
    battle_squares: bool
    # Hex maps plan the ruleset's travel day.
    hex_travel: bool
    # The length of a hex on a new travel map, in miles.
    hex_miles: Decimal

    def urlpatterns(self) -> Sequence[URLPattern | URLResolver]: ...
    def api_urlpatterns(self) -> Sequence[URLPattern | URLResolver]: ...
    def sheet_links(self, character: Character) -> list[tuple[str, str]]: ...
    def sheet_validator(self, kind: str) -> Callable[[dict], dict]: ...
    def sheet_rules_hook(self, kind: str) -> Callable[[dict], dict] | None: ...
    def default_sheet(self, kind: str) -> dict[str, Any]: ...
    def campaign_state_default(self) -> dict[str, Any]: ...

    # Results of the end of a dungeon turn only the referee sees (unless the campaign makes
    # encounters public), and fields of other results kept from the players the same way.
    secret_turn_results: frozenset[str]
    secret_turn_fields: tuple[str, ...]

    def has_dungeon_turns(self) -> bool: ...
    def rest_procedure(self) -> str: ...
    def benny_pool(self) -> Any: ...
    def rules_state(self) -> RulesState | None: ...
    def map_config(self, membership: Membership, m: Any) -> dict[str, Any]: ...
    def map_urls(self, campaign: Campaign) -> dict[str, str]: ...
    def walk_token(self, **kwargs: Any) -> None: ...
    def demo_sheets(self) -> tuple[dict[str, Any], dict[str, Any]]: ...
    def seed_demo_table(self, campaign: Campaign, **people: Any) -> None: ...
    def library_tables(self) -> tuple[dict[str, Any], ...]: ...
    def library_npcs(self) -> list[dict[str, Any]]: ...
    def table_state_validator(self) -> Callable[[Campaign, dict], Any] | None: ...


class RulesetWeb:
    """Neutral defaults for every feature of ``RulesetWebFeatures``; plugins subclass it."""

    key: ClassVar[str] = ""
    label: ClassVar[str | Promise] = ""
    public_fields: ClassVar[tuple[str, ...]] = ("name",)
    initiative_style: ClassVar[InitiativeStyle] = "ordered"
    odds_bands: ClassVar[OddsBands] = None
    default_target: ClassVar[int | None] = None
    table_panels: ClassVar[tuple[str, ...]] = ()
    map_panels: ClassVar[tuple[str, ...]] = ()
    battle_squares: ClassVar[bool] = False
    hex_travel: ClassVar[bool] = False
    hex_miles: ClassVar[Decimal] = Decimal(6)
    secret_turn_results: ClassVar[frozenset[str]] = frozenset()
    secret_turn_fields: ClassVar[tuple[str, ...]] = ()
    # Which of the rules' optional sheet procedures exist (``systems`` rulesets declare them as
    # methods; the plugin names them once here instead of generic code probing for them).
    npc_defaults: ClassVar[bool] = False
    npc_validation: ClassVar[bool] = False
    pc_validation: ClassVar[bool] = False

    @property
    def rules(self) -> Ruleset:
        return get_ruleset(self.key)

    def urlpatterns(self) -> Sequence[URLPattern | URLResolver]:
        """Pages of the ruleset, included at the site's root."""
        return ()

    def api_urlpatterns(self) -> Sequence[URLPattern | URLResolver]:
        """REST endpoints of the ruleset, included under /api/."""
        return ()

    def sheet_links(self, character: Character) -> list[tuple[str, str]]:
        """Extra pages of a sheet, as ``(label, url)``, shown to who sees the full sheet."""
        return []

    def sheet_rules_hook(self, kind: str) -> Callable[[dict], dict] | None:
        """The rules' own validation for NPCs or PCs, where they have one."""
        if kind == "npc" and self.npc_validation:
            return self.rules.validate_npc  # type: ignore[attr-defined]
        if kind == "pc" and self.pc_validation:
            return self.rules.validate_pc  # type: ignore[attr-defined]
        return None

    def sheet_validator(self, kind: str) -> Callable[[dict], dict]:
        """How a sheet of this kind is validated on every write."""
        return self.sheet_rules_hook(kind) or self.rules.validate_state

    def default_sheet(self, kind: str) -> dict[str, Any]:
        if kind == "npc" and self.npc_defaults:
            return self.rules.default_npc()  # type: ignore[attr-defined]
        return self.rules.default_state()

    def has_dungeon_turns(self) -> bool:
        """The dungeon clock runs the rules' end-of-turn procedure on a campaign state."""
        return False

    def campaign_state_default(self) -> dict[str, Any]:
        """The rules state the dungeon clock row starts from."""
        return {}

    def rest_procedure(self) -> str:
        """The procedure a rest runs (the end of a dungeon turn unless the rules say more)."""
        return "end_dungeon_turn"

    def benny_pool(self) -> Any:
        """The services of a table-wide benny pool that moves spend from, or ``None``."""
        return None

    def rules_state(self) -> RulesState | None:
        """The campaign-wide rules state the ruleset keeps (``vtt.tablestate``), if any."""
        return None

    def map_config(self, membership: Membership, m: Any) -> dict[str, Any]:
        """Extra keys of the map panel's script configuration (the ruleset's own tools)."""
        return {}

    def map_urls(self, campaign: Campaign) -> dict[str, str]:
        """Extra URLs of the map panel's script (``{id}`` stands for the map)."""
        return {}

    def walk_token(self, **kwargs: Any) -> None:
        """Checks and effects of a token's walk on a battle square map (``battle_squares``)."""

    def demo_sheets(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """Alice's and Boris's sheets in the demo campaign (empty: the ruleset's defaults)."""
        return {}, {}

    def seed_demo_table(self, campaign: Campaign, **people: Any) -> None:
        """What the demo campaign shows of the ruleset's own table state."""

    def library_tables(self) -> tuple[dict[str, Any], ...]:
        """Ready-made random tables of the prep library (bilingual, with their source)."""
        return ()

    def library_npcs(self) -> list[dict[str, Any]]:
        """Ready-made stat blocks of the prep library."""
        return []

    def table_state_validator(self) -> Callable[[Campaign, dict], Any] | None:
        """Validates an imported campaign-wide rules state (``vtt.tablestate``), if kept."""
        return None


class RulesetAppConfig(AppConfig):
    """The app of one ruleset's web side; the registry collects its ``web``."""

    web: RulesetWeb

    def ready(self) -> None:
        """Import the modules that register socket commands and hooks (a plugin overrides)."""
