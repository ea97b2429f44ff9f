/**
 * Image files made in the test. Photos with structure for the copied-photo check (scenePhoto, sceneCrop,
 * stored on a listing by addListingPhoto); and files small however many pixels they declare
 * (docs/decisions/036): a JPEG of one flat grey (2 bits a block with its own Huffman tables), a PNG of
 * zero rows deflated as they are made, and WebP and GIF headers, each a valid file a decoder would
 * expand to width x height pixels.
 */
import { env } from "cloudflare:test";
import jpeg from "jpeg-js";

/** A JPEG with structure (gradient, disc, stripes); `variant` changes the scene. */
export function scenePhoto(variant: number, width = 640, height = 480, mirrored = false): Uint8Array {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x0 = 0; x0 < width; x0++) {
      const x = mirrored ? width - 1 - x0 : x0;
      const disc = (x - width * 0.25 * variant) ** 2 + (y - height * 0.45) ** 2 < (height * 0.2) ** 2 ? 110 : 0;
      const stripe = Math.floor((x * variant) / 37) % 3 === 0 ? -50 : 0;
      const v = Math.max(0, Math.min(255, (x / width) * 120 + (y / height) * 70 + disc + stripe));
      data.set([v, v, v, 255], (y * width + x0) * 4);
    }
  return new Uint8Array(jpeg.encode({ width, height, data }, 70).data);
}

/** A 640x480 scene cropped by a fraction off each named side (a copier's crop). */
export function sceneCrop(variant: number, sides: { left?: number; top?: number; right?: number; bottom?: number }): Uint8Array {
  const w = 640, h = 480;
  const full = jpeg.decode(scenePhoto(variant, w, h), { useTArray: true });
  const x0 = Math.round(w * (sides.left ?? 0)), y0 = Math.round(h * (sides.top ?? 0));
  const cw = w - x0 - Math.round(w * (sides.right ?? 0)), ch = h - y0 - Math.round(h * (sides.bottom ?? 0));
  const data = Buffer.alloc(cw * ch * 4);
  for (let y = 0; y < ch; y++) data.set(full.data.subarray(((y + y0) * w + x0) * 4, ((y + y0) * w + x0 + cw) * 4), y * cw * 4);
  return new Uint8Array(jpeg.encode({ width: cw, height: ch, data }, 80).data);
}

let stored = 0;
/** Stores a photo and puts it on a listing, posted at `postedAt`; returns its URL. */
export async function addListingPhoto(listingId: string, bytes: Uint8Array, postedAt: string) {
  const id = `ph-${++stored}`;
  const key = `listings/${listingId}/${id}.jpg`;
  await env.IMAGES.put(key, bytes);
  await env.DB.prepare("INSERT INTO listing_photos (id, listing_id, key, position, created_at) VALUES (?, ?, ?, 0, ?)").bind(id, listingId, key, postedAt).run();
  return `/api/v1/images/${key}`;
}

const u16be = (n: number) => [(n >> 8) & 0xff, n & 0xff];
const u32be = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const u32le = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

