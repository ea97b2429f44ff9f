/**
 * The copied-photo thresholds and index, measured (docs/decisions/028). Real photographs from Debian
 * packages (installed on the machine, not kept in the repo; the set's list with each file's package and
 * licence is test/bench/photo-set.json), each with the edits a copier makes: resized, recompressed,
 * cropped 10 % on every side, cropped 10 % off two sides, brightened, mirrored, watermarked. An edit
 * must match its original (true match); two different photographs must not (false match), over every
 * pair, which includes each package's look-alike series (light and dark versions of one scene, one
 * painter's or one activity's photos). worker/lib/photo-hash.ts is bundled with esbuild, the pictures
 * decoded and edited with sharp. Prints the rates of each rule and threshold, the index's candidate
 * counts, and the hashing time per photo in Node; writes test/bench/photo-hash-results.json.
 *   apt-get install gnome-backgrounds mate-backgrounds ukui-wallpapers lomiri-wallpapers-16.04 \
 *     lomiri-wallpapers-20.04 plasma-workspace-wallpapers palapeli-data gcompris-qt-data
 *   node test/bench/photo-hash.mjs          # the listed set
 *   node test/bench/photo-hash.mjs --scan   # lists the installed photographs into photo-set.json first
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { inflateSync } from "node:zlib";
import { build } from "esbuild";
import sharp from "sharp";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const SET = join(ROOT, "test/bench/photo-set.json");

const out = mkdtempSync(join(tmpdir(), "photo-hash-"));
await build({ entryPoints: [join(ROOT, "worker/lib/photo-hash.ts")], bundle: true, format: "esm", platform: "node", outfile: join(out, "photo-hash.mjs"), logLevel: "error" });
const { hashPixels, hammingDistance, bandsOf, bandNeighbours, BAND_BITS, decodeScaled } = await import(pathToFileURL(join(out, "photo-hash.mjs")).href);
/**
 * How each uploaded JPEG becomes pixels: "scaled" (the worker's: lib/jpeg-dc at 1/8 scale,
 * docs/decisions/036) or "full" (every pixel, as sharp decodes it: the measurement before 036).
 */
const DECODE = process.env.PHOTO_HASH_DECODE ?? "scaled";
rmSync(out, { recursive: true, force: true });

/** The files of a Qt resource archive (gcompris-qt-data ships its pictures in them). */
function rccEntries(path) {
  const b = readFileSync(path);
  const [version, tree, data, names] = [4, 8, 12, 16].map((o) => b.readUInt32BE(o));
  const size = version === 1 ? 14 : 22;
  const name = (o) => b.subarray(names + o + 6, names + o + 6 + 2 * b.readUInt16BE(names + o)).swap16().toString("utf16le");
  const files = new Map();
  (function walk(i, dir) {
    const o = tree + i * size;
    const nm = i ? name(b.readUInt32BE(o)) : "";
    const flags = b.readUInt16BE(o + 4);
    if (flags & 2) {
      const [count, first] = [b.readUInt32BE(o + 6), b.readUInt32BE(o + 10)];
      for (let k = 0; k < count; k++) walk(first + k, nm ? `${dir}/${nm}` : dir);
    } else {
      const at = data + b.readUInt32BE(o + 10);
      const payload = b.subarray(at + 4, at + 4 + b.readUInt32BE(at));
      files.set(`${dir}/${nm}`, flags & 1 ? inflateSync(payload.subarray(4)) : payload);
    }
  })(0, "");
  return files;
}

const archives = new Map();
const read = (item) => {
  if (!item.entry) return readFileSync(item.path);
  if (!archives.has(item.path)) archives.set(item.path, rccEntries(item.path));
  return archives.get(item.path).get(item.entry);
};

const walk = (dir) =>
  existsSync(dir)
    ? readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? walk(path) : [path];
      })
    : [];

