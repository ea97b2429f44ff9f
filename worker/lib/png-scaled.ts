/**
 * A PNG decoded to a small picture without ever holding the full one (docs/decisions/036): the IDAT
 * data is inflated as a stream (DecompressionStream, native in workerd and Node), each row is
 * unfiltered against the one before it as it arrives, and its pixels are added into a grid of at most
 * SCALED_SIDE pixels a side (each cell the mean of the pixels it covers). Memory is two rows and the
 * grid, whatever the picture's size; a stream that inflates to more than the header's rows is cut off
 * there (a lying header cannot make it hold more). Every colour type and depth, and Adam7 interlacing
 * (each pass's pixels go to their place in the grid). Alpha is ignored, as the hash ignores it.
 */
import type { ScaledRgba } from "./jpeg-dc";

/** The grid's longer side at most (a 4000 x 3000 PNG becomes 500 x 375: 8 x 8 pixels a cell). */
export const SCALED_SIDE = 512;

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
/** Adam7: each pass's first column and row, and its steps. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

const u32 = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + ((b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!);

/** The picture of a PNG at most SCALED_SIDE a side, or null when it cannot be read (damaged, cut short). */
export async function decodePngScaled(bytes: Uint8Array): Promise<ScaledRgba | null> {
  try {
    return await decode(bytes);
  } catch {
    return null;
  }
}

