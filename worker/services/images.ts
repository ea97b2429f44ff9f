/**
 * Listing photos: each upload entry checked from its bytes, cleaned and stored (storeListingPhoto),
 * and the metadata removal behind it: no image the product serves carries EXIF (GPS, camera serial),
 * XMP or comments, whatever the client sent. Done on the bytes (no image library in workerd): each
 * format is walked structure by structure, metadata is dropped, pixels are untouched, and anything
 * after the image's end is cut. A file that cannot be walked is refused (null), never stored as it came.
 */
import { LIMITS } from "../contract/limits";
import type { UploadResponse } from "../contract/listings";
import { imageUrl } from "../lib/image-url";
import { MAX_IMAGE_PIXELS, readImageSize } from "../lib/image-size";
import { newId } from "../lib/ids";
import { decodeDataUrl, decodedSize, detectFileType, EXTENSIONS, type DetectedType } from "./files";
import { deleteObjects, IMMUTABLE } from "./storage";

export const IMAGE_TOO_BIG = "Each image must be less than 10MB";
export const IMAGE_UNREADABLE = "The image is damaged or could not be read";

/** The contract's refusal of a picture over 25 megapixels. */
export const tooManyPixels = (name: string) => `${name} is too large: at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels`;

/**
 * The pixel check every upload path runs on an image before anything else reads it (listing photos,
 * avatars, identity documents, deal evidence; docs/decisions/036): width and height from the header
 * (lib/image-size: nothing is decoded), at most 25 megapixels, so no picture we keep can make a decoder
 * (ours, staff's browser, a visitor's) allocate a full-size bitmap a worker or a phone cannot hold.
 * Returns the problem, worded for the person (`name`: the file's name, or "This image"), or null.
 */
export function imagePixelsProblem(bytes: Uint8Array, name: string): { reason: "unreadable" | "too_large"; message: string } | null {
  const size = readImageSize(bytes);
  if (!size) return { reason: "unreadable", message: IMAGE_UNREADABLE };
  if (size.width * size.height > MAX_IMAGE_PIXELS) return { reason: "too_large", message: tooManyPixels(name) };
  return null;
}

/** One upload entry as the contract's schema parsed it. */
export interface PhotoEntry {
  filename: string;
  image_data: string;
  thumbnail_data?: string;
}

/**
 * One listing photo: checked (checkUploadedPhoto), stripped of metadata and stored under a key carrying
 * its uploader's id, with the client-made thumbnail beside it
 * when that is a readable JPEG within its cap (else cards use the full image). A problem with the file
 * is its `failed_files` entry; every key written is pushed to `stored` before the write, so a request
 * refused later can remove them (deleteListingPhotos).
 */
export async function storeListingPhoto(
  env: Env,
  ownerId: string,
  image: PhotoEntry,
  stored: string[],
): Promise<{ uploaded: UploadResponse["uploaded_files"][number] } | { failed: UploadResponse["failed_files"][number] }> {
  const checked = checkUploadedPhoto(image);
  if ("error" in checked) return { failed: { filename: image.filename, error: checked.error } };
  const { bytes: clean, type } = checked;
  const key = `listings/${ownerId}_${newId()}.${EXTENSIONS[type]}`;
  stored.push(key);
  await env.IMAGES.put(key, clean, { httpMetadata: { contentType: type, cacheControl: IMMUTABLE } });
  const thumb = image.thumbnail_data && decodedSize(image.thumbnail_data) <= LIMITS.thumbnailMaxBytes ? decodeDataUrl(image.thumbnail_data) : null;
  const cleanThumb = thumb && detectFileType(thumb) === "image/jpeg" ? stripMetadata(thumb, "image/jpeg") : null;
  let thumbUrl: string | null = null;
  if (cleanThumb) {
    const thumbKey = key.replace(/\.(jpg|png|webp|gif)$/, ".thumb.jpg");
    stored.push(thumbKey);
    await env.IMAGES.put(thumbKey, cleanThumb, { httpMetadata: { contentType: "image/jpeg", cacheControl: IMMUTABLE } });
    thumbUrl = imageUrl(thumbKey);
  }
  return { uploaded: { url: imageUrl(key)!, thumbnail_url: thumbUrl, filename: image.filename, size: clean.length } };
}

