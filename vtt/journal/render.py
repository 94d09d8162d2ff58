"""Markdown to safe HTML: markdown-it-py renders (raw HTML off), nh3 sanitises what it made.

``[[Title]]`` links to the entry of that title when the reader may see it; otherwise it stays
plain text, so a link never tells a player that an unshared entry exists.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import nh3
from markdown_it import MarkdownIt

LINK_RE = re.compile(r"\[\[([^\[\]\n]{1,200})\]\]")
ALLOWED_TAGS = frozenset(
    {
        "a", "blockquote", "br", "code", "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "li",
        "ol", "p", "pre", "strong", "table", "tbody", "td", "th", "thead", "tr", "ul", "del",
    }
)  # fmt: skip
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "td": {"align"}, "th": {"align"}}

_md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")


def to_html(text: str, link: Callable[[str], str | None]) -> str:
    """``link(title)`` answers the URL of a visible entry of that title, or None."""

    def repl(match: re.Match) -> str:
        title = match.group(1).strip()
        url = link(title)
        label = title.replace("[", "\\[").replace("]", "\\]")
        return f"[{label}]({url})" if url else label

    html = _md.render(LINK_RE.sub(repl, text or ""))
    return nh3.clean(
        html,
        tags=set(ALLOWED_TAGS),
        attributes={k: set(v) for k, v in ALLOWED_ATTRIBUTES.items()},
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer",
    )
