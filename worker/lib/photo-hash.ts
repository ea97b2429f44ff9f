/**
 * Perceptual hashes of a photo, for catching listing photos copied from another owner
 * (docs/decisions/028). A 64-bit pHash (the signs of the 8x8 lowest frequencies of a 32x32 greyscale
 * copy's DCT, against their median) of the whole picture and of its centre (80 % a side, so a copy
 * cropped up to 10 % a side lines up with it), and a 64-bit dHash of a 9x8 copy as a second opinion.
 * A mirrored copy is caught by the mirror's pHash, computed from the same DCT (flipping a picture
 * flips the sign of its odd horizontal frequencies). Hashed from a scaled decode, never a full-size
 * bitmap (docs/decisions/036): a JPEG at 1/8 scale (its blocks' DC coefficients), a PNG averaged into a
 * grid as its rows stream in. Runs in workerd and in Node (the bench).
 */
import { readImageSize } from "./image-size";
import { decodeJpegDc, type ScaledRgba } from "./jpeg-dc";
import { decodePngScaled } from "./png-scaled";

/** Pixels under this on a side are not compared (icons, spacers). */
export const MIN_SIDE_PX = 64;
/** Greyscale standard deviation under this (0-255): nearly a single colour, not compared. */
export const MIN_CONTRAST = 6;
/** The centre hash covers the middle 80 % a side: a crop of up to 10 % a side is that picture again. */
const CENTRE = 0.1;
/**
 * The 90 %-windows: anchored at each corner (a copy cropped up to 10 % off two adjacent sides) and at
 * each edge (off one side). Fractions of the picture: [x0, y0, x1, y1].
 */
export const WINDOWS = [
  [0, 0, 0.9, 0.9],
  [0.1, 0, 1, 0.9],
  [0, 0.1, 0.9, 1],
  [0.1, 0.1, 1, 1],
  [0, 0, 1, 0.9],
  [0, 0.1, 1, 1],
  [0, 0, 0.9, 1],
  [0.1, 0, 1, 1],
] as const;

export interface Rgba {
  width: number;
  height: number;
  /** 4 bytes a pixel. */
  data: Uint8Array;
  /** The full picture's size, when these pixels are a scaled copy of it (the "tiny" rule reads it). */
  sourceWidth?: number;
  sourceHeight?: number;
}

/** Hashes as 16 hex digits each. */
export interface PhotoHashes {
  phash: string;
  /** pHash of the mirrored picture. */
  phashMirror: string;
  /** pHash of the middle 80 % a side. */
  phashCentre: string;
  phashCentreMirror: string;
  dhash: string;
  dhashMirror: string;
  /** pHash of each of the WINDOWS, then of each window mirrored (16 in all). */
  phashWindows: string[];
}

export type HashOutcome = ({ status: "hashed" } & PhotoHashes) | { status: "skipped"; reason: "tiny" | "flat" };

interface Region {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Box-filtered greyscale copy of `w` x `h` cells (each the mean of the pixels it covers) of a region. */
export function greyscaleCells(img: Rgba, w: number, h: number, r: Region = { x0: 0, y0: 0, x1: img.width, y1: img.height }): Float64Array {
  const sums = new Float64Array(w * h);
  const counts = new Float64Array(w * h);
  const { width, data } = img;
  const rw = r.x1 - r.x0;
  const rh = r.y1 - r.y0;
  // Sample at most ~256 x 256 source pixels: plenty for 32x32 means, and bounded CPU on a 12 MP photo.
  const step = Math.max(1, Math.floor(Math.min(rw, rh) / 256));
  for (let y = r.y0; y < r.y1; y += step) {
    const cy = Math.min(h - 1, Math.floor(((y - r.y0) * h) / rh));
    for (let x = r.x0; x < r.x1; x += step) {
      const cx = Math.min(w - 1, Math.floor(((x - r.x0) * w) / rw));
      const i = (y * width + x) * 4;
      sums[cy * w + cx]! += 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
      counts[cy * w + cx]! += 1;
    }
  }
  for (let i = 0; i < sums.length; i++) sums[i] = counts[i] ? sums[i]! / counts[i]! : 0;
  return sums;
}

const toHex = (bits: bigint) => bits.toString(16).padStart(16, "0");

/** 64 bits: each cell brighter than its right neighbour, row by row, on a 9x8 greyscale copy. */
function dhashOf(cells: Float64Array, mirror: boolean): string {
  let bits = 0n;
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      const at = (cx: number) => cells[y * 9 + (mirror ? 8 - cx : cx)]!;
      bits = (bits << 1n) | (at(x) > at(x + 1) ? 1n : 0n);
    }
  }
  return toHex(bits);
}

const N = 32;
/** cos((2x + 1) u pi / 2N) for u < 8, x < 32: the DCT-II rows the 8x8 low frequencies need. */
const COS = Array.from({ length: 8 }, (_, u) => Float64Array.from({ length: N }, (_, x) => Math.cos(((2 * x + 1) * u * Math.PI) / (2 * N))));

