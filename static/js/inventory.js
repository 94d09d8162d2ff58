/* The Crows inventory slot board (vtt/rulesets/crows/templates/crows/inventory.html).
 *
 * The server knows the rules: every drop is a character action, the `character.move` command
 * (POST /api/characters/<id>/moves/<action>/ {params}), sent over the table socket (socket.js)
 * when it is connected, else by HTTP. Nothing moves on the page until the
 * server answers; an accepted drop redraws from the sheet it returns, a refused one (400)
 * leaves the board as it was and shows the server's reason.
 *
 * Three ways to move an item, all ending in the same `perform(source, target)`:
 *   - a mouse drag (pointer events; starts after a few pixels of movement);
 *   - a touch drag: press and hold ~¼ s, then drag (a quick swipe still scrolls the page);
 *   - tap or keyboard: select an item (tap, Enter or Space), then tap or Enter a target slot.
 *
 * Other browsers on this board follow `character.updated` events for this character over the
 * table socket and fetch the sheet when its version moves past theirs.
 */
import { request as apiRequest, useSocket } from "./api.js";
import { h } from "./lib/dom.js";
import { fmt } from "./lib/format.js";
import { gettext, pgettext } from "./lib/i18n.js";
import { connect as connectSocket } from "./socket.js";

// The slot areas (systems/crows/inventory.py), by key.
const AREA_NAMES = {
  hands: gettext("Hand slots"),
  belt: gettext("Belt slots"),
  backpack: gettext("Backpack slots"),
};

// The six magic item slots; "Waist" and "Arms" must not read like the belt and hand slots.
const MAGIC_SLOT_NAMES = {
  head: pgettext("magic item slot", "Head"),
  neck: pgettext("magic item slot", "Neck"),
  waist: pgettext("magic item slot", "Waist"),
  arms: pgettext("magic item slot", "Arms"),
  finger: pgettext("magic item slot", "Finger"),
  feet: pgettext("magic item slot", "Feet"),
};

// Wear-dice keywords, by key.
const WEAR_KEYWORD_NAMES = {
  useless: pgettext("wear keyword", "Useless"),
  refuel: pgettext("wear keyword", "Refuel"),
  rest: pgettext("wear keyword", "Rest"),
  activation: pgettext("wear keyword", "Activation"),
  dungeon_turn: pgettext("wear keyword", "Dungeon turn"),
};