export type PhotoType = Exclude<DetectedType, "application/pdf">;

/**
 * The per-file check of every photo upload (listing photos and private evidence alike): at most 10 MB
 * decoded, JPEG, PNG, WebP or GIF by its bytes, at most 25 megapixels by its header (imagePixelsProblem,
 * before anything decodes it), readable; answers its bytes stripped of metadata, or why
 * it was refused (its `failed_files` message).
 */
export function checkUploadedPhoto(image: Pick<PhotoEntry, "filename" | "image_data">): { bytes: Uint8Array; type: PhotoType } | { error: string } {
  if (decodedSize(image.image_data) > LIMITS.imageMaxBytes) return { error: IMAGE_TOO_BIG };
  const bytes = decodeDataUrl(image.image_data);
  if (!bytes || bytes.length === 0) return { error: "The file is empty or not a valid image" };
  const type = detectFileType(bytes);
  if (!type || type === "application/pdf") return { error: "Only JPEG, PNG, WebP and GIF images are allowed" };
  const pixels = imagePixelsProblem(bytes, image.filename);
  if (pixels) return { error: pixels.message };
  const clean = stripMetadata(bytes, type);
  if (!clean) return { error: IMAGE_UNREADABLE };
  return { bytes: clean, type };
}

/** The photos a refused request stored: never answered with their URLs, so nothing refers to them. */
export async function deleteListingPhotos(env: Env, keys: string[]) {
  await deleteObjects(env.IMAGES, keys);
}

/** The image without metadata or trailing bytes, or null when its structure cannot be read. */
export function stripMetadata(bytes: Uint8Array, type: DetectedType): Uint8Array | null {
  try {
    if (type === "image/jpeg") return stripJpeg(bytes);
    if (type === "image/png") return stripPng(bytes);
    if (type === "image/webp") return stripWebp(bytes);
    if (type === "image/gif") return stripGif(bytes);
    return null;
  } catch {
    return null;
  }
}

class Unreadable extends Error {}
const fail = (): never => {
  throw new Unreadable();
};

/**
 * JPEG: segments from SOI to EOI. APP0 (JFIF), APP2 (ICC colour profile) and APP14 (Adobe colour
 * transform) are kept; other APPn (EXIF, XMP, Photoshop IRB) and COM are dropped. After each SOS
 * the entropy-coded data runs to the next marker (0xFF followed by neither 0x00 nor a restart
 * marker); progressive files have several scans. Everything after EOI is cut.
 */
function stripJpeg(bytes: Uint8Array): Uint8Array {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) fail();
  const parts: Uint8Array[] = [bytes.subarray(0, 2)];
  let i = 2;
  while (i < bytes.length) {
    if (bytes[i] !== 0xff) fail();
    while (bytes[i + 1] === 0xff) i++; // fill bytes before a marker
    const marker = bytes[i + 1];
    if (marker === undefined) fail();
    if (marker === 0xd9) {
      parts.push(bytes.subarray(i, i + 2));
      return concat(parts);
    }
    if ((marker! >= 0xd0 && marker! <= 0xd7) || marker === 0x01) {
      parts.push(bytes.subarray(i, i + 2));
      i += 2;
      continue;
    }
    if (i + 4 > bytes.length) fail();
    const length = (bytes[i + 2]! << 8) | bytes[i + 3]!;
    const end = i + 2 + length;
    if (length < 2 || end > bytes.length) fail();
    const isApp = marker! >= 0xe0 && marker! <= 0xef;
    const keep = !(isApp || marker === 0xfe) || marker === 0xe0 || marker === 0xe2 || marker === 0xee;
    if (keep) parts.push(bytes.subarray(i, end));
    i = end;
    if (marker === 0xda) {
      let j = i;
      while (j + 1 < bytes.length && !(bytes[j] === 0xff && bytes[j + 1] !== 0x00 && !(bytes[j + 1]! >= 0xd0 && bytes[j + 1]! <= 0xd7))) j++;
      if (j + 1 >= bytes.length) fail(); // the scan never ends: truncated
      parts.push(bytes.subarray(i, j));
      i = j;
    }
  }
  return fail();
}

