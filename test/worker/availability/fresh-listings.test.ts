/** Fresh listings (docs/decisions/015): the cron, links and confirm, the price check and response time. */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { responseTimeBucket } from "../../../worker/contract/users";
import { runHousekeeping } from "../../../worker/services/housekeeping";
import { signAccessToken, signAvailabilityToken, signSocketTicket } from "../../../worker/services/tokens";
import { adminLogin, api, authed, drainQueues, insertListing, json, post, type Session, signUp } from "../helpers";

const DAY = 86_400_000;
const HOUR = 3_600_000;
const NOW = Date.now();
const ago = (days: number) => new Date(NOW - days * DAY).toISOString();

let owner: Session;
let other: Session;

beforeAll(async () => {
  owner = await signUp("fresh-owner@ufl.edu");
  other = await signUp("fresh-other@ufl.edu");
});

const mails = async (to: string) => (await json<{ data: { subject: string; text: string }[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent(to)}`))).data;
const statusOf = async (id: string) =>
  (await env.DB.prepare("SELECT status, availability_confirmed_at AS confirmed, availability_asked_at AS asked FROM listings WHERE id = ?").bind(id).first<{
    status: string;
    confirmed: string | null;
    asked: string | null;
  }>())!;
// These reads must see a change made a moment ago by the cron, raw SQL or another tab: they ask for an
// answer not taken from the edge cache (other visitors see it within 90 s; docs/decisions/016).
const uncached = { headers: { "cache-control": "no-cache" } };
const browseIds = async () => (await json<{ data: { id: string }[] }>(await api("/api/v1/subleases?limit=100", uncached))).data.map((l) => l.id);
/** The token of an emailed link: in the fragment (#token=), which browsers never send to a server. */
const linkOf = (text: string, label: string) => {
  const m = new RegExp(`${label}: (\\S+)`).exec(text);
  const url = new URL(m![1]!);
  expect(url.search).toBe("");
  return new URLSearchParams(url.hash.slice(1)).get("token")!;
};
const check = (token: string) => post("/api/v1/availability/check", { token });

describe("the freshness cron", () => {
  it("asks once at 14 days (two runs, one email) with two links, and pauses at 21 days", async () => {
    await insertListing(owner.user.id, "fr1", { title: "Sunny 2x2", availability_confirmed_at: ago(13.9) });
    await runHousekeeping(env, NOW);
    await drainQueues();
    expect((await mails(owner.user.email)).filter((m) => m.subject === "Is Sunny 2x2 still available?")).toHaveLength(0);

    await env.DB.prepare("UPDATE listings SET availability_confirmed_at = ? WHERE id = 'fr1'").bind(ago(14)).run();
    const first = await runHousekeeping(env, NOW);
    await drainQueues();
    const second = await runHousekeeping(env, NOW + 60_000);
    await drainQueues();
    expect(first.availabilityAsked).toBe(1);
    expect(second.availabilityAsked).toBe(0);
    const asked = (await mails(owner.user.email)).filter((m) => m.subject === "Is Sunny 2x2 still available?");
    expect(asked).toHaveLength(1);
    expect(asked[0]!.text).toContain("Still available: http");
    expect(asked[0]!.text).toContain("Taken: http");
    expect((await statusOf("fr1")).status).toBe("available");

    // 20.9 days: still live; 21 days: paused, gone from browse, and shown to its owner as unconfirmed.
    await runHousekeeping(env, NOW + 6.9 * DAY);
    await drainQueues();
    expect((await statusOf("fr1")).status).toBe("available");
    expect(await browseIds()).toContain("fr1");
    const paused = await runHousekeeping(env, NOW + 7 * DAY);
    await drainQueues();
    expect(paused.listingsPaused).toBe(1);
    expect((await statusOf("fr1")).status).toBe("paused");
    expect(await browseIds()).not.toContain("fr1");
    expect((await api("/api/v1/subleases/fr1")).status).toBe(404);
    const own = await json<{ data: { id: string; status: string }[] }>(await api("/api/v1/users/listings?include_unavailable=true", authed(owner.access_token)));
    expect(own.data.find((l) => l.id === "fr1")?.status).toBe("paused");

    // The "still available" link brings it back, confirmed now.
    const token = linkOf(asked[0]!.text, "Still available");
    const res = await post("/api/v1/availability/confirm", { token });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ action: "available", listing_id: "fr1", title: "Sunny 2x2", status: "available", applied: true });
    expect(await browseIds()).toContain("fr1");
    const detail = await json<{ data: { availability_confirmed_at: string } }>(await api("/api/v1/subleases/fr1"));
    expect(Date.now() - Date.parse(detail.data.availability_confirmed_at)).toBeLessThan(60_000);
  });

  it("never asks about pending, hidden or taken listings, and never pauses one whose owner was not asked", async () => {
    await insertListing(owner.user.id, "fr2", { verification_status: "pending", availability_confirmed_at: ago(30) });
    await insertListing(owner.user.id, "fr3", { moderation_status: "hidden", availability_confirmed_at: ago(30) });
    await insertListing(owner.user.id, "fr4", { status: "taken", availability_confirmed_at: ago(30) });
    await runHousekeeping(env, NOW);
    await drainQueues();
    expect((await statusOf("fr2")).status).toBe("available");
    expect((await statusOf("fr2")).asked).toBeNull();
    expect((await statusOf("fr3")).status).toBe("available");
    expect((await statusOf("fr4")).status).toBe("taken");
  });
});

describe("availability links", () => {
  const secret = () => env.JWT_SECRET;
  const ttl = 7 * 86_400;

  it("check (token in the body) changes nothing; a taken link needs confirm; no token in an API URL", async () => {
    await insertListing(owner.user.id, "fl1", { title: "Quiet studio", availability_confirmed_at: ago(1) });
    const token = await signAvailabilityToken(secret(), { listingId: "fl1", ownerId: owner.user.id, action: "taken" }, ttl);
    const checked = await check(token);
    expect(checked.status).toBe(200);
    expect(await json(checked)).toMatchObject({ action: "taken", title: "Quiet studio", status: "available", applied: false });
    // The old shape (a 30-day token in the query string, kept by request logs) is gone.
    const old = await api(`/api/v1/availability/check?token=${encodeURIComponent(token)}`);
    expect(old.status).toBe(404);
    expect(await json(old)).toEqual({ detail: expect.any(String) });
    expect((await statusOf("fl1")).status).toBe("available");
    const res = await post("/api/v1/availability/confirm", { token });
    expect(await json(res)).toMatchObject({ action: "taken", status: "taken", applied: true });
    expect((await statusOf("fl1")).status).toBe("taken");
    // A "still available" link cannot revive a taken place: 409 with a readable detail.
    const back = await signAvailabilityToken(secret(), { listingId: "fl1", ownerId: owner.user.id, action: "available" }, ttl);
    const refused = await post("/api/v1/availability/confirm", { token: back });
    expect(refused.status).toBe(409);
    expect((await json<{ detail: string }>(refused)).detail).toMatch(/not available/);
  });

  it("a taken link leaves an owner-hidden listing as it is, and a suspended owner's links stop working", async () => {
    const hider = await signUp("fresh-hider@ufl.edu");
    await insertListing(hider.user.id, "fl-hidden", { title: "Hidden loft", status: "hidden", availability_confirmed_at: ago(1) });
    const taken = await signAvailabilityToken(secret(), { listingId: "fl-hidden", ownerId: hider.user.id, action: "taken" }, ttl);
    await post("/api/v1/availability/confirm", { token: taken });
    expect((await statusOf("fl-hidden")).status).toBe("hidden");

    await insertListing(hider.user.id, "fl-susp", { title: "Suspended owner's room", availability_confirmed_at: ago(1) });
    await env.DB.prepare("UPDATE users SET suspended_at = ? WHERE id = ?").bind(ago(0), hider.user.id).run();
    const link = await signAvailabilityToken(secret(), { listingId: "fl-susp", ownerId: hider.user.id, action: "taken" }, ttl);
    const refused = await post("/api/v1/availability/confirm", { token: link });
    expect(refused.status).toBe(403);
    expect((await json<{ detail: string }>(refused)).detail).toBe("Your account is suspended. Contact support.");
    expect((await statusOf("fl-susp")).status).toBe("available");
  });

  it("refuses expired, tampered, wrong-kind and other-owner tokens with 400, and a missing token with 422", async () => {
    await insertListing(owner.user.id, "fl2", { availability_confirmed_at: ago(1) });
    const good = await signAvailabilityToken(secret(), { listingId: "fl2", ownerId: owner.user.id, action: "available" }, ttl);
    const expired = await signAvailabilityToken(secret(), { listingId: "fl2", ownerId: owner.user.id, action: "available" }, ttl, Date.now() - 8 * DAY);
    const [head, payload, sig] = good.split(".");
    const tampered = `${head}.${btoa(atob(payload!.replace(/-/g, "+").replace(/_/g, "/")).replace('"available"', '"taken"')).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_")}.${sig}`;
    const wrongKind = [await signAccessToken(secret(), owner.user.id), await signSocketTicket(secret(), owner.user.id, 60)];
    const notTheOwner = await signAvailabilityToken(secret(), { listingId: "fl2", ownerId: other.user.id, action: "taken" }, ttl);
    const otherListing = await signAvailabilityToken(secret(), { listingId: "no-such-listing", ownerId: owner.user.id, action: "taken" }, ttl);
    const foreignSecret = await signAvailabilityToken("another-secret-that-is-long-enough-0123456789", { listingId: "fl2", ownerId: owner.user.id, action: "taken" }, ttl);
    for (const token of [expired, tampered, ...wrongKind, notTheOwner, otherListing, foreignSecret]) {
      const res = await post("/api/v1/availability/confirm", { token });
      expect(res.status).toBe(400);
      expect((await json<{ detail: string }>(res)).detail).toBe("This link has expired or is not valid.");
      expect((await check(token)).status).toBe(400);
    }
    expect((await post("/api/v1/availability/confirm", {})).status).toBe(422);
    expect((await post("/api/v1/availability/check", {})).status).toBe(422);
    expect((await statusOf("fl2")).status).toBe("available");
    expect((await post("/api/v1/availability/confirm", { token: good })).status).toBe(200);
  });
});

