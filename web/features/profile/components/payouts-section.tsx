/**
 * The profile's Payouts (docs/decisions/030): whether Stripe can pay this lister the rent of their deals
 * ("Payouts: set up / in review / ready"), with the button that starts or continues Stripe's onboarding.
 * Onboarding comes back to `/profile?payouts=return#payouts`: the status is then read back from Stripe
 * (refresh), and the section is scrolled to; when a deal asked for the set-up, the lister goes on to that
 * deal (web/lib/payouts-return).
 */
import { useEffect, useRef } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { dealUrl } from "../../../lib/deals-api";
import { PAYOUTS_FOR_DEAL, rememberPayoutsDeal, takePayoutsDeal } from "../../../lib/payouts-return";
import { PAYOUT_TEXTS, PAYOUTS_SECTION_ID } from "@contract/payouts";
import { errorMessage } from "../../../lib/api-client";
import { usePayoutStatus, useStartOnboarding } from "../api/payouts-api";

export function PayoutsSection() {
  const location = useLocation();
  const navigate = useNavigate();
  const search = new URLSearchParams(location.search);
  const back = search.get("payouts");
  const forDeal = search.get(PAYOUTS_FOR_DEAL);
  const status = usePayoutStatus(back === "return");
  const start = useStartOnboarding();
  const section = useRef<HTMLElement>(null);
  const arrived = location.hash === `#${PAYOUTS_SECTION_ID}`;
  useEffect(() => {
    // Back from onboarding (or sent here by a deal card): bring the section into view.
    if (arrived) section.current?.scrollIntoView?.({ block: "start" });
  }, [arrived]);

  // A deal asked for this set-up: remembered while the lister is at Stripe, and gone back to on the return.
  useEffect(() => {
    if (forDeal) rememberPayoutsDeal(forDeal);
  }, [forDeal]);
  const returned = (back === "return" || back === "ready") && status.isSuccess;
  useEffect(() => {
    if (!returned) return;
    const dealId = takePayoutsDeal();
    if (dealId) navigate(dealUrl(dealId), { replace: true });
  }, [returned, navigate]);

  const data = status.data;
  const due = data?.requirements_due.length ?? 0;
  return (
    <section ref={section} id={PAYOUTS_SECTION_ID} className="panel stack-sm" aria-labelledby="payouts-heading" aria-busy={status.isPending}>
      <h2 id="payouts-heading">{PAYOUT_TEXTS.heading}</h2>
      {status.isPending ? (
        <p className="muted" role="status">
          {PAYOUT_TEXTS.loading}
        </p>
      ) : status.isError ? (
        <div className="form-error" role="alert">
          {PAYOUT_TEXTS.error}{" "}
          <button type="button" className="link-button" onClick={() => void status.refetch()}>
            {PAYOUT_TEXTS.retry}
          </button>
        </div>
      ) : (
        <>
          <p>
            <strong>{PAYOUT_TEXTS.status[data!.status]}</strong>
          </p>
          {data!.status === "pending" && (
            <p className="muted">{due > 0 ? `Stripe still needs ${due} ${due === 1 ? "detail" : "details"} from you.` : PAYOUT_TEXTS.pendingDetail}</p>
          )}
          {data!.status === "ready" && <p className="muted">{PAYOUT_TEXTS.readyDetail}</p>}
        </>
      )}
      <p className="muted">{PAYOUT_TEXTS.why}</p>
      {data && data.status !== "ready" && (
        <div className="row row-start">
          <button type="button" className="button button-primary" disabled={start.isPending || start.isSuccess} onClick={() => start.mutate()}>
            {start.isPending || start.isSuccess ? PAYOUT_TEXTS.opening : data.status === "none" ? PAYOUT_TEXTS.start : PAYOUT_TEXTS.continue}
          </button>
        </div>
      )}
      {start.isError && (
        <p className="form-error" role="alert">
          {PAYOUT_TEXTS.startFailed} {errorMessage(start.error, "")}
        </p>
      )}
    </section>
  );
}
