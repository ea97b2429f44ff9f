/** Every route URL of the SPA, in one place (product spec, section 2). */
export const paths = {
  home: "/",
  listing: (id: string, back?: string) =>
    back ? `/listing/${encodeURIComponent(id)}?back=${encodeURIComponent(back)}` : `/listing/${encodeURIComponent(id)}`,
  signup: "/signup",
  profile: "/profile",
  favorites: "/favorites",
  messages: (userId?: string) => (userId ? `/messages?userId=${encodeURIComponent(userId)}` : "/messages"),
  create: "/create",
  edit: (id: string) => `/edit/${encodeURIComponent(id)}`,
  promote: (listingId: string) => `/promote?listing_id=${encodeURIComponent(listingId)}`,
  billing: "/billing",
  verification: "/verification",
  support: "/support",
  terms: "/terms",
  /** The hidden admin route: linked only from the footer's developer capsule. */
  admin: "/staff",
} as const;

/** Route patterns for the router. */
export const routePatterns = {
  listing: "/listing/:id",
  edit: "/edit/:id",
} as const;
