import { useState, type FormEvent } from "react";
import { DEAL_REASON_MAX, DEAL_WORDS, type Deal } from "@contract/deals";
import { Dialog } from "../../../components/ui/dialog";
import { FormError, TextAreaField, TextField } from "../../../components/ui/field";
import { errorMessage } from "../../../lib/api-client";
import { dealTime, formatMoney, parseDollars } from "../../../lib/deal-status";
import { useCancellationRefund } from "../api/deals-api";
import { afterClose } from "../lib/focus";

/**
 * A renter cancelled a paid deal late: the lister decides how much of the rent goes back by the deadline
 * (without an answer, all of it does: docs/decisions/029), with a reason both read. The decision moves
 * money for good, so it is confirmed in a dialog that states each side's amount (docs/decisions/035).
 */
export function CancellationDecision({ deal, onDone }: { deal: Deal; onDone: () => void }) {
  const decide = useCancellationRefund();
  const [typed, setTyped] = useState("");
  const [reason, setReason] = useState("");
  const [checked, setChecked] = useState(false);
  const [confirming, setConfirming] = useState<number | null>(null);
  const p = deal.payment;
  const parsed = parseDollars(typed, p.rent_cents, p.currency);
  const error = checked && "error" in parsed ? parsed.error : checked && reason.length > DEAL_REASON_MAX ? `The reason must be at most ${DEAL_REASON_MAX} characters` : null;
  const renter = deal.renter.first_name;
  const m = (cents: number) => formatMoney(cents, p.currency);
  if (!deal.cancellation) return null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if ("error" in parsed || reason.length > DEAL_REASON_MAX) return;
    decide.reset();
    setConfirming(parsed.cents);
  };

  return (
    <form className="deal-decision stack-sm" onSubmit={submit} noValidate aria-labelledby={`decide-${deal.id}`}>
      <h3 id={`decide-${deal.id}`}>How much of the rent goes back to {renter}?</h3>
      <p className="muted">
        Decide by {dealTime(deal.cancellation.decide_by)}. The rent paid was {m(p.rent_cents)}. What you give back goes to {renter}; the rest is released to you. If you do not answer within {DEAL_WORDS.listerDecisionHours} hours of the cancellation, all of the rent goes back.
      </p>
      <TextField
        label={`Rent to give back to ${renter} (USD)`}
        inputMode="decimal"
        autoComplete="off"
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        error={"error" in parsed && checked ? parsed.error : null}
        hint={`From $0 to ${m(p.rent_cents)}.`}
      />
      <TextAreaField label={`Why (optional; ${renter} reads it)`} rows={2} limit={DEAL_REASON_MAX} value={reason} onChange={(e) => setReason(e.target.value)} />
      {error && !("error" in parsed) && <FormError message={error} />}
      {"cents" in parsed && (
        <p className="muted" aria-live="polite">
          {renter} gets {m(parsed.cents)} back; you get {m(p.rent_cents - parsed.cents)}.
        </p>
      )}
      <div className="row row-start">
        <button type="submit" className="button button-primary">
          Review my decision
        </button>
      </div>
      {confirming !== null && (
        <Dialog
          open
          alert
          size="sm"
          onClose={() => setConfirming(null)}
          title="Send your decision?"
          description={`${renter} gets ${m(confirming)} of the rent back; ${m(p.rent_cents - confirming)} is released to you. The service fee (${m(p.fee_cents)}) is kept. This moves the money and cannot be undone.`}
        >
          <div className="stack">
            {reason.trim() && (
              <p>
                Your reason, which {renter} reads: <q>{reason.trim()}</q>
              </p>
            )}
            <FormError message={decide.isError ? errorMessage(decide.error, "Could not save your decision. Please try again.") : null} />
            <div className="row">
              <button type="button" className="button button-ghost" onClick={() => setConfirming(null)} data-autofocus>
                Go back
              </button>
              <button
                type="button"
                className="button button-primary"
                disabled={decide.isPending}
                onClick={() => decide.mutate({ id: deal.id, refundCents: confirming, reason: reason.trim() || undefined }, { onSuccess: () => (setConfirming(null), afterClose(onDone)) })}
              >
                {decide.isPending ? "Sending…" : `Send: ${m(confirming)} back, ${m(p.rent_cents - confirming)} to me`}
              </button>
            </div>
          </div>
        </Dialog>
      )}
    </form>
  );
}
