"""Every ruleset's ``describe()`` reaches browsers (the sheet page, the rules API): rulebook
line references stay in the code and the tests (issue 18 item 9)."""

from __future__ import annotations

import json

import pytest

from systems import RULESETS, get_ruleset
from tests.playertext import LINE_REF


@pytest.mark.parametrize("key", [info.key for info in RULESETS])
def test_describe_sends_no_line_reference(key):
    described = get_ruleset(key).describe()
    text = json.dumps(described, ensure_ascii=False)
    assert not LINE_REF.findall(text)
    assert "shared/seeds" not in text
