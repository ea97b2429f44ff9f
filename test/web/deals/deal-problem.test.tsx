/**
 * While the money is held: "I have the keys" from move-in day on, behind a confirmation; "Report a
 * problem" with text and photos (uploaded as the listing form does); a disputed deal's statements.
 */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Deal } from "@contract/deals";
import { axeViolations } from "../axe";
import { callsOf, fakeApi, renderApp, afterTheKeysRoutes } from "../render";
import { json, LISTER, paidDeal, RENTER, sessionOf, statusLine, viewedBy } from "./fixtures";

const API = "/api/v1";
const agreement = { data: { version: 1, text: "SUBLEASE AGREEMENT", sha256: "a".repeat(64), events: [] } };
const dealApi = (deal: () => Deal, extra: Record<string, unknown> = {}) =>
  fakeApi({ ...afterTheKeysRoutes("d1"), [`GET ${API}/deals/d1`]: () => ({ data: deal() }), [`GET ${API}/deals/d1/agreement`]: agreement, ...extra });

/** Move-in day (2027-06-01) begins at 04:00 UTC in New York. */
const at = (iso: string) => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(iso));
};
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("I have the keys", () => {
  it("is not offered before move-in day, and says why never to tap it early", async () => {
    at("2027-06-01T03:59:00Z");
    dealApi(() => paidDeal());
    renderApp("/deals/d1", sessionOf(RENTER));
    expect(await screen.findByText("“I have the keys” opens on move-in day. Never tap it before you are in, whatever a message says.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /I have the keys/ })).toBeNull();
    expect(screen.getByRole("button", { name: "Report a problem: Sunny 2x2 near campus" })).toBeInTheDocument();
  });

  it("is offered from move-in day on, behind a confirmation that the money goes to the lister and cannot be taken back", async () => {
    at("2027-06-01T04:00:00Z");
    let current = paidDeal();
    let refuse = true;
    const calls = dealApi(() => current, {
      [`POST ${API}/deals/d1/moved-in`]: () => {
        if (refuse) return json({ detail: "The transfer could not be made right now. Please try again." }, 409);
        current = paidDeal({ status: "released", moved_in_at: "2027-06-01T04:00:00.000Z" }, { status: "released", released_at: "2027-06-01T04:00:05.000Z" });
        return { data: current };
      },
    });
    const ui = userEvent.setup();
    renderApp("/deals/d1", sessionOf(RENTER));
    await ui.click(await screen.findByRole("button", { name: "I have the keys: Sunny 2x2 near campus" }));
    const dialog = screen.getByRole("alertdialog", { name: "Do you have the keys?" });
    // Never sooner than a day after paying (docs/decisions/035): the dialog says so.
    expect(dialog).toHaveTextContent("The rent ($850.00) goes to Jordan now (or 24 hours after your payment, if that is later), and it cannot be taken back.");
    expect(dialog).toHaveTextContent("CampusNest never asks you to tap this early");
    // The safe choice has the focus.
    expect(within(dialog).getByRole("button", { name: "Not yet" })).toHaveFocus();
    expect(await axeViolations()).toEqual([]);
    await ui.click(within(dialog).getByRole("button", { name: "Not yet" }));
    expect(callsOf(calls, `POST ${API}/deals/d1/moved-in`)).toHaveLength(0);

    await ui.click(screen.getByRole("button", { name: "I have the keys: Sunny 2x2 near campus" }));
    const again = screen.getByRole("alertdialog", { name: "Do you have the keys?" });
    await ui.click(within(again).getByRole("button", { name: "Yes, release it to Jordan" }));
    expect(await within(again).findByText("The transfer could not be made right now. Please try again.")).toBeInTheDocument();
    refuse = false;
    await ui.click(within(again).getByRole("button", { name: "Yes, release it to Jordan" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(statusLine()).toHaveTextContent("This deal was completed.");
    await waitFor(() => expect(statusLine()).toHaveFocus());
    expect(callsOf(calls, `POST ${API}/deals/d1/moved-in`)).toHaveLength(2);
    expect(screen.queryByRole("button", { name: /I have the keys|Report a problem/ })).toBeNull();
  });

  it("is never offered to the lister", async () => {
    at("2027-06-02T12:00:00Z");
    dealApi(() => viewedBy(paidDeal(), "lister"));
    renderApp("/deals/d1", sessionOf(LISTER));
    await waitFor(() => expect(statusLine()).toHaveTextContent("Held by CampusNest until"));
    expect(screen.queryByRole("button", { name: /I have the keys|Report a problem/ })).toBeNull();
  });
});

describe("reporting a problem", () => {
  let uploads: { url: string; body: { images: { filename: string; content_type: string }[] } }[];
  beforeEach(() => {
    uploads = [];
    // The browser's photo pipeline (decode, scale on a canvas, JPEG): jsdom has none.
    vi.stubGlobal("createImageBitmap", async () => ({ width: 1200, height: 900, close() {} }));
    vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockReturnValue({ fillStyle: "", fillRect() {}, drawImage() {} } as unknown as CanvasRenderingContext2D);
    vi.spyOn(HTMLCanvasElement.prototype, "toBlob").mockImplementation((done: BlobCallback) => done(new Blob(["jpeg"], { type: "image/jpeg" })));
    Object.assign(URL, { createObjectURL: () => "blob:preview", revokeObjectURL: () => {} });
    // The upload goes by XMLHttpRequest (for its progress), beside the fake API's fetch.
    class FakeXhr {
      upload = { onprogress: null };
      status = 0;
      responseText = "";
      onload: (() => void) | null = null;
      url = "";
      open(_method: string, url: string) {
        this.url = url;
      }
      setRequestHeader() {}
      send(payload: string) {
        uploads.push({ url: this.url, body: JSON.parse(payload) });
        queueMicrotask(() => {
          this.status = 200;
          this.responseText = JSON.stringify({ uploaded_files: [{ url: "/api/v1/evidence/p1.jpg", thumbnail_url: null, filename: "door.jpg", size: 4 }], failed_files: [] });
          this.onload?.();
        });
      }
    }
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
  });

  it("asks what is wrong and what happened (up to 2000 characters), uploads the photos as private evidence, then reports; the deal is disputed", async () => {
    let current = paidDeal();
    let refuse = true;
    const calls = dealApi(() => current, {
      [`POST ${API}/deals/d1/problem`]: () => {
        if (refuse) return json({ detail: "The money was already released" }, 409);
        current = paidDeal(
          {
            status: "disputed",
            problem: { kind: "cant_get_in", text: "The code for the lockbox does not work and Jordan does not answer.", photos: ["/api/v1/evidence/p1.jpg"], created_at: "2027-06-01T09:00:00.000Z", statements: [] },
            case_reason: "problem",
          },
          { status: "disputed" },
        );
        return { data: current };
      },
      [`GET ${API}/evidence/p1.jpg`]: () => new Response(new Blob(["jpeg"], { type: "image/jpeg" }), { status: 200 }),
    });
    const ui = userEvent.setup({ applyAccept: false });
    renderApp("/deals/d1", sessionOf(RENTER));
    await ui.click(await screen.findByRole("button", { name: "Report a problem: Sunny 2x2 near campus" }));
    const dialog = screen.getByRole("dialog", { name: "Report a problem" });
    expect(within(dialog).getByRole("radio", { name: "I can't get in" })).toHaveFocus();
    await ui.click(within(dialog).getByRole("button", { name: "Send the report" }));
    expect(within(dialog).getByText("Please choose what is wrong.")).toBeInTheDocument();
    expect(within(dialog).getByText("Please say what happened.")).toBeInTheDocument();

    await ui.click(within(dialog).getByRole("radio", { name: "I can't get in" }));
    const text = within(dialog).getByLabelText("What happened?");
    await ui.click(text);
    await ui.paste("x".repeat(2001));
    expect(within(dialog).getByText("What happened? is 2001 characters; the limit is 2000. Shorten it to continue.")).toBeInTheDocument();
    expect(within(dialog).getByText("2001/2000", { exact: false })).toBeInTheDocument();
    await ui.clear(text);
    await ui.type(text, "The code for the lockbox does not work and Jordan does not answer.");

    const photos = within(dialog).getByLabelText("Photos (optional, up to 6)");
    const jpeg = (name: string) => new File(["jpeg"], name, { type: "image/jpeg" });
    // Seven chosen: the six that fit are added, the seventh is named.
    await ui.upload(photos, Array.from({ length: 7 }, (_, i) => jpeg(`p${i}.jpg`)));
    expect(await within(dialog).findByText("Added 6 of 7 photos. Maximum 6 photos allowed: p6.jpg was not added.")).toBeInTheDocument();
    for (let i = 0; i < 6; i++) await ui.click(within(dialog).getByRole("button", { name: `Remove p${i}.jpg` }));
    await ui.upload(photos, jpeg("door.jpg"));
    const picked = await within(dialog).findByRole("list", { name: "Photos to send" });
    expect(picked).toHaveTextContent("door.jpg");
    expect(within(picked).getByRole("button", { name: "Remove door.jpg" })).toBeInTheDocument();
    expect(await axeViolations()).toEqual([]);

    await ui.click(within(dialog).getByRole("button", { name: "Send the report" }));
    expect(await within(dialog).findByText("The money was already released")).toBeInTheDocument();
    refuse = false;
    await ui.click(within(dialog).getByRole("button", { name: "Send the report" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await waitFor(() => expect(statusLine()).toHaveFocus());
    // Private evidence (docs/decisions/032), without the listing form's card thumbnail.
    expect(uploads[0]!.url).toBe("/api/v1/upload/evidence");
    expect(uploads[0]!.body.images.map((i) => [i.filename, i.content_type, "thumbnail_data" in i])).toEqual([["door.jpg", "image/jpeg", false]]);
    expect(callsOf(calls, `POST ${API}/deals/d1/problem`).at(-1)!.body).toEqual({
      kind: "cant_get_in",
      text: "The code for the lockbox does not work and Jordan does not answer.",
      photos: ["/api/v1/evidence/p1.jpg"],
    });
    expect(statusLine()).toHaveTextContent("CampusNest staff are looking into it; nothing is released until they decide.");
    // The report, as both parties read it, with its photo.
    const reported = screen.getByRole("region", { name: "The problem: I can't get in" });
    expect(reported).toHaveTextContent("The code for the lockbox does not work and Jordan does not answer.");
    // Private evidence: fetched with the party's session and shown from a blob: URL, never its address.
    expect(await within(reported).findByRole("img", { name: "Photo 1 from You" })).toHaveAttribute("src", expect.stringMatching(/^blob:/));
    expect(callsOf(calls, `GET ${API}/evidence/p1.jpg`)[0]!.authorization).toBe(`Bearer token-${RENTER.id}`);
  });

  it("lets either side add their one statement while disputed; the lister reads the renter's report, and their statement joins the case", async () => {
    const problem = { kind: "not_as_described" as const, text: "The room is half the size in the photos.", photos: [], created_at: "2027-06-01T09:00:00.000Z", statements: [] as NonNullable<Deal["problem"]>["statements"] };
    let disputed = paidDeal({ status: "disputed", problem, case_reason: "problem" }, { status: "disputed" });
    const calls = dealApi(() => viewedBy(disputed, "lister"), {
      [`POST ${API}/deals/d1/statement`]: () => {
        disputed = { ...disputed, problem: { ...problem, statements: [{ author_id: LISTER.id, text: "The photos show the room as it is.", photos: [], created_at: "2027-06-01T10:00:00.000Z" }] } };
        return json({ data: { party: "lister", author_id: LISTER.id, text: "The photos show the room as it is.", photos: [], at: "2027-06-01T10:00:00.000Z" } }, 201);
      },
    });
    const ui = userEvent.setup();
    renderApp("/deals/d1", sessionOf(LISTER));
    const form = await screen.findByRole("form", { name: "Your side" });
    expect(screen.getByRole("region", { name: "The problem: Not as described" })).toHaveTextContent("The room is half the size in the photos.");
    expect(statusLine()).toHaveTextContent("CampusNest staff are looking into it");
    await ui.click(within(form).getByRole("button", { name: "Send to CampusNest" }));
    expect(within(form).getByText("Please say what happened.")).toBeInTheDocument();
    await ui.type(within(form).getByLabelText("Your statement"), "The photos show the room as it is.");
    await ui.click(within(form).getByRole("button", { name: "Send to CampusNest" }));
    expect(callsOf(calls, `POST ${API}/deals/d1/statement`)[0]!.body).toEqual({ text: "The photos show the room as it is.", photos: [] });
    // No photos picked: nothing uploaded. The statement is in the case now, and a second one is not offered.
    expect(uploads).toHaveLength(0);
    const statements = await screen.findByRole("list", { name: "Statements" });
    expect(statements).toHaveTextContent("The photos show the room as it is.");
    await waitFor(() => expect(screen.queryByRole("form", { name: "Your side" })).toBeNull());
  });

  it("offers the renter more to add to the report, and no second report", async () => {
    dealApi(() => paidDeal({ status: "disputed", problem: { kind: "other", text: "Noise at night", photos: [], created_at: "2027-06-01T09:00:00.000Z", statements: [] }, case_reason: "problem" }, { status: "disputed" }));
    renderApp("/deals/d1", sessionOf(RENTER));
    expect(await screen.findByRole("form", { name: "Add to your report" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Report a problem/ })).toBeNull();
    expect(screen.queryByRole("button", { name: /Cancel deal/ })).toBeNull();
  });
});
