import type { AdminListing } from "@contract/admin";
import { render, screen } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import type { OwnerListing } from "@contract/listings";
import type { Conversation } from "@contract/messages";
import type { PrivateUser } from "@contract/users";
import { createQueryClient } from "../../web/app/providers";
import { AppRoutes } from "../../web/app/router";
import { adminSession } from "../../web/features/admin/api/admin-api";
import { ToastProvider } from "../../web/components/ui/toast";
import { authStore, REFRESH_TOKEN_KEY, type Session } from "../../web/lib/auth-store";
import { ThemeProvider } from "../../web/lib/theme";

export function makeUser(overrides: Partial<PrivateUser> = {}): PrivateUser {
  return {
    id: "u1",
    email: "maya@ufl.edu",
    first_name: "Maya",
    last_name: "Lopez",
    phone: null,
    university_id: 1,
    university: "University of Florida",
    avatar_url: null,
    created_at: "2026-01-01T00:00:00.000Z",
    is_verified: true,
    email_verification_status: "verified",
    id_verification_status: "unverified",
    preferred_university_id: null,
    preferred_term: null,
    notification_settings: {
      email_on_message: true,
      email_on_listing_review: true,
      email_on_verification_review: true,
      email_on_saved_search: true,
      messages: { push: true, email: true },
      deals: { push: true, email: true },
      saved_searches: { push: true, email: true },
      reviews: { push: true, email: true },
      quiet_hours: null,
    },
    school_email_domain: null,
    school_email: null,
    school_email_verified_at: null,
    ...overrides,
  };
}

/** A listing as its owner (and staff) read it; approved, available and visible unless overridden. */
/** A conversation with Jordan Kim (u2) about no listing, as the messages list and thread read it. */
export function makeConversation(overrides: Partial<Conversation> = {}): Conversation {
  return {
    id: "c1",
    participant_id: "u2",
    participant_name: "Jordan Kim",
    participant_avatar: null,
    latest_message_preview: "hello",
    last_message_timestamp: "2026-11-20T15:05:00.000Z",
    updated_at: "2026-11-20T15:05:00.000Z",
    unread_count: 0,
    listing_id: null,
    listing_title: null,
    listing_photo: null,
    ...overrides,
  };
}

export function makeOwnerListing(overrides: Partial<OwnerListing> = {}): OwnerListing {
  return {
    id: "l1",
    user_id: "owner-1",
    title: "Listing 1",
    description: "A room",
    unit_type: "2x2",
    address: "1 Main St",
    address_public: "Main St",
    monthly_rent: 500,
    pictures: [],
    thumbnails: [],
    lease_term: "fall",
    available_from: null,
    available_to: null,
    university_id: 1,
    university_name: "University of Florida",
    university_abbreviation: "UF",
    distance_miles: null,
    approx_point: null,
    latitude: null,
    longitude: null,
    parking: false,
    allow_pets: false,
    gender_preference: "no_preference",
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: null,
    verification_status: "approved",
    rejection_reason: null,
    review_reason: null,
    status: "available",
    moderation_status: "visible",
    promoted: false,
    availability_confirmed_at: null,
    promotion_start: null,
    promotion_end: null,
    days_remaining: 0,
    auto_renew: false,
    stripe_subscription_id: null,
    user_first_name: "Jordan",
    user_last_name: "Kim",
    user_avatar_url: null,
    review_summary: { count: 0, average: 0 },
    ...overrides,
  };
}

/** A listing as staff read it (admin views add price and location aliases, the price check and the revision). */
export function makeAdminListing(id: string, overrides: Partial<AdminListing> = {}): AdminListing {
  const listing = makeOwnerListing({ id, title: `Room ${id}`, monthly_rent: 700, ...overrides });
  return {
    ...listing,
    price: listing.monthly_rent,
    location: listing.address,
    rent_check_median: null,
    revision: 0,
    price_check: { comparables: 0, median: null, far_below: false, approved_rent: null },
    ...overrides,
  };
}

/** Renders the real route table at `path`, with the real providers. */
export function renderApp(path: string, session: Session | null = null) {
  if (session) {
    localStorage.setItem("auth_token", session.token);
    localStorage.setItem("user_data", JSON.stringify(session.user));
    localStorage.setItem(REFRESH_TOKEN_KEY, "refresh-1");
  }
  authStore.reload();
  // The app's own <Routes> under a memory data router, so tests can read and drive its location.
  const router = createMemoryRouter([{ path: "*", element: <AppRoutes /> }], { initialEntries: [path] });
  const utils = render(
    <QueryClientProvider client={createQueryClient()}>
      <ThemeProvider>
        <ToastProvider>
          <RouterProvider router={router} />
        </ToastProvider>
      </ThemeProvider>
    </QueryClientProvider>,
  );
  return { ...utils, router };
}

