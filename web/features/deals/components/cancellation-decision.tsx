import { useState, type FormEvent } from "react";
import { DEAL_WORDS, type Deal } from "@contract/deals";
import { FormError, TextField } from "../../../components/ui/field";
import { errorMessage } from "../../../lib/api-client";
import { dealTime, formatMoney, parseDollars } from "../../../lib/deal-status";
import { useCancellationRefund } from "../api/deals-api";

/**
 * A renter cancelled a paid deal late: the lister decides how much of the rent goes back by the
 * deadline (without an answer, all of it does: docs/decisions/026). The rest goes to the lister.
 */
export function CancellationDecision({ deal, onDone }: { deal: Deal; onDone: () => void }) {
  const decide = useCancellationRefund();
  const [typed, setTyped] = useState("");
  const [checked, setChecked] = useState(false);
  const p = deal.payment;
  const parsed = parseDollars(typed, p.rent_cents, p.currency);
  const error = checked && "error" in parsed ? parsed.error : null;
  const renter = deal.renter.first_name;
  if (!deal.cancellation) return null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if ("error" in parsed || decide.isPending) return;
    decide.mutate({ id: deal.id, refundCents: parsed.cents }, { onSuccess: onDone });
  };

  return (
    <form className="deal-decision stack-sm" onSubmit={submit} noValidate aria-labelledby={`decide-${deal.id}`}>
      <h3 id={`decide-${deal.id}`}>How much of the rent goes back to {renter}?</h3>
      <p className="muted">
        Decide by {dealTime(deal.cancellation.decide_by)}. The rent paid was {formatMoney(p.rent_cents, p.currency)}. What you give back goes to {renter}; the rest is released to you. If you do not answer within {DEAL_WORDS.listerDecisionHours} hours of the
        cancellation, all of the rent goes back.
      </p>
      <TextField
        label={`Rent to give back to ${renter} (USD)`}
        inputMode="decimal"
        autoComplete="off"
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        error={error}
        hint={`From $0 to ${formatMoney(p.rent_cents, p.currency)}.`}
      />
      {"cents" in parsed && (
        <p className="muted" aria-live="polite">
          {renter} gets {formatMoney(parsed.cents, p.currency)} back; you get {formatMoney(p.rent_cents - parsed.cents, p.currency)}.
        </p>
      )}
      <FormError message={decide.isError ? errorMessage(decide.error, "Could not save your decision. Please try again.") : null} />
      <div className="row row-start">
        <button type="submit" className="button button-primary" disabled={decide.isPending}>
          {decide.isPending ? "Saving…" : "Send my decision"}
        </button>
      </div>
    </form>
  );
}
