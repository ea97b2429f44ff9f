import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../../worker/index";
import { drainQueues } from "../helpers";

const DAY = 86_400_000;
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

describe("the cron trigger", () => {
  it("removes expired codes and dead refresh tokens and ends lapsed promotions, leaving live rows", async () => {
    await env.DB.batch([
      env.DB.prepare("INSERT INTO users (id, email, first_name, last_name) VALUES ('u1', 'u1@x.edu', 'U', 'One')"),
      env.DB.prepare(
        "INSERT INTO email_codes (id, email, purpose, code_hash, expires_at) VALUES ('old', 'a@x.edu', 'verify_email', 'h', ?), ('live', 'a@x.edu', 'verify_email', 'h', ?)",
      ).bind(iso(-2 * DAY), iso(10 * 60_000)),
      env.DB.prepare(
        `INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, expires_at, revoked_at) VALUES
         ('expired', 'u1', 'f1', 'h1', ?, NULL), ('revoked', 'u1', 'f2', 'h2', ?, ?), ('live', 'u1', 'f3', 'h3', ?, NULL)`,
      ).bind(iso(-DAY), iso(DAY), iso(-60_000), iso(DAY)),
      env.DB.prepare(
        `INSERT INTO listings (id, user_id, university_id, title, description, unit_type, address, monthly_rent, lease_term,
           promotion_start, promotion_end, promotion_source, auto_renew) VALUES
         ('lapsed', 'u1', 1, 't', 'd', 'studio', 'a', 900, 'fall', ?, ?, 'admin', 0),
         ('renewing', 'u1', 1, 't', 'd', 'studio', 'a', 900, 'fall', ?, ?, 'stripe', 1),
         ('running', 'u1', 1, 't', 'd', 'studio', 'a', 900, 'fall', ?, ?, 'admin', 0)`,
      ).bind(iso(-8 * DAY), iso(-DAY), iso(-8 * DAY), iso(-DAY), iso(-DAY), iso(6 * DAY)),
    ]);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "*/15 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    await drainQueues();

    const codes = await env.DB.prepare("SELECT id FROM email_codes").all<{ id: string }>();
    expect(codes.results.map((r) => r.id)).toEqual(["live"]);
    const tokens = await env.DB.prepare("SELECT id FROM refresh_tokens").all<{ id: string }>();
    expect(tokens.results.map((r) => r.id)).toEqual(["live"]);
    const promos = await env.DB.prepare("SELECT id, promotion_end FROM listings ORDER BY id").all<{
      id: string;
      promotion_end: string | null;
    }>();
    expect(Object.fromEntries(promos.results.map((r) => [r.id, r.promotion_end !== null]))).toEqual({
      lapsed: false,
      renewing: true,
      running: true,
    });
  });
});
