/* Formatting shared by the page modules. */

/** `{name}` placeholders in `text` filled from `vars`; unknown or undefined ones stay as written. */
export function fmt(text, vars) {
  const values = vars || {};
  return String(text ?? "").replace(/\{(\w+)\}/g, (match, key) =>
    Object.prototype.hasOwnProperty.call(values, key) && values[key] !== undefined
      ? String(values[key])
      : match,
  );
}

/** A signed modifier as players write it: +2, −1 (a minus sign), 0. */
export function signed(n) {
  if (n > 0) return "+" + n;
  if (n < 0) return "−" + Math.abs(n);
  return "0";
}
