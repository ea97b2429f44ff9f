import jpeg from "jpeg-js";
import { describe, expect, it } from "vitest";
import { encode as encodePng } from "fast-png";
import { bandNeighbours, bandsOf, decodeScaled, hammingDistance, hashPixels, type Rgba } from "../../../worker/lib/photo-hash";
import { decodeJpegDc } from "../../../worker/lib/jpeg-dc";

/** A picture with structure: a diagonal gradient, a bright disc and dark stripes. */
function scene(width: number, height: number, seed = 1): Rgba {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const disc = (x - width * 0.3 * seed) ** 2 + (y - height * 0.4) ** 2 < (height * 0.2) ** 2 ? 120 : 0;
      const stripe = Math.floor((x * seed) / 40) % 3 === 0 ? -60 : 0;
      const v = Math.max(0, Math.min(255, (x / width) * 120 + (y / height) * 60 + disc + stripe));
      data.set([v, v * 0.9, v * 0.8, 255], i);
    }
  return { width, height, data };
}

const mirror = (img: Rgba): Rgba => {
  const data = new Uint8Array(img.data.length);
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) data.set(img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4), (y * img.width + (img.width - 1 - x)) * 4);
  return { ...img, data };
};

const hashed = (img: Rgba) => {
  const h = hashPixels(img);
  if (h.status !== "hashed") throw new Error(`not hashed: ${h.reason}`);
  return h;
};

describe("photo hashes", () => {
  it("a recompressed JPEG decoded at 1/8 scale in workerd stays within a few bits of its original; a different scene does not", () => {
    const original = scene(800, 600);
    const bytes = jpeg.encode({ ...original, data: Buffer.from(original.data) }, 40).data;
    const decoded = decodeJpegDc(new Uint8Array(bytes));
    expect(decoded).toMatchObject({ width: 100, height: 75, sourceWidth: 800, sourceHeight: 600 });
    const a = hashed(original);
    expect(hammingDistance(a.phash, hashed(decoded!).phash)).toBeLessThanOrEqual(4);
    expect(hammingDistance(a.dhash, hashed(decoded!).dhash)).toBeLessThanOrEqual(4);
    expect(hammingDistance(a.phash, hashed(scene(800, 600, 2)).phash)).toBeGreaterThan(10);
  });

  it("a mirrored copy matches through the mirror hash", () => {
    const a = hashed(scene(640, 480));
    const m = hashed(mirror(scene(640, 480)));
    expect(m.dhash).toBe(a.dhashMirror);
    expect(hammingDistance(m.phash, a.phashMirror)).toBeLessThanOrEqual(2);
    expect(hammingDistance(a.phash, m.phash)).toBeGreaterThan(10);
  });

  it("tiny and single-colour pictures are not compared (tiny by the full picture's size, not the scaled copy's); garbage does not decode", () => {
    expect(hashPixels(scene(63, 400))).toEqual({ status: "skipped", reason: "tiny" });
    expect(hashPixels({ ...scene(100, 75), sourceWidth: 800, sourceHeight: 600 }).status).toBe("hashed");
    expect(hashPixels({ ...scene(100, 75), sourceWidth: 800, sourceHeight: 60 })).toEqual({ status: "skipped", reason: "tiny" });
    const flat = { width: 200, height: 200, data: new Uint8Array(200 * 200 * 4).fill(128) };
    expect(hashPixels(flat)).toEqual({ status: "skipped", reason: "flat" });
    expect(decodeJpegDc(new Uint8Array([1, 2, 3]))).toBeNull();
  });

  it("counts differing bits and splits a hash into three bands of 22, 21 and 21 bits", () => {
    expect(hammingDistance("0000000000000000", "ffffffffffffffff")).toBe(64);
    expect(hammingDistance("00000000000000f0", "0000000000000001")).toBe(5);
    const [b0, b1, b2] = bandsOf("0123456789abcdef");
    expect(((BigInt(b0) << 42n) | (BigInt(b1) << 21n) | BigInt(b2)).toString(16).padStart(16, "0")).toBe("0123456789abcdef");
    expect(Math.max(b0, b1, b2)).toBeLessThan(2 ** 22);
  });

  it("lists every value within a radius of a band, once", () => {
    const within3 = bandNeighbours(0x3f, 22, 3);
    expect(within3).toHaveLength(1 + 22 + 231 + 1540);
    expect(new Set(within3).size).toBe(within3.length);
    const bitsOf = (v: number) => v.toString(2).replaceAll("0", "").length;
    expect(within3.every((v) => v < 2 ** 22 && bitsOf(v ^ 0x3f) <= 3)).toBe(true);
    expect(bandNeighbours(7, 21, 0)).toEqual([7]);
  });

  it("decodes a PNG (RGBA, RGB, greyscale, 16-bit) to the same picture as its pixels; WebP is not decoded here", async () => {
    const img = scene(320, 240);
    const a = hashed(img);
    const rgb = new Uint8Array(320 * 240 * 3);
    const grey16 = new Uint16Array(320 * 240);
    for (let p = 0; p < 320 * 240; p++) {
      rgb.set(img.data.subarray(p * 4, p * 4 + 3), p * 3);
      grey16[p] = Math.round(0.299 * img.data[p * 4]! + 0.587 * img.data[p * 4 + 1]! + 0.114 * img.data[p * 4 + 2]!) * 257;
    }
    for (const png of [encodePng({ width: 320, height: 240, data: img.data, channels: 4 }), encodePng({ width: 320, height: 240, data: rgb, channels: 3 }), encodePng({ width: 320, height: 240, data: grey16, channels: 1, depth: 16 })]) {
      const decoded = await decodeScaled(png);
      expect(decoded).toMatchObject({ width: 320, height: 240, sourceWidth: 320, sourceHeight: 240 });
      expect(hammingDistance(a.phash, hashed(decoded!).phash)).toBeLessThanOrEqual(2);
    }
    expect(await decodeScaled(new TextEncoder().encode("RIFF\u0000\u0000\u0000\u0000WEBPVP8 "))).toBeNull();
  });

  it("decodes a 1600x1200 JPEG at 1/8 scale and hashes it (the time is printed; the bench measures it)", () => {
    const big = scene(1600, 1200);
    const bytes = new Uint8Array(jpeg.encode({ ...big, data: Buffer.from(big.data) }, 80).data);
    const t = performance.now();
    for (let i = 0; i < 3; i++) hashed(decodeJpegDc(bytes)!);
    const perPhoto = (performance.now() - t) / 3;
    // The hashes alone (picture, centre, eight windows) of the 200x150 copy.
    const pixels = decodeJpegDc(bytes)!;
    expect(pixels).toMatchObject({ width: 200, height: 150, sourceWidth: 1600, sourceHeight: 1200 });
    const h = performance.now();
    for (let i = 0; i < 3; i++) hashPixels(pixels);
    const hashOnly = (performance.now() - h) / 3;
    console.log(`photo-hash: 1/8-scale decode + hash of a 1600x1200 JPEG in workerd: ${perPhoto.toFixed(0)} ms (hashing alone ${hashOnly.toFixed(1)} ms)`);
    // The same picture hashed from every pixel is within a few bits of its 1/8-scale copy.
    expect(hammingDistance(hashed(big).phash, hashed(pixels).phash)).toBeLessThanOrEqual(4);
  });
});
