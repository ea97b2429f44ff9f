import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { adminSession } from "../../../web/features/admin/api/admin-api";
import { countAxis, formatStaffTime, staffTimeZoneNote } from "../../../web/features/admin/lib/format";
import { callsOf, fakeApi, makeAdminListing as adminListing, makeUser, notFound, openStaffPanel, renderApp, staffPanelRoutes, staffPage } from "../render";

const stats = { stats: { users: 1234, listings: 56, conversations: 7, messages: 8, user_growth: [{ date: "2026-01-01", users: 3 }], queues: { pending_ids: 0, pending_listings: 0, open_reports: 0, safety_flags: 0 } } };
const signedInRoutes = staffPanelRoutes(stats);

afterEach(() => adminSession.set(null));

describe("admin panel", () => {
  it("a wrong password clears the field and says so; the right one opens the dashboard", async () => {
    const calls = fakeApi({
      ...signedInRoutes,
      "POST /api/v1/admin/login": new Response(JSON.stringify({ success: false, detail: "Invalid password" }), { status: 401 }),
    });
    const user = userEvent.setup();
    renderApp("/staff");
    const password = await screen.findByLabelText("Admin password");
    await waitFor(() => expect(document.title).toBe("Admin Panel"));
    await user.type(password, "wrong");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    await waitFor(() => expect(password).toHaveValue(""));
    expect(within(screen.getByRole("form", { name: "Staff sign-in" })).getByRole("alert")).toHaveTextContent("Wrong password");
    expect(screen.queryByText(/Invalid password|Session expired/)).toBeNull();
    expect(callsOf(calls, "POST /api/v1/admin/login")).toHaveLength(1);

    fakeApi({ ...signedInRoutes, "POST /api/v1/admin/login": { success: true, token: "admin-token" } });
    await user.type(password, "right");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByText("1,234")).toBeInTheDocument();
    expect(localStorage.getItem("admin_token")).toBe("admin-token");
  });

  it("the dashboard counts what waits for review; each count opens its tab (and sub-tab), which takes the focus", async () => {
    const queues = { pending_ids: 2, pending_listings: 3, open_reports: 1, safety_flags: 0 };
    const calls = fakeApi({
      ...staffPanelRoutes({ stats: { ...stats.stats, queues, open_feedback: 4 } }),
      "GET /api/v1/admin/listings/pending": staffPage("listings", []),
      "GET /api/v1/feedback/admin": [],
      "GET /api/v1/verification/admin/all": staffPage("data", []),
      "GET /api/v1/admin/reports": { reports: [], pagination: { next_token: null, has_more: false } },
      "GET /api/v1/admin/safety": { conversations: [], pagination: { next_token: null, has_more: false } },
    });
    const user = userEvent.setup();
    await openStaffPanel();
    const waiting = within(await screen.findByRole("region", { name: "Waiting for review" }));
    const counts = waiting.getAllByRole("button").map((b) => [b.querySelector(".muted")!.textContent, b.querySelector("strong")!.textContent]);
    expect(counts).toEqual([
      ["Pending IDs", "2"],
      ["Pending listings", "3"],
      ["Open reports", "1"],
      ["Safety flags", "0"],
      ["Open feedback", "4"],
    ]);
    const sections = screen.getByRole("tablist", { name: "Admin sections" });

    await user.click(waiting.getByRole("button", { name: /^Pending listings 3 Open Listings, Pending/ }));
    expect(within(sections).getByRole("tab", { name: "Listings" })).toHaveAttribute("aria-selected", "true");
    const pendingListings = within(screen.getByRole("tablist", { name: "Listings" })).getByRole("tab", { name: "Pending" });
    expect(pendingListings).toHaveAttribute("aria-selected", "true");
    await waitFor(() => expect(pendingListings).toHaveFocus());
    await waitFor(() => expect(callsOf(calls, "GET /api/v1/admin/listings/pending")).toHaveLength(1));

    for (const [button, tab, section, sub] of [
      [/^Pending IDs/, "Users", "Users", "Pending"],
      [/^Open reports/, "Reports", "Reports", "Open"],
      [/^Safety flags/, "Safety", null, null],
      [/^Open feedback/, "Feedback", "Feedback", "Feedback"],
    ] as const) {
      await user.click(within(sections).getByRole("tab", { name: "Dashboard" }));
      await user.click(within(await screen.findByRole("region", { name: "Waiting for review" })).getByRole("button", { name: button }));
      const outer = within(sections).getByRole("tab", { name: tab });
      expect(outer).toHaveAttribute("aria-selected", "true");
      const focused = section ? within(screen.getByRole("tablist", { name: section })).getByRole("tab", { name: sub! }) : outer;
      expect(focused).toHaveAttribute("aria-selected", "true");
      await waitFor(() => expect(focused).toHaveFocus());
    }
    expect(callsOf(calls, "GET /api/v1/verification/admin/all")[0]!.url).toContain("status=pending");
    expect(callsOf(calls, "GET /api/v1/admin/reports")[0]!.url).toContain("status=open");
  });

  it("the dashboard's activity log says each action in words, and an action it has no words for by its name", async () => {
    const at = "2026-01-02T03:04:05.000Z";
    fakeApi({
      ...signedInRoutes,
      "GET /api/v1/admin/audit": {
        audit: [
          { id: "a1", actor: "admin:abcdefghijkl", action: "login", table: null, item_id: null, details: null, created_at: at },
          { id: "a2", actor: "admin:abcdefghijkl", action: "listing_rejected", table: "listings", item_id: "l1", details: null, created_at: at },
          { id: "a3", actor: "admin", action: "old_free_text", table: null, item_id: null, details: null, created_at: at },
        ],
      },
    });
    await openStaffPanel();
    const log = within(await screen.findByRole("region", { name: "Recent admin activity" }));
    const items = await log.findAllByRole("listitem");
    expect(items.map((li) => li.querySelector("strong")!.textContent)).toEqual(["Signed in to the staff panel", "Rejected a listing", "old free text"]);
    expect(items[1]).toHaveTextContent("admin:abcdefghijkl");
  });

  it("opens an identity document with the bearer header and shows it from a blob: no staff token ever goes in a URL", async () => {
    const calls = fakeApi({
      ...signedInRoutes,
      // The Users tab's list, not what this test reads.
      "GET /api/v1/admin/users": notFound,
      "GET /api/v1/verification/admin/all": staffPage("data", [
          { id: "vr1", user_id: "u1", document_type: "student_id", status: "pending", submitted_at: "2026-01-01T00:00:00.000Z", reviewed_at: null, id_document_url: "ref", notes: null, rejection_reason: null, user_email: "ana@ufl.edu", user_name: "Ana Diaz" },
        ]),
      "GET /api/v1/verification/admin/vr1/document": new Response(new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: "image/jpeg" }), { headers: { "Content-Type": "image/jpeg" } }),
    });
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = () => "blob:identity-document";
    URL.revokeObjectURL = () => {};
    try {
      const user = userEvent.setup();
      await openStaffPanel();
      await user.click(screen.getByRole("tab", { name: "Users" }));
      await user.click(await screen.findByRole("tab", { name: "Pending" }));
      await user.click(await screen.findByRole("button", { name: "View document" }));
      const image = await screen.findByRole("img", { name: "student_id of Ana Diaz" });
      expect(image).toHaveAttribute("src", "blob:identity-document");
      const [document] = callsOf(calls, "GET /api/v1/verification/admin/vr1/document");
      expect(document!.authorization).toBe("Bearer admin-token");
      expect(calls.filter((c) => /[?&]token=/.test(c.url))).toEqual([]);
    } finally {
      URL.createObjectURL = createObjectURL;
      URL.revokeObjectURL = revokeObjectURL;
    }
  });

  it("a refused call ends the session with the spec's message", async () => {
    fakeApi({ ...signedInRoutes, "GET /api/v1/admin/stats": new Response(JSON.stringify({ detail: "Invalid admin token" }), { status: 401 }) });
    await openStaffPanel();
    expect(await screen.findByText("Session expired. Please log in again.")).toBeInTheDocument();
    expect(screen.getByLabelText("Admin password")).toBeInTheDocument();
  });

  it("the listings tab loads its items; Promote is enabled only for approved listings and refetches after promoting", async () => {
    const calls = fakeApi({
      ...signedInRoutes,
      "GET /api/v1/admin/listings": staffPage("listings", [adminListing("a1"), adminListing("p1", { verification_status: "pending" }), adminListing("r1", { verification_status: "rejected" })]),
      "POST /api/v1/admin/listings/a1/promote": { success: true, promotion_end: "2026-01-08T00:00:00.000Z" },
    });
    const user = userEvent.setup();
    await openStaffPanel();
    await user.click(screen.getByRole("tab", { name: "Listings" }));
    const tile = (title: string) => screen.getByText(title).closest("li")!;
    await screen.findByText("Room a1");
    expect(within(tile("Room a1")).getByRole("button", { name: "Promote" })).toBeEnabled();
    expect(within(tile("Room p1")).getByRole("button", { name: "Promote" })).toBeDisabled();
    expect(within(tile("Room r1")).getByRole("button", { name: "Promote" })).toBeDisabled();
    expect(within(tile("Room p1")).getByRole("button", { name: "Promote" })).toHaveAccessibleDescription("Only approved listings can be promoted");

    const loads = callsOf(calls, "GET /api/v1/admin/listings").length;
    await user.click(within(tile("Room a1")).getByRole("button", { name: "Promote" }));
    expect(await screen.findByText("Listing promoted for 7 days")).toBeInTheDocument();
    expect(callsOf(calls, "POST /api/v1/admin/listings/a1/promote")).toHaveLength(1);
    await waitFor(() => expect(callsOf(calls, "GET /api/v1/admin/listings").length).toBeGreaterThan(loads));
  });

  it("rejecting a pending listing requires a reason, then sends it", async () => {
    const calls = fakeApi({ "GET /api/v1/admin/listings": notFound,
      ...signedInRoutes,
      "GET /api/v1/admin/listings/pending": staffPage("listings", [adminListing("p1", { verification_status: "pending" })]),
      "PATCH /api/v1/admin/listings/p1/verify": { success: true, changed: true, listing: adminListing("p1", { verification_status: "rejected" }) },
    });
    const user = userEvent.setup();
    await openStaffPanel();
    await user.click(screen.getByRole("tab", { name: "Listings" }));
    await user.click(screen.getByRole("tab", { name: "Pending" }));
    await screen.findByText("Room p1");
    await user.click(screen.getByRole("button", { name: "Reject" }));
    const dialog = screen.getByRole("dialog", { name: "Reject Listing" });
    await user.click(within(dialog).getByRole("button", { name: "Reject" }));
    expect(within(dialog).getByText("Please provide a reason for rejection")).toBeInTheDocument();
    expect(callsOf(calls, "PATCH /api/v1/admin/listings/p1/verify")).toHaveLength(0);

    await user.type(within(dialog).getByLabelText("Reason"), "Blurry photos");
    await user.click(within(dialog).getByRole("button", { name: "Reject" }));
    expect(await screen.findByText("Listing rejected successfully!")).toBeInTheDocument();
    const [review] = callsOf(calls, "PATCH /api/v1/admin/listings/p1/verify");
    expect(review!.body).toEqual({ status: "rejected", rejection_reason: "Blurry photos", revision: 0 });
  });

  it("review shows each listing's distance to campus next to its address, or that it has no location", async () => {
    fakeApi({ "GET /api/v1/admin/listings": notFound,
      ...signedInRoutes,
      // A placed listing's details load its map (a lazy chunk): when that arrives before the test ends, it
      // asks for the map's configuration; none configured here.
      "GET /api/v1/maps/config": notFound,
      "GET /api/v1/admin/listings/pending": staffPage("listings", [
          adminListing("p1", { verification_status: "pending", address: "1 SW 13th St, Gainesville, FL", latitude: 29.6495, longitude: -82.3349, distance_miles: 1.2 }),
          adminListing("p2", { verification_status: "pending", address: "Reitz Union, Gainesville, FL", latitude: 29.6463, longitude: -82.3479, distance_miles: 0 }),
          adminListing("p3", { verification_status: "pending", latitude: null, longitude: null, distance_miles: null }),
          adminListing("p4", { verification_status: "pending", university_abbreviation: "NCF", latitude: 27.38, longitude: -82.56, distance_miles: null }),
        ]),
    });
    const user = userEvent.setup();
    await openStaffPanel();
    await user.click(screen.getByRole("tab", { name: "Listings" }));
    await user.click(screen.getByRole("tab", { name: "Pending" }));
    const tile = async (title: string) => (await screen.findByText(title)).closest("li")!;
    expect(within(await tile("Room p1")).getByText("1.2 mi to UF")).toBeInTheDocument();
    expect(within(await tile("Room p2")).getByText("0.0 mi to UF")).toBeInTheDocument();
    expect(within(await tile("Room p3")).getByText("No location")).toBeInTheDocument();
    expect(within(await tile("Room p3")).queryByText(/mi to/)).toBeNull();
    expect(within(await tile("Room p4")).getByText("No distance: NCF's campus has no coordinates")).toBeInTheDocument();

    await user.click(within(await tile("Room p2")).getByRole("button", { name: "View Details" }));
    const dialog = screen.getByRole("dialog", { name: "Room p2" });
    const value = (term: string) => within(dialog).getByText(term).nextElementSibling;
    expect(value("Address")).toHaveTextContent(/^Reitz Union, Gainesville, FL$/);
    expect(value("Distance to campus")).toHaveTextContent(/^0\.0 mi to UF$/);
    await user.click(within(dialog).getAllByRole("button", { name: "Close" }).at(-1)!);
    await user.click(within(await tile("Room p3")).getByRole("button", { name: "View Details" }));
    expect(within(screen.getByRole("dialog", { name: "Room p3" })).getByText("Distance to campus").nextElementSibling).toHaveTextContent(/^No location$/);
  });

  it("the details modal shows words, not codes, and the lister's name opens their user card", async () => {
    const lister = makeUser({ id: "owner-7", first_name: "Jordan", last_name: "Kim", email: "jordan@utexas.edu", id_verification_status: "verified" });
    const everyone = [makeUser({ id: "other-1", first_name: "Sam", last_name: "Carter", email: "sam@fsu.edu" }), lister];
    const calls = fakeApi({ "GET /api/v1/admin/listings": notFound, "GET /api/v1/verification/admin/all": notFound,
      ...signedInRoutes,
      "GET /api/v1/admin/listings/pending": staffPage("listings", [adminListing("p1", { verification_status: "pending", unit_type: "2x1", lease_term: "spring", user_id: "owner-7", created_at: "2026-01-02T00:00:00.000Z" })]),
      // The server searches (an id here): the panel shows what it answers.
      "GET /api/v1/admin/users": (call: { url: string }) => {
        const q = new URL(call.url, "http://localhost").searchParams.get("q");
        return staffPage("users", q ? everyone.filter((u) => u.id === q) : everyone);
      },
    });
    const user = userEvent.setup();
    await openStaffPanel();
    await user.click(screen.getByRole("tab", { name: "Listings" }));
    await user.click(screen.getByRole("tab", { name: "Pending" }));
    await user.click(await screen.findByRole("button", { name: "View Details" }));
    const dialog = screen.getByRole("dialog", { name: "Room p1" });
    const value = (term: string) => within(dialog).getByText(term).nextElementSibling;
    expect(value("Unit type")).toHaveTextContent(/^2 bed \/ 1 bath$/);
    expect(value("Lease term")).toHaveTextContent(/^Spring$/);
    expect(value("Status")).toHaveTextContent(/^Pending review · Available$/);
    // The viewer's time zone, 12-hour, zone named: the one staff format.
    expect(value("Created")).toHaveTextContent(formatStaffTime("2026-01-02T00:00:00.000Z"));
    expect(within(dialog).queryByText("owner-7")).toBeNull();

    await user.click(within(dialog).getByRole("button", { name: /^Jordan Kim/ }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(screen.getAllByRole("tab", { name: "Users", selected: true })).toHaveLength(2);
    const search = await screen.findByRole("searchbox", { name: "Search users" });
    expect(search).toHaveValue("owner-7");
    expect(search).toHaveFocus();
    expect(await screen.findByText("1 found")).toBeInTheDocument();
    const cards = screen.getAllByRole("listitem");
    expect(cards).toHaveLength(1);
    expect(callsOf(calls, "GET /api/v1/admin/users").at(-1)!.url).toContain("q=owner-7");
    expect(cards[0]).toHaveTextContent("Jordan Kim");
    expect(cards[0]).toHaveTextContent(`Joined ${formatStaffTime("2026-01-01T00:00:00.000Z")}`);

    // Leaving and coming back keeps the search but does not pull focus again.
    await user.click(screen.getByRole("tab", { name: "Pending" }));
    await user.click(screen.getByRole("tab", { name: "Users", selected: false }));
    expect(await screen.findByRole("searchbox", { name: "Search users" })).not.toHaveFocus();
  });

  it("a failed tab says which list failed, with Retry", async () => {
    // A 4xx is not retried by the query client, so the message shows at once.
    const calls = fakeApi({ ...signedInRoutes, "GET /api/v1/feedback/admin": new Response(JSON.stringify({ detail: "Not allowed" }), { status: 403 }) });
    const user = userEvent.setup();
    await openStaffPanel();
    await user.click(screen.getByRole("tab", { name: "Feedback" }));
    const alert = (await screen.findByText(/Failed to fetch feedback/)).closest("[role=alert]") as HTMLElement;
    expect(alert).toHaveTextContent("Failed to fetch feedback: Not allowed");
    fakeApi({ ...signedInRoutes, "GET /api/v1/feedback/admin": [{ id: "f1", email: "sam@ufl.edu", message: "Love it", timestamp: "2026-01-02T00:00:00.000Z", archived: false }] });
    await user.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("Love it")).toBeInTheDocument();
    expect(callsOf(calls, "GET /api/v1/feedback/admin")).toHaveLength(1);
  });

  it("approving a listing that changed since the list loaded: the 409's detail is shown, the list reloads, and the new version is approved by its revision", async () => {
    const routes: Record<string, unknown> = {
      ...signedInRoutes,
      "GET /api/v1/admin/listings/pending": staffPage("listings", [adminListing("p1", { verification_status: "pending", revision: 3 })]),
      "GET /api/v1/admin/listings": notFound,
    };
    const calls = fakeApi(routes);
    const user = userEvent.setup();
    await openStaffPanel();
    await user.click(screen.getByRole("tab", { name: "Listings" }));
    await user.click(screen.getByRole("tab", { name: "Pending" }));
    await screen.findByText("Room p1");
    // Meanwhile the owner edits it: the server has revision 4 and refuses a decision on 3.
    routes["GET /api/v1/admin/listings/pending"] = staffPage("listings", [adminListing("p1", { verification_status: "pending", revision: 4, title: "Room p1 at $150" })]);
    routes["PATCH /api/v1/admin/listings/p1/verify"] = new Response(JSON.stringify({ detail: "This listing changed since you opened it. Review the new version." }), { status: 409 });
    await user.click(screen.getByRole("button", { name: "Approve" }));
    expect(await screen.findByText("Failed to approve listing: This listing changed since you opened it. Review the new version.")).toBeInTheDocument();
    expect(await screen.findByText("Room p1 at $150")).toBeInTheDocument();
    expect(callsOf(calls, "PATCH /api/v1/admin/listings/p1/verify")[0]!.body).toMatchObject({ status: "approved", revision: 3 });

    routes["PATCH /api/v1/admin/listings/p1/verify"] = { success: true, changed: true, listing: adminListing("p1", { verification_status: "approved", revision: 5 }) };
    await user.click(screen.getByRole("button", { name: "Approve" }));
    expect(await screen.findByText("Listing approved successfully!")).toBeInTheDocument();
    expect(callsOf(calls, "PATCH /api/v1/admin/listings/p1/verify")[1]!.body).toMatchObject({ status: "approved", revision: 4 });
  });

  it("every review shows the price check: the median of similar listings, a far-below flag, and a cut since approval", async () => {
    fakeApi({ "GET /api/v1/admin/listings": notFound,
      ...signedInRoutes,
      "GET /api/v1/admin/listings/pending": staffPage("listings", [
          adminListing("p1", { verification_status: "pending", monthly_rent: 1100, price_check: { comparables: 6, median: 1150, far_below: false, approved_rent: null } }),
          adminListing("p2", { verification_status: "pending", monthly_rent: 400, rent_check_median: 1150, price_check: { comparables: 6, median: 1150, far_below: true, approved_rent: null } }),
          adminListing("p3", { verification_status: "pending", monthly_rent: 700, price_check: { comparables: 2, median: 900, far_below: false, approved_rent: 1000 } }),
          adminListing("p4", { verification_status: "pending", price_check: { comparables: 0, median: null, far_below: false, approved_rent: null } }),
        ]),
    });
    const user = userEvent.setup();
    await openStaffPanel();
    await user.click(screen.getByRole("tab", { name: "Listings" }));
    await user.click(screen.getByRole("tab", { name: "Pending" }));
    const tile = async (title: string) => (await screen.findByText(title)).closest("li")!;
    expect(within(await tile("Room p1")).getByText("Price check: Median of 6 similar: $1,150")).toBeInTheDocument();
    expect(within(await tile("Room p2")).getByText("Rent far below similar listings: median $1,150")).toHaveClass("rent-check-flag");
    expect(within(await tile("Room p3")).getByText("Price check: Median of 2 similar: $900 (too few to judge) · was $1,000 when approved")).toHaveClass("rent-check-flag");
    expect(within(await tile("Room p4")).getByText("Price check: No similar approved listings to compare with")).toBeInTheDocument();
    await user.click(within(await tile("Room p1")).getByRole("button", { name: "View Details" }));
    expect(within(screen.getByRole("dialog", { name: "Room p1" })).getByRole("note")).toHaveTextContent("Price check: Median of 6 similar: $1,150");
  });
});

