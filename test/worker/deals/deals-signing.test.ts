/**
 * A deal's agreement, landlord consent and signatures (api-contract "Deals", docs/decisions/026): the
 * text and its versions, the landlord's page without an account, the ESIGN steps (records consent,
 * typed legal name, intent, emailed code), the legal name recorded at verification, and the signed PDF
 * made inside workerd, read back (its attached text re-hashed) and served only to the parties and staff.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PDFDocument } from "@cantoo/pdf-lib";
import { adminLogin, api, authed, insertListing, json, latestCode, post, type Session, signUp } from "../helpers";
import { networkOf } from "../../../worker/services/deals/pdf";
import { pageText, pdfPages } from "../helpers/pdf-text";
import { namesMatch } from "../../../worker/contract/deals";

interface DealJson {
  id: string;
  status: string;
  status_reason: string | null;
  agreement: { version: number; sha256: string; renter_signed_at: string | null; lister_signed_at: string | null } | null;
  landlord_consent: { status: string };
}

const call = (s: Session, path: string, method = "GET", body?: unknown, headers: Record<string, string> = {}) =>
  api(path, authed(s.access_token, { method, ...(body !== undefined && { body: JSON.stringify(body) }), headers: { "content-type": "application/json", ...headers } }));

const verify = (id: string) => env.DB.prepare("UPDATE users SET id_verification_status = 'verified' WHERE id = ?").bind(id).run();

let seq = 0;
/** An accepted deal between a lister and a renter (both verified unless asked otherwise). */
async function acceptedDeal(opts: { verified?: boolean } = {}) {
  const n = ++seq;
  const lister = await signUp(`slister${n}@deals.test`, "secret-pass-1", { first_name: "Zoë", last_name: "Ångström" });
  const renter = await signUp(`srenter${n}@deals.test`, "secret-pass-1", { first_name: "José", last_name: "Núñez" });
  if (opts.verified !== false) await Promise.all([verify(lister.user.id), verify(renter.user.id)]);
  const listingId = `sl${n}`;
  await insertListing(lister.user.id, listingId, { address: "12 Elm St, Unit 3, Anchorage, AK 99501", available_from: "2027-01-01", available_to: "2027-06-30", monthly_rent: 900, parking: 1 });
  const created = await json<{ data: DealJson }>(await call(renter, "/api/v1/deals", "POST", { listing_id: listingId, move_in: "2027-01-10", move_out: "2027-01-25" }));
  const accepted = await json<{ data: DealJson }>(await call(lister, `/api/v1/deals/${created.data.id}/accept`, "POST", undefined, { "cf-connecting-ip": "203.0.113.77", "user-agent": "TestBrowser/1.0" }));
  return { lister, renter, deal: accepted.data };
}

const agreementOf = async (s: Session, id: string) => (await json<{ data: { version: number; text: string; sha256: string; events: { type: string }[] } }>(await call(s, `/api/v1/deals/${id}/agreement`))).data;
/** What a signer read: the agreement's version and hash, as the page sends them. */
const readBy = async (s: Session, id: string) => {
  const a = await agreementOf(s, id);
  return { agreement_version: a.version, sha256: a.sha256 };
};
const signCode = async (s: Session, id: string, headers: Record<string, string> = {}) => call(s, `/api/v1/deals/${id}/sign-code`, "POST", await readBy(s, id), headers);

async function sign(s: Session, id: string, typed: string, ip = "198.51.100.23") {
  const read = await readBy(s, id);
  const code = await call(s, `/api/v1/deals/${id}/sign-code`, "POST", read, { "cf-connecting-ip": ip });
  expect(code.status).toBe(200);
  return call(s, `/api/v1/deals/${id}/sign`, "POST", { typed_name: typed, intent: true, esign_consent: true, code: await latestCode(s.user.email), ...read }, { "cf-connecting-ip": ip, "user-agent": "Signer/2.0" });
}

