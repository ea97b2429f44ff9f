/**
 * The sublease agreement, version 2 (docs/decisions/029): version 1's clauses plus how CampusNest holds
 * the first payment until move-in and the cancellation policy after payment (DEAL_CANCELLATION_POLICY's
 * rule, in the agreement's terms), and that later months never pass through CampusNest. A starting point
 * that a lawyer should review per state before launch. Agreements filled from v1 keep their text and hash.
 */
import { DEAL_WORDS } from "../../contract/deals";
import type { AgreementFacts } from "./agreement-template-v1";

export const TEMPLATE_ID = "agreement-template-v2";

const ordinal = (n: number) => `${n}${n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th"}`;

function landlordClause(l: AgreementFacts["landlord"]): string {
  switch (l.status) {
    case "not_needed":
      return "The Tenant states that the Original Lease allows subletting without the Landlord's consent. This statement is the Tenant's own; CampusNest has not checked it. If it is untrue, the Tenant alone is answerable for it.";
    case "granted":
      return `The Landlord (${l.name}) gave written consent to this sublease through CampusNest. The consent is recorded on this agreement's certificate page.`;
    default:
      return `The Landlord's written consent ${l.name ? `has been requested from ${l.name}` : "has not been requested yet"}. This agreement cannot be signed until the consent is granted or the Tenant states that none is needed.`;
  }
}

/** Version 2's numbered sections (version 3 words one of them anew). */
export function sectionsV2(f: AgreementFacts): [string, string][] {
  const unit = `${f.unitType === "studio" ? "a studio" : `a ${f.unitType} unit (bedrooms x bathrooms)`}, parking ${f.parking ? "included" : "not included"}, pets ${f.pets ? "allowed" : "not allowed"}`;
  const first = f.firstPayment.byDays
    ? `The stay is shorter than one month, so the first payment is the rent for the days of the stay, ${f.firstPayment.rent}`
    : `The first payment is one month's rent, ${f.firstPayment.rent}`;
  const sections: [string, string][] = [
    [
      "Parties",
      `This sublease agreement is between ${f.tenantName} (the "Tenant", who rents the Premises from the Landlord under the Original Lease) and ${f.subtenantName} (the "Subtenant"). Both names are the legal names each party verified with an identity document on CampusNest.`,
    ],
    ["Premises", `The Premises are ${f.address}: ${unit}.`],
    [
      "Term",
      `The sublease begins on ${f.moveIn} and ends on ${f.moveOut} (dates in the time zone ${f.timeZone}; a date begins at midnight there). The Subtenant moves out by the end date unless both parties and the Landlord agree otherwise in writing.`,
    ],
    [
      "Rent",
      `The monthly rent is ${f.monthlyRent}, due on the ${ordinal(f.dueDay)} day of each month of the term. ${first}, plus a CampusNest service fee of ${f.firstPayment.feePercent}% (${f.firstPayment.fee}), together ${f.firstPayment.total}, paid through CampusNest. Rent for later months is paid directly to the Tenant, by a method the two parties agree in writing, on each due day; it never passes through CampusNest.`,
    ],
    [
      "The first payment is held",
      `CampusNest holds the first payment and releases the rent to the Tenant ${DEAL_WORDS.releaseHours} hours after the beginning of the move-in date, or earlier when the Subtenant confirms on CampusNest that they have the keys. Until then the Subtenant may report a problem (for example, that they cannot get in, or that the Premises are not as described); nothing is released while CampusNest reviews it, and CampusNest may refund the Subtenant in full or in part. CampusNest holds only this first payment; it never holds a security deposit.`,
    ],
    [
      "Cancellation after the first payment",
      `If the Tenant cancels after the first payment, the Subtenant gets the whole first payment back, service fee included. If the Subtenant cancels at least ${DEAL_WORDS.renterFullRefundDays} days before the move-in date, the Subtenant gets the first payment's rent back in full and the service fee is kept. If the Subtenant cancels later, the Tenant decides within ${DEAL_WORDS.listerDecisionHours} hours how much of that rent goes back to the Subtenant, and the rest is released to the Tenant; if the Tenant does not decide in time, the rent goes back in full. The service fee is kept in both cases.`,
    ],
    [
      "The Original Lease",
      "The Tenant's lease with the Landlord (the \"Original Lease\") is part of this agreement. The Subtenant has been given the chance to read it, will obey every term of it that applies to an occupant, and will do nothing that would put the Tenant in breach of it. Where this agreement and the Original Lease disagree, the Original Lease wins.",
    ],
    ["The Tenant stays liable", "The Tenant remains responsible to the Landlord for everything the Original Lease requires, including rent, for the whole term of this sublease."],
    ["End of the Original Lease", "If the Original Lease ends for any reason, this sublease ends at the same time. The Tenant will tell the Subtenant at once if the Tenant learns that the Original Lease will end early."],
    [
      "Utilities",
      "Utilities (electricity, gas, water, internet) stay in the name they are in now. Unless the two parties agree otherwise in writing, the monthly rent includes them, and the Subtenant uses them reasonably.",
    ],
    ["House rules", "The Subtenant follows the building's and the household's rules (noise, guests, smoking, shared spaces, rubbish) that the Tenant shares in writing before the term begins."],
    ["Condition and keys", "The Subtenant keeps the Premises clean and undamaged, except for ordinary wear, returns every key on the end date, and tells the Tenant promptly of any repair needed."],
    [
      "Notices",
      "Notices under this agreement are given in writing through the CampusNest conversation of this deal or by email to the address each party uses on CampusNest, and take effect when sent.",
    ],
    ["Landlord's consent", landlordClause(f.landlord)],
    [
      "Electronic signatures",
      "The parties agree to sign and keep this agreement electronically. Each signature is the typed legal name of the party with an intent to sign, confirmed by a code sent to the party's email; CampusNest records the time, network address and browser of each step on the certificate page.",
    ],
  ];
  return sections;
}

/** The agreement's whole text from its sections, under its template's id. */
export const joinAgreement = (templateId: string, sections: [string, string][]) =>
  [
    "SUBLEASE AGREEMENT",
    `Template: ${templateId}`,
    "",
    ...sections.flatMap(([title, body], i) => [`${i + 1}. ${title}`, body, ""]),
    "Signed by the Tenant and the Subtenant on the dates shown on the signature page.",
  ].join("\n");

/** The agreement's text. The same facts always make the same text (its SHA-256 is what both sign). */
export const renderAgreementV2 = (f: AgreementFacts): string => joinAgreement(TEMPLATE_ID, sectionsV2(f));
