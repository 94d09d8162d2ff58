/* The page's one transient message: the `#toast` element of base.html. */

// How long a message stays, in milliseconds.
export const TOAST_MS = 6000;
let timer = null;

/** Show `message` in `#toast` for TOAST_MS; without one (a bare page) an alert. */
export function toast(message) {
  const node = document.getElementById("toast");
  if (!node) {
    window.alert(message);
    return;
  }
  node.textContent = message;
  node.hidden = false;
  clearTimeout(timer);
  timer = setTimeout(() => {
    node.hidden = true;
  }, TOAST_MS);
}
