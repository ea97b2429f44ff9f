/**
 * The landlord's consent (docs/decisions/026, 035): once the request is accepted, the lister states that
 * none is needed, or CampusNest emails the landlord a link to a page that needs no account. The link's
 * token is 256 random bits of which only the SHA-256 is stored; it expires after 14 days, and a used,
 * replaced or expired link answers 410. At most 3 emails per deal and 10 per lister a day (counted inside
 * the write). The email quotes the deal's snapshot address, never the listing's live one. A landlord who
 * declined cannot be bypassed on that listing for 180 days: no "not needed", and consent only from the
 * address that declined. Each change before the first signature makes a new agreement version.
 */
import { DEAL_MESSAGES as M, DEAL_REASONS, DEAL_TIMING, shortDate, type Deal, type LandlordConsentInput, type LandlordConsentPage, type LandlordDecisionInput } from "../../contract/deals";
import { primaryOf, type Db } from "../../db/client";
import {
  consentEmailRoom,
  consentLinksOfListerSince,
  consentLinksSince,
  eventStatement,
  findConsentLink,
  findDeal,
  insertLinkStatement,
  landlordDeclineStatement,
  supersedeLinksStatement,
  useLinkStatement,
  type ConsentLinkRow,
  type DealRow,
} from "../../db/queries/deals";
import type { UserRow } from "../../db/queries/users";
import { bytesToBase64Url, sha256Hex } from "../../lib/encoding";
import { apiError, conflict, notFound, tooManyRequests } from "../../lib/errors";
import { log } from "../../lib/log";
import { isoNow } from "../../lib/time";
import { notify } from "../notify";
import { legalNameOf, partyNames } from "./agreement";
import { answerFor, eventBy, partyDeal, transition, type Effects, type RequestMeta } from "./index";
import { newVersionIfChanged } from "./signing";

const DAY_MS = 86_400_000;
const tokenHashOf = (token: string) => sha256Hex(`landlord-consent:${token}`);
/**
 * 410, saying what happened to the link: answered (how and when; `code` answered_granted or _declined), replaced by a newer
 * request, expired, or its deal moved on.
 */
const gone = (link?: Pick<ConsentLinkRow, "used_at" | "decision" | "expires_at">, nowMs = Date.now()) => {
  if (link?.used_at && (link.decision === "granted" || link.decision === "declined")) {
    return apiError(410, { detail: M.consentLinkAnswered(link.decision, shortDate(link.used_at.slice(0, 10))), code: `answered_${link.decision}` });
  }
  if (link?.used_at && link.decision === "superseded") return apiError(410, { detail: M.consentLinkReplaced });
  if (link && link.expires_at <= isoNow(nowMs)) return apiError(410, { detail: M.consentLinkExpired });
  return apiError(410, { detail: link ? M.consentLinkClosed : M.consentLinkUsed });
};
const plainName = (n: Parameters<typeof legalNameOf>[0]) => legalNameOf(n).replace(/ \(identity not yet verified\)$/, "");

/** The listing's landlord decline that still binds (180 days), else null. */
const bindingDecline = (d: DealRow, nowMs: number) =>
  d.landlord_declined_at && d.landlord_declined_email && nowMs - Date.parse(d.landlord_declined_at) < DEAL_TIMING.landlordDeclineHoldsMs
    ? { at: d.landlord_declined_at, email: d.landlord_declined_email }
    : null;

/** The 180-day rule: no "not needed", and consent only from the address that declined (409 otherwise). */
function refuseBypass(d: DealRow, input: LandlordConsentInput, nowMs: number) {
  const decline = bindingDecline(d, nowMs);
  if (!decline) return;
  if ("not_needed" in input || input.landlord_email.toLowerCase() !== decline.email.toLowerCase()) throw conflict(M.landlordDeclined(shortDate(decline.at.slice(0, 10)), decline.email));
}

