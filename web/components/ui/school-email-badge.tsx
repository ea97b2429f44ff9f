/**
 * "School email verified: ufl.edu" where a student decides (profile, a listing's contact card, the chat
 * header). It proves an inbox at that school, not current enrolment (alumni keep their addresses), and
 * lapses a year after the code until reconfirmed (docs/decisions/028).
 */
export const SCHOOL_EMAIL_EXPLAINED =
  "They confirmed a code sent to an address at this school within the last year. It shows a tie to the school, not that they study there now or own the place.";

/** The same, told to the student whose badge it is (their profile). */
export const OWN_SCHOOL_EMAIL_EXPLAINED =
  "Confirm a code sent to your address at a school and others see this badge for a year. It shows them a tie to the school, not that you study there now. They see only the domain, never the address.";

const OWN_BADGE_TITLE = "You confirmed a code sent to an address at this school within the last year. Others see only the domain.";

/** The badge; `own` on the student's own profile, where its tooltip speaks to them. */
export function SchoolEmailBadge({ domain, own = false }: { domain: string | null | undefined; own?: boolean }) {
  if (!domain) return null;
  return (
    <span className="badge badge-verified badge-school-email" title={own ? OWN_BADGE_TITLE : SCHOOL_EMAIL_EXPLAINED}>
      School email verified: {domain}
    </span>
  );
}
