/**
 * A JPEG decoded at 1/8 scale: one pixel per 8x8 block, the block's mean, which is its DC coefficient
 * (docs/decisions/036). Only the DC coefficients are kept (one number a block: memory O(pixels / 64),
 * about 1.2 MB for 25 megapixels in 4:2:0); in a baseline file the AC coefficients are Huffman-decoded
 * to find the next block and dropped, in a progressive one the AC scans are skipped unread (the DC scans
 * come first and hold every bit of the DC). Huffman coding only (baseline, extended 8-bit and
 * progressive: what cameras, phones and browsers write); arithmetic coding, 12-bit samples, lossless and
 * hierarchical files are not decoded (null: the photo is "not compared"). Pure and synchronous.
 */

export interface ScaledRgba {
  /** The picture at 1/8 scale: ceil(width / 8) x ceil(height / 8). */
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel (alpha 255). */
  data: Uint8Array;
  /** The full picture's size (its frame header). */
  sourceWidth: number;
  sourceHeight: number;
}

class Unsupported extends Error {}
const fail = (why: string): never => {
  throw new Unsupported(why);
};

/** A Huffman table: a 9-bit lookahead (length << 8 | symbol) and the canonical code ranges for longer codes. */
interface Huffman {
  lookup: Uint16Array;
  maxCode: Int32Array;
  valOffset: Int32Array;
  values: Uint8Array;
}

const LOOKAHEAD = 9;

function buildHuffman(counts: Uint8Array, values: Uint8Array): Huffman {
  const lookup = new Uint16Array(1 << LOOKAHEAD);
  const maxCode = new Int32Array(18).fill(-1);
  const valOffset = new Int32Array(18);
  let code = 0;
  let k = 0;
  for (let len = 1; len <= 16; len++) {
    const n = counts[len - 1]!;
    valOffset[len] = k - code;
    for (let i = 0; i < n; i++, k++, code++) {
      if (len <= LOOKAHEAD) {
        const shift = LOOKAHEAD - len;
        const entry = (len << 8) | values[k]!;
        for (let j = code << shift, end = (code + 1) << shift; j < end; j++) lookup[j] = entry;
      }
    }
    maxCode[len] = n ? code - 1 : -1;
    code <<= 1;
  }
  maxCode[17] = 0x7fffffff;
  return { lookup, maxCode, valOffset, values };
}

interface Component {
  id: number;
  h: number;
  v: number;
  tq: number;
  /** Blocks a row and rows of blocks in the stored grid (whole MCUs). */
  blocksPerLine: number;
  blocksPerColumn: number;
  /** Blocks a row and rows that the picture covers (a non-interleaved scan's extent). */
  usedPerLine: number;
  usedPerColumn: number;
  /** Each block's quantized DC coefficient. */
  dc: Int32Array;
  pred: number;
  dcTable: Huffman | null;
  acTable: Huffman | null;
}

/** The 1/8-scale picture of a JPEG file, or null when it is not one this decoder reads (or is damaged). */
export function decodeJpegDc(bytes: Uint8Array): ScaledRgba | null {
  try {
    return decode(bytes);
  } catch (err) {
    if (err instanceof Unsupported || err instanceof RangeError) return null;
    throw err;
  }
}

