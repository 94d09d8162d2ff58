// The journal's handouts on the table page: when the referee shows an entry (a "handout"
// event, which the server sends only to the entry's addressees), open it in a pop-up.
// Events the page was rendered with (up to the table config's `head`) do not pop up again;
// one shown while the socket was down arrives in the reconnect's replay and does.
import { jsonScript } from "./lib/dom.js";
import { gettext } from "./lib/i18n.js";

const config = jsonScript("table-config") || {};
const head = config.head || 0;

function dialog() {
  let node = document.getElementById("handout-dialog");
  if (node) return node;
  node = document.createElement("dialog");
  node.id = "handout-dialog";
  node.className = "handout-dialog";
  node.setAttribute("aria-labelledby", "handout-title");
  const title = document.createElement("h2");
  title.id = "handout-title";
  const body = document.createElement("div");
  body.className = "prose handout-body";
  const pictures = document.createElement("div");
  pictures.className = "handout-images";
  const form = document.createElement("form");
  form.method = "dialog";
  const close = document.createElement("button");
  close.type = "submit";
  close.textContent = gettext("Close");
  form.appendChild(close);
  node.append(title, body, pictures, form);
  document.body.appendChild(node);
  return node;
}

export function showHandout(payload) {
  const node = dialog();
  node.querySelector("#handout-title").textContent = payload.title;
  // Sanitised on the server (markdown-it-py without raw HTML, then nh3).
  node.querySelector(".handout-body").innerHTML = payload.html;
  const pictures = node.querySelector(".handout-images");
  pictures.replaceChildren(
    ...(payload.images || []).map((image) => {
      const img = document.createElement("img");
      img.src = image.url;
      img.alt = "";
      img.loading = "lazy";
      return img;
    }),
  );
  if (!node.open) node.showModal();
}

document.addEventListener("vtt:event", (e) => {
  const ev = e.detail;
  if (!ev || ev.kind !== "handout" || !ev.payload) return;
  if (ev.seq <= head) return;
  showHandout(ev.payload);
});
