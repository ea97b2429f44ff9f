/**
 * Scam shield in a conversation (docs/decisions/015): the short tip at the top of every conversation and the
 * notice under a flagged message, shown to its recipient only (the thread decides who sees it).
 */
import { useEffect, useRef } from "react";
import { Link } from "react-router-dom";
import type { Message } from "@contract/messages";
import { SAFETY_CONFIRMED_TEXTS, SAFETY_FEEDBACK_TEXTS, SAFETY_LINK_TEXT, SAFETY_NOTICES, SAFETY_PAY_INSIDE, SAFETY_PAY_INSIDE_STEPS, SAFETY_TIP, type SafetyKind } from "@contract/safety";
import { paths } from "../../../config/paths";
import { dealUrl } from "../../../lib/deals-api";

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

/** A notice text as a sentence (the payment one is stored without its full stop). */
const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

interface SafetyNoticeProps {
  kind: SafetyKind;
  /** The message it is under (names the notice for the button's description). */
  messageId: string;
  /** "This is fine": omitted, no button. */
  onFine?: () => void;
  busy?: boolean;
  failed?: boolean;
  /** Move the focus to "This is fine" (after Undo brought this notice back); then `onFocused`. */
  focus?: boolean;
  onFocused?: () => void;
  /** Under a payment notice to the one who would rent: the deal's next step inside CampusNest (docs/decisions/030). */
  payInside?: Message["safety_pay_inside"];
}

/** Where the step is taken: the listing's page for a request, else the deal's page. */
function payInsideHref(step: NonNullable<Message["safety_pay_inside"]>): string | null {
  if (step.step === "request") return step.listing_id ? paths.listing(step.listing_id) : null;
  return step.deal_id ? dealUrl(step.deal_id) : null;
}

/**
 * Under a flagged message from the other person (the wording of its kind), with "This is fine", which
 * quiets this notice on this message and on this person repeating the same pattern, never a new one
 * (decision 015); the button is described by the notice.
 */
export function SafetyNotice({ kind, messageId, onFine, busy = false, failed = false, focus = false, onFocused, payInside = null }: SafetyNoticeProps) {
  const textId = `safety-notice-${messageId}`;
  const insideHref = kind === "payment" && payInside ? payInsideHref(payInside) : null;
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!focus || !button.current) return;
    button.current.focus();
    onFocused?.();
  }, [focus, onFocused]);
  return (
    <div className="scam-notice" role="note" data-kind={kind}>
      <p className="scam-notice-text">
        <ShieldIcon />
        <span>
          <strong id={textId}>{sentence(SAFETY_NOTICES[kind])}</strong> <Link to={paths.safety}>{SAFETY_LINK_TEXT}</Link>
        </span>
      </p>
      {insideHref && payInside && (
        <p className="scam-notice-actions scam-pay-inside">
          <span>
            {SAFETY_PAY_INSIDE} <Link to={insideHref}>{SAFETY_PAY_INSIDE_STEPS[payInside.step]}</Link>
          </span>
        </p>
      )}
      {onFine && (
        <p className="scam-notice-actions">
          <button ref={button} type="button" className="link-button scam-fine" onClick={onFine} disabled={busy} aria-label={SAFETY_FEEDBACK_TEXTS.buttonLabel} aria-describedby={textId}>
            {SAFETY_FEEDBACK_TEXTS.button}
          </button>
          {failed && (
            <span className="scam-notice-error" role="alert">
              {SAFETY_FEEDBACK_TEXTS.failed}
            </span>
          )}
        </p>
      )}
    </div>
  );
}

/**
 * In place of the notice just quieted: the thanks naming the kind quieted (another kind's notice under
 * the same message stays), and Undo (which gets the focus the button had).
 */
export function SafetyConfirmation({ kind, onUndo, busy = false, failed = false }: { kind: SafetyKind; onUndo: () => void; busy?: boolean; failed?: boolean }) {
  const undo = useRef<HTMLButtonElement>(null);
  useEffect(() => undo.current?.focus(), []);
  return (
    <p className="scam-notice scam-notice-done" role="status" data-kind={kind}>
      <span>{SAFETY_CONFIRMED_TEXTS[kind]}</span>{" "}
      <button ref={undo} type="button" className="link-button" onClick={onUndo} disabled={busy} aria-label={SAFETY_FEEDBACK_TEXTS.undoLabel}>
        {SAFETY_FEEDBACK_TEXTS.undo}
      </button>
      {failed && (
        <span className="scam-notice-error" role="alert">
          {" "}
          {SAFETY_FEEDBACK_TEXTS.failed}
        </span>
      )}
    </p>
  );
}