function start() {
  var root = document.getElementById("inventory");
  var configNode = document.getElementById("inventory-config");
  if (!root || !configNode) return null;
  var config = JSON.parse(configNode.textContent);
  var editable = !!config.editable;
  var characterId = config.character.id;

  var LONG_PRESS_MS = 260;
  var TOUCH_SLOP = 10;   // px a finger may wander before a press becomes a scroll
  var MOUSE_SLOP = 4;    // px before a mouse press becomes a drag

  var AREAS = {};
  config.areas.forEach(function (a) { a.label = AREA_NAMES[a.key] || a.key; AREAS[a.key] = a; });
  var MAGIC = MAGIC_SLOT_NAMES;
  var magicSlots = config.magicSlots.map(function (key) { return { key: key, label: MAGIC[key] || key }; });
  var KEYWORDS = WEAR_KEYWORD_NAMES;

  var state = {
    character: config.character,
    selected: null,  // {kind: "item"|"wound", ...} while choosing a target by tap or keyboard
    detail: null,    // item id shown in the details panel
    press: null,     // a pointer press that may become a drag
    drag: null,      // the drag in progress
    busy: false,     // a write is in flight
    dirty: false,    // a newer sheet arrived during a drag: redraw after it
    deleted: false,
    dragEndedAt: 0,
  };

  // ---- helpers -------------------------------------------------------------------------------

  function inv() { return state.character.state.inventory; }
  function sheet() { return state.character.state; }

  function span(p) {
    var out = [];
    for (var s = p.slot; s < p.slot + p.items[0].slots; s++) out.push(s);
    return out;
  }

  function topCard(p) { return p.items[p.items.length - 1]; }

  function placementOf(id) {
    var placed = inv().placed;
    for (var i = 0; i < placed.length; i++) {
      for (var j = 0; j < placed[i].items.length; j++) {
        if (placed[i].items[j].id === id) return placed[i];
      }
    }
    return null;
  }

  function magicOf(id) {
    var magic = inv().magic;
    for (var key in magic) {
      for (var j = 0; j < magic[key].length; j++) if (magic[key][j].id === id) return key;
    }
    return null;
  }

  function cardById(id) {
    var p = placementOf(id);
    if (p) return p.items.filter(function (c) { return c.id === id; })[0];
    var key = magicOf(id);
    if (key) return inv().magic[key].filter(function (c) { return c.id === id; })[0];
    return null;
  }

  function stackLimit(p) {
    if (p.area === "hands") return 1;
    return Math.min.apply(null, p.items.map(function (c) { return c.stack; }));
  }

  function itemSlotsInBackpack() {
    var taken = {};
    inv().placed.forEach(function (p) {
      if (p.area === "backpack") span(p).forEach(function (s) { taken[s] = true; });
    });
    return taken;
  }

  function speedInfo() {
    var st = sheet();
    var items = itemSlotsInBackpack();
    var penalty = inv().wounds.filter(function (w) { return items[w.slot]; }).length;
    var value = Math.max(0, st.speed - penalty);
    var keys = (st.conditions || []).map(function (c) { return c.key; });
    if (keys.indexOf("grabbed") >= 0 || keys.indexOf("unconscious") >= 0) value = 0;
    else if (keys.indexOf("prone") >= 0) value = Math.floor(value / 2);
    return { penalty: penalty, value: value };
  }

  function overloaded() {
    var magic = inv().magic;
    return Object.keys(magic).filter(function (k) { return magic[k].length > 1; });
  }

  function areaLabel(area) { return AREAS[area] ? AREAS[area].label : area; }

  function cellPosition(area, slot) {
    var cols = AREAS[area].columns;
    return { row: Math.floor((slot - 1) / cols) + 1, col: ((slot - 1) % cols) + 1 };
  }

  /* The runs of a placement, one per grid row: a 3-slot item in backpack slots 4-6 is drawn
   * as slots 4-5 at the end of the first row and slot 6 at the start of the second. */
  function segments(p) {
    var out = [];
    span(p).forEach(function (slot) {
      var pos = cellPosition(p.area, slot);
      var last = out[out.length - 1];
      if (last && last.row === pos.row) last.count += 1;
      else out.push({ row: pos.row, col: pos.col, start: slot, count: 1 });
    });
    return out;
  }

  // ---- messages ------------------------------------------------------------------------------

  // The alert floats at the top of the screen (css), so a refusal is seen wherever the drop
  // was made on a long phone page.
  var alertNode = document.getElementById("inv-alert");
  var alertText = alertNode.querySelector(".inv-alert-text");
  var noticeNode = document.getElementById("inv-notice");
  var noticeTimer = null;

  var alertTimer = null;
  function showAlert(text) {
    noticeNode.hidden = true;
    alertText.textContent = text;
    alertNode.hidden = false;
    clearTimeout(alertTimer);
    alertTimer = setTimeout(clearAlert, 15000);
  }

  function clearAlert() { alertNode.hidden = true; alertText.textContent = ""; }
  alertNode.querySelector(".inv-alert-close").addEventListener("click", clearAlert);

  function notice(text) {
    noticeNode.textContent = text;
    noticeNode.hidden = false;
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(function () { noticeNode.hidden = true; }, 7000);
  }

  // ---- the server ----------------------------------------------------------------------------

  /* options.command/args name the table command (docs/table-protocol.md, "Commands"): sent
   * over the page's socket when it is connected, else by HTTP, with an idempotency key. */
  function request(method, url, body, options) {
    var all = { csrf: config.csrf };
    if (options) { all.command = options.command; all.args = options.args; }
    return apiRequest(method, url, body, all);
  }

  function moveCommand(move) {
    return { command: "character.move", args: { cid: characterId, move: move } };
  }

  /* One character action. Resolves with the outcome after the board shows the new sheet;
   * rejects with the server's message, the board untouched. */
  function act(move, params) {
    return request("POST", config.urls.move.replace("MOVE", move), { params: params || {} }, moveCommand(move))
      .then(function (data) {
        applySheet(data.character);
        return data.outcome;
      });
  }

  function applySheet(character) {
    if (!character || character.version < state.character.version) return;
    state.character = character;
    // Never redraw under a finger or the mouse: the press would lose its element.
    if (state.drag || state.press) { state.dirty = true; return; }
    render();
  }

  function flushDirty() {
    if (state.dirty && !state.drag && !state.press) {
      state.dirty = false;
      render();
    }
  }

  var refreshTimer = null;
  function scheduleRefresh() {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(refresh, 80);
  }

  function refresh() {
    return request("GET", config.urls.character).then(function (character) {
      if (character.version !== state.character.version) applySheet(character);
    }, function (err) {
      if (err.status === 404) markDeleted();
    });
  }

  function markDeleted() {
    state.deleted = true;
    editable = false;
    root.setAttribute("data-editable", "0");
    showAlert(gettext("This character was deleted."));
  }

  // ---- drawing -------------------------------------------------------------------------------

  var areasBox = document.getElementById("inv-areas");
  var magicBox = document.getElementById("inv-magic");
  var wornBox = document.getElementById("inv-worn");
  var summaryBox = document.getElementById("inv-summary");
  var detailsBox = document.getElementById("inv-details");
  var hintBox = document.getElementById("inv-hint");
  var hintText = hintBox.querySelector(".inv-hint-text");

  function badge(text, cls) {
    return h("span", { "class": "inv-badge" + (cls ? " " + cls : ""), text: text });
  }

  function cardBadges(card, p) {
    var out = [];
    if (card.slots > 1) out.push(badge(fmt(gettext("{n} sl."), { n: card.slots }), "b-slots"));
    if (p && (p.items.length > 1 || stackLimit(p) > 1)) {
      out.push(badge(fmt(gettext("stack {count}/{limit}"), { count: p.items.length, limit: stackLimit(p) }), "b-stack"));
    }
    if (card.wear) {
      var words = card.wear.keywords.map(function (k) { return KEYWORDS[k] || k; }).join(", ");
      out.push(badge(fmt(gettext("wear dice {dice}/{max}"), { dice: card.wear.dice, max: card.wear.max }) + (words ? " · " + words : ""), "b-wear"));
    }
    if (card.armour) {
      out.push(badge(fmt(gettext("AD {defence}/{max}"), { defence: card.armour.defence, max: card.armour.max }) +
        (card.armour.shield ? " · " + gettext("shield") : ""), "b-armour"));
    }
    if (card.damage) {
      var d = card.damage;
      out.push(badge(fmt(gettext("damage {t1} / {t2} / {t3}"), { t1: d.tier1 || "—", t2: d.tier2 || "—", t3: d.tier3 || "—" }) +
        (d.piercing ? " · " + gettext("piercing") : ""), "b-damage"));
    }
    if (card.light) {
      out.push(badge(fmt(gettext("light {bright}/{dim}"), { bright: card.light.bright, dim: card.light.dim }) +
        (card.light.lit ? " · " + gettext("lit") : ""), "b-light" + (card.light.lit ? " lit" : "")));
    }
    if (card.magic) out.push(badge(gettext("magic") + (card.magic_slot ? ": " + (MAGIC[card.magic_slot] || card.magic_slot) : ""), "b-magic"));
    if (inv().worn_armour === card.id || (p && magicOf(card.id))) out.push(badge(gettext("worn"), "b-worn"));
    if (card.useless) out.push(badge(gettext("useless"), "b-bad"));
    if (card.fragile) out.push(badge(gettext("fragile")));
    if (!card.identified) out.push(badge(gettext("unidentified")));
    return out;
  }

  function describe(card, p, where) {
    var parts = [card.name || card.id, where];
    cardBadges(card, p).forEach(function (b) { parts.push(b.textContent); });
    return parts.filter(Boolean).join(", ");
  }

  function itemNode(card, p, seg, segIndex, where) {
    var first = segIndex === 0;
    var attrs = {
      "class": "inv-item" + (first ? "" : " inv-cont") + (card.slots > 1 ? " multi" : "") +
        (inv().worn_armour === card.id ? " is-worn" : "") + (card.magic ? " is-magic" : "") +
        (card.useless ? " is-useless" : ""),
      "data-drag": editable ? "item" : null,
      "data-item": card.id,
      "data-focus": "item:" + card.id + ":" + segIndex,
      "data-seg-start": seg ? seg.start : null,
      "data-seg-count": seg ? seg.count : 1,
      tabindex: first ? 0 : -1,
      role: "button",
      "aria-pressed": state.detail === card.id ? "true" : "false",
      "aria-label": describe(card, p, where),
      title: describe(card, p, where),
    };
    if (p) {
      attrs["data-area"] = p.area;
      attrs["data-slot"] = p.slot;
      attrs.style = "grid-row:" + seg.row + ";grid-column:" + seg.col + " / span " + seg.count;
    }
    var children = [];
    if (first) {
      children.push(h("span", { "class": "inv-name", text: card.name || card.id }, []));
      var badges = cardBadges(card, p);
      if (p && (p.items.length > 1 || stackLimit(p) > 1)) {
        // The short form of the stack badge, for narrow cells.
        badges.unshift(h("span", { "class": "inv-badge inv-count", "aria-hidden": "true", text: "×" + p.items.length + "/" + stackLimit(p) }));
      }
      children.push(h("span", { "class": "inv-badges" }, badges));
    } else {
      children.push(h("span", { "class": "inv-name muted", text: "↪ " + (card.name || card.id) }));
    }
    return h("div", attrs, children);
  }

  function renderAreas() {
    areasBox.textContent = "";
    config.areas.forEach(function (area) {
      var rows = Math.ceil(area.slots / area.columns);
      var grid = h("div", {
        "class": "inv-grid",
        "data-grid": area.key,
        style: "grid-template-columns:repeat(" + area.columns + ",minmax(0,1fr));grid-template-rows:repeat(" + rows + ",auto)",
      });
      for (var s = 1; s <= area.slots; s++) {
        var pos = cellPosition(area.key, s);
        grid.appendChild(h("div", {
          "class": "inv-slot",
          "data-drop": area.key + ":" + s,
          "data-area": area.key,
          "data-slot": s,
          "data-focus": "slot:" + area.key + ":" + s,
          role: "button",
          tabindex: state.selected ? 0 : -1,
          "aria-label": fmt(gettext("{area}, slot {n}"), { area: area.label, n: s }),
          style: "grid-row:" + pos.row + ";grid-column:" + pos.col,
        }, [h("span", { "class": "inv-slot-no", "aria-hidden": "true", text: String(s) })]));
      }
      var count = 0;
      inv().placed.forEach(function (p) {
        if (p.area !== area.key) return;
        var card = topCard(p);
        count += p.items.length;
        var where = fmt(gettext("{area}, slot {n}"), { area: area.label, n: p.slot });
        segments(p).forEach(function (seg, i) { grid.appendChild(itemNode(card, p, seg, i, where)); });
      });
      if (area.key === "backpack") {
        inv().wounds.forEach(function (w) {
          var pos = cellPosition("backpack", w.slot);
          grid.appendChild(h("span", {
            "class": "inv-wound" + (w.hunger ? " hunger" : ""),
            "data-drag": editable ? "wound" : null,
            "data-wound": w.slot,
            "data-focus": "wound:" + w.slot,
            role: "button",
            tabindex: editable ? 0 : -1,
            title: (w.hunger ? gettext("Hunger wound") : gettext("Wound")) + " · " + fmt(gettext("slot {n}"), { n: w.slot }),
            "aria-label": (w.hunger ? gettext("Hunger wound") : gettext("Wound")) + ", " + fmt(gettext("slot {n}"), { n: w.slot }),
            style: "grid-row:" + pos.row + ";grid-column:" + pos.col,
          }, [w.hunger ? "✚" : "✚"]));
        });
      }
      var section = h("section", { "class": "card inv-area", "data-area": area.key }, [
        h("h2", {}, [area.label, h("small", { "class": "muted", text: " · " + fmt(gettext("items: {n}"), { n: count }) })]),
        grid,
      ]);
      areasBox.appendChild(section);
    });
  }

  function renderMagic() {
    magicBox.textContent = "";
    var heavy = overloaded();
    magicSlots.forEach(function (m) {
      var cards = inv().magic[m.key] || [];
      var box = h("div", {
        "class": "inv-magic-slot" + (heavy.indexOf(m.key) >= 0 ? " overloaded" : ""),
        "data-drop": "magic:" + m.key,
        "data-magic-slot": m.key,
        "data-focus": "magic:" + m.key,
        role: "button",
        tabindex: state.selected ? 0 : -1,
        "aria-label": m.label,
      }, [h("span", { "class": "inv-magic-label", text: m.label })]);
      if (!cards.length) box.appendChild(h("span", { "class": "muted inv-magic-empty", text: gettext("empty") }));
      cards.forEach(function (card, i) {
        var node = itemNode(card, null, null, 0, m.label);
        node.setAttribute("data-magic", m.key);
        node.setAttribute("data-focus", "item:" + card.id + ":m" + i);
        box.appendChild(node);
      });
      magicBox.appendChild(box);
    });
  }

  function renderWorn() {
    wornBox.textContent = "";
    var id = inv().worn_armour;
    var card = id ? cardById(id) : null;
    var zone = h("div", { "class": "inv-worn-zone", "data-drop": "worn", "data-focus": "worn", role: "button",
      tabindex: state.selected ? 0 : -1, "aria-label": gettext("Worn armour") });
    if (card) {
      zone.appendChild(h("span", { "class": "inv-name", text: card.name }));
      if (card.armour) zone.appendChild(badge(fmt(gettext("AD {defence}/{max}"), { defence: card.armour.defence, max: card.armour.max }), "b-armour"));
      if (editable) {
        var off = h("button", { type: "button", "class": "small", "data-action": "take_off_armour", text: gettext("Take off") });
        zone.appendChild(off);
      }
    } else {
      zone.appendChild(h("span", { "class": "muted", text: gettext("No armour worn. Drop armour from the backpack here.") }));
    }
    wornBox.appendChild(zone);
  }

  function renderSummary() {
    summaryBox.textContent = "";
    var sp = speedInfo();
    var wounds = inv().wounds.length;
    summaryBox.appendChild(h("span", { "class": "inv-pill", "data-speed": sp.value, text: fmt(gettext("Speed {value}"), { value: sp.value }) }));
    summaryBox.appendChild(h("span", {
      "class": "inv-pill" + (wounds ? " warn" : ""), "data-wounds": wounds,
      text: fmt(gettext("Wounds: {n} of {max}"), { n: wounds, max: AREAS.backpack.slots }),
    }));
    if (sp.penalty) {
      summaryBox.appendChild(h("span", {
        "class": "inv-pill bad", "data-penalty": sp.penalty, text: fmt(gettext("−{n} speed: wounds in slots with items"), { n: sp.penalty }),
      }));
    }
    var heavy = overloaded();
    if (heavy.length) {
      summaryBox.appendChild(h("span", {
        "class": "inv-pill bad inv-overload",
        text: fmt(gettext("Overloaded magic slot: {slots}. No rest, and 1d6 wounds at the end of every dungeon turn."), { slots: heavy.map(function (k) { return MAGIC[k] || k; }).join(", ") }),
      }));
    }
  }

  function actionButton(action, label, cls) {
    return h("button", { type: "button", "class": "small" + (cls ? " " + cls : ""), "data-action": action, text: label });
  }

  function renderDetails() {
    var id = state.detail;
    var card = id ? cardById(id) : null;
    detailsBox.textContent = "";
    if (!card) { detailsBox.hidden = true; state.detail = null; return; }
    var p = placementOf(id);
    var worn = magicOf(id);
    var where = worn ? MAGIC[worn] : (p ? fmt(gettext("{area}, slot {n}"), { area: areaLabel(p.area), n: p.slot }) : "");
    detailsBox.hidden = false;
    detailsBox.appendChild(h("h2", { text: card.name || card.id }));
    detailsBox.appendChild(h("p", { "class": "muted", text: where }));
    detailsBox.appendChild(h("div", { "class": "inv-badges" }, cardBadges(card, p)));
    if (card.note) detailsBox.appendChild(h("p", { "class": "inv-note", text: card.note }));
    if (p && p.items.length > 1) {
      var list = h("ul", { "class": "inv-stack-list" });
      p.items.forEach(function (c) {
        list.appendChild(h("li", {}, [
          c.name || c.id,
          editable ? h("button", { type: "button", "class": "small", "data-action": "drop_item", "data-item": c.id, text: gettext("Drop this one") }) : null,
        ]));
      });
      detailsBox.appendChild(h("h3", { text: gettext("In this stack") }));
      detailsBox.appendChild(list);
    }
    if (!editable) return;
    var actions = h("div", { "class": "inv-actions" });
    if (inRounds() && p && p.area === "backpack" && card.slots <= 2) actions.appendChild(actionButton("retrieve", gettext("Retrieve from backpack")));
    if (card.armour && !card.armour.shield) {
      if (inv().worn_armour === id) actions.appendChild(actionButton("take_off_armour", gettext("Take off armour")));
      else if (p && p.area === "backpack") actions.appendChild(actionButton("wear_armour", gettext("Wear armour")));
    }
    if (card.magic && !worn) actions.appendChild(actionButton("equip_magic", gettext("Wear in a magic slot")));
    if (worn) actions.appendChild(actionButton("unequip_magic", gettext("Take off the magic item")));
    if (card.light) actions.appendChild(actionButton(card.light.lit ? "extinguish" : "light", card.light.lit ? gettext("Put out") : gettext("Light")));
    if (card.wear && card.wear.keywords.indexOf("activation") >= 0) actions.appendChild(actionButton("use_item", gettext("Use")));
    actions.appendChild(actionButton("drop_item", gettext("Drop"), "danger"));
    detailsBox.appendChild(actions);
  }

  function renderHint() {
    var sel = state.selected;
    root.classList.toggle("placing", !!sel);
    hintBox.hidden = !sel;
    if (!sel) return;
    if (sel.kind === "wound") hintText.textContent = fmt(gettext("Selected: the wound in slot {n}. Tap a backpack slot to move it."), { n: sel.slot });
    else {
      var card = cardById(sel.id);
      hintText.textContent = fmt(gettext("Selected: {name}. Tap a slot to move it there."), { name: card ? card.name : sel.id });
    }
  }

  function render() {
    var focusKey = document.activeElement && document.activeElement.getAttribute &&
      document.activeElement.getAttribute("data-focus");
    if (state.selected && state.selected.kind === "item" && !cardById(state.selected.id)) state.selected = null;
    if (state.selected && state.selected.kind === "wound" &&
        !inv().wounds.some(function (w) { return w.slot === state.selected.slot; })) state.selected = null;
    root.setAttribute("data-version", String(state.character.version));
    renderAreas();
    renderMagic();
    renderWorn();
    renderSummary();
    renderDetails();
    renderHint();
    if (state.selected && state.selected.kind === "item") {
      Array.prototype.forEach.call(root.querySelectorAll('[data-item="' + cssEscape(state.selected.id) + '"].inv-item'), function (n) {
        n.classList.add("selected");
      });
    }
    if (focusKey) {
      var again = root.querySelector('[data-focus="' + cssEscape(focusKey) + '"]');
      if (again) again.focus({ preventScroll: true });
    }
  }

  function cssEscape(text) {
    return window.CSS && CSS.escape ? CSS.escape(text) : String(text).replace(/["\\]/g, "\\$&");
  }

  // ---- what a drop means -----------------------------------------------------------------------

  /* The source of a move: an item (with where it is and which of its slots was grabbed) or a
   * wound. */
  function sourceFromNode(node, grabSlot) {
    if (node.hasAttribute("data-wound")) return { kind: "wound", slot: Number(node.getAttribute("data-wound")) };
    var id = node.getAttribute("data-item");
    var magic = node.getAttribute("data-magic");
    if (magic) return { kind: "item", id: id, magic: magic, offset: 0, slots: cardById(id).slots };
    var first = Number(node.getAttribute("data-slot"));
    var p = placementOf(id);
    return {
      kind: "item",
      id: topCard(p).id,
      area: node.getAttribute("data-area"),
      slot: first,
      offset: grabSlot ? Math.max(0, grabSlot - first) : 0,
      slots: p.items[0].slots,
    };
  }

  function parseTarget(value) {
    var parts = String(value).split(":");
    if (parts[0] === "magic") return { kind: "magic", key: parts[1] };
    if (parts[0] === "worn" || parts[0] === "floor") return { kind: parts[0] };
    return { kind: "slot", area: parts[0], slot: Number(parts[1]) };
  }

  /* Where the item's first slot lands when the grabbed slot is dropped on `slot`. */
  function landing(source, target) {
    return Math.max(1, target.slot - (source.offset || 0));
  }

  function perform(source, targetValue) {
    var target = parseTarget(targetValue);
    if (source.kind === "wound") {
      if (target.kind !== "slot" || target.area !== "backpack" || target.slot === source.slot) return Promise.resolve(null);
      return run("move_wound", { from_slot: source.slot, to_slot: target.slot });
    }
    var id = source.id;
    if (target.kind === "floor") return run("drop_item", { item_id: id });
    if (target.kind === "worn") {
      if (inv().worn_armour === id) return Promise.resolve(null);
      return run("wear_armour", { item_id: id, in_rounds: inRounds() });
    }
    if (target.kind === "magic") {
      if (source.magic === target.key) return Promise.resolve(null);
      if (source.magic) {
        // From one magic slot to another: take it off into the backpack, then wear it again.
        return run("unequip_magic", { item_id: id, target: "backpack" }).then(function (out) {
          return out && run("equip_magic", { item_id: id, magic_slot: target.key });
        });
      }
      return run("equip_magic", { item_id: id, magic_slot: target.key });
    }
    var first = landing(source, target);
    var where = target.area + ":" + first;
    if (source.magic) return run("unequip_magic", { item_id: id, target: where });
    if (source.area === target.area && source.slot === first) return Promise.resolve(null);
    if (inRounds() && source.area === "backpack" && target.area === "hands") {
      // Достать из рюкзака («Слоты инвентаря › Перекладывание между слотами»): a maneuver and a d10 the server rolls.
      var holder = inv().placed.filter(function (p) {
        return p.area === "hands" && span(p).indexOf(target.slot) >= 0;
      })[0];
      return run("retrieve", {
        item_id: id, make_room: "swap", release: holder ? [topCard(holder).id] : [],
      });
    }
    return run("move_item", { item_id: id, target: where, in_rounds: inRounds() });
  }

  function run(move, params) {
    state.busy = true;
    root.classList.add("busy");
    var pending = params.item_id ? root.querySelectorAll('[data-item="' + cssEscape(params.item_id) + '"].inv-item') : [];
    Array.prototype.forEach.call(pending, function (n) { n.classList.add("pending"); });
    return act(move, params).then(function (outcome) {
      clearAlert();
      report(move, outcome);
      return outcome;
    }, function (err) {
      Array.prototype.forEach.call(pending, function (n) { n.classList.remove("pending"); });
      showAlert(fmt(gettext("Refused: {reason}"), { reason: err.message }));
      if (err.status === 409 && err.data && err.data.code !== "campaign_archived") refresh();
      return null;
    }).then(function (result) {
      state.busy = false;
      root.classList.remove("busy");
      return result;
    });
  }

  function report(move, outcome) {
    if (!outcome) return;
    if (move === "retrieve") {
      var d = outcome.details || {};
      notice(fmt(outcome.flags && outcome.flags.success ? gettext("d10 = {roll} (needs {needed}+): the item is in hand.") : gettext("d10 = {roll} (needs {needed}+): not retrieved. The maneuver is spent; you may rearrange the backpack."),
        { roll: outcome.total, needed: d.needed }));
    } else if (move === "dump_backpack") {
      var names = ((outcome.details || {}).dropped || []).map(function (c) { return c.name || c.id; });
      notice(names.length ? fmt(gettext("Dumped: {names}."), { names: names.join(", ") }) : gettext("The backpack is empty."));
    } else if (move === "equip_magic" && outcome.flags && outcome.flags.overloaded &&
               outcome.flags.overloaded.length && outcome.text) {
      notice(outcome.text[config.lang.slice(0, 2)] || outcome.text.en || "");
    }
  }

  var roundsBox = document.getElementById("inv-rounds");
  var ROUNDS_KEY = "vtt-inv-rounds-" + characterId;
  if (roundsBox) {
    try { roundsBox.checked = sessionStorage.getItem(ROUNDS_KEY) === "1"; } catch (e) { /* private mode */ }
    roundsBox.addEventListener("change", function () {
      try { sessionStorage.setItem(ROUNDS_KEY, roundsBox.checked ? "1" : "0"); } catch (e) { /* ignore */ }
      renderDetails();
    });
  }
  function inRounds() { return !!(roundsBox && roundsBox.checked); }

  // ---- tap and keyboard: select, then choose a target --------------------------------------------

  function select(source) {
    clearAlert();
    state.selected = editable ? source : null;
    if (source.kind === "item") state.detail = source.id;
    render();
  }

  function cancelSelection() {
    state.selected = null;
    render();
  }

  function chooseTarget(node) {
    var source = state.selected;
    state.selected = null;
    renderHint();
    var value = node.getAttribute("data-drop");
    perform(source, value).then(function () {
      state.dirty = false;
      render();
      if (source.kind === "item") {
        var moved = root.querySelector('[data-item="' + cssEscape(source.id) + '"].inv-item');
        if (moved) moved.focus({ preventScroll: true });
      }
    });
  }

  root.addEventListener("click", function (event) {
    if (Date.now() - state.dragEndedAt < 500) return; // the click that ends a drag
    var actionButtonNode = event.target.closest("[data-action]");
    if (actionButtonNode && root.contains(actionButtonNode)) {
      doAction(actionButtonNode);
      return;
    }
    if (state.selected) {
      var target = event.target.closest("[data-drop]");
      if (target) chooseTarget(target);
      return;
    }
    var item = event.target.closest(".inv-item");
    if (item) {
      var grab = item.getAttribute("data-seg-start") ? Number(item.getAttribute("data-seg-start")) : 0;
      select(sourceFromNode(item, grab));
      return;
    }
    var wound = event.target.closest("[data-wound]");
    if (wound && editable) select({ kind: "wound", slot: Number(wound.getAttribute("data-wound")) });
  });

  root.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && state.selected) {
      event.preventDefault();
      cancelSelection();
      return;
    }
    if (event.key !== "Enter" && event.key !== " ") return;
    var node = event.target;
    if (!node || node.tagName === "BUTTON" || node.tagName === "INPUT" || node.tagName === "SELECT" ||
        node.tagName === "SUMMARY" || node.closest("form")) return;
    if (state.selected && node.hasAttribute("data-drop")) {
      event.preventDefault();
      chooseTarget(node);
    } else if (!state.selected && (node.classList.contains("inv-item") || node.hasAttribute("data-wound"))) {
      event.preventDefault();
      if (node.hasAttribute("data-wound")) select({ kind: "wound", slot: Number(node.getAttribute("data-wound")) });
      else select(sourceFromNode(node, 0));
      if (state.selected) {
        var slot = root.querySelector('.inv-slot[data-area="' + (state.selected.area || "backpack") + '"]') || root.querySelector(".inv-slot");
        if (slot) slot.focus();
      }
    }
  });

  document.getElementById("inv-hint-cancel").addEventListener("click", cancelSelection);

  function doAction(button) {
    var action = button.getAttribute("data-action");
    var id = button.getAttribute("data-item") || state.detail;
    var card = id ? cardById(id) : null;
    var params = { item_id: id };
    if (action === "take_off_armour") params = {};
    else if (action === "drop_item") {
      if (!window.confirm(fmt(gettext("Drop {name}?"), { name: card ? card.name : id }))) return;
    } else if (action === "retrieve") params = { item_id: id, make_room: "swap" };
    else if (action === "wear_armour") params = { item_id: id, in_rounds: inRounds() };
    else if (action === "equip_magic") {
      if (!card || !card.magic_slot) {
        select({ kind: "item", id: id, area: null, slot: null, offset: 0, slots: card ? card.slots : 1, magic: magicOf(id) });
        hintText.textContent = gettext("Choose a magic slot");
        return;
      }
      params = { item_id: id, magic_slot: card.magic_slot };
    } else if (action === "unequip_magic") params = { item_id: id, target: "backpack" };
    state.selected = null;
    button.disabled = true;
    run(action, params).then(function () { button.disabled = false; });
  }

  // ---- pointer drag (mouse and touch) --------------------------------------------------------------

  var ghost = null;
  var marked = [];

  root.addEventListener("pointerdown", function (event) {
    if (!editable || state.busy || state.selected || state.press || state.drag) return;
    if (event.pointerType === "mouse" && event.button !== 0) return;
    var node = event.target.closest("[data-drag]");
    if (!node || !root.contains(node)) return;
    state.press = {
      node: node, id: event.pointerId, type: event.pointerType,
      x0: event.clientX, y0: event.clientY, x: event.clientX, y: event.clientY, timer: null,
    };
    if (event.pointerType !== "mouse") {
      state.press.timer = setTimeout(function () {
        if (state.press && !state.drag) startDrag();
      }, LONG_PRESS_MS);
    }
    window.addEventListener("pointermove", onPointerMove, { passive: false });
    window.addEventListener("pointerup", onPointerUp);
    window.addEventListener("pointercancel", onPointerCancel);
  });

  // While a touch drag runs, the page must not scroll under the finger.
  document.addEventListener("touchmove", function (event) {
    if (state.drag || (state.press && state.press.type !== "mouse" && state.press.armed)) event.preventDefault();
  }, { passive: false });
  root.addEventListener("contextmenu", function (event) {
    if (event.target.closest("[data-drag]") && (state.press || state.drag)) event.preventDefault();
  });

  function onPointerMove(event) {
    var press = state.press;
    if (!press || event.pointerId !== press.id) return;
    press.x = event.clientX;
    press.y = event.clientY;
    if (!state.drag) {
      var dist = Math.hypot(press.x - press.x0, press.y - press.y0);
      if (press.type === "mouse") {
        if (dist >= MOUSE_SLOP) startDrag();
      } else if (dist > TOUCH_SLOP) {
        endPress(); // a swipe: the page scrolls
      }
      return;
    }
    event.preventDefault();
    moveDrag(press.x, press.y);
  }

  function onPointerUp(event) {
    var press = state.press;
    if (!press || event.pointerId !== press.id) return;
    if (state.drag) {
      var drag = state.drag;
      var target = targetAt(press.x, press.y);
      stopDrag();
      state.dragEndedAt = Date.now();
      endPress();
      if (target) perform(drag.source, target.getAttribute("data-drop")).then(flushDirty);
      else flushDirty();
      return;
    }
    endPress();
  }

  function onPointerCancel(event) {
    if (!state.press || event.pointerId !== state.press.id) return;
    stopDrag();
    endPress();
  }

  function endPress() {
    if (state.press) clearTimeout(state.press.timer);
    state.press = null;
    window.removeEventListener("pointermove", onPointerMove);
    window.removeEventListener("pointerup", onPointerUp);
    window.removeEventListener("pointercancel", onPointerCancel);
    setTimeout(flushDirty, 0); // after the click that may follow, which selects from the old DOM
  }

  function grabbedSlot(node, x) {
    var start = Number(node.getAttribute("data-seg-start"));
    if (!start) return 0;
    var count = Number(node.getAttribute("data-seg-count")) || 1;
    var rect = node.getBoundingClientRect();
    var index = Math.floor((x - rect.left) / (rect.width / count));
    return start + Math.max(0, Math.min(count - 1, index));
  }

  function startDrag() {
    var press = state.press;
    var node = press.node;
    press.armed = true;
    var source = sourceFromNode(node, grabbedSlot(node, press.x0));
    var rect = node.getBoundingClientRect();
    ghost = node.cloneNode(true);
    ghost.removeAttribute("data-drag");
    ghost.removeAttribute("tabindex");
    ghost.classList.add("inv-ghost");
    ghost.style.width = rect.width + "px";
    ghost.style.height = rect.height + "px";
    document.body.appendChild(ghost);
    state.drag = { source: source, dx: press.x0 - rect.left, dy: press.y0 - rect.top };
    root.classList.add("dragging");
    var selector = source.kind === "wound" ? '[data-wound="' + source.slot + '"]'
      : '[data-item="' + cssEscape(source.id) + '"].inv-item';
    Array.prototype.forEach.call(root.querySelectorAll(selector), function (n) { n.classList.add("drag-source"); });
    if (press.type !== "mouse" && navigator.vibrate) {
      try { navigator.vibrate(15); } catch (e) { /* not allowed */ }
    }
    moveDrag(press.x, press.y);
  }

  function moveDrag(x, y) {
    var drag = state.drag;
    ghost.style.transform = "translate(" + (x - drag.dx) + "px," + (y - drag.dy) + "px)";
    var edge = 48;
    if (y > window.innerHeight - edge) window.scrollBy(0, 14);
    else if (y < edge) window.scrollBy(0, -14);
    highlight(drag.source, targetAt(x, y));
  }

  function targetAt(x, y) {
    var stack = document.elementsFromPoint ? document.elementsFromPoint(x, y) : [document.elementFromPoint(x, y)];
    for (var i = 0; i < stack.length; i++) {
      var node = stack[i];
      if (!node || node === ghost || (ghost && ghost.contains(node))) continue;
      if (node.hasAttribute && node.hasAttribute("data-drop") && root.contains(node)) return node;
      var inside = node.closest && node.closest("[data-drop]");
      if (inside && root.contains(inside) && !inside.classList.contains("inv-slot")) return inside;
    }
    return null;
  }

  function highlight(source, node) {
    marked.forEach(function (n) { n.classList.remove("drop-ok", "drop-bad"); });
    marked = [];
    if (!node) return;
    var target = parseTarget(node.getAttribute("data-drop"));
    if (target.kind !== "slot") {
      node.classList.add("drop-ok");
      marked.push(node);
      return;
    }
    var size = source.kind === "wound" ? 1 : source.slots;
    var first = source.kind === "wound" ? target.slot : landing(source, target);
    var bad = first + size - 1 > AREAS[target.area].slots ||
      (source.kind === "wound" && target.area !== "backpack");
    for (var s = first; s < first + size; s++) {
      var cell = root.querySelector('.inv-slot[data-area="' + target.area + '"][data-slot="' + s + '"]');
      if (cell) { cell.classList.add(bad ? "drop-bad" : "drop-ok"); marked.push(cell); }
    }
    if (bad && !marked.length) { node.classList.add("drop-bad"); marked.push(node); }
  }

  function stopDrag() {
    if (ghost) ghost.remove();
    ghost = null;
    marked.forEach(function (n) { n.classList.remove("drop-ok", "drop-bad"); });
    marked = [];
    Array.prototype.forEach.call(root.querySelectorAll(".drag-source"), function (n) { n.classList.remove("drag-source"); });
    root.classList.remove("dragging");
    state.drag = null;
  }

  // ---- the rest of the toolbar ---------------------------------------------------------------------

  var dumpButton = document.getElementById("inv-dump");
  if (dumpButton) {
    dumpButton.addEventListener("click", function () {
      var inPack = inv().placed.some(function (p) { return p.area === "backpack"; });
      if (!inPack) { notice(gettext("The backpack is empty.")); return; }
      if (!window.confirm(gettext("Dump everything out of the backpack?"))) return;
      dumpButton.disabled = true;
      run("dump_backpack", { item_ids: [] }).then(function () { dumpButton.disabled = false; });
    });
  }

  var addForm = document.getElementById("inv-add");
  if (addForm) {
    var addError = document.getElementById("inv-add-error");
    addForm.addEventListener("submit", function (event) {
      event.preventDefault();
      addError.hidden = true;
      var f = addForm.elements;
      var name = f.name.value.trim();
      if (!name) { addError.textContent = gettext("Give the item a name."); addError.hidden = false; return; }
      var count = Math.max(1, Math.min(Number(f.count.max), Number(f.count.value) || 1));
      var card = cardFromForm(f, name);
      var area = f.area.value;
      var target = f.slot.value ? area + ":" + f.slot.value : area;
      var button = addForm.querySelector("button[type=submit]");
      button.disabled = true;
      var placed = 0;
      var next = function () {
        var copy = JSON.parse(JSON.stringify(card));
        copy.id = newId(name);
        return request("POST", config.urls.move.replace("MOVE", "place_item"), { params: { item: copy, target: target } }, moveCommand("place_item"))
          .then(function (data) {
            applySheet(data.character);
            placed += 1;
            // The next copy joins this stack while it has room, else goes where the rules
            // put an item given only the area (another stack of its kind, or free slots).
            var p = placementOf(copy.id);
            if (p) target = p.items.length < stackLimit(p) ? p.area + ":" + p.slot : p.area;
            if (placed < count) return next();
            return null;
          });
      };
      next().then(function () {
        notice(fmt(gettext("Added: {name}."), { name: name + (count > 1 ? " ×" + count : "") }));
        addForm.reset();
      }, function (err) {
        addError.textContent = fmt(gettext("Refused: {reason}"), { reason: err.message });
        addError.hidden = false;
      }).then(function () { button.disabled = false; });
    });
  }

  function num(value) {
    return value === "" || value === null || value === undefined ? null : Number(value);
  }

  function cardFromForm(f, name) {
    var card = {
      name: name,
      kind: f.kind.value.trim(),
      slots: Math.max(1, Number(f.slots.value) || 1),
      stack: Math.max(1, Number(f.stack.value) || 1),
      magic: f.magic.checked,
      magic_slot: f.magic.checked ? f.magic_slot.value : "",
      fragile: f.fragile.checked,
      note: f.note.value.trim(),
    };
    var keywords = Array.prototype.filter.call(f.keyword, function (b) { return b.checked; })
      .map(function (b) { return b.value; });
    var dice = num(f.wear_dice.value);
    if (dice !== null || keywords.length) {
      card.wear = { dice: dice || 0, max: num(f.wear_max.value) || dice || 0, keywords: keywords,
        refuel_with: f.refuel_with.value.trim() };
    }
    var defence = num(f.defence.value);
    if (defence !== null || f.shield.checked) card.armour = { defence: defence || 0, max: defence || 0, shield: f.shield.checked };
    if (f.tier1.value.trim() || f.tier2.value.trim() || f.tier3.value.trim()) {
      card.damage = { type: f.attack.value, tier1: f.tier1.value.trim(), tier2: f.tier2.value.trim(),
        tier3: f.tier3.value.trim(), piercing: f.piercing.checked };
    }
    var bright = num(f.bright.value);
    var dim = num(f.dim.value);
    if (bright !== null || dim !== null) card.light = { bright: bright || 0, dim: dim || 0, lit: false };
    return card;
  }

  function newId(name) {
    var base = name.toLowerCase().replace(/[^a-z0-9\u0400-\u04ff]+/g, "-").replace(/^-|-$/g, "").slice(0, 40) || "item";
    var bytes = new Uint8Array(4);
    if (window.crypto && crypto.getRandomValues) crypto.getRandomValues(bytes);
    else for (var i = 0; i < 4; i++) bytes[i] = Math.floor(Math.random() * 256);
    return base + "-" + Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  // ---- live: the table socket ------------------------------------------------------------------------

  var connNode = document.getElementById("inv-conn");
  var connText = connNode.querySelector(".inv-conn-text");
  var wasConnected = false;

  function setConn(stateName) {
    connNode.setAttribute("data-state", stateName);
    connText.textContent = stateName === "connected" ? gettext("Live") : gettext("Offline: reconnecting…");
  }

  /* socket.js's state: back after a drop, the sheet may have changed meanwhile. */
  function onState(stateName) {
    if (stateName !== "connected") { setConn("offline"); return; }
    setConn("connected");
    if (wasConnected) scheduleRefresh();
    wasConnected = true;
  }

  function seen(ev) {
    var p = ev.payload || {};
    if (p.character_id !== characterId) return;
    if (ev.kind === "character.updated" && p.version > state.character.version) scheduleRefresh();
    else if (ev.kind === "character.deleted") markDeleted();
  }

  window.addEventListener("pageshow", function (event) {
    if (event.persisted) scheduleRefresh();
  });

  render();
  // the table socket (socket.js): events in, and the board's moves out as commands
  var sock = connectSocket({ url: config.urls.ws, position: config.head, onEvent: seen, onState: onState });
  useSocket(sock);

  // For tests and the curious.
  return {
    version: function () { return state.character.version; },
    sheet: function () { return state.character; },
    connected: function () { return connNode.getAttribute("data-state") === "connected"; },
  };
}

/** The board on the page (null without one), for the unit tests (tests/js). */
export const board = start();
