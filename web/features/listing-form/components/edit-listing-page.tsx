import { useEffect, useState } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { canEditListing } from "@contract/policies";
import { PageFrame } from "../../../components/layout/page-frame";
import { PageLoadingInline } from "../../../components/ui/spinner";
import { paths } from "../../../config/paths";
import { ApiError } from "../../../lib/api-client";
import { isOwnerView, useListing } from "../../../lib/listing-detail";
import { useSession } from "../../../lib/session";
import { ListingForm } from "./listing-form";

const REDIRECT_MS = 1500;

export function EditListingPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const { session } = useSession();
  const listing = useListing(id);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (!saved || !id) return;
    const timer = window.setTimeout(() => navigate(paths.listing(id)), REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [saved, id, navigate]);

  if (!session) {
    return (
      <PageFrame title="Edit listing" width="narrow">
        <p className="panel">Please log in to edit your listing</p>
      </PageFrame>
    );
  }
  if (listing.isPending) return <PageLoadingInline label="Loading listing" />;
  // The owner's detail is an OwnerListing; anyone else's listing is "not found" here.
  const own = listing.data && canEditListing(session.user, listing.data) && isOwnerView(listing.data) ? listing.data : null;
  const notFound = (listing.isError && listing.error instanceof ApiError && listing.error.status === 404) || (listing.data && !own);
  if (notFound || !own) {
    return (
      <PageFrame title={notFound ? "Listing not found" : "Edit listing"} width="narrow">
        <section className="panel empty-state" role="alert">
          <p>{notFound ? "This listing does not exist or is not yours." : "Failed to load listing data"}</p>
          <Link to={paths.profile} className="button button-primary">
            Back to Profile
          </Link>
        </section>
      </PageFrame>
    );
  }
  return (
    <PageFrame title="Edit listing" lead="Changing the university, unit type, address or photos, or cutting the rent a lot, sends a live listing back for a short review." width="narrow">
      {saved && (
        <p className="panel notice notice-verified" role="status">
          Listing updated successfully! Redirecting to your listing...
        </p>
      )}
      <section className="panel">
        <ListingForm
          listing={own}
          onSaved={() => setSaved(true)}
        />
      </section>
    </PageFrame>
  );
}
