import { Link, useSearchParams } from "react-router-dom";
import { Dialog } from "../../../components/ui/dialog";
import { paths } from "../../../config/paths";
import { useListing } from "../../../lib/listing-detail";

/**
 * After the payment checkout the profile opens with ?promotion_success=true&listing_id= (docs/product-rules.md "Pages and who may open them"):
 * this dialog says so; closing it removes those query parameters.
 */
export function PromotionSuccessDialog() {
  const [params, setParams] = useSearchParams();
  const open = params.get("promotion_success") === "true";
  const listingId = params.get("listing_id") || undefined;
  const listing = useListing(open ? listingId : undefined);

  const close = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete("promotion_success");
        next.delete("listing_id");
        return next;
      },
      { replace: true },
    );

  const title = listing.data?.title;
  const awaitingReview = listing.data?.verification_status === "pending";
  return (
    <Dialog
      open={open}
      onClose={close}
      size="sm"
      title="Your listing is promoted!"
      footer={
        <>
          <Link to={listingId ? paths.billingFor(listingId) : paths.billing} className="button button-ghost">
            View billing
          </Link>
          <button type="button" className="button button-primary" onClick={close} data-autofocus>
            Done
          </button>
        </>
      }
    >
      <p>
        {title ? <strong>{title}</strong> : "Your listing"}{" "}
        {awaitingReview
          ? "will be featured at the top of browse as soon as it is approved."
          : "is now featured at the top of browse results."}
      </p>
      <p className="muted">The promotion renews every week until you cancel it from Billing.</p>
    </Dialog>
  );
}
