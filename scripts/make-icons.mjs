/**
 * Writes the app's PNG icons (web/public/icons/): 192 and 512, "any" and "maskable" (the mark inside
 * the central 80% safe zone on a full-bleed background). Run `node scripts/make-icons.mjs` after a
 * change; the PNGs are committed so the build needs no image tools.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";
import { join } from "node:path";
import { ROOT } from "./lib/server.mjs";

const BRAND = [0x1f, 0x6f, 0xeb];
const WHITE = [0xff, 0xff, 0xff];

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => buf.reduce((c, b) => CRC[(c ^ b) & 0xff] ^ (c >>> 8), 0xffffffff) ^ 0xffffffff;
function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "ascii");
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)) >>> 0, 8 + data.length);
  return out;
}

/** A house: a roof triangle over a square, white on the brand colour; `inset` is the empty margin. */
function icon(size, maskable) {
  const rows = [];
  const margin = size * (maskable ? 0.28 : 0.18);
  const inner = size - 2 * margin;
  const round = maskable ? 0 : size * 0.18;
  for (let y = 0; y < size; y++) {
    const row = [0];
    for (let x = 0; x < size; x++) {
      // Rounded corners on "any" icons (transparent outside); maskable ones fill the square.
      const cx = Math.max(round - x, x - (size - 1 - round), 0);
      const cy = Math.max(round - y, y - (size - 1 - round), 0);
      const outside = round > 0 && cx * cx + cy * cy > round * round;
      const u = (x - margin) / inner;
      const v = (y - margin) / inner;
      const roof = v >= 0 && v < 0.45 && Math.abs(u - 0.5) <= v * 1.1;
      const body = v >= 0.45 && v <= 1 && u >= 0.15 && u <= 0.85 && !(u > 0.42 && u < 0.58 && v > 0.7);
      const [r, g, b] = roof || body ? WHITE : BRAND;
      row.push(r, g, b, outside ? 0 : 255);
    }
    rows.push(Buffer.from(row));
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", deflateSync(Buffer.concat(rows), { level: 9 })), chunk("IEND", Buffer.alloc(0))]);
}

const dir = join(ROOT, "web", "public", "icons");
mkdirSync(dir, { recursive: true });
for (const size of [192, 512]) {
  writeFileSync(join(dir, `icon-${size}.png`), icon(size, false));
  writeFileSync(join(dir, `maskable-${size}.png`), icon(size, true));
}
console.log(`Wrote icons to ${dir}`);