/** The landlord's link from the newest email to that address. */
async function consentLink(address: string): Promise<string> {
  const mail = await json<{ data: { text: string }[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent(address)}`));
  const match = /\/landlord-consent\/([A-Za-z0-9_-]+)/.exec(mail.data[0]?.text ?? "");
  if (!match) throw new Error("no consent link mailed");
  return match[1]!;
}

describe("the agreement", () => {
  it("is filled from the deal with the verified legal names; both parties read the same text and hash; views are recorded", async () => {
    const { lister, renter, deal } = await acceptedDeal();
    const a = await agreementOf(renter, deal.id);
    const b = await agreementOf(lister, deal.id);
    expect(a.text).toBe(b.text);
    expect(a.sha256).toBe(deal.agreement!.sha256);
    const digest = [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(a.text)))].map((x) => x.toString(16).padStart(2, "0")).join("");
    expect(digest).toBe(a.sha256);
    for (const fact of ["Zoë Ångström", "José Núñez", "12 Elm St, Unit 3, Anchorage, AK 99501", "parking included", "Jan 10, 2027", "Jan 25, 2027", "$900.00", "America/Anchorage", "remains responsible", "Original Lease", "ends at the same time", "Utilities", "House rules", "Notices", "directly to the Tenant", "has not been requested yet"]) {
      expect(a.text, fact).toContain(fact);
    }
    // A 15-day stay: the first payment is by days (900 * 12 / 365 * 15 = 443.84), plus 5 %.
    expect(a.text).toContain("$443.84");
    expect(a.text).toContain("$22.19");
    const views = (await agreementOf(renter, deal.id)).events.filter((e) => e.type === "viewed");
    expect(views).toHaveLength(2); // one per party and version, however often read
    // Before both signed, the PDF is a draft of the newest version, made on request and never stored.
    const draft = await call(lister, `/api/v1/deals/${deal.id}/agreement.pdf`);
    expect(draft.status).toBe(200);
    expect(draft.headers.get("content-disposition")).toContain("-draft.pdf");
    const loaded = await PDFDocument.load(new Uint8Array(await draft.arrayBuffer()));
    expect(new TextDecoder().decode(loaded.getAttachments().find((x) => x.name === "agreement.txt")!.data)).toBe(a.text);
    expect((await env.DB.prepare("SELECT pdf_key FROM deals WHERE id = ?").bind(deal.id).first<{ pdf_key: string | null }>())?.pdf_key).toBeNull();
  });
});

describe("landlord consent", () => {
  it("a request emails the landlord a link; the page needs no account; granted makes a new version; the link then answers 410", async () => {
    const { lister, renter, deal } = await acceptedDeal();
    // Only the lister, and signing waits for it.
    expect((await call(renter, `/api/v1/deals/${deal.id}/landlord-consent`, "POST", { not_needed: true })).status).toBe(403);
    expect((await signCode(renter, deal.id)).status).toBe(409);
    expect((await call(lister, `/api/v1/deals/${deal.id}/landlord-consent`, "POST", { landlord_name: "Pat" })).status).toBe(422);
    const res = await call(lister, `/api/v1/deals/${deal.id}/landlord-consent`, "POST", { landlord_name: "Pat Owner", landlord_email: "Pat@Landlord.test", reason: "Semester abroad", tenant_address: "Calle Mayor 1, Madrid" });
    expect(res.status).toBe(200);
    const requested = (await json<{ data: DealJson }>(res)).data;
    expect(requested.landlord_consent.status).toBe("requested");
    expect(requested.agreement!.version).toBe(2);
    const token = await consentLink("pat@landlord.test");
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM landlord_consent_links WHERE token_hash = ?").bind(token).first<{ n: number }>();
    expect(stored?.n).toBe(0); // only its hash is kept

    const page = await api(`/api/v1/landlord-consent/${token}`);
    expect(page.status).toBe(200);
    const { data } = await json<{ data: Record<string, unknown> }>(page);
    expect(data).toMatchObject({
      status: "requested",
      landlord_name: "Pat Owner",
      term: { move_in: "2027-01-10", move_out: "2027-01-25" },
      tenant_name: "Zoë Ångström",
      subtenant_name: "José Núñez",
      reason: "Semester abroad",
      tenant_address_during_sublease: "Calle Mayor 1, Madrid",
      listing_address: "12 Elm St, Unit 3, Anchorage, AK 99501",
      address_given_by_lister: true,
    });
    expect(String(data.address_note)).toMatch(/not checked/);

    expect((await post(`/api/v1/landlord-consent/${token}`, { decision: "maybe" })).status).toBe(422);
    const granted = await post(`/api/v1/landlord-consent/${token}`, { decision: "granted" });
    expect(granted.status).toBe(200);
    expect((await post(`/api/v1/landlord-consent/${token}`, { decision: "granted" })).status).toBe(410);
    // Reopened, the link says what was answered (and when), not only "used or expired".
    const reopened = await api(`/api/v1/landlord-consent/${token}`);
    expect(reopened.status).toBe(410);
    const answered = await json<{ detail: string; code: string }>(reopened);
    expect(answered.code).toBe("answered_granted");
    expect(answered.detail).toMatch(/^You already answered this request on [A-Z][a-z]{2} \d{1,2}, \d{4}: you consented to the sublease\./);
    expect((await api("/api/v1/landlord-consent/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")).status).toBe(404);
    const now = (await json<{ data: DealJson }>(await call(renter, `/api/v1/deals/${deal.id}`))).data;
    expect(now.landlord_consent.status).toBe("granted");
    expect(now.agreement!.version).toBe(3);
    expect((await agreementOf(renter, deal.id)).text).toContain("Pat Owner) gave written consent");
  });

  it("declined cancels the deal with the reason; at most 3 emails per deal a day (429); an expired link is 410", async () => {
    const { lister, deal } = await acceptedDeal();
    const ask = () => call(lister, `/api/v1/deals/${deal.id}/landlord-consent`, "POST", { landlord_name: "Sam", landlord_email: `sam${seq}@landlord.test` });
    expect((await ask()).status).toBe(200);
    const first = await consentLink(`sam${seq}@landlord.test`);
    expect((await ask()).status).toBe(200);
    // A newer link replaces the older one, and says so.
    const replaced = await api(`/api/v1/landlord-consent/${first}`);
    expect(replaced.status).toBe(410);
    expect((await json<{ detail: string }>(replaced)).detail).toMatch(/newer request/);
    expect((await ask()).status).toBe(200);
    const limited = await ask();
    expect(limited.status).toBe(429);
    const body = await json<{ detail: string; retry_after: number }>(limited);
    expect(body.detail).toMatch(/3 consent emails/);
    expect(body.retry_after).toBeGreaterThan(86_000);

    const latest = await consentLink(`sam${seq}@landlord.test`);
    const declined = await post(`/api/v1/landlord-consent/${latest}`, { decision: "declined", reason: "No sublets in this building" });
    expect(declined.status).toBe(200);
    const again = await json<{ detail: string; code: string }>(await api(`/api/v1/landlord-consent/${latest}`));
    expect(again).toMatchObject({ code: "answered_declined" });
    expect(again.detail).toMatch(/you declined the sublease/);
    const row = await env.DB.prepare("SELECT status, status_reason FROM deals WHERE id = ?").bind(deal.id).first();
    expect(row).toMatchObject({ status: "cancelled", status_reason: "landlord_declined: No sublets in this building" });

    const other = await acceptedDeal();
    await call(other.lister, `/api/v1/deals/${other.deal.id}/landlord-consent`, "POST", { landlord_name: "Kim", landlord_email: `kim${seq}@landlord.test` });
    const token = await consentLink(`kim${seq}@landlord.test`);
    await env.DB.prepare("UPDATE landlord_consent_links SET expires_at = '2020-01-01T00:00:00.000Z' WHERE deal_id = ?").bind(other.deal.id).run();
    const expired = await api(`/api/v1/landlord-consent/${token}`);
    expect(expired.status).toBe(410);
    expect((await json<{ detail: string }>(expired)).detail).toMatch(/expired/);
  });
});

describe("landlord consent: no relay, no bypass", () => {
  it("is asked only once the request is accepted (409 before), and the email quotes the deal's snapshot address, not the listing's live one", async () => {
    const n = ++seq;
    const lister = await signUp(`relay-lister${n}@deals.test`);
    const renter = await signUp(`relay-renter${n}@deals.test`);
    await Promise.all([verify(lister.user.id), verify(renter.user.id)]);
    await insertListing(lister.user.id, `relay${n}`, { address: "9 Oak Ave. Apt 2, Anchorage, AK 99501", available_from: "2027-01-01", available_to: "2027-06-30" });
    const created = (await json<{ data: DealJson }>(await call(renter, "/api/v1/deals", "POST", { listing_id: `relay${n}`, move_in: "2027-02-01", move_out: "2027-03-01" }))).data;
    const early = await call(lister, `/api/v1/deals/${created.id}/landlord-consent`, "POST", { landlord_name: "Pat", landlord_email: `early${n}@landlord.test` });
    expect(early.status).toBe(409);
    expect((await json<{ mail?: unknown; data?: unknown }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent(`early${n}@landlord.test`)}`))).data).toEqual([]);
    await call(lister, `/api/v1/deals/${created.id}/accept`, "POST");
    // The listing's address is edited after acceptance into a phishing line: the landlord never reads it.
    await env.DB.prepare("UPDATE listings SET address = 'URGENT: confirm your bank details at evil.example/login' WHERE id = ?").bind(`relay${n}`).run();
    expect((await call(lister, `/api/v1/deals/${created.id}/landlord-consent`, "POST", { landlord_name: "Pat", landlord_email: `pat${n}@landlord.test` })).status).toBe(200);
    const mail = (await json<{ data: { subject: string; text: string }[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent(`pat${n}@landlord.test`)}`))).data[0]!;
    expect(mail.text).not.toContain("evil");
    // The snapshot, quoted as names are: its dots are not a host a mail client would link.
    expect(mail.subject).toContain("9 Oak Ave\u2024 Apt 2, Anchorage, AK 99501");
    expect(mail.text).not.toContain("Ave. Apt");
  });

  it("at most 10 consent emails per lister a day, over all their deals (429 with retry_after)", async () => {
    const n = ++seq;
    const lister = await signUp(`busy-lister${n}@deals.test`);
    await verify(lister.user.id);
    await insertListing(lister.user.id, `busy${n}`, { available_from: "2027-01-01", available_to: "2027-12-31" });
    const deals: string[] = [];
    for (let i = 0; i < 4; i++) {
      const renter = await signUp(`busy-renter${n}-${i}@deals.test`);
      const month = String(i + 2).padStart(2, "0");
      const created = (await json<{ data: DealJson }>(await call(renter, "/api/v1/deals", "POST", { listing_id: `busy${n}`, move_in: `2027-${month}-01`, move_out: `2027-${month}-20` }))).data;
      expect((await call(lister, `/api/v1/deals/${created.id}/accept`, "POST")).status).toBe(200);
      deals.push(created.id);
    }
    const statuses: number[] = [];
    for (const id of deals) for (let k = 0; k < 3; k++) statuses.push((await call(lister, `/api/v1/deals/${id}/landlord-consent`, "POST", { landlord_name: "Ray", landlord_email: `ray${n}-${k}@landlord.test` })).status);
    expect(statuses.filter((x) => x === 200)).toHaveLength(10);
    const refused = await call(lister, `/api/v1/deals/${deals[3]}/landlord-consent`, "POST", { landlord_name: "Ray", landlord_email: `ray${n}-x@landlord.test` });
    expect(refused.status).toBe(429);
    const body = await json<{ detail: string; retry_after: number }>(refused);
    expect(body.detail).toMatch(/10 landlord consent emails a day/);
    expect(body.retry_after).toBeGreaterThan(86_000);
    const links = await env.DB.prepare("SELECT count(*) AS n FROM landlord_consent_links l JOIN deals d ON d.id = l.deal_id WHERE d.lister_id = ?").bind(lister.user.id).first<{ n: number }>();
    expect(links?.n).toBe(10);
  });

  it("a landlord's decline holds for 180 days on that listing: no \"not needed\", consent only from that address; the renter reads why, staff see the flag", async () => {
    const { lister, renter, deal } = await acceptedDeal();
    const landlord = `strict${seq}@landlord.test`;
    await call(lister, `/api/v1/deals/${deal.id}/landlord-consent`, "POST", { landlord_name: "Strict", landlord_email: landlord });
    expect((await post(`/api/v1/landlord-consent/${await consentLink(landlord)}`, { decision: "declined", reason: "No sublets" })).status).toBe(200);
    // The same pair asks again for the same listing, and the lister accepts.
    const listingId = (await env.DB.prepare("SELECT listing_id FROM deals WHERE id = ?").bind(deal.id).first<{ listing_id: string }>())!.listing_id;
    const again = (await json<{ data: DealJson }>(await call(renter, "/api/v1/deals", "POST", { listing_id: listingId, move_in: "2027-02-01", move_out: "2027-02-20" }))).data;
    expect((await call(lister, `/api/v1/deals/${again.id}/accept`, "POST")).status).toBe(200);
    const bypass = await call(lister, `/api/v1/deals/${again.id}/landlord-consent`, "POST", { not_needed: true });
    expect(bypass.status).toBe(409);
    expect((await json<{ detail: string }>(bypass)).detail).toMatch(new RegExp(`${landlord.replace(".", "\\.")}.*180 days`));
    expect((await call(lister, `/api/v1/deals/${again.id}/landlord-consent`, "POST", { landlord_name: "Friend", landlord_email: `friend${seq}@landlord.test` })).status).toBe(409);
    const shown = (await json<{ data: { waiting_for: { party: string; step: string; detail: string } } }>(await call(renter, `/api/v1/deals/${again.id}`))).data;
    expect(shown.waiting_for).toMatchObject({ party: "lister", step: "landlord_consent" });
    expect(shown.waiting_for.detail).toMatch(/landlord of this place declined a sublease/);
    const token = await adminLogin();
    const staff = await json<{ data: { listing_flag: { landlord_email: string } | null } }>(await api(`/api/v1/admin/deals/${again.id}`, authed(token)));
    expect(staff.data.listing_flag?.landlord_email).toBe(landlord);
    // The same landlord may be asked again (and may say yes this time).
    expect((await call(lister, `/api/v1/deals/${again.id}/landlord-consent`, "POST", { landlord_name: "Strict", landlord_email: landlord.toUpperCase() })).status).toBe(200);
    // After 180 days the listing is free of it.
    await env.DB.prepare("UPDATE landlord_declines SET declined_at = ? WHERE listing_id = ?").bind(new Date(Date.now() - 181 * 86_400_000).toISOString(), listingId).run();
    expect((await call(lister, `/api/v1/deals/${again.id}/landlord-consent`, "POST", { not_needed: true })).status).toBe(200);
  });
});

describe("signing", () => {
  it("needs both identities verified and the consent settled; refusals for name, intent or consent use no try; 5 wrong codes spend the code", async () => {
    const { lister, renter, deal } = await acceptedDeal({ verified: false });
    await call(lister, `/api/v1/deals/${deal.id}/landlord-consent`, "POST", { not_needed: true });
    const notVerified = await signCode(renter, deal.id);
    expect(notVerified.status).toBe(409);
    expect((await json<{ detail: string }>(notVerified)).detail).toMatch(/verified identity/);
    await Promise.all([verify(lister.user.id), verify(renter.user.id)]);

    // Verified since acceptance: the text now names them by legal name, a new version; the one read before signs nothing.
    const before = await agreementOf(renter, deal.id);
    expect(before.text).toContain("identity not yet verified");
    const stale = await call(renter, `/api/v1/deals/${deal.id}/sign-code`, "POST", { agreement_version: before.version, sha256: before.sha256 });
    expect(stale.status).toBe(409);
    expect((await json<{ detail: string }>(stale)).detail).toMatch(/agreement changed/);
    const after = await agreementOf(renter, deal.id);
    expect(after.version).toBe(before.version + 1);
    expect(after.text).not.toContain("identity not yet verified");
    const read = { agreement_version: after.version, sha256: after.sha256 };
    expect((await call(renter, `/api/v1/deals/${deal.id}/sign-code`, "POST", read)).status).toBe(200);
    // One code per 60 s.
    const again = await call(renter, `/api/v1/deals/${deal.id}/sign-code`, "POST", read);
    expect(again.status).toBe(429);
    expect((await json<{ retry_after: number }>(again)).retry_after).toBeGreaterThan(0);

    const code = await latestCode(renter.user.email);
    const attempt = (body: Record<string, unknown>) => call(renter, `/api/v1/deals/${deal.id}/sign`, "POST", { typed_name: "josé  NÚÑEZ", intent: true, esign_consent: true, code, ...read, ...body });
    for (const [body, detail] of [
      // The refusal names the name on file (many US IDs drop diacritics: those are ignored, not the letters).
      [{ typed_name: "Josefa Nunez" }, /legal name as verified with your ID: type "José Núñez"/],
      [{ intent: false }, /intend to sign/],
      [{ esign_consent: false }, /electronically/],
    ] as const) {
      const res = await attempt(body);
      expect(res.status).toBe(422);
      expect((await json<{ detail: string }>(res)).detail).toMatch(detail);
    }
    const tries = async () => (await env.DB.prepare("SELECT attempts FROM deal_sign_codes WHERE deal_id = ? AND user_id = ?").bind(deal.id, renter.user.id).first<{ attempts: number }>())?.attempts;
    expect(await tries()).toBe(0);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) expect((await attempt({ code: wrong })).status).toBe(422);
    expect(await tries()).toBe(5);
    const spent = await attempt({});
    expect(spent.status).toBe(422);
    expect((await json<{ detail: string }>(spent)).detail).toMatch(/new code/);
    const row = await env.DB.prepare("SELECT renter_signed_at FROM deals WHERE id = ?").bind(deal.id).first<{ renter_signed_at: string | null }>();
    expect(row?.renter_signed_at).toBeNull();
  });

  it("both sign: `signed`, the PDF made inside workerd with the certificate, its text re-hashed, its hash recorded; only parties and staff download it", async () => {
    const { lister, renter, deal } = await acceptedDeal();
    await call(lister, `/api/v1/deals/${deal.id}/landlord-consent`, "POST", { not_needed: true });
    await agreementOf(lister, deal.id);
    await agreementOf(renter, deal.id);
    const first = await sign(lister, deal.id, "zoë ångström", "203.0.113.9");
    expect(first.status).toBe(200);
    expect((await json<{ data: DealJson }>(first)).data.status).toBe("accepted");
    // No consent change after the first signature.
    expect((await call(lister, `/api/v1/deals/${deal.id}/landlord-consent`, "POST", { not_needed: true })).status).toBe(409);
    const second = await sign(renter, deal.id, "José Núñez", "2001:db8:abcd:12::1");
    expect(second.status).toBe(200);
    const signed = (await json<{ data: DealJson }>(second)).data;
    expect(signed.status).toBe("signed");
    expect(signed.agreement?.renter_signed_at && signed.agreement.lister_signed_at).toBeTruthy();
    // Signing twice: 409.
    expect((await signCode(renter, deal.id)).status).toBe(409);

    const res = await call(renter, `/api/v1/deals/${deal.id}/agreement.pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const bytes = new Uint8Array(await res.arrayBuffer());
    const hex = (b: ArrayBuffer) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, "0")).join("");
    const row = await env.DB.prepare("SELECT pdf_key, pdf_sha256 FROM deals WHERE id = ?").bind(deal.id).first<{ pdf_key: string; pdf_sha256: string }>();
    expect(hex(await crypto.subtle.digest("SHA-256", bytes))).toBe(row?.pdf_sha256);
    expect(row?.pdf_key).toMatch(new RegExp(`^deals/${deal.id}/agreement-v\\d+-[0-9a-f]{16}\\.pdf$`));
    // In the private bucket only.
    expect(await env.ID_DOCUMENTS.head(row!.pdf_key)).not.toBeNull();
    expect(await env.IMAGES.head(row!.pdf_key)).toBeNull();

    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBeGreaterThanOrEqual(2);
    const agreement = await agreementOf(renter, deal.id);
    expect(pdf.getSubject()).toBe(`agreement-sha256:${agreement.sha256}`);
    const attachments = pdf.getAttachments();
    const text = new TextDecoder().decode(attachments.find((a) => a.name === "agreement.txt")!.data);
    expect(text).toBe(agreement.text);
    expect(hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))).toBe(agreement.sha256);
    const certificate = new TextDecoder().decode(attachments.find((a) => a.name === "certificate.txt")!.data);
    expect(certificate).toContain(`Agreement text SHA-256: ${agreement.sha256}`);
    for (const type of ["requested", "accepted", "landlord_consent_not_needed", "viewed", "esign_consent", "signed", "completed"]) expect(certificate, type).toContain(`  ${type}  `);
    // Addresses by network in the PDF; whole for staff.
    expect(certificate).toContain("203.0.113.0/24");
    expect(certificate).toContain("2001:db8:abcd::/48");
    expect(certificate).not.toContain("203.0.113.9");
    // The accented names are drawn with the embedded font (a subset of DejaVu Sans).
    expect(new TextDecoder("latin1").decode(bytes)).toMatch(/DejaVuSans/);

    const token = await adminLogin();
    const staff = await json<{ data: { events: { type: string; ip: string | null }[]; pdf_sha256: string } }>(await api(`/api/v1/admin/deals/${deal.id}`, authed(token)));
    expect(staff.data.events.find((e) => e.type === "signed" && e.ip === "203.0.113.9")).toBeTruthy();
    expect(staff.data.pdf_sha256).toBe(row?.pdf_sha256);
    expect((await api(`/api/v1/deals/${deal.id}/agreement.pdf`, authed(token))).status).toBe(200);
    const stranger = await signUp(`pdfstranger${seq}@deals.test`);
    expect((await call(stranger, `/api/v1/deals/${deal.id}/agreement.pdf`)).status).toBe(404);
    expect((await api(`/api/v1/deals/${deal.id}/agreement.pdf`)).status).toBe(401);
    // Both were emailed the link.
    for (const s of [renter, lister]) {
      const mail = await json<{ data: { subject: string }[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent(s.user.email)}`));
      expect(mail.data.some((m) => m.subject.startsWith("Signed:"))).toBe(true);
    }
    // Events are append-only.
    await expect(env.DB.prepare("UPDATE deal_events SET type = 'x' WHERE deal_id = ?").bind(deal.id).run()).rejects.toThrow(/append-only/);
  });

  it("the signed PDF reads as a document: bold headings, \"Page N of M\" on every page, the certificate by the names signed with, the two hashes labelled apart here and in the email", async () => {
    const { lister, renter, deal } = await acceptedDeal();
    await call(lister, `/api/v1/deals/${deal.id}/landlord-consent`, "POST", { landlord_name: "Lee Owner", landlord_email: `pdflee${seq}@landlord.test` });
    expect((await post(`/api/v1/landlord-consent/${await consentLink(`pdflee${seq}@landlord.test`)}`, { decision: "granted" })).status).toBe(200);
    expect((await sign(lister, deal.id, "Zoë Ångström")).status).toBe(200);
    expect((await sign(renter, deal.id, "José Núñez")).status).toBe(200);
    const agreement = await agreementOf(renter, deal.id);
    const bytes = new Uint8Array(await (await call(renter, `/api/v1/deals/${deal.id}/agreement.pdf`)).arrayBuffer());
    const pdfSha = [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((x) => x.toString(16).padStart(2, "0")).join("");
    const pages = await pdfPages(bytes);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    const all = pages.flat();
    const boldLines = all.filter((r) => r.font === "DejaVuSans-Bold").map((r) => r.text);
    // Headings bold: the title, each numbered section's title, the signatures and the certificate; the clauses are not.
    expect(boldLines).toEqual(expect.arrayContaining(["SUBLEASE AGREEMENT", "1. Parties", "3. Term", "SIGNATURES", "CERTIFICATE OF SIGNATURES"]));
    expect(all.find((r) => r.text.startsWith("This sublease agreement is between"))?.font).toBe("DejaVuSans");
    // Every page says which of how many it is, as its last line.
    pages.forEach((runs, i) => expect(runs.at(-1)?.text).toBe(`Page ${i + 1} of ${pages.length}`));
    // The certificate names people by the names the agreement holds, never by an internal id.
    const certificate = pageText(pages.at(-1)!);
    expect(certificate).toContain("Tenant: Zoë Ångström");
    expect(certificate).toContain("Subtenant: José Núñez");
    expect(certificate).toContain("signed by Zoë Ångström (Tenant)");
    expect(certificate).toContain("signed by José Núñez (Subtenant)");
    expect(certificate).toContain("landlord_consent_granted by Lee Owner (Landlord)");
    for (const id of [lister.user.id, renter.user.id]) expect(pageText(all), "no internal id").not.toContain(id);
    // The text's hash, labelled as the deal page labels it; the file's own hash is not in the file but in the email, labelled apart.
    expect(certificate).toContain(`Agreement text SHA-256: ${agreement.sha256}`);
    expect(pageText(all)).not.toContain(pdfSha);
    const mail = await json<{ data: { subject: string; text: string }[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent(renter.user.email)}`));
    const signedMail = mail.data.find((m) => m.subject.startsWith("Signed:"))!.text;
    expect(signedMail).toContain(`Agreement text SHA-256 (the words both of you signed, as the deal page shows it): ${agreement.sha256}`);
    expect(signedMail).toContain(`PDF file SHA-256 (the file you download, to check your copy is the one made at signing): ${pdfSha}`);
    expect(signedMail).not.toContain("Document SHA-256");
  });

  it("a signature is tied to the text its signer read: a version or hash no longer current signs nothing, and a code signs only its own version", async () => {
    const { lister, renter, deal } = await acceptedDeal();
    await call(lister, `/api/v1/deals/${deal.id}/landlord-consent`, "POST", { landlord_name: "Lee Owner", landlord_email: `lee${seq}@landlord.test` });
    expect((await post(`/api/v1/landlord-consent/${await consentLink(`lee${seq}@landlord.test`)}`, { decision: "granted" })).status).toBe(200);
    // The renter reads the granted version and asks a code for it.
    const readThen = await readBy(renter, deal.id);
    expect((await call(renter, `/api/v1/deals/${deal.id}/sign-code`, "POST", readThen)).status).toBe(200);
    const oldCode = await latestCode(renter.user.email);
    // The lister then changes the consent: a new version the renter never read.
    const changed = (await json<{ data: DealJson }>(await call(lister, `/api/v1/deals/${deal.id}/landlord-consent`, "POST", { not_needed: true }))).data;
    expect(changed.agreement!.version).toBe(readThen.agreement_version + 1);
    const body = { typed_name: "José Núñez", intent: true, esign_consent: true, code: oldCode };
    const withOldText = await call(renter, `/api/v1/deals/${deal.id}/sign`, "POST", { ...body, ...readThen });
    expect(withOldText.status).toBe(409);
    expect((await json<{ detail: string }>(withOldText)).detail).toMatch(/agreement changed/);
    const current = await readBy(renter, deal.id);
    const wrongHash = await call(renter, `/api/v1/deals/${deal.id}/sign`, "POST", { ...body, agreement_version: current.agreement_version, sha256: readThen.sha256 });
    expect(wrongHash.status).toBe(409);
    const oldCodeNewText = await call(renter, `/api/v1/deals/${deal.id}/sign`, "POST", { ...body, ...current });
    expect(oldCodeNewText.status).toBe(409);
    expect((await json<{ detail: string }>(oldCodeNewText)).detail).toMatch(/another version/);
    const row = await env.DB.prepare("SELECT renter_signed_at FROM deals WHERE id = ?").bind(deal.id).first<{ renter_signed_at: string | null }>();
    expect(row?.renter_signed_at).toBeNull();
    expect(await env.DB.prepare("SELECT attempts FROM deal_sign_codes WHERE deal_id = ? AND user_id = ?").bind(deal.id, renter.user.id).first()).toEqual({ attempts: 0 });
    // A code for the text now read signs it, and the signature records that version.
    await env.DB.prepare("UPDATE deal_sign_codes SET created_at = '2020-01-01T00:00:00.000Z' WHERE deal_id = ?").bind(deal.id).run();
    expect((await call(renter, `/api/v1/deals/${deal.id}/sign-code`, "POST", current)).status).toBe(200);
    expect((await call(renter, `/api/v1/deals/${deal.id}/sign`, "POST", { ...body, code: await latestCode(renter.user.email), ...current })).status).toBe(200);
    const signed = await env.DB.prepare("SELECT agreement_version, document_sha256 FROM deal_events WHERE deal_id = ? AND type = 'signed'").bind(deal.id).first();
    expect(signed).toEqual({ agreement_version: current.agreement_version, document_sha256: current.sha256 });
    // A body without what was read is refused with a readable 422.
    const missing = await call(lister, `/api/v1/deals/${deal.id}/sign-code`, "POST", {});
    expect(missing.status).toBe(422);
    expect((await json<{ detail: string }>(missing)).detail).toMatch(/agreement_version/);
  });

  it("sign and cancel at once end in one valid state", async () => {
    for (let trial = 0; trial < 3; trial++) {
      const { lister, renter, deal } = await acceptedDeal();
      await call(lister, `/api/v1/deals/${deal.id}/landlord-consent`, "POST", { not_needed: true });
      expect((await sign(lister, deal.id, "Zoë Ångström")).status).toBe(200);
      const read = await readBy(renter, deal.id);
      await call(renter, `/api/v1/deals/${deal.id}/sign-code`, "POST", read);
      const code = await latestCode(renter.user.email);
      const [s, c] = await Promise.all([
        call(renter, `/api/v1/deals/${deal.id}/sign`, "POST", { typed_name: "José Núñez", intent: true, esign_consent: true, code, ...read }),
        call(lister, `/api/v1/deals/${deal.id}/cancel`, "POST"),
      ]);
      const row = await env.DB.prepare("SELECT status, renter_signed_at FROM deals WHERE id = ?").bind(deal.id).first<{ status: string; renter_signed_at: string | null }>();
      if (row?.status === "signed") {
        expect(s.status).toBe(200);
        expect(c.status).toBe(409);
      } else {
        expect(row?.status).toBe("cancelled");
        expect(c.status).toBe(200);
        expect(s.status).toBe(409);
        expect(row?.renter_signed_at).toBeNull();
      }
    }
  });
});

