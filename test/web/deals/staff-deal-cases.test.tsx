/**
 * Staff's deal cases: open cases first with why they are cases, the evidence (the agreement's PDF with
 * the admin bearer, events, both sides' statements with photos, the conversation), the decision
 * confirmed with its amounts; the dashboard's deals and money.
 */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AdminDealResponse, Deal } from "@contract/deals";
import { adminSession } from "../../../web/features/admin/api/admin-api";
import { axeViolations } from "../axe";
import type { ConditionReport } from "@contract/reviews";
import { afterTheKeysRoutes, callsOf, fakeApi, renderApp, staffPanelRoutes } from "../render";
import { json, LISTER, page, paidDeal, RENTER, viewedBy } from "./fixtures";

const API = "/api/v1";
beforeEach(() => adminSession.set("admin-token"));
afterEach(() => {
  adminSession.set(null);
  vi.restoreAllMocks();
});

const problem = {
  kind: "cant_get_in" as const,
  text: "The lockbox code does not work.",
  photos: ["/api/v1/images/door.jpg", "/api/v1/images/box.jpg"],
  created_at: "2027-06-01T09:00:00.000Z",
  statements: [{ author_id: LISTER.id, text: "I sent the new code by message.", photos: [], created_at: "2027-06-01T10:00:00.000Z" }],
};
const disputed = viewedBy(paidDeal({ status: "disputed", problem, case_reason: "problem" }, { status: "disputed" }), "staff");
const failed = viewedBy(paidDeal({ id: "d2", listing_title: "Loft on 5th", status: "moved_in", case_reason: "release_failed" }, { status: "release_failed" }), "staff");

const caseFile = (deal: Deal): AdminDealResponse["data"] => ({
  ...deal,
  pdf_sha256: "b".repeat(64),
  events: [{ type: "problem_reported", actor_id: RENTER.id, actor_role: "renter", at: "2027-06-01T09:00:00.000Z", ip: "203.0.113.7", user_agent: "Firefox/140", agreement_version: 1, document_sha256: null, details: null }],
  statements: [
    { party: "renter", author_id: RENTER.id, text: "The lockbox code does not work.", photos: ["/api/v1/evidence/door.jpg", "/api/v1/evidence/box.jpg"], at: "2027-06-01T09:00:00.000Z" },
    { party: "lister", author_id: LISTER.id, text: "I sent the new code by message.", photos: [], at: "2027-06-01T10:00:00.000Z" },
  ],
  messages: [
    { id: "m1", sender_id: RENTER.id, content: "I'm at the door, the code fails", created_at: "2027-06-01T08:50:00.000Z" },
    { id: "m2", sender_id: LISTER.id, content: "Try 4821", created_at: "2027-06-01T09:40:00.000Z" },
  ],
  stripe: { payment_intent: "pi_1", charge: "ch_1", transfer: null, dispute: null },
  listing_flag: null,
});

const photo = () => new Response(new Blob(["jpeg"], { type: "image/jpeg" }), { status: 200 });

function casesApi(extra: Record<string, unknown> = {}) {
  return fakeApi({
    ...staffPanelRoutes(),
    [`GET ${API}/evidence/door.jpg`]: photo,
    [`GET ${API}/evidence/box.jpg`]: photo,
    [`GET ${API}/admin/deals`]: (call: { url: string }) => (new URL(call.url, "http://x").searchParams.get("status") === "cases" ? page([disputed, failed]) : page([])),
    [`GET ${API}/admin/deals/d1`]: { data: caseFile(disputed) },
    ...afterTheKeysRoutes("d1"),
    ...extra,
  });
}

async function openDeals() {
  const ui = userEvent.setup();
  renderApp("/staff");
  await ui.click(await screen.findByRole("tab", { name: "Deals" }));
  return ui;
}

