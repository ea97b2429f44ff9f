/**
 * Agreement drafts are rendered on every request (GET deals/{id}/agreement.pdf before both signed): a party
 * may download AGREEMENT_DRAFTS an hour (429 with retry_after past it; docs/decisions/032); staff are not
 * counted, and one party's downloads never use the other's.
 */
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AGREEMENT_DRAFTS } from "../../../worker/contract/constants";
import { DRAFT_PDF_REFUSED } from "../../../worker/services/fair-use";
import { adminLogin, api, authed, insertListing, json, type Session, signUp } from "../helpers";

afterEach(() => vi.useRealTimers());

const call = (token: string, path: string, method = "GET", body?: unknown) =>
  api(path, authed(token, { method, ...(body !== undefined && { body: JSON.stringify(body) }), headers: { "content-type": "application/json" } }));

async function acceptedDeal(): Promise<{ lister: Session; renter: Session; id: string }> {
  const [lister, renter] = await Promise.all([signUp("draft-lister@deals.test"), signUp("draft-renter@deals.test")]);
  await env.DB.prepare("UPDATE users SET id_verification_status = 'verified' WHERE id IN (?, ?)").bind(lister.user.id, renter.user.id).run();
  await insertListing(lister.user.id, "draft-listing", { available_from: "2031-01-01", available_to: "2031-06-30", monthly_rent: 900 });
  const created = await json<{ data: { id: string } }>(await call(renter.access_token, "/api/v1/deals", "POST", { listing_id: "draft-listing", move_in: "2031-01-10", move_out: "2031-03-10" }));
  expect((await call(lister.access_token, `/api/v1/deals/${created.data.id}/accept`, "POST")).status).toBe(200);
  return { lister, renter, id: created.data.id };
}

describe("agreement drafts", () => {
  it(`a party downloads at most ${AGREEMENT_DRAFTS.perUserPerHour} an hour; the other party and staff are not held back; the next hour starts afresh`, async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse("2030-11-04T10:52:00.000Z"));
    const { lister, renter, id } = await acceptedDeal();
    const draft = (token: string) => call(token, `/api/v1/deals/${id}/agreement.pdf`);
    for (let i = 0; i < AGREEMENT_DRAFTS.perUserPerHour; i++) {
      const res = await draft(renter.access_token);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const refused = await draft(renter.access_token);
    expect(refused.status).toBe(429);
    expect(await json(refused)).toEqual({ detail: DRAFT_PDF_REFUSED, retry_after: 8 * 60 });
    const listers = await draft(lister.access_token);
    expect(listers.status).toBe(200);
    await listers.arrayBuffer();
    const staff = await draft(await adminLogin());
    expect(staff.status).toBe(200);
    await staff.arrayBuffer();
    // The agreement's text stays readable meanwhile.
    expect((await call(renter.access_token, `/api/v1/deals/${id}/agreement`)).status).toBe(200);
    vi.setSystemTime(Date.parse("2030-11-04T11:00:00.000Z"));
    expect((await draft(renter.access_token)).status).toBe(200);
  });
});
