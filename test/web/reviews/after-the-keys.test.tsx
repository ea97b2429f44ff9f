/** The deal page after the keys (docs/decisions/040): the move-in report offline and refused, the reviews revealed together, and the summary's "New". */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Deal } from "@contract/deals";
import type { ConditionReportsResponse, DealReviews } from "@contract/reviews";
import { ReviewSummaryLine } from "../../../web/components/ui/review-summary";
import { render } from "@testing-library/react";
import { callsOf, fakeApi, renderApp } from "../render";
import { axeViolations } from "../axe";
import { json, LISTER, makeDeal, RENTER, sessionOf, viewedBy } from "../deals/fixtures";

const API = "/api/v1";
const open = { opens: "2000-01-01T00:00:00.000Z", closes: "2100-01-01T00:00:00.000Z" };
const closed = { opens: "2000-01-01T00:00:00.000Z", closes: "2000-01-04T00:00:00.000Z" };
const noReviews: DealReviews = { window_ends_at: "2100-01-01T00:00:00.000Z", revealed_at: null, mine: null, theirs: null, theirs_written: false };

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

const heldDeal = (): Deal => viewedBy(makeDeal({ status: "moved_in", actions: ["condition_report", "problem"] } as Partial<Deal>), "renter", Date.now(), { actions: ["condition_report", "problem"] });

describe("the move-in report", () => {
  it("is walked room by room; offline it stays on the device and is sent when back online", async () => {
    const reports: ConditionReportsResponse = { data: [], windows: { move_in: open, move_out: closed } };
    let online = false;
    vi.spyOn(navigator, "onLine", "get").mockImplementation(() => online);
    const calls = fakeApi({
      [`GET ${API}/deals/d1`]: () => ({ data: heldDeal() }),
      [`GET ${API}/deals/d1/agreement`]: { data: { version: 1, text: "AGREEMENT", sha256: "a".repeat(64), events: [] } },
      [`GET ${API}/deals/d1/condition-reports`]: () => reports,
      [`GET ${API}/deals/d1/reviews`]: { data: noReviews },
      [`POST ${API}/deals/d1/condition-report`]: () => json({ data: {} }, 201),
    });
    const ui = userEvent.setup();
    const { container } = renderApp("/deals/d1", sessionOf(RENTER));
    const form = await screen.findByRole("form", { name: "Move-in report" });
    await ui.type(within(form).getByLabelText("Room name"), "Bathroom");
    await ui.click(within(form).getByRole("radio", { name: "Damaged" }));
    await ui.type(within(form).getByLabelText("Note"), "Cracked sink");
    expect(within(form).getByLabelText(/Take photos/)).toHaveAttribute("capture", "environment");
    await ui.click(within(form).getByRole("button", { name: /Send report/ }));
    expect(await within(form).findByRole("status")).toHaveTextContent("saved on this device");
    expect(callsOf(calls, `POST ${API}/deals/d1/condition-report`)).toHaveLength(0);
    expect(JSON.parse(localStorage.getItem("condition-report:d1:move_in")!)).toMatchObject({ queued: true, rooms: [{ name: "Bathroom", condition: "damaged", note: "Cracked sink" }] });

    online = true;
    window.dispatchEvent(new Event("online"));
    await waitFor(() => expect(callsOf(calls, `POST ${API}/deals/d1/condition-report`)).toHaveLength(1));
    expect(callsOf(calls, `POST ${API}/deals/d1/condition-report`)[0]!.body).toEqual({ phase: "move_in", rooms: [{ name: "Bathroom", condition: "damaged", note: "Cracked sink", photos: [] }] });
    await waitFor(() => expect(localStorage.getItem("condition-report:d1:move_in")).toBeNull());
    expect(await axeViolations(container)).toEqual([]);
  });

  it("refused after its window: the server's words, and the draft stays on the device", async () => {
    vi.spyOn(navigator, "onLine", "get").mockReturnValue(true);
    fakeApi({
      [`GET ${API}/deals/d1`]: () => ({ data: heldDeal() }),
      [`GET ${API}/deals/d1/agreement`]: { data: { version: 1, text: "AGREEMENT", sha256: "a".repeat(64), events: [] } },
      [`GET ${API}/deals/d1/condition-reports`]: { data: [], windows: { move_in: open, move_out: closed } },
      [`GET ${API}/deals/d1/reviews`]: { data: noReviews },
      [`POST ${API}/deals/d1/condition-report`]: () => json({ detail: "The move-in report can be sent from A until B; it arrived outside that window" }, 409),
    });
    const ui = userEvent.setup();
    renderApp("/deals/d1", sessionOf(RENTER));
    const form = await screen.findByRole("form", { name: "Move-in report" });
    await ui.type(within(form).getByLabelText("Room name"), "Kitchen");
    await ui.click(within(form).getByRole("button", { name: /Send report/ }));
    expect(await within(form).findByText(/arrived outside that window/)).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem("condition-report:d1:move_in")!).rooms[0].name).toBe("Kitchen");
  });
});

