import { useState } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { UNSUBSCRIBE_LINK_INVALID, type SavedSearchUnsubscribeResponse } from "@contract/saved-searches";
import { PageFrame } from "../../../components/layout/page-frame";
import { paths } from "../../../config/paths";
import { ApiError, errorMessage } from "../../../lib/api-client";
import { useUnsubscribeLink } from "../../../lib/saved-searches-api";

/** A link that cannot work (tampered, expired, its search deleted): say so, and offer the profile. */
function InvalidLink({ detail }: { detail: string }) {
  return (
    <section className="panel empty-state" role="alert">
      <p>{detail}</p>
      <p>
        <Link to={paths.profile} className="button button-primary">
          Manage saved searches
        </Link>
      </p>
    </section>
  );
}

/**
 * Where a saved-search alert's "Unsubscribe" link lands (issue 15): no sign-in needed. Nothing happens
 * on load (mail scanners open links); Stop alerts pauses that search's emails, and Undo (within the hour)
 * resumes them. A pause made in the profile is not the link's to undo: the server says so (409).
 */
export function UnsubscribePage() {
  const [search] = useSearchParams();
  const token = search.get("token") ?? "";
  const link = useUnsubscribeLink();
  // The last answer stays on screen while Undo (or Stop alerts again) is on its way.
  const [last, setLast] = useState<SavedSearchUnsubscribeResponse | null>(null);
  const apply = (paused: boolean) => link.mutate({ token, paused }, { onSuccess: setLast });

  let body;
  if (!token) body = <InvalidLink detail={UNSUBSCRIBE_LINK_INVALID} />;
  else if (link.isError) {
    const invalid = link.error instanceof ApiError && link.error.status >= 400 && link.error.status < 500 && link.error.status !== 429;
    body = invalid ? (
      <InvalidLink detail={errorMessage(link.error, UNSUBSCRIBE_LINK_INVALID)} />
    ) : (
      <section className="panel empty-state" role="alert">
        <p>{errorMessage(link.error, "Could not update your alerts. Please try again.")}</p>
        <button type="button" className="button button-primary" onClick={() => apply(link.variables?.paused ?? true)}>
          Try again
        </button>
      </section>
    );
  } else if (last) {
    body = (
      <section className="panel stack" aria-live="polite">
        <p className="unsubscribe-done">
          {last.paused ? `Alerts for “${last.name}” are off.` : `Alerts for “${last.name}” are back on.`}
        </p>
        <p className="muted">
          {last.paused
            ? "The search stays saved: Undo works for an hour; after that, resume its alerts from your profile."
            : "You will get an email when a new listing matches (at most one a day)."}
        </p>
        <div className="row row-start">
          <button type="button" className="button button-ghost" disabled={link.isPending} onClick={() => apply(!last.paused)}>
            {last.paused ? "Undo" : "Stop alerts"}
          </button>
          <Link to={paths.profile} className="button button-ghost">
            Manage saved searches
          </Link>
        </div>
      </section>
    );
  } else {
    body = (
      <section className="panel stack">
        <p>Stop the emails about new listings for this saved search? The search stays saved, and you can turn its alerts back on at any time.</p>
        <div className="row row-start">
          <button type="button" className="button button-primary" disabled={link.isPending} onClick={() => apply(true)}>
            {link.isPending ? "Stopping…" : "Stop alerts"}
          </button>
        </div>
      </section>
    );
  }

  return (
    <PageFrame title="Saved search alerts" width="narrow">
      {body}
    </PageFrame>
  );
}
