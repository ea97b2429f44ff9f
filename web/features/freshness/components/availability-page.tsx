import { useEffect, useRef } from "react";
import { Link, useLocation, useSearchParams } from "react-router-dom";
import { AVAILABILITY_LINK_INVALID } from "@contract/freshness";
import { PageFrame } from "../../../components/layout/page-frame";
import { PageLoadingInline } from "../../../components/ui/spinner";
import { paths } from "../../../config/paths";
import { ApiError, errorMessage } from "../../../lib/api-client";
import { useApplyAvailabilityLink, useAvailabilityLink } from "../api/availability-api";

/** An expired or invalid link: say so, and offer the profile, where the owner can do the same signed in. */
function InvalidLink({ detail }: { detail: string }) {
  return (
    <section className="panel empty-state" role="alert">
      <p>{detail}</p>
      <p>
        <Link to={paths.profile} className="button button-primary">
          Sign in to your profile
        </Link>
      </p>
      <p className="muted">Your listings are there, each with its own Confirm availability or Mark taken button.</p>
    </section>
  );
}

/**
 * The page the "Is {title} still available?" email links to. "Still available" is applied on load;
 * "Taken" asks for one click first (mail scanners open links, and must never mark a place taken).
 */
export function AvailabilityPage() {
  const [search] = useSearchParams();
  const { hash } = useLocation();
  // Emailed links carry the token in the fragment (#token=: never sent to a server, so never in a
  // request log); links mailed before that carry it in the query.
  const token = new URLSearchParams(hash.replace(/^#/, "")).get("token") ?? search.get("token") ?? "";
  const link = useAvailabilityLink(token);
  const apply = useApplyAvailabilityLink();
  const started = useRef(false);

  useEffect(() => {
    if (link.data?.action === "available" && !started.current) {
      started.current = true;
      apply.mutate(token);
    }
  }, [link.data, apply, token]);

  let body;
  if (!token) body = <InvalidLink detail={AVAILABILITY_LINK_INVALID} />;
  else if (link.isPending) body = <PageLoadingInline label="Checking your link" />;
  else if (link.isError) {
    const invalid = link.error instanceof ApiError && link.error.status >= 400 && link.error.status < 500 && link.error.status !== 429;
    body = invalid ? (
      <InvalidLink detail={errorMessage(link.error, AVAILABILITY_LINK_INVALID)} />
    ) : (
      <section className="panel empty-state" role="alert">
        <p>{errorMessage(link.error, "Failed to check your link")}</p>
        <button type="button" className="button button-primary" onClick={() => link.refetch()}>
          Try again
        </button>
      </section>
    );
  } else {
    const { title, listing_id, action } = link.data;
    const listingLink = (
      <Link to={paths.listing(listing_id)} className="button button-ghost">
        View the listing
      </Link>
    );
    if (apply.isSuccess) {
      body = (
        <section className="panel stack" aria-live="polite">
          <p className="availability-done">
            {action === "available" ? `Thanks! ${title} is marked as still available.` : `Thanks! ${title} is marked as taken.`}
          </p>
          <div className="row">
            {listingLink}
            <Link to={paths.profile} className="button button-ghost">
              My profile
            </Link>
          </div>
        </section>
      );
    } else if (apply.isError) {
      body = (
        <section className="panel empty-state" role="alert">
          <p>{errorMessage(apply.error, "Failed to update listing. Please try again.")}</p>
          <div className="row">
            <button type="button" className="button button-primary" onClick={() => apply.mutate(token)}>
              Try again
            </button>
            <Link to={paths.profile} className="button button-ghost">
              My profile
            </Link>
          </div>
        </section>
      );
    } else if (action === "available") {
      body = <PageLoadingInline label={`Marking ${title} as still available`} />;
    } else {
      body = (
        <section className="panel stack" aria-live="polite">
          <p>Is {title} taken? Marking it taken removes it from search results; you can make it available again from your profile.</p>
          <div className="row">
            <button type="button" className="button button-primary" disabled={apply.isPending} onClick={() => apply.mutate(token)}>
              Yes, mark it as taken
            </button>
            {listingLink}
          </div>
        </section>
      );
    }
  }

  return (
    <PageFrame title="Listing availability" width="narrow">
      {body}
    </PageFrame>
  );
}