function decode(b: Uint8Array): ScaledRgba {
  if (b[0] !== 0xff || b[1] !== 0xd8) fail("not a JPEG");
  const quant = new Map<number, number>();
  const dcTables = new Map<number, Huffman>();
  const acTables = new Map<number, Huffman>();
  let components: Component[] = [];
  let width = 0;
  let height = 0;
  let maxH = 1;
  let maxV = 1;
  let progressive = false;
  let mcusPerLine = 0;
  let mcusPerColumn = 0;
  let restartInterval = 0;
  let adobeTransform: number | null = null;
  let sawScan = false;
  let i = 2;

  const segmentEnd = (at: number) => {
    if (at + 4 > b.length) fail("truncated");
    const length = (b[at + 2]! << 8) | b[at + 3]!;
    if (length < 2 || at + 2 + length > b.length) fail("truncated segment");
    return at + 2 + length;
  };

  while (i + 1 < b.length) {
    if (b[i] !== 0xff) fail("marker expected");
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker === 0xd9) break; // EOI
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2;
      continue;
    }
    const end = segmentEnd(i);
    const p = i + 4;
    switch (marker) {
      case 0xdb: {
        // DQT: only each table's first value (the DC quantizer) is needed.
        for (let q = p; q < end; ) {
          const precision = b[q]! >> 4;
          const id = b[q]! & 15;
          quant.set(id, precision ? (b[q + 1]! << 8) | b[q + 2]! : b[q + 1]!);
          q += 1 + 64 * (precision ? 2 : 1);
        }
        break;
      }
      case 0xc4: {
        // DHT: class 0 = DC, 1 = AC.
        for (let q = p; q < end; ) {
          const cls = b[q]! >> 4;
          const id = b[q]! & 15;
          const counts = b.subarray(q + 1, q + 17);
          const total = counts.reduce((s, n) => s + n, 0);
          if (q + 17 + total > end) fail("bad DHT");
          const table = buildHuffman(counts, b.subarray(q + 17, q + 17 + total));
          (cls === 0 ? dcTables : acTables).set(id, table);
          q += 17 + total;
        }
        break;
      }
      case 0xdd:
        restartInterval = (b[p]! << 8) | b[p + 1]!;
        break;
      case 0xee:
        // Adobe APP14: its transform byte says RGB (0), YCbCr (1) or YCCK (2).
        if (end - p >= 12 && String.fromCharCode(...b.subarray(p, p + 5)) === "Adobe") adobeTransform = b[p + 11]!;
        break;
      case 0xc0:
      case 0xc1:
      case 0xc2: {
        if (components.length) fail("a second frame");
        progressive = marker === 0xc2;
        if (b[p] !== 8) fail("not 8-bit samples");
        height = (b[p + 1]! << 8) | b[p + 2]!;
        width = (b[p + 3]! << 8) | b[p + 4]!;
        const count = b[p + 5]!;
        if (!width || !height || !count || count > 4 || p + 6 + count * 3 > end) fail("bad frame header");
        for (let c = 0; c < count; c++) {
          const at = p + 6 + c * 3;
          const h = b[at + 1]! >> 4;
          const v = b[at + 1]! & 15;
          if (h < 1 || h > 4 || v < 1 || v > 4) fail("bad sampling");
          components.push({ id: b[at]!, h, v, tq: b[at + 2]! & 3, blocksPerLine: 0, blocksPerColumn: 0, usedPerLine: 0, usedPerColumn: 0, dc: new Int32Array(0), pred: 0, dcTable: null, acTable: null });
        }
        maxH = Math.max(...components.map((c) => c.h));
        maxV = Math.max(...components.map((c) => c.v));
        mcusPerLine = Math.ceil(width / (8 * maxH));
        mcusPerColumn = Math.ceil(height / (8 * maxV));
        components = components.map((c) => {
          const blocksPerLine = mcusPerLine * c.h;
          const blocksPerColumn = mcusPerColumn * c.v;
          return {
            ...c,
            blocksPerLine,
            blocksPerColumn,
            usedPerLine: Math.ceil(Math.ceil((width * c.h) / maxH) / 8),
            usedPerColumn: Math.ceil(Math.ceil((height * c.v) / maxV) / 8),
            dc: new Int32Array(blocksPerLine * blocksPerColumn),
          };
        });
        break;
      }
      case 0xda: {
        if (!components.length) fail("scan before frame");
        sawScan = true;
        const count = b[p]!;
        const scan: Component[] = [];
        for (let c = 0; c < count; c++) {
          const id = b[p + 1 + c * 2]!;
          const tables = b[p + 2 + c * 2]!;
          const component = components.find((x) => x.id === id) ?? fail("unknown component");
          component.dcTable = dcTables.get(tables >> 4) ?? null;
          component.acTable = acTables.get(tables & 15) ?? null;
          scan.push(component);
        }
        const at = p + 1 + count * 2;
        const ss = b[at]!;
        const se = b[at + 1]!;
        const ah = b[at + 2]! >> 4;
        const al = b[at + 2]! & 15;
        i = progressive && ss > 0 ? nextMarker(b, end) : decodeScan(b, end, scan, { progressive, ss, se, ah, al, restartInterval, mcusPerLine, mcusPerColumn });
        continue;
      }
      default:
        // Arithmetic coding, lossless and hierarchical frames.
        if ((marker >= 0xc3 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) || marker === 0xde) fail("unsupported coding");
    }
    i = end;
  }
  if (!components.length || !sawScan) fail("no image");

  // Each block's mean: DC x quantizer / 8, level-shifted by 128 (the 8x8 IDCT's DC term).
  const outWidth = Math.ceil(width / 8);
  const outHeight = Math.ceil(height / 8);
  const planes = components.map((c) => {
    const q = quant.get(c.tq) ?? fail("missing quantization table");
    const plane = new Uint8ClampedArray(c.dc.length);
    for (let k = 0; k < plane.length; k++) plane[k] = Math.round((c.dc[k]! * q) / 8 + 128);
    return { c, plane };
  });
  const sample = (k: number, x: number, y: number) => {
    const { c, plane } = planes[k]!;
    return plane[Math.floor((y * c.v) / maxV) * c.blocksPerLine + Math.floor((x * c.h) / maxH)]!;
  };
  const data = new Uint8Array(outWidth * outHeight * 4);
  const clamp = (n: number) => (n < 0 ? 0 : n > 255 ? 255 : Math.round(n));
  for (let y = 0, o = 0; y < outHeight; y++)
    for (let x = 0; x < outWidth; x++, o += 4) {
      let r: number, g: number, bl: number;
      if (planes.length < 3) {
        r = g = bl = sample(0, x, y);
      } else {
        const c0 = sample(0, x, y);
        const c1 = sample(1, x, y);
        const c2 = sample(2, x, y);
        // JFIF is YCbCr; an Adobe file says RGB (0) or YCbCr/YCCK (1, 2).
        const ycc = planes.length === 3 ? adobeTransform !== 0 : adobeTransform !== null && adobeTransform !== 0;
        if (ycc) {
          r = clamp(c0 + 1.402 * (c2 - 128));
          g = clamp(c0 - 0.3441363 * (c1 - 128) - 0.71413636 * (c2 - 128));
          bl = clamp(c0 + 1.772 * (c1 - 128));
        } else {
          r = c0;
          g = c1;
          bl = c2;
        }
        if (planes.length === 4) {
          // Adobe CMYK is stored inverted: the channel times K.
          const k = sample(3, x, y);
          r = Math.round((r * k) / 255);
          g = Math.round((g * k) / 255);
          bl = Math.round((bl * k) / 255);
        }
      }
      data[o] = r;
      data[o + 1] = g;
      data[o + 2] = bl;
      data[o + 3] = 255;
    }
  return { width: outWidth, height: outHeight, data, sourceWidth: width, sourceHeight: height };
}

