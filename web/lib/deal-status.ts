/**
 * A deal in words, the same on the card in the thread, the deal page, the profile and the staff
 * panel: its status, and its next step with whose it is.
 */
import { DEAL_WORDS, type Deal, type DealStatus, type LandlordConsentStatus } from "@contract/deals";
import { formatStay } from "@contract/constants";

export const DEAL_STATUS_LABELS: Record<DealStatus, string> = {
  requested: "Requested",
  accepted: "Accepted",
  signed: "Signed",
  paid: "Paid",
  moved_in: "Moved in",
  released: "Completed",
  declined: "Declined",
  cancelled: "Cancelled",
  expired: "Expired",
  refunded: "Refunded",
  disputed: "Problem reported",
};

export const CONSENT_LABELS: Record<LandlordConsentStatus, string> = {
  none: "Not settled yet",
  not_needed: "Not needed: the lease allows subletting",
  requested: "Asked; waiting for the landlord",
  granted: "Granted by the landlord",
  declined: "Declined by the landlord",
};

/** Reasons the server gives for an ended deal, in words (an unknown one is shown as sent). */
const REASON_TEXTS: Record<string, string> = {
  cancelled_by_renter: "The renter cancelled.",
  cancelled_by_lister: "The lister cancelled.",
  request_expired: `The request was not answered within ${DEAL_WORDS.requestHours} hours.`,
  not_paid_by_move_in: "The deal was not paid by the move-in date.",
  stay_taken: "These dates were taken by another request.",
  listing_deleted: "The listing was deleted.",
  account_deleted: "An account in this deal was deleted.",
  party_suspended: "A party to this deal was suspended.",
  party_blocked: "One party blocked the other.",
  landlord_declined: "The landlord declined to consent.",
};
/** The reason in words; a person's own reason (and the landlord's, after "landlord_declined: ") as written. */
export function reasonText(reason: string | null): string | null {
  if (!reason) return null;
  const landlord = /^landlord_declined:\s*(.+)$/s.exec(reason);
  if (landlord) return `The landlord declined to consent: ${landlord[1]}`;
  return REASON_TEXTS[reason] ?? reason;
}

export type DealRole = "renter" | "lister";
export const roleIn = (deal: Deal, me: string | undefined): DealRole | null => (deal.renter.id === me ? "renter" : deal.lister.id === me ? "lister" : null);

/** Either party may cancel a deal until it is paid (cancelling later is part of the payment's rules). */
export const canCancel = (status: DealStatus) => status === "requested" || status === "accepted" || status === "signed";

export interface NextStep {
  text: string;
  /** Whose step it is: the viewer's own ("you"), the other party's, the landlord's, or nobody's (ended). */
  whose: "you" | "other" | "landlord" | "none";
}

const firstName = (deal: Deal, role: DealRole) => (role === "renter" ? deal.renter.first_name : deal.lister.first_name);

/** The deal's next step as the viewer (`me`) reads it; staff (no role) read it by party. */
export function nextStep(deal: Deal, me: string | undefined): NextStep {
  const role = roleIn(deal, me);
  const mine = (who: DealRole) => role === who;
  const other = (who: DealRole) => firstName(deal, who);
  switch (deal.status) {
    case "requested":
      return mine("lister")
        ? { text: "Accept or decline this request.", whose: "you" }
        : { text: `Waiting for ${other("lister")} to accept or decline (a request is open for ${DEAL_WORDS.requestHours} hours).`, whose: "other" };
    case "accepted":
    case "signed":
      break;
    case "declined":
    case "cancelled":
    case "expired":
      return { text: reasonText(deal.status_reason) ?? `This deal was ${DEAL_STATUS_LABELS[deal.status].toLowerCase()}.`, whose: "none" };
    default:
      // Paying, moving in and release are the payment's steps.
      return { text: DEAL_STATUS_LABELS[deal.status], whose: "none" };
  }
  if (deal.status === "signed") return { text: "Signed by both. Next: the first month's payment through CampusNest.", whose: "none" };
  const consent = deal.landlord_consent.status;
  if (consent === "none")
    return mine("lister")
      ? { text: "Settle the landlord's consent: say your lease allows subletting, or ask your landlord.", whose: "you" }
      : { text: `Waiting for ${other("lister")} to settle the landlord's consent.`, whose: "other" };
  if (consent === "requested") return { text: "Waiting for the landlord to answer the consent request.", whose: "landlord" };
  if (consent === "declined") return { text: "The landlord declined to consent.", whose: "none" };
  const signedAt = { renter: deal.agreement?.renter_signed_at ?? null, lister: deal.agreement?.lister_signed_at ?? null };
  if (role && !signedAt[role]) return { text: "Read and sign the agreement.", whose: "you" };
  const waiting = (["renter", "lister"] as const).filter((r) => !signedAt[r] && r !== role);
  if (waiting.length === 0) return { text: "Both have signed.", whose: "none" };
  return { text: `Waiting for ${waiting.map((r) => other(r)).join(" and ")} to sign.`, whose: "other" };
}

/** "May 20 - Aug 10" (the deal's own dates, never the listing's). */
export const dealStay = (deal: Pick<Deal, "move_in" | "move_out">) => formatStay(deal.move_in, deal.move_out) ?? `${deal.move_in} – ${deal.move_out}`;

/** A short id for staff and tables. */
export const personName = (p: { first_name: string; last_name: string }) => `${p.first_name} ${p.last_name}`.trim();
