/**
 * The copied-photo threshold, measured (docs/decisions/028). Real photographs from Debian wallpaper
 * packages (installed, not kept in the repo: gnome-backgrounds CC-BY-SA, mate-backgrounds GPL-2+,
 * ukui-wallpapers and lomiri-wallpapers CC-BY-SA), each with edits a copier makes: resized,
 * recompressed, cropped up to 10 % a side, brightened, mirrored, watermarked. An edit must match its
 * original (true match); any two different photos must not (false match), counted over every pair,
 * which includes the packages' look-alike series. worker/lib/photo-hash.ts is bundled with esbuild, the
 * pictures decoded and edited with sharp. Prints the rates per threshold and the hashing time per photo
 * in Node, and writes test/bench/photo-hash-results.json.
 *   apt-get install gnome-backgrounds mate-backgrounds ukui-wallpapers lomiri-wallpapers-16.04 lomiri-wallpapers-20.04
 *   node test/bench/photo-hash.mjs [dir]
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import sharp from "sharp";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const DIR = process.argv[2] ?? "/usr/share/backgrounds";
if (!existsSync(DIR)) {
  console.log(`photo-hash: skipped, no photographs at ${DIR} (install the Debian wallpaper packages named in this file's header)`);
  process.exit(0);
}
const files = (function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(path);
    return /\.(jpe?g|png)$/i.test(name) ? [path] : [];
  });
})(DIR).sort();

const out = mkdtempSync(join(tmpdir(), "photo-hash-"));
await build({ entryPoints: [join(ROOT, "worker/lib/photo-hash.ts")], bundle: true, format: "esm", platform: "node", outfile: join(out, "photo-hash.mjs"), logLevel: "error" });
const { hashPixels, hammingDistance } = await import(pathToFileURL(join(out, "photo-hash.mjs")).href);
rmSync(out, { recursive: true, force: true });

const WATERMARK = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="120"><text x="10" y="80" font-size="64" font-family="sans-serif" fill="white" fill-opacity="0.7">RENT NOW $$$</text></svg>`,
);
const EDITS = {
  resized: (img, m) => img.resize(Math.round(m.width / 3)),
  recompressed: (img) => img.jpeg({ quality: 35 }),
  cropped: (img, m) => img.extract({ left: Math.round(m.width * 0.1), top: Math.round(m.height * 0.1), width: Math.round(m.width * 0.8), height: Math.round(m.height * 0.8) }),
  brightened: (img) => img.modulate({ brightness: 1.25 }),
  mirrored: (img) => img.flop(),
  watermarked: (img) => img.composite([{ input: WATERMARK, gravity: "southeast" }]),
};

let hashMs = 0;
let hashed = 0;
async function hashOf(input) {
  // Decode to at most 1600 px a side: listing uploads are resized in the browser before they are sent.
  const { data, info } = await sharp(input).resize(1600, 1600, { fit: "inside", withoutEnlargement: true }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const t = performance.now();
  const h = hashPixels({ width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) });
  hashMs += performance.now() - t;
  hashed++;
  return h;
}

const photos = [];
for (const file of files) {
  const original = await hashOf(file);
  if (original.status !== "hashed") continue;
  const meta = await sharp(file).metadata();
  const edits = {};
  for (const [name, edit] of Object.entries(EDITS)) edits[name] = await hashOf(await edit(sharp(file), meta).jpeg({ quality: 80 }).toBuffer());
  photos.push({ file: file.slice(DIR.length + 1), original, edits });
}

// The distance the server uses: the nearer of the picture and its mirror image.
const distance = (a, b) => (a.status !== "hashed" || b.status !== "hashed" ? 64 : Math.min(hammingDistance(a.dhash, b.dhash), hammingDistance(a.dhash, b.dhashMirror)));
const THRESHOLDS = [4, 6, 8, 10, 12, 14, 16];
const edited = photos.flatMap((p) => Object.entries(p.edits).map(([edit, h]) => ({ edit, d: distance(h, p.original) })));
const pairs = [];
for (let i = 0; i < photos.length; i++) for (let j = i + 1; j < photos.length; j++) pairs.push({ a: photos[i].file, b: photos[j].file, d: distance(photos[i].original, photos[j].original) });
const rates = THRESHOLDS.map((t) => ({
  threshold: t,
  true_match_rate: +(edited.filter((e) => e.d <= t).length / edited.length).toFixed(4),
  by_edit: Object.fromEntries(Object.keys(EDITS).map((k) => [k, +(edited.filter((e) => e.edit === k && e.d <= t).length / photos.length).toFixed(3)])),
  false_match_rate: +(pairs.filter((p) => p.d <= t).length / pairs.length).toFixed(5),
  false_matches: pairs.filter((p) => p.d <= t).length,
}));
const results = {
  photos: photos.length,
  edited_copies: edited.length,
  different_pairs: pairs.length,
  hash_ms_per_photo_node: +(hashMs / hashed).toFixed(2),
  rates,
  closest_different_pairs: pairs.sort((x, y) => x.d - y.d).slice(0, 8),
};
console.table(rates.map(({ by_edit, ...r }) => ({ ...r, ...by_edit })));
console.log(JSON.stringify({ ...results, rates: undefined }, null, 1));
writeFileSync(join(ROOT, "test/bench/photo-hash-results.json"), JSON.stringify(results, null, 1) + "\n");
