/**
 * The checks the other person passed, where a student decides (a listing's contact card, the chat
 * header): ID verified, school email, member since, response time, each with one line on what it proves
 * and what it does not (docs/decisions/028). Only what they passed is listed; nothing is implied by a
 * missing line beyond "not checked".
 */
import { useEffect, useRef, type ReactNode } from "react";
import { RESPONSE_TIME_TEXT, RESPONSE_TIME_WINDOW_DAYS } from "@contract/waits";
import type { PublicUser } from "@contract/users";
import { SCHOOL_EMAIL_EXPLAINED, SchoolEmailBadge } from "./school-email-badge";

export const TRUST_EXPLAINED = {
  id: "Staff matched a government photo ID to this person. It proves who they are, not that they own the place or may sublet it.",
  school: SCHOOL_EMAIL_EXPLAINED,
  member: "When the account was made. An older account is harder to fake, but it does not vouch for this place.",
  response: `Their median first reply over the last ${RESPONSE_TIME_WINDOW_DAYS} days. It shows they answer, not that what they say is true.`,
} as const;

type Checked = Pick<PublicUser, "id" | "id_verified" | "school_email_domain" | "created_at" | "response_time">;

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
/**
 * "Member since January 2026", written by hand in UTC: the browser's first date formatter loads its locale
 * data, tens of milliseconds of one task on a slow phone while the listing page hydrates (docs/decisions/034),
 * and UTC gives the server's render and the browser the same month.
 */
const memberSince = (at: string) => {
  const d = new Date(at);
  return `Member since ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
};

/**
 * The list, each check with its line. `compact` (the chat header) keeps the labels on one line and the
 * explanations one click away, in a disclosure that opens over the conversation (not pushing it off a
 * phone's screen) and closes again on a click elsewhere, Escape, or another conversation.
 */
export function TrustChecks({ user, compact = false }: { user: Checked | undefined | null; compact?: boolean }) {
  if (!user) return null;
  const checks: { key: string; label: ReactNode; why: string }[] = [];
  if (user.id_verified) checks.push({ key: "id", label: <span className="badge badge-verified">ID verified</span>, why: TRUST_EXPLAINED.id });
  if (user.school_email_domain) checks.push({ key: "school", label: <SchoolEmailBadge domain={user.school_email_domain} />, why: TRUST_EXPLAINED.school });
  checks.push({ key: "member", label: <span>{memberSince(user.created_at)}</span>, why: TRUST_EXPLAINED.member });
  if (user.response_time) checks.push({ key: "response", label: <span className="response-time">{RESPONSE_TIME_TEXT[user.response_time]}</span>, why: TRUST_EXPLAINED.response });
  const list = (
    <ul className="trust-checks" aria-label="Checks they passed">
      {checks.map((c) => (
        <li key={c.key}>
          {c.label}
          <span className="trust-check-why muted">{c.why}</span>
        </li>
      ))}
    </ul>
  );
  if (!compact) return list;
  return (
    <CheckDisclosure key={user.id}>
      <summary>
        {checks.map((c, i) => (
          <span key={c.key}>
            {i > 0 && " · "}
            {c.label}
          </span>
        ))}
      </summary>
      {list}
    </CheckDisclosure>
  );
}

function CheckDisclosure({ children }: { children: ReactNode }) {
  const details = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const node = details.current;
    if (!node) return;
    const close = () => {
      node.open = false;
    };
    const onPointerDown = (event: PointerEvent) => {
      if (node.open && !node.contains(event.target as Node)) close();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !node.open) return;
      close();
      node.querySelector("summary")?.focus();
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, []);
  return (
    <details ref={details} className="trust-checks-details">
      {children}
    </details>
  );
}
