import type { AdminStats } from "@contract/admin";
import { DEAL_STATUSES, type AdminDealStats } from "@contract/deals";
import { auditActionLabel } from "@contract/audit";
import { useEffect, useRef, useState, type RefObject } from "react";
import { Loadable } from "../../../components/ui/loadable";
import { useAdminAudit, useAdminStats } from "../api/admin-queries";
import { countAxis, formatStaffTime } from "../lib/format";
import { DEAL_STATUS_LABELS, formatMoney } from "../../../lib/deal-status";
import { formatDate } from "@contract/dates";


const HEIGHT = 200;
const LEFT = 36;
const RIGHT = 8;

/** The width the chart's card gives it (a ResizeObserver where there is one; 420 until measured). */
function useWidth(ref: RefObject<HTMLElement | null>) {
  const [width, setWidth] = useState(420);
  useEffect(() => {
    const node = ref.current;
    if (!node || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(([entry]) => {
      const next = Math.round(entry?.contentRect.width ?? 0);
      if (next > 0) setWidth(next);
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** New sign-ups per day: the y-axis is scaled to the data, the bars fill the card. */
function GrowthChart({ growth }: { growth: AdminStats["user_growth"] }) {
  const figure = useRef<HTMLElement>(null);
  const width = Math.max(280, useWidth(figure));
  const { max, ticks } = countAxis(Math.max(0, ...growth.map((g) => g.users)));
  const slot = (width - LEFT - RIGHT) / Math.max(1, growth.length);
  const bar = Math.min(48, slot * 0.7);
  // On a phone the day labels would touch: then every other day is named, ending with the latest.
  const labelEvery = slot < 34 ? 2 : 1;
  const y = (v: number) => HEIGHT - (v / max) * HEIGHT;
  return (
    <figure className="chart" ref={figure}>
      <figcaption>New users, last {growth.length} days</figcaption>
      <svg viewBox={`0 -12 ${width} 242`} width={width} height={242} role="img" aria-label={growth.map((g) => `${formatDate(g.date.slice(0, 10))}: ${g.users}`).join(", ")}>
        {ticks.map((v) => (
          <g key={v}>
            <line x1={LEFT} x2={width - RIGHT} y1={y(v)} y2={y(v)} stroke="currentColor" strokeOpacity="0.15" />
            <text x={LEFT - 6} y={y(v) + 4} textAnchor="end" fontSize="10" fill="currentColor">
              {v.toLocaleString("en-US")}
            </text>
          </g>
        ))}
        {growth.map((g, i) => {
          const h = (g.users / max) * HEIGHT;
          const center = LEFT + slot * i + slot / 2;
          return (
            <g key={g.date}>
              <rect x={center - bar / 2} y={HEIGHT - h} width={bar} height={h} rx="3" fill="var(--brand)" data-users={g.users} />
              {(growth.length - 1 - i) % labelEvery === 0 && (
                <text x={center} y="218" textAnchor="middle" fontSize="9" fill="currentColor">
                  {formatDate(g.date.slice(0, 10))}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <p className="muted chart-note">Days run midnight to midnight UTC.</p>
    </figure>
  );
}

/** Opens a tab of the panel, and one of its section's sub-tabs. */
export type OpenQueue = (tab: string, sub?: { section: string; id: string }) => void;

/** What waits for staff, in the order of the tabs that list it (counts the database keeps: docs/decisions/038). */
const QUEUES: { count: (s: AdminStats) => number; label: string; tab: string; sub?: { section: string; id: string }; where: string }[] = [
  { count: (s) => s.queues.pending_ids, label: "Pending IDs", tab: "users", sub: { section: "Users", id: "pending" }, where: "Users, Pending" },
  { count: (s) => s.queues.pending_listings, label: "Pending listings", tab: "listings", sub: { section: "Listings", id: "pending" }, where: "Listings, Pending" },
  { count: (s) => s.queues.open_reports, label: "Open reports", tab: "reports", sub: { section: "Reports", id: "open" }, where: "Reports, Open" },
  { count: (s) => s.queues.safety_flags, label: "Safety flags", tab: "safety", where: "Safety" },
  { count: (s) => s.open_feedback, label: "Open feedback", tab: "feedback", sub: { section: "Feedback", id: "active" }, where: "Feedback" },
];

function Queues({ stats, onOpen }: { stats: AdminStats; onOpen: OpenQueue }) {
  return (
    <section aria-labelledby="queues-heading" className="stack-sm">
      <h2 id="queues-heading">Waiting for review</h2>
      <ul className="stat-grid queue-grid">
        {QUEUES.map((q) => (
          <li key={q.label}>
            <button type="button" className={`panel stat queue${q.count(stats) > 0 ? " queue-waiting" : ""}`} onClick={() => onOpen(q.tab, q.sub)}>
              {/* Spaces between the parts, so the button's name reads "Pending IDs 2 Open Users, Pending". */}
              <span className="muted">{q.label}</span>{" "}
              <strong>{(q.count(stats) ?? 0).toLocaleString("en-US")}</strong>{" "}
              <span className="queue-go">
                Open <span className="visually-hidden">{q.where}</span>
                <span aria-hidden="true">→</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function DashboardTab({ onOpen }: { onOpen: OpenQueue }) {
  const stats = useAdminStats();
  return (
    <Loadable query={stats} label="stats">
      {(s) => (
        <div className="stack">
          <Queues stats={s} onOpen={onOpen} />
          <div className="stat-grid">
            {(["users", "listings", "conversations", "messages"] as const).map((k) => (
              <div key={k} className="panel stat">
                <span className="muted">{k[0]!.toUpperCase() + k.slice(1)}</span>
                <strong>{s[k].toLocaleString("en-US")}</strong>
              </div>
            ))}
          </div>
          <div className="panel">
            <GrowthChart growth={s.user_growth} />
          </div>
          {s.deals && <DealStats deals={s.deals} />}
          <AuditLog />
        </div>
      )}
    </Loadable>
  );
}

/** Deals by state and the money: held now, released to listers, refunded to renters, open cases. */
function DealStats({ deals }: { deals: AdminDealStats }) {
  const states = DEAL_STATUSES.filter((st) => (deals.by_status[st] ?? 0) > 0);
  return (
    <section className="panel stack-sm" aria-labelledby="deal-stats-heading">
      <h2 id="deal-stats-heading">Deals and money</h2>
      <div className="stat-grid">
        {(
          [
            ["Money held", formatMoney(deals.held_cents)],
            ["Released", formatMoney(deals.released_cents)],
            ["Refunded", formatMoney(deals.refunded_cents)],
            ["Open cases", deals.open_cases.toLocaleString("en-US")],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="panel stat">
            <span className="muted">{label}</span>
            <strong>{value}</strong>
          </div>
        ))}
      </div>
      {states.length === 0 ? (
        <p className="muted">No deals yet.</p>
      ) : (
        <ul className="deal-state-counts" aria-label="Deals by state">
          {states.map((st) => (
            <li key={st}>
              {DEAL_STATUS_LABELS[st]}: <strong>{(deals.by_status[st] ?? 0).toLocaleString("en-US")}</strong>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Who did what, when: the newest admin actions from the audit table. */
function AuditLog() {
  const audit = useAdminAudit();
  return (
    <section className="panel stack-sm" aria-labelledby="audit-heading">
      <h2 id="audit-heading">Recent admin activity</h2>
      <Loadable query={audit} label="activity">
        {(rows) =>
          rows.length === 0 ? (
            <p className="muted">No admin actions yet.</p>
          ) : (
            <ol className="audit-log">
              {rows.slice(0, 20).map((r) => (
                <li key={r.id}>
                  <time className="muted" dateTime={r.created_at}>
                    {formatStaffTime(r.created_at)}
                  </time> <strong>{auditActionLabel(r.action)}</strong>
                  {r.table && <span className="muted"> · {r.table}</span>}
                  {r.item_id && <span className="mono"> {r.item_id}</span>}
                  <span className="muted"> · {r.actor}</span>
                </li>
              ))}
            </ol>
          )
        }
      </Loadable>
    </section>
  );
}
