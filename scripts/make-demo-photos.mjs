#!/usr/bin/env node
/**
 * Renders the demo listing photos shipped in scripts/demo-photos/ (run once; the JPEGs are committed).
 * Each photo is an SVG scene (bedroom, living room, kitchen, building exterior) with its own palette,
 * rendered by headless Chromium: no network, no third-party images, no licences to track. Each is kept
 * apart from the other demo owners' photos by the copied-photo check's own hash, with a margin.
 * Usage: npm run make-demo-photos   (CHROMIUM_PATH overrides /usr/bin/chromium)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { chromium } from "playwright-core";

// The copied-photo check's own hash (worker/lib/photo-hash.ts, decisions 028, 036), to keep demo owners' photos apart.
const hashDir = mkdtempSync(join(tmpdir(), "demo-photo-hash-"));
await build({ entryPoints: [fileURLToPath(new URL("../worker/lib/photo-hash.ts", import.meta.url))], bundle: true, format: "esm", platform: "node", outfile: join(hashDir, "photo-hash.mjs"), logLevel: "error" });
const { decodeScaled, hashPixels, hammingDistance } = await import(pathToFileURL(join(hashDir, "photo-hash.mjs")).href);
rmSync(hashDir, { recursive: true, force: true });

const OUT = new URL("./demo-photos/", import.meta.url);
const W = 1200, H = 800;

let seed = 20261122;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = (a) => a[Math.floor(rand() * a.length)];
const between = (a, b) => a + rand() * (b - a);

const walls = ["#e9e4da", "#dfe7e4", "#ece3d3", "#e4e1ea", "#f1ece4", "#d9e2ea", "#efe6dc", "#e2ddd2"];
const accents = ["#3d5a80", "#9c6644", "#5f7a61", "#8d5b75", "#c08a3e", "#4a6d7c", "#7b6d8d", "#b5574b"];
const woods = ["#b08968", "#9c7a5b", "#c9a27e", "#8a6a4f", "#d2b48c", "#a47551"];

function defs() {
  return `<defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#8fb8de"/><stop offset="1" stop-color="#dcecf7"/></linearGradient>
    <linearGradient id="shade" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#000" stop-opacity="0.10"/><stop offset="1" stop-color="#000" stop-opacity="0"/></linearGradient>
    <linearGradient id="floorShade" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#000" stop-opacity="0.18"/><stop offset="1" stop-color="#000" stop-opacity="0"/></linearGradient>
    <radialGradient id="light" cx="0.3" cy="0.25" r="0.8"><stop offset="0" stop-color="#fff" stop-opacity="0.35"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>
    <filter id="soft"><feGaussianBlur stdDeviation="6"/></filter>
    <filter id="grain"><feTurbulence type="fractalNoise" baseFrequency="0.9" numOctaves="2" result="n"/><feColorMatrix type="saturate" values="0"/><feComponentTransfer><feFuncA type="table" tableValues="0 0.06"/></feComponentTransfer><feBlend in="SourceGraphic" mode="multiply"/></filter>
  </defs>`;
}

/** Room shell in one-point perspective: back wall, side walls, ceiling and a plank floor. */
function room(wall, wood) {
  const bx = 260, by = 150, bw = 680, bh = 420; // back wall
  let planks = "";
  for (let i = -12; i <= 12; i++) {
    const x0 = bx + bw / 2 + i * 28, x1 = W / 2 + i * 95;
    planks += `<line x1="${x0}" y1="${by + bh}" x2="${x1}" y2="${H}" stroke="#000" stroke-opacity="0.12" stroke-width="2"/>`;
  }
  return `
    <rect width="${W}" height="${H}" fill="${wall}"/>
    <polygon points="0,0 ${bx},${by} ${bx},${by + bh} 0,${H}" fill="${wall}" style="filter:brightness(0.88)"/>
    <polygon points="${W},0 ${bx + bw},${by} ${bx + bw},${by + bh} ${W},${H}" fill="${wall}" style="filter:brightness(0.93)"/>
    <polygon points="0,0 ${W},0 ${bx + bw},${by} ${bx},${by}" fill="#f7f5f0"/>
    <polygon points="${bx},${by + bh} ${bx + bw},${by + bh} ${W},${H} 0,${H}" fill="${wood}"/>
    ${planks}
    <polygon points="${bx},${by + bh} ${bx + bw},${by + bh} ${W},${H} 0,${H}" fill="url(#floorShade)"/>
    <rect x="${bx}" y="${by + bh - 14}" width="${bw}" height="14" fill="#fff" opacity="0.7"/>`;
}

