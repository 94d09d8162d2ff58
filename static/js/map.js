/* The map panel: an SVG square or hex grid with a background, fog, terrain, notes, tokens and the
 * party marker; drag tokens with a mouse or a finger (pointer events), measure with the ruler,
 * and (the referee) paint fog and terrain, place tokens and notes.
 *
 * State comes from the server already filtered for this user (vtt/maps/selectors.py): a
 * player's browser never holds a hidden token, a token or note under fog, a secret note, the
 * party's true position or the background under fog. Live changes arrive as `map.*` events
 * through table.js ("vtt:event"); each carries absolute values, so an event the snapshot
 * already contains (seq <= state.head) is skipped and one applied twice changes nothing.
 * Each browser receives only the copy meant for it: the referee's copies are blind, the
 * players' copies go to players only (vtt/table/kinds.py), so nothing here is thrown away.
 *
 * Geometry mirrors systems/core/grid.py and systems/core/hexgrid.py (Red Blob Games formulas):
 * cells are (col, row); hex maps use odd-r (pointy-top) or odd-q (flat-top) offsets.
 */
import { failedText, request as apiRequest } from "./api.js";
import { fmt } from "./lib/format.js";
import { gettext, pgettext } from "./lib/i18n.js";
import { renderers } from "./lib/renderers.js";

// A map's ambient light, by key.
const LIGHT_NAMES = {
  dim: gettext("Dim light everywhere else"),
  dark: gettext("Darkness everywhere else"),
};

// Terrain features (the key's '-' read as '_'), by key.
const FEATURE_NAMES = {
  cover_wall: gettext("Wall: blocks line of effect"),
  cover_low: gettext("Low obstacle: cover"),
  conceal_light: gettext("Light concealment"),
  conceal_heavy: gettext("Heavy concealment"),
  ground_difficult: gettext("Difficult terrain"),
  ground_water: gettext("Water (swimming)"),
  light_dim: gettext("Dim light"),
  light_dark: gettext("Darkness"),
};
import { toast } from "./lib/toast.js";

