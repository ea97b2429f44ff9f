/**
 * Reviews after a released deal (api-contract "Reviews and condition reports"; docs/decisions/040): the
 * window opened by the release, once per party, hidden from the other party until both wrote or the window
 * ended (the deal jobs' timer), a stranger refused, the reply once, reports to staff's queue, staff's
 * audited hide, the summaries on the user and the listing, the scam shield, an author's deleted account,
 * and two reviews (or a review and the reveal) at once.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { REVIEW_TIMING } from "../../../worker/contract/reviews";
import { createDb } from "../../../worker/db/client";
import { transition } from "../../../worker/services/deals/process";
import { adminLogin, api, authed, dealRow, insertParty, insertSignedDeal, json, post } from "../helpers";

const DAY = 86_400_000;
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);

type Party = { id: string; token: string };
let admin: string;

beforeAll(async () => {
  admin = await adminLogin();
});

/** A disputed deal that staff's resolution releases through the engine (the review window opens there). */
async function releasedDeal(renter: Party, lister: Party, releasedAt = Date.now()) {
  const { dealId, listingId } = await insertSignedDeal(renter.id, lister.id, {
    moveIn: date(releasedAt - 20 * DAY),
    moveOut: date(releasedAt + 60 * DAY),
    listing: { from: "2020-01-01", to: "2040-12-31" },
    status: "disputed",
  });
  await env.DB.prepare("UPDATE deals SET payment_status = 'disputed', paid_cents = 94500, paid_rent_cents = 90000, case_reason = 'problem', problem_kind = 'other' WHERE id = ?").bind(dealId).run();
  await transition(createDb(env), null, dealId, "resolve", { role: "staff" }, () => ({ set: { status: "released", payment_status: "released", case_reason: null } }), releasedAt);
  return { dealId, listingId };
}

const write = (token: string, dealId: string, body: unknown) => api(`/api/v1/deals/${dealId}/review`, authed(token, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } }));
const reviewsOf = (userId: string, token?: string) => api(`/api/v1/users/${userId}/reviews`, token ? authed(token) : {});
const tick = (at: number) => post("/api/v1/dev/deals/tick", { now: new Date(at).toISOString() });