describe("reviews", () => {
  it("the lister writes theirs; the renter's is not shown before the reveal", async () => {
    const deal = viewedBy(makeDeal({ status: "released" } as Partial<Deal>), "lister", Date.now(), { actions: ["review"] });
    let reviews: DealReviews = { ...noReviews, theirs_written: true };
    const calls = fakeApi({
      [`GET ${API}/deals/d1`]: () => ({ data: deal }),
      [`GET ${API}/deals/d1/agreement`]: { data: { version: 1, text: "AGREEMENT", sha256: "a".repeat(64), events: [] } },
      [`GET ${API}/deals/d1/condition-reports`]: { data: [], windows: { move_in: closed, move_out: closed } },
      [`GET ${API}/deals/d1/reviews`]: () => ({ data: reviews }),
      [`POST ${API}/deals/d1/review`]: () => {
        const at = "2026-12-01T00:00:00.000Z";
        reviews = {
          ...reviews,
          revealed_at: at,
          mine: { id: "r2", deal_id: "d1", author: { id: LISTER.id, first_name: LISTER.first_name }, subject_id: RENTER.id, role: "lister", rating: 4, text: "Tidy", created_at: at, revealed_at: at, reply: null },
          theirs: { id: "r1", deal_id: "d1", author: { id: RENTER.id, first_name: RENTER.first_name }, subject_id: LISTER.id, role: "renter", rating: 5, text: "Lovely place", created_at: at, revealed_at: at, reply: null },
        };
        return json({ data: reviews.mine }, 201);
      },
    });
    const ui = userEvent.setup();
    renderApp("/deals/d1", sessionOf(LISTER));
    const section = await screen.findByRole("region", { name: "Reviews" });
    expect(await within(section).findByText(/has written theirs/)).toBeInTheDocument();
    expect(within(section).queryByText("Lovely place")).toBeNull();
    await ui.click(within(section).getByRole("button", { name: "Send review" }));
    expect(within(section).getByText("Please choose a rating from 1 to 5.")).toBeInTheDocument();
    await ui.click(within(section).getByRole("radio", { name: "4 stars" }));
    await ui.type(within(section).getByLabelText(/Your review of/), "Tidy");
    await ui.click(within(section).getByRole("button", { name: "Send review" }));
    expect(callsOf(calls, `POST ${API}/deals/d1/review`)[0]!.body).toEqual({ rating: 4, text: "Tidy" });
    expect(await within(section).findByText("Lovely place")).toBeInTheDocument();
  });

  it("the summary says New below 3 reviews, and none when there are none", () => {
    const { rerender } = render(<ReviewSummaryLine summary={{ count: 1, average: 5 }} />);
    expect(screen.getByText("New")).toBeInTheDocument();
    expect(screen.getByLabelText("Reviews: average 5.0 out of 5 from 1 review, new")).toBeInTheDocument();
    rerender(<ReviewSummaryLine summary={{ count: 3, average: 4.333 }} />);
    expect(screen.queryByText("New")).toBeNull();
    expect(screen.getByLabelText("Reviews: average 4.3 out of 5 from 3 reviews")).toBeInTheDocument();
    rerender(<ReviewSummaryLine summary={{ count: 0, average: 0 }} />);
    expect(screen.getByText("No reviews yet")).toBeInTheDocument();
  });
});

