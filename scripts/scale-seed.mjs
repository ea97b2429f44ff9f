#!/usr/bin/env node
/**
 * `npm run seed:scale`: a market-sized database on the running development server (docs/decisions/038).
 * Calls `POST /api/v1/dev/scale-seed` (20,000 listings over every university, 10,000 users, 2,000
 * conversations of 5 messages, deals in every state, by default); a repeat adds nothing. Start the server
 * first (`npm start`, which also seeds the demo photos the synthetic listings reuse by key).
 *
 * The seed goes in steps (`seedStep`): each call brings users and listings up to a share of their counts,
 * and the last one adds the conversations, their messages and the deals. One call holding all 20,000
 * listings is restarted by `wrangler dev` before it ends; a step is a few seconds.
 *
 * Environment: PORT (8787) or SCALE_SEED_URL (the server's origin); SCALE_LISTINGS, SCALE_USERS,
 * SCALE_CONVERSATIONS, SCALE_MESSAGES (per conversation) to seed other counts; SCALE_STEPS (10). Every
 * synthetic account's password is `scale-seed-password` (`scale-user-0@scale.campusnest.dev`, ...).
 */
import { pathToFileURL } from "node:url";

export const DEFAULT_COUNTS = { listings: 20_000, users: 10_000, conversations: 2_000, messages_per_conversation: 5 };

/**
 * Step `step` of `steps` toward `counts`: users and listings up to their share; conversations (and with
 * them messages and deals) only in the last step, once every user they pair exists.
 */
export function seedStep(counts, step, steps) {
  const share = (n) => Math.ceil((n * step) / steps);
  return {
    users: share(counts.users),
    listings: share(counts.listings),
    conversations: step === steps ? counts.conversations : 0,
    messages_per_conversation: counts.messages_per_conversation,
  };
}

async function main() {
  const origin = process.env.SCALE_SEED_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8787}`;
  const env = (name, fallback) => (process.env[name] === undefined ? fallback : Number(process.env[name]));
  const counts = {
    listings: env("SCALE_LISTINGS", DEFAULT_COUNTS.listings),
    users: env("SCALE_USERS", DEFAULT_COUNTS.users),
    conversations: env("SCALE_CONVERSATIONS", DEFAULT_COUNTS.conversations),
    messages_per_conversation: env("SCALE_MESSAGES", DEFAULT_COUNTS.messages_per_conversation),
  };
  const steps = Math.max(1, env("SCALE_STEPS", 10));
  const started = Date.now();
  let answer;
  for (let step = 1; step <= steps; step++) {
    let res;
    try {
      res = await fetch(`${origin}/api/v1/dev/scale-seed`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(seedStep(counts, step, steps)) });
    } catch (err) {
      console.error(`No server at ${origin} (${err?.cause?.code ?? err}): start it with \`npm start\` (or set PORT).`);
      process.exit(1);
    }
    const body = await res.text();
    if (!res.ok) {
      console.error(`scale-seed (step ${step} of ${steps}) answered ${res.status}: ${body}`);
      process.exit(1);
    }
    answer = JSON.parse(body);
    console.log(`step ${step} of ${steps}: ${answer.users} users, ${answer.listings} listings, ${answer.conversations} conversations`);
  }
  const { users, listings, conversations, messages, deals } = answer;
  console.log(`Scale seed at ${origin} in ${((Date.now() - started) / 1000).toFixed(1)} s:`, { users, listings, conversations, messages, deals });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