/** The lister's choice: `{not_needed: true}`, or a request emailed to the landlord. */
export async function setLandlordConsent(db: Db, fx: Effects, user: UserRow, id: string, input: LandlordConsentInput, meta: RequestMeta, nowMs = Date.now()): Promise<Deal> {
  const now = isoNow(nowMs);
  await partyDeal(db, id, user.id);
  const by = eventBy("lister", user.id, now, meta);

  if ("not_needed" in input) {
    const { after } = await transition(
      db,
      fx,
      id,
      "landlord_consent",
      { user: user.id },
      async (d) => {
        refuseBypass(d, input, nowMs);
        const change = { landlord_consent: "not_needed" as const, landlord_name: null, landlord_email: null, landlord_reason: null };
        const version = await newVersionIfChanged(db, d, now, change);
        return {
          set: { ...change, ...(version && { agreement_version: version.version }) },
          statements: [supersedeLinksStatement(d.id, now), ...(version?.statements ?? []), eventStatement(d.id, { type: "landlord_consent_not_needed", ...by, agreementVersion: version?.version ?? null, sha256: version?.sha256 ?? null })],
        };
      },
      nowMs,
    );
    return answerFor(db, fx, after, user.id, nowMs);
  }

  const since = isoNow(nowMs - DAY_MS);
  const email = input.landlord_email.toLowerCase();
  const token = bytesToBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  const tokenHash = await tokenHashOf(token);
  const { after } = await transition(
    db,
    fx,
    id,
    "landlord_consent",
    { user: user.id },
    async (d) => {
      refuseBypass(d, input, nowMs);
      const change = { landlord_consent: "requested" as const, landlord_name: input.landlord_name, landlord_email: email, landlord_reason: null };
      const version = await newVersionIfChanged(db, d, now, change);
      return {
        set: { ...change, ...(version && { agreement_version: version.version }) },
        statements: [
          supersedeLinksStatement(d.id, now),
          insertLinkStatement({
            token_hash: tokenHash,
            deal_id: d.id,
            landlord_name: input.landlord_name,
            landlord_email: email,
            reason: input.reason || null,
            tenant_address: input.tenant_address || null,
            expires_at: isoNow(nowMs + DEAL_TIMING.consentLinkTtlMs),
            created_at: now,
          }),
          ...(version?.statements ?? []),
          // No address of the landlord in the events (they are shown to both parties); the name is enough.
          eventStatement(d.id, { type: "landlord_consent_requested", ...by, agreementVersion: version?.version ?? null, sha256: version?.sha256 ?? null, details: { landlord_name: input.landlord_name } }),
        ],
        // At most 3 emails per deal and 10 per lister a day, counted inside the transaction: two taps, or two deals, at once cannot pass it together.
        condition: {
          statement: consentEmailRoom(d.id, d.lister_id, tokenHash, since, DEAL_TIMING.consentEmailsPerDay, DEAL_TIMING.consentEmailsPerListerPerDay),
          error: () => new ConsentLimit(),
        },
      };
    },
    nowMs,
  ).catch(async (err: unknown) => {
    if (!(err instanceof ConsentLimit)) throw err;
    throw await limitError(db, id, user.id, since, nowMs);
  });
  const names = await partyNames(db, after);
  const sent = await notify(
    { db, env: fx.env, config: fx.config },
    { address: email, firstName: input.landlord_name },
    {
      kind: "landlord_consent_request",
      landlordName: input.landlord_name,
      tenantName: plainName(names.lister),
      subtenantName: plainName(names.renter),
      // The snapshot taken at acceptance: a later edit of the listing cannot change what the landlord reads.
      address: after.address ?? "",
      term: `${shortDate(after.move_in)} to ${shortDate(after.move_out)}`,
      url: `${fx.config.publicBaseUrl}/landlord-consent/${token}`,
    },
  );
  if (sent.status !== "sent") log.warn("landlord_consent_email_failed", { deal: after.id });
  return answerFor(db, fx, after, user.id, nowMs);
}

class ConsentLimit extends Error {}

/** 429 with the seconds until the oldest of the day's emails (of the deal, or of the lister) is a day old. */
async function limitError(db: Db, dealId: string, listerId: string, since: string, nowMs: number) {
  const primary = primaryOf(db);
  const [ofDeal, ofLister] = await Promise.all([consentLinksSince(primary, dealId, since), consentLinksOfListerSince(primary, listerId, since)]);
  const byDeal = ofDeal.length >= DEAL_TIMING.consentEmailsPerDay;
  const [sent, limit, detail] = byDeal ? [ofDeal, DEAL_TIMING.consentEmailsPerDay, M.consentEmailsLimit] : [ofLister, DEAL_TIMING.consentEmailsPerListerPerDay, M.consentEmailsListerLimit];
  const oldest = sent[Math.max(0, sent.length - limit)];
  return tooManyRequests(Math.max(1, Math.ceil((Date.parse(oldest ?? isoNow(nowMs)) + DAY_MS - nowMs) / 1000)), detail);
}

