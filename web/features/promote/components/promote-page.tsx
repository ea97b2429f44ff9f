import { useRef } from "react";
import { Link, useSearchParams } from "react-router-dom";
import type { OwnerListing, PublicListing } from "@contract/listings";
import { isListingOwner, PUBLIC_LISTING, type Actor } from "@contract/policies";
import { canPromoteListing } from "@contract/owner-rules";
import { PROMOTION_MESSAGES, PROMOTION_PLAN } from "@contract/promotions";
import { PageFrame } from "../../../components/layout/page-frame";
import { ApiError } from "../../../lib/api-client";
import { PLACEHOLDER_IMAGE } from "../../../components/ui/carousel";
import { paths } from "../../../config/paths";
import { isOwnerView, useListing } from "../../../lib/listing-detail";
import { formatRent } from "../../../lib/listings-api";
import { useSession } from "../../../lib/session";
import { useSignInHere } from "../../../lib/sign-in-prompt";
import { checkoutErrorMessage, newCheckoutKey, useCreateCheckoutSession } from "../api/promote-api";

/** Why this listing cannot be promoted now, in the owner's words; null when it can. */
function blockedReason(user: Actor, listing: PublicListing | OwnerListing): string | null {
  if (!isListingOwner(user, listing)) return "You can only promote your own listings.";
  if (listing.promoted || (isOwnerView(listing) && listing.stripe_subscription_id)) return "This listing is already promoted.";
  if (canPromoteListing(user, listing)) return null;
  // A listing waiting for review may be paid for now: its promotion starts once staff approve it.
  if (listing.verification_status === "pending" && canPromoteListing(user, { ...listing, verification_status: PUBLIC_LISTING.verification_status })) return null;
  if (listing.moderation_status !== PUBLIC_LISTING.moderation_status) return "This listing is hidden by staff, so it cannot be promoted.";
  if (listing.verification_status === "rejected")
    return "This listing was rejected in review. Edit it to send it back for review; once it is approved you can promote it.";
  return "Only approved listings can be promoted.";
}

function Plan() {
  return (
    <section className="panel stack-sm promote-plan" aria-labelledby="plan-heading">
      <h2 id="plan-heading">
        {PROMOTION_PLAN.name} <span className="promote-price">{PROMOTION_PLAN.priceLabel}</span>
      </h2>
      <ul className="promote-benefits">
        <li>Your listing is featured at the top of browse results.</li>
        <li>Runs for {PROMOTION_PLAN.days} days and renews every {PROMOTION_PLAN.interval}.</li>
        <li>Cancel any time from Billing; it stays featured until the paid week ends.</li>
      </ul>
    </section>
  );
}

function Preview({ listing }: { listing: PublicListing }) {
  return (
    <section className="panel promote-preview" aria-labelledby="preview-heading">
      <img src={listing.thumbnails[0] ?? PLACEHOLDER_IMAGE} alt="" />
      <div className="stack-sm">
        <h2 id="preview-heading">
          <Link to={paths.listing(listing.id)}>{listing.title}</Link>
        </h2>
        <p className="muted">
          {formatRent(listing.monthly_rent)}/month · {listing.university_abbreviation} · {listing.address}
        </p>
        {listing.promoted && <span className="badge badge-promoted">Promoted</span>}
      </div>
    </section>
  );
}

/** /promote?listing_id=: the plan, the owner's listing, and Promote! (to checkout) or Maybe Later. */
export function PromotePage() {
  const [params] = useSearchParams();
  const listingId = params.get("listing_id")?.trim() || undefined;
  const { session } = useSession();
  const signInHere = useSignInHere();
  const listing = useListing(session ? listingId : undefined);
  const checkout = useCreateCheckoutSession();
  // One key per intended checkout of a listing: every click on this visit sends the same one.
  const checkoutKeys = useRef(new Map<string, string>());
  const checkoutKeyFor = (id: string) => {
    if (!checkoutKeys.current.has(id)) checkoutKeys.current.set(id, newCheckoutKey());
    return checkoutKeys.current.get(id)!;
  };

  let body;
  if (!listingId) {
    body = (
      <p className="form-error" role="alert">
        {PROMOTION_MESSAGES.noListing}
      </p>
    );
  } else if (!session) {
    body = (
      <div className="panel notice stack-sm">
        <p role="alert">{PROMOTION_MESSAGES.signIn}</p>
        <p>
          <button type="button" className="button button-primary" onClick={() => signInHere()}>
            Sign in
          </button>
        </p>
      </div>
    );
  } else if (listing.isPending) {
    body = <p className="muted">Loading your listing…</p>;
  } else if (listing.isError && listing.error instanceof ApiError && listing.error.status === 404) {
    body = (
      <div className="panel notice stack-sm">
        <p role="alert">{PROMOTION_MESSAGES.listingNotFound}</p>
        <p>
          <Link to={paths.profile} className="button button-ghost">
            Back to profile
          </Link>
        </p>
      </div>
    );
  } else if (listing.isError) {
    body = (
      <p className="form-error" role="alert">
        {PROMOTION_MESSAGES.fetchListingFailed}{" "}
        <button type="button" className="link-button" onClick={() => listing.refetch()}>
          Try again
        </button>
      </p>
    );
  } else {
    const data = listing.data;
    const reason = blockedReason(session.user, data);
    const awaitingReview = data.verification_status === "pending";
    const busy = checkout.isPending || checkout.isSuccess;
    body = (
      <>
        <Preview listing={data} />
        {reason ? (
          <section className="panel notice notice-pending stack-sm" aria-labelledby="cannot-promote-heading">
            <h2 id="cannot-promote-heading">This listing cannot be promoted</h2>
            <p>{reason}</p>
            <p className="row row-start">
              {data.promoted || (isOwnerView(data) && data.stripe_subscription_id) ? (
                <Link to={paths.billingFor(data.id)} className="button button-primary">
                  Manage billing
                </Link>
              ) : null}
              <Link to={paths.profile} className="button button-ghost">
                Back to profile
              </Link>
            </p>
          </section>
        ) : (
          <section className="stack-sm" aria-label="Checkout">
            {awaitingReview && (
              <p className="panel notice notice-pending">
                This listing is still awaiting review. You can pay now; the promotion starts when it is approved.
              </p>
            )}
            <div className="row row-start promote-actions">
              <button
                type="button"
                className="button button-primary button-lg"
                disabled={busy}
                aria-busy={busy || undefined}
                onClick={() => checkout.mutate({ listingId: data.id, key: checkoutKeyFor(data.id) })}
              >
                {busy ? "Opening checkout…" : "Promote!"}
              </button>
              <Link to={paths.profile} className="button button-ghost button-lg">
                Maybe Later
              </Link>
            </div>
            {checkout.isError && (
              <p className="form-error" role="alert">
                {checkoutErrorMessage(checkout.error)}
              </p>
            )}
          </section>
        )}
      </>
    );
  }

  return (
    <PageFrame title="Promote your listing" lead="Get more students to see your sublease." width="narrow">
      <div className="stack">
        <Plan />
        {body}
      </div>
    </PageFrame>
  );
}
