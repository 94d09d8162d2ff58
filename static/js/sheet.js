/* The character sheet page. Everything here is generated from the ruleset's describe() output
 * (config.schema, config.moves, config.actions), the single source of fields, labels, limits
 * and move parameters; the server validates every write and rolls every die.
 *
 * Saving: PUT the whole state with the version it was read at. A stale version is a 409 that
 * carries the current sheet; the conflict dialog then offers to reload (take theirs) or to merge
 * (re-apply this browser's changed fields onto theirs and save again). Nothing is silently lost.
 *
 * Live: the page follows the campaign's event socket (socket.js). A `character.updated` for this
 * sheet fetches the full sheet (or applies the public part) unless the user has unsaved edits;
 * then a banner offers to merge or to take theirs.
 */
import { useSocket } from "./api.js";
import { fmt } from "./lib/format.js";
import { gettext, localized as tr } from "./lib/i18n.js";
import { h } from "./lib/dom.js";
import { toast } from "./lib/toast.js";
import * as M from "./moves.js";
import { connect as connectSocket } from "./socket.js";

function start() {
  var configNode = document.getElementById("sheet-config");
  var page = document.getElementById("sheet-page");
  if (!configNode || !page) return null;
  var config = JSON.parse(configNode.textContent);
  M.init(config.moveUrls);
  var urls = config.urls;
  var schema = config.schema;
  var me = config.me;

  var sheet = {
    data: config.character,
    base: clone(config.character.state),
    version: config.character.version,
    hidden: config.character.hidden,
    root: null,          // value tree of the rendered form: root.get() is the form's state
    incoming: null,      // a newer server copy held back because the user has edits
    deferred: null,      // a newer copy that arrived while a save was in flight
    saving: false,
    deleted: false,
    lastEditor: null,    // {version, name} of the last change seen on the socket
  };

  // ---- small helpers -----------------------------------------------------------------------

  function clone(value) { return value === undefined ? undefined : JSON.parse(JSON.stringify(value)); }

  function stable(value) {
    if (Array.isArray(value)) return "[" + value.map(stable).join(",") + "]";
    if (value && typeof value === "object") {
      return "{" + Object.keys(value).sort().map(function (k) { return JSON.stringify(k) + ":" + stable(value[k]); }).join(",") + "}";
    }
    return JSON.stringify(value === undefined ? null : value);
  }

  function same(a, b) { return stable(a) === stable(b); }

  function isPlainObject(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }

  /* Changed leaves as {path, from, to}; lists compare as wholes (like the server's diff). */
  function diff(before, after, path) {
    path = path || "";
    if (isPlainObject(before) && isPlainObject(after)) {
      var keys = {};
      Object.keys(before).forEach(function (k) { keys[k] = true; });
      Object.keys(after).forEach(function (k) { keys[k] = true; });
      var out = [];
      Object.keys(keys).sort().forEach(function (k) {
        out = out.concat(diff(before[k], after[k], path ? path + "." + k : k));
      });
      return out;
    }
    return same(before, after) ? [] : [{ path: path, from: before, to: after }];
  }

  /* Set each changed path to its new value in `state` (a copy of the other side's sheet). */
  function applyChanges(state, changes) {
    changes.forEach(function (c) {
      if (!c.path || c.path === "(hidden)") return;
      var parts = c.path.split(".");
      var node = state;
      for (var i = 0; i < parts.length - 1; i += 1) {
        if (!isPlainObject(node[parts[i]])) node[parts[i]] = {};
        node = node[parts[i]];
      }
      var last = parts[parts.length - 1];
      if (c.to === undefined) delete node[last];
      else node[last] = clone(c.to);
    });
    return state;
  }

  function label(spec, key) {
    return (spec && tr(spec)) || key || "";
  }

  function specAt(path) {
    var spec = schema;
    var parts = path.split(".");
    for (var i = 0; i < parts.length && spec; i += 1) {
      if (spec.type === "list") spec = spec.item;
      else spec = spec.fields ? spec.fields[parts[i]] : null;
    }
    return spec || null;
  }

  function pathLabel(path) {
    if (path === "(hidden)") return gettext("Hidden from players");
    var spec = schema;
    var parts = path.split(".");
    var names = [];
    for (var i = 0; i < parts.length; i += 1) {
      if (spec && spec.type === "list") {
        names.push(fmt(gettext("#{n}"), { n: Number(parts[i]) + 1 }));
        spec = spec.item;
      } else {
        spec = spec && spec.fields ? spec.fields[parts[i]] : null;
        names.push(label(spec, parts[i]));
      }
    }
    return names.filter(Boolean).join(" › ");
  }

  /* A value as text, typed by its spec (choices by label). */
  function valueText(spec, value) {
    if (value === null || value === undefined || value === "") return gettext("—");
    var type = spec && spec.type;
    if (type === "bool" || typeof value === "boolean") return value ? gettext("yes") : gettext("no");
    if (type === "choice" && spec.choices) {
      for (var i = 0; i < spec.choices.length; i += 1) {
        var c = spec.choices[i];
        if (c && c.key === value) return tr(c) || String(value) || gettext("—");
      }
      return String(value);
    }
    if (Array.isArray(value)) {
      if (!value.length) return gettext("—");
      var item = spec && spec.item;
      return value.map(function (v) {
        var t = valueText(item, v);
        return isPlainObject(v) || Array.isArray(v) ? "[" + t + "]" : t;
      }).join(", ");
    }
    if (isPlainObject(value)) {
      var fields = (spec && spec.fields) || {};
      var keys = spec && spec.fields ? Object.keys(fields) : Object.keys(value);
      var parts = [];
      keys.forEach(function (k) {
        if (fields[k] && !readable(fields[k])) return;
        var t = valueText(fields[k], value[k]);
        if (t !== gettext("—")) parts.push((fields[k] ? label(fields[k], k) : k) + ": " + t);
      });
      return parts.join("; ") || gettext("—");
    }
    return String(value);
  }

  /* Whether a field is for reading (schema ``internal`` and ``lang`` hints). */
  function readable(spec) {
    return !spec.internal && (!spec.lang || spec.lang === config.lang);
  }

  function shortText(spec, value) {
    var text = valueText(spec, value);
    return text.length > 90 ? text.slice(0, 88) + "…" : text;
  }

  function defaultFor(spec) {
    if (!spec) return null;
    if ((spec.type === "object" || spec.type === "sheet") && spec.fields && !spec.nullable) {
      var out = {};
      Object.keys(spec.fields).forEach(function (k) { out[k] = defaultFor(spec.fields[k]); });
      return out;
    }
    if (spec.default !== undefined) return clone(spec.default);
    if (spec.type === "list") return [];
    return null;
  }


  /* An API call; `named` ({command, args}) sends a table action as a socket command
   * (docs/table-protocol.md, "Commands"), by HTTP when the socket is down. */
  function call(method, url, body, named) {
    return M.request(method, url, body, config.csrf, named).catch(function (err) {
      if (err.status === 429) err.message = gettext("Too many requests: wait a moment and try again.");
      throw err;
    });
  }

  var uid = 0;
  function nextId(prefix) { uid += 1; return (prefix || "f") + "-" + uid; }

  // ---- the form, generated from the schema ---------------------------------------------------

  /* Build the control(s) for one field. Returns {node, get}; get() reads the current value.
   * opts.edit: inputs; otherwise read-only text. */
  function build(spec, value, path, opts) {
    var type = spec.type;
    if (type === "object" || type === "sheet") {
      if (spec.fields) return buildObject(spec, value, path, opts);
    }
    if (type === "list") return buildList(spec, value, path, opts);
    return buildScalar(spec, value, path, opts);
  }

  function wrap(spec, path, control, extraClass) {
    var id = control.id || "";
    var help = spec.help ? tr(spec.help) : "";
    var labelNode = spec.type === "bool"
      ? null
      : h("label", { "class": "field-label", "for": id, text: label(spec, path.split(".").pop()) });
    // The help text sits between the label and the control, so controls in a row line up.
    var helpNode = help ? h("small", { "class": "help", text: help }) : null;
    var bool = spec.type === "bool";
    var node = h("div", { "class": "field f-" + spec.type + (extraClass ? " " + extraClass : ""), "data-path": path }, [
      labelNode,
      bool ? null : helpNode,
      control.wrapper || control,
      bool ? helpNode : null,
    ]);
    return node;
  }

  function buildScalar(spec, value, path, opts) {
    var type = spec.type;
    if (!opts.edit) {
      var view = h("div", { "class": "field view f-" + type, "data-path": path }, [
        h("span", { "class": "field-label", text: label(spec, path.split(".").pop()) }),
        h("span", { "class": "field-value", "data-value": path, text: valueText(spec, value) }),
      ]);
      return { node: view, get: function () { return clone(value); } };
    }
    var id = nextId("f");
    var input;
    var get;
    if (type === "int") {
      input = h("input", { id: id, type: "number", inputmode: "numeric", step: 1, "data-path": path });
      if (spec.min !== null && spec.min !== undefined) input.min = spec.min;
      if (spec.max !== null && spec.max !== undefined) input.max = spec.max;
      input.value = value === null || value === undefined ? "" : String(value);
      get = function () {
        var raw = input.value.trim();
        if (raw === "") return input.validity && input.validity.badInput ? input.value : null;
        return /^[+-]?\d+$/.test(raw) ? Number(raw) : raw;
      };
      return { node: wrap(spec, path, input), get: get };
    }
    if (type === "bool" && spec.nullable) {
      // Three states: unset (the rules decide), yes, no.
      input = h("select", { id: id, "data-path": path }, [
        h("option", { value: "", text: gettext("—") }),
        h("option", { value: "1", text: gettext("yes") }),
        h("option", { value: "0", text: gettext("no") }),
      ]);
      input.value = value === null || value === undefined ? "" : value ? "1" : "0";
      var boolNode = wrap(Object.assign({}, spec, { type: "choice" }), path, input);
      return { node: boolNode, get: function () { return input.value === "" ? null : input.value === "1"; } };
    }
    if (type === "bool") {
      input = h("input", { id: id, type: "checkbox", "data-path": path });
      input.checked = !!value;
      var box = h("label", { "class": "check", "for": id }, [input, " ", label(spec, path.split(".").pop())]);
      box.id = id + "-box";
      return { node: wrap(spec, path, { wrapper: box, id: id }), get: function () { return input.checked; } };
    }
    if (type === "choice" && spec.choices) {
      input = h("select", { id: id, "data-path": path });
      var keys = spec.choices.map(function (c) { return c.key; });
      var nullKey = "\u0000null";
      var unset = value === null || value === undefined;
      if (spec.nullable && keys.indexOf("") < 0) input.appendChild(h("option", { value: nullKey, text: gettext("—") }));
      else if (unset && keys.indexOf("") < 0) input.appendChild(h("option", { value: nullKey, text: gettext("— choose —"), disabled: true }));
      spec.choices.forEach(function (c) { input.appendChild(h("option", { value: c.key, text: tr(c) || c.key || gettext("—") })); });
      if (value !== null && value !== undefined && keys.indexOf(value) < 0) {
        input.appendChild(h("option", { value: String(value), text: String(value) }));
      }
      input.value = unset ? (keys.indexOf("") < 0 ? nullKey : "") : String(value);
      get = function () { return input.value === nullKey ? null : input.value; };
      return { node: wrap(spec, path, input), get: get };
    }
    if (type === "die") {
      var listId = nextId("dl");
      input = h("input", { id: id, type: "text", list: listId, "data-path": path, autocapitalize: "off", spellcheck: false });
      input.value = value === null || value === undefined ? "" : String(value);
      var dl = h("datalist", { id: listId });
      (spec.choices || []).forEach(function (c) { dl.appendChild(h("option", { value: typeof c === "string" ? c : c.key })); });
      var holder = h("span", { "class": "die-input" }, [input, dl]);
      return { node: wrap(spec, path, { wrapper: holder, id: id }), get: function () { var v = input.value.trim(); return v === "" && spec.nullable ? null : v; } };
    }
    if (type === "str") {
      var long = (spec.max_length || 0) > 200;
      input = long
        ? h("textarea", { id: id, rows: (spec.max_length || 0) >= 1000 ? 5 : 3, "data-path": path })
        : h("input", { id: id, type: "text", "data-path": path });
      if (spec.max_length) input.maxLength = spec.max_length;
      input.value = value === null || value === undefined ? "" : String(value);
      get = function () { return spec.nullable && input.value === "" ? null : input.value; };
      return { node: wrap(spec, path, input, long ? "wide" : ""), get: get };
    }
    // Anything the builder does not know: edit it as JSON (the server validates it).
    input = h("textarea", { id: id, rows: 3, "class": "json", "data-path": path, spellcheck: false });
    input.value = value === undefined ? "" : JSON.stringify(value);
    get = function () {
      var raw = input.value.trim();
      if (raw === "") return null;
      try { return JSON.parse(raw); } catch (e) { return raw; }
    };
    return { node: wrap(spec, path, input, "wide"), get: get };
  }

  function buildObject(spec, value, path, opts) {
    var obj = isPlainObject(value) ? value : null;
    var fieldset = h("fieldset", { "class": "field f-object", "data-path": path });
    if (path) fieldset.appendChild(h("legend", { text: label(spec, path.split(".").pop()) }));
    var inner = h("div", { "class": "fields" });
    var children = {};
    var toggle = null;
    if (spec.nullable && opts.edit && path) {
      toggle = h("input", { type: "checkbox", id: nextId("o") });
      toggle.checked = obj !== null;
      fieldset.appendChild(h("label", { "class": "check", "for": toggle.id }, [toggle, " ", label(spec, path.split(".").pop())]));
      toggle.addEventListener("change", function () { inner.hidden = !toggle.checked; });
      inner.hidden = obj === null;
    } else if (obj === null && !opts.edit) {
      fieldset.appendChild(h("span", { "class": "field-value", text: gettext("—") }));
      return { node: fieldset, get: function () { return clone(value); } };
    }
    var source = obj || defaultFor(Object.assign({}, spec, { nullable: false })) || {};
    Object.keys(spec.fields).forEach(function (key) {
      if (!opts.edit && !(key in source)) return;
      var child = build(spec.fields[key], source[key], path ? path + "." + key : key, opts);
      children[key] = child;
      // kept in the value, never shown: a key the rules use, a name in the other language
      if (!readable(spec.fields[key])) child.node.hidden = true;
      inner.appendChild(child.node);
    });
    fieldset.appendChild(inner);
    return {
      node: fieldset,
      get: function () {
        if (toggle && !toggle.checked) return null;
        var out = {};
        Object.keys(children).forEach(function (k) { out[k] = children[k].get(); });
        return out;
      },
    };
  }

  function buildList(spec, value, path, opts) {
    var items = Array.isArray(value) ? value : [];
    var fieldset = h("fieldset", { "class": "field f-list", "data-path": path });
    var legend = h("legend", { text: label(spec, path.split(".").pop()) });
    if (path) fieldset.appendChild(legend);
    var list = h("ol", { "class": "list-items" });
    fieldset.appendChild(list);
    var itemSpec = spec.item || { type: "str" };
    var entries = [];
    if (!opts.edit) {
      if (!items.length) list.appendChild(h("li", { "class": "muted empty-item", text: gettext("Nothing yet.") }));
      items.forEach(function (v, i) {
        var li = h("li", { "class": "list-item" });
        if (itemSpec.type === "object" && itemSpec.fields && isPlainObject(v)) {
          li.appendChild(build(itemSpec, v, path + "." + i, opts).node);
        } else {
          li.appendChild(h("span", { "class": "field-value", text: valueText(itemSpec, v) }));
        }
        list.appendChild(li);
      });
      return { node: fieldset, get: function () { return clone(value); } };
    }
    var addButton = h("button", { type: "button", "class": "small add-item", text: "+ " + gettext("Add") });

    function current() { return entries.map(function (e) { return e.get(); }); }

    function render(values) {
      list.textContent = "";
      entries = [];
      if (!values.length) list.appendChild(h("li", { "class": "muted empty-item", text: gettext("Nothing yet.") }));
      values.forEach(function (v, i) {
        var child = build(itemSpec, v, path + "." + i, opts);
        var remove = h("button", { type: "button", "class": "small icon danger remove-item", title: gettext("Remove"), "aria-label": gettext("Remove") + " " + fmt(gettext("#{n}"), { n: i + 1 }), text: "✕" });
        remove.addEventListener("click", function () {
          var now = current();
          now.splice(i, 1);
          render(now);
          changed(fieldset);
        });
        var tools = h("div", { "class": "item-tools" }, [remove]);
        if (i > 0) {
          var up = h("button", { type: "button", "class": "small icon", title: gettext("Move up"), "aria-label": gettext("Move up"), text: "↑" });
          up.addEventListener("click", function () {
            var now = current();
            var moved = now.splice(i, 1)[0];
            now.splice(i - 1, 0, moved);
            render(now);
            changed(fieldset);
          });
          tools.insertBefore(up, remove);
        }
        var li = h("li", { "class": "list-item" + (itemSpec.type === "object" ? " item-object" : "") }, [child.node, tools]);
        entries.push(child);
        list.appendChild(li);
      });
      addButton.disabled = spec.max_items !== undefined && values.length >= spec.max_items;
    }

    addButton.addEventListener("click", function () {
      var now = current();
      now.push(defaultFor(itemSpec));
      render(now);
      changed(fieldset);
      var fields = list.lastElementChild && list.lastElementChild.querySelector("input, select, textarea");
      if (fields) fields.focus();
    });
    render(items);
    fieldset.appendChild(addButton);
    return { node: fieldset, get: current };
  }

  function changed(node) {
    node.dispatchEvent(new Event("change", { bubbles: true }));
  }

  // ---- the sheet: groups, values, dirty state -----------------------------------------------

  var form = document.getElementById("sheet-form");
  var groupsNode = document.getElementById("sheet-groups");
  var hiddenToggle = document.getElementById("npc-hidden");
  var saveBar = document.getElementById("save-bar");
  var saveStatus = document.getElementById("save-status");
  var saveButton = document.getElementById("save-btn");
  var discardButton = document.getElementById("discard-btn");
  var nameNode = document.getElementById("sheet-name");
  var versionNode = document.getElementById("sheet-version");
  var editable = !!config.canEdit;

  function heavy(spec) {
    if (spec.type !== "object" || !spec.fields) return false;
    return Object.keys(spec.fields).some(function (k) {
      var t = spec.fields[k].type;
      return t === "object" || t === "list";
    });
  }

  /* Top-level fields in groups: runs of simple fields, each object and each list on its own. */
  /* Build the groups for `state` into `container` and return the value tree's root. */
  function buildGroups(state, container) {
    var children = {};
    var run = null;
    var opts = { edit: editable };
    Object.keys(schema.fields).forEach(function (key) {
      var spec = schema.fields[key];
      if (!(key in state) && !editable) return;
      var value = key in state ? state[key] : defaultFor(spec);
      var complex = spec.type === "list" || ((spec.type === "object" || spec.type === "sheet") && spec.fields);
      if (complex) {
        run = null;
        var child = build(spec, value, key, opts);
        children[key] = child;
        var title = h("h2", { "class": "group-title", text: label(spec, key) });
        var group;
        if (heavy(spec)) {
          group = h("details", { "class": "card sheet-group group-" + spec.type, "data-group": key }, [
            h("summary", {}, [title]),
          ]);
        } else {
          group = h("section", { "class": "card sheet-group group-" + spec.type, "data-group": key }, [title]);
        }
        var legend = child.node.querySelector(":scope > legend");
        if (legend) legend.classList.add("visually-hidden");
        group.appendChild(child.node);
        container.appendChild(group);
        return;
      }
      if (!run) {
        var first = !container.firstChild;
        run = h("section", { "class": "card sheet-group group-fields", "data-group": key }, [
          first ? h("h2", { "class": "group-title", text: gettext("General") }) : null,
          h("div", { "class": "fields" }),
        ]);
        container.appendChild(run);
      }
      var field = build(spec, value, key, opts);
      children[key] = field;
      run.querySelector(".fields").appendChild(field.node);
    });
    return {
      get: function () {
        var out = {};
        Object.keys(children).forEach(function (k) { out[k] = children[k].get(); });
        return out;
      },
    };
  }

  /* Show `state` in the form (the base, or the base with edits merged in). */
  function render(state) {
    var focused = document.activeElement && form.contains(document.activeElement)
      ? document.activeElement.getAttribute("data-path") : null;
    groupsNode.textContent = "";
    sheet.root = buildGroups(state, groupsNode);
    // What the untouched form reads for the base: "what the user changed" is measured against
    // it, so a control that cannot show a value exactly never counts as an edit, and saving
    // sends the base with only the edited fields replaced.
    if (!editable) sheet.formBase = clone(sheet.base);
    else if (state === sheet.base) sheet.formBase = sheet.root.get();
    else sheet.formBase = buildGroups(sheet.base, document.createElement("div")).get();
    if (focused) {
      var again = form.querySelector('[data-path="' + focused.replace(/"/g, "") + '"]:is(input, select, textarea)');
      if (again) again.focus();
    }
    refreshDirty();
  }

  /* The user's edits: changed leaves (lists as wholes) against the untouched form. */
  function edits() {
    if (!editable || !sheet.root) return [];
    return diff(sheet.formBase, sheet.root.get());
  }

  /* The state to save: the base with the user's edits. */
  function current() {
    if (!editable || !sheet.root) return clone(sheet.base);
    return applyChanges(clone(sheet.base), edits());
  }

  function changes() {
    var list = edits();
    if (hiddenToggle && hiddenToggle.checked !== sheet.hidden) {
      list.push({ path: "(hidden)", from: sheet.hidden, to: hiddenToggle.checked });
    }
    return list;
  }

  function dirty() { return changes().length > 0; }

  /* Fields whose schema says `show_if: {field: value}` (e.g. a Savage Worlds extra's bennies)
   * are shown only while the form's top-level fields hold those values. */
  function applyConditions() {
    if (!sheet.root) return;
    var conditional = Object.keys(schema.fields || {}).filter(function (k) { return schema.fields[k].show_if; });
    if (!conditional.length) return;
    var now = editable ? sheet.root.get() : sheet.base;
    conditional.forEach(function (key) {
      var rule = schema.fields[key].show_if;
      var shown = Object.keys(rule).every(function (k) { return same(now[k], rule[k]); });
      Array.prototype.forEach.call(groupsNode.querySelectorAll('[data-path="' + key + '"]'), function (node) {
        if (node.classList.contains("field")) node.hidden = !shown;
      });
    });
  }

  function refreshDirty() {
    applyConditions();
    if (!saveBar) return;
    var n = changes().length;
    saveBar.setAttribute("data-dirty", n ? "1" : "0");
    if (!sheet.saving) saveStatus.textContent = n ? fmt(gettext("Unsaved changes: {n}"), { n: n }) : gettext("All changes saved");
    discardButton.hidden = !n;
    saveButton.disabled = sheet.saving || sheet.deleted;
  }

  var dirtyFrame = null;
  form.addEventListener("input", scheduleDirty);
  form.addEventListener("change", scheduleDirty);
  function scheduleDirty() {
    if (dirtyFrame) return;
    dirtyFrame = requestAnimationFrame(function () { dirtyFrame = null; refreshDirty(); });
  }

  function clearErrors(scope) {
    Array.prototype.forEach.call((scope || form).querySelectorAll(".field-error"), function (n) { n.remove(); });
    Array.prototype.forEach.call((scope || form).querySelectorAll(".has-error"), function (n) { n.classList.remove("has-error"); });
  }

  /* Field errors from a 400 next to their fields; the rest in a toast. */
  function showErrors(scope, fields, message) {
    clearErrors(scope);
    var loose = [];
    var firstNode = null;
    Object.keys(fields || {}).forEach(function (path) {
      var texts = fields[path] || [];
      var node = null;
      var probe = path;
      while (probe && !node) {
        node = scope.querySelector('.field[data-path="' + probe.replace(/"/g, "") + '"]');
        if (!node) probe = probe.indexOf(".") >= 0 ? probe.slice(0, probe.lastIndexOf(".")) : "";
      }
      if (!node) {
        loose.push((path === "__all__" ? "" : pathLabel(path) + ": ") + texts.join(" "));
        return;
      }
      node.classList.add("has-error");
      node.appendChild(h("small", { "class": "field-error error-text", role: "alert", text: (probe !== path ? pathLabel(path) + ": " : "") + texts.join(" ") }));
      if (!firstNode) firstNode = node;
    });
    if (firstNode) {
      var details = firstNode.closest("details");
      if (details) details.open = true;
      firstNode.scrollIntoView({ block: "center", behavior: "smooth" });
    }
    return loose.length ? loose.join("\n") : (firstNode ? null : message);
  }

  function setHeader(data) {
    nameNode.textContent = data.name;
    versionNode.textContent = String(data.version);
    document.title = document.title.replace(/^[^·]*·/, data.name + " ·");
    var badge = document.getElementById("hidden-badge");
    if (badge) badge.hidden = !data.hidden;
  }

  /* Take a server copy as the new base and show it. */
  function accept(data) {
    sheet.data = data;
    sheet.base = clone(data.state);
    sheet.version = data.version;
    sheet.hidden = data.hidden;
    sheet.incoming = null;
    if (hiddenToggle) hiddenToggle.checked = !!data.hidden;
    hideBanner();
    clearErrors(form);
    render(sheet.base);
    setHeader(data);
    if (historyNode && historyNode.open) loadHistory();
  }

  /* A newer server copy: show it, unless the user has edits (then ask). */
  function incoming(data) {
    if (!data || data.version <= sheet.version) return;
    if (sheet.saving) {
      if (!sheet.deferred || sheet.deferred.version < data.version) sheet.deferred = data;
      return;
    }
    if (!dirty()) {
      accept(data);
      return;
    }
    sheet.incoming = data;
    showBanner(data);
  }

  var banner = document.getElementById("live-banner");
  function showBanner(data) {
    var who = sheet.lastEditor && sheet.lastEditor.version === data.version ? sheet.lastEditor.name : gettext("Someone");
    banner.querySelector(".banner-text").textContent =
      fmt(gettext("{who} changed this sheet (version {v}) while you were editing."), { who: who, v: data.version }) + " " + gettext("Your edits are kept and not saved yet.");
    banner.hidden = false;
  }
  function hideBanner() { banner.hidden = true; }

  banner.addEventListener("click", function (event) {
    var button = event.target.closest("[data-banner]");
    if (!button || !sheet.incoming) return;
    var theirs = sheet.incoming;
    if (button.getAttribute("data-banner") === "theirs") {
      accept(theirs);
      return;
    }
    // Merge: my changed fields on top of their version; saving stays my decision.
    var merged = applyChanges(clone(theirs.state), edits());
    sheet.data = theirs;
    sheet.base = clone(theirs.state);
    sheet.version = theirs.version;
    sheet.hidden = theirs.hidden;
    sheet.incoming = null;
    hideBanner();
    render(merged);
    setHeader(theirs);
  });

  function save() {
    if (!editable || sheet.saving || sheet.deleted) return;
    var mine = edits();
    var state = applyChanges(clone(sheet.base), mine);
    var body = { state: state, version: sheet.version };
    if (hiddenToggle) body.hidden = hiddenToggle.checked;
    sheet.saving = true;
    saveStatus.textContent = gettext("Saving…");
    refreshDirty();
    call("PUT", urls.character, body, { command: "character.update", args: { cid: sheet.data.id } }).then(function (data) {
      sheet.saving = false;
      accept(data);
      var later = sheet.deferred;
      sheet.deferred = null;
      if (later) incoming(later);
    }, function (err) {
      sheet.saving = false;
      var later = sheet.deferred;
      sheet.deferred = null;
      refreshDirty();
      if (err.status === 409 && err.data && err.data.state) {
        openConflict(err.data, mine);
        return;
      }
      if (err.status === 400 && err.data) {
        var rest = showErrors(form, err.data.fields, err.message);
        toast(rest || gettext("Check the highlighted fields."));
      } else {
        toast(err.message);
      }
      if (later) incoming(later);
    });
  }

  if (editable) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      save();
    });
    discardButton.addEventListener("click", function () {
      if (!window.confirm(gettext("Discard your unsaved changes?"))) return;
      if (hiddenToggle) hiddenToggle.checked = sheet.hidden;
      clearErrors(form);
      if (sheet.incoming) accept(sheet.incoming);
      else render(sheet.base);
    });
    window.addEventListener("beforeunload", function (event) {
      if (dirty() && !sheet.deleted) {
        event.preventDefault();
        event.returnValue = "";
      }
    });
  } else {
    form.addEventListener("submit", function (event) { event.preventDefault(); });
  }

  // ---- 409: the conflict dialog --------------------------------------------------------------

  var conflict = document.getElementById("conflict-dialog");
  var conflictState = null;

  function diffItem(c, both) {
    var spec = specAt(c.path);
    return h("li", { "class": both ? "both" : "" }, [
      h("span", { "class": "diff-path", text: pathLabel(c.path) }),
      ": ",
      h("span", { "class": "diff-from", text: shortText(spec, c.from) }),
      " → ",
      h("span", { "class": "diff-to", text: shortText(spec, c.to) }),
      both ? h("small", { "class": "both-note", text: " (" + gettext("changed by both: your value wins if you merge") + ")" }) : null,
    ]);
  }

  function openConflict(payload, edited) {
    var theirs = payload.state;
    var mine = edited.slice();
    if (hiddenToggle && hiddenToggle.checked !== sheet.hidden) {
      mine.push({ path: "(hidden)", from: sheet.hidden, to: hiddenToggle.checked });
    }
    var their = diff(sheet.base, theirs);
    var theirPaths = {};
    their.forEach(function (c) { theirPaths[c.path] = true; });
    var mineList = document.getElementById("conflict-mine");
    var theirList = document.getElementById("conflict-theirs");
    mineList.textContent = "";
    theirList.textContent = "";
    mine.forEach(function (c) { mineList.appendChild(diffItem(c, !!theirPaths[c.path])); });
    their.forEach(function (c) { theirList.appendChild(diffItem(c, false)); });
    if (!mine.length) mineList.appendChild(h("li", { "class": "muted", text: gettext("—") }));
    if (!their.length) theirList.appendChild(h("li", { "class": "muted", text: gettext("—") }));
    var text = document.getElementById("conflict-text");
    var who = sheet.lastEditor && sheet.lastEditor.version === payload.version ? sheet.lastEditor.name : gettext("Someone");
    text.textContent = fmt(gettext("{who} saved version {v} while you were editing. Nothing is lost: choose what to do."), { who: who, v: payload.version });
    if (who === gettext("Someone")) {
      call("GET", urls.history).then(function (rows) {
        var row = (rows || []).filter(function (r) { return r.version === payload.version; })[0];
        if (row && row.actor) text.textContent = fmt(gettext("{who} saved version {v} while you were editing. Nothing is lost: choose what to do."), { who: row.actor, v: payload.version });
      }, function () {});
    }
    conflictState = { theirs: theirs, version: payload.version, mine: mine };
    if (!conflict.open) conflict.showModal();
  }

  conflict.addEventListener("click", function (event) {
    var button = event.target.closest("[data-conflict]");
    if (!button || !conflictState) return;
    var what = button.getAttribute("data-conflict");
    var state = conflictState;
    conflictState = null;
    conflict.close();
    if (what === "reload") {
      call("GET", urls.character).then(accept, function (err) {
        accept(Object.assign({}, sheet.data, { state: state.theirs, version: state.version }));
        toast(err.message);
      });
      return;
    }
    if (what === "merge") {
      var merged = applyChanges(clone(state.theirs), state.mine);
      sheet.base = clone(state.theirs);
      sheet.version = state.version;
      sheet.data = Object.assign({}, sheet.data, { state: clone(state.theirs), version: state.version });
      render(merged);
      setHeader(sheet.data);
      save();
      return;
    }
    // Keep editing: their version is known, the banner keeps offering it.
    sheet.incoming = Object.assign({}, sheet.data, { state: state.theirs, version: state.version });
    showBanner(sheet.incoming);
  });
  conflict.addEventListener("cancel", function () {
    if (!conflictState) return;
    var state = conflictState;
    conflictState = null;
    sheet.incoming = Object.assign({}, sheet.data, { state: state.theirs, version: state.version });
    showBanner(sheet.incoming);
  });

  // ---- history and revert --------------------------------------------------------------------

  var historyNode = document.getElementById("history");
  var historyList = document.getElementById("history-list");
  var moveSpecs = {};
  (config.moves || []).concat(config.actions || []).forEach(function (m) { moveSpecs[m.key] = m; });

  function moveName(key) {
    if (moveSpecs[key]) return tr(moveSpecs[key]);
    var named = (config.moveNames || {})[key];
    return named ? tr(named) : key;
  }

  function reasonText(reason) {
    if (reason === "create") return gettext("created");
    if (reason === "edit") return gettext("edited");
    if (reason.indexOf("move:") === 0) return fmt(gettext("move: {name}"), { name: moveName(reason.slice(5)) });
    if (reason.indexOf("revert:") === 0) return fmt(gettext("reverted to version {v}"), { v: reason.slice(7) });
    return reason;
  }

  var when = new Intl.DateTimeFormat(config.lang, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });

  function loadHistory() {
    if (!historyList) return;
    call("GET", urls.history).then(function (rows) {
      historyList.textContent = "";
      if (!rows.length) historyList.appendChild(h("li", { "class": "muted", text: gettext("No changes yet.") }));
      rows.forEach(function (row) {
        var isCurrent = row.version === sheet.version;
        var head = h("div", { "class": "history-head" }, [
          h("strong", { "class": "history-version", text: fmt(gettext("version {v}"), { v: row.version }) }),
          isCurrent ? h("span", { "class": "badge", text: gettext("current") }) : null,
          h("span", { "class": "history-actor", text: row.actor || "—" }),
          h("time", { datetime: row.created_at, title: new Date(row.created_at).toLocaleString(config.lang), text: when.format(new Date(row.created_at)) }),
          h("span", { "class": "history-reason", text: reasonText(row.reason) }),
        ]);
        var li = h("li", { "class": "history-entry", "data-version": String(row.version) }, [head]);
        if (row.diff && row.diff.length) {
          var list = h("ul", { "class": "history-diff" });
          row.diff.forEach(function (c) { list.appendChild(diffItem(c, false)); });
          li.appendChild(list);
        }
        if (editable && !isCurrent) {
          var revert = h("button", { type: "button", "class": "small revert-btn", text: gettext("Revert to this version") });
          revert.addEventListener("click", function () { revertTo(row.version, revert); });
          li.appendChild(revert);
        }
        historyList.appendChild(li);
      });
    }, function (err) { toast(err.message); });
  }

  function revertTo(version, button) {
    // One click: a revert is itself a new version, so it can be reverted in turn.
    if (dirty()) { toast(gettext("You have unsaved changes. Save or discard them first.")); return; }
    button.disabled = true;
    call("POST", urls.revert, { version: version }, { command: "character.revert", args: { cid: sheet.data.id } }).then(function (data) {
      accept(data);
      loadHistory();
    }, function (err) {
      button.disabled = false;
      toast(err.message);
    });
  }

  if (historyNode) {
    historyNode.addEventListener("toggle", function () { if (historyNode.open) loadHistory(); });
  }

  // ---- characters (targets and sheet parameters) ---------------------------------------------

  var charactersPromise = null;
  function characters() {
    if (!charactersPromise) {
      charactersPromise = call("GET", urls.characters).catch(function (err) {
        charactersPromise = null;
        throw err;
      });
    }
    return charactersPromise;
  }

  // ---- moves: the dialog ----------------------------------------------------------------------

  var dialog = document.getElementById("move-dialog");
  var moveForm = document.getElementById("move-form");
  var moveTitle = document.getElementById("move-title");
  var moveTrigger = document.getElementById("move-trigger");
  var moveParams = document.getElementById("move-params");
  var moveOdds = document.getElementById("move-odds");
  var moveError = document.getElementById("move-error");
  var moveOutcome = document.getElementById("move-outcome");
  var moveGo = document.getElementById("move-go");
  var active = null; // {spec, params: {key: getter}, target: select|null, oddsTimer, oddsSeq}
  var percent = new Intl.NumberFormat(config.lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

  function sheetPicker(key, spec, list, isTarget) {
    var id = nextId("p");
    var select = h("select", { id: id, "data-path": key, "data-picker": isTarget ? "target" : "sheet" });
    if (spec.nullable || isTarget) select.appendChild(h("option", { value: "", text: isTarget ? gettext("— no target —") : gettext("— none —") }));
    list.forEach(function (c) {
      select.appendChild(h("option", { value: String(c.id), text: c.name + (c.hidden ? " (" + gettext("Hidden from players") + ")" : "") }));
    });
    var node = h("div", { "class": "field f-picker", "data-path": key }, [
      h("label", { "class": "field-label", "for": id, text: label(spec, key) }),
      select,
    ]);
    if (isTarget && !list.length) node.appendChild(h("small", { "class": "help", text: gettext("No NPCs to target yet: the referee creates them.") }));
    return { node: node, select: select };
  }

  function openMove(key) {
    var spec = moveSpecs[key];
    if (!spec) return;
    active = { spec: spec, params: {}, target: null, oddsTimer: null, oddsSeq: 0, pickers: {} };
    moveTitle.textContent = tr(spec);
    moveTrigger.textContent = tr(spec.trigger);
    moveTrigger.hidden = !moveTrigger.textContent;
    moveParams.textContent = "";
    moveOdds.textContent = "";
    moveOutcome.textContent = "";
    moveError.hidden = true;
    moveGo.textContent = spec.roll ? gettext("Roll") : gettext("Do it");
    moveGo.disabled = false;
    var params = spec.params || {};
    var wantsSheets = Object.keys(params).some(function (k) {
      var t = params[k].type;
      return (t === "object" || t === "sheet") && (k === "target" || params[k].nullable || t === "sheet");
    });
    var mine = active;
    function fill(list) {
      if (active !== mine) return;
      // Sheet pickers (the target first) above the plain parameters.
      var keys = Object.keys(params);
      var picked = function (k) {
        var t = params[k].type;
        return (t === "object" || t === "sheet") && (k === "target" || params[k].nullable || t === "sheet");
      };
      keys = keys.filter(function (k) { return k === "target" && picked(k); })
        .concat(keys.filter(function (k) { return k !== "target" && picked(k); }))
        .concat(keys.filter(function (k) { return !picked(k); }));
      keys.forEach(function (k) {
        var p = params[k];
        var objectLike = p.type === "object" || p.type === "sheet";
        if (objectLike && k === "target") {
          // The target is a sheet at the table: an NPC block for "object", any sheet for "sheet".
          var targets = (list || []).filter(function (c) {
            return c.id !== sheet.data.id && (p.type === "sheet" || c.kind === "npc");
          });
          var picker = sheetPicker(k, p, targets, true);
          active.target = picker.select;
          moveParams.appendChild(picker.node);
          return;
        }
        if (objectLike && (p.nullable || p.type === "sheet")) {
          // Another sheet's state as the value: only sheets this user may read in full.
          var readable = (list || []).filter(function (c) { return c.full; });
          var chooser = sheetPicker(k, p, readable, false);
          var byId = {};
          readable.forEach(function (c) { byId[c.id] = c; });
          active.params[k] = {
            get: function () {
              var c = byId[chooser.select.value];
              return c ? clone(c.state) : null;
            },
          };
          moveParams.appendChild(chooser.node);
          return;
        }
        var field = build(ownChoices(p), defaultFor(p), k, { edit: true });
        active.params[k] = field;
        moveParams.appendChild(field.node);
      });
      scheduleOdds(0);
    }
    if (wantsSheets) {
      characters().then(fill, function (err) { fill([]); toast(err.message); });
    } else {
      fill([]);
    }
    if (!dialog.open) dialog.showModal();
  }

  /* A text parameter whose values are entries of a list on this sheet (a move's stat is one of
   * the sheet's own stats, `choices_from`): offered as a list of their names, not typed. */
  function ownChoices(spec) {
    var list = spec.choices_from && sheet.data && sheet.data.state && sheet.data.state[spec.choices_from];
    if (spec.type !== "str" || !Array.isArray(list) || !list.length) return spec;
    var choices = list.filter(function (e) { return e && e.key; }).map(function (e) {
      return { key: e.key, ru: e.ru || e.key, en: e.en || e.ru || e.key };
    });
    return Object.assign({}, spec, { type: "choice", choices: choices });
  }

  function moveParamsValue() {
    var out = {};
    Object.keys(active.params).forEach(function (k) { out[k] = active.params[k].get(); });
    return out;
  }

  function scheduleOdds(delay) {
    if (!active || !active.spec.roll) return;
    clearTimeout(active.oddsTimer);
    var mine = active;
    active.oddsTimer = setTimeout(function () { loadOdds(mine); }, delay === undefined ? 250 : delay);
  }

  function loadOdds(mine) {
    if (active !== mine) return;
    var seq = ++mine.oddsSeq;
    var params = moveParamsValue();
    var specs = mine.spec.params || {};
    var missing = Object.keys(specs).filter(function (k) {
      return specs[k].required && k in params && (params[k] === null || params[k] === "");
    });
    if (missing.length) {
      moveOdds.textContent = "";
      moveOdds.appendChild(h("p", { "class": "odds-hint muted", text: fmt(gettext("To see the chances, choose {names} first."), {
        names: missing.map(function (k) { return "«" + label(specs[k], k) + "»"; }).join(", "),
      }) }));
      return;
    }
    moveOdds.setAttribute("aria-busy", "true");
    var url = urls.odds.replace("MOVE", mine.spec.key) + "?params=" + encodeURIComponent(JSON.stringify(params));
    call("GET", url).then(function (odds) {
      if (active !== mine || seq !== mine.oddsSeq) return;
      renderOdds(mine.spec, odds || {});
    }, function (err) {
      if (active !== mine || seq !== mine.oddsSeq) return;
      moveOdds.textContent = "";
      moveOdds.appendChild(h("p", { "class": "odds-error muted", text: err.message }));
    }).then(function () { moveOdds.removeAttribute("aria-busy"); });
  }

  function renderOdds(spec, odds) {
    moveOdds.textContent = "";
    var bands = Object.keys(odds);
    if (!bands.length) return;
    var list = h("ul", { "class": "odds-list" });
    bands.forEach(function (band) {
      var p = Number(odds[band]);
      var result = spec.results && spec.results[band] ? tr(spec.results[band]) : "";
      list.appendChild(h("li", { "class": "odds-row", "data-band": band }, [
        h("span", { "class": "band band-" + String(band).replace(/[^a-z0-9]/gi, "_"), text: M.bandLabel(band) }),
        h("span", { "class": "odds-p", "data-p": String(p), text: percent.format(p * 100) + "%" }),
        result ? h("span", { "class": "odds-result", text: result }) : null,
      ]));
    });
    moveOdds.appendChild(h("h3", { "class": "odds-title", text: gettext("Chances") }));
    moveOdds.appendChild(list);
  }

  moveParams.addEventListener("input", function () { scheduleOdds(); });
  moveParams.addEventListener("change", function () { scheduleOdds(); });

  moveForm.addEventListener("submit", function (event) {
    event.preventDefault();
    if (!active) return;
    var mine = active;
    var body = { params: moveParamsValue() };
    if (mine.target) body.target_id = mine.target.value ? Number(mine.target.value) : null;
    moveGo.disabled = true;
    moveError.hidden = true;
    clearErrors(moveParams);
    var previous = moveGo.textContent;
    moveGo.textContent = gettext("Rolling…");
    var named = { command: "character.move", args: { cid: sheet.data.id, move: mine.spec.key } };
    call("POST", urls.move.replace("MOVE", mine.spec.key), body, named).then(function (data) {
      if (active !== mine) return;
      showOutcome(mine.spec, data);
      incoming(data.character);
    }, function (err) {
      if (active !== mine) return;
      var rest = err.status === 400 && err.data ? showErrors(moveParams, err.data.fields, err.message) : err.message;
      moveError.textContent = rest || err.message;
      moveError.hidden = false;
    }).then(function () {
      moveGo.disabled = false;
      moveGo.textContent = previous;
    });
  });

  function showOutcome(spec, data) {
    moveOutcome.textContent = "";
    var o = data.outcome || {};
    var box = h("div", { "class": "result", "data-pending-id": data.pending_id ? String(data.pending_id) : null }, [
      h("h3", { "class": "result-title", text: gettext("Result") }),
      M.outcomeNode(o),
    ]);
    if (data.pending_id) box.appendChild(pendingChoice(data.pending_id, o, function (next) {
      moveOutcome.textContent = "";
      showOutcome(spec, next);
    }));
    moveOutcome.appendChild(box);
    box.scrollIntoView({ block: "start" });
  }

  function mayChoose(chooser) {
    var acting = editable || config.isReferee;
    return acting && M.isChooser(chooser, sheet.data.owner_id, me, config.isReferee);
  }

  function pendingChoice(pendingId, outcome, after) {
    return M.choiceNode({
      options: outcome.options,
      pick: outcome.pick,
      chooser: outcome.chooser,
      // the server names who answers (the rules' "opponent" becomes "target" or "referee"); a
      // reaction or an opponent's pick waiting on this sheet is the target's player's, whoever
      // owns the moving sheet, and the server's `mine` says whether that is this user
      mine: outcome.chooser === "target" && outcome.mine !== undefined
        ? !!outcome.mine : mayChoose(outcome.chooser),
      csrf: config.csrf,
      url: urls.pending + pendingId + "/",
      sheetId: sheet.data.id, pendingId: pendingId,
      onDone: function (data) {
        incoming(data.character);
        refreshPending();
        if (after) after(data);
      },
      onGone: function () { refreshPending(); M.markResolved(pendingId, page); },
    });
  }

  dialog.addEventListener("click", function (event) {
    if (event.target.closest("[data-close]")) dialog.close();
  });
  dialog.addEventListener("close", function () {
    if (active) clearTimeout(active.oddsTimer);
    active = null;
  });

  Array.prototype.forEach.call(page.querySelectorAll("[data-move]"), function (button) {
    button.addEventListener("click", function () { openMove(button.getAttribute("data-move")); });
  });

  // ---- pending choices and latest results ------------------------------------------------------

  var pendingPanel = document.getElementById("pending-panel");
  var pendingList = document.getElementById("pending-list");
  var pendingSeq = 0;

  function refreshPending() {
    var seq = ++pendingSeq;
    call("GET", urls.pending).then(function (rows) {
      if (seq !== pendingSeq) return;
      pendingList.textContent = "";
      (rows || []).forEach(function (row) {
        var li = h("li", { "class": "pending-entry", "data-pending-id": String(row.id) }, [
          h("strong", { "class": "move-name", text: moveName(row.move) }),
          row.text ? h("p", { "class": "outcome-text", text: tr(row.text) }) : null,
          pendingChoice(row.id, {
            options: row.options, pick: row.pick, chooser: row.chooser, mine: row.mine,
          }, null),
        ]);
        pendingList.appendChild(li);
      });
      pendingPanel.hidden = !(rows && rows.length);
    }, function () {});
  }

  var recentPanel = document.getElementById("recent-panel");
  var recentList = document.getElementById("recent-list");
  var timeFormat = new Intl.DateTimeFormat(config.lang, { hour: "2-digit", minute: "2-digit", second: "2-digit" });

  function addRecent(ev) {
    var p = ev.payload;
    var li = h("li", { "class": "recent-entry", "data-seq": String(ev.seq), "data-pending-id": p.pending_id ? String(p.pending_id) : null }, [
      h("div", { "class": "recent-head" }, [
        h("strong", { "class": "move-name", text: tr(p.move_name) }),
        ev.actor ? h("span", { "class": "muted", text: ev.actor.name }) : null,
        h("time", { datetime: ev.created_at, text: timeFormat.format(new Date(ev.created_at)) }),
      ]),
      M.outcomeNode(p.outcome),
    ]);
    if (p.pending_id) {
      li.appendChild(h("p", { "class": "awaiting muted", text: p.outcome && p.outcome.chooser === "referee" ? gettext("Waiting for the referee's choice") : gettext("Waiting for the player's choice") }));
    }
    if (p.resolves) M.markResolved(p.resolves, page);
    recentList.insertBefore(li, recentList.firstChild);
    while (recentList.children.length > 10) recentList.removeChild(recentList.lastChild);
    recentPanel.hidden = false;
  }

  function addDetails(ev) {
    var node = M.detailsNode(ev.payload.details);
    if (!node) return;
    var first = recentList.firstElementChild;
    if (first) first.appendChild(h("div", { "class": "details" }, [h("small", { "class": "badge", text: gettext("Referee only") }), node]));
  }

  // ---- live: the table socket ------------------------------------------------------------------

  var connNode = document.getElementById("conn");
  function setConn(state) {
    connNode.setAttribute("data-state", state);
    var text = { connected: gettext("Live"), connecting: gettext("Connecting…"), reconnecting: gettext("Reconnecting…"), offline: gettext("Offline"), denied: gettext("No access") }[state];
    connNode.querySelector(".conn-text").textContent = text || state;
  }

  function onEvent(ev) {
    var p = ev.payload || {};
    var mineSheet = p.character_id === sheet.data.id;
    switch (ev.kind) {
      case "character.updated":
        if (!mineSheet) { charactersPromise = null; return; }
        if (p.version <= sheet.version) return;
        if (ev.actor) sheet.lastEditor = { version: p.version, name: ev.actor.name };
        if (config.full) {
          call("GET", urls.character).then(incoming, function () {});
        } else {
          var data = Object.assign({}, sheet.data, { name: p.name, version: p.version, state: Object.assign({ name: p.name }, p.public || {}) });
          incoming(data);
        }
        return;
      case "character.deleted":
        charactersPromise = null;
        if (!mineSheet) return;
        sheet.deleted = true;
        banner.querySelector(".banner-text").textContent = gettext("This character was deleted.");
        Array.prototype.forEach.call(banner.querySelectorAll("button"), function (b) { b.hidden = true; });
        banner.hidden = false;
        Array.prototype.forEach.call(page.querySelectorAll("input, select, textarea, button"), function (n) { n.disabled = true; });
        return;
      case "character.created":
        charactersPromise = null;
        return;
      case "move":
        if (!mineSheet) return;
        addRecent(ev);
        refreshPending();
        return;
      case "move.details":
        if (mineSheet) addDetails(ev);
        return;
      default:
        return;
    }
  }

  var deleteButton = document.getElementById("delete-character");
  if (deleteButton) {
    deleteButton.addEventListener("click", function () {
      if (!window.confirm(gettext("Delete this character for good?"))) return;
      deleteButton.disabled = true;
      call("DELETE", urls.character).then(function () {
        sheet.deleted = true;
        location.href = urls.list;
      }, function (err) {
        deleteButton.disabled = false;
        toast(err.message);
      });
    });
  }

  // ---- start -----------------------------------------------------------------------------------

  render(sheet.base);
  refreshPending();
  var socket = connectSocket({ url: urls.ws, position: config.head, onEvent: onEvent, onState: setConn });
  useSocket(socket); // the sheet's actions travel on it as commands

  // For tests and the curious.
  return {
    version: function () { return sheet.version; },
    dirty: dirty,
    state: current,
    socket: function () { return socket.state(); },
  };
}

/** The sheet on the page (null without one), for the unit tests (tests/js). */
export const sheetPage = start();
