"""What a player reads must not show the plumbing (issue 18 item 9): rulebook line references
(``L154``), unfilled ``{placeholders}``, internal snake_case keys, and, on a Russian page, Latin
words other than a few names. Shared by the page test (tests/vtt/test_player_text.py) and the
browser pass over the demo tables (tests/e2e/test_player_text.py).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

LINE_REF = re.compile(r"\bL\d+\b")
# Edition notes of the rules digests («Травмы [изд.]»): where a rule comes from, for us.
SOURCE_NOTE = re.compile(r"\[(?:изд\.|published)\]")
PLACEHOLDER = re.compile(r"\{\w+\}|%\(\w+\)[sd]")
SNAKE = re.compile(r"(?<![\w./:#-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/.-])")
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*")
# Names a Russian page may show as they are: the rulesets' names, dice notation (2d6, 1d20+3,
# 4d6kh3, d8!, the Tales seed's Xd6), the product's name. Anything else in Latin letters on a
# Russian page is English that missed a translation, or a key.
ALLOWED_LATIN = {"Dungeon", "World", "Savage", "Worlds", "Crows", "VTT"}
# ...and names of formats and interfaces, the language switch's RU / EN.
ALLOWED_LATIN |= {"API", "JSON", "CSV", "PNG", "JPEG", "WebP", "RU", "EN"}
# The rulebooks' own letters: "свет X/Y", "+N", "кровавые существа A", "(U)".
SINGLE_CAPITAL = re.compile(r"[A-Z]")
DICE = re.compile(r"\b[\dX]*[dD]\d+(?:kh\d+|kl\d+|k\d+|!)*|\b\d+d\b", re.I)
# Text that is not prose: addresses, e-mail-like strings, hex tags (the browser tests' own
# names carry them).
NOT_PROSE = re.compile(r"https?://\S+|/[\w/.-]+/|\b(?=[a-f]*\d)[0-9a-f]{6,}\b|\S+@\S+")
VISIBLE_ATTRS = ("title", "placeholder", "aria-label", "alt")
# <code> holds what is typed as it is (a file's column headers), not prose.
SKIP_TAGS = {"script", "style", "noscript", "code"}


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class _Text(HTMLParser):
    """Text nodes and visible attributes. Inside a label store for the scripts (an element with
    ``data-k``) the ``{placeholders}`` are the script's to fill: they count as filled."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.stack: list[tuple[str, bool]] = []

    def _skipping(self) -> bool:
        return any(tag in SKIP_TAGS for tag, _ in self.stack)

    def _in_label(self) -> bool:
        return any(label for _, label in self.stack)

    def _add(self, text: str) -> None:
        self.parts.append(PLACEHOLDER.sub("1", text) if self._in_label() else text)

    def handle_starttag(self, tag: str, attrs) -> None:
        values = dict(attrs)
        if tag not in VOID:
            self.stack.append((tag, "data-k" in values))
        if self._skipping():
            return
        for name in VISIBLE_ATTRS:
            if values.get(name):
                self._add(values[name])
        if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
            self._add(values["value"])

    def handle_startendtag(self, tag: str, attrs) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        if not self._skipping() and data.strip():
            self._add(data.strip())


def visible_text(html_text: str) -> list[str]:
    """The text nodes and the visible attributes of a page, one string each."""
    parser = _Text()
    parser.feed(html_text)
    parser.close()
    return parser.parts


def problems(text: str, lang: str) -> list[str]:
    """What is wrong with one piece of player-facing text, as short descriptions."""
    found: list[str] = []
    for m in LINE_REF.finditer(text):
        found.append(f"line reference {m.group()!r}")
    for m in SOURCE_NOTE.finditer(text):
        found.append(f"source note {m.group()!r}")
    for m in PLACEHOLDER.finditer(text):
        found.append(f"unfilled placeholder {m.group()!r}")
    prose = PLACEHOLDER.sub(" ", LINE_REF.sub(" ", NOT_PROSE.sub(" ", text)))
    for m in SNAKE.finditer(prose):
        found.append(f"internal key {m.group()!r}")
    if lang == "ru":
        for m in LATIN_WORD.finditer(DICE.sub(" ", SNAKE.sub(" ", prose))):
            if m.group() not in ALLOWED_LATIN and not SINGLE_CAPITAL.fullmatch(m.group()):
                found.append(f"Latin word {m.group()!r}")
    return found


def scan(texts, lang: str, where: str) -> list[str]:
    """Every problem in a list of texts, each with where it was read and the text around it."""
    out = []
    for text in texts:
        for problem in problems(text, lang):
            out.append(f"{where}: {problem} in {text[:160]!r}")
    return out
