import { useEffect } from "react";
import { NotAvailableYet, PageFrame } from "../../components/layout/page-frame";

/** The hidden staff route; a lazy chunk the public pages never download. */
export default function AdminRoute() {
  useEffect(() => {
    const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    const previous = icon?.href;
    if (icon) icon.href = "/admin-icon.svg";
    return () => {
      if (icon && previous) icon.href = previous;
    };
  }, []);
  return (
    <PageFrame title="Admin Panel">
      <NotAvailableYet feature="The admin panel" />
    </PageFrame>
  );
}
