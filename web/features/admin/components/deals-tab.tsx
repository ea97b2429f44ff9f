import { useState } from "react";
import { DEAL_STATUSES, HASH_LABELS, type Deal, type DealStatus } from "@contract/deals";
import { Loadable } from "../../../components/ui/loadable";
import { PagedList } from "./paged-list";
import { CASE_REASON_LABELS, CONSENT_LABELS, DEAL_STATUS_LABELS, statusBadge, dealStay, formatMoney, moneyLine, PAYMENT_STATUS_LABELS, personName, PROBLEM_LABELS, reasonText } from "../../../lib/deal-status";
import { formatRent } from "../../../lib/listings-api";
import type { AdminDealsView } from "../api/admin-api";
import { useAdminDeal, useAdminDeals } from "../api/admin-queries";
import { formatStaffTime } from "../lib/format";
import { CaseEvidence, ResolveCase } from "./deal-case";

/** A staff case: the server offers staff `resolve` (a problem, a suspension, a failed transfer, a surplus; not while the bank decides a card dispute). */
export const isCase = (d: Deal) => d.case_reason !== null || d.status === "disputed" || d.payment.status === "release_failed";

/**
 * Staff read the open cases first (disputed and failed releases, oldest first), then every deal by
 * status; a deal's events on demand, and for a case its evidence and the decision.
 */
export function DealsTab() {
  const [status, setStatus] = useState<AdminDealsView>("cases");
  const deals = useAdminDeals(status);
  return (
    <div className="stack">
      <div className="admin-toolbar">
        <label className="field">
          <span className="field-label">Status</span>
          <select value={status ?? ""} onChange={(e) => setStatus((e.target.value || null) as DealStatus | "cases" | null)}>
            <option value="cases">Open cases</option>
            <option value="">All</option>
            {DEAL_STATUSES.map((s) => (
              <option key={s} value={s}>
                {DEAL_STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <PagedList query={deals} label="deals">
        {(list) =>
          list.length === 0 ? (
            <p className="muted">{status === "cases" ? "No open cases: no problem reported, no card dispute, no failed transfer." : status ? `No ${DEAL_STATUS_LABELS[status].toLowerCase()} deals.` : "No deals yet."}</p>
          ) : (
            <ul className="admin-cards">
              {list.map((d) => (
                <AdminDeal key={d.id} deal={d} />
              ))}
            </ul>
          )
        }
      </PagedList>
    </div>
  );
}

/** The money in one line: what was paid and where it is. */
function staffMoneyLine(d: Deal): string | null {
  const p = d.payment;
  if (p.status === "none") return null;
  const m = (cents: number) => formatMoney(cents, p.currency);
  const parts = [`${m(p.total_cents)} (rent ${m(p.rent_cents)} + fee ${m(p.fee_cents)}, ${p.fee_percent}%)`, PAYMENT_STATUS_LABELS[p.status]];
  if (p.paid_at) parts.push(`paid ${formatStaffTime(p.paid_at)}`);
  if (p.status === "held" && p.held_until) parts.push(`until ${formatStaffTime(p.held_until)}`);
  if (p.released_at) parts.push(`released ${formatStaffTime(p.released_at)}`);
  const where = moneyLine(d, undefined, { full: true });
  if (where) parts.push(where);
  return parts.join(" · ");
}

function AdminDeal({ deal: d }: { deal: Deal }) {
  const [open, setOpen] = useState(false);
  const reason = reasonText(d.status_reason);
  const money = staffMoneyLine(d);
  const caseFile = isCase(d);
  return (
    <li className="panel stack-sm">
      <div className="section-head">
        <strong>{d.listing_title}</strong>
        <span className={statusBadge(d).className}>{statusBadge(d).label}</span>
      </div>
      {d.case_reason && (
        <p>
          <strong>Case: {CASE_REASON_LABELS[d.case_reason]}</strong>
          {d.problem && ` (${PROBLEM_LABELS[d.problem.kind]}, ${formatStaffTime(d.problem.created_at)})`}
        </p>
      )}
      <p>
        {personName(d.renter)} (renter) · {personName(d.lister)} (lister) · {dealStay(d)} · {formatRent(d.monthly_rent)} / month
      </p>
      {money && <p>{money}</p>}
      <p className="muted">
        Landlord consent: {CONSENT_LABELS[d.landlord_consent.status]} · Created {formatStaffTime(d.created_at)}
        {reason ? ` · ${reason}` : ""}
      </p>
      <p className="muted mono">Deal {d.id}</p>
      <button type="button" className="button button-ghost admin-deal-toggle" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {caseFile ? (open ? "Hide the case file" : "Open the case file") : open ? "Hide events" : "Show events"}
        <span className="visually-hidden">: {d.listing_title}</span>
      </button>
      {open && <DealEvents deal={d} caseFile={caseFile} />}
    </li>
  );
}

function DealEvents({ deal, caseFile }: { deal: Deal; caseFile: boolean }) {
  const query = useAdminDeal(deal.id);
  const names: Record<string, string> = { [deal.renter.id]: `${personName(deal.renter)} (renter)`, [deal.lister.id]: `${personName(deal.lister)} (lister)` };
  return (
    <Loadable query={query} label="the deal's events">
      {(full) => (
        <div className="stack-sm">
          <p className="muted">
            Address: {full.address}
            {full.agreement && (
              <>
                {" "}
                · Agreement version {full.agreement.version}, {HASH_LABELS.text} <code className="mono deal-hash">{full.agreement.sha256}</code>
              </>
            )}
            {full.pdf_sha256 && (
              <>
                {" "}
                · {HASH_LABELS.file} <code className="mono deal-hash">{full.pdf_sha256}</code>
              </>
            )}
          </p>
          {full.events.length === 0 ? (
            <p className="muted">No events yet.</p>
          ) : (
            // Six columns overflow a narrow panel: the scrolling region takes focus so a keyboard can scroll it.
            <div className="table-scroll" role="region" aria-label="Events" tabIndex={0}>
              <table className="billing-table">
                <caption className="visually-hidden">Events of this deal</caption>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Event</th>
                    <th scope="col">Who</th>
                    <th scope="col">IP address</th>
                    <th scope="col">User agent</th>
                    <th scope="col">Document</th>
                  </tr>
                </thead>
                <tbody>
                  {full.events.map((e, i) => (
                    // data-label: under 600 px each row is a card that names its values (styles.css, as billing's table).
                    <tr key={`${e.type}-${e.at}-${i}`}>
                      <td data-label="When">{formatStaffTime(e.at)}</td>
                      <td data-label="Event">{e.type.replace(/_/g, " ")}</td>
                      <td data-label="Who">{e.actor_id ? (names[e.actor_id] ?? e.actor_id) : e.actor_role || "CampusNest"}</td>
                      <td data-label="IP address" className="mono">{e.ip ?? "—"}</td>
                      <td data-label="User agent">{e.user_agent ?? "—"}</td>
                      <td data-label="Document" className="mono">{e.agreement_version ? `v${e.agreement_version} ` : ""}{e.document_sha256 ? e.document_sha256.slice(0, 12) + "…" : ""}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <CaseEvidence deal={full} names={names} />
          {full.actions.includes("resolve") ? <ResolveCase deal={full} /> : caseFile && <p className="muted">{full.waiting_for.detail}</p>}
        </div>
      )}
    </Loadable>
  );
}