/** The licence of a file by the Files: globs of its package's copyright file (extension aside: gcompris ships its JPEGs as WebP). */
function licenceOf(pkg, path) {
  const copyright = `/usr/share/doc/${pkg}/copyright`;
  if (!existsSync(copyright)) return "unknown";
  // gnome-backgrounds' copyright file is free text: a licence per picture, mostly CC-BY-SA-3.0.
  if (pkg === "gnome-backgrounds") return "CC-BY-SA-3.0 / CC-BY-SA-2.0 / CC-BY-2.0 (per picture: its copyright file)";
  const stem = (p) => p.replace(/\.[a-z0-9]+$/i, "");
  let best = { score: -1, licence: "unknown" };
  for (const stanza of readFileSync(copyright, "utf8").split(/\n\s*\n/)) {
    const files = /^Files:((?:.*\n?)(?:^\s+.*\n?)*)/m.exec(stanza)?.[1];
    const licence = /^License:\s*(.+)$/m.exec(stanza)?.[1]?.trim();
    if (!files || !licence) continue;
    for (const glob of files.split(/\s+/).filter(Boolean).flatMap((g) => (g.includes("/") ? [g, g.split("/").at(-1)] : [g]))) {
      const re = new RegExp(`(^|/)${stem(glob).replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".")}$`);
      // The most specific glob that matches wins, as in a copyright file.
      if (re.test(stem(path)) && glob.length > best.score) best = { score: glob === "*" ? 0 : glob.length, licence };
    }
  }
  return best.licence;
}

/** The photographs installed now: one file per picture (the largest up to 1920 px wide where a package ships sizes). */
function scan() {
  const items = [];
  const add = (pkg, licence, path, entry) => items.push({ package: pkg, licence, path, ...(entry ? { entry } : {}) });
  for (const path of walk("/usr/share/backgrounds").filter((p) => /\.(jpe?g|png|webp)$/i.test(p) && !p.includes("/sway/"))) add(null, null, path);
  for (const series of walk("/usr/share/wallpapers").reduce((m, p) => m.add(dirname(p)), new Set())) {
    const sizes = readdirSync(series).filter((f) => /^\d+x\d+\.(jpe?g|png)$/i.test(f)).map((f) => ({ f, w: parseInt(f, 10) }));
    const pick = sizes.filter((s) => s.w <= 1920).sort((a, b) => b.w - a.w)[0] ?? sizes.sort((a, b) => a.w - b.w)[0];
    if (pick) add("plasma-workspace-wallpapers", null, join(series, pick.f));
  }
  for (const path of walk("/usr/share/palapeli/collection").filter((p) => p.endsWith(".jpg"))) add("palapeli-data", null, path);
  // gcompris' photographs (objects, animals, monuments, paintings), over 30 kB (drawings are SVG).
  for (const activity of ["lang", "explore_monuments", "erase", "categorization", "details", "explore_world_animals", "explore_farm_animals"]) {
    const rcc = `/usr/share/gcompris-qt/rcc/${activity}.rcc`;
    if (!existsSync(rcc)) continue;
    for (const [entry, bytes] of rccEntries(rcc)) if (/\.(webp|jpe?g)$/i.test(entry) && bytes.length > 30_000) add("gcompris-qt-data", null, rcc, entry);
  }
  // The package that installed each file, and the licence its copyright file gives that file.
  const unknown = items.filter((i) => !i.package).map((i) => i.path);
  const owners = new Map(
    execFileSync("dpkg", ["-S", ...unknown], { encoding: "utf8" })
      .trim()
      .split("\n")
      .map((line) => line.split(": ").reverse()),
  );
  for (const i of items) {
    i.package = i.package ?? owners.get(i.path) ?? "unknown";
    i.licence = licenceOf(i.package, i.entry ?? i.path);
  }
  return items;
}

if (process.argv.includes("--scan")) writeFileSync(SET, JSON.stringify(scan(), null, 1) + "\n");
if (!existsSync(SET)) {
  console.log("photo-hash: no test/bench/photo-set.json; run with --scan once the packages named in this file's header are installed");
  process.exit(0);
}
const listed = JSON.parse(readFileSync(SET, "utf8"));
const present = listed.filter((item) => existsSync(item.path));
if (present.length < listed.length) console.log(`photo-hash: ${listed.length - present.length} of ${listed.length} listed files are not installed (install the packages in this file's header)`);

