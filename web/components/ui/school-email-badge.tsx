/**
 * "School email verified: ufl.edu" where a student decides (profile, a listing's contact card, the chat
 * header). It proves an inbox at that school, not current enrolment (alumni keep their addresses), and
 * lapses a year after the code until reconfirmed (docs/decisions/028).
 */
export const SCHOOL_EMAIL_EXPLAINED =
  "They confirmed a code sent to an address at this school within the last year. It shows a tie to the school, not that they study there now or own the place.";

export function SchoolEmailBadge({ domain }: { domain: string | null | undefined }) {
  if (!domain) return null;
  return (
    <span className="badge badge-verified badge-school-email" title={SCHOOL_EMAIL_EXPLAINED}>
      School email verified: {domain}
    </span>
  );
}
