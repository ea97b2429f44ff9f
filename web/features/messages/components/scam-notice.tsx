/**
 * Scam shield in a conversation (issue 13): the short tip at the top of every conversation and the
 * notice under a flagged message, shown to its recipient only (the thread decides who sees it).
 */
import { Link } from "react-router-dom";
import { SAFETY_LINK_TEXT, SAFETY_NOTICE, SAFETY_TIP } from "@contract/safety";
import { paths } from "../../../config/paths";

function ShieldIcon() {
  return (
    <svg className="scam-icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      <path d="M12 2 4 5v6c0 5 3.4 9.7 8 11 4.6-1.3 8-6 8-11V5l-8-3Z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
      <path d="M12 8v5M12 16.5v.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

/** Above the first message. */
export function SafetyTip() {
  return (
    <p className="scam-tip">
      <ShieldIcon />
      <span>
        {SAFETY_TIP}{" "}
        <Link to={paths.safety}>{SAFETY_LINK_TEXT}</Link>
      </span>
    </p>
  );
}

/** Under a flagged message from the other person. */
export function SafetyNotice() {
  return (
    <p className="scam-notice" role="note">
      <ShieldIcon />
      <span>
        <strong>{SAFETY_NOTICE}.</strong> <Link to={paths.safety}>{SAFETY_LINK_TEXT}</Link>
      </span>
    </p>
  );
}