async function decode(b: Uint8Array): Promise<ScaledRgba | null> {
  if (b.length < 33 || u32(b, 0) !== 0x89504e47 || String.fromCharCode(...b.subarray(12, 16)) !== "IHDR") return null;
  const width = u32(b, 16);
  const height = u32(b, 20);
  const depth = b[24]!;
  const colourType = b[25]!;
  const interlaced = b[28] === 1;
  const channels = CHANNELS[colourType];
  if (!width || !height || !channels || !DEPTHS[colourType]!.includes(depth) || b[26] !== 0 || b[27] !== 0 || b[28]! > 1) return null;

  // The chunks: the palette, and the IDAT data in order.
  let palette: Uint8Array | null = null;
  const idat: Uint8Array[] = [];
  for (let i = 8; i + 12 <= b.length; ) {
    const length = u32(b, i);
    const type = String.fromCharCode(...b.subarray(i + 4, i + 8));
    if (i + 12 + length > b.length) return null;
    if (type === "PLTE") palette = b.subarray(i + 8, i + 8 + length);
    else if (type === "IDAT") idat.push(b.subarray(i + 8, i + 8 + length));
    else if (type === "IEND") break;
    i += 12 + length;
  }
  if (!idat.length || (colourType === 3 && !palette)) return null;

  const factor = Math.max(1, Math.ceil(Math.max(width, height) / SCALED_SIDE));
  const outWidth = Math.ceil(width / factor);
  const outHeight = Math.ceil(height / factor);
  const sums = new Float64Array(outWidth * outHeight * 3);
  const counts = new Uint32Array(outWidth * outHeight);
  const bitsPerPixel = channels * depth;
  const bpp = Math.max(1, bitsPerPixel >> 3);
  const maxValue = depth === 16 ? 65535 : (1 << depth) - 1;

  /** The passes: each a sub-picture whose rows come one after another in the inflated data. */
  const passes = (interlaced ? ADAM7 : [[0, 0, 1, 1] as const]).map(([x0, y0, dx, dy]) => ({
    x0,
    y0,
    dx,
    dy,
    columns: width > x0 ? Math.ceil((width - x0) / dx) : 0,
    rows: height > y0 ? Math.ceil((height - y0) / dy) : 0,
  }));

  let pass = 0;
  let row = 0;
  const next = () => {
    while (pass < passes.length && (passes[pass]!.columns === 0 || passes[pass]!.rows === 0 || row >= passes[pass]!.rows)) {
      pass++;
      row = 0;
    }
    return pass < passes.length ? passes[pass]! : null;
  };
  let current = next();
  const rowBytesOf = (columns: number) => Math.ceil((columns * bitsPerPixel) / 8);
  let line = new Uint8Array(1 + rowBytesOf(current?.columns ?? 0));
  let previous = new Uint8Array(line.length);
  let filled = 0;

  const sampleAt = (data: Uint8Array, index: number): number => {
    // The index-th sample of a row (after the filter byte), scaled to 0-255.
    if (depth === 8) return data[1 + index]!;
    if (depth === 16) return data[1 + index * 2]!;
    const bit = index * depth;
    const value = (data[1 + (bit >> 3)]! >> (8 - depth - (bit & 7))) & maxValue;
    return colourType === 3 ? value : Math.round((value * 255) / maxValue);
  };

  const addRow = () => {
    const p = current!;
    const rowBytes = line.length - 1;
    const filter = line[0]!;
    for (let k = 1; k <= rowBytes; k++) {
      const left = k > bpp ? line[k - bpp]! : 0;
      const up = previous[k]!;
      const upLeft = k > bpp ? previous[k - bpp]! : 0;
      const x = line[k]!;
      if (filter === 1) line[k] = x + left;
      else if (filter === 2) line[k] = x + up;
      else if (filter === 3) line[k] = x + ((left + up) >> 1);
      else if (filter === 4) {
        const base = left + up - upLeft;
        const pa = Math.abs(base - left);
        const pb = Math.abs(base - up);
        const pc = Math.abs(base - upLeft);
        line[k] = x + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft);
      } else if (filter !== 0) throw new Error("bad filter");
    }
    const y = p.y0 + row * p.dy;
    const cellRow = Math.floor(y / factor) * outWidth;
    for (let column = 0; column < p.columns; column++) {
      const x = p.x0 + column * p.dx;
      let r: number, g: number, bl: number;
      if (colourType === 3) {
        const at = sampleAt(line, column) * 3;
        r = palette![at] ?? 0;
        g = palette![at + 1] ?? 0;
        bl = palette![at + 2] ?? 0;
      } else if (channels < 3) {
        r = g = bl = sampleAt(line, column * channels);
      } else {
        r = sampleAt(line, column * channels);
        g = sampleAt(line, column * channels + 1);
        bl = sampleAt(line, column * channels + 2);
      }
      const cell = cellRow + Math.floor(x / factor);
      sums[cell * 3]! += r;
      sums[cell * 3 + 1]! += g;
      sums[cell * 3 + 2]! += bl;
      counts[cell]! += 1;
    }
    row++;
    const before = current;
    current = next();
    if (current && current !== before) {
      // A new pass: its rows are another width, and its first row has no row above.
      line = new Uint8Array(1 + rowBytesOf(current.columns));
      previous = new Uint8Array(line.length);
    } else {
      [previous, line] = [line, previous];
    }
    filled = 0;
  };

  let chunk = 0;
  const source = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (chunk < idat.length) controller.enqueue(idat[chunk++]!);
      else controller.close();
    },
  });
  const reader = source.pipeThrough(new DecompressionStream("deflate")).getReader();
  try {
    while (current) {
      const { value, done } = await reader.read();
      if (done) break;
      for (let at = 0; at < value.length && current; ) {
        const n = Math.min(line.length - filled, value.length - at);
        line.set(value.subarray(at, at + n), filled);
        filled += n;
        at += n;
        if (filled === line.length) addRow();
      }
    }
  } finally {
    // Rows past the header's are never read: a lying header cannot make this hold more.
    await reader.cancel().catch(() => undefined);
  }
  if (current) return null; // cut short

  const data = new Uint8Array(outWidth * outHeight * 4);
  for (let cell = 0; cell < counts.length; cell++) {
    const n = counts[cell] || 1;
    data[cell * 4] = Math.round(sums[cell * 3]! / n);
    data[cell * 4 + 1] = Math.round(sums[cell * 3 + 1]! / n);
    data[cell * 4 + 2] = Math.round(sums[cell * 3 + 2]! / n);
    data[cell * 4 + 3] = 255;
  }
  return { width: outWidth, height: outHeight, data, sourceWidth: width, sourceHeight: height };
}
