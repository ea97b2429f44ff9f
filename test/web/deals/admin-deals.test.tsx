/** The staff panel's Deals tab: every deal by status, and a deal's events with whole addresses. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { adminSession } from "../../../web/features/admin/api/admin-api";
import { afterTheKeysRoutes, callsOf, fakeApi, renderApp } from "../render";
import { acceptedDeal, LISTER, makeDeal, RENTER } from "./fixtures";
import { formatStay } from "@contract/dates";

const API = "/api/v1";
beforeEach(() => adminSession.set("admin-token"));
afterEach(() => adminSession.set(null));

describe("staff Deals tab", () => {
  it("lists deals, filters by status, and shows a deal's events", async () => {
    const calls = fakeApi({
      "GET /api/v1/admin/audit": { audit: [] },
      [`GET ${API}/admin/tables`]: { tables: [] },
      [`GET ${API}/admin/stats`]: { stats: { users: 0, listings: 0, conversations: 0, messages: 0, user_growth: [], queues: { pending_ids: 0, pending_listings: 0, open_reports: 0, safety_flags: 0 } } },
      [`GET ${API}/admin/deals`]: (call: { url: string }) =>
        new URL(call.url, "http://x").searchParams.get("status") === "declined"
          ? { data: [], pagination: { next_token: null, has_more: false } }
          : { data: [acceptedDeal(), makeDeal({ id: "d2", status: "cancelled", status_reason: "party_blocked" })], pagination: { next_token: null, has_more: false } },
      ...afterTheKeysRoutes("d1"),
      [`GET ${API}/admin/deals/d1`]: {
        data: {
          ...acceptedDeal(),
          pdf_sha256: null,
          events: [
            { type: "requested", actor_id: RENTER.id, actor_role: "renter", at: "2026-11-20T15:00:00.000Z", ip: "203.0.113.7", user_agent: "Firefox/140", agreement_version: null, document_sha256: null, details: null },
            { type: "accepted", actor_id: LISTER.id, actor_role: "lister", at: "2026-11-20T16:00:00.000Z", ip: "198.51.100.4", user_agent: "Chrome/150", agreement_version: 1, document_sha256: "a".repeat(64), details: null },
          ],
        },
      },
    });
    const ui = userEvent.setup();
    renderApp("/staff");
    await ui.click(await screen.findByRole("tab", { name: "Deals" }));
    // Open cases come first; every deal is one choice away.
    await ui.selectOptions(await screen.findByLabelText("Status"), "");
    const first = (await screen.findAllByText("Sunny 2x2 near campus"))[0]!.closest("li")!;
    expect(first).toHaveTextContent(`Maya Lopez (renter) · Jordan Kim (lister) · ${formatStay("2027-06-01", "2027-08-15")} · $850 / month`);
    expect(screen.getByText(/One party blocked the other/)).toBeInTheDocument();
    await ui.click(within(first).getByRole("button", { name: "Show events: Sunny 2x2 near campus" }));
    const table = await within(first).findByRole("table", { name: "Events of this deal" });
    // The table scrolls sideways in a narrow panel: its region is labelled and reachable by keyboard.
    const scroller = within(first).getByRole("region", { name: "Events" });
    expect(scroller).toContainElement(table);
    expect(scroller).toHaveAttribute("tabindex", "0");
    // Under 600 px each row is a card: every value carries its column's name (shown by styles.css).
    const headers = within(table).getAllByRole("columnheader").map((th) => th.textContent);
    for (const row of within(table).getAllByRole("row").slice(1)) {
      expect(within(row).getAllByRole("cell").map((td) => td.getAttribute("data-label"))).toEqual(headers);
    }
    expect(within(table).getByText("203.0.113.7")).toBeInTheDocument();
    expect(within(table).getByText("Jordan Kim (lister)")).toBeInTheDocument();
    expect(within(first).getByText("Address: 12 Bleecker St, Apt 4B, New York, NY 10003", { exact: false })).toBeInTheDocument();
    expect(callsOf(calls, `GET ${API}/admin/deals/d1`)[0]!.headers.get("Authorization")).toBe("Bearer admin-token");

    await ui.selectOptions(screen.getByLabelText("Status"), "declined");
    expect(await screen.findByText("No declined deals.")).toBeInTheDocument();
    await waitFor(() => expect(callsOf(calls, `GET ${API}/admin/deals`).some((c) => c.url.includes("status=declined"))).toBe(true));
  });
});
