import { useEffect, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router-dom";
import { UNSUBSCRIBE_LINK_INVALID, type SavedSearchUnsubscribeResponse } from "@contract/saved-searches";
import { PageFrame } from "../../../components/layout/page-frame";
import { paths } from "../../../config/paths";
import { ApiError, errorMessage } from "../../../lib/api-client";
import { unsubscribeLinkQuery, useUnsubscribeLink } from "../../../lib/saved-searches-api";
import { PageLoadingInline } from "../../../components/ui/spinner";

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

/** 4xx but a throttle: the link itself cannot work. */
const isInvalid = (error: unknown) => error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429;

/**
 * Where a saved-search alert's "Unsubscribe" link lands (docs/decisions/020): no sign-in needed. On load the page
 * only reads which search the link is about (a broken link says so at once); mail scanners open links,
 * so only Stop alerts pauses that search's emails, and Undo (within the hour) resumes them. A pause
 * made in the profile is not the link's to undo: the server says so (409). After each answer, focus
 * moves to the sentence that reports it.
 */
export function UnsubscribePage() {
  const [search] = useSearchParams();
  const token = search.get("token") ?? "";
  const about = useQuery(unsubscribeLinkQuery(token));
  const link = useUnsubscribeLink();
  // The last answer stays on screen while Undo (or Stop alerts again) is on its way.
  const [last, setLast] = useState<SavedSearchUnsubscribeResponse | null>(null);
  const apply = (paused: boolean) => link.mutate({ token, paused }, { onSuccess: setLast });
  const result = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (last) result.current?.focus();
  }, [last]);

  let body;
  if (!token) body = <InvalidLink detail={UNSUBSCRIBE_LINK_INVALID} />;
  else if (about.isPending) body = <PageLoadingInline label="Checking your link" />;
  else if (about.isError && isInvalid(about.error)) body = <InvalidLink detail={errorMessage(about.error, UNSUBSCRIBE_LINK_INVALID)} />;
  else if (link.isError) {
    const invalid = isInvalid(link.error);
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
        <p className="unsubscribe-done" ref={result} tabIndex={-1}>
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
  } else if (about.data?.paused) {
    body = (
      <section className="panel stack">
        <p>Alerts for “{about.data.name}” are already off. The search stays saved; you can turn its alerts back on from your profile.</p>
        <div className="row row-start">
          <Link to={paths.profile} className="button button-ghost">
            Manage saved searches
          </Link>
        </div>
      </section>
    );
  } else {
    // The name when the link could be read; a network error reading it still lets the student stop alerts.
    const what = about.data ? `“${about.data.name}”` : "this saved search";
    body = (
      <section className="panel stack">
        <p>Stop the emails about new listings for {what}? The search stays saved, and you can turn its alerts back on at any time.</p>
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
