/**
 * The scale seed (docs/decisions/038): synthetic rows brought up to the counts asked, over every
 * university, with the demo photos reused by key and deals in every state; repeating adds nothing.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DEAL_STATUSES } from "../../../worker/contract/deals";
import { JPEG_1x1, json, post } from "../helpers";

type Seeded = { users: number; listings: number; conversations: number; messages: number; deals: number; added: Record<string, number>; photo_keys: number };
const seed = async (body: unknown) => {
  const res = await post("/api/v1/dev/scale-seed", body);
  return { status: res.status, body: await json<Seeded & { detail?: string }>(res) };
};
const one = async <T>(sql: string) => (await env.DB.prepare(sql).first<T>())!;

describe("POST dev/scale-seed", () => {
  it("brings the synthetic rows up to the counts, over every university, and a repeat adds nothing", async () => {
    const data = btoa(String.fromCharCode(...JPEG_1x1));
    expect((await post("/api/v1/dev/seed", { photos: ["01-bedroom.jpg", "04-exterior.jpg"].map((name) => ({ name, data })) })).status).toBe(201);
    const counts = { listings: 400, users: 420, conversations: 40, messages_per_conversation: 3 };
    const first = await seed(counts);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ listings: 400, users: 420, conversations: 40, messages: 120, deals: DEAL_STATUSES.length * 3, photo_keys: 2 });
    const again = await seed(counts);
    expect(again.body).toMatchObject({ listings: 400, users: 420, conversations: 40, messages: 120, added: { users: 0, listings: 0, conversations: 0, messages: 0, deals: 0 } });

    // Every university has listings; a share is pending, rejected, promoted; dates vary.
    const universities = await one<{ n: number }>("SELECT count(*) AS n FROM universities");
    expect(await one<{ n: number }>("SELECT count(DISTINCT university_id) AS n FROM listings WHERE id LIKE 'scl%'")).toEqual({ n: universities.n });
    const share = (await env.DB.prepare("SELECT verification_status AS s, count(*) AS n FROM listings WHERE id LIKE 'scl%' GROUP BY 1").all<{ s: string; n: number }>()).results;
    expect(share.map((r) => r.s).sort()).toEqual(["approved", "pending", "rejected"]);
    expect((await one<{ n: number }>("SELECT count(*) AS n FROM listings WHERE id LIKE 'scl%' AND promotion_end IS NOT NULL")).n).toBeGreaterThan(0);
    expect((await one<{ n: number }>("SELECT count(DISTINCT available_from) AS n FROM listings WHERE id LIKE 'scl%'")).n).toBeGreaterThan(3);
    // Photos: the demo's, by key (no new files).
    const keys = (await env.DB.prepare("SELECT DISTINCT key FROM listing_photos WHERE listing_id LIKE 'scl%'").all<{ key: string }>()).results.map((r) => r.key);
    const demoKeys = (await env.DB.prepare("SELECT DISTINCT key FROM listing_photos WHERE listing_id NOT LIKE 'scl%'").all<{ key: string }>()).results.map((r) => r.key);
    expect(keys.sort()).toEqual(demoKeys.sort());
    // Deals in every state, on conversations of their pair; each conversation shows its last message.
    const states = (await env.DB.prepare("SELECT DISTINCT status FROM deals").all<{ status: string }>()).results.map((r) => r.status);
    expect(states.sort()).toEqual([...DEAL_STATUSES].sort());
    expect((await one<{ n: number }>("SELECT count(*) AS n FROM conversations WHERE id LIKE 'scl%' AND last_message_at IS NULL")).n).toBe(0);
    // Synthetic accounts sign in with the seed's password.
    expect((await post("/api/v1/auth/login", { email: "scale-user-3@scale.campusnest.dev", password: "scale-seed-password" })).status).toBe(200);

    // More messages per conversation tops every conversation up.
    expect((await seed({ ...counts, messages_per_conversation: 4 })).body).toMatchObject({ messages: 160, added: { messages: 40 } });
  });

  it("refuses counts it cannot make: listings without users, past its bounds (422)", async () => {
    expect((await seed({ listings: 10, users: 0, conversations: 0 })).status).toBe(422);
    expect((await seed({ listings: 100_001 })).status).toBe(422);
    expect((await seed({ users: -1 })).status).toBe(422);
    expect((await seed({ messages_per_conversation: 1.5 })).status).toBe(422);
  });
});
