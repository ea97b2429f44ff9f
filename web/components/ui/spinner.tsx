/** An inline loading indicator with a label for screen readers. */
export function PageLoadingInline({ label }: { label: string }) {
  return (
    <div className="page-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{label}…</span>
    </div>
  );
}
