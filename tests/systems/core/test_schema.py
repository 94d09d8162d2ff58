"""The declarative field specs: describe() for forms, validate() for JSON state."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from systems.core.ruleset import RulesError
from systems.core.schema import (
    BoolField,
    Choice,
    ChoiceField,
    IntField,
    ListField,
    ObjectField,
    StrField,
    fail,
    validate,
)

SPEC = ObjectField(
    ru="Лист",
    en="Sheet",
    fields={
        "name": StrField(ru="Имя", en="Name", max_length=5),
        "hp": IntField(ru="ОЗ", en="HP", default=3, min=0, max=10),
        "alive": BoolField(ru="Жив", en="Alive", default=True),
        "kind": ChoiceField(
            ru="Вид", en="Kind", default="a", choices=(Choice("a", "А", "A"), Choice("b", "Б", "B"))
        ),
        "tags": ListField(ru="Метки", en="Tags", item=StrField(max_length=3), max_items=2),
        "inner": ObjectField(
            ru="Вложенный", en="Nested", fields={"x": IntField(ru="x", en="x", min=1, default=1)}
        ),
        "items": ListField(
            ru="Вещи",
            en="Items",
            max_items=3,
            item=ObjectField(
                ru="Вещь", en="Item", fields={"w": IntField(ru="Вес", en="Weight", min=0)}
            ),
        ),
        "maybe": IntField(ru="Может", en="Maybe", default=None, nullable=True),
        "need": StrField(ru="Нужно", en="Needed", default=None, required=True),
    },
)


def test_missing_fields_take_defaults_and_required_ones_error():
    clean = validate(SPEC, {"need": "x"})
    assert clean == {
        "name": "",
        "hp": 3,
        "alive": True,
        "kind": "a",
        "tags": [],
        "inner": {"x": 1},
        "items": [],
        "maybe": None,
        "need": "x",
    }
    with pytest.raises(RulesError) as err:
        validate(SPEC, {})
    assert list(err.value.errors) == ["need"]


def test_every_bad_field_is_reported_with_a_dotted_path_in_ru_and_en():
    bad = {
        "need": "x",
        "name": "toolong",
        "hp": 11,
        "alive": "maybe",
        "kind": "c",
        "tags": ["abcd"],
        "inner": {"x": 0},
        "items": [{"w": -1}],
        "extra": 1,
    }
    with pytest.raises(RulesError) as err:
        validate(SPEC, bad)
    errors = err.value.errors
    assert set(errors) == {"name", "hp", "alive", "kind", "tags.0", "inner.x", "items.0.w", "extra"}
    for messages in errors.values():
        assert messages[0]["ru"] and messages[0]["en"]
    assert "10" in errors["hp"][0]["en"]


def test_type_errors_and_form_coercion():
    assert validate(IntField(), "7") == 7
    assert validate(IntField(), " -2 ") == -2
    assert validate(IntField(), 4.0) == 4
    assert validate(BoolField(), "on") is True and validate(BoolField(), "нет") is False
    for bad in (True, "x", 1.5, None, [1]):
        with pytest.raises(RulesError):
            validate(IntField(), bad)
    with pytest.raises(RulesError):
        validate(BoolField(), 1)
    with pytest.raises(RulesError):
        validate(ListField(max_items=1), ["a", "b"])
    with pytest.raises(RulesError):
        validate(ListField(min_items=1), [])
    with pytest.raises(RulesError):
        validate(ObjectField(fields={}), [])
    with pytest.raises(RulesError):
        validate(StrField(), 5)


def test_string_check_hook():
    spec = StrField(check=lambda v: None if v.isalpha() else {"ru": "буквы", "en": "letters"})
    assert validate(spec, "abc") == "abc"
    with pytest.raises(RulesError) as err:
        validate(spec, "a1")
    assert err.value.errors["__all__"][0]["en"] == "letters"


def test_describe_is_json_with_labels_limits_and_defaults():
    d = SPEC.describe()
    json.dumps(d, ensure_ascii=False)
    assert d["type"] == "object" and d["ru"] == "Лист"
    hp = d["fields"]["hp"]
    assert (hp["type"], hp["min"], hp["max"], hp["default"], hp["en"]) == ("int", 0, 10, 3, "HP")
    assert d["fields"]["kind"]["choices"][1] == {"key": "b", "ru": "Б", "en": "B"}
    assert d["fields"]["tags"]["item"]["max_length"] == 3
    assert d["fields"]["need"]["required"] is True
    assert d["fields"]["maybe"]["nullable"] is True


def test_choice_default_must_be_a_choice():
    with pytest.raises(ValueError):
        ChoiceField(default="z", choices=(Choice("a", "А", "A"),))


def test_fail_builds_a_field_error():
    err = fail("hp", "плохо", "bad")
    assert err.errors == {"hp": [{"ru": "плохо", "en": "bad"}]}
    assert str(err) == "bad"


@given(
    st.dictionaries(
        st.sampled_from(["name", "hp", "tags", "inner", "need"]),
        st.one_of(
            st.integers(-5, 15), st.text(max_size=6), st.lists(st.text(max_size=4), max_size=3)
        ),
    )
)
def test_validate_never_mutates_and_returns_a_copy(data):
    before = copy.deepcopy(data)
    try:
        clean = validate(SPEC, data)
    except RulesError:
        clean = None
    assert data == before
    if clean is not None:
        assert validate(SPEC, clean) == clean  # cleaning is idempotent
        if "tags" in data:
            assert clean["tags"] is not data["tags"]


def test_move_spec_rejects_parameter_names_resolve_owns():
    from systems.core.outcome import Text
    from systems.core.schema import MoveSpec

    with pytest.raises(ValueError):
        MoveSpec(
            key="x",
            ru="x",
            en="x",
            trigger=Text("", ""),
            source="",
            params=ObjectField(fields={"move": StrField()}),
        )
    spec = MoveSpec(
        key="x",
        ru="икс",
        en="x",
        trigger=Text("т", "t"),
        source="«Ходы»",
        params=ObjectField(fields={"n": IntField(ru="н", en="n")}),
    )
    assert spec.describe()["params"]["n"]["type"] == "int"
