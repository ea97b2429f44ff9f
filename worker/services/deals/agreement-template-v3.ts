/**
 * The sublease agreement, version 3 (docs/decisions/035): version 2 with the hold as it now is: the rent is
 * released 48 hours after move-in, or at the Subtenant's "I have the keys", but never sooner than 24 hours
 * after the first payment. A starting point that a lawyer should review per state before launch. Agreements
 * filled from v1 and v2 keep their text and hash.
 */
import { DEAL_WORDS } from "../../contract/deals";
import type { AgreementFacts } from "./agreement-template-v1";
import { joinAgreement, sectionsV2 } from "./agreement-template-v2";

export const TEMPLATE_ID = "agreement-template-v3";

const HELD = "The first payment is held";

/** v3's clauses, titled (v4 changes one of them). */
export function sectionsV3(f: AgreementFacts): [string, string][] {
  return sectionsV2(f).map(([title, body]): [string, string] =>
    title === HELD
      ? [
          title,
          `CampusNest holds the first payment and releases the rent to the Tenant ${DEAL_WORDS.releaseHours} hours after the beginning of the move-in date, or earlier when the Subtenant confirms on CampusNest that they have the keys, but never sooner than ${DEAL_WORDS.minimumHoldHours} hours after the first payment. Until then the Subtenant may report a problem (for example, that they cannot get in, or that the Premises are not as described); nothing is released while CampusNest reviews it, and CampusNest may refund the Subtenant in full or in part. A refund of part of the first payment comes out of the rent; the service fee goes back only with all of it. CampusNest holds only this first payment; it never holds a security deposit.`,
        ]
      : [title, body],
  );
}

export const renderAgreementV3 = (f: AgreementFacts): string => joinAgreement(TEMPLATE_ID, sectionsV3(f));
