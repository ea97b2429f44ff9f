import { useState } from "react";
import { DEAL_REASON_MAX, type Deal } from "@contract/deals";
import { Dialog } from "../../../components/ui/dialog";
import { FormError, TextAreaField } from "../../../components/ui/field";
import { errorMessage } from "../../../lib/api-client";
import { canCancel, roleIn } from "../../../lib/deal-status";
import { useAcceptDeal, useCancelDeal, useDeclineDeal } from "../api/deals-api";

/** A reason is optional and short: it is shown to the other party as written. */

interface DealActionsProps {
  deal: Deal;
  me: string;
  /** Who is offered Cancel: the renter only (the card in the thread) or both parties (the deal page). */
  cancelFor: "renter" | "both";
  /** After a change is saved: the caller moves focus to the deal's status (the button may be gone). */
  onDone: () => void;
}

/** The lister's Accept and Decline on a request, and Cancel; each error in the server's words. */
export function DealActions({ deal, me, cancelFor, onDone }: DealActionsProps) {
  const role = roleIn(deal, me);
  const accept = useAcceptDeal();
  const decline = useDeclineDeal();
  const cancel = useCancelDeal();
  const [asking, setAsking] = useState<"decline" | "cancel" | null>(null);
  const busy = accept.isPending || decline.isPending || cancel.isPending;
  const failed = [accept, decline, cancel].find((m) => m.isError);
  const reset = () => [accept, decline, cancel].forEach((m) => m.reset());

  const lister = role === "lister" && deal.status === "requested";
  const mayCancel = canCancel(deal.status) && (role === "renter" || (cancelFor === "both" && role === "lister"));
  if (!lister && !mayCancel) return null;
  return (
    <div className="deal-actions">
      <div className="row row-start">
        {lister && (
          <>
            <button
              type="button"
              className="button button-primary"
              disabled={busy}
              onClick={() => {
                reset();
                accept.mutate(deal.id, { onSuccess: onDone });
              }}
            >
              {accept.isPending ? "Accepting…" : "Accept"}
            </button>
            <button
              type="button"
              className="button button-ghost"
              disabled={busy}
              onClick={() => {
                reset();
                setAsking("decline");
              }}
            >
              Decline
            </button>
          </>
        )}
        {mayCancel && (
          <button
            type="button"
            className="button button-ghost"
            disabled={busy}
            onClick={() => {
              reset();
              setAsking("cancel");
            }}
          >
            {role === "renter" && deal.status === "requested" ? "Cancel request" : "Cancel deal"}
          </button>
        )}
      </div>
      {failed && !asking && <FormError message={errorMessage(failed.error, "Could not save this change. Please try again.")} />}
      {asking && (
        <ReasonConfirm
          kind={asking}
          deal={deal}
          busy={busy}
          error={asking === "decline" ? decline.error : cancel.error}
          onClose={() => setAsking(null)}
          onConfirm={(reason) => {
            const done = {
              onSuccess: () => {
                setAsking(null);
                onDone();
              },
            };
            if (asking === "decline") decline.mutate({ id: deal.id, reason }, done);
            else cancel.mutate({ id: deal.id, reason }, done);
          }}
        />
      )}
    </div>
  );
}

const TEXTS = {
  decline: { title: "Decline this request?", confirm: "Decline request", pending: "Declining…" },
  cancel: { title: "Cancel this deal?", confirm: "Cancel deal", pending: "Cancelling…" },
} as const;

/** Decline or Cancel, confirmed, with an optional reason the other party reads. */
function ReasonConfirm({ kind, deal, busy, error, onClose, onConfirm }: { kind: "decline" | "cancel"; deal: Deal; busy: boolean; error: unknown; onClose: () => void; onConfirm: (reason?: string) => void }) {
  const [reason, setReason] = useState("");
  const t = TEXTS[kind];
  return (
    <Dialog
      open
      alert
      size="sm"
      onClose={onClose}
      title={t.title}
      description={kind === "decline" ? `${deal.renter.first_name} will see that you declined, and your reason if you give one.` : "This cannot be undone: the request, the agreement and any signatures end here."}
    >
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          if (reason.length > DEAL_REASON_MAX || busy) return;
          onConfirm(reason.trim() || undefined);
        }}
      >
        <TextAreaField label="Reason (optional)" rows={3} limit={DEAL_REASON_MAX} value={reason} onChange={(e) => setReason(e.target.value)} data-autofocus />
        <FormError message={error ? errorMessage(error, "Could not save this change. Please try again.") : null} />
        <div className="row">
          <button type="button" className="button button-ghost" onClick={onClose}>
            Keep it
          </button>
          <button type="submit" className="button button-danger" disabled={busy}>
            {busy ? t.pending : t.confirm}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
