/**
 * Starting the whole product locally, shared by `npm start`, `npm run dev`, the browser tests and
 * the benchmarks: .dev.vars, the SPA build, D1 migrations, `wrangler dev` (or Vite), demo data.
 * Everything runs offline: no Cloudflare account, no Request.cf fetch, no telemetry.
 */
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateVapidKeys } from "./vapid.mjs";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export const OFFLINE_ENV = {
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_LOG: process.env.WRANGLER_LOG ?? "warn",
  // wrangler asks before applying migrations unless it thinks it is in CI.
  CI: "true",
};

/** @param {string} [root] the checkout (another one: the bench's previous-release comparison) */
export function ensureDevVars(root = ROOT) {
  const target = join(root, ".dev.vars");
  if (!existsSync(target)) {
    copyFileSync(join(root, ".dev.vars.example"), target);
    console.log("Created .dev.vars from .dev.vars.example (development defaults).");
  }
  // Web push needs a key pair of this checkout's own (docs/decisions/027): made once, never committed.
  const vars = readFileSync(target, "utf8");
  if (!/^VAPID_PRIVATE_KEY=\S/m.test(vars)) {
    const keys = generateVapidKeys();
    const kept = vars.replace(/^VAPID_(PUBLIC|PRIVATE)_KEY=.*\n?/gm, "");
    writeFileSync(target, `${kept.endsWith("\n") ? kept : `${kept}\n`}VAPID_PUBLIC_KEY=${keys.publicKey}\nVAPID_PRIVATE_KEY=${keys.privateKey}\n`);
    console.log("Added a development VAPID key pair to .dev.vars.");
  }
}

function run(command, args, root = ROOT) {
  const result = spawnSync(join(root, "node_modules", ".bin", command), args, {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ...OFFLINE_ENV },
  });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed with exit code ${result.status}`);
}

/** @param {string} [root] */
export function buildSpa(root = ROOT) {
  run("vite", ["build", "--logLevel", "warn"], root);
}

/** @param {string} [persistTo] @param {string} [root] */
export function applyMigrations(persistTo, root = ROOT) {
  const args = ["d1", "migrations", "apply", "DB", "--local", "-c", "wrangler.toml"];
  if (persistTo) args.push("--persist-to", persistTo);
  run("wrangler", args, root);
}

/**
 * Starts `wrangler dev` (or `vite dev` with the Cloudflare plugin) in its own process group.
 * @param {{ port?: number, persistTo?: string, dev?: boolean, vars?: Record<string, string>, config?: string, root?: string }} [options]
 */
export function spawnServer({ port = 8787, persistTo, dev = false, vars = {}, config = "wrangler.toml", root = ROOT } = {}) {
  const env = { ...process.env, ...OFFLINE_ENV };
  delete env.CI; // let wrangler show its interactive dev UI when a person runs it
  let command, args;
  if (dev) {
    command = "vite";
    args = ["dev", "--port", String(port), "--strictPort"];
  } else {
    command = "wrangler";
    args = ["dev", "-c", config, "--port", String(port), "--ip", "127.0.0.1", "--show-interactive-dev-session=false"];
    if (persistTo) args.push("--persist-to", persistTo);
    for (const [name, value] of Object.entries(vars)) args.push("--var", `${name}:${value}`);
  }
  const child = spawn(join(root, "node_modules", ".bin", command), args, {
    cwd: root,
    env,
    stdio: ["ignore", "inherit", "inherit"],
    detached: true, // own process group: stopping it stops workerd too
  });
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
  };
  return { child, stop };
}

export async function waitForHealth(baseUrl, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let lastError = "no answer";
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) return;
      lastError = `status ${res.status}`;
    } catch (err) {
      lastError = String(err?.cause?.code ?? err);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Server at ${baseUrl} did not become healthy: ${lastError}`);
}

/** Seeds the demo marketplace through the dev-only route (a no-op when users already exist), with `root`'s photos. */
export async function seedDemoData(baseUrl, root = ROOT) {
  const dir = join(root, "scripts", "demo-photos");
  const photos = readdirSync(dir)
    .filter((name) => name.endsWith(".jpg"))
    .sort()
    .map((name) => ({ name, data: readFileSync(join(dir, name)).toString("base64") }));
  const res = await fetch(`${baseUrl}/api/v1/dev/seed`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ photos }),
  });
  if (!res.ok) throw new Error(`Seeding failed: ${res.status} ${await res.text()}`);
  return res.json();
}
