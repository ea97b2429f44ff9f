import type { AdminListing } from "@contract/admin";
import { render } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import type { OwnerListing } from "@contract/listings";
import type { PrivateUser } from "@contract/users";
import { createQueryClient } from "../../web/app/providers";
import { AppRoutes } from "../../web/app/router";
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
    notification_settings: { email_on_message: true, email_on_listing_review: true, email_on_verification_review: true, email_on_saved_search: true },
    school_email_domain: null,
    school_email: null,
    school_email_verified_at: null,
    ...overrides,
  };
}

/** A listing as its owner (and staff) read it; approved, available and visible unless overridden. */
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

/** The recorded calls to a path (query string ignored) with a method. */
export const callsTo = (calls: { url: string; init?: RequestInit }[], path: string, method = "GET") =>
  calls.filter((c) => c.url.replace(/\?.*$/, "").endsWith(path) && (c.init?.method ?? "GET") === method);

/** Answers fetch calls by path (unknown paths are 404 {detail}); every call is recorded. */
export function mockFetch(routesByPath: Record<string, unknown> = {}) {
  const calls: { url: string; init?: RequestInit }[] = [];
  const fetchMock = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    calls.push({ url, init });
    const path = url.replace(/^https?:\/\/[^/]+/, "").split("?")[0]!;
    if (path in routesByPath) {
      const body = routesByPath[path];
      if (body instanceof Response) return body;
      return new Response(typeof body === "string" ? body : JSON.stringify(body), { status: 200 });
    }
    return new Response(JSON.stringify({ detail: "Not found" }), { status: 404 });
  };
  globalThis.fetch = fetchMock as typeof fetch;
  return calls;
}

const jsonResponse = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

/** A call the fake API received. */
export interface ApiCall {
  method: string;
  path: string;
  url: string;
  body: unknown;
  /** The Authorization header sent, if any. */
  authorization: string | null;
}
type ApiHandler = (call: ApiCall) => Response | Promise<Response> | unknown;

/**
 * A fake API at the HTTP boundary keyed by "METHOD /path": a body, or a handler of the call (a
 * Response is answered as is); anything else is 404 {detail}. Every call is recorded.
 */
export function fakeApi(handlers: Record<string, ApiHandler | unknown>) {
  const calls: ApiCall[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? "GET";
    const path = url.replace(/^https?:\/\/[^/]+/, "").split("?")[0]!;
    const call = { method, path, url, body: init?.body ? JSON.parse(String(init.body)) : undefined, authorization: new Headers(init?.headers).get("authorization") };
    calls.push(call);
    const handler = handlers[`${method} ${path}`];
    if (handler === undefined) return jsonResponse({ detail: "Not found" }, 404);
    const result = typeof handler === "function" ? await (handler as ApiHandler)(call) : handler;
    return result instanceof Response ? result : jsonResponse(result);
  }) as typeof fetch;
  return calls;
}

/** The calls of one "METHOD /path". */
export const callsOf = (calls: ApiCall[], key: string) => calls.filter((c) => `${c.method} ${c.path}` === key);