function windowOn(x, y, w, h) {
  return `<rect x="${x - 10}" y="${y - 10}" width="${w + 20}" height="${h + 20}" fill="#fbfbf8"/>
    <rect x="${x}" y="${y}" width="${w}" height="${h}" fill="url(#sky)"/>
    <ellipse cx="${x + w * 0.3}" cy="${y + h * 0.8}" rx="${w * 0.35}" ry="${h * 0.25}" fill="#7fa36b" opacity="0.8"/>
    <ellipse cx="${x + w * 0.8}" cy="${y + h * 0.85}" rx="${w * 0.3}" ry="${h * 0.2}" fill="#6b8f5a" opacity="0.8"/>
    <rect x="${x + w / 2 - 4}" y="${y}" width="8" height="${h}" fill="#fbfbf8"/>
    <rect x="${x}" y="${y + h / 2 - 4}" width="${w}" height="8" fill="#fbfbf8"/>
    <polygon points="${x},${y + h} ${x + w},${y + h} ${x + w + 160},${y + h + 330} ${x - 60},${y + h + 330}" fill="#fff" opacity="0.10"/>`;
}

function plant(x, y, s = 1) {
  return `<g transform="translate(${x},${y}) scale(${s})">
    <ellipse cx="0" cy="-70" rx="45" ry="60" fill="#4f7942"/><ellipse cx="-28" cy="-50" rx="30" ry="40" fill="#5e8c4f"/><ellipse cx="30" cy="-45" rx="28" ry="38" fill="#3f6b35"/>
    <path d="M-28,-10 L28,-10 L20,40 L-20,40 Z" fill="#c8a27a"/></g>`;
}

function art(x, y, w, h, color) {
  return `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="#2b2b2b"/><rect x="${x + 8}" y="${y + 8}" width="${w - 16}" height="${h - 16}" fill="#f4f1ea"/>
    <circle cx="${x + w * 0.4}" cy="${y + h * 0.45}" r="${Math.min(w, h) * 0.22}" fill="${color}" opacity="0.85"/>
    <rect x="${x + w * 0.45}" y="${y + h * 0.5}" width="${w * 0.3}" height="${h * 0.25}" fill="${pick(accents)}" opacity="0.7"/>`;
}

function bedroom() {
  const wall = pick(walls), wood = pick(woods), accent = pick(accents);
  return room(wall, wood) + windowOn(330, 210, 200, 170) + art(640, 215, 190, 130, pick(accents)) + `
    <ellipse cx="600" cy="745" rx="420" ry="40" fill="#000" opacity="0.15" filter="url(#soft)"/>
    <rect x="520" y="410" width="430" height="150" rx="10" fill="${pick(woods)}" style="filter:brightness(0.8)"/>
    <rect x="380" y="520" width="560" height="160" rx="14" fill="#f5f3ee"/>
    <rect x="380" y="600" width="560" height="110" rx="12" fill="${accent}"/>
    <rect x="420" y="480" width="170" height="70" rx="30" fill="#fff"/><rect x="610" y="480" width="170" height="70" rx="30" fill="#fff"/>
    <rect x="380" y="700" width="560" height="22" fill="${pick(woods)}" style="filter:brightness(0.7)"/>
    <rect x="980" y="560" width="110" height="110" fill="${pick(woods)}"/><rect x="1010" y="500" width="50" height="60" fill="#f3e3c3"/><rect x="1030" y="560" width="10" height="0"/>
    ${plant(170, 690, 1.2)}`;
}

