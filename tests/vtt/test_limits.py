"""Each limit once (issue 20): a limit is a named constant in the service module that checks it
(or the model column, when the column is the limit); serializers, forms, socket command shapes
and pages read that constant instead of writing the number again.

These tests hold that in place: every shape field reads the owning constant, no bare number
comes back into a serializer, form or page, every ``{% limit %}`` in a template names a real
constant, and docs/limits.md states the values the code has."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.template import Context, Template, TemplateSyntaxError
from django.utils.module_loading import import_string

from systems.core import notation
from vtt.accounts import forms as account_forms
from vtt.accounts.models import PUBLIC_NAME_MAX
from vtt.campaigns import api as campaign_api
from vtt.campaigns import forms as campaign_forms
from vtt.campaigns import services as campaign_services
from vtt.campaigns.models import Campaign
from vtt.characters import api as character_api
from vtt.characters import commands as character_commands
from vtt.characters import services as character_services
from vtt.characters import views as character_views
from vtt.core import commands as core_commands
from vtt.core.errors import Invalid
from vtt.core.ratelimit import TokenBucket
from vtt.maps import api as map_api
from vtt.maps import commands as map_commands
from vtt.maps import forms as map_forms
from vtt.maps import services as map_services
from vtt.maps.models import MAX_SIDE
from vtt.prep import api as prep_api
from vtt.prep import models as prep_models
from vtt.prep import rolltables, transfer
from vtt.prep import services as prep_services
from vtt.rulesets.savage_worlds import table_state as sw_table_state
from vtt.table import clock
from vtt.table import commands as table_commands
from vtt.table import services as table_services
from vtt.table import views as table_views
from vtt.table.models import InitiativeEntry, Roll

ROOT = Path(__file__).resolve().parents[2]


def _drf(serializer: type, name: str):
    return serializer().fields[name]


def _form(form: type, name: str):
    return form.base_fields[name]


# (field object, attribute, the constant it must equal)
SHAPES = [
    # campaigns
    (_drf(campaign_api.CampaignCreateSerializer, "name"), "max_length", campaign_services.NAME_MAX),
    (
        _drf(campaign_api.CampaignCreateSerializer, "description"),
        "max_length",
        campaign_services.DESCRIPTION_MAX,
    ),
    (_drf(campaign_api.CampaignUpdateSerializer, "name"), "max_length", campaign_services.NAME_MAX),
    (
        _drf(campaign_api.CampaignUpdateSerializer, "description"),
        "max_length",
        campaign_services.DESCRIPTION_MAX,
    ),
    (_form(campaign_forms.CampaignCreateForm, "name"), "max_length", campaign_services.NAME_MAX),
    (
        _form(campaign_forms.CampaignCreateForm, "description"),
        "max_length",
        campaign_services.DESCRIPTION_MAX,
    ),
    (_form(campaign_forms.CampaignRenameForm, "name"), "max_length", campaign_services.NAME_MAX),
    (
        _form(campaign_forms.CampaignRenameForm, "description"),
        "max_length",
        campaign_services.DESCRIPTION_MAX,
    ),
    (
        _drf(campaign_api.InviteCreateSerializer, "max_uses"),
        "max_value",
        campaign_services.INVITE_USES_MAX,
    ),
    (
        _drf(campaign_api.InviteCreateSerializer, "expires_in_hours"),
        "max_value",
        campaign_services.INVITE_MAX_DAYS * 24,
    ),
    (
        _form(campaign_forms.InviteCreateForm, "max_uses"),
        "max_value",
        campaign_services.INVITE_USES_MAX,
    ),
    # accounts
    (account_forms.public_name_field(), "max_length", PUBLIC_NAME_MAX),
    # table: rolls, chat, initiative, clock
    (_drf(table_commands.RollRequest, "notation"), "max_length", notation.MAX_CHARS),
    (_drf(table_commands.RollRequest, "label"), "max_length", table_services.LABEL_MAX),
    (_form(table_views.RollForm, "notation"), "max_length", notation.MAX_CHARS),
    (_form(table_views.RollForm, "quick"), "max_length", notation.MAX_CHARS),
    (_form(table_views.RollForm, "label"), "max_length", table_services.LABEL_MAX),
    (
        _form(table_views.RollForm, "idempotency_key"),
        "max_length",
        core_commands.IDEMPOTENCY_KEY_MAX,
    ),
    (_drf(table_commands.ChatRequest, "text"), "max_length", table_services.CHAT_MAX),
    (_form(table_views.ChatForm, "text"), "max_length", table_services.CHAT_MAX),
    (_drf(table_commands.EntryRequest, "name"), "max_length", table_services.ENTRY_NAME_MAX),
    (_drf(table_commands.EntryUpdate, "name"), "max_length", table_services.ENTRY_NAME_MAX),
    (_drf(table_commands.EntryRequest, "value"), "max_value", table_services.ENTRY_VALUE_MAX),
    (_drf(table_commands.EntryRequest, "value"), "min_value", -table_services.ENTRY_VALUE_MAX),
    (_drf(table_commands.EntryUpdate, "value"), "max_value", table_services.ENTRY_VALUE_MAX),
    (_drf(table_commands.EntryUpdate, "value"), "min_value", -table_services.ENTRY_VALUE_MAX),
    (
        _drf(table_commands.OrderRequest, "entry_ids"),
        "max_length",
        table_services.INITIATIVE_MAX_ENTRIES,
    ),
    (_drf(table_commands.ClockRequest, "dungeon"), "max_length", clock.DUNGEON_NAME_MAX),
    (_drf(table_commands.ClockRequest, "reason"), "max_length", clock.REASON_MAX),
    # maps
    (_drf(map_api.MapSettingsRequest, "name"), "max_length", map_services.NAME_MAX),
    (_form(map_forms.MapForm, "name"), "max_length", map_services.NAME_MAX),
    (_form(map_forms.MapForm, "width"), "max_value", MAX_SIDE),
    (_form(map_forms.MapForm, "height"), "max_value", MAX_SIDE),
    (_form(map_forms.MapForm, "cell_px"), "min_value", map_services.CELL_PX[0]),
    (_form(map_forms.MapForm, "cell_px"), "max_value", map_services.CELL_PX[1]),
    (_form(map_forms.MapForm, "cell_distance"), "min_value", map_services.CELL_DISTANCE[0]),
    (_form(map_forms.MapForm, "cell_distance"), "max_value", map_services.CELL_DISTANCE[1]),
    (_drf(map_commands.MapTokenRequest, "name"), "max_length", map_services.TOKEN_NAME_MAX),
    (_drf(map_commands.MapNoteRequest, "text"), "max_length", map_services.NOTE_MAX),
    (
        _drf(map_commands.MapFogRequest, "cells"),
        "max_length",
        map_services.MAX_CELLS_PER_REQUEST,
    ),
    # characters
    (_drf(character_api.CreateRequest, "name"), "max_length", character_services.NAME_MAX),
    (
        _form(character_views.CharacterCreateForm, "name"),
        "max_length",
        character_services.NAME_MAX,
    ),
    (
        _drf(character_commands.PartyMoveRequest, "character_ids"),
        "max_length",
        character_services.MAX_PARTY,
    ),
    # prep
    (_drf(prep_api.PrepTableSerializer, "entries"), "max_length", rolltables.MAX_ENTRIES),
    (_drf(prep_api.PrepRollRequest, "modifier"), "max_value", rolltables.MAX_MODIFIER),
    (_drf(prep_api.PrepRollRequest, "modifier"), "min_value", -rolltables.MAX_MODIFIER),
    (_drf(prep_api.PrepPlaceRequest, "name"), "max_length", prep_services.PLACE_NAME_MAX),
    (_drf(prep_api.PrepPlaceRequest, "count"), "max_value", prep_services.MAX_PLACE),
    (
        _drf(prep_api.PrepPlaceRequest, "initiative_value"),
        "max_value",
        table_services.ENTRY_VALUE_MAX,
    ),
    (_drf(prep_api.PrepDungeonRequest, "name"), "max_length", prep_models.NAME_MAX),
    (_drf(prep_api.PrepDungeonRequest, "description"), "max_length", prep_models.TEXT_MAX),
    (_drf(prep_api.PrepRoomRequest, "key"), "max_length", prep_models.ROOM_KEY_MAX),
    (_drf(prep_api.PrepRoomRequest, "name"), "max_length", prep_models.NAME_MAX),
    (_drf(prep_api.PrepRoomRequest, "text"), "max_length", prep_models.TEXT_MAX),
    (
        _drf(prep_api.PrepMonsterRequest, "count"),
        "max_value",
        prep_services.MONSTER_COUNT_MAX,
    ),
    (_drf(prep_api.PrepMonsterRequest, "note"), "max_length", prep_models.MONSTER_NOTE_MAX),
    (
        _drf(prep_api.PrepInitiativeRequest, "value"),
        "max_value",
        table_services.ENTRY_VALUE_MAX,
    ),
]


@pytest.mark.parametrize(
    ("field", "attribute", "limit"),
    SHAPES,
    ids=[f"{type(f).__name__}.{getattr(f, 'field_name', '') or ''}.{a}" for f, a, _ in SHAPES],
)
def test_each_shape_reads_the_owning_limit(field, attribute, limit):
    assert getattr(field, attribute) == limit


# (model field, the constant the service checks): the column and the rule are one number.
COLUMNS = [
    (Campaign, "name", campaign_services.NAME_MAX),
    (Campaign, "description", campaign_services.DESCRIPTION_MAX),
    (Roll, "label", table_services.LABEL_MAX),
    (Roll, "notation", notation.MAX_CHARS),
    (InitiativeEntry, "name", table_services.ENTRY_NAME_MAX),
    (prep_models.RandomTable, "key", rolltables.KEY_MAX),
    (prep_models.RandomTable, "name", rolltables.MAX_NAME),
    (prep_models.RandomTable, "formula", notation.MAX_CHARS),
    (prep_models.RandomTable, "modifier_label", rolltables.MAX_LABEL),
    (prep_models.RandomTable, "note", rolltables.MAX_NOTE),
    (prep_models.Dungeon, "name", prep_models.NAME_MAX),
    (prep_models.Dungeon, "description", prep_models.TEXT_MAX),
    (prep_models.Room, "name", prep_models.NAME_MAX),
    (prep_models.Room, "text", prep_models.TEXT_MAX),
    (prep_models.Room, "key", prep_models.ROOM_KEY_MAX),
    (prep_models.RoomMonster, "note", prep_models.MONSTER_NOTE_MAX),
]


@pytest.mark.parametrize(("model", "name", "limit"), COLUMNS)
def test_columns_match_the_service_limits(model, name, limit):
    assert model._meta.get_field(name).max_length == limit


def test_the_prep_place_name_leaves_room_for_a_number_in_a_sheet_name():
    assert prep_services.PLACE_NAME_MAX + len(" 99") <= character_services.NAME_MAX


# --- no second copy of a number --------------------------------------------------------------

SHAPE_FILES = ("api.py", "commands.py", "forms.py", "views.py", "inventory_views.py")
BARE = re.compile(r"\b(max_length|max_value|min_value|min_length)=-?(\d{2,}|\d+\s*\*)")
# Shapes, not limits: keys checked against a fixed set by the service, whatever their length.
ALLOWED = {
    "vtt/characters/commands.py": {"child=serializers.CharField(max_length=60), max_length=10"},
    "vtt/tablestate/commands.py": {"choice = serializers.CharField(max_length=40)"},
    "vtt/maps/commands.py": {"size = serializers.CharField(max_length=16, required=False)"},
    "vtt/rulesets/crows/commands.py": {
        "max_length=64,",
        "characteristic = serializers.CharField(max_length=20, required=False, allow_blank=True)",
    },
}


def test_no_bare_limit_in_serializers_forms_and_views():
    found = []
    for path in sorted((ROOT / "vtt").rglob("*.py")):
        if path.name not in SHAPE_FILES or "migrations" in path.parts:
            continue
        rel = path.relative_to(ROOT).as_posix()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if BARE.search(line) and not any(a in line for a in ALLOWED.get(rel, ())):
                found.append(f"{rel}:{n}: {line.strip()}")
    assert not found, "read the limit from its service:\n" + "\n".join(found)


TEMPLATE_NUMBER = re.compile(r'\b(maxlength|max)="\d{2,}"|\bmin="-\d+"')


def _template_files() -> list[tuple[str, Path]]:
    """Every template as ``(name, path)``: the generic ones and the ruleset plugins' own."""
    roots = [ROOT / "templates", *sorted((ROOT / "vtt" / "rulesets").glob("*/templates"))]
    return [(p.relative_to(r).as_posix(), p) for r in roots for p in sorted(r.rglob("*.html"))]


