/** The staff sign-in's feedback and the staff panel's polish. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { adminSession } from "../../web/features/admin/api/admin-api";
import { waitText } from "../../web/features/admin/components/login-view";
import { countAxis, formatStaffTime, staffTimeZoneNote } from "../../web/features/admin/lib/format";
import { callsTo, makeAdminListing as adminListing, mockFetch, renderApp } from "./render";

const growth = (users: number[]) => users.map((n, i) => ({ date: `2026-01-${String(i + 1).padStart(2, "0")}`, users: n }));
const statsWith = (users: number[]) => ({ stats: { users: 1, listings: 0, conversations: 0, messages: 0, user_growth: growth(users) } });
const signedInRoutes = { "/api/v1/admin/tables": { tables: ["users"] }, "/api/v1/admin/stats": statsWith([0, 0, 1]), "/api/v1/admin/audit": { audit: [] } };
const json = (body: unknown, status: number) => new Response(JSON.stringify(body), { status });

/** The sign-in form's own alert (the toasts keep an empty alert region of their own). */
const loginAlert = () => within(screen.getByRole("form", { name: "Staff sign-in" })).getByRole("alert");

async function openPanelSignedIn() {
  adminSession.set("admin-token");
  const view = renderApp("/staff");
  await screen.findByRole("tab", { name: "Dashboard" });
  return view;
}

afterEach(() => {
  adminSession.set(null);
  vi.restoreAllMocks();
});

describe("staff sign-in (item 2)", () => {
  it("has a heading and a visible label; a wrong password is announced, clears the field and puts focus back", async () => {
    mockFetch({ "/api/v1/admin/login": json({ success: false, detail: "Invalid password" }, 401) });
    const user = userEvent.setup();
    renderApp("/staff");
    expect(await screen.findByRole("heading", { level: 1, name: "Staff sign-in" })).toBeInTheDocument();
    const password = screen.getByLabelText("Admin password");
    // The label is visible text, not a visually hidden one.
    expect(screen.getByText("Admin password", { selector: "label" })).not.toHaveClass("visually-hidden");
    expect(screen.getByRole("form", { name: "Staff sign-in" })).toBeInTheDocument();

    await user.type(password, "wrong");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    await waitFor(() => expect(loginAlert()).toHaveTextContent(/^Wrong password$/));
    expect(password).toHaveValue("");
    expect(password).toHaveFocus();
    expect(password).toHaveAttribute("aria-invalid", "true");
    expect(password).toHaveAccessibleDescription("Wrong password");
  });

  it("an empty submit asks for the password without calling the API", async () => {
    const calls = mockFetch({});
    const user = userEvent.setup();
    renderApp("/staff");
    await screen.findByLabelText("Admin password");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(loginAlert()).toHaveTextContent("Enter the admin password");
    expect(screen.getByLabelText("Admin password")).toHaveFocus();
    expect(callsTo(calls, "/admin/login", "POST")).toHaveLength(0);
  });

  it("a throttled try (429) names the API's real wait and holds the button until it has passed", async () => {
    mockFetch({ "/api/v1/admin/login": json({ detail: "Too many attempts. Please wait a minute and try again.", retry_after: 42 }, 429) });
    const user = userEvent.setup();
    renderApp("/staff");
    const password = await screen.findByLabelText("Admin password");
    await user.type(password, "guess");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    await waitFor(() => expect(loginAlert()).toHaveTextContent("Too many sign-in attempts. Try again in 42 seconds."));
    expect(screen.getByRole("button", { name: "Sign in" })).toBeDisabled();
    expect(password).toHaveFocus();
  });

  it("the wait reads in seconds, then minutes", () => {
    expect(waitText(1)).toBe("1 second");
    expect(waitText(42)).toBe("42 seconds");
    expect(waitText(89)).toBe("89 seconds");
    expect(waitText(600)).toBe("10 minutes");
  });
});

describe("staff panel polish (item 11)", () => {
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
    mockFetch(signedInRoutes);
    await openPanelSignedIn();
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
    mockFetch(signedInRoutes);
    await openPanelSignedIn();
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(screen.getByText(`Times in your time zone (${zone})`)).toBeInTheDocument();
  });

  it("the All tab offers Approve and Reject on pending listings only, with the pending tab's actions", async () => {
    const calls = mockFetch({
      ...signedInRoutes,
      "/api/v1/admin/listings": { listings: [adminListing("a1"), adminListing("p1", { verification_status: "pending", revision: 3 })] },
      "/api/v1/admin/listings/p1/verify": { success: true, changed: true, listing: adminListing("p1") },
    });
    const user = userEvent.setup();
    await openPanelSignedIn();
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
    const [review] = callsTo(calls, "/admin/listings/p1/verify", "PATCH");
    expect(JSON.parse(String(review!.init!.body))).toEqual({ status: "approved", rejection_reason: null, revision: 3 });
  });

  it("Verify All is a secondary action: a dialog names the count and Approve waits for it typed", async () => {
    const confirm = vi.spyOn(window, "confirm");
    const calls = mockFetch({
      ...signedInRoutes,
      "/api/v1/admin/listings/pending": { listings: ["p1", "p2", "p3"].map((id) => adminListing(id, { verification_status: "pending" })) },
      "/api/v1/admin/listings/verify-all": { verified_count: 3, total_listings: 3 },
    });
    const user = userEvent.setup();
    await openPanelSignedIn();
    await user.click(screen.getByRole("tab", { name: "Listings" }));
    await user.click(screen.getByRole("tab", { name: "Pending" }));
    await screen.findByText("Room p3");
    const open = screen.getByRole("button", { name: /^Approve all \d+ pending listings?$/ });
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
    expect(callsTo(calls, "/admin/listings/verify-all", "POST")).toHaveLength(1);
    expect(confirm).not.toHaveBeenCalled();
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });
});
