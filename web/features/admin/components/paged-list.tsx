import type { ReactNode, Ref } from "react";
import { Loadable } from "../../../components/ui/loadable";
import { errorMessage } from "../../../lib/api-client";
import type { StaffListQuery } from "../api/admin-queries";

/**
 * A staff list as far as its pages are loaded (docs/decisions/038): loading and failure as every tab
 * (Loadable), the empty state, the items, and "Load more" while the server says more follow. Every staff
 * tab shows its list through this, so the states read the same everywhere. The panel never holds a
 * whole table; the counts it shows come from admin/stats.
 */
export function PagedList<T>({ query, label, empty, children }: { query: StaffListQuery<T>; label: string; empty?: ReactNode; children: (items: T[]) => ReactNode }) {
  return (
    // A failed next page is not a failed list: what is loaded stays, the error goes under it with Retry.
    <Loadable query={{ ...query, isError: query.isError && !query.isFetchNextPageError, data: query.items }} label={label}>
      {(items) => (
        <>
          {items.length === 0 && empty !== undefined ? <p className="panel empty-state">{empty}</p> : children(items)}
          {query.isFetchNextPageError && (
            <div className="form-error" role="alert">
              {`Failed to fetch more ${label}`}: {errorMessage(query.error)}{" "}
              <button type="button" className="link-button" onClick={() => void query.fetchNextPage()}>
                Retry
              </button>
            </div>
          )}
          {query.hasNextPage && !query.isFetchNextPageError && (
            <button type="button" className="button button-ghost" disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
              {query.isFetchingNextPage ? "Loading…" : "Load more"}
            </button>
          )}
        </>
      )}
    </Loadable>
  );
}

/** A staff list's search box (the server searches: an id, an email, or words), with Clear. */
export function SearchBox({
  label,
  placeholder,
  value,
  onChange,
  inputRef,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  inputRef?: Ref<HTMLInputElement>;
}) {
  return (
    <div className="search-row">
      <input ref={inputRef} type="search" aria-label={label} placeholder={placeholder} value={value} maxLength={200} onChange={(e) => onChange(e.target.value)} />
      {value && (
        <button type="button" className="button button-ghost" onClick={() => onChange("")}>
          Clear
        </button>
      )}
    </div>
  );
}

/** "12,345 listings": a count from admin/stats, in words. */
export const counted = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
