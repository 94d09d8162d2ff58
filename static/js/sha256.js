/* SHA-256 of a string's UTF-8 bytes, as lowercase hex.
 *
 * hex(text) is synchronous pure JS (FIPS 180-4), for browsers without crypto.subtle:
 * it exists only in secure contexts (https or localhost), and a table on a LAN is often served
 * over plain http. digest(text) prefers crypto.subtle and falls back to the pure one;
 * it resolves to {hex, via: "subtle" | "js"}.
 */
var K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

function utf8(text) {
  if (typeof TextEncoder !== "undefined") return new TextEncoder().encode(text);
  var bin = unescape(encodeURIComponent(text)); // very old browsers only
  var out = new Uint8Array(bin.length);
  for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function bytesHex(bytes) {
  var hex = "";
  for (var i = 0; i < bytes.length; i++) hex += (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16);
  return hex;
}

function sha256Bytes(data) {
  var bitLength = data.length * 8;
  // message + 0x80 + zero padding + 64-bit big-endian length, to a multiple of 64 bytes
  var total = ((data.length + 9 + 63) >> 6) << 6;
  var msg = new Uint8Array(total);
  msg.set(data);
  msg[data.length] = 0x80;
  var view = new DataView(msg.buffer);
  view.setUint32(total - 8, Math.floor(bitLength / 0x100000000));
  view.setUint32(total - 4, bitLength >>> 0);

  var h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  var w = new Uint32Array(64);
  for (var off = 0; off < total; off += 64) {
    for (var t = 0; t < 16; t++) w[t] = view.getUint32(off + t * 4);
    for (t = 16; t < 64; t++) {
      var x = w[t - 15], y = w[t - 2];
      var s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      var s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
    }
    var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (t = 0; t < 64; t++) {
      var S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      var ch = (e & f) ^ (~e & g);
      var t1 = (k + S1 + ch + K[t] + w[t]) | 0;
      var S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      var maj = (a & b) ^ (a & c) ^ (b & c);
      var t2 = (S0 + maj) | 0;
      k = g; g = f; f = e; e = (d + t1) | 0;
      d = c; c = b; b = a; a = (t1 + t2) | 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += k;
  }
  var out = new Uint8Array(32);
  var outView = new DataView(out.buffer);
  for (var i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]);
  return out;
}

export function hex(text) {
  return bytesHex(sha256Bytes(utf8(text)));
}

export function hasSubtle() {
  return !!(window.crypto && window.crypto.subtle && typeof window.crypto.subtle.digest === "function");
}

export function digest(text) {
  if (!hasSubtle()) return Promise.resolve({ hex: hex(text), via: "js" });
  return window.crypto.subtle.digest("SHA-256", utf8(text)).then(
    function (buf) { return { hex: bytesHex(new Uint8Array(buf)), via: "subtle" }; },
    function () { return { hex: hex(text), via: "js" }; }
  );
}

