// The journal's handouts on the table page: when the referee shows an entry (a "handout"
// event, which the server sends only to the entry's addressees), open it in a pop-up.
// Events replayed from the log (page load, reconnect) older than the page do not pop up.

const REPLAY_MARGIN_MS = 5000;
const openedAt = Date.now();

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
  // The label comes translated from the page (templates/journal/_table.html).
  close.textContent = document.getElementById("handout-strings")?.dataset.close || "×";
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
  if (Date.parse(ev.created_at) < openedAt - REPLAY_MARGIN_MS) return;
  showHandout(ev.payload);
});
