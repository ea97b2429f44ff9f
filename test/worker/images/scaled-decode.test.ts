/// <reference types="vite/client" />
import jpeg from "jpeg-js";
import { encode as encodePng } from "fast-png";
import { describe, expect, it } from "vitest";
import { decodeJpegDc, type ScaledRgba } from "../../../worker/lib/jpeg-dc";
import { decodePngScaled, SCALED_SIDE } from "../../../worker/lib/png-scaled";
import { flatJpeg, flatPng, png, pngChunk, zeroRows } from "../helpers";

const fixtures = import.meta.glob<string>("../../fixtures/images/*.jpg", { query: "?inline", import: "default", eager: true });
const fixture = (name: string) => {
  const url = Object.entries(fixtures).find(([path]) => path.endsWith(`/${name}`))![1];
  return Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0));
};

const grey = (d: Uint8Array, i: number) => 0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]!;

/**
 * How far a scaled picture is from the mean of each cell (factor x factor pixels) of the full decode,
 * in grey levels: the mean over all cells and the worst cell.
 */
function distanceToCellMeans(scaled: ScaledRgba, full: { width: number; height: number; data: Uint8Array }, factor: number) {
  let total = 0;
  let worst = 0;
  for (let cy = 0; cy < scaled.height; cy++)
    for (let cx = 0; cx < scaled.width; cx++) {
      let sum = 0;
      let n = 0;
      for (let y = cy * factor; y < Math.min(full.height, (cy + 1) * factor); y++)
        for (let x = cx * factor; x < Math.min(full.width, (cx + 1) * factor); x++, n++) sum += grey(full.data, (y * full.width + x) * 4);
      const d = Math.abs(sum / n - grey(scaled.data, (cy * scaled.width + cx) * 4));
      total += d;
      worst = Math.max(worst, d);
    }
  return { mean: total / (scaled.width * scaled.height), worst };
}

/** A picture with structure (a gradient, a disc, stripes) as RGBA. */
function scene(width: number, height: number): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const disc = (x - width * 0.35) ** 2 + (y - height * 0.5) ** 2 < (height * 0.25) ** 2 ? 90 : 0;
      const stripe = Math.floor((x + 2 * y) / 29) % 3 === 0 ? -45 : 0;
      const v = Math.max(0, Math.min(255, (x / width) * 150 + (y / height) * 60 + disc + stripe));
      data.set([v, Math.max(0, v - 30), Math.min(255, v + 20), 255], (y * width + x) * 4);
    }
  return data;
}

describe("the 1/8-scale JPEG decoder (docs/decisions/036)", () => {
  it("gives each 8x8 block's mean, as jpeg-js's full decode does, for the ways cameras and browsers write JPEGs", () => {
    for (const name of ["baseline-420.jpg", "baseline-422.jpg", "baseline-444.jpg", "progressive-420.jpg", "greyscale.jpg", "baseline-420-restart.jpg", "progressive-444-restart.jpg"]) {
      const bytes = fixture(name);
      const scaled = decodeJpegDc(bytes);
      expect(scaled, name).toMatchObject({ width: 81, height: 61, sourceWidth: 643, sourceHeight: 481 });
      const full = jpeg.decode(bytes, { useTArray: true });
      const { mean, worst } = distanceToCellMeans(scaled!, full, 8);
      // Measured: 0.25-0.52 grey levels on average, 3.7 at worst (edge blocks padded by the encoder, rounding).
      expect(mean, name).toBeLessThan(1);
      expect(worst, name).toBeLessThan(8);
    }
    // jpeg-js's own (baseline 4:4:4) output.
    const encoded = new Uint8Array(jpeg.encode({ width: 400, height: 300, data: scene(400, 300) }, 75).data);
    const scaled = decodeJpegDc(encoded)!;
    expect(scaled).toMatchObject({ width: 50, height: 38 });
    expect(distanceToCellMeans(scaled, jpeg.decode(encoded, { useTArray: true }), 8).mean).toBeLessThan(1);
  });

  it("a progressive file and its baseline twin decode to the same picture; restart markers change nothing", () => {
    const a = decodeJpegDc(fixture("baseline-420.jpg"))!;
    expect([...decodeJpegDc(fixture("progressive-420.jpg"))!.data]).toEqual([...a.data]);
    expect([...decodeJpegDc(fixture("baseline-420-restart.jpg"))!.data]).toEqual([...a.data]);
  });

  it("keeps one number a block: a 25-megapixel JPEG becomes 625 x 625 pixels", () => {
    for (const progressive of [false, true]) {
      const scaled = decodeJpegDc(flatJpeg(5000, 5000, { progressive }))!;
      expect(scaled).toMatchObject({ width: 625, height: 625, sourceWidth: 5000, sourceHeight: 5000 });
      expect(scaled.data.length).toBe(625 * 625 * 4);
      expect(scaled.data.every((v, i) => (i % 4 === 3 ? v === 255 : v === 128))).toBe(true);
    }
  });

  it("refuses what it does not read (arithmetic coding, 12-bit samples, a second frame, garbage) and survives a file cut short", () => {
    expect(decodeJpegDc(fixture("arithmetic.jpg"))).toBeNull();
    const twelveBit = fixture("baseline-444.jpg").slice();
    const sof = twelveBit.findIndex((b, i) => b === 0xff && twelveBit[i + 1] === 0xc0);
    twelveBit[sof + 4] = 12;
    expect(decodeJpegDc(twelveBit)).toBeNull();
    expect(decodeJpegDc(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]))).toBeNull();
    expect(decodeJpegDc(new TextEncoder().encode("not a jpeg at all"))).toBeNull();
    // Cut in the middle of its scan: the blocks after the cut read as flat, nothing throws.
    const whole = fixture("baseline-420.jpg");
    const cut = decodeJpegDc(whole.subarray(0, Math.floor(whole.length * 0.6)));
    expect(cut).toMatchObject({ width: 81, height: 61 });
  });
});

