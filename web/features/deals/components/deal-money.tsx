import { useState } from "react";
import { Link } from "react-router-dom";
import { DEAL_WORDS, type Deal } from "@contract/deals";
import { Dialog } from "../../../components/ui/dialog";
import { FormError } from "../../../components/ui/field";
import { errorMessage } from "../../../lib/api-client";
import { dealTime, formatMoney, personName, PROBLEM_LABELS, roleIn, wasPaid } from "../../../lib/deal-status";
import { dealUrl } from "../../../lib/deals-api";
import { EvidencePhoto } from "../../../components/ui/evidence-photo";
import { loadEvidence, useCheckout, useMovedIn } from "../api/deals-api";
import { afterClose } from "../lib/focus";
import { PAYOUTS_FOR_DEAL } from "../../../lib/payouts-return";
import { Amounts, CancellationPolicy } from "./amounts";
import { CancellationDecision } from "./cancellation-decision";
import { ProblemDialog, StatementForm } from "./problem-dialog";

/** Where the lister sets up payouts: the profile's Payouts section, which comes back to this deal once done. */
export const payoutsUrlFor = (dealId: string) => `/profile?${PAYOUTS_FOR_DEAL}=${encodeURIComponent(dealId)}#payouts`;

interface DealMoneyProps {
  deal: Deal;
  me: string;
  /** The card in a thread (the receipt is a link) or the deal page (the case, statements and the receipt there). */
  place: "card" | "page";
  /** After a change is saved: the caller moves focus to the deal's status line. */
  onDone: () => void;
}

/**
 * The money of a deal, for the viewer: what the deal's `actions` offer them now (pay, "I have the keys",
 * report a problem, decide a late cancellation, add a statement), the lister's payouts step, a case
 * with both sides' statements, and where the money went. No rule is decided here (docs/decisions/035).
 */
