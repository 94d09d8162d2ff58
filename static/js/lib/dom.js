/* Building the page's elements: one `h()` for every module. */

// Set as attributes; every other key is set as a property (`value`, `checked`, `disabled`…).
const ATTRIBUTES = new Set([
  "title", "role", "type", "for", "name", "placeholder", "maxlength", "href", "list",
  "inputmode", "datetime", "tabindex", "style",
]);

/** An element: `h("li", { class: "entry", text: "…", "data-seq": 3 }, [child, "text"])`.
 * Attributes valued null, undefined or false are left out; true sets an empty attribute.
 * Children that are null, undefined or false are skipped; strings become text nodes. */
export function h(tag, attrs, children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("data-") || key.startsWith("aria-") || ATTRIBUTES.has(key)) {
      node.setAttribute(key, value === true ? "" : String(value));
    } else node[key] = value;
  }
  append(node, children);
  return node;
}

/** Append `children` (nodes, strings, or skipped null/undefined/false) to `node`. */
export function append(node, children) {
  for (const child of children || []) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === "string" ? document.createTextNode(String(child)) : child);
  }
  return node;
}

/** Remove every child of `node`. */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/** The parsed JSON of a `json_script` element, or null when the page has none. */
export function jsonScript(id) {
  const node = document.getElementById(id);
  return node ? JSON.parse(node.textContent) : null;
}

/** Run `callback` once the document is parsed: after every module script of the page ran
 * (module scripts run before DOMContentLoaded), whatever their order in the page. */
export function onParsed(callback) {
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", () => callback(), { once: true });
  } else callback();
}
