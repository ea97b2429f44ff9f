/**
 * Deals (api-contract "Deals", docs/decisions/026): the request in the conversation, the lister's
 * answer, cancellation, the reservation, expiry, what ends open deals, authorization, and races
 * (every change is one compare-and-set: two taps or two parties at once end in one valid state).
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { adminLogin, api, authed, connect, insertListing, json, open, post, type Session, signUp, ticketOf } from "../helpers";
import { localDate, requestSummary, startOfDate } from "../../../worker/contract/deals";
import { publicAddress as publicAddressOf } from "../../../worker/contract/address";

interface DealJson {
  id: string;
  status: string;
  status_reason: string | null;
  address: string;
  monthly_rent: number;
  move_in: string;
  move_out: string;
  listing_id: string | null;
  renter: { id: string };
  lister: { id: string };
  agreement: { version: number; sha256: string } | null;
  landlord_consent: { status: string };
  payment: { rent_cents: number; fee_cents: number; total_cents: number; status: string };
}

const call = (s: Session, path: string, method = "GET", body?: unknown, headers: Record<string, string> = {}) =>
  api(path, authed(s.access_token, { method, ...(body !== undefined && { body: JSON.stringify(body) }), headers: { "content-type": "application/json", ...headers } }));

const request = (s: Session, listing_id: string, move_in = "2027-01-05", move_out = "2027-05-20", headers: Record<string, string> = {}) =>
  call(s, "/api/v1/deals", "POST", { listing_id, move_in, move_out }, headers);

let seq = 0;
async function people() {
  const n = ++seq;
  const lister = await signUp(`lister${n}@deals.test`, "secret-pass-1", { first_name: "Lena", last_name: "Lister" });
  const renter = await signUp(`renter${n}@deals.test`, "secret-pass-1", { first_name: "René", last_name: "Renter" });
  const listingId = `dl${n}`;
  await insertListing(lister.user.id, listingId, { address: "221 Bleecker St, Apt 4B, New York, NY 10012", available_from: "2027-01-01", available_to: "2027-06-30", monthly_rent: 1200 });
  return { lister, renter, listingId };
}

const dealRow = (id: string) => env.DB.prepare("SELECT * FROM deals WHERE id = ?").bind(id).first<Record<string, unknown>>();
const eventsOf = async (id: string) => (await env.DB.prepare("SELECT type FROM deal_events WHERE deal_id = ? ORDER BY at, id").bind(id).all<{ type: string }>()).results.map((e) => e.type);

describe("a request", () => {
  it("creates a requested deal and a deal card in the pair's conversation, which the lister then sees", async () => {
    const { lister, renter, listingId } = await people();
    const res = await request(renter, listingId);
    expect(res.status).toBe(201);
    const { data } = await json<{ data: DealJson }>(res);
    expect(data).toMatchObject({ status: "requested", listing_id: listingId, move_in: "2027-01-05", move_out: "2027-05-20", monthly_rent: 1200, agreement: null, landlord_consent: { status: "none" } });
    // Before acceptance: the street and area only.
    expect(data.address).toBe("Bleecker St, New York, NY 10012");
    // First payment: one month's rent plus the 5 % fee.
    expect(data.payment).toMatchObject({ status: "none", rent_cents: 120000, fee_cents: 6000, total_cents: 126000 });

    const convs = await json<{ data: { id: string; participant_id: string; latest_message_preview: string }[] }>(await call(lister, "/api/v1/messages/conversations"));
    const conv = convs.data.find((c) => c.participant_id === renter.user.id)!;
    expect(conv.latest_message_preview).toBe("Sublease request: Jan 5 - May 20, 2027");
    const { messages } = await json<{ messages: { kind: string; deal_id: string; text: string; safety_notice: boolean }[] }>(await call(lister, `/api/v1/messages/conversations/${conv.id}/messages`));
    expect(messages[0]).toMatchObject({ kind: "deal", deal_id: data.id, text: requestSummary("2027-01-05", "2027-05-20"), safety_notice: false });
    // The scam shield never scores it.
    const flags = await env.DB.prepare("SELECT safety_flags FROM messages WHERE deal_id = ?").bind(data.id).first<{ safety_flags: string | null }>();
    expect(flags?.safety_flags).toBeNull();
    // The lister is emailed.
    const mail = await json<{ data: { subject: string }[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent(lister.user.email)}`));
    expect(mail.data[0]?.subject).toContain("Sublease request");
  });

  it("answers the same renter's open deal for the same stay again (200), and honours Idempotency-Key", async () => {
    const { renter, listingId } = await people();
    const first = await json<{ data: DealJson }>(await request(renter, listingId, "2027-02-01", "2027-03-01", { "Idempotency-Key": "k-1" }));
    const again = await request(renter, listingId, "2027-02-01", "2027-03-01");
    expect(again.status).toBe(200);
    expect((await json<{ data: DealJson }>(again)).data.id).toBe(first.data.id);
    const replay = await request(renter, listingId, "2027-02-01", "2027-03-01", { "Idempotency-Key": "k-1" });
    expect(replay.status).toBe(200);
    const reused = await request(renter, listingId, "2027-03-01", "2027-04-01", { "Idempotency-Key": "k-1" });
    expect(reused.status).toBe(422);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM deals WHERE renter_id = ?").bind(renter.user.id).first<{ n: number }>();
    expect(count?.n).toBe(1);
  });

  it("two taps at once make one deal and one card", async () => {
    const { renter, listingId } = await people();
    const [a, b] = await Promise.all([request(renter, listingId, "2027-02-01", "2027-04-01"), request(renter, listingId, "2027-02-01", "2027-04-01")]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    const [da, db] = [await json<{ data: DealJson }>(a), await json<{ data: DealJson }>(b)];
    expect(da.data.id).toBe(db.data.id);
    const cards = await env.DB.prepare("SELECT count(*) AS n FROM messages WHERE kind = 'deal' AND deal_id = ?").bind(da.data.id).first<{ n: number }>();
    expect(cards?.n).toBe(1);
  });

  it("refuses bad input with a readable 4xx and writes nothing", async () => {
    const { lister, renter, listingId } = await people();
    const cases: [unknown, number, RegExp][] = [
      [{ listing_id: listingId, move_in: "2027-05-01", move_out: "2027-04-01" }, 422, /after/],
      [{ listing_id: listingId, move_in: "2026-01-01", move_out: "2026-02-01" }, 422, /past/],
      [{ listing_id: listingId, move_in: "2026-12-20", move_out: "2027-02-01" }, 422, /available from/],
      [{ listing_id: listingId, move_in: "2027-05-01", move_out: "2027-07-15" }, 422, /available until/],
      [{ listing_id: listingId, move_in: "2027-13-01", move_out: "2027-07-15" }, 422, /date/],
      [{ listing_id: "nope", move_in: "2027-02-01", move_out: "2027-03-01" }, 404, /not found/i],
      [{ move_in: "2027-02-01" }, 422, /listing_id/],
    ];
    for (const [body, status, detail] of cases) {
      const res = await call(renter, "/api/v1/deals", "POST", body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect((await json<{ detail: string }>(res)).detail).toMatch(detail);
    }
    // The lister cannot request their own listing: 403 (signed in, allowed nothing here).
    const own = await request(lister, listingId);
    expect(own.status).toBe(403);
    expect((await json<{ detail: string }>(own)).detail).toMatch(/own listing/);
    // A hidden or pending listing is not one the renter can see: 404.
    await insertListing(lister.user.id, `${listingId}p`, { verification_status: "pending", available_from: "2027-01-01", available_to: "2027-06-30" });
    expect((await request(renter, `${listingId}p`)).status).toBe(404);
    await insertListing(lister.user.id, `${listingId}t`, { status: "taken", available_from: "2027-01-01", available_to: "2027-06-30" });
    expect((await request(renter, `${listingId}t`)).status).toBe(404);
    const n = await env.DB.prepare("SELECT (SELECT count(*) FROM deals WHERE renter_id = ?1) + (SELECT count(*) FROM messages WHERE sender_id = ?1) AS n").bind(renter.user.id).first<{ n: number }>();
    expect(n?.n).toBe(0);
  });

  it("refuses a party who blocked or was blocked (403), and needs a signed-in user (401)", async () => {
    const { lister, renter, listingId } = await people();
    expect((await post("/api/v1/deals", { listing_id: listingId, move_in: "2027-02-01", move_out: "2027-03-01" })).status).toBe(401);
    await call(lister, "/api/v1/users/blocks", "POST", { user_id: renter.user.id });
    const res = await request(renter, listingId);
    expect(res.status).toBe(403);
    expect((await json<{ detail: string }>(res)).detail).toMatch(/cannot make a deal/);
  });
});

describe("no flood", () => {
  it("a renter holds at most 5 open requests, even asked at once: the rest 429 with retry_after and nothing written; answering one frees a slot", async () => {
    const { lister, renter } = await people();
    const listings = Array.from({ length: 7 }, (_, i) => `${`flood${seq}`}-${i}`);
    for (const id of listings) await insertListing(lister.user.id, id, { available_from: "2027-01-01", available_to: "2027-06-30" });
    const answers = await Promise.all(listings.map((id) => request(renter, id, "2027-02-01", "2027-03-01")));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(5);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(2);
    const body = await json<{ detail: string; retry_after: number }>(refused[0]!);
    expect(body.detail).toMatch(/5 open requests/);
    expect(body.retry_after).toBeGreaterThan(60);
    const rows = await env.DB.prepare("SELECT (SELECT count(*) FROM deals WHERE renter_id = ?1) AS deals, (SELECT count(*) FROM messages WHERE sender_id = ?1 AND kind = 'deal') AS cards").bind(renter.user.id).first();
    expect(rows).toEqual({ deals: 5, cards: 5 });
    const open = (await json<{ data: DealJson[] }>(await call(renter, "/api/v1/deals"))).data;
    expect((await call(lister, `/api/v1/deals/${open[0]!.id}/decline`, "POST", {})).status).toBe(200);
    const freed = listings.find((id) => !open.some((d) => d.listing_id === id))!;
    expect((await request(renter, freed, "2027-02-01", "2027-03-01")).status).toBe(201);
  });

  it("a lister is emailed one request per renter and listing a day; the later ones arrive in the jobs' daily summary", async () => {
    const { lister, renter, listingId } = await people();
    const other = await signUp(`flood-other${seq}@deals.test`);
    const mails = async () => (await json<{ data: { subject: string; text: string }[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent(lister.user.email)}`))).data;
    const first = (await json<{ data: DealJson }>(await request(renter, listingId, "2027-01-05", "2027-01-20"))).data;
    await call(renter, `/api/v1/deals/${first.id}/cancel`, "POST", {});
    await request(renter, listingId, "2027-02-05", "2027-02-20");
    await request(renter, listingId, "2027-03-05", "2027-03-20");
    await request(other, listingId, "2027-04-05", "2027-04-20");
    const requests = (await mails()).filter((m) => m.subject.startsWith("Sublease request"));
    // One for the renter (the first), one for the other renter: the renter's two later requests wait.
    expect(requests).toHaveLength(2);
    expect((await mails()).some((m) => m.subject.includes("more sublease"))).toBe(false);
    const tick = async (at: number) => json<{ data: { request_summaries: number } }>(await post("/api/v1/dev/deals/tick", { now: new Date(at).toISOString() }));
    expect((await tick(Date.now())).data.request_summaries).toBeGreaterThanOrEqual(1);
    const summary = (await mails()).find((m) => m.subject === "2 more sublease requests on CampusNest");
    expect(summary?.text).toContain("Feb 5, 2027 to Feb 20, 2027");
    expect(summary?.text).toContain("Mar 5, 2027 to Mar 20, 2027");
    // Summed up once; a new batched request within the day waits for the next day's summary.
    await request(renter, listingId, "2027-05-05", "2027-05-20");
    await tick(Date.now());
    expect((await mails()).filter((m) => m.subject.includes("more sublease"))).toHaveLength(1);
    await tick(Date.now() + 86_400_000 + 60_000);
    expect((await mails()).filter((m) => m.subject.includes("more sublease"))).toHaveLength(2);
  });
});

describe("the lister's answer", () => {
  it("accept takes the snapshot (rent, fee, full address) and makes the first agreement; later listing edits do not change it", async () => {
    const { lister, renter, listingId } = await people();
    const { data } = await json<{ data: DealJson }>(await request(renter, listingId));
    // The renter cannot accept.
    const byRenter = await call(renter, `/api/v1/deals/${data.id}/accept`, "POST");
    expect(byRenter.status).toBe(403);
    const res = await call(lister, `/api/v1/deals/${data.id}/accept`, "POST");
    expect(res.status).toBe(200);
    const accepted = (await json<{ data: DealJson }>(res)).data;
    expect(accepted).toMatchObject({ status: "accepted", address: "221 Bleecker St, Apt 4B, New York, NY 10012", monthly_rent: 1200 });
    expect(accepted.agreement).toMatchObject({ version: 1 });
    expect(accepted.agreement!.sha256).toMatch(/^[0-9a-f]{64}$/);
    await env.DB.prepare("UPDATE listings SET monthly_rent = 2000, address = '9 Other Rd' WHERE id = ?").bind(listingId).run();
    const after = (await json<{ data: DealJson }>(await call(renter, `/api/v1/deals/${data.id}`))).data;
    expect(after).toMatchObject({ monthly_rent: 1200, address: "221 Bleecker St, Apt 4B, New York, NY 10012" });
    expect(after.payment.total_cents).toBe(126000);
    // Accepting twice: from the wrong state, 409.
    expect((await call(lister, `/api/v1/deals/${data.id}/accept`, "POST")).status).toBe(409);
    // An accepted deal unpaid expires when move-in day ends in the university's time zone (Alaska for university 1).
    const row = await dealRow(data.id);
    expect(row?.time_zone).toBe("America/Anchorage");
    expect(row?.expires_at).toBe(new Date(startOfDate("2027-01-06", "America/Anchorage")).toISOString());
    expect(row?.expires_at).toBe("2027-01-06T09:00:00.000Z");
  });

  it("every change reaches the conversation's room as {type: deal}, so both cards update live", async () => {
    const { lister, renter, listingId } = await people();
    const d = (await json<{ data: DealJson }>(await request(renter, listingId))).data;
    const conv = await env.DB.prepare("SELECT conversation_id FROM deals WHERE id = ?").bind(d.id).first<{ conversation_id: string }>();
    const socket = open(await connect(`/parties/conversation/${conv!.conversation_id}?token=${await ticketOf(renter)}`));
    await call(lister, `/api/v1/deals/${d.id}/accept`, "POST");
    const event = await socket.next();
    expect(event.type).toBe("deal");
    if (event.type === "deal") {
      // Each party's own view: the renter's actions and step are not the lister's.
      // Neither has verified their identity yet: each reads their own step first.
      expect(event.views[renter.user.id]).toMatchObject({ id: d.id, status: "accepted", address: "221 Bleecker St, Apt 4B, New York, NY 10012", actions: ["cancel"], waiting_for: { party: "renter", step: "id_verification" } });
      expect(event.views[lister.user.id]).toMatchObject({ id: d.id, status: "accepted", waiting_for: { party: "lister", step: "id_verification" } });
      expect(event.views[lister.user.id]!.actions).toEqual(expect.arrayContaining(["cancel", "landlord_consent"]));
    }
    socket.socket.close();
  });

  it("decline and cancel end the deal with the reason; the renter's cancel works, then nothing else does", async () => {
    const { lister, renter, listingId } = await people();
    const d1 = (await json<{ data: DealJson }>(await request(renter, listingId, "2027-01-05", "2027-02-05"))).data;
    expect((await call(lister, `/api/v1/deals/${d1.id}/decline`, "POST", { reason: "x".repeat(501) })).status).toBe(422);
    expect((await api(`/api/v1/deals/${d1.id}/decline`, authed(lister.access_token, { method: "POST", body: "{not json" }))).status).toBe(400);
    expect((await dealRow(d1.id))?.status).toBe("requested");
    const declined = await call(lister, `/api/v1/deals/${d1.id}/decline`, "POST", { reason: "Already promised" });
    expect((await json<{ data: DealJson }>(declined)).data).toMatchObject({ status: "declined", status_reason: "Already promised" });
    expect((await call(renter, `/api/v1/deals/${d1.id}/cancel`, "POST")).status).toBe(409);
    const d2 = (await json<{ data: DealJson }>(await request(renter, listingId, "2027-03-05", "2027-04-05"))).data;
    const cancelled = await api(`/api/v1/deals/${d2.id}/cancel`, authed(renter.access_token, { method: "POST" }));
    expect((await json<{ data: DealJson }>(cancelled)).data).toMatchObject({ status: "cancelled", status_reason: "cancelled_by_renter" });
    expect(await eventsOf(d2.id)).toEqual(["requested", "cancelled"]);
  });

  it("accepting reserves the dates: an overlapping request cannot be accepted (409), a later one can", async () => {
    const { lister, renter, listingId } = await people();
    const other = await signUp(`other${seq}@deals.test`);
    const a = (await json<{ data: DealJson }>(await request(renter, listingId, "2027-01-05", "2027-03-01"))).data;
    const b = (await json<{ data: DealJson }>(await request(other, listingId, "2027-02-01", "2027-04-01"))).data;
    const c = (await json<{ data: DealJson }>(await request(other, listingId, "2027-03-01", "2027-04-01"))).data;
    expect((await call(lister, `/api/v1/deals/${a.id}/accept`, "POST")).status).toBe(200);
    const refused = await call(lister, `/api/v1/deals/${b.id}/accept`, "POST");
    expect(refused.status).toBe(409);
    expect((await json<{ detail: string }>(refused)).detail).toMatch(/overlapping/);
    expect((await dealRow(b.id))?.status).toBe("requested");
    // Move-out day is free for the next move-in.
    expect((await call(lister, `/api/v1/deals/${c.id}/accept`, "POST")).status).toBe(200);
  });
});

describe("races: one valid end state", () => {
  it("accept and cancel at once", async () => {
    for (let trial = 0; trial < 4; trial++) {
      const { lister, renter, listingId } = await people();
      const d = (await json<{ data: DealJson }>(await request(renter, listingId))).data;
      const [acc, can] = await Promise.all([call(lister, `/api/v1/deals/${d.id}/accept`, "POST"), call(renter, `/api/v1/deals/${d.id}/cancel`, "POST")]);
      const statuses = [acc.status, can.status];
      const row = await dealRow(d.id);
      // Both may apply in order (accept, then cancel of the accepted deal), or cancel first and accept 409.
      if (acc.status === 409) expect(row?.status).toBe("cancelled");
      else expect(statuses).toEqual([200, 200]);
      expect(row?.status).toBe("cancelled");
      const events = await eventsOf(d.id);
      expect(events.filter((e) => e === "cancelled")).toHaveLength(1);
      expect(events.filter((e) => e === "accepted").length).toBe(acc.status === 200 ? 1 : 0);
      expect(row?.version).toBe(acc.status === 200 ? 2 : 1);
    }
  });

  it("two accepts of overlapping requests at once: exactly one is accepted", async () => {
    for (let trial = 0; trial < 4; trial++) {
      const { lister, renter, listingId } = await people();
      const other = await signUp(`race${seq}-${trial}@deals.test`);
      const a = (await json<{ data: DealJson }>(await request(renter, listingId, "2027-01-05", "2027-03-01"))).data;
      const b = (await json<{ data: DealJson }>(await request(other, listingId, "2027-02-01", "2027-04-01"))).data;
      const results = await Promise.all([call(lister, `/api/v1/deals/${a.id}/accept`, "POST"), call(lister, `/api/v1/deals/${b.id}/accept`, "POST")]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const rows = await env.DB.prepare("SELECT status FROM deals WHERE listing_id = ? ORDER BY status").bind(listingId).all<{ status: string }>();
      expect(rows.results.map((r) => r.status)).toEqual(["accepted", "requested"]);
      const agreements = await env.DB.prepare("SELECT count(*) AS n FROM deal_agreements a JOIN deals d ON d.id = a.deal_id WHERE d.listing_id = ?").bind(listingId).first<{ n: number }>();
      expect(agreements?.n).toBe(1);
    }
  });
});

describe("expiry (dev tick as of a time)", () => {
  it("an unanswered request expires after 72 h; an accepted unpaid deal at move-in's midnight in the university's zone", async () => {
    const { lister, renter, listingId } = await people();
    const req = (await json<{ data: DealJson }>(await request(renter, listingId, "2027-01-05", "2027-02-05"))).data;
    const acc = (await json<{ data: DealJson }>(await request(renter, listingId, "2027-03-05", "2027-04-05"))).data;
    await call(lister, `/api/v1/deals/${acc.id}/accept`, "POST");
    const created = Date.parse(String((await dealRow(req.id))?.created_at));
    const tick = (now: number) => post("/api/v1/dev/deals/tick", { now: new Date(now).toISOString() });

    expect((await tick(created + 71 * 3_600_000)).status).toBe(200);
    expect((await dealRow(req.id))?.status).toBe("requested");
    await tick(created + 72 * 3_600_000 + 1000);
    expect(await dealRow(req.id)).toMatchObject({ status: "expired", status_reason: "request_expired" });
    expect((await dealRow(acc.id))?.status).toBe("accepted");

    // On move-in day it can still be paid: one second before the day ends in Anchorage (09:00 UTC in winter)
    // it still stands; when the day ends it expires.
    await tick(Date.parse("2027-03-05T09:00:00Z"));
    expect((await dealRow(acc.id))?.status).toBe("accepted");
    await tick(Date.parse("2027-03-06T08:59:59Z"));
    expect((await dealRow(acc.id))?.status).toBe("accepted");
    await tick(Date.parse("2027-03-06T09:00:00Z"));
    expect(await dealRow(acc.id)).toMatchObject({ status: "expired", status_reason: "not_paid_by_move_in" });
    expect(localDate(Date.parse("2027-03-06T08:59:59Z"), "America/Anchorage")).toBe("2027-03-05");

    // The cron's housekeeping runs the same job.
    const late = (await json<{ data: DealJson }>(await request(renter, listingId, "2027-05-01", "2027-05-20"))).data;
    expect((await post("/api/v1/dev/housekeeping", { at: new Date(created + 80 * 3_600_000).toISOString() })).status).toBe(200);
    expect((await dealRow(late.id))?.status).toBe("expired");
    // The tick's input is checked.
    expect((await post("/api/v1/dev/deals/tick", { now: "tomorrow" })).status).toBe(422);
  });
});

describe("open deals end with a reason", () => {
  it("when the listing is deleted, a party suspended or blocked, or an account deleted", async () => {
    const { lister, renter, listingId } = await people();
    const d1 = (await json<{ data: DealJson }>(await request(renter, listingId, "2027-01-05", "2027-02-05"))).data;
    expect((await call(lister, `/api/v1/subleases/${listingId}`, "DELETE")).status).toBeLessThan(300);
    expect(await dealRow(d1.id)).toMatchObject({ status: "cancelled", status_reason: "listing_deleted", listing_id: null });
    // The renter still reads it, with the public form of the address.
    expect((await call(renter, `/api/v1/deals/${d1.id}`)).status).toBe(200);

    const p2 = await people();
    const d2 = (await json<{ data: DealJson }>(await request(p2.renter, p2.listingId))).data;
    await call(p2.renter, "/api/v1/users/blocks", "POST", { user_id: p2.lister.user.id });
    expect(await dealRow(d2.id)).toMatchObject({ status: "cancelled", status_reason: "party_blocked" });

    const p3 = await people();
    const d3 = (await json<{ data: DealJson }>(await request(p3.renter, p3.listingId))).data;
    await call(p3.renter, "/api/v1/users/profile", "DELETE");
    expect(await dealRow(d3.id)).toMatchObject({ status: "cancelled", status_reason: "account_deleted" });

    const p4 = await people();
    const d4 = (await json<{ data: DealJson }>(await request(p4.renter, p4.listingId))).data;
    const token = await adminLogin();
    const report = await json<{ data: { id: string } }>(await call(p4.renter, "/api/v1/reports", "POST", { kind: "user", user_id: p4.lister.user.id, reason: "scam" }));
    const resolved = await api(`/api/v1/admin/reports/${report.data.id}/resolve`, authed(token, { method: "POST", body: JSON.stringify({ action: "suspend_user" }), headers: { "content-type": "application/json" } }));
    expect(resolved.status).toBe(200);
    expect(await dealRow(d4.id)).toMatchObject({ status: "cancelled", status_reason: "party_suspended" });
  });
});

describe("who may see and do what", () => {
  it("a third user gets 404 on every deal route; staff list and read deals with events", async () => {
    const { lister, renter, listingId } = await people();
    const stranger = await signUp(`stranger${seq}@deals.test`);
    const d = (await json<{ data: DealJson }>(await request(renter, listingId))).data;
    await call(lister, `/api/v1/deals/${d.id}/accept`, "POST");
    const routes: [string, string, unknown?][] = [
      ["GET", ""],
      ["POST", "/accept"],
      ["POST", "/decline", {}],
      ["POST", "/cancel", {}],
      ["GET", "/agreement"],
      ["GET", "/agreement.pdf"],
      ["POST", "/sign-code"],
      ["POST", "/sign", { typed_name: "x", intent: true, esign_consent: true, code: "123456" }],
      ["POST", "/landlord-consent", { not_needed: true }],
    ];
    for (const [method, path, body] of routes) {
      const res = await call(stranger, `/api/v1/deals/${d.id}${path}`, method, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect((await json<{ detail: string }>(res)).detail).toBeTruthy();
    }
    const mine = await json<{ data: DealJson[] }>(await call(stranger, "/api/v1/deals"));
    expect(mine.data).toEqual([]);
    // Both parties list it.
    for (const s of [renter, lister]) expect((await json<{ data: DealJson[] }>(await call(s, "/api/v1/deals"))).data.map((x) => x.id)).toContain(d.id);

    // Staff: bearer only; status filter, keyset pages, one deal with whole addresses.
    expect((await api("/api/v1/admin/deals")).status).toBe(401);
    const token = await adminLogin();
    const staff = (path: string) => api(path, authed(token));
    const page = await json<{ data: DealJson[]; pagination: { next_token: string | null; has_more: boolean } }>(await staff("/api/v1/admin/deals?status=accepted&limit=1"));
    expect(page.data).toHaveLength(1);
    expect(page.data[0]?.status).toBe("accepted");
    expect((await staff("/api/v1/admin/deals?status=bogus")).status).toBe(422);
    const one = await json<{ data: DealJson & { events: { type: string; ip: string | null }[] } }>(await staff(`/api/v1/admin/deals/${d.id}`));
    expect(one.data.events.map((e) => e.type)).toEqual(["requested", "accepted"]);
    expect((await staff(`/api/v1/deals/${d.id}/agreement`)).status).toBe(200);
    expect((await staff("/api/v1/admin/deals/nope")).status).toBe(404);
  });

  it("lists a user's deals newest first in keyset pages", async () => {
    const { renter, listingId } = await people();
    for (const m of ["01", "02", "03"]) await request(renter, listingId, `2027-${m}-01`, `2027-${m}-20`);
    const first = await json<{ data: DealJson[]; pagination: { next_token: string; has_more: boolean } }>(await call(renter, "/api/v1/deals?limit=2"));
    expect(first.data.map((d) => d.move_in)).toEqual(["2027-03-01", "2027-02-01"]);
    expect(first.pagination.has_more).toBe(true);
    const second = await json<{ data: DealJson[]; pagination: { has_more: boolean } }>(await call(renter, `/api/v1/deals?limit=2&last_evaluated_key=${first.pagination.next_token}`));
    expect(second.data.map((d) => d.move_in)).toEqual(["2027-01-01"]);
    expect(second.pagination.has_more).toBe(false);
    expect((await call(renter, "/api/v1/deals?last_evaluated_key=garbage")).status).toBe(400);
  });
});

describe("pure rules", () => {
  it("public addresses drop the house number and unit", () => {
    expect(publicAddressOf("221 Bleecker St, Apt 4B, New York, NY 10012")).toBe("Bleecker St, New York, NY 10012");
    expect(publicAddressOf("12-14 Main St #3, Austin, TX")).toBe("Main St, Austin, TX");
  });
});
