/** A hand-edited link with dates that are not dates: ignored like any unrecognised value, never flagged as a range. */
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { readBrowseUrl } from "@contract/browse-url";
import { callsOf, fakeApi, makeOwnerListing, renderApp } from "../render";

const page = (data: unknown[]) => ({ data, pagination: { next_token: null, has_more: false } });

describe("dates in the browse link", () => {
  it("a date that is not one is ignored and named; real dates, even out of order, are kept", () => {
    const bad = readBrowseUrl(new URLSearchParams("from=2027-13-45&to=yesterday&unitType=2x2"));
    expect(bad.ignored).toEqual(["from", "to"]);
    expect(bad.valid.toString()).toBe("unitType=2x2");
    expect(bad.browse).toMatchObject({ available_from: null, available_to: null });
    const reversed = readBrowseUrl(new URLSearchParams("from=2027-06-10&to=2027-06-01"));
    expect(reversed.ignored).toEqual([]);
    expect(reversed.valid.toString()).toBe("from=2027-06-10&to=2027-06-01");
  });

  it("the page shows empty, unflagged date inputs and a quiet note, and sends no dates", async () => {
    const calls = fakeApi({
      "GET /api/v1/universities/": { data: [] },
      "GET /api/v1/subleases/": page([makeOwnerListing({ id: "l1", title: "Room one" })]),
    });
    const { container } = renderApp("/?from=2027-13-45&to=yesterday");
    expect(await screen.findByText("Room one")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText("Some filters in this link were not recognised and are ignored.")).toBeInTheDocument());
    const from = container.querySelector<HTMLInputElement>('input[name="from"]')!;
    const to = container.querySelector<HTMLInputElement>('input[name="to"]')!;
    expect(from.value).toBe("");
    expect(to.value).toBe("");
    expect(from).not.toHaveAttribute("aria-invalid");
    expect(screen.queryByText("“To” must be after “From”")).toBeNull();
    for (const call of callsOf(calls, "GET /api/v1/subleases/")) expect(call.url).not.toMatch(/available_/);
  });

  it("a reversed range typed by hand is flagged", async () => {
    fakeApi({ "GET /api/v1/universities/": { data: [] }, "GET /api/v1/subleases/": page([]) });
    const { container } = renderApp("/?from=2027-06-10&to=2027-06-01");
    expect(await screen.findByText("“To” must be after “From”")).toBeInTheDocument();
    expect(container.querySelector('input[name="to"]')).toHaveAttribute("aria-invalid", "true");
  });
});
