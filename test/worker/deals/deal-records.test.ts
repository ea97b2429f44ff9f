/**
 * What both parties keep of a deal (api-contract "Deals", additions; docs/decisions/041): the lister's
 * original lease attached privately (only the parties and staff read it), the names an agreement holds
 * after a party deletes their account, and the renter told when the lister's payouts become ready.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { adminLogin, api, authed, insertListing, insertSignedDeal, json, signUpVerified, uploadEvidence, type Session } from "../helpers";

interface DealJson {
  id: string;
  status: string;
  renter: { first_name: string; last_name: string };
  lister: { first_name: string; last_name: string };
  lease: { url: string; attached_at: string } | null;
}

const call = (s: Session, path: string, method = "GET", body?: unknown) =>
  api(path, authed(s.access_token, { method, ...(body !== undefined && { body: JSON.stringify(body) }), headers: { "content-type": "application/json" } }));
const dealOf = async (s: Session, id: string) => (await json<{ data: DealJson }>(await call(s, `/api/v1/deals/${id}`))).data;
const setStatus = (id: string, status: string) => env.DB.prepare("UPDATE deals SET status = ? WHERE id = ?").bind(status, id).run();
const mailTo = async (address: string) => (await json<{ data: { subject: string; text: string }[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent(address)}`))).data;

let seq = 0;
async function parties() {
  const n = ++seq;
  const [renter, lister, stranger] = await Promise.all([
    signUpVerified(`rec-renter${n}@deals.test`),
    signUpVerified(`rec-lister${n}@deals.test`),
    signUpVerified(`rec-stranger${n}@deals.test`),
  ]);
  return { renter, lister, stranger };
}

describe("the original lease", () => {
  it("the lister attaches it from acceptance on; both parties and staff read it, no one else; the renter cannot attach one", async () => {
    const { renter, lister, stranger } = await parties();
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id, { status: "requested" });
    const [url] = await uploadEvidence(lister);

    // Before acceptance there is no deal to attach it to yet.
    expect((await call(lister, `/api/v1/deals/${dealId}/lease`, "POST", { url })).status).toBe(409);
    await setStatus(dealId, "accepted");
    // Only the lister: the renter 403, a stranger 404 (the deal is not theirs to see), signed out 401.
    expect((await call(renter, `/api/v1/deals/${dealId}/lease`, "POST", { url })).status).toBe(403);
    expect((await call(stranger, `/api/v1/deals/${dealId}/lease`, "POST", { url })).status).toBe(404);
    expect((await api(`/api/v1/deals/${dealId}/lease`, { method: "POST", body: JSON.stringify({ url }), headers: { "content-type": "application/json" } })).status).toBe(401);
    // Only private evidence the lister uploaded.
    const listingPhoto = await call(lister, `/api/v1/deals/${dealId}/lease`, "POST", { url: "/api/v1/images/abc.jpg" });
    expect(listingPhoto.status).toBe(422);
    expect((await json<{ detail: string }>(listingPhoto)).detail).toBeTruthy();
    const [renterUpload] = await uploadEvidence(renter);
    expect((await call(lister, `/api/v1/deals/${dealId}/lease`, "POST", { url: renterUpload })).status).toBe(422);
    expect((await call(lister, `/api/v1/deals/${dealId}/lease`, "POST", {})).status).toBe(422);

    const attached = await call(lister, `/api/v1/deals/${dealId}/lease`, "POST", { url });
    expect(attached.status).toBe(200);
    expect((await json<{ data: DealJson }>(attached)).data.lease).toMatchObject({ url });
    expect((await dealOf(renter, dealId)).lease).toMatchObject({ url });

    // The photo: the renter (a party) and staff read it, a stranger gets 404, never a public cache header.
    const asRenter = await api(url!, authed(renter.access_token));
    expect(asRenter.status).toBe(200);
    expect(asRenter.headers.get("cache-control") ?? "").not.toMatch(/public/);
    expect((await api(url!, authed(stranger.access_token))).status).toBe(404);
    expect((await api(url!, authed(await adminLogin()))).status).toBe(200);

    // Attaching again replaces it; the agreement's clause points to it and does not change with it.
    const before = await env.DB.prepare("SELECT agreement_version FROM deals WHERE id = ?").bind(dealId).first<{ agreement_version: number }>();
    const [second] = await uploadEvidence(lister);
    expect((await json<{ data: DealJson }>(await call(lister, `/api/v1/deals/${dealId}/lease`, "POST", { url: second }))).data.lease?.url).toBe(second);
    const after = await env.DB.prepare("SELECT agreement_version FROM deals WHERE id = ?").bind(dealId).first<{ agreement_version: number }>();
    expect(after).toEqual(before);
    const events = await env.DB.prepare("SELECT count(*) AS n FROM deal_events WHERE deal_id = ? AND type = 'lease_attached'").bind(dealId).first<{ n: number }>();
    expect(events?.n).toBe(2);
  });

  it("clause 7 of a new agreement says where the Subtenant reads the Original Lease", async () => {
    const { renter, lister } = await parties();
    const listingId = `rec-l${++seq}`;
    await insertListing(lister.user.id, listingId, { address: "12 Elm St, Anchorage, AK 99501", available_from: "2027-01-01", available_to: "2027-12-31", monthly_rent: 900 });
    const created = await json<{ data: DealJson }>(await call(renter, "/api/v1/deals", "POST", { listing_id: listingId, move_in: "2027-02-01", move_out: "2027-04-01" }));
    expect((await call(lister, `/api/v1/deals/${created.data.id}/accept`, "POST")).status).toBe(200);
    const { data } = await json<{ data: { text: string } }>(await call(renter, `/api/v1/deals/${created.data.id}/agreement`));
    expect(data.text).toContain("Template: agreement-template-v4");
    expect(data.text).toMatch(/7\. The Original Lease\nThe Tenant's lease .* The Tenant attaches the Original Lease .* on CampusNest, where only the two parties and CampusNest staff can read it/);
    expect(data.text).not.toContain("has been given the chance to read it");
  });
});

describe("a deleted party", () => {
  it("keeps the names the agreement holds on the other party's deal; a deal without an agreement shows a deleted user", async () => {
    const { renter, lister } = await parties();
    await env.DB.prepare("UPDATE users SET first_name = 'Lia', last_name = 'Novák' WHERE id = ?").bind(lister.user.id).run();
    // Recorded at verification: the legal name the agreement holds (a later rename sends it back to review).
    await env.DB.prepare("UPDATE users SET legal_first_name = 'Lia', legal_last_name = 'Novák' WHERE id = ?").bind(lister.user.id).run();
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id, { status: "released" });
    const { dealId: requestId } = await insertSignedDeal(renter.user.id, lister.user.id, { status: "requested" });
    await env.DB.prepare("UPDATE deals SET agreement_version = 0 WHERE id = ?").bind(requestId).run();

    expect((await call(lister, "/api/v1/users/profile", "DELETE")).status).toBe(204);
    const kept = await dealOf(renter, dealId);
    expect(kept.lister).toMatchObject({ first_name: "Lia", last_name: "Novák" });
    const ended = await dealOf(renter, requestId);
    expect(ended.status).toBe("cancelled");
    expect(ended.lister).toMatchObject({ first_name: "Deleted", last_name: "user" });
  });
});

describe("payouts becoming ready", () => {
  it("tells the renter of each signed deal they can pay, once", async () => {
    const { renter, lister } = await parties();
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id);
    const onboarding = await json<{ data: { url: string } }>(await call(lister, "/api/v1/payouts/onboarding", "POST"));
    expect((await dealOf(renter, dealId)).status).toBe("signed");
    const complete = await api(`${onboarding.data.url}/complete`, { method: "POST" });
    expect(complete.status).toBe(303);
    const told = (await mailTo(renter.user.email)).filter((m) => m.subject.startsWith("Ready to pay"));
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toMatch(/has set up payouts, so you can pay the first month now/);
    // Completing again changes nothing new: no second notice.
    await api(`${onboarding.data.url}/complete`, { method: "POST" });
    expect((await mailTo(renter.user.email)).filter((m) => m.subject.startsWith("Ready to pay"))).toHaveLength(1);
    expect((await mailTo(lister.user.email)).filter((m) => m.subject.startsWith("Ready to pay"))).toHaveLength(0);
  });
});

describe("a deal's reads are private", () => {
  it("every read of a deal (the list, the deal with its receipt, the agreement and its PDF) is private, never stored, and only its parties'", async () => {
    const { renter, lister, stranger } = await parties();
    const listingId = `rec-l${++seq}`;
    await insertListing(lister.user.id, listingId, { available_from: "2027-01-01", available_to: "2027-06-30", monthly_rent: 900 });
    const requested = await json<{ data: DealJson }>(await call(renter, "/api/v1/deals", "POST", { listing_id: listingId, move_in: "2027-01-10", move_out: "2027-01-25" }));
    const dealId = requested.data.id;
    expect((await call(lister, `/api/v1/deals/${dealId}/accept`, "POST", {})).status).toBe(200);
    for (const party of [renter, lister]) {
      for (const path of ["/api/v1/deals", `/api/v1/deals/${dealId}`, `/api/v1/deals/${dealId}/agreement`, `/api/v1/deals/${dealId}/agreement.pdf`]) {
        const res = await call(party, path);
        expect(res.status, path).toBe(200);
        // Neither the browser's HTTP cache nor a shared one keeps it: the app's offline copy is its own, per account (docs/decisions/042).
        expect(res.headers.get("cache-control"), path).toBe("private, no-store");
        await res.arrayBuffer();
      }
    }
    for (const path of [`/api/v1/deals/${dealId}`, `/api/v1/deals/${dealId}/agreement`, `/api/v1/deals/${dealId}/agreement.pdf`]) expect((await call(stranger, path)).status, path).toBe(404);
    expect((await json<{ data: { id: string }[] }>(await call(stranger, "/api/v1/deals"))).data.map((d) => d.id)).not.toContain(dealId);
  });
});
