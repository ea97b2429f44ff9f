/** The staff panel's user status menu: confirmed in the app's dialog, naming the user and a missing document. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { adminSession } from "../../../web/features/admin/api/admin-api";
import { callsOf, fakeApi, makeUser, renderApp, staffPage } from "../render";

const stats = { stats: { users: 2, listings: 0, conversations: 0, messages: 0, user_growth: [], queues: { pending_ids: 0, pending_listings: 0, open_reports: 0, safety_flags: 0 } } };
const nora = { ...makeUser({ id: "u-nora", first_name: "Nora", last_name: "Diaz", id_verification_status: "unverified" }), suspended_at: null };
const sam = { ...makeUser({ id: "u-sam", first_name: "Sam", last_name: "Lee", email: "sam@ufl.edu", id_verification_status: "pending" }), suspended_at: null };

function panel() {
  const calls = fakeApi({
    "GET /api/v1/admin/tables": { tables: ["users"] },
    "GET /api/v1/admin/stats": stats,
    "GET /api/v1/admin/audit": { audit: [] },
    "GET /api/v1/admin/users": staffPage("users", [nora, sam]),
    "PATCH /api/v1/admin/users/u-nora/verify": { success: true, user: { ...nora, id_verification_status: "verified" } },
    "PATCH /api/v1/admin/users/u-sam/verify": { success: true, user: { ...sam, id_verification_status: "verified" } },
  });
  adminSession.set("admin-token");
  renderApp("/staff");
  return calls;
}

const statusOf = async (name: string) => within((await screen.findByText(name)).closest("li")!).getByLabelText("Status");

afterEach(() => {
  adminSession.set(null);
  vi.restoreAllMocks();
});

describe("changing a user's ID status", () => {
  it("asks in the app's dialog, never the browser's, and says when there is no document to go by", async () => {
    const confirm = vi.spyOn(window, "confirm");
    const calls = panel();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole("tab", { name: "Users" }));
    await ui.selectOptions(await statusOf("Nora Diaz"), "verified");
    const dialog = screen.getByRole("alertdialog", { name: "Verify Nora Diaz?" });
    expect(dialog).toHaveTextContent("Nora Diaz has no ID document under review. Verifying lets them create listings without an ID check.");
    // Cancel changes nothing.
    await ui.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(callsOf(calls, "PATCH /api/v1/admin/users/u-nora/verify")).toHaveLength(0);

    await ui.selectOptions(await statusOf("Nora Diaz"), "verified");
    await ui.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Verify without a document" }));
    await waitFor(() => expect(callsOf(calls, "PATCH /api/v1/admin/users/u-nora/verify")).toHaveLength(1));
    expect(callsOf(calls, "PATCH /api/v1/admin/users/u-nora/verify")[0]!.body).toEqual({ verification_status: "verified" });
    expect(confirm).not.toHaveBeenCalled();
  });

  it("a user with a document under review is verified with a plain confirmation", async () => {
    const calls = panel();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole("tab", { name: "Users" }));
    await ui.selectOptions(await statusOf("Sam Lee"), "verified");
    const dialog = screen.getByRole("alertdialog", { name: "Verify Sam Lee?" });
    expect(dialog).toHaveTextContent("Their ID status changes from pending to verified.");
    await ui.click(within(dialog).getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(callsOf(calls, "PATCH /api/v1/admin/users/u-sam/verify")).toHaveLength(1));
  });
});
