/** Every route URL of the SPA, in one place (docs/product-rules.md "Pages and who may open them"). */
export const paths = {
  home: "/",
  listing: (id: string, back?: string) =>
    back ? `/listing/${encodeURIComponent(id)}?back=${encodeURIComponent(back)}` : `/listing/${encodeURIComponent(id)}`,
  signup: "/signup",
  profile: "/profile",
  favorites: "/favorites",
  /** The messages page; with a user (and the listing it is about), opens or starts that conversation. */
  messages: (userId?: string, listingId?: string) => {
    if (!userId) return "/messages";
    const q = new URLSearchParams({ userId });
    if (listingId) q.set("listingId", listingId);
    return `/messages?${q.toString()}`;
  },
  create: "/create",
  edit: (id: string) => `/edit/${encodeURIComponent(id)}`,
  promote: (listingId: string) => `/promote?listing_id=${encodeURIComponent(listingId)}`,
  billing: "/billing",
  /** The billing page with one listing highlighted. */
  billingFor: (listingId: string) => `/billing?listing_id=${encodeURIComponent(listingId)}`,
  verification: "/verification",
  support: "/support",
  /** Fresh listings: where the "still available?" email's one-click links land (?token=). */
  availability: "/availability",
  /** Saved searches (docs/decisions/020): where an alert email's unsubscribe link lands (?token=). */
  unsubscribe: "/unsubscribe",
  /** A saved search's browse page (its canonical query string). */
  savedSearch: (query: string) => (query ? `/?${query}` : "/"),
  terms: "/terms",
  /** How to spot a rental scam, why to stay on CampusNest, how to report (docs/decisions/015). */
  safety: "/safety",
  /** The hidden admin route: linked only from the footer's developer capsule. */
  admin: "/staff",
} as const;

/** Route patterns for the router. */
export const routePatterns = {
  listing: "/listing/:id",
  edit: "/edit/:id",
  messages: "/messages",
  promote: "/promote",
} as const;
