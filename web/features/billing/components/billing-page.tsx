import { useEffect, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { PROMOTION_MESSAGES, type PromotedListing, type PromotionState } from "@contract/promotions";
import { PageFrame } from "../../../components/layout/page-frame";
import { PLACEHOLDER_IMAGE } from "../../../components/ui/carousel";
import { Dialog } from "../../../components/ui/dialog";
import { useToast } from "../../../components/ui/toast";
import { paths } from "../../../config/paths";
import { formatRent } from "../../../lib/listings-api";
import { billingErrorMessage, useCancelSubscription, usePromotedListings } from "../api/billing-api";
import { useSession } from "../../../lib/session";
import { BillingHistoryDialog } from "./billing-history-dialog";
import { DealReceipts } from "./deal-receipts";
import { formatIsoDate } from "./format";

/** The words of each state ('Promoted' renews, 'Cancelled' expires; docs/product-rules.md "States"). */
const STATE_LABEL: Record<PromotionState, string> = {
  promoted: "Promoted",
  cancelled: "Cancelled",
  past_due: "Payment failed",
  awaiting_approval: "Starts when approved",
  none: "Not promoted",
};

/** States with a subscription that still renews, so Cancel Subscription applies. */
const CANCELLABLE: ReadonlySet<PromotionState> = new Set(["promoted", "past_due", "awaiting_approval"]);

function stateDetail(listing: PromotedListing): string {
  const end = formatIsoDate(listing.promotion_end);
  switch (listing.promotion_state) {
    case "promoted":
      return end ? `Renews on ${end}` : "Renews weekly";
    case "cancelled":
      return end ? `Expires on ${end}` : "Will not renew";
    case "past_due":
      return end
        ? `The weekly renewal payment failed and will be retried. Paid through ${end}.`
        : "The weekly renewal payment failed and will be retried.";
    case "awaiting_approval":
      return "Paid. The promotion starts when staff approve this listing.";
    default:
      return end ? `Ended on ${end}` : "No promotion running";
  }
}

/** A deleted listing keeps its history here; its promotion no longer renews. */
function deletedDetail(listing: PromotedListing): string {
  const end = formatIsoDate(listing.promotion_end);
  const paid = end ? ` Paid through ${end}.` : "";
  return `You deleted this listing; its promotion does not renew.${paid}`;
}

function BillingRow({
  listing,
  highlighted,
  onCancel,
  onHistory,
}: {
  listing: PromotedListing;
  highlighted: boolean;
  onCancel: () => void;
  onHistory: () => void;
}) {
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (highlighted) ref.current?.scrollIntoView?.({ block: "center" });
  }, [highlighted]);
  const state = listing.promotion_state;
  const titleId = `billing-${listing.id}`;
  return (
    <li ref={ref} className={highlighted ? "billing-row is-highlighted" : "billing-row"} aria-current={highlighted || undefined}>
      <img src={listing.thumbnails[0] ?? PLACEHOLDER_IMAGE} alt="" />
      <div className="billing-row-text">
        {listing.deleted ? (
          <span id={titleId} className="billing-row-title">
            {listing.title}
          </span>
        ) : (
          <Link id={titleId} to={paths.listing(listing.id, paths.billing)}>
            {listing.title}
          </Link>
        )}
        <span className="muted">{formatRent(listing.monthly_rent)}/month</span>
        {listing.deleted && <span className="badge badge-state-deleted">Deleted listing</span>}
        <span className={`badge badge-promotion-${state}`}>{STATE_LABEL[state]}</span>
        <span className="billing-row-detail">{listing.deleted ? deletedDetail(listing) : stateDetail(listing)}</span>
      </div>
      <div className="billing-row-actions">
        <button type="button" className="button button-ghost" onClick={onHistory} aria-describedby={titleId}>
          Billing history
        </button>
        {CANCELLABLE.has(state) && !listing.deleted && (
          <button type="button" className="button button-ghost danger-text" onClick={onCancel} aria-describedby={titleId}>
            Cancel Subscription
          </button>
        )}
      </div>
    </li>
  );
}

/** /billing (?listing_id= highlights one): the receipts of the user's deals, then their promoted listings, cancel, billing history. */
export function BillingPage() {
  const { session } = useSession();
  const [params] = useSearchParams();
  const highlight = params.get("listing_id");
  const toast = useToast();
  const listings = usePromotedListings();
  const [cancelling, setCancelling] = useState<PromotedListing | null>(null);
  const [history, setHistory] = useState<PromotedListing | null>(null);
  const cancel = useCancelSubscription({
    success: () => {
      setCancelling(null);
      toast.show("Subscription cancelled", { kind: "success" });
    },
  });

  const closeCancel = () => {
    setCancelling(null);
    cancel.reset();
  };
  const cancelEnd = formatIsoDate(cancelling?.promotion_end);

  return (
    <PageFrame title="Billing" lead="What you paid and were paid for deals, and your promoted listings with their weekly subscriptions.">
      <div className="stack">
        <DealReceipts me={session!.user.id} />
        <section className="stack-sm" aria-labelledby="promotions-heading">
          <h2 id="promotions-heading">Promotions</h2>
          {listings.isPending ? (
            <p className="muted">Loading your promoted listings…</p>
          ) : listings.isError ? (
            <p className="form-error" role="alert">
              {PROMOTION_MESSAGES.promotedListingsFailed}{" "}
              <button type="button" className="link-button" onClick={() => listings.refetch()}>
                Try again
              </button>
            </p>
          ) : listings.data.length === 0 ? (
            <div className="panel notice stack-sm">
              <h3>No promoted listings</h3>
              <p>
                You have not promoted a listing yet. Promote one from <Link to={paths.profile}>your profile</Link>.
              </p>
            </div>
          ) : (
            <ul className="billing-list" aria-label="Promoted listings">
              {listings.data.map((l) => (
                <BillingRow key={l.id} listing={l} highlighted={l.id === highlight} onCancel={() => setCancelling(l)} onHistory={() => setHistory(l)} />
              ))}
            </ul>
          )}
        </section>
      </div>
      <Dialog
        open={cancelling !== null}
        onClose={closeCancel}
        size="sm"
        title="Cancel this subscription?"
        description={
          cancelling
            ? `"${cancelling.title}" will not renew and you will not be charged again.${cancelEnd && cancelling.promotion_state !== "awaiting_approval" ? ` It stays promoted until ${cancelEnd}.` : ""}`
            : undefined
        }
        footer={
          <>
            <button type="button" className="button button-ghost" onClick={closeCancel} data-autofocus>
              Keep subscription
            </button>
            <button type="button" className="button button-danger" disabled={cancel.isPending} onClick={() => cancelling && cancel.mutate(cancelling.id)}>
              {cancel.isPending ? "Cancelling…" : "Cancel Subscription"}
            </button>
          </>
        }
      >
        {cancel.isError && (
          <p className="field-error" role="alert">
            {billingErrorMessage(cancel.error)}
          </p>
        )}
      </Dialog>
      <BillingHistoryDialog listing={history} onClose={() => setHistory(null)} />
    </PageFrame>
  );
}