describe("confirm availability (owner)", () => {
  it("only the owner confirms; a paused listing comes back to browse; taken is 409", async () => {
    await insertListing(owner.user.id, "fc1", { status: "paused", availability_confirmed_at: ago(25) });
    await insertListing(owner.user.id, "fc2", { status: "taken", availability_confirmed_at: ago(25) });
    expect(await browseIds()).not.toContain("fc1");
    // Someone else: the paused listing is not theirs to see (404); a public one is not theirs to edit (403).
    expect((await api("/api/v1/subleases/fc1/confirm-availability", authed(other.access_token, { method: "POST" }))).status).toBe(404);
    await insertListing(owner.user.id, "fc3", { availability_confirmed_at: ago(5) });
    expect((await api("/api/v1/subleases/fc3/confirm-availability", authed(other.access_token, { method: "POST" }))).status).toBe(403);
    expect((await api("/api/v1/subleases/fc1/confirm-availability", { method: "POST" })).status).toBe(401);

    const res = await api("/api/v1/subleases/fc1/confirm-availability", authed(owner.access_token, { method: "POST" }));
    expect(res.status).toBe(200);
    expect((await json<{ data: { status: string } }>(res)).data.status).toBe("available");
    expect(await browseIds()).toContain("fc1");
    const taken = await api("/api/v1/subleases/fc2/confirm-availability", authed(owner.access_token, { method: "POST" }));
    expect(taken.status).toBe(409);
    expect((await json<{ detail: string }>(taken)).detail).toMatch(/available or paused/);
  });

  it("the owner's PATCH cannot set paused, and marking available confirms", async () => {
    await insertListing(owner.user.id, "fc4", { status: "taken", availability_confirmed_at: ago(40) });
    const bad = await api("/api/v1/subleases/fc4", authed(owner.access_token, { method: "PATCH", body: JSON.stringify({ status: "paused" }), headers: { "content-type": "application/json" } }));
    expect(bad.status).toBe(422);
    const ok = await api("/api/v1/subleases/fc4", authed(owner.access_token, { method: "PATCH", body: JSON.stringify({ status: "available" }), headers: { "content-type": "application/json" } }));
    expect(ok.status).toBe(200);
    expect(Date.now() - Date.parse((await statusOf("fc4")).confirmed!)).toBeLessThan(60_000);
  });
});

