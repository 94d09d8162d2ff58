"""DRF's ``serializers`` module with strict fields: every app's ``api.py`` imports this one.

DRF coerces by default: ``CharField`` stores ``123`` as ``"123"``, ``BooleanField`` reads
``"yes"`` as true, ``IntegerField`` reads ``"5"``, ``5.0`` and a full-width ``"５"`` as 5. A
JSON body says what type it means, so here a string field takes a string, a boolean a boolean
and a number a number (never a boolean). An HTML form or multipart body only has strings, so
there the number fields take ASCII digits and the boolean fields DRF's words, as before.

Lists are capped before their items are looked at (DRF checks ``max_length`` after validating
every item, so a 250,000-item list cost seconds and a 24 MB error body), and a list or a dict
reports at most ``MAX_ERRORS`` item errors and how many more there were."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers as drf
from rest_framework.exceptions import ValidationError
from rest_framework.serializers import *  # noqa: F403 (this module stands in for DRF's)
from rest_framework.utils import html

from vtt.core.errors import MAX_ERRORS

# How much of a refused value an error message may quote.
QUOTE_MAX = 40

_ASCII_INT = re.compile(r"[-+]?[0-9]+")
_ASCII_NUMBER = re.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


def from_form(field: drf.Field) -> bool:
    """True when the body is an HTML form or multipart (only strings there), not JSON."""
    return html.is_html_input(getattr(field.root, "initial_data", None))


def quote(value: Any) -> str:
    """A refused value, short, as an error message may show it."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= QUOTE_MAX else text[: QUOTE_MAX - 1] + "…"


def capped(errors: dict[Any, Any], more: int) -> ValidationError:
    """The first item errors and how many more there were (``"more": <n>``, as
    ``vtt.core.errors.capped_body`` counts what it leaves out), as one ValidationError."""
    if more:
        errors["more"] = more
    return ValidationError(errors)


class CharField(drf.CharField):
    """Only a string (DRF also takes numbers and stores their text)."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)

    def run_validation(self, data: Any = drf.empty) -> Any:
        # DRF's blank check calls str() on anything: let a wrong type read as wrong first.
        if data is not drf.empty and data is not None and not isinstance(data, str):
            self.fail("invalid")
        return super().run_validation(data)


class BooleanField(drf.BooleanField):
    """``true`` or ``false`` in JSON (DRF also takes ``"yes"``, ``"on"``, ``1``…)."""

    def to_internal_value(self, data: Any) -> bool | None:
        if from_form(self):
            return super().to_internal_value(data)
        if isinstance(data, bool):
            return data
        self.fail("invalid", input=data)


class IntegerField(drf.IntegerField):
    """A JSON integer, never a boolean, a float or a string; in a form, ASCII digits."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, int) and not isinstance(data, bool):
            return data
        if isinstance(data, str) and from_form(self):
            text = data.strip()
            if len(text) <= self.MAX_STRING_LENGTH and _ASCII_INT.fullmatch(text):
                return int(text)
        self.fail("invalid")


class FloatField(drf.FloatField):
    """A JSON number (not a boolean or a string); in a form, an ASCII decimal."""

    def to_internal_value(self, data: Any) -> float:
        if isinstance(data, bool) or not isinstance(data, int | float | str):
            self.fail("invalid")
        if isinstance(data, str) and not (
            from_form(self) and _ASCII_NUMBER.fullmatch(data.strip())
        ):
            self.fail("invalid")
        return super().to_internal_value(data)


class DecimalField(drf.DecimalField):
    """A number, or a string of ASCII digits (DRF writes decimals as strings), never a
    boolean or full-width digits."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, bool) or not isinstance(data, int | float | str):
            self.fail("invalid")
        if isinstance(data, str) and not _ASCII_NUMBER.fullmatch(data.strip()):
            self.fail("invalid")
        return super().to_internal_value(data)


class ChoiceField(drf.ChoiceField):
    """One of the choices, of the choices' own type (``1`` is not the choice ``"1"``), and an
    error that quotes at most ``QUOTE_MAX`` characters of what was sent."""

    def to_internal_value(self, data: Any) -> Any:
        if data == "" and self.allow_blank:
            return ""
        keys = list(self.choice_strings_to_values.values())
        typed = isinstance(data, str) if all(isinstance(k, str) for k in keys) else True
        if isinstance(data, bool) or not isinstance(data, str | int) or not typed:
            self.fail("invalid_choice", input=quote(data))
        try:
            return self.choice_strings_to_values[str(data)]
        except KeyError:
            self.fail("invalid_choice", input=quote(data))


class MultipleChoiceField(drf.MultipleChoiceField):
    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str) or not hasattr(data, "__iter__"):
            self.fail("not_a_list", input_type=type(data).__name__)
        return super().to_internal_value(data)


class ListField(drf.ListField):
    """DRF's ListField, but the length is checked before any item (a list far over the cap
    costs nothing), and at most ``MAX_ERRORS`` item errors are reported."""

    def to_internal_value(self, data: Any) -> list[Any]:
        if isinstance(data, list) and self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        if not isinstance(data, list) and not from_form(self):
            self.fail("not_a_list", input_type=type(data).__name__)
        return super().to_internal_value(data)

    def run_child_validation(self, data: list[Any]) -> list[Any]:
        result, errors, more = [], {}, 0
        for index, item in enumerate(data):
            try:
                result.append(self.child.run_validation(item))
            except ValidationError as exc:
                if len(errors) < MAX_ERRORS:
                    errors[index] = exc.detail
                else:
                    more += 1
        if errors:
            raise capped(errors, more)
        return result


class DictField(drf.DictField):
    """DRF's DictField with an optional ``max_length`` (keys), checked before any value, and
    at most ``MAX_ERRORS`` value errors reported."""

    default_error_messages = {
        "max_length": _("Ensure this field has no more than {max_length} keys."),
    }

    def __init__(self, **kwargs: Any) -> None:
        self.max_length = kwargs.pop("max_length", None)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if isinstance(data, dict) and self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return super().to_internal_value(data)

    def run_child_validation(self, data: dict[Any, Any]) -> dict[str, Any]:
        result, errors, more = {}, {}, 0
        for key, value in data.items():
            try:
                result[str(key)] = self.child.run_validation(value)
            except ValidationError as exc:
                if len(errors) < MAX_ERRORS:
                    errors[str(key)] = exc.detail
                else:
                    more += 1
        if errors:
            raise capped(errors, more)
        return result


class ModelSerializer(drf.ModelSerializer):
    """Model fields become the strict fields above."""

    serializer_field_mapping = {
        **drf.ModelSerializer.serializer_field_mapping,
        **{
            model_field: {
                drf.CharField: CharField,
                drf.BooleanField: BooleanField,
                drf.IntegerField: IntegerField,
                drf.FloatField: FloatField,
                drf.DecimalField: DecimalField,
                drf.ListField: ListField,
            }[field]
            for model_field, field in drf.ModelSerializer.serializer_field_mapping.items()
            if field
            in (
                drf.CharField,
                drf.BooleanField,
                drf.IntegerField,
                drf.FloatField,
                drf.DecimalField,
                drf.ListField,
            )
        },
    }
    serializer_choice_field = ChoiceField