describe("the streamed, scaled PNG decoder (docs/decisions/036)", () => {
  const rgba = scene(320, 240);
  const rgb = new Uint8Array(320 * 240 * 3);
  const grey8 = new Uint8Array(320 * 240);
  const grey16 = new Uint16Array(320 * 240);
  for (let p = 0; p < 320 * 240; p++) {
    rgb.set(rgba.subarray(p * 4, p * 4 + 3), p * 3);
    grey8[p] = Math.round(grey(rgba, p * 4));
    grey16[p] = grey8[p]! * 257;
  }

  it("decodes every colour type and depth to the picture itself when it is small", async () => {
    const full = { width: 320, height: 240, data: rgba };
    for (const [name, bytes] of [
      ["RGBA 8", encodePng({ width: 320, height: 240, data: rgba, channels: 4 })],
      ["RGB 8", encodePng({ width: 320, height: 240, data: rgb, channels: 3 })],
      ["RGBA 16", encodePng({ width: 320, height: 240, data: Uint16Array.from(rgba, (v) => v * 257), channels: 4, depth: 16 })],
    ] as const) {
      const scaled = await decodePngScaled(bytes);
      expect(scaled, name).toMatchObject({ width: 320, height: 240, sourceWidth: 320, sourceHeight: 240 });
      expect(distanceToCellMeans(scaled!, full, 1).worst, name).toBeLessThan(1);
    }
    const greyFull = { width: 320, height: 240, data: Uint8Array.from({ length: 320 * 240 * 4 }, (_, i) => (i % 4 === 3 ? 255 : grey8[i >> 2]!)) };
    for (const bytes of [encodePng({ width: 320, height: 240, data: grey8, channels: 1 }), encodePng({ width: 320, height: 240, data: grey16, channels: 1, depth: 16 })])
      expect(distanceToCellMeans((await decodePngScaled(bytes))!, greyFull, 1).worst).toBeLessThan(1);
  });

  it("undoes each row filter (None, Sub, Up, Average, Paeth) against the row before it", async () => {
    const width = 37;
    const height = 23;
    const bpp = 3;
    const raw = Array.from({ length: height }, (_, y) => Uint8Array.from({ length: width * bpp }, (_, i) => (i * 31 + y * 17 + ((i * y) % 7) * 40) % 256));
    const paeth = (a: number, b: number, c: number) => {
      const p = a + b - c;
      const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
      return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    };
    // Row y uses filter y % 5, as an encoder choosing per row would.
    const rows = raw.map((row, y) => {
      const up = y ? raw[y - 1]! : new Uint8Array(row.length);
      const filter = y % 5;
      const out = new Uint8Array(row.length + 1);
      out[0] = filter;
      for (let i = 0; i < row.length; i++) {
        const left = i >= bpp ? row[i - bpp]! : 0;
        const upLeft = i >= bpp ? up[i - bpp]! : 0;
        const predictor = [0, left, up[i]!, (left + up[i]!) >> 1, paeth(left, up[i]!, upLeft)][filter]!;
        out[i + 1] = (row[i]! - predictor) & 0xff;
      }
      return out;
    });
    const scaled = await decodePngScaled(await png({ width, height, colourType: 2 }, rows));
    expect(scaled).toMatchObject({ width, height });
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) expect([...scaled!.data.subarray((y * width + x) * 4, (y * width + x) * 4 + 3)], `${x},${y}`).toEqual([...raw[y]!.subarray(x * 3, x * 3 + 3)]);
  });

  it("reads palette pictures and 1-bit greyscale (packed samples)", async () => {
    // A 2-colour palette, every other column the second colour.
    const row = (width: number) => {
      const r = new Uint8Array(1 + Math.ceil(width / 8));
      for (let x = 0; x < width; x++) if (x % 2) r[1 + (x >> 3)]! |= 0x80 >> (x & 7);
      return r;
    };
    const rows = (width: number, height: number) => Array.from({ length: height }, () => row(width));
    const palette = pngChunk("PLTE", [10, 20, 30, 200, 150, 100]);
    const indexed = await decodePngScaled(await png({ width: 16, height: 4, depth: 1, colourType: 3 }, rows(16, 4), [palette]));
    expect([...indexed!.data.subarray(0, 8)]).toEqual([10, 20, 30, 255, 200, 150, 100, 255]);
    const bits = await decodePngScaled(await png({ width: 16, height: 4, depth: 1, colourType: 0 }, rows(16, 4)));
    expect([...bits!.data.subarray(0, 8)]).toEqual([0, 0, 0, 255, 255, 255, 255, 255]);
  });

  it("places an interlaced (Adam7) picture's passes where they belong", async () => {
    const width = 19;
    const height = 13;
    const value = (x: number, y: number) => (x * 13 + y * 7) % 256;
    const passes = [
      [0, 0, 8, 8],
      [4, 0, 8, 8],
      [0, 4, 4, 8],
      [2, 0, 4, 4],
      [0, 2, 2, 4],
      [1, 0, 2, 2],
      [0, 1, 1, 2],
    ];
    const rows: Uint8Array[] = [];
    for (const [x0, y0, dx, dy] of passes)
      for (let y = y0!; y < height; y += dy!) {
        const xs: number[] = [];
        for (let x = x0!; x < width; x += dx!) xs.push(value(x, y));
        if (xs.length) rows.push(Uint8Array.from([0, ...xs]));
      }
    const scaled = await decodePngScaled(await png({ width, height, interlace: 1 }, rows));
    expect(scaled).toMatchObject({ width, height });
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) expect(scaled!.data[(y * width + x) * 4], `${x},${y}`).toBe(value(x, y));
  });

  it("keeps a small grid whatever the size: a 25-megapixel PNG becomes 500 x 500", async () => {
    const scaled = await decodePngScaled(await flatPng(5000, 5000));
    expect(SCALED_SIDE).toBe(512);
    expect(scaled).toMatchObject({ width: 500, height: 500, sourceWidth: 5000, sourceHeight: 5000 });
  });

  it("stops at the header's last row however much the data inflates to; a file cut short is not read", async () => {
    // The header says 100 x 100; the data goes on for 5,000 rows (a bomb behind a small header).
    const lying = await decodePngScaled(await png({ width: 100, height: 100 }, zeroRows(100, 5000)));
    expect(lying).toMatchObject({ width: 100, height: 100 });
    expect(await decodePngScaled(await png({ width: 100, height: 100 }, zeroRows(100, 40)))).toBeNull();
    // A damaged stream, an unknown filter, a missing palette.
    const broken = await png({ width: 10, height: 10 }, zeroRows(10, 10));
    const idat = broken.findIndex((b, i) => String.fromCharCode(...broken.subarray(i, i + 4)) === "IDAT");
    broken[idat + 6]! ^= 0xff;
    expect(await decodePngScaled(broken)).toBeNull();
    expect(await decodePngScaled(await png({ width: 4, height: 1 }, [Uint8Array.from([9, 1, 2, 3, 4])]))).toBeNull();
    expect(await decodePngScaled(await png({ width: 4, height: 1, colourType: 3 }, [Uint8Array.from([0, 0])]))).toBeNull();
  });
});