/** The index of the next marker at or after `i` that is not a restart marker (the end of a scan's data). */
function nextMarker(b: Uint8Array, i: number): number {
  for (; i + 1 < b.length; i++) if (b[i] === 0xff && b[i + 1] !== 0 && !(b[i + 1]! >= 0xd0 && b[i + 1]! <= 0xd7) && b[i + 1] !== 0xff) return i;
  return b.length;
}

interface ScanParams {
  progressive: boolean;
  ss: number;
  se: number;
  ah: number;
  al: number;
  restartInterval: number;
  mcusPerLine: number;
  mcusPerColumn: number;
}

/**
 * Decodes one scan's entropy-coded data from `start`; returns where the next marker is. Baseline:
 * each block's DC difference, then its AC run-lengths read and dropped. Progressive DC scans: the
 * first (Ah = 0) gives the DC shifted by Al, a refinement (Ah > 0) one more bit of it.
 */
function decodeScan(b: Uint8Array, start: number, scan: Component[], s: ScanParams): number {
  let pos = start;
  let buffer = 0;
  let bits = 0;
  let markerHit = false;

  const fill = () => {
    while (bits <= 24) {
      let byte = 0;
      if (!markerHit && pos < b.length) {
        byte = b[pos]!;
        if (byte === 0xff) {
          const next = b[pos + 1];
          if (next === 0x00) pos += 2;
          else {
            markerHit = true; // the scan's data ends here: zeros from now on
            byte = 0;
          }
        } else pos++;
      }
      buffer = ((buffer << 8) | byte) >>> 0;
      bits += 8;
    }
  };
  const take = (n: number) => {
    if (bits < n) fill();
    bits -= n;
    const value = (buffer >>> bits) & ((1 << n) - 1);
    buffer = bits ? buffer & (2 ** bits - 1) : 0;
    return value;
  };
  const receiveExtend = (n: number) => {
    if (n === 0) return 0;
    if (n > 16) fail("bad coefficient size");
    const v = take(n);
    return v < 1 << (n - 1) ? v - (1 << n) + 1 : v;
  };
  const symbol = (t: Huffman | null) => {
    if (!t) fail("missing Huffman table");
    if (bits < 16) fill();
    const entry = t!.lookup[(buffer >>> (bits - LOOKAHEAD)) & ((1 << LOOKAHEAD) - 1)]!;
    if (entry) {
      const len = entry >> 8;
      bits -= len;
      buffer = bits ? buffer & (2 ** bits - 1) : 0;
      return entry & 0xff;
    }
    // A code longer than the lookahead: compare it with each length's largest code.
    let len = LOOKAHEAD + 1;
    let code = (buffer >>> (bits - len)) & ((1 << len) - 1);
    while (len <= 16 && code > t!.maxCode[len]!) {
      len++;
      code = (buffer >>> (bits - len)) & ((1 << len) - 1);
    }
    if (len > 16) fail("bad Huffman code");
    bits -= len;
    buffer = bits ? buffer & (2 ** bits - 1) : 0;
    return t!.values[code + t!.valOffset[len]!]!;
  };

  const blockAt = (c: Component, row: number, col: number) => {
    const k = row * c.blocksPerLine + col;
    if (s.progressive) {
      if (s.ah === 0) {
        c.pred += receiveExtend(symbol(c.dcTable));
        c.dc[k] = c.pred * (1 << s.al);
      } else if (take(1)) c.dc[k] = c.dc[k]! | (1 << s.al);
      return;
    }
    c.pred += receiveExtend(symbol(c.dcTable));
    c.dc[k] = c.pred;
    // The AC coefficients: read to reach the next block, never stored.
    for (let coef = 1; coef < 64; ) {
      const rs = symbol(c.acTable);
      const size = rs & 15;
      const run = rs >> 4;
      if (size === 0) {
        if (run < 15) break; // end of block
        coef += 16;
        continue;
      }
      coef += run + 1;
      take(size);
    }
  };

  const single = scan.length === 1;
  const c0 = scan[0]!;
  const total = single ? c0.usedPerLine * c0.usedPerColumn : s.mcusPerLine * s.mcusPerColumn;
  const perLine = single ? c0.usedPerLine : s.mcusPerLine;
  for (const c of scan) c.pred = 0;
  for (let mcu = 0; mcu < total; mcu++) {
    if (s.restartInterval && mcu > 0 && mcu % s.restartInterval === 0) {
      // A restart: the bits left are padding; the predictions start again after RSTn.
      bits = 0;
      buffer = 0;
      markerHit = false;
      while (pos + 1 < b.length && !(b[pos] === 0xff && b[pos + 1]! >= 0xd0 && b[pos + 1]! <= 0xd7)) {
        if (b[pos] === 0xff && b[pos + 1] !== 0 && b[pos + 1] !== 0xff) return pos; // another marker: the scan ended early
        pos++;
      }
      pos += 2;
      for (const c of scan) c.pred = 0;
    }
    const row = Math.floor(mcu / perLine);
    const col = mcu % perLine;
    if (single) blockAt(c0, row, col);
    else for (const c of scan) for (let v = 0; v < c.v; v++) for (let h = 0; h < c.h; h++) blockAt(c, row * c.v + v, col * c.h + h);
  }
  return nextMarker(b, markerHit ? pos : Math.max(start, pos - Math.floor(bits / 8)));
}
