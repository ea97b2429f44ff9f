import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import { DEAL_WORDS, type Deal } from "@contract/deals";
import { Dialog } from "../../../components/ui/dialog";
import { FormError } from "../../../components/ui/field";
import { errorMessage } from "../../../lib/api-client";
import { dealTime, formatMoney, isHeld, keysOffered, moveInStarts, PROBLEM_LABELS, roleIn, wasPaid } from "../../../lib/deal-status";
import { dealUrl } from "../../../lib/deals-api";
import { useCheckout, useMovedIn } from "../api/deals-api";
import { afterClose } from "../lib/focus";
import { Amounts, CancellationPolicy } from "./amounts";
import { CancellationDecision } from "./cancellation-decision";
import { ProblemDialog, StatementForm } from "./problem-dialog";

/** Where the lister sets up payouts: the profile's Payouts section. */
export const PAYOUTS_URL = "/profile#payouts";

interface DealMoneyProps {
  deal: Deal;
  me: string;
  /** The card in a thread (the receipt is a link) or the deal page (statements and the receipt there). */
  place: "card" | "page";
  /** After a change is saved: the caller moves focus to the deal's status line. */
  onDone: () => void;
}

/**
 * The money of a deal, for the viewer's role: whose step holds the payment, the amounts and the policy
 * with "Pay", "I have the keys" and "Report a problem" while the money is held, a late cancellation's
 * decision, a case's statements.
 */
export function DealMoney({ deal, me, place, onDone }: DealMoneyProps) {
  const role = roleIn(deal, me);
  if (!role) return null;
  const p = deal.payment;
  const parts = [];
  if (deal.status === "signed") {
    if (p.waiting_for === "lister_payouts" && role === "lister")
      parts.push(
        <p key="payouts">
          <Link to={PAYOUTS_URL} className="button button-primary">
            Set up payouts to get paid
          </Link>
        </p>,
      );
    if (p.payable && role === "renter") parts.push(<PayBox key="pay" deal={deal} />);
    if (p.payable && role === "lister")
      parts.push(
        <p key="lister-pay" className="muted">
          {deal.renter.first_name} can pay {formatMoney(p.total_cents, p.currency)} now. CampusNest holds the rent until {DEAL_WORDS.releaseHours} hours after move-in, then it goes to you.
        </p>,
      );
  }
  if (isHeld(deal) && deal.cancellation && role === "lister") parts.push(<CancellationDecision key="decide" deal={deal} onDone={onDone} />);
  else if (isHeld(deal) && role === "renter" && !deal.cancellation) parts.push(<HeldActions key="held" deal={deal} onDone={onDone} />);
  if (p.status === "release_failed")
    parts.push(
      <p key="failed" className="muted">
        The transfer to {role === "lister" ? "you" : deal.lister.first_name} did not go through. CampusNest is looking into it; the money is safe with us.
      </p>,
    );
  if (deal.status === "disputed") {
    parts.push(
      <p key="disputed">
        {deal.problem ? `${role === "renter" ? "You" : deal.renter.first_name} reported: ${PROBLEM_LABELS[deal.problem.kind]}. ` : ""}
        Both of you can add a statement with photos; staff decide whether the money goes back or to {deal.lister.first_name}.
      </p>,
    );
    if (place === "page") parts.push(<StatementForm key="statement" deal={deal} role={role} />);
  }
  if (place === "card" && wasPaid(deal))
    parts.push(
      <p key="receipt">
        <Link to={`${dealUrl(deal.id)}#receipt`}>
          Receipt<span className="visually-hidden">: {deal.listing_title}</span>
        </Link>
      </p>,
    );
  if (parts.length === 0) return null;
  return <div className="deal-money stack-sm">{parts}</div>;
}

/** The renter's first payment: the amounts, the policy, and "Pay $X" (to Stripe's page and back). */
function PayBox({ deal }: { deal: Deal }) {
  const checkout = useCheckout();
  const p = deal.payment;
  // Once the payment page opens the browser leaves; until then the button stays busy.
  const busy = checkout.isPending || checkout.isSuccess;
  return (
    <div className="deal-pay stack-sm">
      <Amounts deal={deal} totalLabel="Total to pay now" />
      <p className="muted">Card only. CampusNest holds the money until {DEAL_WORDS.releaseHours} hours after move-in, or until you tap “I have the keys”. Later months are paid as the agreement says.</p>
      <CancellationPolicy />
      <FormError message={checkout.isError ? errorMessage(checkout.error, "Could not open the payment page. Please try again.") : null} />
      <div className="row row-start">
        <button type="button" className="button button-primary" disabled={busy} onClick={() => checkout.mutate(deal.id)}>
          {busy ? (
            "Opening the payment page…"
          ) : (
            <>
              Pay {formatMoney(p.total_cents, p.currency)}{" "}
              <span className="visually-hidden">for {deal.listing_title}</span>
            </>
          )}
        </button>
      </div>
    </div>
  );
}

/** While the money is held: "I have the keys" from move-in day on, and "Report a problem". */
function HeldActions({ deal, onDone }: { deal: Deal; onDone: () => void }) {
  const [asking, setAsking] = useState<"keys" | "problem" | null>(null);
  // Read once a minute: an open page offers the keys when move-in day begins.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const offered = keysOffered(deal, now);
  return (
    <div className="stack-sm">
      {!offered && <p className="muted">“I have the keys” opens on move-in day, {dealTime(new Date(moveInStarts(deal)).toISOString())}. Never tap it before you are in, whatever a message says.</p>}
      <div className="row row-start">
        {offered && (
          <button type="button" className="button button-primary" onClick={() => setAsking("keys")}>
            I have the keys<span className="visually-hidden">: {deal.listing_title}</span>
          </button>
        )}
        <button type="button" className="button button-ghost" onClick={() => setAsking("problem")}>
          Report a problem<span className="visually-hidden">: {deal.listing_title}</span>
        </button>
      </div>
      {asking === "keys" && <KeysDialog deal={deal} onClose={() => setAsking(null)} onDone={onDone} />}
      {asking === "problem" && <ProblemDialog deal={deal} onClose={() => setAsking(null)} onDone={onDone} />}
    </div>
  );
}

/** "I have the keys", confirmed: the money goes to the lister at once and cannot be taken back. */
function KeysDialog({ deal, onClose, onDone }: { deal: Deal; onClose: () => void; onDone: () => void }) {
  const movedIn = useMovedIn();
  const p = deal.payment;
  const lister = deal.lister.first_name;
  return (
    <Dialog
      open
      alert
      size="sm"
      onClose={onClose}
      title="Do you have the keys?"
      description={`The rent (${formatMoney(p.rent_cents, p.currency)}) goes to ${lister} now, and it cannot be taken back. Confirm only once you are in the place with the keys. CampusNest never asks you to tap this early: if someone does, report a problem instead.`}
    >
      <div className="stack">
        <FormError message={movedIn.isError ? errorMessage(movedIn.error, "Could not confirm. Please try again.") : null} />
        <div className="row">
          <button type="button" className="button button-ghost" onClick={onClose} data-autofocus>
            Not yet
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={movedIn.isPending}
            onClick={() => movedIn.mutate(deal.id, { onSuccess: () => (onClose(), afterClose(onDone)) })}
          >
            {movedIn.isPending ? "Releasing…" : `Yes, release it to ${lister}`}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