export function DealMoney({ deal, me, place, onDone }: DealMoneyProps) {
  const role = roleIn(deal, me);
  if (!role) return null;
  const p = deal.payment;
  const can = (action: Deal["actions"][number]) => deal.actions.includes(action);
  const parts = [];
  if (deal.waiting_for.step === "payouts" && role === "lister")
    parts.push(
      <p key="payouts">
        <Link to={payoutsUrlFor(deal.id)} className="button button-primary">
          Set up payouts to get paid
        </Link>
      </p>,
    );
  if (can("checkout")) parts.push(<PayBox key="pay" deal={deal} />);
  if (p.payable && role === "lister")
    parts.push(
      <p key="lister-pay" className="muted">
        {deal.renter.first_name} can pay {formatMoney(p.total_cents, p.currency)} now. CampusNest holds the rent until {DEAL_WORDS.releaseHours} hours after move-in, then it goes to you.
      </p>,
    );
  if (can("cancellation_refund")) parts.push(<CancellationDecision key="decide" deal={deal} onDone={onDone} />);
  if (can("moved_in") || can("problem")) parts.push(<HeldActions key="held" deal={deal} onDone={onDone} />);
  if (deal.problem && place === "page") parts.push(<ProblemView key="problem" deal={deal} me={me} />);
  else if (deal.problem) parts.push(<p key="problem">{`${role === "renter" ? "You" : deal.renter.first_name} reported: ${PROBLEM_LABELS[deal.problem.kind]}.`}</p>);
  if (can("statement") && place === "page") parts.push(<StatementForm key="statement" deal={deal} role={role} />);
  if (deal.decision) parts.push(<DecisionLine key="decision" deal={deal} me={me} />);
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

/**
 * Who decided where the money went, when, and the reason both read. The amounts are the deal's money line
 * (deal-status `moneyLine`, in the status line above): worded in one place.
 */
function DecisionLine({ deal, me }: { deal: Deal; me: string }) {
  const d = deal.decision!;
  const role = roleIn(deal, me);
  const who = d.by === "staff" ? "CampusNest staff" : role === "lister" ? "You" : deal.lister.first_name;
  return (
    <p className="deal-decision-line">
      {d.by === "deadline" ? `${deal.lister.first_name} did not decide in time (${dealTime(d.at)}), so the rent went back in full.` : `${who} decided on ${dealTime(d.at)}.`}
      {d.reason && (
        <>
          {" "}
          Reason: <q>{d.reason}</q>
        </>
      )}
    </p>
  );
}

/** The renter's report, its photos, and each party's statement: both parties read the whole case. */
function ProblemView({ deal, me }: { deal: Deal; me: string }) {
  const problem = deal.problem!;
  const nameOf = (authorId: string) => (authorId === me ? "You" : authorId === deal.renter.id ? personName(deal.renter) : personName(deal.lister));
  return (
    <section className="stack-sm deal-case" aria-labelledby={`case-${deal.id}`}>
      <h3 id={`case-${deal.id}`}>The problem: {PROBLEM_LABELS[problem.kind]}</h3>
      <p className="muted">
        Reported by {nameOf(deal.renter.id)} on {dealTime(problem.created_at)}
      </p>
      <p className="prewrap">{problem.text}</p>
      <Photos photos={problem.photos} who={nameOf(deal.renter.id)} />
      {problem.statements.length > 0 && (
        <ol className="case-statements" aria-label="Statements">
          {problem.statements.map((s) => (
            <li key={`${s.author_id}-${s.created_at}`} className="stack-sm">
              <p>
                <strong>{nameOf(s.author_id)}</strong> <span className="muted">{dealTime(s.created_at)}</span>
              </p>
              <p className="prewrap">{s.text}</p>
              <Photos photos={s.photos} who={nameOf(s.author_id)} />
            </li>
          ))}
        </ol>
      )}
      {deal.waiting_for.step === "case" && <p className="muted">{deal.waiting_for.detail}</p>}
    </section>
  );
}

function Photos({ photos, who }: { photos: string[]; who: string }) {
  if (photos.length === 0) return null;
  return (
    <ul className="statement-photos" aria-label={`Photos from ${who}`}>
      {/* Private evidence: fetched with the reader's session, never a public address (docs/decisions/032). */}
      {photos.map((url, i) => (
        <li key={url}>
          <EvidencePhoto url={url} alt={`Photo ${i + 1} from ${who}`} load={loadEvidence} />
        </li>
      ))}
    </ul>
  );
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
      <p className="muted">
        Card only. CampusNest holds the money until {DEAL_WORDS.releaseHours} hours after move-in, or until you tap “I have the keys” (and at least {DEAL_WORDS.minimumHoldHours} hours after you pay). Later months are paid as the agreement says.
      </p>
      <CancellationPolicy />
      <FormError message={checkout.isError ? errorMessage(checkout.error, "Could not open the payment page. Please try again.") : null} />
      <div className="row row-start">
        <button type="button" className="button button-primary" disabled={busy} onClick={() => checkout.mutate(deal.id)}>
          {busy ? (
            "Opening the payment page…"
          ) : (
            <>
              Pay {formatMoney(p.total_cents, p.currency)} <span className="visually-hidden">for {deal.listing_title}</span>
            </>
          )}
        </button>
      </div>
    </div>
  );
}

/** While the money is held: "I have the keys" (from move-in day on: the server offers it) and "Report a problem". */
function HeldActions({ deal, onDone }: { deal: Deal; onDone: () => void }) {
  const [asking, setAsking] = useState<"keys" | "problem" | null>(null);
  const keys = deal.actions.includes("moved_in");
  return (
    <div className="stack-sm">
      {!keys && deal.status === "paid" && <p className="muted">“I have the keys” opens on move-in day. Never tap it before you are in, whatever a message says.</p>}
      <div className="row row-start">
        {keys && (
          <button type="button" className="button button-primary" onClick={() => setAsking("keys")}>
            I have the keys<span className="visually-hidden">: {deal.listing_title}</span>
          </button>
        )}
        {deal.actions.includes("problem") && (
          <button type="button" className="button button-ghost" onClick={() => setAsking("problem")}>
            Report a problem<span className="visually-hidden">: {deal.listing_title}</span>
          </button>
        )}
      </div>
      {asking === "keys" && <KeysDialog deal={deal} onClose={() => setAsking(null)} onDone={onDone} />}
      {asking === "problem" && <ProblemDialog deal={deal} onClose={() => setAsking(null)} onDone={onDone} />}
    </div>
  );
}

/** "I have the keys", confirmed: the money goes to the lister (at least 24 hours after the payment) and cannot be taken back. */
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
      description={`The rent (${formatMoney(p.rent_cents, p.currency)}) goes to ${lister} now (or ${DEAL_WORDS.minimumHoldHours} hours after your payment, if that is later), and it cannot be taken back. Confirm only once you are in the place with the keys. CampusNest never asks you to tap this early: if someone does, report a problem instead.`}
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
