/**
 * What a file really is, from its first bytes (never from its name or declared type), and
 * decoding of the data URLs / base64 the upload routes receive.
 */
import { base64ToBytes } from "../lib/encoding";

export type DetectedType = "image/jpeg" | "image/png" | "image/webp" | "image/gif" | "application/pdf";

export const EXTENSIONS: Record<DetectedType, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
  "application/pdf": "pdf",
};

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) =>
  signature.every((b, i) => bytes[offset + i] === b);

export function detectFileType(bytes: Uint8Array): DetectedType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return "image/gif";
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return "application/pdf";
  return null;
}

/** Bytes of `data:<type>;base64,<data>` or of bare base64; null when it is neither. */
export function decodeDataUrl(input: string): Uint8Array | null {
  const match = /^data:[^;,]*(;[^,]*)?,/.exec(input);
  const base64 = (match ? input.slice(match[0].length) : input).replace(/\s/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) return null;
  try {
    return base64ToBytes(base64);
  } catch {
    return null;
  }
}

/** Decoded size of a base64 payload without decoding it (to refuse huge bodies early). */
export function decodedSize(input: string): number {
  const comma = input.startsWith("data:") ? input.indexOf(",") + 1 : 0;
  const length = input.length - comma;
  return Math.floor((length * 3) / 4);
}