/** PNG: chunks from IHDR to IEND; text, eXIf and tIME chunks are dropped; bytes after IEND are cut. */
const PNG_DROP = new Set(["eXIf", "tEXt", "iTXt", "zTXt", "tIME"]);
function stripPng(bytes: Uint8Array): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: Uint8Array[] = [bytes.subarray(0, 8)];
  let i = 8;
  let first = true;
  while (i + 12 <= bytes.length) {
    const length = view.getUint32(i);
    const type = String.fromCharCode(...bytes.subarray(i + 4, i + 8));
    const end = i + 12 + length;
    if (end > bytes.length || (first && type !== "IHDR")) fail();
    first = false;
    if (!PNG_DROP.has(type)) parts.push(bytes.subarray(i, end));
    if (type === "IEND") return concat(parts);
    i = end;
  }
  return fail();
}

/** WebP: the RIFF chunks its header declares; EXIF and XMP chunks dropped (and their VP8X flags cleared). */
function stripWebp(bytes: Uint8Array): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const riffEnd = 8 + view.getUint32(4, true);
  if (riffEnd > bytes.length || riffEnd < 20) fail();
  const chunks: Uint8Array[] = [];
  let vp8x: Uint8Array | null = null;
  let hasImage = false;
  let i = 12;
  while (i < riffEnd) {
    if (i + 8 > riffEnd) fail();
    const type = String.fromCharCode(...bytes.subarray(i, i + 4));
    const size = view.getUint32(i + 4, true);
    const end = i + 8 + size + (size % 2);
    if (end > riffEnd + (size % 2) || end > bytes.length + 1) fail();
    const chunk = bytes.subarray(i, Math.min(end, riffEnd));
    if (type === "VP8 " || type === "VP8L" || type === "ANMF") hasImage = true;
    if (type === "VP8X") vp8x = chunk.slice();
    else if (type !== "EXIF" && type !== "XMP ") chunks.push(chunk);
    i = end;
  }
  if (!hasImage) fail();
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

/**
 * GIF: header, screen descriptor, colour tables and blocks to the trailer (0x3B). Comment
 * extensions and application extensions other than animation looping (XMP lives in one) are
 * dropped. Bytes after the trailer are refused: a GIF with a payload appended is not an image.
 */
const GIF_APPS_KEPT = new Set(["NETSCAPE2.0", "ANIMEXTS1.0"]);
function stripGif(bytes: Uint8Array): Uint8Array {
  const header = String.fromCharCode(...bytes.subarray(0, 6));
  if (header !== "GIF87a" && header !== "GIF89a") fail();
  const parts: Uint8Array[] = [];
  const colourTable = (flags: number) => (flags & 0x80 ? 3 * 2 ** ((flags & 0x07) + 1) : 0);
  /** Index after a run of data sub-blocks starting at `i`. */
  const subBlocks = (i: number) => {
    while (true) {
      const size = bytes[i];
      if (size === undefined) fail();
      i += 1 + size!;
      if (size === 0) return i;
    }
  };
  let i = 13 + colourTable(bytes[10] ?? fail());
  if (i > bytes.length) fail();
  parts.push(bytes.subarray(0, i));
  while (true) {
    const block = bytes[i];
    if (block === 0x3b) {
      if (i + 1 !== bytes.length) fail();
      parts.push(bytes.subarray(i, i + 1));
      return concat(parts);
    }
    if (block === 0x2c) {
      const flags = bytes[i + 9] ?? fail();
      const end = subBlocks(i + 10 + colourTable(flags) + 1); // +1: LZW minimum code size
      parts.push(bytes.subarray(i, end));
      i = end;
    } else if (block === 0x21) {
      const label = bytes[i + 1];
      const end = subBlocks(i + 2);
      const app = label === 0xff ? String.fromCharCode(...bytes.subarray(i + 3, i + 14)) : "";
      const drop = label === 0xfe || (label === 0xff && !GIF_APPS_KEPT.has(app));
      if (!drop) parts.push(bytes.subarray(i, end));
      i = end;
    } else {
      fail();
    }
    if (i > bytes.length) fail();
  }
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