def test_no_bare_limit_in_templates():
    found = []
    for rel, path in _template_files():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if TEMPLATE_NUMBER.search(line):
                found.append(f"templates/{rel}:{n}: {line.strip()[:120]}")
    assert not found, 'use {% limit "module.CONSTANT" %}:\n' + "\n".join(found)


# A script's input limit as a literal: ``maxlength: 50``, ``max: 999``, ``min: -999``,
# ``maxLength = "200"``, ``Math.min(10, …)``. Scripts read limits from the page's config.
SCRIPT_NUMBER = re.compile(
    r"""\b(maxlength|maxLength|min|max)["']?\s*[:=]\s*["']?-?\d{2,}|Math\.min\(\s*\d{2,}\s*,"""
)


def test_no_bare_limit_in_scripts():
    found = []
    for path in sorted((ROOT / "static" / "js").rglob("*.js")):
        rel = path.relative_to(ROOT).as_posix()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if SCRIPT_NUMBER.search(line):
                found.append(f"{rel}:{n}: {line.strip()[:120]}")
    assert not found, "read the limit from the page's config:\n" + "\n".join(found)


def test_the_action_deck_panel_gives_its_script_the_name_limit():
    assert sw_table_state.panel_config(None) == {"limits": {"name": sw_table_state.NAME_MAX}}


