"""static/js/lib (dom, format, i18n, toast) and sha256.js, imported into a bare page."""

from __future__ import annotations

import hashlib
import json

import pytest
from django.test import Client
from django.urls import reverse


def run(page, body: str, arg=None):
    """Evaluate ``body`` (an async function body with ``arg``) in the page."""
    return page.evaluate(f"async (arg) => {{ {body} }}", arg)


def test_h_builds_elements_with_attributes_properties_and_children(open_page):
    page = open_page()
    html = run(
        page,
        """
        const { h } = await import("/static/js/lib/dom.js");
        const node = h("label", {
          class: "field", for: "x", "data-seq": 3, "aria-hidden": true, title: "t",
          hidden: false, skipped: null, tabindex: 0,
        }, ["a ", h("input", { type: "number", value: "5", disabled: true }), null, false, "b"]);
        const input = node.querySelector("input");
        return [node.outerHTML, input.value, input.disabled];
        """,
    )
    outer, value, disabled = html
    assert outer.startswith('<label class="field" for="x" data-seq="3" aria-hidden="" title="t"')
    assert 'tabindex="0"' in outer and " hidden" not in outer and "skipped" not in outer
    assert outer.endswith('>a <input type="number" disabled="">b</label>')  # value: a property
    assert value == "5" and disabled is True


def test_h_text_is_never_parsed_as_markup(open_page):
    page = open_page()
    got = run(
        page,
        """
        const { h } = await import("/static/js/lib/dom.js");
        return h("p", { text: "<b>x</b>" }, ["<i>y</i>"]).innerHTML;
        """,
    )
    assert got == "&lt;b&gt;x&lt;/b&gt;&lt;i&gt;y&lt;/i&gt;"


def test_clear_append_and_json_script(open_page):
    page = open_page()
    got = run(
        page,
        """
        const { append, clear, h, jsonScript } = await import("/static/js/lib/dom.js");
        const box = append(h("div"), ["one", h("span", { text: "two" })]);
        const before = box.childNodes.length;
        clear(box);
        const script = h("script", { type: "application/json", id: "cfg" });
        script.textContent = JSON.stringify({ a: [1, "б"] });
        document.body.appendChild(script);
        return [before, box.childNodes.length, jsonScript("cfg"), jsonScript("none")];
        """,
    )
    assert got == [2, 0, {"a": [1, "б"]}, None]


@pytest.mark.parametrize(
    ("text", "values", "expected"),
    [
        ("{n} of {max}", {"n": 2, "max": 5}, "2 of 5"),
        ("{n} and {unknown}", {"n": 0}, "0 and {unknown}"),
        ("{gone}", {"gone": None}, "null"),
        ("{undef}", {}, "{undef}"),
        ("no placeholders", None, "no placeholders"),
    ],
)
def test_fmt(open_page, text, values, expected):
    page = open_page()
    got = run(
        page,
        'const { fmt } = await import("/static/js/lib/format.js"); return fmt(arg[0], arg[1]);',
        [text, values],
    )
    assert got == expected


def test_signed_and_localized(open_page):
    page = open_page()
    got = run(
        page,
        """
        const { signed } = await import("/static/js/lib/format.js");
        const { localized } = await import("/static/js/lib/i18n.js");
        return [signed(2), signed(-1), signed(0),
                localized({ ru: "Гоблин", en: "Goblin" }, "en"),
                localized({ ru: "Гоблин" }, "en"), localized("plain", "ru"), localized(null, "ru"),
                localized({ ru: "Гоблин", en: "Goblin" })];  // the page's language: ru
        """,
    )
    assert got == ["+2", "−1", "0", "Goblin", "Гоблин", "plain", "", "Гоблин"]


def test_i18n_without_a_catalogue_shows_the_msgid(open_page):
    page = open_page()
    got = run(
        page,
        """
        const i18n = await import("/static/js/lib/i18n.js");
        return [i18n.gettext("verified"), i18n.t("Round {n}", { n: 3 }),
                i18n.ngettext("one", "many", 1), i18n.ngettext("one", "many", 2),
                i18n.pgettext("attack type", "Ranged"), i18n.language()];
        """,
    )
    assert got == ["verified", "Round 3", "one", "many", "Ranged", "ru"]


@pytest.mark.django_db
def test_i18n_reads_the_javascript_catalogue(open_page, serve):
    """The real catalogue view's script, loaded before the module as base.html loads it."""
    catalogue = Client().get(reverse("javascript-catalogue", args=["ru"])).content
    serve.page("/jsi18n/ru/", catalogue, "text/javascript")
    serve.page(
        "/catalogue.html",
        '<!doctype html><html lang="ru"><head><script src="/jsi18n/ru/"></script></head>'
        "<body></body></html>",
    )
    page = open_page("/catalogue.html")
    got = run(
        page,
        """
        const { gettext, t } = await import("/static/js/lib/i18n.js");
        return [gettext("verified"), t("Round {n}", { n: 3 }), gettext("not in the catalogue")];
        """,
    )
    assert got == ["проверено", "Раунд 3", "not in the catalogue"]


def test_toast_shows_the_message_in_the_page_toast(open_page):
    page = open_page()
    got = run(
        page,
        """
        const { toast, TOAST_MS } = await import("/static/js/lib/toast.js");
        const node = document.createElement("div");
        node.id = "toast"; node.hidden = true;
        document.body.appendChild(node);
        toast("first"); toast("second");
        return [node.textContent, node.hidden, TOAST_MS];
        """,
    )
    assert got == ["second", False, 6000]


def test_pure_js_sha256_matches_python(open_page):
    """sha256.js's own implementation (for pages on plain http, without crypto.subtle)."""
    page = open_page()
    samples = ["", "abc", "Бросок 2к6", "x" * 55, "y" * 56, "z" * 64, "🎲" * 100, "a" * 1000]
    samples.append(json.dumps({"roll": {"total": 9, "actor_name": "Алиса"}, "salt": "ab"}))
    got = run(
        page, 'const sha = await import("/static/js/sha256.js"); return arg.map(sha.hex);', samples
    )
    assert got == [hashlib.sha256(s.encode()).hexdigest() for s in samples]