function start() {
  var NS = "http://www.w3.org/2000/svg";
  var SQRT3 = Math.sqrt(3);
  var KINDS = ["map.token", "map.token.gone", "map.fog", "map.note", "map.note.gone",
    "map.terrain", "map.party", "map.round", "map.update", "map.active", "map.saved",
    "map.deleted", "map.features"];

  // Map events are drawn on the map, not written into the log.
  KINDS.forEach(function (kind) { renderers[kind] = function () { return null; }; });

  var panel = document.querySelector("[data-map-panel]");
  var configNode = document.getElementById("map-config");
  if (!panel || !configNode) return null;
  var C = JSON.parse(configNode.textContent);
  var me = C.me;
  var isReferee = C.isReferee;
  var svg = panel.querySelector("[data-map-svg]");
  var stage = panel.querySelector("[data-map-stage]");
  var info = panel.querySelector("[data-map-info]");
  var emptyNote = panel.querySelector("[data-map-empty]");
  var nameNode = panel.querySelector("[data-map-name]");
  var mapSelect = panel.querySelector("[data-map-select]");
  if (isReferee) panel.classList.add("referee-view");

  var S = null;          // the map state (see selectors.map_state)
  var G = null;          // geometry of the current map
  var fog = null;        // Uint8Array: 1 = revealed
  var tokens = {};       // id -> token
  var notes = {};        // id -> note
  var layers = {};
  var tokenNodes = {};
  var view = { k: 1, x: 0, y: 0 };
  var tool = "move";
  var selected = null;   // {type: "token"|"note", id}
  var loading = null;    // map id being fetched
  var queued = [];       // events that arrived while fetching
  var seenHead = 0;      // the newest snapshot head: older map events are already in it
  var uid = "m" + Math.random().toString(36).slice(2, 8);
  var attackFrom = null; // token id: choosing a target for its attack (Crows battle maps)
  var charactersHead = C.head || 0; // C.characters is as new as this event

  // ---- helpers -------------------------------------------------------------------------------

  function el(tag, attrs, parent) {
    var node = document.createElementNS(NS, tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (key) {
        if (attrs[key] !== null && attrs[key] !== undefined) node.setAttribute(key, attrs[key]);
      });
    }
    if (parent) parent.appendChild(node);
    return node;
  }

  function num(x) { return Math.round(x * 10) / 10; }

  /* `command`/`args`: the table action's command (docs/table-protocol.md, "Commands"), sent
   * over the table socket when the page has one, else by HTTP with an idempotency key. */
  function api(method, url, body, command, args) {
    return apiRequest(method, url, body, {
      csrf: C.csrf, command: command, args: args,
    });
  }

  function onMap(extra) { return Object.assign({ map_id: S.map.id }, extra || {}); }

  function mapUrl(suffix) { return C.urls.map.replace("{id}", S.map.id) + (suffix || ""); }

  function fail(error) { toast((error && error.message) || failedText()); }

  // ---- geometry (systems/core/grid.py, systems/core/hexgrid.py) --------------------------------

  function geometry(m) {
    var cell = m.cell_px;
    var hex = m.kind === "hex";
    var pointy = m.orientation === "pointy";
    var size = cell / SQRT3;
    var ox = pointy ? cell / 2 : size;
    var oy = pointy ? size : cell / 2;
    var g = { W: m.pixel_width, H: m.pixel_height, w: m.width, h: m.height, cell: cell, hex: hex };

    function toAxial(c, r) {
      return pointy ? [c - (r - (r & 1)) / 2, r] : [c, r - (c - (c & 1)) / 2];
    }
    function toOffset(q, r) {
      return pointy ? [q + (r - (r & 1)) / 2, r] : [q, r + (q - (q & 1)) / 2];
    }
    function hexRound(q, r) {
      var s = -q - r;
      var rq = Math.round(q), rr = Math.round(r), rs = Math.round(s);
      var dq = Math.abs(rq - q), dr = Math.abs(rr - r), ds = Math.abs(rs - s);
      if (dq > dr && dq > ds) rq = -rr - rs;
      else if (dr > ds) rr = -rq - rs;
      return [rq, rr];
    }
    g.inside = function (c, r) { return c >= 0 && r >= 0 && c < m.width && r < m.height; };
    g.center = function (c, r) {
      if (!hex) return [(c + 0.5) * cell, (r + 0.5) * cell];
      var a = toAxial(c, r), q = a[0], rr = a[1];
      if (pointy) return [size * (SQRT3 * q + SQRT3 / 2 * rr) + ox, size * 1.5 * rr + oy];
      return [size * 1.5 * q + ox, size * (SQRT3 / 2 * q + SQRT3 * rr) + oy];
    };
    g.cellAt = function (x, y) {
      if (!hex) return [Math.floor(x / cell), Math.floor(y / cell)];
      var px = x - ox, py = y - oy, q, r;
      if (pointy) { q = (SQRT3 / 3 * px - py / 3) / size; r = (2 / 3 * py) / size; }
      else { q = (2 / 3 * px) / size; r = (-px / 3 + SQRT3 / 3 * py) / size; }
      var a = hexRound(q, r);
      return toOffset(a[0], a[1]);
    };
    g.corners = function (c, r) {
      if (!hex) {
        var x = c * cell, y = r * cell;
        return [[x, y], [x + cell, y], [x + cell, y + cell], [x, y + cell]];
      }
      var p = g.center(c, r), out = [];
      for (var i = 0; i < 6; i++) {
        var angle = Math.PI / 180 * (60 * i + (pointy ? 30 : 0));
        out.push([p[0] + size * Math.cos(angle), p[1] + size * Math.sin(angle)]);
      }
      return out;
    };
    g.distance = function (a, b) {
      if (hex) {
        var x = toAxial(a[0], a[1]), y = toAxial(b[0], b[1]);
        var dq = x[0] - y[0], dr = x[1] - y[1];
        return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
      }
      var dx = Math.abs(a[0] - b[0]), dy = Math.abs(a[1] - b[1]);
      if (m.metric === "manhattan") return dx + dy;
      if (m.metric === "alternating") return Math.max(dx, dy) + Math.floor(Math.min(dx, dy) / 2);
      return Math.max(dx, dy);
    };
    g.radius = function (n) { return Math.floor(Math.max(n, 1) / 2); };
    g.span = function (n) { return hex ? 2 * g.radius(n) + 1 : Math.max(n, 1); };
    g.around = function (c, r, radius) {
      var out = [];
      if (!hex) {
        for (var y = r - radius; y <= r + radius; y++) {
          for (var x = c - radius; x <= c + radius; x++) if (g.inside(x, y)) out.push([x, y]);
        }
        return out;
      }
      var a = toAxial(c, r);
      for (var dq = -radius; dq <= radius; dq++) {
        for (var dr = Math.max(-radius, -dq - radius); dr <= Math.min(radius, -dq + radius); dr++) {
          var o = toOffset(a[0] + dq, a[1] + dr);
          if (g.inside(o[0], o[1])) out.push(o);
        }
      }
      return out;
    };
    g.footprint = function (c, r, n) {
      if (hex) return g.around(c, r, g.radius(n));
      var out = [], k = Math.max(n, 1);
      for (var y = r; y < r + k; y++) for (var x = c; x < c + k; x++) if (g.inside(x, y)) out.push([x, y]);
      return out;
    };
    g.clamp = function (c, r, n) {
      if (hex) return [Math.min(Math.max(c, 0), m.width - 1), Math.min(Math.max(r, 0), m.height - 1)];
      var k = Math.min(Math.max(n, 1), m.width, m.height);
      return [Math.min(Math.max(c, 0), m.width - k), Math.min(Math.max(r, 0), m.height - k)];
    };
    g.snap = function (x, y, n) {
      if (hex) { var a = g.cellAt(x, y); return g.clamp(a[0], a[1], n); }
      var k = Math.max(n, 1);
      return g.clamp(Math.floor(x / cell - k / 2 + 0.5), Math.floor(y / cell - k / 2 + 0.5), n);
    };
    g.anchorCenter = function (c, r, n) {
      if (hex) return g.center(c, r);
      var k = Math.max(n, 1);
      return [(c + k / 2) * cell, (r + k / 2) * cell];
    };
    g.outline = function (cells) {
      return cells.map(function (cr) { return polygon(g.corners(cr[0], cr[1])); }).join("");
    };
    return g;
  }

  function polygon(points) {
    return "M" + points.map(function (p) { return num(p[0]) + " " + num(p[1]); }).join("L") + "Z";
  }

  function revealed(c, r) { return G.inside(c, r) && fog[r * G.w + c] === 1; }

  function tokenInFog(t) {
    return !G.footprint(t.col, t.row, t.cells).some(function (cr) { return revealed(cr[0], cr[1]); });
  }

  function canMove(t) {
    if (!C.canPlay) return false;
    return isReferee || (t.owner_id !== null && t.owner_id === me.id);
  }

  // ---- state -----------------------------------------------------------------------------------

  function setState(state) {
    S = state;
    seenHead = Math.max(seenHead, state ? state.head : 0);
    selected = null;
    if (!state) {
      G = null;
      stage.style.height = "";
      while (svg.firstChild) svg.removeChild(svg.firstChild);
      panel.setAttribute("data-empty", "");
      emptyNote.hidden = false;
      if (nameNode) nameNode.textContent = "";
      info.textContent = "";
      return;
    }
    panel.removeAttribute("data-empty");
    emptyNote.hidden = true;
    G = geometry(state.map);
    panel.setAttribute("data-kind", state.map.kind);
    if (nameNode) nameNode.textContent = state.map.name;
    fog = new Uint8Array(G.w * G.h);
    applyRuns(state.fog.runs, 1);
    tokens = {};
    state.tokens.forEach(function (t) { tokens[t.id] = t; });
    notes = {};
    state.notes.forEach(function (n) { notes[n.id] = n; });
    S.features = S.features || {};
    attackFrom = null;
    build();
    fit();
    if (tool !== "move" && tool !== "ruler" && !C.canManage) setTool("move");
    if (!S.map.kind || (S.map.kind !== "hex" && (tool === "terrain" || tool === "party"))) setTool("move");
    if (S.map.kind === "hex" && tool === "features") setTool("move");
    showHint();
  }

  function applyRuns(runs, value) {
    (runs || []).forEach(function (run) {
      for (var i = run[0]; i < run[0] + run[1] && i < fog.length; i++) fog[i] = value;
    });
  }

  function loadMap(id) {
    if (!id) { setState(null); return Promise.resolve(); }
    loading = id;
    queued = [];
    info.textContent = gettext("Loading the map…");
    return api("GET", C.urls.map.replace("{id}", id)).then(function (state) {
      if (loading !== id) return;
      loading = null;
      setState(state);
      var pending = queued;
      queued = [];
      pending.forEach(apply);
    }).catch(function (error) {
      loading = null;
      if (error.status === 404) setState(null); else fail(error);
    });
  }

  // ---- drawing ---------------------------------------------------------------------------------

  function build() {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    var defs = el("defs", null, svg);
    var clip = el("clipPath", { id: uid + "-clip", clipPathUnits: "objectBoundingBox" }, defs);
    el("circle", { cx: 0.5, cy: 0.5, r: 0.5 }, clip);
    layers.view = el("g", { "class": "map-view" }, svg);
    var v = layers.view;
    var grid = gridPath();
    el("rect", { "class": "map-floor", x: 0, y: 0, width: num(G.W), height: num(G.H) }, v);
    if (G.hex) el("path", { "class": "map-cells", d: grid }, v);  // the hexes, not their ragged border
    layers.bg = el("g", { "class": "map-bg" }, v);
    layers.terrain = el("g", { "class": "map-terrain" }, v);
    layers.features = el("g", { "class": "map-features" }, v);
    layers.grid = el("path", { "class": "map-grid", d: grid }, v);
    layers.fog = el("path", { "class": "map-fog", "fill-rule": "nonzero" }, v);
    layers.notes = el("g", { "class": "map-notes" }, v);
    layers.tokens = el("g", { "class": "map-tokens" }, v);
    layers.party = el("g", { "class": "map-party" }, v);
    layers.overlay = el("g", { "class": "map-overlay" }, v);
    drawBackground();
    drawTerrain();
    drawFeatures();
    drawFog();
    drawNotes();
    tokenNodes = {};
    Object.keys(tokens).forEach(function (id) { drawToken(tokens[id]); });
    drawParty();
  }

  function gridPath() {
    var parts = [];
    if (!G.hex) {
      for (var c = 0; c <= G.w; c++) parts.push("M" + c * G.cell + " 0V" + num(G.H));
      for (var r = 0; r <= G.h; r++) parts.push("M0 " + r * G.cell + "H" + num(G.W));
      return parts.join("");
    }
    for (var y = 0; y < G.h; y++) for (var x = 0; x < G.w; x++) parts.push(polygon(G.corners(x, y)));
    return parts.join("");
  }

  function drawBackground() {
    while (layers.bg.firstChild) layers.bg.removeChild(layers.bg.firstChild);
    if (!S.background) return;
    el("image", {
      href: S.background.url, x: 0, y: 0, width: num(G.W), height: num(G.H),
      preserveAspectRatio: "none", "class": "map-bg-image",
    }, layers.bg);
  }

  function drawFog() {
    var parts = [];
    if (!G.hex) {
      for (var r = 0; r < G.h; r++) {
        var start = -1;
        for (var c = 0; c <= G.w; c++) {
          var hidden = c < G.w && fog[r * G.w + c] === 0;
          if (hidden && start < 0) start = c;
          if (!hidden && start >= 0) {
            parts.push("M" + start * G.cell + " " + r * G.cell + "h" + (c - start) * G.cell +
                       "v" + G.cell + "h" + (start - c) * G.cell + "Z");
            start = -1;
          }
        }
      }
    } else {
      for (var y = 0; y < G.h; y++) {
        for (var x = 0; x < G.w; x++) if (fog[y * G.w + x] === 0) parts.push(polygon(G.corners(x, y)));
      }
    }
    layers.fog.setAttribute("d", parts.join(""));
    Object.keys(tokens).forEach(function (id) { markFog(tokens[id]); });
    drawNotes();
  }

  function drawTerrain() {
    while (layers.terrain.firstChild) layers.terrain.removeChild(layers.terrain.firstChild);
    var byKind = {};
    Object.keys(S.terrain || {}).forEach(function (key) {
      var cr = key.split(",").map(Number);
      if (!G.inside(cr[0], cr[1])) return;
      (byKind[S.terrain[key]] = byKind[S.terrain[key]] || []).push(polygon(G.corners(cr[0], cr[1])));
    });
    Object.keys(byKind).forEach(function (kind) {
      var path = el("path", { "class": "terrain terrain-" + kind, d: byKind[kind].join("") }, layers.terrain);
      var label = C.terrains.filter(function (t) { return t.key === kind; })[0];
      el("title", null, path).textContent = label ? label.label : kind;
    });
  }

  // Battle squares (Crows): walls and low cover, height, light and concealment, and the
  // map's ambient light (the server reads the same to give attacks their sources).
  var LIGHT_RANK = { dark: 0, dim: 1, bright: 2 };

  function drawFeatures() {
    if (!layers.features) return;
    while (layers.features.firstChild) layers.features.removeChild(layers.features.firstChild);
    if (G.hex) return;
    var ambient = S.map.ambient_light || "bright";
    var groups = {}, heights = [], lighter = [];
    Object.keys(S.features || {}).forEach(function (key) {
      var cr = key.split(",").map(Number);
      if (!G.inside(cr[0], cr[1])) return;
      var f = S.features[key] || {};
      var cell = polygon(G.corners(cr[0], cr[1]));
      if (f.cover) (groups["cover-" + f.cover] = groups["cover-" + f.cover] || []).push(cell);
      if (f.concealment) (groups["conceal-" + f.concealment] = groups["conceal-" + f.concealment] || []).push(cell);
      if (f.ground) (groups["ground-" + f.ground] = groups["ground-" + f.ground] || []).push(cell);
      if (f.light && LIGHT_RANK[f.light] < LIGHT_RANK[ambient]) (groups["light-" + f.light] = groups["light-" + f.light] || []).push(cell);
      if (f.light && LIGHT_RANK[f.light] > LIGHT_RANK[ambient]) lighter.push({ cell: cell, light: f.light });
      if (f.height) heights.push({ cr: cr, h: f.height });
    });
    if (ambient !== "bright") {
      var defs = svg.querySelector("defs");
      var old = document.getElementById(uid + "-ambient");
      if (old) old.parentNode.removeChild(old);
      var mask = el("mask", { id: uid + "-ambient", maskUnits: "userSpaceOnUse", x: 0, y: 0, width: num(G.W), height: num(G.H) }, defs);
      el("rect", { x: 0, y: 0, width: num(G.W), height: num(G.H), fill: "white" }, mask);
      lighter.forEach(function (l) {
        el("path", { d: l.cell, fill: l.light === "bright" ? "black" : "#808080" }, mask);
      });
      var shade = el("rect", {
        "class": "feature ambient-" + ambient, x: 0, y: 0, width: num(G.W), height: num(G.H),
        mask: "url(#" + uid + "-ambient)",
      }, layers.features);
      el("title", null, shade).textContent = LIGHT_NAMES[ambient] || ambient;
    }
    Object.keys(groups).forEach(function (kind) {
      var path = el("path", { "class": "feature feature-" + kind, d: groups[kind].join("") }, layers.features);
      el("title", null, path).textContent = FEATURE_NAMES[kind.replace("-", "_")] || kind;
    });
    heights.forEach(function (item) {
      var p = G.corners(item.cr[0], item.cr[1])[0];
      var label = el("text", {
        "class": "feature-height", x: num(p[0] + G.cell * 0.06), y: num(p[1] + G.cell * 0.26),
        "font-size": num(G.cell * 0.24),
      }, layers.features);
      label.textContent = "▲" + item.h;
    });
  }

  function initials(name) {
    var words = String(name || "?").trim().split(/\s+/);
    var text = words.length > 1 ? words[0][0] + words[1][0] : words[0].slice(0, 2);
    return text.toUpperCase();
  }

  function drawToken(t) {
    var old = tokenNodes[t.id];
    var span = G.span(t.cells);
    var radius = span * G.cell / 2 * 0.86;
    var p = G.anchorCenter(t.col, t.row, t.cells);
    var node = el("g", {
      "class": "token", "data-token": t.id,
      transform: "translate(" + num(p[0]) + " " + num(p[1]) + ")",
    });
    el("title", null, node).textContent = t.name;
    el("circle", { r: num(radius), fill: t.color, "class": "token-disc" }, node);
    if (t.image) {
      el("image", {
        href: t.image, x: num(-radius), y: num(-radius), width: num(2 * radius),
        height: num(2 * radius), "clip-path": "url(#" + uid + "-clip)",
        preserveAspectRatio: "xMidYMid slice",
      }, node);
    } else {
      var label = el("text", {
        "class": "token-label", "text-anchor": "middle", "dominant-baseline": "central",
        "font-size": num(Math.max(10, radius * 0.75)),
      }, node);
      label.textContent = initials(t.name);
    }
    el("circle", { r: num(radius), "class": "token-ring" }, node);
    node.classList.toggle("mine", t.owner_id !== null && t.owner_id === me.id);
    node.classList.toggle("movable", canMove(t));
    node.classList.toggle("is-hidden", !!t.hidden);
    if (selected && selected.type === "token" && selected.id === t.id) node.classList.add("selected");
    if (old && old.parentNode) old.parentNode.replaceChild(node, old);
    else layers.tokens.appendChild(node);
    tokenNodes[t.id] = node;
    markFog(t);
  }

  function markFog(t) {
    var node = tokenNodes[t.id];
    if (node) node.classList.toggle("in-fog", tokenInFog(t));
  }

  function removeToken(id) {
    var node = tokenNodes[id];
    if (node && node.parentNode) node.parentNode.removeChild(node);
    delete tokenNodes[id];
    delete tokens[id];
    countTokens();
    if (selected && selected.type === "token" && selected.id === Number(id)) { selected = null; showHint(); }
  }

  function drawNotes() {
    if (!layers.notes) return;
    while (layers.notes.firstChild) layers.notes.removeChild(layers.notes.firstChild);
    Object.keys(notes).forEach(function (id) {
      var n = notes[id];
      var p = G.center(n.col, n.row);
      var r = G.cell * 0.2;
      var node = el("g", {
        "class": "note" + (n.secret ? " secret" : "") + (revealed(n.col, n.row) ? "" : " in-fog"),
        "data-note": n.id,
        transform: "translate(" + num(p[0] + G.cell * 0.28) + " " + num(p[1] - G.cell * 0.28) + ")",
      }, layers.notes);
      el("title", null, node).textContent = n.text;
      el("circle", { r: num(r) }, node);
      var t = el("text", { "text-anchor": "middle", "dominant-baseline": "central", "font-size": num(r * 1.2) }, node);
      t.textContent = "✎";
    });
  }

  function drawParty() {
    if (!layers.party) return;
    while (layers.party.firstChild) layers.party.removeChild(layers.party.firstChild);
    var party = S.party || {};
    if (party["true"] && isReferee) {
      var q = G.center(party["true"][0], party["true"][1]);
      var ring = el("circle", { "class": "party-true", cx: num(q[0]), cy: num(q[1]), r: num(G.cell * 0.42) }, layers.party);
      el("title", null, ring).textContent = gettext("The party's true position");
    }
    if (party.shown) {
      var p = G.center(party.shown[0], party.shown[1]);
      var s = G.cell * 0.32;
      var flag = el("g", { "class": "party-shown", transform: "translate(" + num(p[0]) + " " + num(p[1]) + ")" }, layers.party);
      el("title", null, flag).textContent = gettext("The party (as players see it)");
      el("path", { d: "M" + num(-s * 0.5) + " " + num(s) + "V" + num(-s) + "L" + num(s) + " " + num(-s * 0.5) + "L" + num(-s * 0.5) + " 0" }, flag);
    }
  }

  // ---- view: pan and zoom ---------------------------------------------------------------------

  function applyView() {
    if (layers.view) layers.view.setAttribute("transform", "translate(" + num(view.x) + " " + num(view.y) + ") scale(" + view.k + ")");
  }

  function sizeStage() {
    // Phones: as tall as the map needs at full width (no black bands), within limits.
    if (!G || window.innerWidth >= 700) { stage.style.height = ""; return; }
    var width = stage.getBoundingClientRect().width || window.innerWidth;
    var wanted = width * G.H / G.W;
    stage.style.height = Math.round(Math.max(240, Math.min(wanted, window.innerHeight * 0.7))) + "px";
  }

  function fit() {
    if (!G) return;
    sizeStage();
    var box = svg.getBoundingClientRect();
    var w = box.width || 600, h = box.height || 400;
    lastWidth = w;
    var k = Math.min(w / G.W, h / G.H) * 0.98;
    view.k = Math.max(0.05, Math.min(k, 4));
    view.x = (w - G.W * view.k) / 2;
    view.y = (h - G.H * view.k) / 2;
    applyView();
  }

  function zoomAt(factor, cx, cy) {
    var k = Math.max(0.05, Math.min(view.k * factor, 8));
    view.x = cx - (cx - view.x) * (k / view.k);
    view.y = cy - (cy - view.y) * (k / view.k);
    view.k = k;
    applyView();
  }

  function local(event) {
    var box = svg.getBoundingClientRect();
    return [event.clientX - box.left, event.clientY - box.top];
  }

  function toMap(event) {
    var p = local(event);
    return [(p[0] - view.x) / view.k, (p[1] - view.y) / view.k];
  }

  svg.addEventListener("wheel", function (event) {
    if (!G) return;
    event.preventDefault();
    var p = local(event);
    zoomAt(Math.exp(-event.deltaY * 0.0015), p[0], p[1]);
  }, { passive: false });

  panel.querySelectorAll("[data-zoom]").forEach(function (button) {
    button.addEventListener("click", function () {
      if (!G) return;
      var box = svg.getBoundingClientRect();
      var how = button.getAttribute("data-zoom");
      if (how === "fit") fit();
      else zoomAt(how === "in" ? 1.25 : 0.8, box.width / 2, box.height / 2);
    });
  });
  var lastWidth = 0;
  window.addEventListener("resize", function () {
    // Phones resize when the address bar slides; refit only when the width really changes.
    var width = svg.getBoundingClientRect().width;
    if (G && Math.abs(width - lastWidth) > 2) { lastWidth = width; fit(); }
  });

  // ---- pointer gestures ---------------------------------------------------------------------

  var pointers = {};
  var gesture = null;

  function pointerCount() { return Object.keys(pointers).length; }

  svg.addEventListener("pointerdown", function (event) {
    if (!G) return;
    if (event.button !== undefined && event.button > 0) return;
    pointers[event.pointerId] = local(event);
    try { svg.setPointerCapture(event.pointerId); } catch (e) { /* not capturable */ }
    if (pointerCount() === 2) {
      cancelGesture();
      var ids = Object.keys(pointers);
      gesture = { type: "pinch", ids: ids, dist: spread(), k: view.k };
      return;
    }
    if (pointerCount() > 2) return;
    event.preventDefault();
    startGesture(event);
  });

  svg.addEventListener("pointermove", function (event) {
    if (!pointers[event.pointerId]) return;
    var last = pointers[event.pointerId];
    var now = local(event);
    pointers[event.pointerId] = now;
    if (!gesture) return;
    if (gesture.type === "pinch") {
      var mid = midpoint();
      var d = spread();
      if (gesture.dist > 0 && d > 0) zoomAt((gesture.k * d / gesture.dist) / view.k, mid[0], mid[1]);
      return;
    }
    var total = Math.abs(now[0] - gesture.start[0]) + Math.abs(now[1] - gesture.start[1]);
    if (total > 6) gesture.moved = true;
    moveGesture(event, now, last);
  });

  function endPointer(event) {
    if (!pointers[event.pointerId]) return;
    delete pointers[event.pointerId];
    if (!gesture) return;
    if (gesture.type === "pinch") { if (pointerCount() === 0) gesture = null; return; }
    var g = gesture;
    gesture = null;
    if (event.type === "pointercancel") { cancelGesture(g); return; }
    endGesture(g, event);
  }
  svg.addEventListener("pointerup", endPointer);
  svg.addEventListener("pointercancel", endPointer);

  function spread() {
    var p = Object.keys(pointers).map(function (id) { return pointers[id]; });
    return p.length < 2 ? 0 : Math.hypot(p[0][0] - p[1][0], p[0][1] - p[1][1]);
  }

  function midpoint() {
    var p = Object.keys(pointers).map(function (id) { return pointers[id]; });
    return [(p[0][0] + p[1][0]) / 2, (p[0][1] + p[1][1]) / 2];
  }

  function cancelGesture(g) {
    g = g || gesture;
    gesture = null;
    if (g && g.type === "drag") drawToken(tokens[g.token.id] || g.token);
    clearOverlay();
  }

  function clearOverlay() {
    if (!layers.overlay) return;
    while (layers.overlay.firstChild) layers.overlay.removeChild(layers.overlay.firstChild);
  }

  function targetOf(event, attr) {
    var node = event.target && event.target.closest ? event.target.closest("[" + attr + "]") : null;
    return node ? Number(node.getAttribute(attr)) : null;
  }

  function startGesture(event) {
    var at = toMap(event);
    var start = local(event);
    var cell = G.cellAt(at[0], at[1]);
    var tokenId = targetOf(event, "data-token");
    var noteId = targetOf(event, "data-note");
    var base = { start: start, at: at, cell: cell, moved: false, tokenId: tokenId, noteId: noteId };
    if (tool === "move" && tokenId !== null && tokens[tokenId]) {
      var t = tokens[tokenId];
      gesture = Object.assign(base, { type: canMove(t) ? "drag" : "pan", token: t, view: { x: view.x, y: view.y } });
      if (gesture.type === "drag") tokenNodes[t.id].classList.add("dragging");
      return;
    }
    if (tool === "ruler") {
      gesture = Object.assign(base, { type: "ruler" });
      drawRuler(cell, cell);
      return;
    }
    if ((tool === "fog" && fogShape() === "brush") || tool === "terrain" || tool === "features") {
      gesture = Object.assign(base, { type: "paint", cells: {} });
      paintAt(at);
      return;
    }
    if (tool === "fog") {
      gesture = Object.assign(base, { type: "rect" });
      drawRect(cell, cell);
      return;
    }
    gesture = Object.assign(base, { type: "pan", view: { x: view.x, y: view.y } });
  }

  function moveGesture(event, now) {
    var g = gesture;
    var at = toMap(event);
    if (g.type === "pan") {
      view.x = g.view.x + now[0] - g.start[0];
      view.y = g.view.y + now[1] - g.start[1];
      applyView();
    } else if (g.type === "drag") {
      var t = g.token;
      var node = tokenNodes[t.id];
      var p0 = G.anchorCenter(t.col, t.row, t.cells);
      var dx = at[0] - g.at[0], dy = at[1] - g.at[1];
      node.setAttribute("transform", "translate(" + num(p0[0] + dx) + " " + num(p0[1] + dy) + ")");
      var target = G.snap(p0[0] + dx, p0[1] + dy, t.cells);
      g.target = target;
      trackPath(g, [t.col, t.row], target);
      clearOverlay();
      el("path", { "class": "drop-ghost", d: G.outline(G.footprint(target[0], target[1], t.cells)) }, layers.overlay);
      var d = G.distance([t.col, t.row], target);
      info.textContent = t.name + " · " + distanceText(d) + movementText(t, d);
    } else if (g.type === "ruler") {
      var end = G.cellAt(at[0], at[1]);
      g.end = end;
      drawRuler(g.cell, end);
    } else if (g.type === "paint") {
      paintAt(at);
    } else if (g.type === "rect") {
      g.end = G.cellAt(at[0], at[1]);
      drawRect(g.cell, g.end);
    }
  }

  function endGesture(g, event) {
    var at = toMap(event);
    var cell = G.cellAt(at[0], at[1]);
    if (g.type === "drag") {
      var node = tokenNodes[g.token.id];
      if (node) node.classList.remove("dragging");
      clearOverlay();
      if (!g.moved || !g.target) { drawToken(g.token); select("token", g.token.id); return; }
      moveToken(g.token, g.target, G.hex ? null : g.path);
    } else if (g.type === "ruler") {
      // the ruler stays until the next measurement
    } else if (g.type === "paint") {
      clearOverlay();
      var cells = Object.keys(g.cells).map(function (k) { return k.split(",").map(Number); });
      if (tool === "terrain") paintTerrain(cells);
      else if (tool === "features") paintFeatures(cells);
      else changeFog({ cells: cells });
    } else if (g.type === "rect") {
      clearOverlay();
      var end = g.end || g.cell;
      changeFog({ rect: [g.cell[0], g.cell[1], end[0], end[1]] });
    } else if (g.type === "pan" && !g.moved) {
      tap(g, cell);
    }
  }

  function tap(g, cell) {
    if (attackFrom !== null && g.tokenId !== null && g.tokenId !== undefined && tokens[g.tokenId] &&
        g.tokenId !== attackFrom && tool === "move") {
      pickTarget(g.tokenId);
      return;
    }
    if (g.tokenId !== null && g.tokenId !== undefined && tokens[g.tokenId] && tool === "move") {
      select("token", g.tokenId);
      return;
    }
    if (g.noteId !== null && g.noteId !== undefined && notes[g.noteId] && (tool === "move" || tool === "note")) {
      select("note", g.noteId);
      return;
    }
    if (!G.inside(cell[0], cell[1])) return;
    if (tool === "token") placeToken(cell);
    else if (tool === "note") placeNote(cell);
    else if (tool === "party") setParty(cell);
    else if (tool === "move") { selected = null; refreshSelection(); showHint(); }
  }

  // ---- tools -----------------------------------------------------------------------------------

  function fogShape() {
    var input = panel.querySelector("[name^=fog-shape]:checked");
    return input ? input.value : "brush";
  }

  function fogMode() {
    var input = panel.querySelector("[name^=fog-mode]:checked");
    return input ? input.value : "reveal";
  }

  function paintAt(at) {
    var cell = G.cellAt(at[0], at[1]);
    var radius = tool === "fog" ? Number(panel.querySelector("[data-fog-radius]").value || 0) : 0;
    var fresh = [];
    G.around(cell[0], cell[1], radius).forEach(function (cr) {
      var key = cr[0] + "," + cr[1];
      if (!gesture.cells[key]) { gesture.cells[key] = true; fresh.push(cr); }
    });
    if (fresh.length) el("path", { "class": "paint-preview " + (tool === "fog" ? fogMode() : "terrain"), d: G.outline(fresh) }, layers.overlay);
  }

  function drawRect(a, b) {
    clearOverlay();
    var c0 = Math.max(0, Math.min(a[0], b[0])), c1 = Math.min(G.w - 1, Math.max(a[0], b[0]));
    var r0 = Math.max(0, Math.min(a[1], b[1])), r1 = Math.min(G.h - 1, Math.max(a[1], b[1]));
    var cells = [];
    for (var r = r0; r <= r1; r++) for (var c = c0; c <= c1; c++) cells.push([c, r]);
    el("path", { "class": "paint-preview " + fogMode(), d: G.outline(cells) }, layers.overlay);
  }

  function distanceText(cells) {
    var distance = Math.round(cells * S.map.cell_distance * 100) / 100;
    return fmt(gettext("{cells} cells · {distance} {unit}"), { cells: cells, distance: distance.toLocaleString(C.lang), unit: S.map.unit_label });
  }

  function movementText(t, extra) {
    if (t.speed === undefined) return "";
    if (t.speed === null) return " · " + gettext("No speed set");
    var moved = (t.moved || 0) + (extra || 0);
    var left = t.speed - moved;
    if (left < 0) return " · " + fmt(gettext("Moved {moved} of {speed}: {over} over"), { moved: moved, speed: t.speed, over: -left });
    return " · " + fmt(gettext("Moved {moved} of {speed} · {left} left"), { moved: moved, speed: t.speed, left: left });
  }

  function drawRuler(a, b) {
    clearOverlay();
    var p = G.center(a[0], a[1]), q = G.center(b[0], b[1]);
    el("path", { "class": "ruler-cells", d: G.outline([a, b]) }, layers.overlay);
    el("line", { "class": "ruler", x1: num(p[0]), y1: num(p[1]), x2: num(q[0]), y2: num(q[1]) }, layers.overlay);
    var d = G.distance(a, b);
    var text = distanceText(d);
    var label = el("text", { "class": "ruler-label", x: num(q[0]), y: num(q[1] - G.cell * 0.6), "text-anchor": "middle", "font-size": num(Math.max(12, 14 / view.k)) }, layers.overlay);
    label.textContent = text;
    info.textContent = text;
  }

  // The squares a dragged token entered, in order (a Crows combat spends the Move by them:
  // difficult ground costs more). Jumps between pointer samples are filled with single steps;
  // going back over the path shortens it.
  function trackPath(g, start, target) {
    if (G.hex) return;
    g.path = g.path || [];
    var last = g.path.length ? g.path[g.path.length - 1] : start;
    if (last[0] === target[0] && last[1] === target[1]) return;
    for (var i = 0; i < g.path.length; i++) {
      if (g.path[i][0] === target[0] && g.path[i][1] === target[1]) { g.path.length = i + 1; return; }
    }
    if (start[0] === target[0] && start[1] === target[1]) { g.path.length = 0; return; }
    var x = last[0], y = last[1];
    while ((x !== target[0] || y !== target[1]) && g.path.length < 200) {
      x += Math.sign(target[0] - x);
      y += Math.sign(target[1] - y);
      g.path.push([x, y]);
    }
  }

  function moveToken(t, target, path) {
    var before = { col: t.col, row: t.row, moved: t.moved };
    var d = G.distance([t.col, t.row], target);
    t.col = target[0];
    t.row = target[1];
    if (t.moved !== undefined) t.moved = (t.moved || 0) + d;
    drawToken(t);
    select("token", t.id);
    var body = { col: target[0], row: target[1] };
    if (path && path.length) body.path = path;
    api("POST", mapUrl("tokens/" + t.id + "/move/"), body, "token.move", onMap({ token_id: t.id }))
      .then(function (data) { upsertToken(data.token); })
      .catch(function (error) {
        Object.assign(t, before);
        drawToken(t);
        refreshSelection();
        fail(error);
      });
  }

  function placeToken(cell) {
    var name = panel.querySelector("[data-token-name]").value.trim();
    var character = panel.querySelector("[data-token-character]");
    if (!name && character.value) name = character.options[character.selectedIndex].text.replace(/\s*\(.*\)$/, "");
    var speed = panel.querySelector("[data-token-speed]").value;
    var body = {
      name: name || gettext("Token"),
      color: panel.querySelector("[data-token-color]").value,
      size: panel.querySelector("[data-token-size]").value,
      col: cell[0], row: cell[1],
      hidden: panel.querySelector("[data-token-hidden]").checked,
    };
    if (character.value) body.character_id = Number(character.value);
    if (speed !== "") body.speed = Number(speed);
    var n = (C.sizes.filter(function (s) { return s.key === body.size; })[0] || { cells: 1 }).cells;
    if (!G.hex) {
      var anchor = G.snap(G.center(cell[0], cell[1])[0], G.center(cell[0], cell[1])[1], n);
      body.col = anchor[0];
      body.row = anchor[1];
    }
    api("POST", mapUrl("tokens/"), body, "token.add", onMap()).then(function (token) {
      upsertToken(token);
      select("token", token.id);
    }).catch(fail);
  }

  function placeNote(cell) {
    var input = panel.querySelector("[data-note-text]");
    var text = input.value.trim();
    if (!text) { toast(gettext("Write the note first.")); input.focus(); return; }
    var secret = panel.querySelector("[data-note-secret]").checked;
    api("POST", mapUrl("notes/"), { col: cell[0], row: cell[1], text: text, secret: secret }, "note.add", onMap())
      .then(function (note) {
        notes[note.id] = note;
        drawNotes();
        input.value = "";
        select("note", note.id);
      }).catch(fail);
  }

  function changeFog(body) {
    var mode = fogMode();
    body.mode = mode;
    var value = mode === "reveal" ? 1 : 0;
    var before = fog.slice();
    if (body.cells) body.cells.forEach(function (cr) { if (G.inside(cr[0], cr[1])) fog[cr[1] * G.w + cr[0]] = value; });
    else if (body.rect) {
      var r = body.rect;
      for (var y = Math.max(0, Math.min(r[1], r[3])); y <= Math.min(G.h - 1, Math.max(r[1], r[3])); y++) {
        for (var x = Math.max(0, Math.min(r[0], r[2])); x <= Math.min(G.w - 1, Math.max(r[0], r[2])); x++) fog[y * G.w + x] = value;
      }
    } else if (body.all) fog.fill(value);
    drawFog();
    api("POST", mapUrl("fog/"), body, "map.fog", onMap()).catch(function (error) {
      fog = before;
      drawFog();
      fail(error);
    });
  }

  function paintTerrain(cells) {
    if (!cells.length) return;
    var terrain = panel.querySelector("[data-terrain]").value;
    cells.forEach(function (cr) {
      var key = cr[0] + "," + cr[1];
      if (terrain) S.terrain[key] = terrain; else delete S.terrain[key];
    });
    drawTerrain();
    api("POST", mapUrl("terrain/"), { terrain: terrain, cells: cells }, "map.terrain", onMap()).catch(fail);
  }

  var FEATURE_BODIES = {
    wall: { cover: "wall" }, low: { cover: "low" }, nocover: { cover: "" },
    h1: { height: 1 }, h2: { height: 2 }, h3: { height: 3 }, h0: { height: 0 },
    bright: { light: "bright" }, dim: { light: "dim" }, dark: { light: "dark" }, nolight: { light: "" },
    fog_light: { concealment: "light" }, fog_heavy: { concealment: "heavy" }, noconceal: { concealment: "" },
    difficult: { ground: "difficult" }, water: { ground: "water" }, noground: { ground: "" },
  };

  function paintFeatures(cells) {
    if (!cells.length) return;
    var choice = panel.querySelector("[data-feature]").value;
    var body = FEATURE_BODIES[choice];
    if (!body) return;
    cells.forEach(function (cr) {
      var key = cr[0] + "," + cr[1];
      var f = Object.assign({}, S.features[key] || {});
      Object.keys(body).forEach(function (name) {
        if (body[name] === "" || body[name] === 0) delete f[name]; else f[name] = body[name];
      });
      if (Object.keys(f).length) S.features[key] = f; else delete S.features[key];
    });
    drawFeatures();
    api("POST", mapUrl("features/"), Object.assign({ cells: cells }, body), "map.features", onMap()).catch(fail);
  }

  function setParty(cell) {
    var mode = panel.querySelector("[data-party-mode]").value;
    var body = { reveal: mode === "true" ? null : Number(panel.querySelector("[data-party-reveal]").value) };
    if (mode !== "true") body.shown = cell;
    if (mode !== "shown") body["true"] = cell;
    api("POST", mapUrl("party/"), body, "map.party", onMap()).then(function (party) {
      S.party = party;
      drawParty();
      if (C.mode === "editor") loadMap(S.map.id);
    }).catch(fail);
  }

  function setTool(name) {
    tool = name;
    panel.querySelectorAll("[data-tool]").forEach(function (button) {
      button.setAttribute("aria-pressed", button.getAttribute("data-tool") === name ? "true" : "false");
    });
    panel.querySelectorAll("[data-options]").forEach(function (box) {
      box.hidden = box.getAttribute("data-options") !== name;
    });
    panel.setAttribute("data-tool", name);
    clearOverlay();
    showHint();
  }

  function showHint() {
    if (!S) return;
    if (selected) { refreshSelection(); return; }
    var hints = {
      move: gettext("Drag your tokens; drag the background to pan."), ruler: gettext("Drag from one cell to another to measure."), fog: gettext("Drag over cells to reveal or hide them."), token: gettext("Tap a cell to place the token."),
      note: gettext("Write the note, then tap a cell."), terrain: gettext("Tap or drag over cells to paint."), party: gettext("Tap a hex to set the party's position."),
      features: gettext("Tap or drag over squares to paint walls, height, light or fog."),
    };
    info.textContent = hints[tool] || "";
  }

  panel.querySelectorAll("[data-tool]").forEach(function (button) {
    button.addEventListener("click", function () { setTool(button.getAttribute("data-tool")); });
  });

  // ---- selection and the info bar ---------------------------------------------------------------

  function select(type, id) {
    selected = { type: type, id: Number(id) };
    Object.keys(tokenNodes).forEach(function (key) {
      tokenNodes[key].classList.toggle("selected", type === "token" && Number(key) === Number(id));
    });
    refreshSelection();
  }

  function button(text, handler, extra) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "small" + (extra ? " " + extra : "");
    b.textContent = text;
    b.addEventListener("click", handler);
    return b;
  }

  function refreshSelection() {
    if (!selected) return;
    info.textContent = "";
    if (selected.type === "token") {
      var t = tokens[selected.id];
      if (!t) { selected = null; showHint(); return; }
      var line = document.createElement("span");
      var size = C.sizes.filter(function (s) { return s.key === t.size; })[0];
      var bits = [t.name, size ? size.label : t.size];
      if (t.owner_id === me.id) bits.push(gettext("your character"));
      if (t.hidden) bits.push(gettext("hidden from players"));
      if (isReferee && tokenInFog(t)) bits.push(gettext("in the fog"));
      line.textContent = bits.join(" · ") + movementText(t, 0);
      info.appendChild(line);
      if (canAttack(t)) {
        info.appendChild(button(pgettext("map action", "Attack"), function () { startAttack(t); }, "primary attack-start"));
      }
      if (C.canManage) {
        info.appendChild(button(t.hidden ? gettext("Show to players") : gettext("Hide from players"), function () {
          api("PATCH", mapUrl("tokens/" + t.id + "/"), { hidden: !t.hidden }, "token.update", onMap({ token_id: t.id })).then(upsertToken).catch(fail);
        }));
        info.appendChild(button(gettext("Remove"), function () {
          if (!window.confirm(fmt(gettext("Remove the token {name}?"), { name: t.name }))) return;
          api("DELETE", mapUrl("tokens/" + t.id + "/"), undefined, "token.delete", onMap({ token_id: t.id })).then(function () { removeToken(t.id); }).catch(fail);
        }, "danger"));
      }
    } else {
      var n = notes[selected.id];
      if (!n) { selected = null; showHint(); return; }
      var text = document.createElement("span");
      text.className = "note-text";
      text.textContent = n.text + (n.secret ? " (" + gettext("secret") + ")" : "");
      info.appendChild(text);
      if (C.canManage) {
        info.appendChild(button(gettext("Remove"), function () {
          if (!window.confirm(gettext("Remove this note?"))) return;
          api("DELETE", mapUrl("notes/" + n.id + "/"), undefined, "note.delete", onMap({ note_id: n.id })).then(function () {
            delete notes[n.id];
            drawNotes();
            selected = null;
            showHint();
          }).catch(fail);
        }, "danger"));
      }
    }
  }

  // ---- referee controls -----------------------------------------------------------------------

  function onAction(name, handler) {
    var node = panel.querySelector("[data-action=" + name + "]");
    if (node) node.addEventListener("click", handler);
  }

  onAction("reveal-all", function () {
    if (S && window.confirm(gettext("Reveal the whole map to the players?"))) { forceMode("reveal"); changeFog({ all: true }); }
  });
  onAction("hide-all", function () {
    if (S && window.confirm(gettext("Cover the whole map with fog?"))) { forceMode("hide"); changeFog({ all: true }); }
  });
  onAction("round", function () {
    if (!S) return;
    api("POST", mapUrl("round/"), undefined, "map.round", onMap()).then(function () { resetMovement(); }).catch(fail);
  });
  onAction("party-hide", function () {
    if (!S) return;
    api("POST", mapUrl("party/"), { shown: null, reveal: null }, "map.party", onMap()).then(function (party) {
      S.party = party;
      drawParty();
    }).catch(fail);
  });

  function forceMode(mode) {
    var input = panel.querySelector("[name^=fog-mode][value=" + mode + "]");
    if (input) input.checked = true;
  }

  var preview = panel.querySelector("[data-players-view]");
  if (preview) preview.addEventListener("change", function () {
    panel.classList.toggle("players-view", preview.checked);
  });

  if (mapSelect) {
    mapSelect.addEventListener("change", function () {
      var id = mapSelect.value ? Number(mapSelect.value) : null;
      var current = S ? S.map.id : null;
      var request = id
        ? api("POST", C.urls.map.replace("{id}", id) + "activate/", { active: true }, "map.activate", { map_id: id })
        : current
          ? api("POST", C.urls.map.replace("{id}", current) + "activate/", { active: false }, "map.activate", { map_id: current })
          : Promise.resolve();
      request.then(function () { return loadMap(id); }).catch(fail);
    });
  }

  function resetMovement() {
    Object.keys(tokens).forEach(function (id) { if (tokens[id].moved !== undefined) tokens[id].moved = 0; });
    refreshSelection();
  }

  // The editor's "Tokens (n)" heading follows the tokens placed and removed on the map.
  var tokenCount = document.querySelector("[data-token-count]");
  function countTokens() {
    if (tokenCount) tokenCount.textContent = String(Object.keys(tokens).length);
  }

  function upsertToken(t) {
    if (!t || !S) return;
    tokens[t.id] = t;
    countTokens();
    drawToken(t);
    if (selected && selected.type === "token" && selected.id === t.id) refreshSelection();
  }

  // ---- attacks from the map (Crows) -------------------------------------------------------------
  // The player names the attacker, the target and the weapon; the server reads cover, light,
  // height and flanking from the map and rolls. The result reaches every browser as a `move`
  // event with the map's sources (moves.js draws it in the log); here the attacker sees it too.

  function canAttack(t) {
    return C.ruleset === "crows" && G && !G.hex && C.canPlay && !!t.character_id &&
      (isReferee || (t.owner_id !== null && t.owner_id === me.id));
  }

  function cancelAttack() {
    attackFrom = null;
    panel.classList.remove("choosing-target");
    showHint();
  }

  function startAttack(t) {
    attackFrom = t.id;
    panel.classList.add("choosing-target");
    info.textContent = "";
    info.appendChild(el2("span", "attack-hint", fmt(gettext("{name} attacks: tap the target’s token."), { name: t.name })));
    info.appendChild(button(gettext("Cancel"), cancelAttack, "attack-cancel"));
  }

  function el2(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function heldWeapons(sheet) {
    var placed = ((sheet || {}).inventory || {}).placed || [];
    var out = [];
    placed.forEach(function (p) {
      if (p.area !== "hands") return;
      (p.items || []).forEach(function (card) { if (card && card.id) out.push(card); });
    });
    return out;
  }

  function pickTarget(targetId) {
    var from = tokens[attackFrom], target = tokens[targetId];
    if (!from || !target) { cancelAttack(); return; }
    info.textContent = "";
    info.appendChild(el2("span", "attack-hint", fmt(gettext("Loading {name}’s weapons…"), { name: from.name })));
    api("GET", C.urls.character.replace("{id}", from.character_id)).then(function (character) {
      attackForm(from, target, heldWeapons(character.state));
    }).catch(function (error) { fail(error); cancelAttack(); });
  }

  function attackForm(from, target, weapons) {
    info.textContent = "";
    var form = document.createElement("form");
    form.className = "attack-form";
    form.appendChild(el2("span", "attack-who", fmt(gettext("{from} → {to}"), { from: from.name, to: target.name })));
    var select = document.createElement("select");
    select.setAttribute("data-attack-weapon", "");
    select.setAttribute("aria-label", gettext("Weapon"));
    weapons.forEach(function (card) {
      var option = document.createElement("option");
      option.value = card.id;
      option.textContent = card.name || card.id;
      select.appendChild(option);
    });
    var unarmed = document.createElement("option");
    unarmed.value = "";
    unarmed.textContent = gettext("Unarmed strike");
    select.appendChild(unarmed);
    form.appendChild(select);
    var kind = document.createElement("select");
    kind.setAttribute("data-attack-kind", "");
    kind.setAttribute("aria-label", gettext("Melee or ranged"));
    [["", gettext("As the weapon")], ["melee", gettext("Melee")], ["ranged", gettext("Ranged")]].forEach(function (pair) {
      var option = document.createElement("option");
      option.value = pair[0];
      option.textContent = pair[1];
      kind.appendChild(option);
    });
    form.appendChild(kind);
    var go = document.createElement("button");
    go.type = "submit";
    go.className = "small primary";
    go.setAttribute("data-attack-go", "");
    go.textContent = pgettext("map action", "Attack");
    form.appendChild(go);
    form.appendChild(button(gettext("Cancel"), cancelAttack, "attack-cancel"));
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      go.disabled = true;
      api("POST", C.urls.attack.replace("{id}", S.map.id), {
        attacker: from.id, target: target.id, weapon_id: select.value, attack: kind.value,
      }, "map.attack", onMap()).then(function (data) {
        attackFrom = null;
        panel.classList.remove("choosing-target");
        showAttackResult(data);
      }).catch(function (error) { go.disabled = false; fail(error); });
    });
    info.appendChild(form);
  }

  function sourcesText(context) {
    var lang = (C.lang || "ru").slice(0, 2);
    var names = (context.sources || []).map(function (s) {
      return (s[lang] || s.en || s.key) + " (" + (s.side > 0 ? "+" : "−") + (s.weight > 1 ? "×2" : "") + ")";
    });
    var net = { "-2": gettext("double disadvantage"), "-1": gettext("disadvantage"), "0": gettext("a plain roll"), "1": gettext("advantage"), "2": gettext("double advantage") }[String(context.net || 0)];
    return (names.length ? names.join(", ") : gettext("nothing from the map")) + " → " + net;
  }

  function showAttackResult(data) {
    var o = data.outcome || {};
    var context = data.context || {};
    info.textContent = "";
    var box = el2("div", "attack-result");
    box.setAttribute("data-attack-result", "");
    box.setAttribute("data-net", String(context.net || 0));
    box.appendChild(el2("span", "attack-sources", sourcesText(context)));
    var lang = (C.lang || "ru").slice(0, 2);
    var text = o.text ? (o.text[lang] || o.text.en || "") : "";
    box.appendChild(el2("span", "attack-total", (o.faces || []).join("+") + " = " + o.total + (text ? " · " + text : "")));
    info.appendChild(box);
  }

  // ---- live events ------------------------------------------------------------------------------

  function apply(ev) {
    var p = ev.payload || {};
    if (ev.seq <= seenHead) return;
    if (ev.kind === "map.active") {
      if (mapSelect) mapSelect.value = p.map_id ? String(p.map_id) : "";
      if (C.mode !== "table") return;
      if (!p.map_id) { loading = null; setState(null); return; }
      if ((!S || S.map.id !== p.map_id) && loading !== p.map_id) loadMap(p.map_id);
      return;
    }
    if (ev.kind === "map.saved" || ev.kind === "map.deleted" || ev.kind === "map.update") {
      updateMapList(ev.kind, p);
      if (ev.kind === "map.update") { reloadOnUpdate(ev); return; }
      if (ev.kind === "map.deleted" && S && S.map.id === p.map_id) setState(null);
      return;
    }
    if (loading && p.map_id === loading) { queued.push(ev); return; }
    if (!S || p.map_id !== S.map.id || ev.seq <= S.head) return;
    switch (ev.kind) {
      case "map.token": upsertToken(p.token); break;
      case "map.token.gone": removeToken(p.token_id); break;
      case "map.fog": applyFog(p); break;
      case "map.note":
        notes[p.note.id] = p.note;
        drawNotes();
        if (selected && selected.type === "note" && selected.id === p.note.id) refreshSelection();
        break;
      case "map.note.gone":
        delete notes[p.note_id];
        drawNotes();
        if (selected && selected.type === "note" && selected.id === p.note_id) { selected = null; showHint(); }
        break;
      case "map.terrain":
        Object.keys(p.cells || {}).forEach(function (key) {
          if (p.cells[key]) S.terrain[key] = p.cells[key]; else delete S.terrain[key];
        });
        drawTerrain();
        break;
      case "map.party":
        S.party = S.party || {};
        if ("shown" in p) S.party.shown = p.shown;
        if (isReferee && "true" in p) S.party["true"] = p["true"];
        drawParty();
        break;
      case "map.round": resetMovement(); break;
      case "map.features":
        Object.keys(p.cells || {}).forEach(function (key) {
          if (p.cells[key] && Object.keys(p.cells[key]).length) S.features[key] = p.cells[key];
          else delete S.features[key];
        });
        drawFeatures();
        break;
      default: break;
    }
  }

  function applyFog(p) {
    applyRuns(p.runs, p.reveal ? 1 : 0);
    S.fog.version = Math.max(S.fog.version, p.fog_version);
    if (!isReferee) {
      (p.gone || []).forEach(removeToken);
      (p.tokens || []).forEach(function (t) { tokens[t.id] = t; drawToken(t); });
      (p.notes_gone || []).forEach(function (id) { delete notes[id]; });
      (p.notes || []).forEach(function (n) { notes[n.id] = n; });
      Object.keys(p.terrain || {}).forEach(function (key) { S.terrain[key] = p.terrain[key]; });
      Object.keys(p.features || {}).forEach(function (key) { S.features[key] = p.features[key]; });
      if (!p.reveal) {
        Object.keys(S.terrain).forEach(function (key) {
          var cr = key.split(",").map(Number);
          if (!revealed(cr[0], cr[1])) delete S.terrain[key];
        });
        Object.keys(S.features).forEach(function (key) {
          var cr = key.split(",").map(Number);
          if (!revealed(cr[0], cr[1])) delete S.features[key];
        });
      }
      drawTerrain();
      drawFeatures();
      if ("background" in p) { S.background = p.background; drawBackground(); }
    }
    drawFog();
  }

  /* The map on the table changed its settings: load it again, once for a burst of changes
   * (not when the state shown or being loaded is newer already). */
  function reloadOnUpdate(ev) {
    var p = ev.payload || {};
    if (!S || p.map_id !== S.map.id || ev.seq <= S.head || loading === p.map_id) return;
    clearTimeout(reloadOnUpdate.timer);
    reloadOnUpdate.timer = setTimeout(function () { if (S) loadMap(S.map.id); }, 150);
  }

  // Code-point order, as the database orders names (``ordering`` of Map and Character).
  function byNameThenId(a, b) {
    if (a.name !== b.name) return a.name < b.name ? -1 : 1;
    return a.id - b.id;
  }

  /* The referee's list of maps, in the order a fresh page lists them (name, then id). */
  function updateMapList(kind, p) {
    if (!mapSelect) return;
    var option = mapSelect.querySelector("option[value='" + p.map_id + "']");
    if (kind === "map.deleted") { if (option) option.remove(); return; }
    if (!option) {
      option = document.createElement("option");
      option.value = String(p.map_id);
    }
    option.textContent = p.name;
    var entry = { name: p.name, id: p.map_id };
    var before = Array.prototype.filter.call(mapSelect.options, function (o) {
      return o.value && o !== option && byNameThenId(entry, { name: o.textContent, id: Number(o.value) }) < 0;
    })[0] || null;
    mapSelect.insertBefore(option, before);
  }

  /* The characters the token tool and the Crows strips offer (``C.characters``) follow the
   * sheets' events, as a fresh page lists them: the referee every sheet (by kind, name, id), a
   * player their own visible characters. */
  var KIND_ORDER = { npc: 0, pc: 1 };
  function onCharacter(ev) {
    var p = ev.payload || {};
    var list = (C.characters || []).filter(function (c) { return c.id !== p.character_id; });
    var mine = p.kind === "pc" && p.owner_id === me.id;
    if (ev.kind !== "character.deleted" && (isReferee || mine)) {
      list.push({ id: p.character_id, name: p.name, kind: p.kind, owner_id: p.owner_id });
    }
    list.sort(function (a, b) {
      if (a.kind !== b.kind) return KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
      return byNameThenId(a, b);
    });
    C.characters = list;
    drawCharacterChoices();
    document.dispatchEvent(new CustomEvent("vtt:characters"));
  }

  function drawCharacterChoices() {
    var select = panel.querySelector("[data-token-character]");
    if (!select) return;
    var value = select.value;
    while (select.options.length > 1) select.remove(1);  // the first: "no character"
    (C.characters || []).forEach(function (c) {
      var option = document.createElement("option");
      option.value = String(c.id);
      option.textContent = c.kind === "npc" ? c.name + " (" + gettext("NPC") + ")" : c.name;
      select.appendChild(option);
    });
    select.value = value;
    if (select.value !== value) select.value = "";
  }

  document.addEventListener("vtt:event", function (e) {
    var ev = e.detail;
    if (!ev || typeof ev.kind !== "string") return;
    if (ev.kind.indexOf("map.") === 0) apply(ev);
    else if (ev.kind.indexOf("character.") === 0 && ev.seq > charactersHead) onCharacter(ev);
  });

  // ---- start --------------------------------------------------------------------------------------

  seenHead = C.head || 0;
  drawCharacterChoices();
  setState(C.state || null);
  setTool("move");
  // Also window.VTTMap, read by the browser tests (tests/e2e) through page.evaluate.
  var mapView = {
    sourcesText: sourcesText,
    state: function () { return S; },
    tokens: function () { return tokens; },
    characters: function () { return C.characters || []; },
    isRevealed: function (c, r) { return G ? revealed(c, r) : false; },
    geometry: function () { return G; },
  };
  window.VTTMap = mapView;
  return mapView;
}

/** The map on the page (null without one): crows_panel.js reads its state. */
export const map = start();