LIMIT_TAG = re.compile(r'\{%\s*limit\s+"([^"]+)"\s*%\}')


def test_every_limit_tag_names_a_whole_number():
    paths = set()
    for _name, path in _template_files():
        text = path.read_text(encoding="utf-8")
        found = LIMIT_TAG.findall(text)
        if found:
            assert re.search(r"\{% load [^%]*\blimits\b", text), f"{path}: load limits"
        paths.update(found)
    assert len(paths) > 20
    for dotted in sorted(paths):
        value = import_string(dotted)
        assert isinstance(value, int) and not isinstance(value, bool), dotted


def test_limit_tag_renders_the_constant_and_refuses_anything_else():
    page = Template('{% load limits %}{% limit "vtt.table.services.CHAT_MAX" %}')
    assert page.render(Context()) == str(table_services.CHAT_MAX)
    with pytest.raises(TemplateSyntaxError):
        Template('{% load limits %}{% limit "django.conf.settings" %}').render(Context())
    with pytest.raises(TemplateSyntaxError):
        Template('{% load limits %}{% limit "vtt.maps.services.CELL_PX" %}').render(Context())


# --- the services say the number they check --------------------------------------------------


def test_messages_carry_the_limit_they_check(settings):
    settings.LANGUAGE_CODE = "en"
    with pytest.raises(Invalid) as caught:
        core_commands.check_idempotency_key("k" * (core_commands.IDEMPOTENCY_KEY_MAX + 1))
    assert caught.value.code == "bad_key"
    assert str(core_commands.IDEMPOTENCY_KEY_MAX) in caught.value.message
    core_commands.check_idempotency_key("k" * core_commands.IDEMPOTENCY_KEY_MAX)

    with pytest.raises(Invalid) as caught:
        prep_services.clean_modifier(rolltables.MAX_MODIFIER + 1)
    assert caught.value.code == "bad_modifier"
    assert f"{rolltables.MAX_MODIFIER}" in caught.value.message
    assert prep_services.clean_modifier(-rolltables.MAX_MODIFIER) == -rolltables.MAX_MODIFIER

    with pytest.raises(Invalid) as caught:
        transfer.check_size(transfer.MAX_FILE + 1)
    assert caught.value.code == "import_too_large"


