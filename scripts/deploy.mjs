#!/usr/bin/env node
/**
 * `npm run deploy`: build the SPA, apply D1 migrations to the remote database, deploy the worker.
 * Needs `wrangler login` (or CLOUDFLARE_API_TOKEN), the database_id in wrangler.toml and the
 * secrets set with `wrangler secret put` (see README, "Deploy to Cloudflare").
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "./lib/server.mjs";

function run(command, args) {
  console.log(`\n$ ${command} ${args.join(" ")}`);
  const result = spawnSync(join(ROOT, "node_modules", ".bin", command), args, { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run("vite", ["build"]);
run("wrangler", ["d1", "migrations", "apply", "DB", "--remote", "-c", "wrangler.toml"]);
run("wrangler", ["deploy", "-c", "wrangler.toml"]);
