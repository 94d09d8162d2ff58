"""Declarative field specs for character sheets, NPC blocks, move parameters and settings.

One spec serves two purposes, so forms and validation can never drift apart:

* ``spec.describe()`` gives JSON for the UI (type, limits, choices, ru/en labels, default);
* ``validate(spec, data)`` returns a cleaned deep copy or raises ``RulesError`` whose
  ``errors`` map a dotted path (``"stats.str"``, ``"bonds.0.text"``) to ru/en messages.

Values are coerced only where HTML forms need it (``"3"`` to ``3``, ``"on"`` to ``True``);
everything else must already have the right JSON type.

``MoveSpec``/``OptionSet`` describe a move the same way: name, trigger, parameters (an
``ObjectField``), results per band and the options someone must pick.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from systems.core.outcome import Option, Text
from systems.core.ruleset import RulesError

ErrorMap = dict[str, list[dict[str, str]]]
_MISSING = object()


def msg(ru: str, en: str) -> dict[str, str]:
    """One error message in both UI languages."""
    return {"ru": ru, "en": en}


def _add(errors: ErrorMap, path: str, message: dict[str, str]) -> None:
    errors.setdefault(path or "__all__", []).append(message)


@dataclass(frozen=True)
class Choice:
    """One allowed value of a ``ChoiceField`` with its ru/en label."""

    key: str
    ru: str
    en: str

    def as_dict(self) -> dict[str, str]:
        return {"key": self.key, "ru": self.ru, "en": self.en}


@dataclass(frozen=True, kw_only=True)
class Field:
    """Base spec: a label in both languages, a default and whether ``None`` is allowed."""

    ru: str = ""
    en: str = ""
    default: Any = None
    nullable: bool = False
    required: bool = False
    help_ru: str = ""
    help_en: str = ""
    # Show the field only while other top-level fields hold these values (``{"wild_card":
    # True}``): a hint for generated forms; validation ignores it.
    show_if: Mapping[str, Any] | None = None
    # A value the rules use but nobody reads (a stat's key): forms keep it, never show it.
    internal: bool = False
    # Text in one language ("ru" or "en"): shown only to readers of that language.
    lang: str | None = None

    type_name = "any"

    def describe(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type_name, "ru": self.ru, "en": self.en}
        data["default"] = self.default_value()
        if self.nullable:
            data["nullable"] = True
        if self.required:
            data["required"] = True
        if self.help_ru or self.help_en:
            data["help"] = {"ru": self.help_ru, "en": self.help_en}
        if self.show_if:
            data["show_if"] = dict(self.show_if)
        if self.internal:
            data["internal"] = True
        if self.lang:
            data["lang"] = self.lang
        data.update(self._describe_extra())
        return data

    def _describe_extra(self) -> dict[str, Any]:
        return {}

    def default_value(self) -> Any:
        return copy.deepcopy(self.default)

    def clean(self, value: Any, path: str, errors: ErrorMap) -> Any:
        if value is None:
            if self.nullable:
                return None
            _add(errors, path, msg("Значение обязательно.", "A value is required."))
            return None
        return self._clean(value, path, errors)

    def _clean(self, value: Any, path: str, errors: ErrorMap) -> Any:
        return copy.deepcopy(value)


@dataclass(frozen=True, kw_only=True)
class IntField(Field):
    """An integer with optional bounds; ``bool`` is rejected even though Python allows it."""

    default: Any = 0
    min: int | None = None
    max: int | None = None

    type_name = "int"

    def _describe_extra(self) -> dict[str, Any]:
        return {"min": self.min, "max": self.max}

    def _clean(self, value: Any, path: str, errors: ErrorMap) -> Any:
        if isinstance(value, str):
            text = value.strip()
            if text.lstrip("+-").isdigit() and len(text) <= 12:
                value = int(text)
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            _add(errors, path, msg("Ожидается целое число.", "Expected an integer."))
            return None
        if self.min is not None and value < self.min:
            _add(errors, path, msg(f"Не меньше {self.min}.", f"Must be at least {self.min}."))
        if self.max is not None and value > self.max:
            _add(errors, path, msg(f"Не больше {self.max}.", f"Must be at most {self.max}."))
        return value


@dataclass(frozen=True, kw_only=True)
class StrField(Field):
    """Text with a length cap; ``check`` may return an extra error message for the value."""

    default: Any = ""
    max_length: int = 200
    check: Callable[[str], dict[str, str] | None] | None = None
    # The key of a list on the sheet whose entries ({key, ru, en}) a form offers as the
    # values (a move's stat is one of the sheet's own stats); the rules still check the value.
    choices_from: str = ""

    type_name = "str"

    def _describe_extra(self) -> dict[str, Any]:
        extra: dict[str, Any] = {"max_length": self.max_length}
        if self.choices_from:
            extra["choices_from"] = self.choices_from
        return extra

    def _clean(self, value: Any, path: str, errors: ErrorMap) -> Any:
        if not isinstance(value, str):
            _add(errors, path, msg("Ожидается строка.", "Expected a string."))
            return None
        value = value.strip()
        if len(value) > self.max_length:
            _add(
                errors,
                path,
                msg(
                    f"Не длиннее {self.max_length} символов.",
                    f"At most {self.max_length} characters.",
                ),
            )
        elif self.check is not None:
            problem = self.check(value)
            if problem:
                _add(errors, path, problem)
        return value


@dataclass(frozen=True, kw_only=True)
class BoolField(Field):
    """A yes/no flag; accepts the strings an HTML checkbox or select may send."""

    default: Any = False

    type_name = "bool"
    _TRUE = frozenset({"true", "on", "1", "yes", "да"})
    _FALSE = frozenset({"false", "off", "0", "no", "нет", ""})

    def _clean(self, value: Any, path: str, errors: ErrorMap) -> Any:
        if isinstance(value, str):
            low = value.strip().lower()
            if low in self._TRUE:
                return True
            if low in self._FALSE:
                return False
        if isinstance(value, bool):
            return value
        _add(errors, path, msg("Ожидается да или нет.", "Expected true or false."))
        return None


@dataclass(frozen=True, kw_only=True)
class ChoiceField(Field):
    """One key out of a fixed list of ``Choice`` items."""

    choices: tuple[Choice, ...] = ()

    type_name = "choice"

    def __post_init__(self) -> None:
        if self.default is not None and self.default not in self.keys():
            raise ValueError(f"default {self.default!r} is not among the choices")

    def keys(self) -> tuple[str, ...]:
        return tuple(c.key for c in self.choices)

    def label(self, key: str) -> Choice:
        for choice in self.choices:
            if choice.key == key:
                return choice
        raise KeyError(key)

    def _describe_extra(self) -> dict[str, Any]:
        return {"choices": [c.as_dict() for c in self.choices]}

    def _clean(self, value: Any, path: str, errors: ErrorMap) -> Any:
        if not isinstance(value, str) or value not in self.keys():
            _add(
                errors,
                path,
                msg(f"Недопустимое значение «{value}».", f"Not an allowed value: {value!r}."),
            )
            return None
        return value


@dataclass(frozen=True, kw_only=True)
class ListField(Field):
    """A list of items of one spec, at most ``max_items`` long (JSON state stays bounded)."""

    item: Field = field(default_factory=lambda: StrField())
    max_items: int = 50
    min_items: int = 0
    default: Any = field(default_factory=list)

    type_name = "list"

    def _describe_extra(self) -> dict[str, Any]:
        return {
            "item": self.item.describe(),
            "max_items": self.max_items,
            "min_items": self.min_items,
        }

    def _clean(self, value: Any, path: str, errors: ErrorMap) -> Any:
        if not isinstance(value, list | tuple):
            _add(errors, path, msg("Ожидается список.", "Expected a list."))
            return None
        if len(value) > self.max_items:
            _add(
                errors,
                path,
                msg(
                    f"Не больше {self.max_items} элементов.",
                    f"At most {self.max_items} items.",
                ),
            )
            return None
        if len(value) < self.min_items:
            _add(
                errors,
                path,
                msg(
                    f"Не меньше {self.min_items} элементов.",
                    f"At least {self.min_items} items.",
                ),
            )
        return [
            self.item.clean(v, f"{path}.{i}" if path else str(i), errors)
            for i, v in enumerate(value)
        ]


@dataclass(frozen=True, kw_only=True)
class ObjectField(Field):
    """A fixed set of named fields; missing ones take their default, unknown ones are errors."""

    fields: Mapping[str, Field] = field(default_factory=dict)
    default: Any = None

    type_name = "object"

    def default_value(self) -> Any:
        if self.default is not None or self.nullable:
            return copy.deepcopy(self.default)
        return {name: spec.default_value() for name, spec in self.fields.items()}

    def describe(self) -> dict[str, Any]:
        data = super().describe()
        data.pop("default", None)
        return data

    def _describe_extra(self) -> dict[str, Any]:
        return {"fields": {name: spec.describe() for name, spec in self.fields.items()}}

    def _clean(self, value: Any, path: str, errors: ErrorMap) -> Any:
        if not isinstance(value, Mapping):
            _add(errors, path, msg("Ожидается объект.", "Expected an object."))
            return None
        out: dict[str, Any] = {}
        for name in value:
            if name not in self.fields:
                _add(
                    errors,
                    f"{path}.{name}" if path else str(name),
                    msg("Неизвестное поле.", "Unknown field."),
                )
        for name, spec in self.fields.items():
            sub = f"{path}.{name}" if path else name
            raw = value.get(name, _MISSING)
            if raw is _MISSING and spec.required:
                _add(errors, sub, msg("Обязательное поле.", "This field is required."))
                out[name] = None
            elif raw is _MISSING:
                out[name] = spec.default_value()
            else:
                out[name] = spec.clean(raw, sub, errors)
        return out


def validate(spec: Field, data: Any, *, path: str = "") -> Any:
    """Return a cleaned deep copy of ``data`` or raise ``RulesError`` with every field error."""
    errors: ErrorMap = {}
    cleaned = spec.clean(data, path, errors)
    if errors:
        raise RulesError(errors)
    return cleaned


def fail(path: str, ru: str, en: str) -> RulesError:
    """Build a one-field ``RulesError`` (for rule checks that need more than one field)."""
    return RulesError({path or "__all__": [msg(ru, en)]})


# --- moves -----------------------------------------------------------------------------------

PLAYER = "player"
REFEREE = "referee"
# The other player in a fight between player characters: the table resolves it to the player
# of the character the move names as its other side (its ``target``).
OPPONENT = "opponent"
# ``resolve(move, state, *, dice, settings=..., choices=..., **params)`` owns these names.
RESERVED_PARAMS = frozenset({"move", "state", "dice", "settings", "choices"})


@dataclass(frozen=True, kw_only=True)
class SheetField(ObjectField):
    """A whole character sheet as a parameter. It validates like the sheet but describes
    itself as ``{"type": "sheet"}`` (the schema is ``describe()["sheet"]``), so the move list
    does not repeat the sheet's schema for every such parameter."""

    type_name = "sheet"

    def _describe_extra(self) -> dict[str, Any]:
        return {"ref": "sheet"}