describe("price check", () => {
  const detail = async (id: string) => (await json<{ data: { rent_below_typical: boolean } }>(await api(`/api/v1/subleases/${id}`, uncached))).data;
  let adminToken: string;
  beforeAll(async () => {
    adminToken = await adminLogin();
  });
  const adminListing = async (id: string) =>
    (await json<{ listings: { id: string; rent_check_median: number | null }[] }>(await api("/api/v1/admin/listings", authed(adminToken)))).listings.find((l) => l.id === id)!;

  it("needs 5 comparables; strictly below half the median; the listing itself is left out", async () => {
    // University 2, studios: comparables 1000, 1000, 1200, 1400 (4) -> no verdict.
    for (const [i, rent] of [1000, 1000, 1200, 1400].entries()) await insertListing(owner.user.id, `pc${i}`, { university_id: 2, unit_type: "studio", monthly_rent: rent });
    await insertListing(owner.user.id, "pcx", { university_id: 2, unit_type: "studio", monthly_rent: 100 });
    // A pending and another unit type never count.
    await insertListing(owner.user.id, "pcp", { university_id: 2, unit_type: "studio", monthly_rent: 5000, verification_status: "pending" });
    await insertListing(owner.user.id, "pco", { university_id: 2, unit_type: "1x1", monthly_rent: 5000 });
    expect((await detail("pcx")).rent_below_typical).toBe(false);
    expect((await adminListing("pcx")).rent_check_median).toBeNull();

    // A fifth comparable: 1000, 1000, 1200, 1400, 1600 -> median 1200; half is 600.
    await insertListing(owner.user.id, "pc5", { university_id: 2, unit_type: "studio", monthly_rent: 1600 });
    expect((await detail("pcx")).rent_below_typical).toBe(true);
    expect((await adminListing("pcx")).rent_check_median).toBe(1200);
    // Exactly half is not below.
    await env.DB.prepare("UPDATE listings SET monthly_rent = 600 WHERE id = 'pcx'").run();
    expect((await detail("pcx")).rent_below_typical).toBe(false);
    expect((await adminListing("pcx")).rent_check_median).toBeNull();
    await env.DB.prepare("UPDATE listings SET monthly_rent = 599 WHERE id = 'pcx'").run();
    expect((await detail("pcx")).rent_below_typical).toBe(true);
    expect((await adminListing("pcx")).rent_check_median).toBe(1200);
    // A normal rent of the group has no flag (its own row left out: 1000, 1000, 1200, 1400, 599 -> 1000).
    expect((await detail("pc5")).rent_below_typical).toBe(false);
    // Staff's list of pending listings is checked too (a pending listing's comparables are all 6 approved ones).
    await insertListing(owner.user.id, "pcq", { university_id: 2, unit_type: "studio", monthly_rent: 300, verification_status: "pending" });
    const pending = await json<{ listings: { id: string; rent_check_median: number | null }[] }>(await api("/api/v1/admin/listings/pending", authed(adminToken)));
    expect(pending.listings.find((l) => l.id === "pcq")?.rent_check_median).toBe(1100);
  });
});