function concat(parts: (Uint8Array | number[])[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * A baseline greyscale JPEG of width x height in one flat grey: every block is "no DC change, end of
 * block", coded "0" + "0" with a DC and an AC table of one code each, so the file is 2 bits a block.
 */
export function flatJpeg(width: number, height: number, options: { progressive?: boolean } = {}): Uint8Array {
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const segment = (marker: number, body: number[]) => [0xff, marker, ...u16be(body.length + 2), ...body];
  const oneCode = (cls: number, symbol: number) => [(cls << 4) | 0, 1, ...new Array(15).fill(0), symbol];
  return concat([
    [0xff, 0xd8],
    segment(0xdb, [0, ...new Array(64).fill(1)]),
    segment(options.progressive ? 0xc2 : 0xc0, [8, ...u16be(height), ...u16be(width), 1, 1, 0x11, 0]),
    segment(0xc4, [...oneCode(0, 0), ...oneCode(1, 0)]),
    segment(0xda, [1, 1, 0x00, 0, options.progressive ? 0 : 63, 0]),
    new Uint8Array(Math.ceil((blocks * (options.progressive ? 1 : 2)) / 8)),
    [0xff, 0xd9],
  ]);
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Uint8Array) => {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
export function pngChunk(type: string, data: Uint8Array | number[]): Uint8Array {
  const typed = concat([ascii(type), data]);
  return concat([u32be(data.length), typed, u32be(crc32(typed))]);
}

/** zlib-deflates what `rows` yields (DecompressionStream's "deflate" reads it back). */
export async function deflate(rows: Iterable<Uint8Array>): Promise<Uint8Array> {
  const stream = new CompressionStream("deflate");
  const writer = stream.writable.getWriter();
  const out = new Response(stream.readable).arrayBuffer();
  for (const row of rows) await writer.write(row);
  await writer.close();
  return new Uint8Array(await out);
}

/**
 * A PNG: IHDR as given, the IDAT of `rows` (each with its filter byte), IEND. `rows` may yield fewer or
 * more rows than the header declares (a cut-short or lying file).
 */
export async function png(header: { width: number; height: number; depth?: number; colourType?: number; interlace?: number }, rows: Iterable<Uint8Array>, extra: Uint8Array[] = []): Promise<Uint8Array> {
  const ihdr = [...u32be(header.width), ...u32be(header.height), header.depth ?? 8, header.colourType ?? 0, 0, 0, header.interlace ?? 0];
  return concat([[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], pngChunk("IHDR", ihdr), ...extra, pngChunk("IDAT", await deflate(rows)), pngChunk("IEND", [])]);
}

/** `count` copies of one zero row of a greyscale 8-bit picture `width` wide (filter byte included). */
export function* zeroRows(width: number, count: number): Generator<Uint8Array> {
  const row = new Uint8Array(width + 1);
  for (let i = 0; i < count; i++) yield row;
}

/** A flat black greyscale PNG of width x height (a few KB however large). */
export const flatPng = (width: number, height: number) => png({ width, height }, zeroRows(width, height));

/** A RIFF/WEBP file of these chunks. */
export function webp(chunks: Uint8Array[]): Uint8Array {
  const body = concat(chunks);
  return concat([ascii("RIFF"), u32le(body.length + 4), ascii("WEBP"), body]);
}
export function riffChunk(type: string, data: number[]): Uint8Array {
  return concat([ascii(type), u32le(data.length), data, data.length % 2 ? [0] : []]);
}
const u24le = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff];
/** A lossy bitstream's header (the frame tag, the start code, 14-bit sizes) and a few bytes. */
export const vp8 = (width: number, height: number) => riffChunk("VP8 ", [0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a, width & 0xff, (width >> 8) & 0x3f, height & 0xff, (height >> 8) & 0x3f, 0, 0]);
/** A lossless bitstream's header: 0x2f, then width - 1 and height - 1 in 14 bits each. */
export const vp8l = (width: number, height: number) => {
  const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
  return riffChunk("VP8L", [0x2f, ...u32le(bits), 0, 0, 0]);
};
/** The extended header: flags, then the canvas's width - 1 and height - 1 in 24 bits each. */
export const vp8x = (width: number, height: number) => riffChunk("VP8X", [0x02, 0, 0, 0, ...u24le(width - 1), ...u24le(height - 1)]);
/** An animation frame: its place and size (minus one), duration and flags, then its bitstream. */
export const anmf = (width: number, height: number, bitstream: Uint8Array) => riffChunk("ANMF", [...u24le(0), ...u24le(0), ...u24le(width - 1), ...u24le(height - 1), ...u24le(100), 0, ...bitstream]);

/** A GIF89a: the screen's size, then each frame's place and size with one pixel of image data. */
export function gif(screen: { width: number; height: number }, frames: { left: number; top: number; width: number; height: number }[]): Uint8Array {
  const u16le = (n: number) => [n & 0xff, (n >> 8) & 0xff];
  return concat([
    ascii("GIF89a"),
    [...u16le(screen.width), ...u16le(screen.height), 0x80, 0, 0],
    [0, 0, 0, 255, 255, 255],
    ...frames.map((f) => [0x2c, ...u16le(f.left), ...u16le(f.top), ...u16le(f.width), ...u16le(f.height), 0, 2, 2, 0x44, 0x01, 0]),
    [0x3b],
  ]);
}
