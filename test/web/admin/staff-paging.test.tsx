/**
 * The staff panel pages through its lists (docs/decisions/038): the first page, then "Load more" with the
 * server's cursor, appended; a search asks the server (`q`), never filters what happens to be loaded; the
 * counts come from admin/stats, not from the rows loaded; a failed next page keeps what is shown, with Retry.
 */
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { NEXT_TOKEN_HEADER } from "@contract/staff-lists";
import { adminSession } from "../../../web/features/admin/api/admin-api";
import { callsOf, fakeApi, makeUser, openStaffPanel, reply, staffPanelRoutes, staffPage, type ApiCall } from "../render";
import { makeDeal } from "../deals/fixtures";

const queues = { pending_ids: 0, pending_listings: 0, open_reports: 0, safety_flags: 0 };
const stats = { stats: { users: 12345, listings: 20000, conversations: 0, messages: 0, user_growth: [], queues, open_feedback: 3 } };
const param = (call: ApiCall, name: string) => new URL(call.url, "http://x").searchParams.get(name);

afterEach(() => adminSession.set(null));

describe("staff lists a page at a time", () => {
  it("Users: the total from admin/stats, Load more follows the cursor and appends, the search goes to the server", async () => {
    const first = [makeUser({ id: "u1", first_name: "Ana", last_name: "Diaz" }), makeUser({ id: "u2", first_name: "Ben", last_name: "Cole" })];
    const second = [makeUser({ id: "u3", first_name: "Cy", last_name: "Park" })];
    const calls = fakeApi({
      ...staffPanelRoutes(stats),
      "GET /api/v1/admin/users": (call: ApiCall) => {
        // The server's search: a user not among the loaded pages is still found.
        if (param(call, "q")) return staffPage("users", [makeUser({ id: "u9", first_name: "Zoe", last_name: "Ng", email: "zoe@ufl.edu" })]);
        return param(call, "last_evaluated_key") === "after-u2" ? staffPage("users", second) : staffPage("users", first, "after-u2");
      },
    });
    const user = userEvent.setup();
    await openStaffPanel();
    await user.click(screen.getByRole("tab", { name: "Users" }));
    await screen.findByText("Ben Cole");
    expect(screen.getByText("12,345 users")).toBeInTheDocument();
    expect(param(callsOf(calls, "GET /api/v1/admin/users")[0]!, "limit")).toBe("50");

    await user.click(screen.getByRole("button", { name: "Load more" }));
    await screen.findByText("Cy Park");
    const cards = () => screen.getAllByRole("listitem").filter((li) => li.classList.contains("admin-user"));
    expect(cards().map((li) => li.querySelector("strong")!.textContent)).toEqual(["Ana Diaz", "Ben Cole", "Cy Park"]);
    expect(param(callsOf(calls, "GET /api/v1/admin/users")[1]!, "last_evaluated_key")).toBe("after-u2");
    // The last page: nothing more to load.
    expect(screen.queryByRole("button", { name: "Load more" })).toBeNull();

    await user.type(screen.getByRole("searchbox", { name: "Search users" }), "zoe@ufl.edu");
    expect(await screen.findByText("Zoe Ng")).toBeInTheDocument();
    expect(screen.getByText("1 found")).toBeInTheDocument();
    expect(screen.queryByText("Ana Diaz")).toBeNull();
    // Asked once the typing settled, not once per key.
    const searches = callsOf(calls, "GET /api/v1/admin/users").filter((c) => param(c, "q"));
    expect(searches.map((c) => param(c, "q"))).toEqual(["zoe@ufl.edu"]);
  });

  it("Feedback: the next cursor comes in X-Next-Token; the count to read from admin/stats", async () => {
    const item = (id: string) => ({ id, email: `${id}@ufl.edu`, message: `Message ${id}`, timestamp: "2026-01-02T00:00:00.000Z", archived: false, page: null });
    const calls = fakeApi({
      ...staffPanelRoutes(stats),
      "GET /api/v1/feedback/admin": (call: ApiCall) =>
        param(call, "last_evaluated_key") === "next-f"
          ? [item("f3")]
          : new Response(JSON.stringify([item("f1"), item("f2")]), { headers: { [NEXT_TOKEN_HEADER]: "next-f", "Content-Type": "application/json" } }),
    });
    const user = userEvent.setup();
    await openStaffPanel();
    await user.click(screen.getByRole("tab", { name: "Feedback" }));
    await screen.findByText("Message f2");
    expect(screen.getByText("3 messages to read")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Load more" }));
    await screen.findByText("Message f3");
    expect(screen.getByText("Message f1")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Load more" })).toBeNull();
    expect(callsOf(calls, "GET /api/v1/feedback/admin").map((c) => param(c, "last_evaluated_key"))).toEqual([null, "next-f"]);
  });

  it("Users > Pending: the verification queue pages too", async () => {
    const request = (id: string, name: string) => ({ id, user_id: `u-${id}`, document_type: "student_id", status: "pending", submitted_at: "2026-01-01T00:00:00.000Z", reviewed_at: null, id_document_url: "ref", notes: null, rejection_reason: null, user_email: `${id}@ufl.edu`, user_name: name });
    const calls = fakeApi({
      ...staffPanelRoutes(stats),
      "GET /api/v1/admin/users": staffPage("users", []),
      "GET /api/v1/verification/admin/all": (call: ApiCall) =>
        param(call, "last_evaluated_key") === "next-v" ? staffPage("data", [request("v2", "Ben Cole")]) : staffPage("data", [request("v1", "Ana Diaz")], "next-v"),
    });
    const user = userEvent.setup();
    await openStaffPanel();
    await user.click(screen.getByRole("tab", { name: "Users" }));
    await user.click(await screen.findByRole("tab", { name: "Pending" }));
    await screen.findByText(/Ana Diaz/);
    await user.click(screen.getByRole("button", { name: "Load more" }));
    await screen.findByText(/Ben Cole/);
    expect(screen.getByText(/Ana Diaz/)).toBeInTheDocument();
    const pages = callsOf(calls, "GET /api/v1/verification/admin/all");
    expect(pages.map((c) => [param(c, "status"), param(c, "last_evaluated_key")])).toEqual([
      ["pending", null],
      ["pending", "next-v"],
    ]);
  });

  it("Deals: Load more; a failed next page keeps the loaded deals and offers Retry", async () => {
    let failNext = true;
    const calls = fakeApi({
      ...staffPanelRoutes(stats),
      "GET /api/v1/admin/deals": (call: ApiCall) => {
        if (param(call, "last_evaluated_key") !== "next-d") return staffPage("data", [makeDeal({ id: "d1", status: "disputed" })], "next-d");
        // A refused page (a 4xx is not retried by itself): the next try succeeds.
        if (failNext) {
          failNext = false;
          return reply({ detail: "Invalid page token" }, 400);
        }
        return staffPage("data", [makeDeal({ id: "d2", status: "disputed", listing_title: "Quiet studio" })]);
      },
    });
    const user = userEvent.setup();
    await openStaffPanel();
    await user.click(screen.getByRole("tab", { name: "Deals" }));
    await screen.findByText("Sunny 2x2 near campus");
    await user.click(await screen.findByRole("button", { name: "Load more" }));
    const alert = (await screen.findByText(/^Failed to fetch more deals: Invalid page token/)).closest<HTMLElement>("[role=alert]")!;
    expect(alert).toBeInTheDocument();
    expect(screen.getByText("Sunny 2x2 near campus")).toBeInTheDocument();
    await user.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("Quiet studio")).toBeInTheDocument();
    expect(screen.getByText("Sunny 2x2 near campus")).toBeInTheDocument();
    expect(screen.queryByText(/Failed to fetch more deals/)).toBeNull();
    expect(callsOf(calls, "GET /api/v1/admin/deals").filter((c) => param(c, "last_evaluated_key") === "next-d")).toHaveLength(2);
    expect(screen.queryByRole("button", { name: "Load more" })).toBeNull();
  });
});
