import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { OwnerListing } from "@contract/listings";
import { browserNavigation } from "../../../web/lib/browser-navigation";
import { callsOf, fakeApi, makeOwnerListing, makeUser, notFound, renderApp, dealPartsRoutes } from "../render";

const user = makeUser({ id: "u1", id_verification_status: "verified" });
const session = { token: "t", user };
const mine = (overrides: Partial<OwnerListing> = {}) => makeOwnerListing({ id: "l1", user_id: "u1", title: "Sunny room near campus", ...overrides });
const checkout = { data: { checkout_url: "/dev/checkout/cs_test_1", session_id: "cs_test_1" } };

describe("promote page", () => {
  it("says 'No listing ID provided' without a listing_id, and asks visitors to log in", async () => {
    const calls = fakeApi({ ...dealPartsRoutes(), });
    const first = renderApp("/promote", session);
    expect(await screen.findByText("No listing ID provided")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Promote!" })).toBeNull();
    first.unmount();
    localStorage.clear();

    renderApp("/promote?listing_id=l1");
    expect(await screen.findByText("Please log in to promote a listing")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Promote!" })).toBeNull();
    expect(callsOf(calls, "GET /api/v1/subleases/l1")).toHaveLength(0);
  });

  it("shows the plan and the listing; Promote! posts the listing id and sends the browser to the checkout", async () => {
    const assign = vi.spyOn(browserNavigation, "assign").mockImplementation(() => {});
    const calls = fakeApi({ ...dealPartsRoutes(),
      "GET /api/v1/subleases/l1": { data: mine() },
      "POST /api/v1/promotions/create-checkout-session": checkout,
    });
    const ui = userEvent.setup();
    renderApp("/promote?listing_id=l1", session);
    expect(await screen.findByRole("heading", { name: "Sunny room near campus" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Weekly Promotion $5/week" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Maybe Later" })).toHaveAttribute("href", "/profile");

    await ui.click(screen.getByRole("button", { name: "Promote!" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("/dev/checkout/cs_test_1"));
    const posts = callsOf(calls, "POST /api/v1/promotions/create-checkout-session");
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toEqual({ listing_id: "l1" });
    expect(posts[0]!.headers.get("idempotency-key")).toMatch(/^checkout-[0-9a-f-]{36}$/);
    // No second session while the browser leaves.
    expect(screen.getByRole("button", { name: "Opening checkout…" })).toBeDisabled();
  });

  it("shows the server's reason (409 already subscribed), or the spec's text when there is none", async () => {
    const assign = vi.spyOn(browserNavigation, "assign").mockImplementation(() => {});
    const routes: Record<string, unknown> = {
      "GET /api/v1/subleases/l1": { data: mine() },
      "POST /api/v1/promotions/create-checkout-session": new Response(JSON.stringify({ detail: "This listing already has an active promotion" }), { status: 409 }),
    };
    const calls = fakeApi(routes);
    const ui = userEvent.setup();
    renderApp("/promote?listing_id=l1", session);
    await ui.click(await screen.findByRole("button", { name: "Promote!" }));
    expect(await screen.findByText("This listing already has an active promotion")).toHaveAttribute("role", "alert");
    expect(assign).not.toHaveBeenCalled();

    routes["POST /api/v1/promotions/create-checkout-session"] = new Response("{}", { status: 500 });
    await ui.click(screen.getByRole("button", { name: "Promote!" }));
    expect(await screen.findByText("Failed to create checkout session")).toHaveAttribute("role", "alert");
    expect(assign).not.toHaveBeenCalled();

    // Too many tries: the server's words (429 {detail, retry_after}).
    routes["POST /api/v1/promotions/create-checkout-session"] = new Response(JSON.stringify({ detail: "Too many checkout attempts. Please wait a minute and try again.", retry_after: 30 }), { status: 429 });
    await ui.click(screen.getByRole("button", { name: "Promote!" }));
    expect(await screen.findByText("Too many checkout attempts. Please wait a minute and try again.")).toHaveAttribute("role", "alert");
    expect(assign).not.toHaveBeenCalled();
    // Every retry of this checkout carried the same Idempotency-Key.
    const keys = callsOf(calls, "POST /api/v1/promotions/create-checkout-session").map((c) => c.headers.get("idempotency-key"));
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
  });

  it("says 'Failed to fetch listing' with Try again when the listing cannot be read", async () => {
    fakeApi({ ...dealPartsRoutes(), "GET /api/v1/subleases/flaky": new Response(JSON.stringify({ detail: "Service unavailable" }), { status: 503 }) });
    renderApp("/promote?listing_id=flaky", session);
    expect(await screen.findByText(/Failed to fetch listing/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Promote!" })).toBeNull();
  });

  it("a link to a listing that does not exist says so, with no Try again that cannot help", async () => {
    fakeApi({ ...dealPartsRoutes(), "GET /api/v1/subleases/nope": notFound });
    renderApp("/promote?listing_id=nope", session);
    expect(await screen.findByText("Listing not found. It may have been deleted, or the link is wrong.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Try again" })).toBeNull();
    expect(screen.getByRole("link", { name: "Back to profile" })).toHaveAttribute("href", "/profile");
    expect(screen.queryByRole("button", { name: "Promote!" })).toBeNull();
  });

  it("explains instead of offering Promote! when the rule says no; a pending listing may pay and starts on approval", async () => {
    fakeApi({ ...dealPartsRoutes(),
      "GET /api/v1/subleases/other": { data: makeOwnerListing({ id: "other", user_id: "someone-else", title: "Not mine" }) },
      "GET /api/v1/subleases/rej": { data: mine({ id: "rej", verification_status: "rejected", rejection_reason: "Blurry" }) },
      "GET /api/v1/subleases/pend": { data: mine({ id: "pend", verification_status: "pending" }) },
    });
    const a = renderApp("/promote?listing_id=other", session);
    expect(await screen.findByText("You can only promote your own listings.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Promote!" })).toBeNull();
    a.unmount();

    const b = renderApp("/promote?listing_id=rej", session);
    expect(await screen.findByText(/was rejected in review/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Promote!" })).toBeNull();
    b.unmount();

    renderApp("/promote?listing_id=pend", session);
    expect(await screen.findByRole("button", { name: "Promote!" })).toBeEnabled();
    expect(screen.getByText(/the promotion starts when it is approved/)).toBeInTheDocument();
  });
});

describe("profile after promotion", () => {
  const profileRoutes = (listings: OwnerListing[]) => ({
    "GET /api/v1/universities/": { data: [{ id: 1, name: "University of Florida", abbreviation: "UF" }] },
    "GET /api/v1/users/profile": { data: user },
    "GET /api/v1/users/listings": { data: listings },
    "GET /api/v1/subleases/l1": { data: mine({ promoted: true }) },
  });

  it("?promotion_success=true shows the success dialog with the listing's title and billing; closing drops the query", async () => {
    fakeApi({ ...dealPartsRoutes(), ...profileRoutes([mine({ promoted: true })]), "GET /api/v1/saved-searches/": notFound, "GET /api/v1/users/blocks": notFound });
    const ui = userEvent.setup();
    const { router } = renderApp("/profile?promotion_success=true&listing_id=l1", session);
    const dialog = await screen.findByRole("dialog", { name: "Your listing is promoted!" });
    expect(await within(dialog).findByText("Sunny room near campus")).toBeInTheDocument();
    expect(within(dialog).getByRole("link", { name: "View billing" })).toHaveAttribute("href", "/billing?listing_id=l1");
    await ui.click(within(dialog).getByRole("button", { name: "Done" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(router.state.location.pathname).toBe("/profile");
    expect(router.state.location.search).toBe("");
  });

  it("shows no success dialog on a plain profile visit", async () => {
    fakeApi({ ...dealPartsRoutes(), ...profileRoutes([mine()]), "GET /api/v1/saved-searches/": notFound, "GET /api/v1/users/blocks": notFound });
    renderApp("/profile", session);
    await screen.findByRole("link", { name: "Sunny room near campus" });
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("own listings offer Promote where the rule allows it and Billing once promoted", async () => {
    fakeApi({ ...dealPartsRoutes(),
      ...(profileRoutes([
        mine({ id: "ok", title: "Approved room" }),
        mine({ id: "pr", title: "Promoted room", promoted: true, stripe_subscription_id: "sub_1" }),
        mine({ id: "pe", title: "Pending room", verification_status: "pending" }),
        mine({ id: "rj", title: "Rejected room", verification_status: "rejected" }),
      ])),
    "GET /api/v1/saved-searches/": notFound, "GET /api/v1/users/blocks": notFound });
    renderApp("/profile", session);
    const item = async (title: string) => (await screen.findByRole("link", { name: new RegExp(`^${title}`) })).closest("li")!;
    expect(within(await item("Approved room")).getByRole("link", { name: "Promote" })).toHaveAttribute("href", "/promote?listing_id=ok");
    expect(within(await item("Approved room")).getByRole("link", { name: "Promote" })).toHaveAccessibleDescription("Approved room");
    expect(within(await item("Promoted room")).getByRole("link", { name: "Billing" })).toHaveAttribute("href", "/billing?listing_id=pr");
    expect(within(await item("Promoted room")).queryByRole("link", { name: "Promote" })).toBeNull();
    expect(within(await item("Pending room")).queryByRole("link", { name: "Promote" })).toBeNull();
    expect(within(await item("Rejected room")).queryByRole("link", { name: "Promote" })).toBeNull();
    expect(within(await item("Approved room")).queryByRole("link", { name: "Billing" })).toBeNull();
  });
});

describe("promote page, already promoted", () => {
  it("offers Manage billing instead of a second subscription", async () => {
    fakeApi({ ...dealPartsRoutes(), "GET /api/v1/subleases/l1": { data: mine({ promoted: true, stripe_subscription_id: "sub_1" }) } });
    renderApp("/promote?listing_id=l1", session);
    expect(await screen.findByText("This listing is already promoted.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Manage billing" })).toHaveAttribute("href", "/billing?listing_id=l1");
    expect(screen.queryByRole("button", { name: "Promote!" })).toBeNull();
  });
});
