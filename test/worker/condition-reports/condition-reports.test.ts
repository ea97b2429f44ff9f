/**
 * Condition reports (api-contract "Reviews and condition reports"; docs/decisions/040): the renter's
 * move-in report within its window (the server's receipt time decides), photos from private evidence with
 * their receipt times, read-only once sent, the lister's one comment, the other party's and staff's reads,
 * strangers refused, the move-out window, and the PDF.
 */
import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { adminLogin, api, authed, insertParty, insertSignedDeal, json, signUpVerified, uploadEvidence } from "../helpers";

const DAY = 86_400_000;
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
let admin: string;

beforeAll(async () => {
  admin = await adminLogin();
});
afterEach(() => {
  vi.useRealTimers();
});

const send = (token: string, dealId: string, body: unknown) => api(`/api/v1/deals/${dealId}/condition-report`, authed(token, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } }));
const comment = (token: string, dealId: string, phase: string, text: string) =>
  api(`/api/v1/deals/${dealId}/condition-report/${phase}/comment`, authed(token, { method: "POST", body: JSON.stringify({ text }), headers: { "content-type": "application/json" } }));

/** A paid deal whose move-in was `moveInDaysAgo` days ago (Anchorage), money held. */
async function heldDeal(renterId: string, listerId: string, moveInDaysAgo: number, stayDays = 90) {
  const now = Date.now();
  const { dealId } = await insertSignedDeal(renterId, listerId, {
    moveIn: date(now - moveInDaysAgo * DAY),
    moveOut: date(now - moveInDaysAgo * DAY + stayDays * DAY),
    listing: { from: "2020-01-01", to: "2040-12-31" },
    status: "paid",
  });
  await env.DB.prepare("UPDATE deals SET payment_status = 'held', paid_cents = 94500, paid_rent_cents = 90000, paid_at = ?, held_until = ? WHERE id = ?")
    .bind(new Date(now - 3 * DAY).toISOString(), new Date(now + 10 * DAY).toISOString(), dealId)
    .run();
  return dealId;
}

describe("condition reports", () => {
  it("move-in: sent once with its photos and their receipt times, read by both and staff, commented once by the lister", async () => {
    const renter = await signUpVerified("cr-renter@example.edu");
    const [lister, stranger] = await Promise.all([insertParty("Lo"), insertParty("St")]);
    const dealId = await heldDeal(renter.user.id, lister.id, 1);
    const [photo] = await uploadEvidence(renter, 1);
    const body = {
      phase: "move_in",
      rooms: [
        { name: "Kitchen", condition: "good", note: "", photos: [photo] },
        { name: "Bathroom", condition: "damaged", note: "Cracked sink", photos: [] },
      ],
    };
    expect((await send(stranger.token, dealId, body)).status).toBe(404);
    expect((await send(lister.token, dealId, body)).status).toBe(403);
    expect((await send(renter.access_token, dealId, { phase: "move_in", rooms: [] })).status).toBe(422);
    // Someone else's photo, or a listing photo, is refused.
    expect((await send(renter.access_token, dealId, { ...body, rooms: [{ name: "Hall", condition: "good", photos: ["/api/v1/images/listings/x.jpg"] }] })).status).toBe(422);

    const res = await send(renter.access_token, dealId, body);
    expect(res.status).toBe(201);
    const report = (await json<{ data: { phase: string; received_at: string; has_problem: boolean; rooms: { name: string; condition: string; photos: { url: string; received_at: string }[] }[] } }>(res)).data;
    expect(report).toMatchObject({ phase: "move_in", has_problem: true });
    expect(report.rooms[0]!.photos).toEqual([{ url: photo, received_at: expect.any(String) }]);
    expect(Date.parse(report.rooms[0]!.photos[0]!.received_at)).toBeLessThanOrEqual(Date.parse(report.received_at));
    // Read-only once sent.
    const again = await send(renter.access_token, dealId, body);
    expect(again.status).toBe(409);
    expect((await json<{ detail: string }>(again)).detail).toMatch(/read-only/);

    // Both parties and staff read it; a stranger does not; the photo is served to the lister now.
    for (const token of [renter.access_token, lister.token, admin]) {
      const read = await json<{ data: { phase: string }[] }>(await api(`/api/v1/deals/${dealId}/condition-reports`, authed(token)));
      expect(read.data.map((r) => r.phase)).toEqual(["move_in"]);
    }
    expect((await api(`/api/v1/deals/${dealId}/condition-reports`, authed(stranger.token))).status).toBe(404);
    expect((await api(photo!, authed(lister.token))).status).toBe(200);
    expect((await api(photo!, authed(stranger.token))).status).toBe(404);

    // The lister's one comment; the renter cannot comment.
    expect((await comment(renter.access_token, dealId, "move_in", "Me too")).status).toBe(403);
    expect((await comment(lister.token, dealId, "move_out", "Nothing yet")).status).toBe(409);
    const commented = await comment(lister.token, dealId, "move_in", "The sink was cracked before; I will fix it.");
    expect(commented.status).toBe(201);
    expect((await json<{ data: { comment: { text: string } } }>(commented)).data.comment.text).toMatch(/cracked before/);
    expect((await comment(lister.token, dealId, "move_in", "Again")).status).toBe(409);

    // The PDF of the bundle.
    const pdf = await api(`/api/v1/deals/${dealId}/condition-reports.pdf`, authed(lister.token));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
  });

  it("the server's receipt time decides: a move-in report after its 72 hours is refused with the window, and the move-out window opens in the stay's last week", async () => {
    const [renter, lister] = await Promise.all([insertParty("Ra"), insertParty("Li")]);
    const body = (phase: string) => ({ phase, rooms: [{ name: "Bedroom", condition: "worn", note: "Scuffed wall" }] });
    const late = await heldDeal(renter.id, lister.id, 5);
    const refused = await send(renter.token, late, body("move_in"));
    expect(refused.status).toBe(409);
    expect((await json<{ detail: string }>(refused)).detail).toMatch(/move-in report can be sent from .* until .*; it arrived outside that window/);
    expect((await send(renter.token, late, body("move_out"))).status).toBe(409);

    // A stay ending in 3 days: the move-out report is open (and the move-in one long closed).
    const ending = await heldDeal(renter.id, lister.id, 30, 33);
    expect((await send(renter.token, ending, body("move_out"))).status).toBe(201);
    const deal = await json<{ data: { actions: string[] } }>(await api(`/api/v1/deals/${ending}`, authed(renter.token)));
    expect(deal.data.actions).not.toContain("condition_report");
    const listerDeal = await json<{ data: { actions: string[] } }>(await api(`/api/v1/deals/${ending}`, authed(lister.token)));
    expect(listerDeal.data.actions).toContain("condition_report_comment");
  });
});
