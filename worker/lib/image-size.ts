/**
 * An image's width and height read from its header, before a byte of its pixels is decoded
 * (docs/decisions/036): JPEG's frame header (SOF), PNG's IHDR, WebP's VP8X canvas and every VP8/VP8L
 * bitstream and animation frame in the file, GIF's logical screen and every image descriptor. A
 * decoder allocates by these numbers, so a small file that declares a huge picture (a decompression
 * bomb) is refused on them. Where a file declares several sizes (a WebP canvas and its bitstream, a GIF
 * screen and its frames) the largest counts, so a small canvas cannot hide a huge frame. Pure and
 * synchronous: the upload routes and the photo check call it, in workerd and in Node.
 */

export type ImageFormat = "jpeg" | "png" | "webp" | "gif";

export interface ImageSize {
  format: ImageFormat;
  width: number;
  height: number;
}

/** Uploads over this many pixels are refused (the contract's 25 megapixels). */
export const MAX_IMAGE_PIXELS = 25_000_000;

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + ((b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!);
const u32le = (b: Uint8Array, i: number) => ((b[i + 3]! << 24) >>> 0) + ((b[i + 2]! << 16) | (b[i + 1]! << 8) | b[i]!);
const tag = (b: Uint8Array, i: number) => String.fromCharCode(b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!);

/** The picture's size from its header, or null when the header is missing, truncated or says 0. */
export function readImageSize(bytes: Uint8Array): ImageSize | null {
  const size = (() => {
    if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes);
    if (bytes.length >= 8 && tag(bytes, 0) === "\x89PNG") return pngSize(bytes);
    if (bytes.length >= 12 && tag(bytes, 0) === "RIFF" && tag(bytes, 8) === "WEBP") return webpSize(bytes);
    if (bytes.length >= 6 && (tag(bytes, 0) === "GIF8" && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61)) return gifSize(bytes);
    return null;
  })();
  return size && size.width > 0 && size.height > 0 ? size : null;
}

/** Megapixels of a size, one decimal (for messages and logs). */
export const megapixels = (s: Pick<ImageSize, "width" | "height">) => Math.round((s.width * s.height) / 100_000) / 10;

/**
 * JPEG: segments from SOI to the first frame header (SOF0-3, 5-7, 9-11, 13-15: every coding the
 * standard has), whose Y and X are the picture. A frame without its height (Y = 0, given later by a
 * DNL marker) counts as unreadable: nothing can be budgeted before it is decoded.
 */
function jpegSize(b: Uint8Array): ImageSize | null {
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++; // a fill byte before the marker
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2;
      continue;
    }
    // The image data (SOS) or its end before any frame header: no size.
    if (marker === 0xda || marker === 0xd9) return null;
    const length = u16be(b, i + 2);
    if (length < 2) return null;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (length < 8 || i + 9 > b.length) return null;
      return { format: "jpeg", height: u16be(b, i + 5), width: u16be(b, i + 7) };
    }
    i += 2 + length;
  }
  return null;
}

/** PNG: the first chunk must be IHDR (13 bytes): width and height, 4 bytes each. */
function pngSize(b: Uint8Array): ImageSize | null {
  if (b.length < 24 || tag(b, 12) !== "IHDR" || u32be(b, 8) !== 13) return null;
  return { format: "png", width: u32be(b, 16), height: u32be(b, 20) };
}

/**
 * WebP: the RIFF chunks. VP8X gives the canvas (24-bit sizes minus one); a lossy bitstream (VP8) its
 * frame size after the start code 9d 01 2a (14 bits each); a lossless one (VP8L) its size after the
 * 0x2f signature (14 bits each, minus one); an animation frame (ANMF) its own size and bitstream. The
 * largest of them all, and at least one must be there.
 */
function webpSize(b: Uint8Array): ImageSize | null {
  let width = 0;
  let height = 0;
  let found = false;
  const take = (w: number, h: number) => {
    width = Math.max(width, w);
    height = Math.max(height, h);
    found = true;
  };
  /** A bitstream chunk's payload at `p` (`size` bytes): false when its header is cut short or damaged. */
  const bitstream = (type: string, p: number, size: number): boolean => {
    if (type === "VP8 ") {
      if (size < 10 || p + 10 > b.length || b[p + 3] !== 0x9d || b[p + 4] !== 0x01 || b[p + 5] !== 0x2a) return false;
      take(u16le(b, p + 6) & 0x3fff, u16le(b, p + 8) & 0x3fff);
    } else if (type === "VP8L") {
      if (size < 5 || p + 5 > b.length || b[p] !== 0x2f) return false;
      const bits = u32le(b, p + 1);
      take((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
    }
    return true;
  };
  const end = Math.min(b.length, 8 + u32le(b, 4));
  for (let i = 12; i + 8 <= end; ) {
    const type = tag(b, i);
    const size = u32le(b, i + 4);
    const p = i + 8;
    if (type === "VP8X") {
      if (p + 10 > b.length) return null;
      take(u24le(b, p + 4) + 1, u24le(b, p + 7) + 1);
    } else if (type === "ANMF") {
      if (p + 16 > b.length) return null;
      take(u24le(b, p + 6) + 1, u24le(b, p + 9) + 1);
      // The frame's own chunks (its bitstream) follow its 16-byte header.
      for (let j = p + 16; j + 8 <= Math.min(p + size, b.length); ) {
        const inner = tag(b, j);
        const innerSize = u32le(b, j + 4);
        if (!bitstream(inner, j + 8, innerSize)) return null;
        j += 8 + innerSize + (innerSize % 2);
      }
    } else if (!bitstream(type, p, size)) return null;
    i = p + size + (size % 2);
  }
  return found ? { format: "webp", width, height } : null;
}

/**
 * GIF: the logical screen (6-9), then the blocks: each image descriptor's left, top, width and
 * height (a frame may reach past the screen, and a decoder allocates for it), extensions skipped by
 * their sub-blocks, to the trailer or the end of the bytes.
 */
function gifSize(b: Uint8Array): ImageSize | null {
  if (b.length < 13) return null;
  let width = u16le(b, 6);
  let height = u16le(b, 8);
  const colourTable = (flags: number) => (flags & 0x80 ? 3 * 2 ** ((flags & 0x07) + 1) : 0);
  const subBlocks = (i: number) => {
    while (i < b.length && b[i] !== 0) i += 1 + b[i]!;
    return i + 1;
  };
  let i = 13 + colourTable(b[10]!);
  while (i < b.length) {
    const block = b[i];
    if (block === 0x3b) break;
    if (block === 0x2c) {
      if (i + 10 > b.length) break;
      width = Math.max(width, u16le(b, i + 1) + u16le(b, i + 5));
      height = Math.max(height, u16le(b, i + 3) + u16le(b, i + 7));
      i = subBlocks(i + 10 + colourTable(b[i + 9]!) + 1);
    } else if (block === 0x21) {
      i = subBlocks(i + 2);
    } else {
      break;
    }
  }
  return { format: "gif", width, height };
}