export { callsOf, fakeApi, notFound, reply, type ApiCall } from "./fake-api";
import { notFound as notFoundAnswer } from "./fake-api";

/** A user as anyone reads them (GET users/{id}), with their review summaries (none unless given). */
export const publicUser = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  first_name: "Alex",
  last_name: "Doe",
  avatar_url: null,
  university: null,
  created_at: "2026-01-01T00:00:00Z",
  id_verified: false,
  school_email_domain: null,
  response_time: null,
  review_summary: { count: 0, average: 0 },
  renter_review_summary: { count: 0, average: 0 },
  ...over,
});

/** The fixtures' signed-in users (makeUser's, the deals' renter and lister) as the profile reads its own review summaries. */
const ownProfiles = Object.fromEntries(["u1", "renter-1", "lister-1"].map((id) => [`GET /api/v1/users/${id}`, { data: publicUser(id) }]));
/** GET users/{id} answering that user (the profile's own summaries, a request card's renter). */
export const publicUserRoute = (id: string, over: Record<string, unknown> = {}) => ({ [`GET /api/v1/users/${id}`]: { data: publicUser(id, over) } });

/**
 * The deal parts' calls on the pages that show them: the profile's Deals and Payouts sections (none here), its
 * review summaries, and a thread's "Request to sublease", which reads the conversation's listing (gone here, so it stays away).
 */
export const dealPartsRoutes = (...listingIds: string[]) => ({
  ...ownProfiles,
  "GET /api/v1/deals": { data: [], pagination: { next_token: null, has_more: false } },
  // The profile's Payouts section (no account yet).
  "GET /api/v1/payouts/status": { data: { status: "none", requirements_due: [] } },
  ...Object.fromEntries(listingIds.map((id) => [`GET /api/v1/subleases/${id}`, notFoundAnswer])),
});

/** A deal's reviews and condition reports as the deal page reads them (docs/decisions/040): none yet, every window closed. */
export const afterTheKeysRoutes = (dealId: string) => {
  const closed = { opens: "2000-01-01T00:00:00.000Z", closes: "2000-01-04T00:00:00.000Z" };
  return {
    [`GET /api/v1/deals/${dealId}/condition-reports`]: { data: [], windows: { move_in: closed, move_out: closed } },
    [`GET /api/v1/deals/${dealId}/reviews`]: { data: { window_ends_at: null, revealed_at: null, mine: null, theirs: null, theirs_written: false } },
  };
};

/** The other person's public profile, whose trust signals a thread's header shows (no school email here). */
export const participantRoutes = (participantId: string) => ({
  [`GET /api/v1/users/${participantId}`]: { data: publicUser(participantId) },
});

/** A thread's calls besides the conversation's own: the deal parts and the other person's profile. */
export const threadRoutes = (listingId: string, participantId: string) => ({ ...dealPartsRoutes(listingId), ...participantRoutes(participantId) });

/** The staff panel's calls once signed in (the tables check, the dashboard's stats and audit log). */
export function staffPanelRoutes(stats: unknown = { stats: { users: 1, listings: 1, conversations: 1, messages: 1, user_growth: [], queues: { pending_ids: 0, pending_listings: 0, open_reports: 0, safety_flags: 0 } } }) {
  return { "GET /api/v1/admin/tables": { tables: ["users"] }, "GET /api/v1/admin/stats": stats, "GET /api/v1/admin/audit": { audit: [] } };
}

/** One page of a staff list as the API answers it (docs/decisions/038): its items under `key` and the next page's cursor. */
export function staffPage<K extends string, T>(key: K, items: T[], next: string | null = null) {
  return { [key]: items, pagination: { next_token: next, has_more: next !== null } } as Record<K, T[]> & { pagination: { next_token: string | null; has_more: boolean } };
}

/** Opens the staff panel with a stored staff token (checked against the tables endpoint). */
export async function openStaffPanel() {
  adminSession.set("admin-token");
  const view = renderApp("/staff");
  await screen.findByRole("tab", { name: "Dashboard" });
  return view;
}

/** A WebSocket that never opens: pages with a live connection render without one. */
export class IdleWebSocket extends EventTarget {
  readyState = 0;
  send() {}
  close() {}
}
