"""Import and export: JSON and CSV round trips, spreadsheet habits (BOM, semicolons,
Windows-1251, Russian headers), and bad files refused with a clear 400 and nothing saved."""

from __future__ import annotations

import io
import json

import pytest
from django.utils import translation

from tests.vtt.prep.conftest import simple_table
from vtt.campaigns import services as campaign_services
from vtt.prep import services, transfer
from vtt.prep.models import RandomTable

pytestmark = pytest.mark.usefixtures("english")

IMPORT = "/api/campaigns/{}/prep/tables/import/"
EXPORT_ALL = "/api/campaigns/{}/prep/tables/export/?format={}"
EXPORT_ONE = "/api/campaigns/{}/prep/tables/{}/export/?format={}"


def fixture_tables(campaign):
    services.table_create(
        campaign=campaign,
        data={
            "key": "trap",
            "name": "Ловушки, ямы и «шипы»",
            "formula": "1d4",
            "note": "Строка 1\nстрока 2",
            "entries": [
                {"min": 1, "max": 2, "text": "Дротик; яд"},
                {"min": 3, "max": 4, "text": 'Яма, "глубокая"', "amount": "1d10+3", "unit": "м"},
            ],
        },
    )
    services.table_create(
        campaign=campaign,
        data={
            "key": "room",
            "name": "Комната",
            "formula": "1d6",
            "entries": [
                {"min": 1, "max": 4, "text": "Пусто", "key": "empty"},
                {"min": 5, "max": 6, "text": "Ловушка", "roll": ["trap"]},
            ],
        },
    )
    services.table_create(
        campaign=campaign,
        data={
            "key": "wind",
            "name": "Ветер",
            "formula": "x",
            "weights": True,
            "entries": [{"weight": 5, "text": "Штиль"}, {"weight": 1, "text": "Буря"}],
        },
    )
    services.table_create(
        campaign=campaign,
        data={
            "key": "miasma",
            "name": "Миазма",
            "formula": "1d10",
            "modifier_label": "жестокость",
            "entries": [
                {"min": 1, "max": 12, "text": "Эффект"},
                {"min": 13, "max": 13, "text": "13+"},
            ],
        },
    )


def other_campaign(table):
    return campaign_services.campaign_create(user=table.referee, name="B", ruleset="tales")


def data_of(campaign) -> dict:
    return {t.key: t.as_data() for t in RandomTable.objects.filter(campaign=campaign)}


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_round_trip_through_the_api(table, api_for, fmt):
    fixture_tables(table.campaign)
    client = api_for(table.referee)
    response = client.get(EXPORT_ALL.format(table.campaign.pk, fmt))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="tables.{fmt}"'
    body = response.content
    target = other_campaign(table)
    upload = io.BytesIO(body)
    upload.name = f"tables.{fmt}"
    imported = client.post(IMPORT.format(target.pk), {"file": upload}, format="multipart")
    assert imported.status_code == 201, imported.content
    assert data_of(target) == data_of(table.campaign)


def test_single_table_export_carries_its_nested_tables(table, api_for):
    fixture_tables(table.campaign)
    room = RandomTable.objects.get(key="room")
    response = api_for(table.referee).get(EXPORT_ONE.format(table.campaign.pk, room.pk, "json"))
    data = json.loads(response.content)
    assert data["format"] == "vtt-tables" and data["format_version"] == 1
    assert [t["key"] for t in data["tables"]] == ["room", "trap"]
    csv_text = (
        api_for(table.referee)
        .get(EXPORT_ONE.format(table.campaign.pk, room.pk, "csv"))
        .content.decode("utf-8-sig")
    )
    assert csv_text.splitlines()[0] == (
        "table,name,formula,modifier,note,min,max,weight,text,roll,amount,unit,key"
    )
    assert "room,Комната,1d6,,,1,4,,Пусто,,,,empty" in csv_text