/** The 8x8 lowest DCT-II coefficients of a 32x32 block, [v * 8 + u] (v vertical, u horizontal). */
function lowDct(cells: Float64Array): Float64Array {
  const rows = new Float64Array(N * 8); // each row's 8 horizontal frequencies
  for (let y = 0; y < N; y++)
    for (let u = 0; u < 8; u++) {
      let s = 0;
      for (let x = 0; x < N; x++) s += cells[y * N + x]! * COS[u]![x]!;
      rows[y * 8 + u] = s;
    }
  const out = new Float64Array(64);
  for (let v = 0; v < 8; v++)
    for (let u = 0; u < 8; u++) {
      let s = 0;
      for (let y = 0; y < N; y++) s += rows[y * 8 + u]! * COS[v]![y]!;
      out[v * 8 + u] = s;
    }
  return out;
}

/** 64 bits: each low frequency above the median of the 63 without the mean; mirrored, odd u negated. */
function phashOf(dct: Float64Array, mirror: boolean): string {
  const c = Float64Array.from(dct, (value, i) => (mirror && i % 8 % 2 === 1 ? -value : value));
  const ac = [...c.subarray(1)].sort((a, b) => a - b);
  const median = ac[31]!;
  let bits = 0n;
  for (let i = 0; i < 64; i++) bits = (bits << 1n) | (i > 0 && c[i]! > median ? 1n : 0n);
  return toHex(bits);
}

/** The hashes of decoded pixels, or why the picture is not compared. */
export function hashPixels(img: Rgba): HashOutcome {
  if ((img.sourceWidth ?? img.width) < MIN_SIDE_PX || (img.sourceHeight ?? img.height) < MIN_SIDE_PX) return { status: "skipped", reason: "tiny" };
  const fine = greyscaleCells(img, 16, 16);
  const mean = fine.reduce((a, b) => a + b, 0) / fine.length;
  const sd = Math.sqrt(fine.reduce((a, b) => a + (b - mean) ** 2, 0) / fine.length);
  if (sd < MIN_CONTRAST) return { status: "skipped", reason: "flat" };
  const whole = lowDct(greyscaleCells(img, N, N));
  const dx = Math.round(img.width * CENTRE);
  const dy = Math.round(img.height * CENTRE);
  const centre = lowDct(greyscaleCells(img, N, N, { x0: dx, y0: dy, x1: img.width - dx, y1: img.height - dy }));
  const cells = greyscaleCells(img, 9, 8);
  const windows = WINDOWS.map(([x0, y0, x1, y1]) =>
    lowDct(greyscaleCells(img, N, N, { x0: Math.round(img.width * x0), y0: Math.round(img.height * y0), x1: Math.round(img.width * x1), y1: Math.round(img.height * y1) })),
  );
  return {
    status: "hashed",
    phash: phashOf(whole, false),
    phashMirror: phashOf(whole, true),
    phashCentre: phashOf(centre, false),
    phashCentreMirror: phashOf(centre, true),
    dhash: dhashOf(cells, false),
    dhashMirror: dhashOf(cells, true),
    phashWindows: [...windows.map((w) => phashOf(w, false)), ...windows.map((w) => phashOf(w, true))],
  };
}

/** Bits that differ between two 16-hex-digit hashes. */
export function hammingDistance(a: string, b: string): number {
  let x = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let n = 0;
  while (x) {
    x &= x - 1n;
    n++;
  }
  return n;
}

/** The index's bands: a 64-bit hash in three bands of 22, 21 and 21 bits (the indexed columns). */
export const BAND_BITS = [22, 21, 21] as const;

/** The three bands of a hash, as numbers, high bits first. */
export function bandsOf(hash: string): [number, number, number] {
  const bits = BigInt(`0x${hash}`);
  let shift = 64n;
  return BAND_BITS.map((width) => {
    shift -= BigInt(width);
    return Number((bits >> shift) & ((1n << BigInt(width)) - 1n));
  }) as [number, number, number];
}

/**
 * Every value within `radius` bits of a `width`-bit band (1 + 22 + 231 + 1540 values at radius 3 of 22
 * bits). Two hashes within t bits differ by at most floor(t / 3) bits in one of their three bands
 * (pigeonhole), so looking up each band's neighbours within that radius finds every pair within t.
 */
export function bandNeighbours(band: number, width: number, radius: number): number[] {
  const out = [band];
  let frontier = [{ v: band, from: 0 }];
  for (let r = 0; r < radius; r++) {
    const next: { v: number; from: number }[] = [];
    for (const { v, from } of frontier)
      for (let b = from; b < width; b++) {
        const w = v ^ (1 << b);
        out.push(w);
        next.push({ v: w, from: b + 1 });
      }
    frontier = next;
  }
  return out;
}

/**
 * The picture of stored bytes, scaled down, by their magic number: a JPEG at 1/8 (lib/jpeg-dc), a PNG
 * into a grid of at most 512 a side (lib/png-scaled); null for a type not decoded here (WebP, GIF) or a
 * file that cannot be read. The caller has checked the header's size first (readImageSize).
 */
export async function decodeScaled(bytes: Uint8Array): Promise<ScaledRgba | null> {
  const size = readImageSize(bytes);
  if (size?.format === "jpeg") return decodeJpegDc(bytes);
  if (size?.format === "png") return decodePngScaled(bytes);
  return null;
}
