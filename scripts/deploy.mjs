#!/usr/bin/env node
/**
 * `npm run deploy`: build the SPA, apply D1 migrations to the remote database, deploy the worker.
 * Needs `wrangler login` (or CLOUDFLARE_API_TOKEN), the database_id in wrangler.toml and the
 * secrets set with `wrangler secret put` (see README, "Deploy to Cloudflare"). With STRIPE_PRICE_ID in
 * the environment (and STRIPE_SECRET_KEY to read it), it first refuses a price that differs from the plan.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "./lib/server.mjs";
import { promotionPriceProblem } from "./lib/promotion-price.mjs";

function run(command, args) {
  console.log(`\n$ ${command} ${args.join(" ")}`);
  const result = spawnSync(join(ROOT, "node_modules", ".bin", command), args, { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const priceProblem = await promotionPriceProblem({
  priceId: process.env.STRIPE_PRICE_ID?.trim(),
  secretKey: process.env.STRIPE_SECRET_KEY?.trim(),
  apiHost: process.env.STRIPE_API_HOST,
  apiPort: process.env.STRIPE_API_PORT,
  apiProtocol: process.env.STRIPE_API_PROTOCOL,
});
if (priceProblem) {
  console.error(`\nDeploy refused: ${priceProblem}`);
  process.exit(1);
}

run("vite", ["build"]);
run("wrangler", ["d1", "migrations", "apply", "DB", "--remote", "-c", "wrangler.toml"]);
run("wrangler", ["deploy", "-c", "wrangler.toml"]);
