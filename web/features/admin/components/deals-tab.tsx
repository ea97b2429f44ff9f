import { useState } from "react";
import { DEAL_STATUSES, type Deal, type DealStatus } from "@contract/deals";
import { Loadable } from "../../../components/ui/loadable";
import { CONSENT_LABELS, DEAL_STATUS_LABELS, dealStay, personName, reasonText } from "../../../lib/deal-status";
import { formatRent } from "../../../lib/listings-api";
import { useAdminDeal, useAdminDeals } from "../api/admin-queries";
import { formatStaffTime } from "../lib/format";

/** Staff read every deal (by status) and, on demand, its agreement's events. */
export function DealsTab() {
  const [status, setStatus] = useState<DealStatus | null>(null);
  const deals = useAdminDeals(status);
  return (
    <div className="stack">
      <div className="admin-toolbar">
        <label className="field">
          <span className="field-label">Status</span>
          <select value={status ?? ""} onChange={(e) => setStatus((e.target.value || null) as DealStatus | null)}>
            <option value="">All</option>
            {DEAL_STATUSES.map((s) => (
              <option key={s} value={s}>
                {DEAL_STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Loadable query={deals} label="deals">
        {(page) =>
          page.data.length === 0 ? (
            <p className="muted">{status ? `No ${DEAL_STATUS_LABELS[status].toLowerCase()} deals.` : "No deals yet."}</p>
          ) : (
            <ul className="admin-cards">
              {page.data.map((d) => (
                <AdminDeal key={d.id} deal={d} />
              ))}
            </ul>
          )
        }
      </Loadable>
    </div>
  );
}

function AdminDeal({ deal: d }: { deal: Deal }) {
  const [open, setOpen] = useState(false);
  const reason = reasonText(d.status_reason);
  return (
    <li className="panel stack-sm">
      <div className="section-head">
        <strong>{d.listing_title}</strong>
        <span className={`badge deal-badge deal-badge-${d.status}`}>{DEAL_STATUS_LABELS[d.status]}</span>
      </div>
      <p>
        {personName(d.renter)} (renter) · {personName(d.lister)} (lister) · {dealStay(d)} · {formatRent(d.monthly_rent)} / month
      </p>
      <p className="muted">
        Landlord consent: {CONSENT_LABELS[d.landlord_consent.status]} · Created {formatStaffTime(d.created_at)}
        {reason ? ` · ${reason}` : ""}
      </p>
      <p className="muted mono">Deal {d.id}</p>
      <button type="button" className="button button-ghost admin-deal-toggle" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {open ? "Hide events" : "Show events"}
      </button>
      {open && <DealEvents deal={d} />}
    </li>
  );
}

function DealEvents({ deal }: { deal: Deal }) {
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
                · Agreement version {full.agreement.version}, SHA-256 <code className="mono deal-hash">{full.agreement.sha256}</code>
              </>
            )}
            {full.pdf_sha256 && (
              <>
                {" "}
                · Signed PDF SHA-256 <code className="mono deal-hash">{full.pdf_sha256}</code>
              </>
            )}
          </p>
          {full.events.length === 0 ? (
            <p className="muted">No events yet.</p>
          ) : (
            <div className="table-scroll">
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
                    <tr key={`${e.type}-${e.at}-${i}`}>
                      <td>{formatStaffTime(e.at)}</td>
                      <td>{e.type.replace(/_/g, " ")}</td>
                      <td>{e.actor_id ? (names[e.actor_id] ?? e.actor_id) : e.actor_role || "CampusNest"}</td>
                      <td className="mono">{e.ip ?? "—"}</td>
                      <td>{e.user_agent ?? "—"}</td>
                      <td className="mono">{e.agreement_version ? `v${e.agreement_version} ` : ""}{e.document_sha256 ? e.document_sha256.slice(0, 12) + "…" : ""}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      )}
    </Loadable>
  );
}
