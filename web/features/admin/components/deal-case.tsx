import { useState, type FormEvent } from "react";
import { DEAL_REASON_MAX, DEAL_TIMING, type AdminDealResponse } from "@contract/deals";
import { Dialog } from "../../../components/ui/dialog";
import { EvidencePhoto } from "../../../components/ui/evidence-photo";
import { Loadable } from "../../../components/ui/loadable";
import { ConditionRooms, reportTitle } from "../../../components/condition-rooms";
import { FormError, TextAreaField, TextField } from "../../../components/ui/field";
import { errorMessage } from "../../../lib/api-client";
import { formatMoney, moneyLine, parseDollars, personName } from "../../../lib/deal-status";
import { adminApi } from "../api/admin-api";
import { useResolveDeal } from "../api/admin-mutations";
import { useAdminConditionReports } from "../api/admin-queries";
import { formatStaffTime } from "../lib/format";

type AdminDeal = AdminDealResponse["data"];

/**
 * The deal's move-in and move-out reports side by side (docs/decisions/040), each room's photos from the
 * private evidence route with the admin bearer; a room whose photos the problem carries says so.
 */
function CaseConditionReports({ deal }: { deal: AdminDeal }) {
  const query = useAdminConditionReports(deal.id);
  const attached = deal.problem?.photos ?? [];
  return (
    <section className="stack-sm" aria-label="Condition reports">
      <h3>Condition reports</h3>
      <Loadable query={query} label="the condition reports">
        {({ data }) =>
          data.length === 0 ? (
            <p className="muted">No condition report.</p>
          ) : (
            <div className={`report-compare${data.length > 1 ? " report-compare-two" : ""}`}>
              {data.map((report) => (
                <article key={report.phase} className="stack-sm condition-report" aria-label={reportTitle(report)}>
                  <h4>
                    {reportTitle(report)} <span className="muted">received {formatStaffTime(report.received_at)}</span>
                  </h4>
                  <ConditionRooms report={report} load={adminApi.evidence} attached={attached} />
                  {report.comment && (
                    <p className="prewrap">
                      <strong>Lister's comment ({formatStaffTime(report.comment.created_at)}): </strong>
                      {report.comment.text}
                    </p>
                  )}
                </article>
              ))}
            </div>
          )
        }
      </Loadable>
    </section>
  );
}

/**
 * A deal's evidence for staff: the agreement's PDF and both sides' statements with their private
 * photos (each fetched with the admin bearer), and the pair's conversation.
 */
