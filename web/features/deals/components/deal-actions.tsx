import { useState, type ReactNode } from "react";
import { DEAL_CANCELLATION_POLICY, DEAL_REASON_MAX, type Deal } from "@contract/deals";
import { Dialog } from "../../../components/ui/dialog";
import { FormError, TextAreaField } from "../../../components/ui/field";
import { errorMessage } from "../../../lib/api-client";
import { formatMoney, roleIn, type DealRole } from "../../../lib/deal-status";
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

/** Accept and Decline on a request, and Cancel, as the deal's `actions` offer them to the viewer; each error in the server's words. */
export function DealActions({ deal, me, cancelFor, onDone }: DealActionsProps) {
  const role = roleIn(deal, me);
  const accept = useAcceptDeal();
  const decline = useDeclineDeal();
  const cancel = useCancelDeal();
  const [asking, setAsking] = useState<"decline" | "cancel" | null>(null);
  const busy = accept.isPending || decline.isPending || cancel.isPending;
  const failed = [accept, decline, cancel].find((m) => m.isError);
  const reset = () => [accept, decline, cancel].forEach((m) => m.reset());

  const lister = deal.actions.includes("accept") || deal.actions.includes("decline");
  const mayCancel = deal.actions.includes("cancel") && (role === "renter" || (cancelFor === "both" && role === "lister"));
  if (!lister && !mayCancel) return null;
  return (
    <div className="deal-actions">
      <div className="row row-start">
        {deal.actions.includes("accept") && (
          <ActionButton primary busy={busy} pending={accept.isPending ? "Accepting…" : null} onClick={() => (reset(), accept.mutate(deal.id, { onSuccess: onDone }))}>
            Accept
          </ActionButton>
        )}
        {deal.actions.includes("decline") && (
          <ActionButton busy={busy} onClick={() => (reset(), setAsking("decline"))}>
            Decline
          </ActionButton>
        )}
        {mayCancel && (
          <ActionButton busy={busy} onClick={() => (reset(), setAsking("cancel"))}>
            {role === "renter" && deal.status === "requested" ? "Cancel request" : "Cancel deal"}
          </ActionButton>
        )}
      </div>
      {failed && !asking && <FormError message={errorMessage(failed.error, "Could not save this change. Please try again.")} />}
      {asking && (
        <ReasonConfirm
          kind={asking}
          deal={deal}
          me={me}
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

/** One of the deal's buttons: disabled while any change is saving, its own words while its change is. */
function ActionButton({ primary, busy, pending = null, onClick, children }: { primary?: boolean; busy: boolean; pending?: string | null; onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" className={`button ${primary ? "button-primary" : "button-ghost"}`} disabled={busy} onClick={onClick}>
      {pending ?? children}
    </button>
  );
}

const TEXTS = {
  decline: { title: "Decline this request?", confirm: "Decline request", pending: "Declining…" },
  cancel: { title: "Cancel this deal?", confirm: "Cancel deal", pending: "Cancelling…" },
} as const;

/** What cancelling does, by the policy and the viewer's role (DEAL_CANCELLATION_POLICY: the server applies it). */
export function cancelText(deal: Deal, role: DealRole | null): string {
  if (deal.payment.status !== "held") return "This cannot be undone: the request, the agreement and any signatures end here.";
  const p = deal.payment;
  if (role === "lister") return `${deal.renter.first_name} gets everything back at once: ${formatMoney(p.total_cents, p.currency)}, the service fee included. This cannot be undone.`;
  return `${DEAL_CANCELLATION_POLICY[1]} ${DEAL_CANCELLATION_POLICY[2]} You paid ${formatMoney(p.rent_cents, p.currency)} rent and a ${formatMoney(p.fee_cents, p.currency)} service fee. This cannot be undone.`;
}

/** Decline or Cancel, confirmed, with an optional reason the other party reads. */
function ReasonConfirm({ kind, deal, me, busy, error, onClose, onConfirm }: { kind: "decline" | "cancel"; deal: Deal; me: string; busy: boolean; error: unknown; onClose: () => void; onConfirm: (reason?: string) => void }) {
  const [reason, setReason] = useState("");
  const t = TEXTS[kind];
  return (
    <Dialog
      open
      alert
      size="sm"
      onClose={onClose}
      title={t.title}
      description={kind === "decline" ? `${deal.renter.first_name} will see that you declined, and your reason if you give one.` : cancelText(deal, roleIn(deal, me))}
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
