/** Staff review of listings: the All and Pending tabs, the details dialog, Verify All. */
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AdminListing } from "@contract/admin";
import { adminSession } from "../../../web/features/admin/api/admin-api";
import { ListingDetailsDialog, NO_LOCATION_REASON } from "../../../web/features/admin/components/listing-details-dialog";
import { callsOf, fakeApi, makeAdminListing, makeAdminListing as adminListing, notFound, openStaffPanel, staffPanelRoutes, staffPage } from "../render";

const API = "/api/v1";
const growth = (users: number[]) => users.map((n, i) => ({ date: `2026-01-${String(i + 1).padStart(2, "0")}`, users: n }));
const statsWith = (users: number[]) => ({ stats: { users: 1, listings: 0, conversations: 0, messages: 0, user_growth: growth(users), queues: { pending_ids: 0, pending_listings: 0, open_reports: 0, safety_flags: 0 } } });
const pictures = ["https://img.test/p1-a.jpg", "https://img.test/p1-b.jpg", "https://img.test/p1-c.jpg"];

afterEach(() => {
  adminSession.set(null);
  vi.restoreAllMocks();
});

describe("Listings > All and Pending: review actions", () => {
  it("the All tab offers Approve and Reject on pending listings only, with the pending tab's actions", async () => {
    const calls = fakeApi({
      ...staffPanelRoutes(statsWith([0, 0, 1])),
      "GET /api/v1/admin/listings": staffPage("listings", [adminListing("a1"), adminListing("p1", { verification_status: "pending", revision: 3 })]),
      "PATCH /api/v1/admin/listings/p1/verify": { success: true, changed: true, listing: adminListing("p1") },
    });
    const user = userEvent.setup();
    await openStaffPanel();
    await user.click(screen.getByRole("tab", { name: "Listings" }));
    const tile = (title: string) => screen.getByText(title).closest("li")!;
    await screen.findByText("Room p1");
    expect(within(tile("Room a1")).queryByRole("button", { name: "Approve" })).toBeNull();
    expect(within(tile("Room a1")).queryByRole("button", { name: "Reject" })).toBeNull();
    // Review states read as written ("Pending review"), not title-cased by the badge style.
    expect(within(tile("Room p1")).getByText("Pending review")).toHaveClass("badge-plain");

    await user.click(within(tile("Room p1")).getByRole("button", { name: "Reject" }));
    expect(screen.getByRole("dialog", { name: "Reject Listing" })).toBeInTheDocument();
    await user.click(within(screen.getByRole("dialog", { name: "Reject Listing" })).getByRole("button", { name: "Close" }));

    await user.click(within(tile("Room p1")).getByRole("button", { name: "Approve" }));
    expect(await screen.findByText("Listing approved successfully!")).toBeInTheDocument();
    const [review] = callsOf(calls, "PATCH /api/v1/admin/listings/p1/verify");
    expect(review!.body).toEqual({ status: "approved", rejection_reason: null, revision: 3 });
  });

  it("Verify All is a secondary action: a dialog names the count (every pending listing, loaded or not) and Approve waits for it typed", async () => {
    const confirm = vi.spyOn(window, "confirm");
    // Three pending in all, of which the first page holds two: the count is the server's.
    const calls = fakeApi({ "GET /api/v1/admin/listings": notFound,
      ...staffPanelRoutes({ stats: { ...statsWith([0, 0, 1]).stats, pending_listings: 3 } }),
      "GET /api/v1/admin/listings/pending": staffPage("listings", ["p1", "p2"].map((id) => adminListing(id, { verification_status: "pending" })), "next-page"),
      "POST /api/v1/admin/listings/verify-all": { verified_count: 3, total_listings: 3 },
    });
    const user = userEvent.setup();
    await openStaffPanel();
    await user.click(screen.getByRole("tab", { name: "Listings" }));
    await user.click(screen.getByRole("tab", { name: "Pending" }));
    await screen.findByText("Room p2");
    expect(screen.getByText("3 listings")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Load more" })).toBeInTheDocument();
    const open = screen.getByRole("button", { name: "Approve all 3 pending listings" });
    expect(open).toHaveClass("button-ghost");
    expect(open).not.toHaveClass("button-primary");
    await user.click(open);

    const dialog = screen.getByRole("alertdialog", { name: "Approve all 3 pending listings?" });
    const approve = within(dialog).getByRole("button", { name: "Approve all 3" });
    const field = within(dialog).getByLabelText("Type 3 to confirm");
    expect(field).toHaveFocus();
    expect(approve).toBeDisabled();
    await user.type(field, "2");
    expect(approve).toBeDisabled();
    await user.clear(field);
    await user.type(field, "3");
    expect(approve).toBeEnabled();
    await user.click(approve);
    expect(await screen.findByText("Successfully verified 3 out of 3 listings!")).toBeInTheDocument();
    expect(callsOf(calls, "POST /api/v1/admin/listings/verify-all")).toHaveLength(1);
    expect(confirm).not.toHaveBeenCalled();
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });
});

describe("Listings > All: a listing the public cannot see", () => {
  it("View on a pending, rejected, paused or hidden listing opens its details in the panel; an approved public one links to the public page", async () => {
    fakeApi({
      ...staffPanelRoutes(),
      "GET /api/v1/admin/listings": staffPage("listings", [
          adminListing("a1"),
          adminListing("p1", { verification_status: "pending", pictures, thumbnails: pictures.map((p) => p.replace(".jpg", "-thumb.jpg")) }),
          adminListing("r1", { verification_status: "rejected", rejection_reason: "Blurry photos" }),
          adminListing("s1", { status: "paused" } as Partial<AdminListing>),
          adminListing("h1", { moderation_status: "hidden" }),
        ]),
    });
    const user = userEvent.setup();
    const { router } = await openStaffPanel();
    await user.click(screen.getByRole("tab", { name: "Listings" }));
    const tile = async (title: string) => (await screen.findByText(title)).closest("li")!;

    // Approved, available and visible: the public page, in a new tab, as before.
    const publicView = within(await tile("Room a1")).getByRole("link", { name: "View (opens in a new tab)" });
    expect(publicView).toHaveAttribute("href", expect.stringMatching(/\/listing\/a1/));
    expect(publicView).toHaveAttribute("target", "_blank");

    // Every other one: a button opening the details dialog, with no navigation.
    for (const id of ["r1", "s1", "h1"]) {
      expect(within(await tile(`Room ${id}`)).queryByRole("link", { name: /View/ })).toBeNull();
      expect(within(await tile(`Room ${id}`)).getByRole("button", { name: "View" })).toBeInTheDocument();
    }
    const before = router.state.location.pathname;
    await user.click(within(await tile("Room p1")).getByRole("button", { name: "View" }));
    const dialog = screen.getByRole("dialog", { name: "Room p1" });
    expect(router.state.location.pathname).toBe(before);
    expect(within(dialog).getByText("Status").nextElementSibling).toHaveTextContent(/^Pending review · Available$/);
    expect(within(dialog).getByText("Description").nextElementSibling).toHaveTextContent("A room");
    // Pending: the footer keeps Approve, Reject and Close; no public page to open.
    expect(within(dialog).getByRole("button", { name: "Approve" })).toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Reject" })).toBeInTheDocument();
    expect(within(dialog).queryByRole("link", { name: /Public page/ })).toBeNull();

    // Every photo, each a link to the full image in a new tab, named by its place.
    const photos = within(dialog).getByRole("region", { name: "Photos (3)" });
    const links = within(photos).getAllByRole("link");
    expect(links.map((a) => a.getAttribute("aria-label"))).toEqual([
      "Photo 1 of 3, opens in a new tab",
      "Photo 2 of 3, opens in a new tab",
      "Photo 3 of 3, opens in a new tab",
    ]);
    const second = within(photos).getByRole("link", { name: "Photo 2 of 3, opens in a new tab" });
    expect(second).toHaveAttribute("href", pictures[1]);
    expect(second).toHaveAttribute("target", "_blank");
    expect(second).toHaveAttribute("rel", expect.stringContaining("noopener"));
    expect(second.querySelector("img")).toHaveAttribute("src", "https://img.test/p1-b-thumb.jpg");

    await user.click(within(dialog).getAllByRole("button", { name: "Close" }).at(-1)!);
    expect(screen.queryByRole("dialog")).toBeNull();
    // Focus goes back to the View button that opened it.
    expect(within(await tile("Room p1")).getByRole("button", { name: "View" })).toHaveFocus();
  });

  it("each listing's title is a button opening the same details; an approved one's details link to its public page", async () => {
    fakeApi({
      ...staffPanelRoutes(),
      "GET /api/v1/admin/listings": staffPage("listings", [adminListing("a1"), adminListing("r1", { verification_status: "rejected" })]),
    });
    const user = userEvent.setup();
    await openStaffPanel();
    await user.click(screen.getByRole("tab", { name: "Listings" }));

    await user.click(await screen.findByRole("button", { name: "Room a1" }));
    let dialog = screen.getByRole("dialog", { name: "Room a1" });
    expect(within(dialog).getByRole("region", { name: "Photos (0)" })).toHaveTextContent("No photos.");
    // Already approved: no Approve or Reject here (as on its card); its public page instead.
    expect(within(dialog).queryByRole("button", { name: "Approve" })).toBeNull();
    expect(within(dialog).queryByRole("button", { name: "Reject" })).toBeNull();
    expect(within(dialog).getByRole("link", { name: "Public page (opens in a new tab)" })).toHaveAttribute("href", expect.stringMatching(/\/listing\/a1/));
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(screen.getByRole("button", { name: "Room a1" })).toHaveFocus();

    // The keyboard opens it too.
    screen.getByRole("button", { name: "Room r1" }).focus();
    await user.keyboard("{Enter}");
    dialog = screen.getByRole("dialog", { name: "Room r1" });
    expect(within(dialog).getByText("Status").nextElementSibling).toHaveTextContent(/^Rejected/);
    expect(within(dialog).queryByRole("link", { name: /Public page/ })).toBeNull();
  });

  it("the Pending view's title button opens the details with Approve, which approves", async () => {
    const calls = fakeApi({ "GET /api/v1/admin/listings": notFound,
      ...staffPanelRoutes(),
      "GET /api/v1/admin/listings/pending": staffPage("listings", [adminListing("p1", { verification_status: "pending" })]),
      "PATCH /api/v1/admin/listings/p1/verify": { success: true, changed: true, listing: adminListing("p1") },
    });
    const user = userEvent.setup();
    await openStaffPanel();
    await user.click(screen.getByRole("tab", { name: "Listings" }));
    await user.click(screen.getByRole("tab", { name: "Pending" }));
    await user.click(await screen.findByRole("button", { name: "Room p1" }));
    const dialog = screen.getByRole("dialog", { name: "Room p1" });
    await user.click(within(dialog).getByRole("button", { name: "Approve" }));
    expect(await screen.findByText("Listing approved successfully!")).toBeInTheDocument();
    expect(callsOf(calls, "PATCH /api/v1/admin/listings/p1/verify")).toHaveLength(1);
  });
});

describe("the listing details dialog: location", () => {
  const adminListing = (overrides: Partial<AdminListing>) => makeAdminListing("p1", overrides);
  const details = (listing: AdminListing) =>
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ListingDetailsDialog listing={listing} onApprove={() => {}} onReject={() => {}} onClose={() => {}} onShowUser={() => {}} />
      </QueryClientProvider>,
    );

  it("say why a listing has no location, and say nothing more for a placed one", () => {
    const { unmount } = details(adminListing({ latitude: null, longitude: null, distance_miles: null }));
    const dialog = screen.getByRole("dialog", { name: "Room p1" });
    expect(within(dialog).getByText("Distance to campus").nextElementSibling).toHaveTextContent(/^No location$/);
    expect(within(dialog).getByText("Why no location").nextElementSibling).toHaveTextContent(NO_LOCATION_REASON);
    expect(NO_LOCATION_REASON).toMatch(/^The address was typed, not picked from the address suggestions/);
    unmount();
    details(adminListing({ latitude: 29.65, longitude: -82.33, distance_miles: 1.2, university_abbreviation: "UF" }));
    expect(screen.queryByText("Why no location")).toBeNull();
  });

  it("show staff the exact point on a map, as the owner sees it; no map without coordinates", async () => {
    fakeApi({ [`GET ${API}/maps/config`]: { basemap: { kind: "none" }, campus: { name: "University of Florida", abbreviation: "UF", point: [29.64629, -82.347911] } } });
    const { unmount } = details(adminListing({ latitude: null, longitude: null, distance_miles: null }));
    expect(screen.queryByRole("region", { name: "Map: Room p1 and campus" })).toBeNull();
    unmount();
    details(adminListing({ latitude: 29.651234, longitude: -82.325678, approx_point: [29.6515, -82.3251], distance_miles: 0.6 }));
    const map = await screen.findByRole("region", { name: "Map: Room p1 and campus" });
    expect(await within(map).findByRole("img", { name: "Room p1: exact location" })).toBeInTheDocument();
    expect(map.querySelector("[data-testid=map-area]")).toBeNull();
    expect(screen.getByText("The exact point. The public sees an area of about 200 m around it.")).toBeInTheDocument();
  });
});