export function CaseEvidence({ deal, names }: { deal: AdminDeal; names: Record<string, string> }) {
  const [pdf, setPdf] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const statements = deal.statements ?? [];
  const messages = deal.messages ?? [];
  const party = (p: "renter" | "lister") => `${personName(deal[p])} (${p})`;

  const openPdf = async () => {
    setPdf({ busy: true, error: null });
    try {
      const url = URL.createObjectURL(await adminApi.agreementPdf(deal.id));
      const a = document.createElement("a");
      a.href = url;
      a.download = `campusnest-agreement-${deal.id}.pdf`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setPdf({ busy: false, error: null });
    } catch (err) {
      setPdf({ busy: false, error: errorMessage(err, "Could not get the PDF.") });
    }
  };

  return (
    <div className="stack-sm case-evidence">
      {deal.agreement && (
        <div className="row row-start">
          <button type="button" className="button button-ghost" disabled={pdf.busy} onClick={() => void openPdf()}>
            {pdf.busy ? "Preparing the PDF…" : "Download the agreement PDF"}
            <span className="visually-hidden">: {deal.listing_title}</span>
          </button>
          {pdf.error && (
            <p className="form-error" role="alert">
              {pdf.error}
            </p>
          )}
        </div>
      )}
      {deal.listing_flag && (
        <p role="note">
          <strong>Listing flagged:</strong> its landlord ({deal.listing_flag.landlord_email}) declined a sublease {formatStaffTime(deal.listing_flag.landlord_declined_at)}; for {DEAL_TIMING.landlordDeclineHoldsMs / 86_400_000} days only their consent counts.
        </p>
      )}
      {deal.decision && (
        <p>
          Decided by {deal.decision.by} {formatStaffTime(deal.decision.at)}{deal.decision.reason ? ` (reason: ${deal.decision.reason})` : ""}.
        </p>
      )}
      {moneyLine(deal, undefined, { full: true }) && (
        <p>
          <strong>The money:</strong> {moneyLine(deal, undefined, { full: true })}
        </p>
      )}
      {deal.moved_in_at && <p className="muted">The renter confirmed the keys {formatStaffTime(deal.moved_in_at)}.</p>}
      {deal.stripe && (
        <p className="muted mono">
          Stripe: payment {deal.stripe.payment_intent ?? "—"} · charge {deal.stripe.charge ?? "—"} · transfer {deal.stripe.transfer ?? "—"} · dispute {deal.stripe.dispute ?? "—"}
        </p>
      )}
      <section className="stack-sm" aria-label="Statements">
        <h3>Statements</h3>
        {statements.length === 0 ? (
          <p className="muted">No statements.</p>
        ) : (
          <ol className="case-statements">
            {statements.map((s, i) => (
              <li key={`${s.at}-${i}`} className="stack-sm">
                <p>
                  <strong>{party(s.party)}</strong> <span className="muted">{formatStaffTime(s.at)}</span>
                </p>
                <p className="prewrap">{s.text}</p>
                {s.photos.length > 0 && (
                  <ul className="statement-photos" aria-label={`Photos from ${party(s.party)}`}>
                    {s.photos.map((url, j) => (
                      <li key={url}>
                        <EvidencePhoto url={url} alt={`Photo ${j + 1} from ${personName(deal[s.party])}`} load={adminApi.evidence} />
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ol>
        )}
      </section>
      <CaseConditionReports deal={deal} />
      <details className="deal-events">
        <summary>
          Conversation ({messages.length} {messages.length === 1 ? "message" : "messages"})
        </summary>
        {messages.length === 0 ? (
          <p className="muted">No messages.</p>
        ) : (
          <ol className="case-messages" aria-label="Conversation">
            {messages.map((m) => (
              <li key={m.id}>
                <span className="muted">
                  {formatStaffTime(m.created_at)} · {names[m.sender_id] ?? m.sender_id}:
                </span>{" "}
                <span className="prewrap">{m.content}</span>
              </li>
            ))}
          </ol>
        )}
      </details>
    </div>
  );
}

/**
 * Staff's decision on a case: how much goes back to the renter, and why (both parties read it). 0 releases
 * everything to the lister, the total refunds everything, between (up to the rent): that much back and the
 * rest of the rent released. Confirmed in a dialog that states each side's amount; said when done.
 */
export function ResolveCase({ deal }: { deal: AdminDeal }) {
  const resolve = useResolveDeal();
  const [typed, setTyped] = useState("");
  const [reason, setReason] = useState("");
  const [checked, setChecked] = useState(false);
  const [confirming, setConfirming] = useState<number | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const p = deal.payment;
  const m = (cents: number) => formatMoney(cents, p.currency);
  const renter = personName(deal.renter);
  const lister = personName(deal.lister);
  const parsed = parseDollars(typed, p.total_cents, p.currency);
  // The fee goes back only with a full refund: between the rent and the total is not a decision the server takes.
  const between = "cents" in parsed && parsed.cents > p.rent_cents && parsed.cents < p.total_cents;
  const error = !checked ? null : "error" in parsed ? parsed.error : between ? `Up to ${m(p.rent_cents)} (the rent), or ${m(p.total_cents)} to refund everything with the fee.` : reason.length > DEAL_REASON_MAX ? `The reason must be at most ${DEAL_REASON_MAX} characters.` : null;
  // What already went back stays back: the decision is never below it.
  const refundOf = (cents: number) => Math.max(cents, p.refunded_cents);
  const listerGets = (cents: number) => (refundOf(cents) >= p.total_cents ? 0 : Math.max(0, p.rent_cents - refundOf(cents)));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if ("error" in parsed || between || reason.length > DEAL_REASON_MAX) return;
    resolve.reset();
    setDone(null);
    setConfirming(parsed.cents);
  };

  const what = (cents: number) => {
    const back = refundOf(cents);
    const all = back >= p.total_cents;
    return {
      title: all ? `Refund everything to ${renter}?` : back === 0 ? `Release everything to ${lister}?` : `Refund ${m(back)} and release the rest?`,
      text: all
        ? `${renter} gets ${m(back)} back, the service fee included; ${lister} gets nothing. This cannot be undone.`
        : `${renter} gets ${m(back)} back; ${lister} gets ${m(listerGets(cents))} of the rent; CampusNest keeps the service fee (${m(p.fee_cents)}). This cannot be undone.`,
      confirm: all ? `Refund ${m(back)} to ${renter}` : `Refund ${m(back)}, release ${m(listerGets(cents))}`,
    };
  };

  return (
    <form className="stack-sm case-resolve" onSubmit={submit} noValidate aria-label={`Decide the case: ${deal.listing_title}`}>
      <h3>Decide</h3>
      <TextField
        label={`Refund to ${renter} (USD)`}
        inputMode="decimal"
        autoComplete="off"
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        error={error}
        hint={`0 releases everything to ${lister}; up to ${m(p.rent_cents)} refunds that much of the rent and releases the rest; ${m(p.total_cents)} (the total paid) refunds everything.`}
      />
      <TextAreaField label="Reason (optional; both parties read it, and it is in their emails)" rows={2} limit={DEAL_REASON_MAX} value={reason} onChange={(e) => setReason(e.target.value)} />
      <div className="row row-start">
        <button type="submit" className="button button-primary">
          Review the decision<span className="visually-hidden">: {deal.listing_title}</span>
        </button>
      </div>
      {confirming !== null && (
        <Dialog open alert size="sm" onClose={() => setConfirming(null)} title={what(confirming).title} description={what(confirming).text}>
          <div className="stack">
            {reason.trim() && (
              <p>
                Reason both parties read: <q>{reason.trim()}</q>
              </p>
            )}
            <FormError message={resolve.isError ? errorMessage(resolve.error, "Could not save the decision.") : null} />
            <div className="row">
              <button type="button" className="button button-ghost" onClick={() => setConfirming(null)} data-autofocus>
                Go back
              </button>
              <button
                type="button"
                className="button button-danger"
                disabled={resolve.isPending}
                onClick={() =>
                  resolve.mutate(
                    { id: deal.id, refundCents: confirming, reason: reason.trim() || undefined },
                    {
                      onSuccess: () => {
                        setDone(`Decided: ${m(refundOf(confirming))} back to ${renter}, ${m(listerGets(confirming))} to ${lister}. Both parties were told.`);
                        setConfirming(null);
                      },
                    },
                  )
                }
              >
                {resolve.isPending ? "Saving…" : what(confirming).confirm}
              </button>
            </div>
          </div>
        </Dialog>
      )}
      <p role="status" className="muted">
        {done ?? ""}
      </p>
    </form>
  );
}
