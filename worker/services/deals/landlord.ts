/**
 * The landlord's consent (docs/decisions/026): the lister states that none is needed, or CampusNest
 * emails the landlord a link to a page that needs no account. The link's token is 256 random bits of
 * which only the SHA-256 is stored; it is single-purpose, expires after 14 days, and a used, replaced
 * or expired link answers 410. At most 3 emails per deal a day. Each change before the first signature
 * makes a new agreement version (the text states the consent); none is possible after it.
 */
import { DEAL_MESSAGES as M, DEAL_REASONS, DEAL_TIMING, shortDate, type Deal, type LandlordConsentInput, type LandlordConsentPage, type LandlordDecisionInput } from "../../contract/deals";
import { primaryOf, type Db } from "../../db/client";
import { eventStatement, findConsentLink, findDeal, insertLinkStatement, supersedeLinksStatement, useLinkStatement, consentLinksSince, type DealRow } from "../../db/queries/deals";
import type { UserRow } from "../../db/queries/users";
import { bytesToBase64Url, sha256Hex } from "../../lib/encoding";
import { apiError, conflict, forbidden, notFound, tooManyRequests } from "../../lib/errors";
import { log } from "../../lib/log";
import { isoNow } from "../../lib/time";
import { notify } from "../notify";
import { legalNameOf, partyNames } from "./agreement";
import { emailParties, partyDeal, publishDeal, requireState, toDeal, transition, type Effects, type RequestMeta } from "./index";
import { newVersionIfChanged } from "./signing";

const DAY_MS = 86_400_000;
const tokenHashOf = (token: string) => sha256Hex(`landlord-consent:${token}`);
const gone = () => apiError(410, { detail: M.consentLinkUsed });

/** The lister's choice: `{not_needed: true}`, or a request emailed to the landlord. */
export async function setLandlordConsent(db: Db, fx: Effects, user: UserRow, id: string, input: LandlordConsentInput, meta: RequestMeta, nowMs = Date.now()): Promise<Deal> {
  const now = isoNow(nowMs);
  const { deal } = await partyDeal(db, id, user.id);
  if (deal.lister_id !== user.id) throw forbidden(M.onlyLister);
  const token = bytesToBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  const tokenHash = await tokenHashOf(token);
  const checks = (d: DealRow) => {
    if (d.lister_id !== user.id) throw forbidden(M.onlyLister);
    requireState(d, "requested", "accepted");
    if (d.renter_signed_at || d.lister_signed_at) throw conflict(M.consentAfterSignature);
  };

  if ("not_needed" in input) {
    const { after } = await transition(
      db,
      id,
      async (d) => {
        checks(d);
        const change = { landlord_consent: "not_needed", landlord_name: null, landlord_email: null, landlord_reason: null };
        const version = await newVersionIfChanged(db, d, now, change);
        return {
          set: { ...change, ...(version && { agreement_version: version.version }) },
          statements: [
            supersedeLinksStatement(d.id, now),
            ...(version?.statements ?? []),
            eventStatement(d.id, { type: "landlord_consent_not_needed", actorId: user.id, actorRole: "lister", at: now, ip: meta.ip, userAgent: meta.userAgent, agreementVersion: version?.version ?? null, sha256: version?.sha256 ?? null }),
          ],
        };
      },
      now,
    );
    fx.defer(publishDeal(fx, after));
    return toDeal(after, fx.config);
  }

  const since = isoNow(nowMs - DAY_MS);
  const sentToday = await consentLinksSince(db, id, since);
  if (sentToday.length >= DEAL_TIMING.consentEmailsPerDay) throw limitError(sentToday, nowMs);
  const { after } = await transition(
    db,
    id,
    async (d) => {
      checks(d);
      // At most 3 emails per deal a day: every link is written under the deal's version, so this count,
      // read after the version, cannot be passed by two taps at once (the loser retries and counts again).
      const sent = await consentLinksSince(primaryOf(db), d.id, since);
      if (sent.length >= DEAL_TIMING.consentEmailsPerDay) throw limitError(sent, nowMs);
      const change = { landlord_consent: "requested", landlord_name: input.landlord_name, landlord_email: input.landlord_email.toLowerCase(), landlord_reason: null };
      const version = await newVersionIfChanged(db, d, now, change);
      return {
        set: { ...change, ...(version && { agreement_version: version.version }) },
        statements: [
          supersedeLinksStatement(d.id, now),
          insertLinkStatement({
            token_hash: tokenHash,
            deal_id: d.id,
            landlord_name: input.landlord_name,
            landlord_email: input.landlord_email.toLowerCase(),
            reason: input.reason || null,
            tenant_address: input.tenant_address || null,
            expires_at: isoNow(nowMs + DEAL_TIMING.consentLinkTtlMs),
            created_at: now,
          }),
          ...(version?.statements ?? []),
          // No address of the landlord in the events (they are shown to both parties); the name is enough.
          eventStatement(d.id, { type: "landlord_consent_requested", actorId: user.id, actorRole: "lister", at: now, ip: meta.ip, userAgent: meta.userAgent, agreementVersion: version?.version ?? null, sha256: version?.sha256 ?? null, details: { landlord_name: input.landlord_name } }),
        ],
      };
    },
    now,
  );
  const names = await partyNames(db, after);
  const sent = await notify(
    { db, env: fx.env, config: fx.config },
    { address: input.landlord_email, firstName: input.landlord_name },
    {
      kind: "landlord_consent_request",
      landlordName: input.landlord_name,
      tenantName: legalNameOf(names.lister).replace(/ \(identity not yet verified\)$/, ""),
      subtenantName: legalNameOf(names.renter).replace(/ \(identity not yet verified\)$/, ""),
      address: after.address ?? after.listing_address ?? "",
      term: `${shortDate(after.move_in)} to ${shortDate(after.move_out)}`,
      url: `${fx.config.publicBaseUrl}/landlord-consent/${token}`,
    },
  );
  if (sent.status !== "sent") log.warn("landlord_consent_email_failed", { deal: after.id });
  fx.defer(publishDeal(fx, after));
  return toDeal(after, fx.config);
}