describe("response time", () => {
  /** A conversation created `daysAgo` where `first` wrote first and `replier` answered `replyMs` later (or never). */
  async function conversation(id: string, first: string, replier: string, daysAgo: number, replyMs: number | null) {
    const created = new Date(Date.now() - daysAgo * DAY);
    const [a, b] = first < replier ? [first, replier] : [replier, first];
    await env.DB.prepare("INSERT INTO conversations (id, user_a, user_b, created_at) VALUES (?, ?, ?, ?)").bind(id, a, b, created.toISOString()).run();
    await env.DB.prepare("INSERT INTO messages (id, conversation_id, sender_id, text, created_at) VALUES (?, ?, ?, 'Hi', ?)").bind(`${id}-m1`, id, first, created.toISOString()).run();
    if (replyMs !== null) {
      await env.DB.prepare("INSERT INTO messages (id, conversation_id, sender_id, text, created_at) VALUES (?, ?, ?, 'Hello', ?)")
        .bind(`${id}-m2`, id, replier, new Date(created.getTime() + replyMs).toISOString())
        .run();
    }
  }
  const responseTime = async (id: string) => (await json<{ data: { response_time: string | null } }>(await api(`/api/v1/users/${id}`))).data.response_time;

  it("needs 3 replied conversations of the last 30 days where the other person wrote first", async () => {
    const host = await signUp("fresh-host@ufl.edu");
    const people = await Promise.all(["rt1", "rt2", "rt3", "rt4", "rt5", "rt6"].map((n) => signUp(`fresh-${n}@ufl.edu`)));
    await conversation("rc1", people[0]!.user.id, host.user.id, 2, 30 * 60_000);
    await conversation("rc2", people[1]!.user.id, host.user.id, 3, 50 * 60_000);
    // Left out: the host wrote first; too old; never replied.
    await conversation("rc3", host.user.id, people[2]!.user.id, 1, 60_000);
    await conversation("rc4", people[3]!.user.id, host.user.id, 31, 60_000);
    await conversation("rc5", people[4]!.user.id, host.user.id, 1, null);
    expect(await responseTime(host.user.id)).toBeNull();
    await conversation("rc6", people[5]!.user.id, host.user.id, 4, 5 * HOUR);
    // Delays 30 min, 50 min, 5 h: median 50 min.
    expect(await responseTime(host.user.id)).toBe("hour");
  });

  it("buckets the median at 1 h, 6 h and 24 h", () => {
    expect(responseTimeBucket(HOUR)).toBe("hour");
    expect(responseTimeBucket(HOUR + 1)).toBe("hours");
    expect(responseTimeBucket(6 * HOUR)).toBe("hours");
    expect(responseTimeBucket(6 * HOUR + 1)).toBe("day");
    expect(responseTimeBucket(24 * HOUR)).toBe("day");
    expect(responseTimeBucket(24 * HOUR + 1)).toBeNull();
    expect(responseTimeBucket(null)).toBeNull();
  });
});

describe("dev routes", () => {
  it("age a listing's confirmation and run the housekeeping at a given time", async () => {
    await insertListing(owner.user.id, "fd1", { availability_confirmed_at: new Date().toISOString() });
    const aged = await post("/api/v1/dev/listings/fd1/age-availability", { days: 22 });
    expect(aged.status).toBe(200);
    const run = await post("/api/v1/dev/housekeeping", {});
    expect(run.status).toBe(200);
    expect((await statusOf("fd1")).status).toBe("paused");
    expect((await post("/api/v1/dev/listings/nope/age-availability", { days: 1 })).status).toBe(404);
  });
});
