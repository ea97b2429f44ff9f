/**
 * Perceptual hashes of a photo, for catching listing photos copied from another owner
 * (docs/decisions/028). A 64-bit dHash of a 9x8 greyscale copy (box-filtered, so a resize or a
 * recompression barely moves it) and of its mirror image, plus the SHA-256 of the stored bytes.
 * Pure and synchronous apart from the digest: runs in workerd and in Node (the bench).
 */
import jpeg from "jpeg-js";

/** Pixels under this on a side are not compared (icons, spacers). */
export const MIN_SIDE_PX = 64;
/** Greyscale standard deviation under this (0-255): nearly a single colour, not compared. */
export const MIN_CONTRAST = 6;

export interface Rgba {
  width: number;
  height: number;
  /** 4 bytes a pixel. */
  data: Uint8Array;
}

export interface PhotoHashes {
  /** 16 hex digits. */
  dhash: string;
  /** dHash of the mirrored picture: a flipped copy matches it. */
  dhashMirror: string;
}

export type HashOutcome = ({ status: "hashed" } & PhotoHashes) | { status: "skipped"; reason: "tiny" | "flat" };

/** Box-filtered greyscale copy of `w` x `h` cells (each the mean of the pixels it covers). */
export function greyscaleCells(img: Rgba, w: number, h: number): Float64Array {
  const sums = new Float64Array(w * h);
  const counts = new Float64Array(w * h);
  const { width, height, data } = img;
  // Sample at most ~256 x 256 source pixels: plenty for a 9x8 mean, and bounded CPU on a 12 MP photo.
  const step = Math.max(1, Math.floor(Math.min(width, height) / 256));
  for (let y = 0; y < height; y += step) {
    const cy = Math.min(h - 1, Math.floor((y * h) / height));
    for (let x = 0; x < width; x += step) {
      const cx = Math.min(w - 1, Math.floor((x * w) / width));
      const i = (y * width + x) * 4;
      sums[cy * w + cx]! += 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
      counts[cy * w + cx]! += 1;
    }
  }
  for (let i = 0; i < sums.length; i++) sums[i] = counts[i] ? sums[i]! / counts[i]! : 0;
  return sums;
}

/** 64 bits: each cell brighter than its right neighbour, row by row, on a 9x8 greyscale copy. */
function dhashOf(cells: Float64Array, mirror: boolean): string {
  let bits = 0n;
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      const at = (cx: number) => cells[y * 9 + (mirror ? 8 - cx : cx)]!;
      bits = (bits << 1n) | (at(x) > at(x + 1) ? 1n : 0n);
    }
  }
  return bits.toString(16).padStart(16, "0");
}

/** The hashes of decoded pixels, or why the picture is not compared. */
export function hashPixels(img: Rgba): HashOutcome {
  if (img.width < MIN_SIDE_PX || img.height < MIN_SIDE_PX) return { status: "skipped", reason: "tiny" };
  const fine = greyscaleCells(img, 16, 16);
  const mean = fine.reduce((a, b) => a + b, 0) / fine.length;
  const sd = Math.sqrt(fine.reduce((a, b) => a + (b - mean) ** 2, 0) / fine.length);
  if (sd < MIN_CONTRAST) return { status: "skipped", reason: "flat" };
  const cells = greyscaleCells(img, 9, 8);
  return { status: "hashed", dhash: dhashOf(cells, false), dhashMirror: dhashOf(cells, true) };
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

/** The four 16-bit bands of a hash (4 hex digits each): two hashes within 3 bits share at least one. */
export const bandsOf = (hash: string): [string, string, string, string] => [hash.slice(0, 4), hash.slice(4, 8), hash.slice(8, 12), hash.slice(12, 16)];

/** Decodes a stored JPEG (the only type jpeg-js reads); null when it cannot be decoded. */
export function decodeJpeg(bytes: Uint8Array): Rgba | null {
  try {
    const out = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: 40, maxMemoryUsageInMB: 256 });
    return { width: out.width, height: out.height, data: out.data };
  } catch {
    return null;
  }
}