describe("reviews of a released deal", () => {
  it("each party once; neither sees the other's before both wrote; both revealed together with the summaries", async () => {
    const [renter, lister, stranger] = await Promise.all([insertParty("Rae"), insertParty("Lou"), insertParty("Sid")]);
    const { dealId, listingId } = await releasedDeal(renter, lister);
    const opened = await dealRow(dealId);
    expect(opened!.review_window_ends_at).toBeTruthy();

    // A stranger cannot review, nor read the deal's reviews.
    expect((await write(stranger.token, dealId, { rating: 1, text: "Never met them" })).status).toBe(404);
    expect((await api(`/api/v1/deals/${dealId}/reviews`, authed(stranger.token))).status).toBe(404);
    // Bad input: a clear 422.
    const bad = await write(renter.token, dealId, { rating: 6, text: "" });
    expect(bad.status).toBe(422);

    const first = await write(renter.token, dealId, { rating: 5, text: "Exactly as described, keys on time." });
    expect(first.status).toBe(201);
    const mine = (await json<{ data: { id: string; role: string; author: { id: string }; revealed_at: string | null } }>(first)).data;
    expect(mine).toMatchObject({ role: "renter", author: { id: renter.id }, revealed_at: null });
    expect((await write(renter.token, dealId, { rating: 4, text: "Again" })).status).toBe(409);

    // Before the reveal: the author reads their own, the reviewed party and the public nothing.
    expect((await json<{ data: { id: string }[] }>(await reviewsOf(lister.id, renter.token))).data.map((r) => r.id)).toEqual([mine.id]);
    expect((await json<{ data: unknown[] }>(await reviewsOf(lister.id, lister.token))).data).toEqual([]);
    expect((await json<{ data: unknown[]; summary: { count: number } }>(await reviewsOf(lister.id))).summary.count).toBe(0);
    const listerView = (await json<{ data: { theirs: unknown; theirs_written: boolean; mine: unknown } }>(await api(`/api/v1/deals/${dealId}/reviews`, authed(lister.token)))).data;
    expect(listerView).toMatchObject({ theirs: null, theirs_written: true, mine: null });

    // The second review reveals both.
    expect((await write(lister.token, dealId, { rating: 4, text: "Paid on time and left it clean." })).status).toBe(201);
    const page = await json<{ data: { role: string; rating: number; revealed_at: string | null }[]; summary: { count: number; average: number } }>(await reviewsOf(lister.id));
    expect(page.data).toHaveLength(1);
    expect(page.data[0]).toMatchObject({ role: "renter", rating: 5 });
    expect(page.data[0]!.revealed_at).toBeTruthy();
    expect(page.summary).toEqual({ count: 1, average: 5 });
    const user = await json<{ data: { review_summary: unknown; renter_review_summary: unknown } }>(await api(`/api/v1/users/${renter.id}`));
    expect(user.data).toMatchObject({ review_summary: { count: 0, average: 0 }, renter_review_summary: { count: 1, average: 4 } });
    await env.DB.prepare("UPDATE listings SET verification_status = 'approved', status = 'available' WHERE id = ?").bind(listingId).run();
    const listing = await json<{ data: { review_summary: unknown } }>(await api(`/api/v1/subleases/${listingId}`, authed(lister.token)));
    expect(listing.data.review_summary).toEqual({ count: 1, average: 5 });

    // The reply: the reviewed person, once; the author cannot.
    const reply = (token: string) => api(`/api/v1/reviews/${mine.id}/reply`, authed(token, { method: "POST", body: JSON.stringify({ text: "Thank you!" }), headers: { "content-type": "application/json" } }));
    expect((await reply(renter.token)).status).toBe(403);
    expect((await reply(stranger.token)).status).toBe(403);
    const replied = await reply(lister.token);
    expect(replied.status).toBe(201);
    expect((await json<{ data: { reply: { text: string } } }>(replied)).data.reply.text).toBe("Thank you!");
    expect((await reply(lister.token)).status).toBe(409);
  });

  it("the window: closed 14 days after the release; the jobs invite, remind and reveal what was written", async () => {
    const [renter, lister] = await Promise.all([insertParty("Ria"), insertParty("Len")]);
    const releasedAt = Date.now() - 15 * DAY;
    const { dealId } = await releasedDeal(renter, lister, releasedAt);
    // The invite and the reminder are due; the jobs send each once.
    const first = await json<{ data: { review_invites: number; review_reminders: number; reviews_revealed: number } }>(await tick(releasedAt + DAY));
    expect(first.data.review_invites).toBeGreaterThanOrEqual(1);
    expect((await dealRow(dealId))!.review_invite_due_at).toBeNull();
    // A review written (through the engine, at a time inside the window) is hidden until the window ends.
    const db = createDb(env);
    const { writeReview } = await import("../../../worker/services/deals/reviews");
    const fx = { env, config: { publicBaseUrl: "http://localhost" } as never, defer: () => undefined };
    await writeReview(db, fx, { id: renter.id }, dealId, { rating: 3, text: "Fine, a bit noisy." }, { ip: null, userAgent: null }, releasedAt + 2 * DAY);
    expect((await json<{ data: unknown[] }>(await reviewsOf(lister.id))).data).toHaveLength(0);
    // Now (15 days on) it is too late to write.
    const late = await write(lister.token, dealId, { rating: 5, text: "Too late" });
    expect(late.status).toBe(409);
    expect((await json<{ detail: string }>(late)).detail).toMatch(/14 days/);
    await tick(releasedAt + REVIEW_TIMING.windowMs - REVIEW_TIMING.reminderBeforeEndMs + 1000);
    expect((await dealRow(dealId))!.review_reminder_due_at).toBeNull();
    await tick(releasedAt + REVIEW_TIMING.windowMs + 1000);
    const after = await dealRow(dealId);
    expect(after!.reviews_revealed_at).toBeTruthy();
    expect((await json<{ data: { rating: number }[] }>(await reviewsOf(lister.id))).data.map((r) => r.rating)).toEqual([3]);
  });

  it("a deal refunded after a problem has no reviews", async () => {
    const [renter, lister] = await Promise.all([insertParty("Rox"), insertParty("Lev")]);
    const { dealId } = await insertSignedDeal(renter.id, lister.id, { status: "refunded" });
    const res = await write(renter.token, dealId, { rating: 1, text: "Never got in" });
    expect(res.status).toBe(409);
  });

  it("two reviews at once: both land, and both are revealed", async () => {
    const [renter, lister] = await Promise.all([insertParty("Rue"), insertParty("Lex")]);
    const { dealId } = await releasedDeal(renter, lister);
    const [a, b] = await Promise.all([write(renter.token, dealId, { rating: 5, text: "Great" }), write(lister.token, dealId, { rating: 4, text: "Good" })]);
    expect([a.status, b.status]).toEqual([201, 201]);
    const row = await dealRow(dealId);
    expect(row!.reviews_revealed_at).toBeTruthy();
    const revealed = await env.DB.prepare("SELECT count(*) AS n FROM reviews WHERE deal_id = ? AND revealed_at IS NOT NULL").bind(dealId).first<{ n: number }>();
    expect(revealed!.n).toBe(2);
  });

  it("a review racing the window's reveal: it is either revealed with it or refused, never left hidden", async () => {
    const [renter, lister] = await Promise.all([insertParty("Rin"), insertParty("Lyn")]);
    const releasedAt = Date.now() - REVIEW_TIMING.windowMs + 2000;
    const { dealId } = await releasedDeal(renter, lister, releasedAt);
    const [res] = await Promise.all([write(renter.token, dealId, { rating: 5, text: "Just in time" }), tick(Date.now() + 5000)]);
    await tick(releasedAt + REVIEW_TIMING.windowMs + 1);
    const row = await env.DB.prepare("SELECT revealed_at FROM reviews WHERE deal_id = ?").bind(dealId).first<{ revealed_at: string | null }>();
    if (res.status === 201) expect(row!.revealed_at).toBeTruthy();
    else expect(row).toBeNull();
  });

  it("reports go to staff's queue; staff hide with a reason (audited), and the summary follows; the shield flags off-platform payment", async () => {
    const [renter, lister, reader] = await Promise.all([insertParty("Rho"), insertParty("Lia"), insertParty("Ray")]);
    const { dealId } = await releasedDeal(renter, lister);
    await write(lister.token, dealId, { rating: 2, text: "Next time pay me on Zelle instead, send the deposit to my cashapp $lia" });
    const res = await write(renter.token, dealId, { rating: 1, text: "Rude." });
    const review = (await json<{ data: { id: string } }>(res)).data;
    const flagged = await json<{ reviews: { role: string; flags: string[] }[] }>(await api("/api/v1/admin/reviews?status=queue", authed(admin)));
    expect(flagged.reviews.find((r) => r.role === "lister" && r.flags.length > 0)).toBeTruthy();

    const report = (token: string) => api(`/api/v1/reviews/${review.id}/report`, authed(token, { method: "POST", body: JSON.stringify({ reason: "Not true" }), headers: { "content-type": "application/json" } }));
    expect((await report(reader.token)).status).toBe(201);
    expect((await report(reader.token)).status).toBe(409);
    expect((await api(`/api/v1/reviews/${review.id}/report`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } })).status).toBe(401);
    const queue = await json<{ reviews: { id: string; reports: { reason: string }[] }[] }>(await api("/api/v1/admin/reviews", authed(admin)));
    expect(queue.reviews.find((r) => r.id === review.id)?.reports).toEqual([{ reason: "Not true", created_at: expect.any(String) }]);

    const before = await json<{ summary: { count: number } }>(await api(`/api/v1/users/${lister.id}/reviews?role=renter`));
    expect(before.summary.count).toBe(1);
    // Staff only, with a reason.
    expect((await api(`/api/v1/admin/reviews/${review.id}/hide`, authed(renter.token, { method: "POST", body: JSON.stringify({ reason: "x" }), headers: { "content-type": "application/json" } }))).status).toBe(401);
    expect((await api(`/api/v1/admin/reviews/${review.id}/hide`, authed(admin, { method: "POST", body: JSON.stringify({}), headers: { "content-type": "application/json" } }))).status).toBe(422);
    const hidden = await api(`/api/v1/admin/reviews/${review.id}/hide`, authed(admin, { method: "POST", body: JSON.stringify({ reason: "Personal attack" }), headers: { "content-type": "application/json" } }));
    expect(hidden.status).toBe(200);
    const after = await json<{ data: unknown[]; summary: { count: number } }>(await api(`/api/v1/users/${lister.id}/reviews?role=renter`));
    expect(after).toMatchObject({ data: [], summary: { count: 0 } });
    const audit = await env.DB.prepare("SELECT details FROM admin_audit WHERE action = 'review_hide' AND target_id = ?").bind(review.id).first<{ details: string }>();
    expect(JSON.parse(audit!.details)).toEqual({ reason: "Personal attack" });
  });

  it("an account that deletes itself keeps its reviews, the author shown as Former user", async () => {
    const [renter, lister] = await Promise.all([insertParty("Ren"), insertParty("Lan")]);
    const { dealId } = await releasedDeal(renter, lister);
    await write(renter.token, dealId, { rating: 4, text: "Nice place" });
    await write(lister.token, dealId, { rating: 5, text: "Great renter" });
    expect((await api("/api/v1/users/profile", authed(renter.token, { method: "DELETE" }))).status).toBe(204);
    const page = await json<{ data: { author: { id: string | null; first_name: string }; text: string }[] }>(await reviewsOf(lister.id));
    expect(page.data).toEqual([expect.objectContaining({ author: { id: null, first_name: "Former user" }, text: "Nice place" })]);
  });
});