describe("Report a problem from a condition report", () => {
  const sent = (): ConditionReportsResponse => ({
    data: [
      {
        deal_id: "d1",
        phase: "move_in",
        rooms: [
          { name: "Bathroom", condition: "damaged", note: "Cracked sink", photos: [{ url: "/api/v1/evidence/sink.jpg", received_at: "2027-06-01T08:00:00.000Z" }] },
          { name: "Kitchen", condition: "good", note: "", photos: [] },
        ],
        created_at: "2027-06-01T08:05:00.000Z",
        received_at: "2027-06-01T08:05:00.000Z",
        author_id: RENTER.id,
        comment: null,
        has_problem: true,
      },
    ],
    windows: { move_in: closed, move_out: closed },
  });
  const photo = () => new Response(new Blob(["jpeg"], { type: "image/jpeg" }), { status: 200 });

  it("a damaged room opens the problem dialog prefilled with the room, its condition and note, and its photos attached", async () => {
    Object.assign(URL, { createObjectURL: vi.fn(() => "blob:1"), revokeObjectURL: vi.fn() });
    const calls = fakeApi({
      [`GET ${API}/deals/d1`]: () => ({ data: heldDeal() }),
      [`GET ${API}/deals/d1/agreement`]: { data: { version: 1, text: "AGREEMENT", sha256: "a".repeat(64), events: [] } },
      [`GET ${API}/deals/d1/condition-reports`]: sent,
      [`GET ${API}/deals/d1/reviews`]: { data: noReviews },
      [`GET ${API}/evidence/sink.jpg`]: photo,
      [`POST ${API}/deals/d1/problem`]: () => ({ data: heldDeal() }),
    });
    const ui = userEvent.setup();
    renderApp("/deals/d1", sessionOf(RENTER));
    const report = await screen.findByRole("article", { name: "move-in report" });
    expect(within(report).queryByRole("button", { name: "Report a problem: Kitchen" })).toBeNull();
    expect(await within(report).findByRole("img", { name: "Bathroom, photo 1" })).toHaveAttribute("src", "blob:1");
    await ui.click(within(report).getByRole("button", { name: "Report a problem: Bathroom" }));
    const dialog = await screen.findByRole("dialog", { name: "Report a problem" });
    expect(within(dialog).getByRole("radio", { name: "Not as described" })).toBeChecked();
    const text = within(dialog).getByLabelText(/What happened/) as HTMLTextAreaElement;
    expect(text.value).toMatch(/^From my move-in report \(received .+\): Bathroom is damaged\. Cracked sink$/);
    const attached = within(dialog).getByRole("list", { name: "Attached photos" });
    expect(within(attached).getAllByRole("listitem")).toHaveLength(1);
    expect(await axeViolations()).toEqual([]);

    await ui.type(text, " Water on the floor.");
    await ui.click(within(dialog).getByRole("button", { name: "Send the report" }));
    await waitFor(() => expect(callsOf(calls, `POST ${API}/deals/d1/problem`)).toHaveLength(1));
    expect(callsOf(calls, `POST ${API}/deals/d1/problem`)[0]!.body).toEqual({
      kind: "not_as_described",
      text: expect.stringMatching(/Bathroom is damaged\. Cracked sink Water on the floor\.$/),
      photos: ["/api/v1/evidence/sink.jpg"],
    });
    // The server received nothing new: the photo was already the report's (no upload).
    expect(callsOf(calls, `POST ${API}/upload/evidence`)).toHaveLength(0);
  });

  it("an attached photo can be removed before sending; the lister is offered no problem", async () => {
    Object.assign(URL, { createObjectURL: vi.fn(() => "blob:1"), revokeObjectURL: vi.fn() });
    const routes = {
      [`GET ${API}/deals/d1/agreement`]: { data: { version: 1, text: "AGREEMENT", sha256: "a".repeat(64), events: [] } },
      [`GET ${API}/deals/d1/condition-reports`]: sent,
      [`GET ${API}/deals/d1/reviews`]: { data: noReviews },
      [`GET ${API}/evidence/sink.jpg`]: photo,
    };
    const calls = fakeApi({ ...routes, [`GET ${API}/deals/d1`]: () => ({ data: heldDeal() }), [`POST ${API}/deals/d1/problem`]: () => ({ data: heldDeal() }) });
    const ui = userEvent.setup();
    const view = renderApp("/deals/d1", sessionOf(RENTER));
    await ui.click(await screen.findByRole("button", { name: "Report a problem: Bathroom" }));
    const dialog = await screen.findByRole("dialog", { name: "Report a problem" });
    await ui.click(within(dialog).getByRole("button", { name: "Remove attached photo 1" }));
    expect(within(dialog).queryByRole("list", { name: "Attached photos" })).toBeNull();
    await ui.click(within(dialog).getByRole("button", { name: "Send the report" }));
    await waitFor(() => expect(callsOf(calls, `POST ${API}/deals/d1/problem`)).toHaveLength(1));
    expect((callsOf(calls, `POST ${API}/deals/d1/problem`)[0]!.body as { photos: string[] }).photos).toEqual([]);
    view.unmount();

    const asLister = viewedBy(makeDeal({ status: "moved_in" } as Partial<Deal>), "lister", Date.now(), { actions: [] });
    fakeApi({ ...routes, [`GET ${API}/deals/d1`]: () => ({ data: asLister }) });
    renderApp("/deals/d1", sessionOf(LISTER));
    const report = await screen.findByRole("article", { name: "move-in report" });
    expect(within(report).getByText("Cracked sink")).toBeInTheDocument();
    expect(within(report).queryByRole("button", { name: /Report a problem/ })).toBeNull();
  });
});