/** 429 with the seconds until the oldest of the day's emails is a day old. */
const limitError = (sent: string[], nowMs: number) => tooManyRequests(Math.max(1, Math.ceil((Date.parse(sent[0] ?? isoNow(nowMs)) + DAY_MS - nowMs) / 1000)), M.consentEmailsLimit);

/** The link, if it can still be answered: 404 unknown, 410 used, replaced, expired, or its deal ended. */
async function liveLink(db: Db, token: string, nowMs: number) {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw notFound(M.consentLinkUnknown);
  const link = await findConsentLink(db, await tokenHashOf(token));
  if (!link) throw notFound(M.consentLinkUnknown);
  if (link.used_at || link.expires_at <= isoNow(nowMs)) throw gone();
  const deal = await findDeal(db, link.deal_id);
  if (!deal || !["requested", "accepted"].includes(deal.status) || deal.renter_signed_at || deal.lister_signed_at) throw gone();
  return { link, deal };
}

export async function consentPage(db: Db, token: string, nowMs = Date.now()): Promise<LandlordConsentPage> {
  const { link, deal } = await liveLink(db, token, nowMs);
  const names = await partyNames(db, deal);
  const plain = (n: Parameters<typeof legalNameOf>[0]) => legalNameOf(n).replace(/ \(identity not yet verified\)$/, "");
  return {
    status: "requested",
    landlord_name: link.landlord_name,
    term: { move_in: deal.move_in, move_out: deal.move_out },
    tenant_name: plain(names.lister),
    subtenant_name: plain(names.renter),
    reason: link.reason,
    tenant_address_during_sublease: link.tenant_address,
    // The landlord is told where: the full address (their own property), as the lister gave it.
    listing_address: deal.address ?? deal.listing_address ?? "",
    monthly_rent: deal.monthly_rent,
    address_given_by_lister: true,
    address_note: "The address and this request were given by the tenant. CampusNest has not checked them.",
    expires_at: link.expires_at,
  };
}

/** The landlord's answer: granted (a new agreement version), or declined (the deal is cancelled). */
export async function decideConsent(db: Db, fx: Effects, token: string, input: LandlordDecisionInput, meta: RequestMeta, nowMs = Date.now()): Promise<{ status: "granted" | "declined" }> {
  const now = isoNow(nowMs);
  const { link } = await liveLink(db, token, nowMs);
  const reason = input.reason || null;
  const { after } = await transition(
    db,
    link.deal_id,
    async (d) => {
      if (!["requested", "accepted"].includes(d.status) || d.renter_signed_at || d.lister_signed_at) throw gone();
      const event = eventStatement(d.id, {
        type: `landlord_consent_${input.decision}`,
        actorId: null,
        actorRole: "landlord",
        at: now,
        ip: meta.ip,
        userAgent: meta.userAgent,
        details: { landlord_name: link.landlord_name, ...(reason && { reason }) },
      });
      const use = useLinkStatement(link.token_hash, input.decision, reason, now);
      // Every change of a link happens under the deal's version: read after it, this is still true at the write.
      const current = await findConsentLink(primaryOf(db), link.token_hash);
      if (!current || current.used_at) throw gone();
      if (input.decision === "declined") {
        return {
          set: { landlord_consent: "declined", landlord_reason: reason, status: "cancelled", status_reason: reason ? `${DEAL_REASONS.landlordDeclined}: ${reason}` : DEAL_REASONS.landlordDeclined, expires_at: null },
          statements: [use, event],
        };
      }
      const change = { landlord_consent: "granted", landlord_reason: reason };
      const version = await newVersionIfChanged(db, d, now, change);
      return {
        set: { ...change, ...(version && { agreement_version: version.version }) },
        statements: [use, ...(version?.statements ?? []), event],
      };
    },
    now,
  );
  fx.defer(
    (async () => {
      await publishDeal(fx, after);
      await emailParties(
        db,
        fx,
        after,
        ["lister", "renter"],
        input.decision === "granted" ? `Landlord consent granted: "${after.listing_title}"` : `Landlord consent declined: "${after.listing_title}"`,
        input.decision === "granted"
          ? ["The landlord consented to the sublease. You can both sign the agreement now."]
          : [`The landlord declined the sublease, so the deal was cancelled.${reason ? ` Reason: ${reason}` : ""}`],
      );
    })().catch((err: unknown) => log.warn("deal_followup_failed", { error: err instanceof Error ? err.name : "unknown" })),
  );
  return { status: input.decision };
}
