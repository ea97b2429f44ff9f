/** The staff panel's Reviews tab (docs/decisions/040): reported or flagged reviews a page at a time, hide with a reason (confirmed), keep; the states every staff list shares. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { AdminReview } from "@contract/reviews";
import { adminSession } from "../../../web/features/admin/api/admin-api";
import { axeViolations } from "../axe";
import { callsOf, fakeApi, openStaffPanel, reply, staffPage, staffPanelRoutes } from "../render";

afterEach(() => adminSession.set(null));

const API = "/api/v1";
const review = (n: number, over: Partial<AdminReview> = {}): AdminReview => ({
  id: `r${n}`,
  deal_id: `d${n}`,
  author: { id: `a${n}`, first_name: `Author${n}` },
  subject_id: `s${n}`,
  subject: { id: `s${n}`, first_name: `Subject${n}` },
  role: "renter",
  rating: 2,
  text: `Review text ${n}`,
  created_at: "2026-12-01T10:00:00.000Z",
  revealed_at: "2026-12-02T10:00:00.000Z",
  reply: null,
  listing_title: `Listing ${n}`,
  hidden_at: null,
  hidden_reason: null,
  flags: [],
  reports: [],
  checked_at: null,
  ...over,
});
const query = (url: string) => new URL(url, "http://x").searchParams;

async function openReviews() {
  const user = userEvent.setup();
  await openStaffPanel();
  await user.click(screen.getByRole("tab", { name: "Reviews" }));
  return user;
}

describe("the Reviews tab", () => {
  it("lists the queue with why each review is there, and loads the next page on demand", async () => {
    const calls = fakeApi({
      ...staffPanelRoutes(),
      [`GET ${API}/admin/reviews`]: (call: { url: string }) =>
        query(call.url).get("last_evaluated_key") === "page-2"
          ? staffPage("reviews", [review(3, { role: "lister" })])
          : staffPage(
              "reviews",
              [
                review(1, { flags: ["off_platform_payment"], text: "Pay me on Venmo next time" }),
                review(2, { reports: [{ reason: "This is about someone else", created_at: "2026-12-03T10:00:00.000Z" }], flags: ["scored"] }),
              ],
              "page-2",
            ),
    });
    const user = await openReviews();
    const first = await screen.findByRole("listitem", { name: "Review by Author1 (renter) about Subject1" });
    expect(first).toHaveTextContent("Pay me on Venmo next time");
    expect(within(first).getByRole("list", { name: "Reasons" })).toHaveTextContent("Payment off the platform");
    expect(within(first).getByLabelText("2 out of 5")).toBeInTheDocument();
    const second = screen.getByRole("listitem", { name: "Review by Author2 (renter) about Subject2" });
    expect(within(second).getByRole("list", { name: "Reports" })).toHaveTextContent("“This is about someone else”");
    expect(second).toHaveTextContent("Found by the scored model");
    expect(await axeViolations()).toEqual([]);

    await user.click(screen.getByRole("button", { name: "Load more" }));
    expect(await screen.findByRole("listitem", { name: "Review by Author3 (lister) about Subject3" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Load more" })).not.toBeInTheDocument();
    const asked = callsOf(calls, `GET ${API}/admin/reviews`);
    expect(asked.map((c) => [query(c.url).get("status"), query(c.url).get("last_evaluated_key")])).toEqual([
      ["queue", null],
      ["queue", "page-2"],
    ]);
    expect(asked.every((c) => c.authorization === "Bearer admin-token")).toBe(true);
  });

  it("hides a review only with a reason, confirmed; a refusal keeps what was typed; then it leaves the queue", async () => {
    let queue = [review(1), review(2)];
    let refuse = true;
    const calls = fakeApi({
      ...staffPanelRoutes(),
      [`GET ${API}/admin/reviews`]: () => staffPage("reviews", queue),
      [`POST ${API}/admin/reviews/r1/hide`]: (call: { body: unknown }) => {
        if (refuse) return reply({ detail: "This review is hidden" }, 409);
        queue = queue.filter((r) => r.id !== "r1");
        return { data: review(1, { hidden_at: "2026-12-04T10:00:00.000Z", hidden_reason: (call.body as { reason: string }).reason }) };
      },
    });
    const user = await openReviews();
    const item = await screen.findByRole("listitem", { name: "Review by Author1 (renter) about Subject1" });
    await user.click(within(item).getByRole("button", { name: "Hide… the review by Author1 (renter) about Subject1" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Hide Author1's review?" });
    await user.click(within(dialog).getByRole("button", { name: "Hide review" }));
    expect(within(dialog).getByText("A reason is required")).toBeInTheDocument();
    expect(callsOf(calls, `POST ${API}/admin/reviews/r1/hide`)).toHaveLength(0);
    expect(await axeViolations()).toEqual([]);

    await user.type(within(dialog).getByLabelText(/Reason/), "Names a third person");
    await user.click(within(dialog).getByRole("button", { name: "Hide review" }));
    expect(await within(dialog).findByText("This review is hidden")).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Reason/)).toHaveValue("Names a third person");

    refuse = false;
    await user.click(within(dialog).getByRole("button", { name: "Hide review" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(callsOf(calls, `POST ${API}/admin/reviews/r1/hide`).at(-1)!.body).toEqual({ reason: "Names a third person" });
    await waitFor(() => expect(screen.queryByRole("listitem", { name: "Review by Author1 (renter) about Subject1" })).not.toBeInTheDocument());
    expect(screen.getByRole("listitem", { name: "Review by Author2 (renter) about Subject2" })).toBeInTheDocument();
  });

  it("Keep takes a review out of the queue; Cancel hides nothing", async () => {
    let queue = [review(1)];
    const calls = fakeApi({
      ...staffPanelRoutes(),
      [`GET ${API}/admin/reviews`]: () => staffPage("reviews", queue),
      [`POST ${API}/admin/reviews/r1/keep`]: () => {
        queue = [];
        return { data: review(1, { checked_at: "2026-12-04T10:00:00.000Z" }) };
      },
    });
    const user = await openReviews();
    const item = await screen.findByRole("listitem", { name: "Review by Author1 (renter) about Subject1" });
    await user.click(within(item).getByRole("button", { name: "Hide… the review by Author1 (renter) about Subject1" }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Cancel" }));
    expect(callsOf(calls, `POST ${API}/admin/reviews/r1/hide`)).toHaveLength(0);
    await user.click(within(item).getByRole("button", { name: "Keep the review by Author1 (renter) about Subject1" }));
    expect(await screen.findByText("No reviews waiting: nothing reported or flagged.")).toBeInTheDocument();
    expect(callsOf(calls, `POST ${API}/admin/reviews/r1/keep`)).toHaveLength(1);
  });

  it("the Hidden list shows why each was hidden, with no actions", async () => {
    const calls = fakeApi({
      ...staffPanelRoutes(),
      [`GET ${API}/admin/reviews`]: (call: { url: string }) =>
        query(call.url).get("status") === "hidden" ? staffPage("reviews", [review(5, { hidden_at: "2026-12-04T10:00:00.000Z", hidden_reason: "Abusive" })]) : staffPage("reviews", []),
    });
    const user = await openReviews();
    await user.click(await screen.findByRole("tab", { name: "Hidden" }));
    const item = await screen.findByRole("listitem", { name: "Review by Author5 (renter) about Subject5" });
    expect(item).toHaveTextContent("Hidden");
    expect(item).toHaveTextContent(": Abusive");
    expect(within(item).queryByRole("button")).toBeNull();
    expect(callsOf(calls, `GET ${API}/admin/reviews`).map((c) => query(c.url).get("status"))).toContain("hidden");
  });

  it("loading, then a failure with Retry, then the empty queue", async () => {
    let fail = true;
    fakeApi({
      ...staffPanelRoutes(),
      [`GET ${API}/admin/reviews`]: () => (fail ? reply({ detail: "Server error. Please try again later." }, 500) : staffPage("reviews", [])),
    });
    const user = await openReviews();
    expect(screen.getByText("Loading…")).toBeInTheDocument();
    expect(await screen.findByText(/Failed to fetch the reviews queue: Server error. Please try again later./)).toHaveAttribute("role", "alert");
    fail = false;
    await user.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("No reviews waiting: nothing reported or flagged.")).toBeInTheDocument();
  });
});