def test_json_body_import(table, api_for):
    client = api_for(table.referee)
    response = client.post(
        IMPORT.format(table.campaign.pk), {"tables": [simple_table()]}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["tables"][0]["key"] == "loot"


def test_the_library_shape_imports_in_the_importers_language(table):
    raw = {
        "key": "omen",
        "name": {"ru": "Знамение", "en": "Omen"},
        "formula": "1d2",
        "entries": [
            {"min": 1, "max": 1, "text": {"ru": "Ворон", "en": "A raven"}, "roll_on": "omen2"},
            {"min": 2, "max": 2, "text": {"ru": "Тишина", "en": "Silence"}},
        ],
    }
    with translation.override("ru"):
        (parsed,) = transfer.tables_from_data(raw, lang="ru")
    assert parsed["name"] == "Знамение"
    assert parsed["entries"][0] == {"min": 1, "max": 1, "text": "Ворон", "roll": ["omen2"]}


def test_a_spreadsheet_csv_of_one_table(table):
    text = transfer.decode("От;До;Текст\r\n1;2;Волки\r\n3;3;Медведь\r\n".encode("cp1251"))
    (parsed,) = transfer.parse_csv(text, filename="Встречи.csv")
    assert parsed["key"] == "встречи" and parsed["name"] == "Встречи"
    assert parsed["formula"] == "1d3"
    (saved,) = services.tables_import(campaign=table.campaign, tables=[parsed])
    assert [e["text"] for e in saved.entries] == ["Волки", "Медведь"]


def test_csv_ranges_and_weights_columns(table):
    (ranged,) = transfer.parse_csv("range,text\n1-2,a\n3–4,b\n5,c\n6,d\n", key="r", formula="1d6")
    assert [(e["min"], e["max"]) for e in ranged["entries"]] == [
        ("1", "2"),
        ("3", "4"),
        ("5", "5"),
        ("6", "6"),
    ]
    (weighted,) = transfer.parse_csv("weight,text\n2,a\n1,b\n", key="w")
    assert weighted["weights"] is True
    saved = services.tables_import(campaign=table.campaign, tables=[ranged, weighted])
    assert [t.formula for t in saved] == ["1d6", "1d3"]


BAD_FILES = [
    ("bad.json", b'{"tables": [', 400, "import_bad_json", "The file is not valid JSON (line 1)."),
    ("bad.json", b'{"format": "other", "tables": []}', 400, "import_bad_format", None),
    ("bad.json", b'"just a string"', 400, "import_bad_format", None),
    ("empty.csv", b"   ", 400, "import_empty", "The file is empty."),
    ("bin.csv", b"min,max\x00", 400, "import_not_text", "This is not a text file."),
    (
        "cols.csv",
        b"min,max,txt\n1,6,a\n",
        400,
        "import_bad_header",
        "Unknown column \u201ctxt\u201d. Known columns: table, name, formula, modifier, note, "
        "min, max, weight, text, roll, amount, unit, key, range.",
    ),
    (
        "head.csv",
        b"a\n",
        400,
        "import_bad_header",
        None,
    ),
    ("gap.csv", b"min,max,text\n1,2,a\n4,6,b\n", 400, "table_gap", None),
    ("range.csv", b"range,text\n1-x,a\n", 400, "import_bad_csv", None),
    (
        "loop.json",
        json.dumps(
            [
                simple_table("a", entries=[{"min": 1, "max": 6, "text": "x", "roll": ["b"]}]),
                simple_table("b", entries=[{"min": 1, "max": 6, "text": "y", "roll": ["a"]}]),
            ]
        ).encode(),
        400,
        "table_cycle",
        "Nested rolls form a loop: a → b → a.",
    ),
    (
        "dupe.json",
        json.dumps([simple_table(), simple_table()]).encode(),
        400,
        "import_duplicate_key",
        "The file has several tables with the key “loot”.",
    ),
    ("big.json", b" " * (transfer.MAX_FILE + 1), 400, "import_too_large", None),
]


@pytest.mark.parametrize(("name", "body", "status", "code", "message"), BAD_FILES)
def test_bad_files_are_a_clear_400_and_nothing_is_saved(
    table, api_for, name, body, status, code, message
):
    table.referee.language = "en"  # the API answers in the user's language
    table.referee.save(update_fields=["language"])
    upload = io.BytesIO(body)
    upload.name = name
    response = api_for(table.referee).post(
        IMPORT.format(table.campaign.pk), {"file": upload}, format="multipart"
    )
    assert response.status_code == status, response.content
    assert response.json()["code"] == code
    if message:
        assert response.json()["detail"] == message
    assert RandomTable.objects.count() == 0


def test_csv_export_of_weights_and_modifier(table):
    fixture_tables(table.campaign)
    pool = {t.key: t.as_data() for t in RandomTable.objects.all()}
    text = transfer.export_csv([pool["wind"], pool["miasma"]])
    lines = text.splitlines()
    assert lines[1] == "wind,Ветер,1d6,,,,,5,Штиль,,,,"
    assert lines[3] == "miasma,Миазма,1d10,жестокость,,1,12,,Эффект,,,,"