describe("staff deal cases", () => {
  it("lists the open cases first, each with why it is one and its money", async () => {
    const calls = casesApi();
    await openDeals();
    expect(screen.getByLabelText("Status")).toHaveValue("cases");
    const first = (await screen.findByText("Sunny 2x2 near campus")).closest("li")!;
    expect(first).toHaveTextContent("Case: The renter reported a problem (I can't get in,");
    expect(first).toHaveTextContent("$892.50 (rent $850.00 + fee $42.50, 5%) · Held: a problem is being looked into");
    expect(first).toHaveTextContent("$892.50 held by CampusNest; nothing to Jordan Kim yet.");
    const second = screen.getByText("Loft on 5th").closest("li")!;
    expect(second).toHaveTextContent("Case: The transfer to the lister failed");
    expect(callsOf(calls, `GET ${API}/admin/deals`)[0]!.url).toContain("status=cases");
    expect(await axeViolations()).toEqual([]);
  });

  it("opens a case file: the agreement's PDF with the admin bearer, the events, both statements with photos, the conversation", async () => {
    const calls = casesApi({ [`GET ${API}/deals/d1/agreement.pdf`]: () => new Response(new Blob(["%PDF-1.7"], { type: "application/pdf" }), { status: 200 }) });
    let blobs = 0;
    Object.assign(URL, { createObjectURL: vi.fn(() => `blob:${++blobs}`), revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    const ui = await openDeals();
    const item = (await screen.findByText("Sunny 2x2 near campus")).closest("li")!;
    await ui.click(within(item).getByRole("button", { name: "Open the case file: Sunny 2x2 near campus" }));
    const statements = await within(item).findByRole("region", { name: "Statements" });
    expect(statements).toHaveTextContent("Maya Lopez (renter)");
    expect(statements).toHaveTextContent("The lockbox code does not work.");
    expect(statements).toHaveTextContent("Jordan Kim (lister)");
    expect(statements).toHaveTextContent("I sent the new code by message.");
    // Private evidence (docs/decisions/032): fetched with the admin bearer, shown from a blob: URL, never its address.
    expect(await within(statements).findByRole("img", { name: "Photo 2 from Maya Lopez" })).toHaveAttribute("src", expect.stringMatching(/^blob:/));
    expect(callsOf(calls, `GET ${API}/evidence/box.jpg`)[0]!.authorization).toBe("Bearer admin-token");
    const conversation = within(item).getByRole("list", { name: "Conversation" });
    expect(conversation).toHaveTextContent("Maya Lopez (renter): I'm at the door, the code fails");
    expect(conversation).toHaveTextContent("Jordan Kim (lister): Try 4821");
    expect(within(item).getByRole("table", { name: "Events of this deal" })).toHaveTextContent("203.0.113.7");
    expect(item).toHaveTextContent("Stripe: payment pi_1 · charge ch_1 · transfer — · dispute —");

    await ui.click(within(item).getByRole("button", { name: "Download the agreement PDF: Sunny 2x2 near campus" }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(URL.createObjectURL).toHaveBeenCalledTimes(3);
    expect(callsOf(calls, `GET ${API}/deals/d1/agreement.pdf`)[0]!.authorization).toBe("Bearer admin-token");
  });

  it("shows the condition reports side by side, each room's photos with the admin bearer, and the room the problem carries", async () => {
    const report = (phase: ConditionReport["phase"], rooms: ConditionReport["rooms"], comment: ConditionReport["comment"] = null): ConditionReport => ({
      deal_id: "d1",
      phase,
      rooms,
      created_at: "2027-06-01T08:00:00.000Z",
      received_at: phase === "move_in" ? "2027-06-01T08:00:00.000Z" : "2027-08-29T08:00:00.000Z",
      author_id: RENTER.id,
      comment,
      has_problem: rooms.some((r) => r.condition === "damaged" || r.condition === "missing"),
    });
    const closed = { opens: "2000-01-01T00:00:00.000Z", closes: "2000-01-04T00:00:00.000Z" };
    const withDoor = caseFile(viewedBy(paidDeal({ status: "disputed", problem: { ...problem, photos: ["/api/v1/evidence/door.jpg"] }, case_reason: "problem" }, { status: "disputed" }), "staff"));
    const calls = casesApi({
      [`GET ${API}/admin/deals/d1`]: { data: withDoor },
      [`GET ${API}/deals/d1/condition-reports`]: {
        data: [
          report("move_in", [
            { name: "Front door", condition: "damaged", note: "Lock broken", photos: [{ url: "/api/v1/evidence/door.jpg", received_at: "2027-06-01T07:55:00.000Z" }] },
            { name: "Kitchen", condition: "good", note: "", photos: [] },
          ], { text: "The lock was fine when I left.", created_at: "2027-06-01T12:00:00.000Z" }),
          report("move_out", [{ name: "Kitchen", condition: "worn", note: "Oven stained", photos: [] }]),
        ],
        windows: { move_in: closed, move_out: closed },
      },
    });
    const ui = await openDeals();
    const item = (await screen.findByText("Sunny 2x2 near campus")).closest("li")!;
    await ui.click(within(item).getByRole("button", { name: "Open the case file: Sunny 2x2 near campus" }));
    const reports = await within(item).findByRole("region", { name: "Condition reports" });
    const moveIn = await within(reports).findByRole("article", { name: "Move-in report" });
    const moveOut = within(reports).getByRole("article", { name: "Move-out report" });
    expect(moveIn.parentElement).toHaveClass("report-compare-two");
    expect(moveIn).toHaveTextContent("Front door: Damaged");
    expect(moveIn).toHaveTextContent("Lock broken");
    expect(moveIn).toHaveTextContent("Attached to the problem");
    expect(moveIn).toHaveTextContent("Lister's comment");
    expect(moveIn).toHaveTextContent("The lock was fine when I left.");
    expect(moveOut).toHaveTextContent("Kitchen: Worn");
    expect(moveOut).not.toHaveTextContent("Attached to the problem");
    expect(await within(moveIn).findByRole("img", { name: "Front door, photo 1" })).toHaveAttribute("src", expect.stringMatching(/^blob:/));
    expect(callsOf(calls, `GET ${API}/deals/d1/condition-reports`)[0]!.authorization).toBe("Bearer admin-token");
    expect(callsOf(calls, `GET ${API}/evidence/door.jpg`).every((c) => c.authorization === "Bearer admin-token")).toBe(true);
    expect(await axeViolations()).toEqual([]);
  });

  it("says so when the case has no condition report, and offers a retry when they cannot be read", async () => {
    let fail = true;
    casesApi({ [`GET ${API}/deals/d1/condition-reports`]: () => (fail ? json({ detail: "Server error. Please try again later." }, 500) : afterTheKeysRoutes("d1")[`GET ${API}/deals/d1/condition-reports`]) });
    const ui = await openDeals();
    const item = (await screen.findByText("Sunny 2x2 near campus")).closest("li")!;
    await ui.click(within(item).getByRole("button", { name: "Open the case file: Sunny 2x2 near campus" }));
    const reports = await within(item).findByRole("region", { name: "Condition reports" });
    expect(await within(reports).findByRole("alert")).toHaveTextContent("Failed to fetch the condition reports: Server error. Please try again later.");
    fail = false;
    await ui.click(within(reports).getByRole("button", { name: "Retry" }));
    expect(await within(reports).findByText("No condition report.")).toBeInTheDocument();
  });

  it("decides a case: the amount checked, a reason, a confirmation naming each side's amount, the server's detail shown, then said when done", async () => {
    let refuse = true;
    const calls = casesApi({
      [`POST ${API}/admin/deals/d1/resolve`]: () =>
        refuse ? json({ detail: "A payment step of this deal is being made right now. Please try again in a moment." }, 409) : { data: paidDeal({ status: "released" }, { status: "released", refunded_cents: 30000, transferred_cents: 55000 }) },
    });
    const ui = await openDeals();
    const item = (await screen.findByText("Sunny 2x2 near campus")).closest("li")!;
    await ui.click(within(item).getByRole("button", { name: "Open the case file: Sunny 2x2 near campus" }));
    const form = await within(item).findByRole("form", { name: "Decide the case: Sunny 2x2 near campus" });
    const amount = within(form).getByLabelText("Refund to Maya Lopez (USD)");
    expect(form).toHaveTextContent("0 releases everything to Jordan Kim; up to $850.00 refunds that much of the rent and releases the rest; $892.50 (the total paid) refunds everything.");
    const review = within(form).getByRole("button", { name: "Review the decision: Sunny 2x2 near campus" });
    await ui.type(amount, "900");
    await ui.click(review);
    expect(within(form).getByText("At most $892.50.")).toBeInTheDocument();
    // Between the rent and the total: the fee goes back only with a full refund.
    await ui.clear(amount);
    await ui.type(amount, "870");
    await ui.click(review);
    expect(within(form).getByText("Up to $850.00 (the rent), or $892.50 to refund everything with the fee.")).toBeInTheDocument();
    expect(screen.queryByRole("alertdialog")).toBeNull();

    // Each end and the middle, named before anything is sent.
    await ui.clear(amount);
    await ui.type(amount, "0");
    await ui.click(review);
    let dialog = screen.getByRole("alertdialog", { name: "Release everything to Jordan Kim?" });
    expect(dialog).toHaveTextContent("Maya Lopez gets $0.00 back; Jordan Kim gets $850.00 of the rent; CampusNest keeps the service fee ($42.50).");
    await ui.click(within(dialog).getByRole("button", { name: "Go back" }));
    await ui.clear(amount);
    await ui.type(amount, "892.50");
    await ui.click(review);
    dialog = screen.getByRole("alertdialog", { name: "Refund everything to Maya Lopez?" });
    expect(dialog).toHaveTextContent("Maya Lopez gets $892.50 back, the service fee included; Jordan Kim gets nothing.");
    await ui.click(within(dialog).getByRole("button", { name: "Go back" }));
    expect(callsOf(calls, `POST ${API}/admin/deals/d1/resolve`)).toHaveLength(0);

    await ui.clear(amount);
    await ui.type(amount, "300");
    await ui.type(within(form).getByLabelText(/^Reason \(optional/), "The lockbox code was wrong for two days");
    await ui.click(review);
    dialog = screen.getByRole("alertdialog", { name: "Refund $300.00 and release the rest?" });
    expect(dialog).toHaveTextContent("Maya Lopez gets $300.00 back; Jordan Kim gets $550.00 of the rent; CampusNest keeps the service fee ($42.50).");
    expect(dialog).toHaveTextContent("Reason both parties read: The lockbox code was wrong for two days");
    expect(await axeViolations()).toEqual([]);
    await ui.click(within(dialog).getByRole("button", { name: "Refund $300.00, release $550.00" }));
    expect(await within(dialog).findByText("A payment step of this deal is being made right now. Please try again in a moment.")).toBeInTheDocument();
    refuse = false;
    await ui.click(within(dialog).getByRole("button", { name: "Refund $300.00, release $550.00" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(within(form).getByRole("status")).toHaveTextContent("Decided: $300.00 back to Maya Lopez, $550.00 to Jordan Kim. Both parties were told.");
    expect(callsOf(calls, `POST ${API}/admin/deals/d1/resolve`).map((c) => [c.body, c.authorization])).toEqual([
      [{ refund_cents: 30000, reason: "The lockbox code was wrong for two days" }, "Bearer admin-token"],
      [{ refund_cents: 30000, reason: "The lockbox code was wrong for two days" }, "Bearer admin-token"],
    ]);
    // The cases are read again.
    await waitFor(() => expect(callsOf(calls, `GET ${API}/admin/deals`).length).toBeGreaterThan(1));
  });

  it("names who got how much of a decided deal, the lister's amount as received and the fee, in the list and in its file", async () => {
    const decided = viewedBy(
      paidDeal(
        { status: "released", decision: { by: "staff", refund_cents: 30000, transfer_cents: 55000, reason: "Heating broken", at: "2027-06-03T12:00:00.000Z" } },
        { status: "released", refunded_cents: 30000, transferred_cents: 55000 },
      ),
      "staff",
    );
    casesApi({ [`GET ${API}/admin/deals`]: page([decided]), [`GET ${API}/admin/deals/d1`]: { data: caseFile(decided) } });
    const ui = await openDeals();
    const item = (await screen.findByText("Sunny 2x2 near campus")).closest("li")!;
    const line = "$300.00 refunded to Maya Lopez, $550.00 to Jordan Kim, CampusNest fee $42.50 kept.";
    expect(item).toHaveTextContent(line);
    await ui.click(within(item).getByRole("button", { name: /^(Show events|Open the case file): Sunny 2x2 near campus$/ }));
    expect((await within(item).findByText("The money:")).parentElement).toHaveTextContent(`The money: ${line}`);
    expect(within(item).getByText(/^Decided by staff/)).toHaveTextContent("(reason: Heating broken)");
  });

  it("says when there are no open cases", async () => {
    fakeApi({ ...staffPanelRoutes(), [`GET ${API}/admin/deals`]: page([]) });
    await openDeals();
    expect(await screen.findByText("No open cases: no problem reported, no card dispute, no failed transfer.")).toBeInTheDocument();
  });
});

describe("the dashboard's deals and money", () => {
  it("shows deals by state, money held, released and refunded, and open cases", async () => {
    fakeApi(
      staffPanelRoutes({
        stats: {
          users: 4,
          listings: 3,
          conversations: 2,
          messages: 9,
          user_growth: [],
          queues: { pending_ids: 0, pending_listings: 0, open_reports: 0, safety_flags: 0 },
          deals: { by_status: { requested: 3, paid: 2, disputed: 1, released: 5 }, held_cents: 178500, released_cents: 425000, refunded_cents: 8925, open_cases: 1 },
        },
      }),
    );
    renderApp("/staff");
    const section = await screen.findByRole("region", { name: "Deals and money" });
    expect(section).toHaveTextContent("Money held$1,785.00");
    expect(section).toHaveTextContent("Released$4,250.00");
    expect(section).toHaveTextContent("Refunded$89.25");
    expect(section).toHaveTextContent("Open cases1");
    const states = within(section).getByRole("list", { name: "Deals by state" });
    expect(within(states).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["Requested: 3", "Paid: 2", "Completed: 5", "Problem reported: 1"]);
  });
});
