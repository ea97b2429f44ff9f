import { useEffect, type ReactNode } from "react";

interface PageFrameProps {
  title: string;
  /** Shown under the title. */
  lead?: ReactNode;
  children?: ReactNode;
  /** Hide the visible heading (the page draws its own); the document title is still set. */
  hideHeading?: boolean;
  width?: "narrow" | "wide";
}

/** The frame of every page: the document title, one h1, and a width. */
export function PageFrame({ title, lead, children, hideHeading, width = "wide" }: PageFrameProps) {
  useEffect(() => {
    document.title = `${title} · CampusNest`;
  }, [title]);
  return (
    <div className={`page container page-${width}`}>
      {!hideHeading && (
        <header className="page-header">
          <h1>{title}</h1>
          {lead && <p className="lead">{lead}</p>}
        </header>
      )}
      {children}
    </div>
  );
}

/** Said plainly on pages whose feature has not shipped yet: no fake forms, no fake data. */
export function NotAvailableYet({ feature }: { feature: string }) {
  return (
    <section className="panel notice" aria-live="polite">
      <h2>Not available yet</h2>
      <p>{feature} is not available yet. We are building it now; this page will work as soon as it ships.</p>
    </section>
  );
}