function living() {
  const wall = pick(walls), wood = pick(woods), sofa = pick(accents);
  return room(wall, wood) + windowOn(700, 200, 210, 180) + art(330, 230, 240, 150, pick(accents)) + `
    <ellipse cx="560" cy="720" rx="380" ry="70" fill="${pick(["#d8cfc0", "#c9d3cf", "#d6c3b3", "#bfc7d6"])}"/>
    <rect x="250" y="470" width="520" height="110" rx="30" fill="${sofa}"/>
    <rect x="230" y="540" width="560" height="120" rx="24" fill="${sofa}" style="filter:brightness(0.9)"/>
    <rect x="230" y="520" width="70" height="150" rx="24" fill="${sofa}" style="filter:brightness(0.8)"/>
    <rect x="720" y="520" width="70" height="150" rx="24" fill="${sofa}" style="filter:brightness(0.8)"/>
    <rect x="330" y="500" width="120" height="80" rx="20" fill="#f1ebe1"/><rect x="560" y="500" width="120" height="80" rx="20" fill="${pick(accents)}" opacity="0.8"/>
    <rect x="390" y="690" width="300" height="22" rx="6" fill="${pick(woods)}" style="filter:brightness(0.75)"/>
    <rect x="410" y="712" width="12" height="50" fill="#333"/><rect x="660" y="712" width="12" height="50" fill="#333"/>
    <rect x="1000" y="300" width="8" height="400" fill="#333"/><path d="M960,300 L1050,300 L1030,240 L980,240 Z" fill="#f3e3c3"/>
    ${plant(920, 700, 1.1)}`;
}

function kitchen() {
  const wall = pick(walls), wood = pick(woods), cab = pick(["#f4f4f2", "#dfe6e9", "#2f3e46", "#7a8b74", "#c9b79c"]);
  let tiles = "";
  for (let x = 260; x < 940; x += 34) for (let y = 330; y < 440; y += 22) tiles += `<rect x="${x}" y="${y}" width="32" height="20" fill="#fff" opacity="0.55"/>`;
  return room(wall, wood) + tiles + `
    <rect x="260" y="160" width="680" height="160" fill="${cab}"/>
    ${[0, 1, 2, 3, 4].map((i) => `<rect x="${270 + i * 135}" y="170" width="125" height="140" fill="${cab}" stroke="#000" stroke-opacity="0.15"/><rect x="${322 + i * 135}" y="290" width="24" height="6" fill="#888"/>`).join("")}
    <rect x="240" y="440" width="720" height="30" fill="#e8e4de"/>
    <rect x="250" y="470" width="700" height="110" fill="${cab}"/>
    ${[0, 1, 2, 3].map((i) => `<rect x="${260 + i * 172}" y="480" width="162" height="90" fill="${cab}" stroke="#000" stroke-opacity="0.15"/><rect x="${330 + i * 172}" y="490" width="24" height="6" fill="#888"/>`).join("")}
    <rect x="600" y="360" width="8" height="80" fill="#aaa"/><path d="M604,360 q0,-30 40,-30" stroke="#aaa" stroke-width="8" fill="none"/>
    <rect x="380" y="395" width="110" height="45" rx="6" fill="#444"/>
    <rect x="420" y="620" width="360" height="28" rx="6" fill="${pick(woods)}"/>
    <rect x="440" y="648" width="12" height="110" fill="#333"/><rect x="748" y="648" width="12" height="110" fill="#333"/>
    <circle cx="520" cy="605" r="18" fill="#e9c46a"/><circle cx="560" cy="610" r="14" fill="#e76f51"/><circle cx="545" cy="598" r="12" fill="#8ab17d"/>
    ${plant(1050, 700, 1)}`;
}

function exterior() {
  const brick = pick(["#b5654a", "#c9b8a6", "#8e9aa6", "#d8c3a5", "#a26d5b", "#e3dccf"]);
  const trim = pick(["#ffffff", "#2f3e46", "#f1f1f1"]);
  const floors = 3 + Math.floor(rand() * 3);
  const fh = 420 / floors;
  let win = "";
  for (let f = 0; f < floors; f++)
    for (let c = 0; c < 7; c++) {
      const x = 225 + c * 110, y = 160 + f * fh + 18;
      win += `<rect x="${x}" y="${y}" width="70" height="${fh - 45}" fill="${trim}"/><rect x="${x + 5}" y="${y + 5}" width="60" height="${fh - 55}" fill="#6f8fa8"/><rect x="${x + 5}" y="${y + 5}" width="60" height="${(fh - 55) / 2}" fill="#9fbad0" opacity="0.7"/>`;
    }
  return `<rect width="${W}" height="${H}" fill="url(#sky)"/>
    <ellipse cx="${between(150, 1050)}" cy="90" rx="120" ry="30" fill="#fff" opacity="0.7"/>
    <rect x="0" y="600" width="${W}" height="200" fill="#7da15f"/>
    <rect x="200" y="140" width="800" height="460" fill="${brick}"/>
    <rect x="190" y="125" width="820" height="20" fill="${trim}"/>
    ${win}
    <rect x="555" y="520" width="90" height="80" fill="#3b3b3b"/><rect x="540" y="505" width="120" height="15" fill="${trim}"/>
    <rect x="450" y="600" width="300" height="200" fill="#cfcac0"/>
    <circle cx="110" cy="470" r="120" fill="#4f7942"/><rect x="100" y="520" width="20" height="110" fill="#6b4f3a"/>
    <circle cx="1100" cy="480" r="110" fill="#3f6b35"/><rect x="1090" y="530" width="20" height="100" fill="#6b4f3a"/>
    <rect x="0" y="690" width="${W}" height="110" fill="#8a8a8a" opacity="0.5"/>`;
}