/** The link, if it can still be answered: 404 unknown, 410 used, replaced, expired, or its deal ended. */
async function liveLink(db: Db, token: string, nowMs: number) {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw notFound(M.consentLinkUnknown);
  const link = await findConsentLink(db, await tokenHashOf(token));
  if (!link) throw notFound(M.consentLinkUnknown);
  if (link.used_at || link.expires_at <= isoNow(nowMs)) throw gone(link, nowMs);
  const deal = await findDeal(db, link.deal_id);
  if (!deal || deal.status !== "accepted" || deal.renter_signed_at || deal.lister_signed_at) throw gone(link, nowMs);
  return { link, deal };
}

export async function consentPage(db: Db, token: string, nowMs = Date.now()): Promise<LandlordConsentPage> {
  const { link, deal } = await liveLink(db, token, nowMs);
  const names = await partyNames(db, deal);
  return {
    status: "requested",
    landlord_name: link.landlord_name,
    term: { move_in: deal.move_in, move_out: deal.move_out },
    tenant_name: plainName(names.lister),
    subtenant_name: plainName(names.renter),
    reason: link.reason,
    tenant_address_during_sublease: link.tenant_address,
    // The landlord is told where: the full address (their own property) as the deal's snapshot holds it.
    listing_address: deal.address ?? deal.listing_address ?? "",
    monthly_rent: deal.monthly_rent,
    address_given_by_lister: true,
    address_note: "The address and this request were given by the tenant. CampusNest has not checked them.",
    expires_at: link.expires_at,
  };
}

/** The landlord's answer: granted (a new agreement version), or declined (the deal is cancelled and the listing flagged). */
export async function decideConsent(db: Db, fx: Effects, token: string, input: LandlordDecisionInput, meta: RequestMeta, nowMs = Date.now()): Promise<{ status: "granted" | "declined" }> {
  const now = isoNow(nowMs);
  const { link } = await liveLink(db, token, nowMs);
  const reason = input.reason || null;
  await transition(
    db,
    fx,
    link.deal_id,
    input.decision === "granted" ? "landlord_grant" : "landlord_decline",
    { role: "landlord" },
    async (d) => {
      const event = eventStatement(d.id, {
        type: input.decision === "granted" ? "landlord_consent_granted" : "landlord_consent_declined",
        ...eventBy("landlord", null, now, meta),
        details: { landlord_name: link.landlord_name, ...(reason && { reason }) },
      });
      const use = useLinkStatement(link.token_hash, input.decision, reason, now);
      // Every change of a link happens under the deal's version: read after it, this is still true at the write.
      const current = await findConsentLink(primaryOf(db), link.token_hash);
      if (!current || current.used_at) throw gone(current ?? undefined, nowMs);
      if (input.decision === "declined") {
        return {
          set: { landlord_consent: "declined", landlord_reason: reason, status: "cancelled", status_reason: reason ? `${DEAL_REASONS.landlordDeclined}: ${reason}` : DEAL_REASONS.landlordDeclined, expires_at: null },
          statements: [use, event, ...(d.listing_id ? [landlordDeclineStatement(d.listing_id, link.landlord_email, d.id, now)] : [])],
          noticeFacts: { consent: "declined", reason },
        };
      }
      const change = { landlord_consent: "granted" as const, landlord_reason: reason };
      const version = await newVersionIfChanged(db, d, now, change);
      return { set: { ...change, ...(version && { agreement_version: version.version }) }, statements: [use, ...(version?.statements ?? []), event], noticeFacts: { consent: "granted", reason } };
    },
    nowMs,
  ).catch((err: unknown) => {
    // The deal moved on since the link was read (signed, cancelled): the link is spent.
    if ((err as { status?: number }).status === 409) throw gone();
    throw err;
  });
  return { status: input.decision };
}
