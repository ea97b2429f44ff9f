/**
 * A deal brought to a state through the real API (the browser plays each step in deals.test.ts and
 * deal-payments.test.ts): verified students, an approved listing, a signed deal, payouts, the payment,
 * the keys, and the deal jobs run at a chosen time by `dev/deals/tick` (never a real-clock wait).
 */
import { expect } from "vitest";
import { addMonths, localDate, timeZoneOfState, type Deal } from "../../worker/contract/deals";
import { apiCall, createPendingListing, emailedCode, JPEG_1X1, newStudent, type AuthSession } from "./session";

/** The University of Florida (migration 0001): the new students' ufl.edu school, in Florida's time zone. */
const UF = 49;

export type Student = AuthSession & { email: string };

export function dealSteps(baseUrl: string) {
  const bearer = (s: AuthSession) => ({ Authorization: `Bearer ${s.access_token}` });
  const post = <T>(path: string, who: AuthSession | null, body: unknown = {}, headers: Record<string, string> = {}) =>
    apiCall<T>(baseUrl, path, { method: "POST", headers: { ...(who ? bearer(who) : {}), ...headers }, body: JSON.stringify(body) });
  const dealOf = async (id: string, who: AuthSession) => (await apiCall<{ data: Deal }>(baseUrl, `deals/${id}`, { headers: bearer(who) })).data;
  const staffToken = async () => (await post<{ token: string }>("admin/login", null, { password: "admin-dev-password" })).token;

  /** Staff verify a student's identity (the staff API the panel calls). */
  const verifyIdentity = (userId: string, staff: string) =>
    apiCall(baseUrl, `admin/users/${userId}/verify`, { method: "PATCH", headers: { Authorization: `Bearer ${staff}` }, body: JSON.stringify({ verification_status: "verified" }) });

  /** A student whose identity staff verified (signing needs both legal names). */
  async function verifiedStudent(first: string, staff: string): Promise<Student> {
    const s = await newStudent(baseUrl, first);
    await verifyIdentity(s.user.id, staff);
    return s;
  }

  /** A lister's approved, undated listing, and the date it is today in its zone (Florida). */
  async function approvedListing(lister: AuthSession, staff: string, title: string) {
    const id = await createPendingListing(baseUrl, lister, title, { universityId: UF });
    await apiCall(baseUrl, `admin/listings/${id}/verify`, { method: "PATCH", headers: { Authorization: `Bearer ${staff}` }, body: JSON.stringify({ status: "approved" }) });
    return { id, today: localDate(Date.now(), timeZoneOfState("FL")) };
  }

  /** Requested, accepted, the landlord's consent not needed, signed by both with emailed codes. */
  async function signedDeal(renter: Student, lister: Student, listingId: string, moveIn: string, moveOut = addMonths(moveIn, 1)): Promise<Deal> {
    const { data } = await post<{ data: Deal }>("deals", renter, { listing_id: listingId, move_in: moveIn, move_out: moveOut });
    await post(`deals/${data.id}/accept`, lister);
    await post(`deals/${data.id}/landlord-consent`, lister, { not_needed: true });
    const agreement = (await dealOf(data.id, renter)).agreement!;
    const read = { agreement_version: agreement.version, sha256: agreement.sha256 };
    for (const who of [renter, lister]) {
      const asked = Date.now();
      await post(`deals/${data.id}/sign-code`, who, read);
      const code = await emailedCode(baseUrl, who.email, "Your signing code", asked);
      await post(`deals/${data.id}/sign`, who, { typed_name: `${who.user.first_name} Tester`, intent: true, esign_consent: true, code, ...read });
    }
    return dealOf(data.id, renter);
  }

  /** Payouts set up through the development onboarding's own endpoints. */
  async function payoutsReady(lister: AuthSession) {
    const { data } = await post<{ data: { url: string } }>("payouts/onboarding", lister);
    const res = await fetch(`${baseUrl}${data.url}/complete`, { method: "POST", redirect: "manual" });
    expect(res.status).toBe(303);
  }

  /** The renter pays through the development checkout's endpoints; the deal as it is then. */
  async function paid(id: string, renter: AuthSession): Promise<Deal> {
    const { data } = await post<{ data: { session_id: string } }>(`deals/${id}/checkout`, renter, {}, { "Idempotency-Key": `e2e-${id}` });
    const res = await fetch(`${baseUrl}/dev/checkout/${data.session_id}/complete`, { method: "POST", redirect: "manual" });
    expect(res.headers.get("location")).toBe(`/deals/${id}?paid=1`);
    return dealOf(id, renter);
  }

  /**
   * A new lister and renter (verified), the lister's listing, and their deal moving in today (so the
   * move-in report's window is open by the server's clock), paid and held.
   */
  async function heldDealMovingInToday(names: { lister: string; renter: string }, title: string) {
    const staff = await staffToken();
    const [lister, renter] = await Promise.all([verifiedStudent(names.lister, staff), verifiedStudent(names.renter, staff)]);
    const listing = await approvedListing(lister, staff, title);
    await payoutsReady(lister);
    const signed = await signedDeal(renter, lister, listing.id, listing.today);
    const deal = await paid(signed.id, renter);
    return { staff, lister, renter, listing, deal };
  }

  /** "I have the keys", then the deal jobs at the release time (the development tick): released. */
  async function released(id: string, renter: AuthSession): Promise<Deal> {
    await post(`deals/${id}/moved-in`, renter);
    const moved = await dealOf(id, renter);
    await post("dev/deals/tick", null, { now: moved.payment.held_until });
    const deal = await dealOf(id, renter);
    expect(deal.status).toBe("released");
    return deal;
  }

  /** A private evidence photo of `who`'s (a real JPEG), its url. */
  async function evidencePhoto(who: AuthSession): Promise<string> {
    const images = [{ filename: "room.jpg", content_type: "image/jpeg", image_data: `data:image/jpeg;base64,${JPEG_1X1}` }];
    const { uploaded_files } = await post<{ uploaded_files: { url: string }[] }>("upload/evidence", who, { images });
    return uploaded_files[0]!.url;
  }

  return { post, dealOf, staffToken, verifyIdentity, verifiedStudent, approvedListing, heldDealMovingInToday, released, evidencePhoto };
}