/** A semi-transparent caption across the lower right, sized to the picture. */
const watermark = (m) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.round(m.width / 2)}" height="${Math.round(m.height / 8)}"><text x="5" y="${Math.round(m.height / 12)}" font-size="${Math.round(m.height / 14)}" font-family="sans-serif" fill="white" fill-opacity="0.7">RENT NOW $$$</text></svg>`,
  );
const EDITS = {
  resized: (img, m) => img.resize(Math.round(m.width / 3)),
  recompressed: (img) => img.jpeg({ quality: 35 }),
  cropped: (img, m) => img.extract({ left: Math.round(m.width * 0.1), top: Math.round(m.height * 0.1), width: Math.round(m.width * 0.8), height: Math.round(m.height * 0.8) }),
  cropped_corner: (img, m) => img.extract({ left: Math.round(m.width * 0.1), top: Math.round(m.height * 0.1), width: Math.floor(m.width * 0.9) - 1, height: Math.floor(m.height * 0.9) - 1 }),
  cropped_left: (img, m) => img.extract({ left: Math.round(m.width * 0.1), top: 0, width: m.width - Math.round(m.width * 0.1), height: m.height }),
  cropped_bottom_right: (img, m) => img.extract({ left: 0, top: 0, width: Math.round(m.width * 0.9), height: Math.round(m.height * 0.9) }),
  cropped_left_5: (img, m) => img.extract({ left: Math.round(m.width * 0.05), top: 0, width: m.width - Math.round(m.width * 0.05), height: m.height }),
  brightened: (img) => img.modulate({ brightness: 1.25 }),
  mirrored: (img) => img.flop(),
  watermarked: (img, m) => img.composite([{ input: watermark(m), gravity: "southeast" }]),
};