/**
 * Where each photo is taken from: its own zoom, pan and tilt. Without it every room of a kind is one
 * composition in other colours, which the copied-photo check (docs/decisions/028) rightly calls the
 * same picture; demo owners must each have photos of their own.
 */
function camera() {
  const zoom = between(1.25, 1.9);
  const tx = -between(0, W * (zoom - 1)), ty = -between(0, H * (zoom - 1));
  return `translate(${tx.toFixed(1)},${ty.toFixed(1)}) scale(${zoom.toFixed(3)}) rotate(${between(-7, 7).toFixed(1)},${W / 2},${H / 2})`;
}

/**
 * Photo N goes to the ((N - 1) mod OWNERS)-th verified demo owner (worker/db/seed/seed.ts). A photo is drawn
 * again (another camera and palette) until it is at least MARGIN bits further than the check's thresholds
 * (pHash with centre 10, windows 7) from every other owner's photo, so the seed never flags itself.
 */
const OWNERS = 10;
const MARGIN = 3;
const made = [];
const d = hammingDistance;
const near = (q, x) =>
  Math.min(d(q.phash, x.phash), d(q.phashMirror, x.phash), d(q.phash, x.phashCentre), d(q.phashMirror, x.phashCentre), d(q.phashCentre, x.phash), d(q.phashCentreMirror, x.phash)) <= 10 + MARGIN ||
  Math.min(...q.phashWindows.map((h) => d(h, x.phash)), ...x.phashWindows.slice(0, 8).flatMap((h) => [d(q.phash, h), d(q.phashMirror, h)])) <= 7 + MARGIN;

const scenes = [bedroom, living, kitchen, exterior];
mkdirSync(OUT, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage({ viewport: { width: W, height: H } });
const count = Number(process.env.DEMO_PHOTO_COUNT || 32);
for (let i = 0; i < count; i++) {
  const scene = scenes[i % scenes.length];
  let svg, photo, hash;
  for (let attempt = 0; ; attempt++) {
    svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${defs()}<g filter="url(#grain)"><g transform="${camera()}">${scene()}</g></g><rect width="${W}" height="${H}" fill="url(#light)"/></svg>`;
    await page.setContent(`<html><body style="margin:0">${svg}</body></html>`);
    photo = await page.screenshot({ type: "jpeg", quality: 72 });
    hash = hashPixels(await decodeScaled(new Uint8Array(photo)));
    if (!made.some((m) => m.owner !== i % OWNERS && near(hash, m.hash))) break;
    if (attempt === 50) throw new Error(`photo ${i + 1}: no camera keeps it apart from the other owners' photos`);
  }
  made.push({ owner: i % OWNERS, hash });
  const name = `${String(i + 1).padStart(2, "0")}-${scene.name}`;
  writeFileSync(new URL(`${name}.jpg`, OUT), photo);
  // The card thumbnail (480x320), as the listing form makes for uploaded photos.
  await page.setViewportSize({ width: 480, height: 320 });
  await page.evaluate(() => document.querySelector("svg")?.setAttribute("width", "480") ?? null);
  await page.evaluate(() => document.querySelector("svg")?.setAttribute("height", "320") ?? null);
  writeFileSync(new URL(`${name}.thumb.jpg`, OUT), await page.screenshot({ type: "jpeg", quality: 70 }));
  await page.setViewportSize({ width: W, height: H });
}
await browser.close();
console.log(`wrote ${count} photos to ${OUT.pathname}`);