describe("the legal name", () => {
  it("is recorded when the identity is verified (any path), and a rename afterwards sends the identity back to review", async () => {
    const user = await signUp(`legal${++seq}@deals.test`, "secret-pass-1", { first_name: "Ana", last_name: "Lima" });
    const token = await adminLogin();
    const set = await api(`/api/v1/admin/users/${user.user.id}/verify`, authed(token, { method: "PATCH", body: JSON.stringify({ verification_status: "verified" }), headers: { "content-type": "application/json" } }));
    expect(set.status).toBe(200);
    const legal = () => env.DB.prepare("SELECT legal_first_name, legal_last_name, id_verification_status FROM users WHERE id = ?").bind(user.user.id).first();
    expect(await legal()).toMatchObject({ legal_first_name: "Ana", legal_last_name: "Lima", id_verification_status: "verified" });
    const renamed = await call(user, "/api/v1/users/profile", "PATCH", { first_name: "Anna" });
    expect(renamed.status).toBe(200);
    expect((await json<{ data: { id_verification_status: string } }>(renamed)).data.id_verification_status).toBe("pending");
    expect(await legal()).toMatchObject({ legal_first_name: "Ana", id_verification_status: "pending" });
    const queued = await env.DB.prepare("SELECT status, notes FROM verification_requests WHERE user_id = ?").bind(user.user.id).first<{ status: string; notes: string }>();
    expect(queued?.status).toBe("pending");
    expect(queued?.notes).toContain('"Anna Lima"');
    // A phone change is no rename.
    await verify(user.user.id);
    expect((await json<{ data: { id_verification_status: string } }>(await call(user, "/api/v1/users/profile", "PATCH", { phone: "5551234567" }))).data.id_verification_status).toBe("verified");
    expect(await legal()).toMatchObject({ legal_first_name: "Anna" });
  });

  it("compares names ignoring case, repeated spaces and diacritics, and shortens addresses to their network", () => {
    expect(namesMatch("  josé   NÚÑEZ ", "José Núñez")).toBe(true);
    expect(namesMatch("Jose Nunez", "José Núñez")).toBe(true);
    expect(namesMatch("Lister-Novak", "Lister-Novák")).toBe(true);
    // Decomposed and composed forms are the same name; other letters are not.
    expect(namesMatch("Zoe\u0308 Ångström", "Zoë Ångström")).toBe(true);
    expect(namesMatch("Jose Nunes", "José Núñez")).toBe(false);
    expect(networkOf("198.51.100.23")).toBe("198.51.100.0/24");
    expect(networkOf("2001:db8::1")).toBe("2001:db8:0::/48");
    expect(networkOf(null)).toBe("unknown");
  });
});