const growth = (users: number[]) => users.map((n, i) => ({ date: `2026-01-${String(i + 1).padStart(2, "0")}`, users: n }));
const statsWith = (users: number[]) => ({ stats: { users: 1, listings: 0, conversations: 0, messages: 0, user_growth: growth(users), queues: { pending_ids: 0, pending_listings: 0, open_reports: 0, safety_flags: 0 } } });

describe("the dashboard's chart and times", () => {
  it("the y-axis is scaled to the data: a round top, at least 1, a few ticks", () => {
    expect(countAxis(0)).toEqual({ max: 1, ticks: [0, 1] });
    expect(countAxis(1)).toEqual({ max: 1, ticks: [0, 1] });
    expect(countAxis(3)).toEqual({ max: 3, ticks: [0, 1, 2, 3] });
    expect(countAxis(7)).toEqual({ max: 8, ticks: [0, 2, 4, 6, 8] });
    expect(countAxis(13)).toEqual({ max: 15, ticks: [0, 5, 10, 15] });
    expect(countAxis(180)).toEqual({ max: 200, ticks: [0, 50, 100, 150, 200] });
    expect(countAxis(1234)).toEqual({ max: 1500, ticks: [0, 500, 1000, 1500] });
  });

  it("one sign-up is a full-height bar on a 0-1 axis, not invisible under 200", async () => {
    fakeApi(staffPanelRoutes(statsWith([0, 0, 1])));
    await openStaffPanel();
    const chart = await screen.findByRole("img", { name: /Jan 3: 1/ });
    const bars = [...chart.querySelectorAll("rect")];
    expect(bars.map((b) => b.getAttribute("data-users"))).toEqual(["0", "0", "1"]);
    expect(Number(bars[2]!.getAttribute("height"))).toBe(200);
    const ticks = [...chart.querySelectorAll("g > text")].map((t) => t.textContent).filter((t) => /^\d+$/.test(t ?? ""));
    expect(ticks).toEqual(["0", "1"]);
  });

  it("times are in the viewer's zone, named, and the panel says which zone", async () => {
    expect(formatStaffTime("2026-01-02T00:00:00.000Z", "America/New_York")).toBe("Jan 1, 2026, 7:00 PM EST");
    expect(formatStaffTime("2026-01-02T00:00:00.000Z", "Europe/Paris")).toBe("Jan 2, 2026, 1:00 AM GMT+1");
    expect(staffTimeZoneNote("Europe/Paris")).toBe("Times in your time zone (Europe/Paris)");
    fakeApi(staffPanelRoutes(statsWith([0, 0, 1])));
    await openStaffPanel();
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(screen.getByText(`Times in your time zone (${zone})`)).toBeInTheDocument();
  });
});
