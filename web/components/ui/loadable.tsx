import type { ReactNode } from "react";
import { errorMessage } from "../../lib/api-client";

interface LoadableQuery<T> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data?: T;
  refetch: () => unknown;
}

/** A query's three states: "Loading…", "Failed to fetch {label}: …" with Retry, or its data. */
export function Loadable<T>({ query, children, label }: { query: LoadableQuery<T>; children: (data: T) => ReactNode; label: string }) {
  if (query.isPending) return <p className="muted">Loading…</p>;
  if (query.isError)
    return (
      <div className="form-error" role="alert">
        {`Failed to fetch ${label}`}: {errorMessage(query.error)}{" "}
        <button type="button" className="link-button" onClick={() => query.refetch()}>
          Retry
        </button>
      </div>
    );
  return <>{children(query.data as T)}</>;
}
