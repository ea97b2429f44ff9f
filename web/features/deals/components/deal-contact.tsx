import { Link } from "react-router-dom";
import type { Deal } from "@contract/deals";
import { paths } from "../../../config/paths";
import { personName } from "../../../lib/deal-status";
import { useOffline } from "../../../lib/online";

/** The other person of the deal, and the way to reach them (kept offline with the deal: docs/decisions/042). */
export function DealContact({ deal, role }: { deal: Deal; role: "renter" | "lister" }) {
  const offline = useOffline();
  const other = role === "renter" ? deal.lister : deal.renter;
  return (
    <section className="panel stack-sm" aria-labelledby="deal-contact-heading">
      <h2 id="deal-contact-heading">Your contact</h2>
      <p>
        <strong>{personName(other)}</strong>, {role === "renter" ? "the lister (tenant) who sublets to you" : "your renter (subtenant)"}
      </p>
      {offline ? (
        <p className="muted">Messages need a connection: your conversation with {other.first_name} opens when you're back online.</p>
      ) : (
        <p>
          <Link to={paths.messages(other.id, deal.listing_id ?? undefined)} className="button button-ghost">
            Message {other.first_name}
          </Link>
        </p>
      )}
    </section>
  );
}
