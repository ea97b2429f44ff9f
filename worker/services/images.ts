/**
 * Metadata removal: no image the product serves carries EXIF (GPS, camera serial), XMP or
 * comments, whatever the client sent. Done on the bytes (no image library in workerd): JPEG
 * APPn/COM segments, PNG text/eXIf chunks, WebP EXIF/XMP chunks are dropped; pixels are untouched.
 */
import type { DetectedType } from "./files";

export function stripMetadata(bytes: Uint8Array, type: DetectedType): Uint8Array {
  if (type === "image/jpeg") return stripJpeg(bytes);
  if (type === "image/png") return stripPng(bytes);
  if (type === "image/webp") return stripWebp(bytes);
  return bytes;
}

function stripJpeg(bytes: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [bytes.subarray(0, 2)]; // SOI
  let i = 2;
  while (i + 4 <= bytes.length) {
    if (bytes[i] !== 0xff) return bytes; // not a marker where one must be: leave the file as it is
    const marker = bytes[i + 1]!;
    if (marker === 0xda) {
      // Start of scan: the rest is image data.
      parts.push(bytes.subarray(i));
      return concat(parts);
    }
    const length = (bytes[i + 2]! << 8) | bytes[i + 3]!;
    const end = i + 2 + length;
    if (end > bytes.length) return bytes;
    // Keep APP0 (JFIF), APP2 (ICC colour profile) and APP14 (Adobe colour transform); drop other APPn and COM.
    const isApp = marker >= 0xe0 && marker <= 0xef;
    const keep = !(isApp || marker === 0xfe) || marker === 0xe0 || marker === 0xe2 || marker === 0xee;
    if (keep) parts.push(bytes.subarray(i, end));
    i = end;
  }
  return bytes;
}

const PNG_DROP = new Set(["eXIf", "tEXt", "iTXt", "zTXt", "tIME"]);
function stripPng(bytes: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [bytes.subarray(0, 8)];
  let i = 8;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  while (i + 12 <= bytes.length) {
    const length = view.getUint32(i);
    const type = String.fromCharCode(...bytes.subarray(i + 4, i + 8));
    const end = i + 12 + length;
    if (end > bytes.length) return bytes;
    if (!PNG_DROP.has(type)) parts.push(bytes.subarray(i, end));
    i = end;
    if (type === "IEND") break;
  }
  return concat(parts);
}

function stripWebp(bytes: Uint8Array): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks: Uint8Array[] = [];
  let i = 12;
  let vp8x: Uint8Array | null = null;
  while (i + 8 <= bytes.length) {
    const type = String.fromCharCode(...bytes.subarray(i, i + 4));
    const size = view.getUint32(i + 4, true);
    const end = i + 8 + size + (size % 2);
    if (end > bytes.length + 1) return bytes;
    const chunk = bytes.subarray(i, Math.min(end, bytes.length));
    if (type === "VP8X") vp8x = chunk.slice();
    else if (type !== "EXIF" && type !== "XMP ") chunks.push(chunk);
    i = end;
  }
  if (vp8x) {
    vp8x[8] = vp8x[8]! & ~0x0c; // clear the EXIF and XMP flags
    chunks.unshift(vp8x);
  }
  const body = concat(chunks);
  const header = new Uint8Array(12);
  header.set(bytes.subarray(0, 12));
  new DataView(header.buffer).setUint32(4, body.length + 4, true);
  return concat([header, body]);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}
