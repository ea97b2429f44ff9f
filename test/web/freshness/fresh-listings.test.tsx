/** Fresh listings in the SPA (docs/decisions/015): availability links, Confirm availability, the price check and response time. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { adminSession } from "../../../web/features/admin/api/admin-api";
import { callsOf, fakeApi, makeOwnerListing, makeUser, notFound, renderApp, dealPartsRoutes, staffPage } from "../render";

const universities = { data: [{ id: 1, name: "University of Florida", abbreviation: "UF" }] };
const owner = { id: "owner-1", first_name: "Jordan", last_name: "Kim", avatar_url: null, university: "UF", created_at: "2026-01-01T00:00:00Z", id_verified: true };
const link = (action: "available" | "taken", status = "available") => ({ action, listing_id: "l1", title: "Sunny 2x2", status, applied: false });
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

describe("the availability page (emailed links)", () => {
  it("a 'still available' link is applied on load and thanks the owner, with a link to the listing", async () => {
    const calls = fakeApi({ ...dealPartsRoutes(),
      "POST /api/v1/availability/check": link("available"),
      "POST /api/v1/availability/confirm": { ...link("available"), applied: true },
    });
    renderApp("/availability#token=abc");
    expect(await screen.findByText("Thanks! Sunny 2x2 is marked as still available.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "View the listing" })).toHaveAttribute("href", "/listing/l1");
    // The token travels in POST bodies only, never in an API URL (request logs keep URLs).
    const checks = callsOf(calls, "POST /api/v1/availability/check");
    expect(checks).toHaveLength(1);
    expect(checks[0]!.body).toEqual({ token: "abc" });
    const posts = callsOf(calls, "POST /api/v1/availability/confirm");
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toEqual({ token: "abc" });
    expect(calls.every((c) => !String(c.url).includes("abc"))).toBe(true);
  });

  it("a 'taken' link changes nothing until the owner clicks once", async () => {
    const calls = fakeApi({ ...dealPartsRoutes(),
      "POST /api/v1/availability/check": link("taken"),
      "POST /api/v1/availability/confirm": { ...link("taken", "taken"), applied: true },
    });
    const ui = userEvent.setup();
    // A link mailed before the token moved to the fragment still works.
    renderApp("/availability?token=abc");
    const button = await screen.findByRole("button", { name: "Yes, mark it as taken" });
    expect(callsOf(calls, "POST /api/v1/availability/confirm")).toHaveLength(0);
    await ui.click(button);
    expect(await screen.findByText("Thanks! Sunny 2x2 is marked as taken.")).toBeInTheDocument();
    expect(callsOf(calls, "POST /api/v1/availability/confirm")).toHaveLength(1);
  });

  it("an expired or invalid link says so and offers to sign in to the profile", async () => {
    fakeApi({ ...dealPartsRoutes(), "POST /api/v1/availability/check": json({ detail: "This link has expired or is not valid." }, 400) });
    renderApp("/availability#token=old");
    const alert = (await screen.findByText("This link has expired or is not valid.")).closest("[role=alert]") as HTMLElement;
    expect(alert).not.toBeNull();
    expect(within(alert).getByRole("link", { name: "Sign in to your profile" })).toHaveAttribute("href", "/profile");
  });
});

describe("fresh listings on the profile and listing page", () => {
  it("a paused own listing says so and Confirm availability posts once, then the list refetches", async () => {
    const user = makeUser({ id: "u1", id_verification_status: "verified" });
    const paused = makeOwnerListing({ id: "p1", user_id: "u1", title: "My room p1", status: "paused" });
    const calls = fakeApi({ ...dealPartsRoutes(), "GET /api/v1/saved-searches/": notFound, "GET /api/v1/users/blocks": notFound,
      "GET /api/v1/universities/": universities,
      "GET /api/v1/users/profile": { data: user },
      "GET /api/v1/users/listings": { data: [paused] },
      "POST /api/v1/subleases/p1/confirm-availability": { data: { ...paused, status: "available" } },
    });
    const ui = userEvent.setup();
    renderApp("/profile", { token: "t", user });
    const row = (await screen.findByRole("link", { name: "My room p1" })).closest("li")!;
    expect(row).toHaveTextContent("Paused: confirm it's still available");
    expect(within(row).queryByRole("button", { name: "Mark taken" })).toBeNull();
    await ui.click(within(row).getByRole("button", { name: "Confirm availability" }));
    expect(await screen.findByText("Thanks! Your listing is back in search results.")).toBeInTheDocument();
    expect(callsOf(calls, "POST /api/v1/subleases/p1/confirm-availability")).toHaveLength(1);
    await waitFor(() => expect(callsOf(calls, "GET /api/v1/users/listings").length).toBeGreaterThanOrEqual(2));
  });

  it("a renter sees the price warning, the confirmation age and the owner's response time", async () => {
    const confirmed = new Date(Date.now() - 3 * 86_400_000 - 60_000).toISOString();
    fakeApi({ ...dealPartsRoutes(),
      "GET /api/v1/subleases/l1": { data: { ...makeOwnerListing({ availability_confirmed_at: confirmed }), rent_below_typical: true } },
      "GET /api/v1/users/owner-1": { data: { ...owner, response_time: "hours" } },
    });
    renderApp("/listing/l1");
    expect(await screen.findByText(/Below typical rent for similar places: see it before you pay anything/)).toBeInTheDocument();
    expect(screen.getByText("Availability confirmed 3 days ago")).toBeInTheDocument();
    expect(await screen.findByText("Usually replies within a few hours")).toBeInTheDocument();
  });

  it("no price warning or response time when the server gives none", async () => {
    fakeApi({ ...dealPartsRoutes(),
      "GET /api/v1/subleases/l1": { data: { ...makeOwnerListing({ availability_confirmed_at: new Date().toISOString() }), rent_below_typical: false } },
      "GET /api/v1/users/owner-1": { data: { ...owner, response_time: null } },
    });
    renderApp("/listing/l1");
    expect(await screen.findByText("Availability confirmed today")).toBeInTheDocument();
    await screen.findByText(/Member since/);
    expect(screen.queryByText(/Below typical rent/)).toBeNull();
    expect(screen.queryByText(/Usually replies/)).toBeNull();
  });
});

describe("price check in the staff panel", () => {
  it("flags a pending listing whose rent is far below similar ones, and only that one", async () => {
    const flagged = { ...makeOwnerListing({ id: "p1", title: "Cheap room", monthly_rent: 300, verification_status: "pending" }), price: 300, location: "1 Main St", rent_check_median: 1200 };
    const normal = { ...makeOwnerListing({ id: "p2", title: "Normal room", monthly_rent: 1100, verification_status: "pending" }), price: 1100, location: "2 Main St", rent_check_median: null };
    fakeApi({ ...dealPartsRoutes(), "GET /api/v1/admin/listings": notFound,
      "GET /api/v1/admin/tables": { tables: ["users"] },
      "GET /api/v1/admin/stats": { stats: { users: 1, listings: 2, conversations: 0, messages: 0, user_growth: [], queues: { pending_ids: 0, pending_listings: 0, open_reports: 0, safety_flags: 0 } } },
      "GET /api/v1/admin/audit": { audit: [] },
      "GET /api/v1/admin/listings/pending": staffPage("listings", [flagged, normal]),
    });
    adminSession.set("admin-token");
    try {
      const ui = userEvent.setup();
      renderApp("/staff");
      await ui.click(await screen.findByRole("tab", { name: "Listings" }));
      await ui.click(screen.getByRole("tab", { name: "Pending" }));
      const cheap = (await screen.findByText("Cheap room")).closest("li")!;
      expect(cheap).toHaveTextContent("Rent far below similar listings: median $1,200");
      expect((await screen.findByText("Normal room")).closest("li")).not.toHaveTextContent("Rent far below");
    } finally {
      adminSession.set(null);
    }
  });
});
