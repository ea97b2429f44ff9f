#!/usr/bin/env node
/**
 * The JPEG files the scaled decoder's tests read (test/fixtures/images, docs/decisions/036): one synthetic
 * scene (gradients, discs, stripes, colour) written the ways cameras, phones and browsers write JPEGs,
 * which jpeg-js's encoder (baseline 4:4:4 only) cannot: 4:2:0 and 4:2:2 chroma, progressive scans,
 * restart markers (jpegtran), greyscale, an odd size, and arithmetic coding (which the decoder refuses).
 * Run once after changing it: `node scripts/make-image-fixtures.mjs` (needs libjpeg-turbo-progs for
 * jpegtran and cjpeg: `apt-get install libjpeg-turbo-progs`). The files are committed.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const OUT = join(dirname(fileURLToPath(import.meta.url)), "..", "test", "fixtures", "images");
mkdirSync(OUT, { recursive: true });

/** An RGB scene of width x height: a colour gradient, two discs, diagonal stripes. */
function scene(width, height) {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const disc = (x - width * 0.3) ** 2 + (y - height * 0.4) ** 2 < (height * 0.22) ** 2;
      const disc2 = (x - width * 0.72) ** 2 + (y - height * 0.65) ** 2 < (height * 0.15) ** 2;
      const stripe = Math.floor((x + y) / 23) % 4 === 0;
      const r = (x / width) * 200 + (disc ? 55 : 0) - (stripe ? 40 : 0);
      const g = (y / height) * 180 + (disc2 ? 70 : 0) - (stripe ? 30 : 0);
      const b = 90 + ((x + y) / (width + height)) * 120 - (disc ? 60 : 0);
      data.set([r, g, b].map((v) => Math.max(0, Math.min(255, Math.round(v)))), (y * width + x) * 3);
    }
  return sharp(data, { raw: { width, height, channels: 3 } });
}

const write = (name, bytes) => {
  writeFileSync(join(OUT, name), bytes);
  console.log(`${name}: ${bytes.length} bytes`);
};

const w = 643;
const h = 481; // not multiples of 8 or 16: partial blocks and MCUs at the edges
write("baseline-420.jpg", await scene(w, h).jpeg({ quality: 85, chromaSubsampling: "4:2:0" }).toBuffer());
write("baseline-444.jpg", await scene(w, h).jpeg({ quality: 85, chromaSubsampling: "4:4:4" }).toBuffer());
write("progressive-420.jpg", await scene(w, h).jpeg({ quality: 85, progressive: true, chromaSubsampling: "4:2:0" }).toBuffer());
write("greyscale.jpg", await scene(w, h).greyscale().jpeg({ quality: 85 }).toBuffer());
// 4:2:2 (cjpeg from a PPM): chroma halved across, whole down.
const ppm = Buffer.concat([Buffer.from(`P6\n${w} ${h}\n255\n`), await scene(w, h).raw().toBuffer()]);
write("baseline-422.jpg", execFileSync("cjpeg", ["-quality", "85", "-sample", "2x1,1x1,1x1"], { input: ppm }));
// Restart markers every 3 MCUs, in a baseline and in a progressive file (jpegtran keeps the coefficients).
write("baseline-420-restart.jpg", execFileSync("jpegtran", ["-restart", "3B", "-copy", "none"], { input: await scene(w, h).jpeg({ quality: 85 }).toBuffer() }));
write("progressive-444-restart.jpg", execFileSync("jpegtran", ["-progressive", "-restart", "2B", "-copy", "none"], { input: await scene(w, h).jpeg({ quality: 85, chromaSubsampling: "4:4:4" }).toBuffer() }));
// Arithmetic coding (SOF9): not decoded here.
write("arithmetic.jpg", execFileSync("cjpeg", ["-quality", "85", "-arithmetic"], { input: ppm }));