let hashMs = 0;
let decodeMs = 0;
let hashed = 0;
/** The hashes of an uploaded JPEG (at most 1600 px a side: the browser resizes before sending). */
async function hashOf(jpegBytes) {
  let pixels;
  if (DECODE === "full") {
    const { data, info } = await sharp(jpegBytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    pixels = { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
  } else {
    const d = performance.now();
    pixels = await decodeScaled(new Uint8Array(jpegBytes.buffer, jpegBytes.byteOffset, jpegBytes.length));
    decodeMs += performance.now() - d;
    if (!pixels) throw new Error("a JPEG the scaled decoder could not read");
  }
  const t = performance.now();
  const h = hashPixels(pixels);
  hashMs += performance.now() - t;
  hashed++;
  return h;
}
/** A 16x16 greyscale thumbnail: the same picture at two sizes is one photograph, not a pair. */
const thumbOf = async (input) => (await sharp(input).resize(16, 16, { fit: "fill" }).greyscale().raw().toBuffer()).valueOf();
const sameThumb = (a, b) => a.reduce((s, v, i) => s + Math.abs(v - b[i]), 0) / a.length < 3;

const photos = [];
let skipped = 0;
let duplicates = 0;
for (const item of present) {
  // As uploaded: at most 1600 px a side (the browser resizes before sending), as a JPEG.
  const bytes = await sharp(read(item)).resize(1600, 1600, { fit: "inside", withoutEnlargement: true }).jpeg({ quality: 92 }).toBuffer();
  const original = await hashOf(bytes);
  if (original.status !== "hashed") {
    skipped++;
    continue;
  }
  const thumb = await thumbOf(bytes);
  if (photos.some((p) => sameThumb(p.thumb, thumb))) {
    duplicates++;
    continue;
  }
  const meta = await sharp(bytes).metadata();
  const edits = {};
  for (const [name, edit] of Object.entries(EDITS)) edits[name] = await hashOf(await edit(sharp(bytes), meta).jpeg({ quality: 80 }).toBuffer());
  if (photos.length % 50 === 0) console.error(`photo-hash: ${photos.length} photos`);
  photos.push({ id: item.entry ? `${basename(item.path)}#${item.entry}` : item.path, group: item.entry ? `${item.path}` : dirname(item.path).replace(/\/images(_dark)?$/, ""), original, edits, thumb });
}

// The rules: q is the later photo, x the earlier one (both hashed).
// An edit the hash skips (too small or too flat once edited) is a miss: no rule matches it.
/** A rule's distance of a pair (64 when either is not hashed), computed once a pair: each threshold reads it again. */
const both = (f) => {
  const memo = new WeakMap();
  return (q, x) => {
    if (q.status !== "hashed" || x.status !== "hashed") return 64;
    let row = memo.get(q);
    if (!row) memo.set(q, (row = new Map()));
    let d = row.get(x);
    if (d === undefined) row.set(x, (d = f(q, x)));
    return d;
  };
};
const dDist = both((q, x) => Math.min(hammingDistance(q.dhash, x.dhash), hammingDistance(q.dhashMirror, x.dhash)));
const pDist = both((q, x) => Math.min(hammingDistance(q.phash, x.phash), hammingDistance(q.phashMirror, x.phash)));
// The centre hashes: a crop of x is x's centre; x a crop of q is q's centre.
const pcDist = both((q, x) =>
  Math.min(pDist(q, x), hammingDistance(q.phash, x.phashCentre), hammingDistance(q.phashMirror, x.phashCentre), hammingDistance(q.phashCentre, x.phash), hammingDistance(q.phashCentreMirror, x.phash)),
);
// The 90 %-windows (corners and edges): q's picture or mirror against x's windows (q a crop of x), and
// q's windows and their mirrors against x's picture (x a crop of q), each within w bits.
const wDist = both((q, x) =>
  Math.min(...q.phashWindows.map((h) => hammingDistance(h, x.phash)), ...x.phashWindows.slice(0, 8).flatMap((h) => [hammingDistance(q.phash, h), hammingDistance(q.phashMirror, h)])),
);
const RULES = {
  dhash: [[4, 6, 8, 10, 12], (q, x, t) => dDist(q, x) <= t],
  phash: [[6, 8, 10, 12, 14], (q, x, t) => pDist(q, x) <= t],
  phash_centre: [[6, 8, 10, 12, 14], (q, x, t) => pcDist(q, x) <= t],
  // pHash with centre within 10, or a 90 %-window within t.
  phash_centre10_windows: [[6, 7, 8, 9, 10], (q, x, t) => pcDist(q, x) <= 10 || wDist(q, x) <= t],
  // Either hash near enough on its own (pHash with centre within t, dHash within 6).
  phash_centre_or_dhash6: [[6, 8, 10, 12], (q, x, t) => pcDist(q, x) <= t || dDist(q, x) <= 6],
};
const pairs = [];
for (let i = 0; i < photos.length; i++) for (let j = 0; j < photos.length; j++) if (i !== j) pairs.push([photos[i], photos[j]]);
const similar = pairs.filter(([a, b]) => a.group === b.group);
const pct = (n, of) => +((100 * n) / of).toFixed(2);
const rates = [];
for (const [rule, [thresholds, match]] of Object.entries(RULES))
  for (const t of thresholds) {
    const byEdit = Object.fromEntries(Object.keys(EDITS).map((e) => [e, pct(photos.filter((p) => match(p.edits[e], p.original, t)).length, photos.length)]));
    const trueMatches = photos.reduce((n, p) => n + Object.keys(EDITS).filter((e) => match(p.edits[e], p.original, t)).length, 0);
    const falses = pairs.filter(([a, b]) => match(a.original, b.original, t));
    rates.push({
      rule,
      threshold: t,
      true_match_pct: pct(trueMatches, photos.length * Object.keys(EDITS).length),
      ...byEdit,
      false_match_pct: pct(falses.length, pairs.length),
      false_matches: falses.length,
      similar_false_pct: pct(similar.filter(([a, b]) => match(a.original, b.original, t)).length, similar.length),
    });
  }

// The index (services/photo-check, queries/photo-hashes): each stored photo's pHash, centre pHash and
// eight window pHashes in three bands (22, 21, 21 bits); a query looks up each band's neighbours within
// floor(t / 3) bits: of its four hashes (and, within floor(w / 3), its 16 windows) in the stored pHash
// bands, of its pHash and mirror in the stored centre bands (and, within floor(w / 3), the windows' bands).
// Candidates: the stored originals found, for each edited copy as the query; before: without windows.
function candidates(q, t, w) {
  const near = (hashes, r) => BAND_BITS.map((width, k) => new Set(hashes.flatMap((h) => bandNeighbours(bandsOf(h)[k], width, r))));
  const r = Math.floor(t / BAND_BITS.length);
  const rw = Math.floor(w / BAND_BITS.length);
  const whole = near([q.phash, q.phashMirror, q.phashCentre, q.phashCentreMirror], r);
  if (w) {
    const ofWindows = near(q.phashWindows, rw);
    whole.forEach((set, k) => ofWindows[k].forEach((v) => set.add(v)));
  }
  const centre = near([q.phash, q.phashMirror], r);
  const windows = w ? near([q.phash, q.phashMirror], rw) : null;
  return photos.filter(
    (x) =>
      bandsOf(x.original.phash).some((v, k) => whole[k].has(v)) ||
      bandsOf(x.original.phashCentre).some((v, k) => centre[k].has(v)) ||
      (windows && x.original.phashWindows.slice(0, 8).some((h) => bandsOf(h).some((v, k) => windows[k].has(v)))),
  );
}
const CHOSEN = 10;
const CHOSEN_WINDOW = Number(process.env.WINDOW_BITS ?? 7);
const matchesChosen = (q, x) => pcDist(q, x) <= CHOSEN || wDist(q, x) <= CHOSEN_WINDOW;
const indexStats = (w, match) => {
  const counts = photos.flatMap((p) => Object.values(p.edits).filter((q) => q.status === "hashed").map((q) => candidates(q, CHOSEN, w)));
  const missed = photos.flatMap((p) => Object.values(p.edits).filter((q) => q.status === "hashed" && match(q, p.original) && !candidates(q, CHOSEN, w).includes(p)));
  const sizes = counts.map((c) => c.length).sort((a, b) => a - b);
  return { candidates_mean: +(sizes.reduce((a, b) => a + b, 0) / sizes.length).toFixed(2), candidates_median: sizes[sizes.length >> 1], candidates_max: sizes.at(-1), matches_missed_by_index: missed.length };
};

// The rates first (the index's candidate counts below take much longer).
console.table(rates);
/** PHOTO_HASH_INDEX=0 leaves out the index's candidate counts (minutes on a busy machine). */
const INDEX = process.env.PHOTO_HASH_INDEX !== "0";
const results = {
  listed: listed.length,
  compared: photos.length,
  not_compared_flat_or_tiny: skipped,
  same_picture_other_size: duplicates,
  sources: Object.fromEntries([...new Set(present.map((i) => i.package))].map((p) => [p, photos.filter((ph) => present.find((i) => (i.entry ? `${basename(i.path)}#${i.entry}` : i.path) === ph.id)?.package === p).length])),
  edited_copies: photos.length * Object.keys(EDITS).length,
  different_pairs: pairs.length,
  similar_scene_pairs: similar.length,
  decode: DECODE,
  hash_ms_per_photo_node: +(hashMs / hashed).toFixed(2),
  ...(DECODE === "scaled" ? { scaled_decode_ms_per_photo_node: +(decodeMs / hashed).toFixed(2) } : {}),
  index: INDEX && {
    threshold: CHOSEN,
    band_radius: Math.floor(CHOSEN / BAND_BITS.length),
    of_stored: photos.length,
    before: indexStats(0, (q, x) => pcDist(q, x) <= CHOSEN),
    window_threshold: CHOSEN_WINDOW,
    window_band_radius: Math.floor(CHOSEN_WINDOW / BAND_BITS.length),
    with_windows: indexStats(CHOSEN_WINDOW, matchesChosen),
    // The other window thresholds the sweep weighs (the band radius is floor(w / 3)).
    with_windows_at: Object.fromEntries([6, 8, 9, 10].map((w) => [w, indexStats(w, (q, x) => pcDist(q, x) <= CHOSEN || wDist(q, x) <= w)])),
  },
  rates,
};
console.log(JSON.stringify({ ...results, rates: undefined }, null, 1));
writeFileSync(join(ROOT, DECODE === "full" ? "test/bench/photo-hash-results-full.json" : "test/bench/photo-hash-results.json"), JSON.stringify(results, null, 1) + "\n");
