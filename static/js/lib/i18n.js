/* Interface text for the modules: Django's JavaScript catalogue (the `jsi18n/<language>/`
 * script in base.html defines `django`); the strings live in locale/<lang>/djangojs.po.
 * Without the catalogue (a bare test page) the English msgid is shown as it is. */
import { fmt } from "./format.js";

function catalogue() {
  return typeof django === "object" && django ? django : null;
}

/** The translation of `msgid`. */
export function gettext(msgid) {
  const d = catalogue();
  return d ? d.gettext(msgid) : msgid;
}

/** The singular or plural translation for `count`. */
export function ngettext(singular, plural, count) {
  const d = catalogue();
  if (d) return d.ngettext(singular, plural, count);
  return count === 1 ? singular : plural;
}

/** The translation of `msgid` in `context` (pgettext). */
export function pgettext(context, msgid) {
  const d = catalogue();
  return d ? d.pgettext(context, msgid) : msgid;
}

/** `{name}` placeholders filled from `vars` (lib/format.js's fmt). */
export { fmt as interpolate };

/** gettext, then interpolate: `t("Choose {n}:", { n: 2 })`. */
export function t(msgid, vars) {
  return vars ? fmt(gettext(msgid), vars) : gettext(msgid);
}

/** A {ru, en} text from the rules (or a plain string) in the page's language, falling back
 * to English, then Russian. */
export function localized(text, lang = language()) {
  if (text === null || text === undefined) return "";
  if (typeof text !== "object") return String(text);
  return text[lang] || text.en || text.ru || "";
}

/** The page's language ("ru" or "en"), for Intl formatters and {ru, en} texts. */
export function language() {
  return document.documentElement.lang || "ru";
}
