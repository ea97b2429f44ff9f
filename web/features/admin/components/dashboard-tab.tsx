import type { AdminStats } from "@contract/admin";
import { Loadable } from "../../../components/ui/loadable";
import { useAdminAudit, useAdminStats } from "../api/admin-queries";
import { formatStaffTime } from "../lib/format";

const DAY = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

function GrowthChart({ growth }: { growth: AdminStats["user_growth"] }) {
  const max = 200;
  return (
    <figure className="chart">
      <figcaption>New users, last 10 days</figcaption>
      <svg viewBox="0 -12 420 242" role="img" aria-label={growth.map((g) => `${g.date}: ${g.users}`).join(", ")}>
        {[0, 50, 100, 150, 200].map((v) => (
          <g key={v}>
            <line x1="36" x2="415" y1={200 - v} y2={200 - v} stroke="currentColor" strokeOpacity="0.15" />
            <text x="30" y={204 - v} textAnchor="end" fontSize="10" fill="currentColor">
              {v}
            </text>
          </g>
        ))}
        {growth.map((g, i) => {
          const h = (Math.min(g.users, max) / max) * 200;
          return (
            <g key={g.date}>
              <rect x={44 + i * 37} y={200 - h} width="26" height={h} rx="3" fill="var(--brand)" />
              <text x={57 + i * 37} y="218" textAnchor="middle" fontSize="9" fill="currentColor">
                {DAY.format(new Date(g.date))}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

export function DashboardTab() {
  const stats = useAdminStats();
  return (
    <Loadable query={stats} label="stats">
      {(s) => (
        <div className="stack">
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
          <AuditLog />
        </div>
      )}
    </Loadable>
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
                  </time> <strong>{r.action.replace(/_/g, " ")}</strong>
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
