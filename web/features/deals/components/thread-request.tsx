import { useListing } from "../../../lib/listing-detail";
import { RequestDeal } from "./request-deal";

/**
 * "Request to sublease" in a conversation about a listing: offered to the one who is not its owner,
 * while the listing is open to requests (a taken, hidden or deleted one no longer answers).
 */
export function ThreadRequestDeal({ listingId, me, onSent }: { listingId: string; me: string; onSent: () => void }) {
  const listing = useListing(listingId);
  const l = listing.data;
  if (!l || l.user_id === me || l.status !== "available") return null;
  return <RequestDeal listing={l} onSent={onSent} compact />;
}