@dataclass(frozen=True)
class OptionSet:
    """What a band asks someone to choose: ``pick`` options from ``options``."""

    pick: int
    chooser: str
    options: tuple[Option, ...]
    repeat: bool = False  # the same option may be picked more than once

    def describe(self) -> dict[str, Any]:
        return {
            "pick": self.pick,
            "chooser": self.chooser,
            "repeat": self.repeat,
            "options": [o.as_dict() for o in self.options],
        }


@dataclass(frozen=True)
class MoveSpec:
    """One move or sheet action as the UI and the rules both see it."""

    key: str
    ru: str
    en: str
    trigger: Text
    source: str
    kind: str = "move"  # "move" (a rulebook move) or "action" (sheet bookkeeping)
    subject: str = "character"  # whose state ``resolve`` takes: "character" or "npc"
    roll: str | None = None  # how it rolls (a stat key or a ruleset word); None: no roll
    params: ObjectField = field(default_factory=lambda: ObjectField(fields={}))
    results: dict[str, Text] = field(default_factory=dict)
    options: dict[str, OptionSet] = field(default_factory=dict)
    hold: OptionSet | None = None

    def __post_init__(self) -> None:
        clash = RESERVED_PARAMS & set(self.params.fields)
        if clash:
            raise ValueError(f"{self.key}: parameter names {sorted(clash)} are reserved")

    def describe(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "key": self.key,
            "ru": self.ru,
            "en": self.en,
            "trigger": self.trigger.as_dict(),
            "kind": self.kind,
            "subject": self.subject,
            "roll": self.roll,
            "params": self.params.describe()["fields"],
            "results": {band: text.as_dict() for band, text in self.results.items()},
            "options": {band: o.describe() for band, o in self.options.items()},
        }
        if self.hold is not None:
            data["hold"] = self.hold.describe()
        return data