def test_the_initiative_service_checks_values_itself(table):
    campaign, referee = table.campaign, table.referee
    for value in (table_services.ENTRY_VALUE_MAX + 1, -table_services.ENTRY_VALUE_MAX - 1, "5"):
        with pytest.raises(Invalid):
            table_services.initiative_add(
                campaign=campaign, actor=referee, role="referee", name="Orc", value=value
            )
    entry = table_services.initiative_add(
        campaign=campaign,
        actor=referee,
        role="referee",
        name="n" * table_services.ENTRY_NAME_MAX,
        value=-table_services.ENTRY_VALUE_MAX,
    )
    assert entry.value == -table_services.ENTRY_VALUE_MAX


# --- the documented table --------------------------------------------------------------------

DOC_ROW = re.compile(r"^\|[^|]*\|\s*([\d\s ,./]+?)\s*\|\s*`([\w.]+)`", re.M)


def test_docs_limits_table_states_the_values_the_code_has():
    text = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    rows = DOC_ROW.findall(text)
    assert len(rows) >= 80
    for shown, dotted in rows:
        value = import_string(dotted)
        if isinstance(value, TokenBucket):
            value = f"{value.burst}/{value.per_second:g}"
        number = re.sub(r"[\s ,]", "", shown)
        assert str(value) == number, f"docs/limits.md: {dotted} is {value}, the table says {shown}"
