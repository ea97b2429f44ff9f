#!/usr/bin/env node
/**
 * `npm run seed:scale`: a market-sized database on the running development server (docs/decisions/038).
 * Calls `POST /api/v1/dev/scale-seed` (20,000 listings over every university, 10,000 users, 2,000
 * conversations of 5 messages, deals in every state, by default); a repeat adds nothing. Start the server
 * first (`npm start`, which also seeds the demo photos the synthetic listings reuse by key).
 *
 * Environment: PORT (8787) or SCALE_SEED_URL (the server's origin); SCALE_LISTINGS, SCALE_USERS,
 * SCALE_CONVERSATIONS, SCALE_MESSAGES (per conversation) to seed other counts. Every synthetic account's
 * password is `scale-seed-password` (`scale-user-0@scale.campusnest.dev`, ...).
 */
const origin = process.env.SCALE_SEED_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8787}`;
const counts = Object.fromEntries(
  [
    ["listings", "SCALE_LISTINGS"],
    ["users", "SCALE_USERS"],
    ["conversations", "SCALE_CONVERSATIONS"],
    ["messages_per_conversation", "SCALE_MESSAGES"],
  ]
    .filter(([, name]) => process.env[name] !== undefined)
    .map(([key, name]) => [key, Number(process.env[name])]),
);

const started = Date.now();
let res;
try {
  res = await fetch(`${origin}/api/v1/dev/scale-seed`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(counts) });
} catch (err) {
  console.error(`No server at ${origin} (${err?.cause?.code ?? err}): start it with \`npm start\` (or set PORT).`);
  process.exit(1);
}
const body = await res.text();
if (!res.ok) {
  console.error(`scale-seed answered ${res.status}: ${body}`);
  process.exit(1);
}
console.log(`Scale seed at ${origin} in ${((Date.now() - started) / 1000).toFixed(1)} s:`, JSON.parse(body));
