/**
 * The browse page's URL values and Featured row: a link with unknown values still shows results (the
 * values ignored, said quietly, no chips for them), the search box keeps to the API's limit with a
 * counter near it, and promoted listings get their own Featured row above results in exact order.
 */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readBrowseUrl, SEARCH_MAX } from "@contract/browse-url";
import { ignoredNote } from "../../../web/features/browse/components/browse-page";
import { callsOf, fakeApi, makeOwnerListing, renderApp } from "../render";

const universities = { data: [{ id: 1, name: "University of Texas at Austin", abbreviation: "UT Austin" }] };
const page = (data: unknown[]) => ({ data, pagination: { next_token: null, has_more: false } });

afterEach(() => vi.unstubAllGlobals());

describe("browse URL values", () => {
  it("reads the URL: unknown values ignored and named, valid ones kept", () => {
    const long = "x".repeat(SEARCH_MAX + 1);
    const read = readBrowseUrl(new URLSearchParams(`university=99999&sort=banana&term=castle&unitType=2x2&q=${long}&within=5`), { unknownUniversity: true });
    expect(read.ignored).toEqual(["university", "term", "sort", "q"]);
    expect(read.browse).toMatchObject({ university_id: null, lease_term: null, sort: null, q: null, unit_type: "2x2", within_miles: "5" });
    expect(read.valid.toString()).toBe("unitType=2x2&within=5");
    // A university id is only ignored once it is known to name none.
    expect(readBrowseUrl(new URLSearchParams("university=99999")).browse.university_id).toBe("99999");
    expect(readBrowseUrl(new URLSearchParams(`q=${"x".repeat(SEARCH_MAX)}`)).ignored).toEqual([]);
    expect(ignoredNote([])).toBeNull();
    expect(ignoredNote(["q"])).toBe(`The search in this link is longer than ${SEARCH_MAX} characters and is ignored.`);
  });

  it("a hand-edited link shows results, a quiet note, chips only for valid filters, and never sends the unknown values", async () => {
    const calls = fakeApi({
      "GET /api/v1/universities/": universities,
      "GET /api/v1/subleases/": page([makeOwnerListing({ id: "l1", title: "Room one" })]),
    });
    renderApp(`/?university=99999&sort=banana&term=castle&unitType=2x2&q=${"y".repeat(112)}`);
    expect(await screen.findByText("Room one")).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByText(`Some filters in this link were not recognised and are ignored. The search in this link is longer than ${SEARCH_MAX} characters and is ignored.`)).toHaveAttribute("role", "status"),
    );
    const chips = await screen.findByRole("list", { name: "Active filters" });
    expect(within(chips).getAllByRole("button").map((b) => b.textContent)).toEqual(["2 bed / 2 bath ×"]);
    expect(screen.queryByText(/Invalid option|Too big|Failed to load/)).toBeNull();
    // Once the university is known to be none, no browse call names it, nor the other unknown values.
    await waitFor(() => {
      const last = callsOf(calls, "GET /api/v1/subleases/").at(-1)!;
      expect(new URL(last.url, "http://x").searchParams.has("university_id")).toBe(false);
    });
    for (const call of callsOf(calls, "GET /api/v1/subleases/")) {
      const query = new URL(call.url, "http://x").searchParams;
      expect(["sort", "lease_term", "q"].filter((k) => query.has(k)), call.url).toEqual([]);
      expect(query.get("unit_type")).toBe("2x2");
    }
    // The too-long search stays in the box, flagged, to be shortened.
    const box = screen.getByRole("searchbox", { name: "Search listings" });
    expect(box).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText(`112/${SEARCH_MAX}: too long, shorten it to search`)).toBeInTheDocument();
  });

  it("the search box keeps to the limit, with a counter from 80 % on", async () => {
    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": page([]) });
    const ui = userEvent.setup();
    renderApp("/");
    const box = await screen.findByRole("searchbox", { name: "Search listings" });
    expect(box).toHaveAttribute("maxLength", String(SEARCH_MAX));
    await ui.click(box);
    await ui.paste("z".repeat(79));
    expect(screen.queryByText(/\/100/)).toBeNull();
    await ui.type(box, "z");
    expect(screen.getByText("80/100")).toHaveAttribute("aria-live", "polite");
    expect(box).toHaveAccessibleDescription("80/100");
  });
});

describe("the Featured row", () => {
  it("shows promoted listings in their own row and the results in the chosen order without them", async () => {
    const promoted = (id: string, miles: number) => makeOwnerListing({ id, title: `Featured ${id}`, promoted: true, distance_miles: miles });
    const plain = (id: string, miles: number) => makeOwnerListing({ id, title: `Plain ${id}`, distance_miles: miles });
    const row = [promoted("p1", 0.4), promoted("p2", 1.5)];
    // The results in exact order, the row's listings in their place among them.
    const results = [plain("n1", 0.2), row[0], plain("n2", 0.9), row[1], plain("n3", 2.9)];
    const calls = fakeApi({
      "GET /api/v1/universities/": universities,
      "GET /api/v1/subleases/": ({ url }: { url: string }) => (new URL(url, "http://x").searchParams.get("promoted") === "only" ? page(row) : page(results)),
    });
    renderApp("/?sort=distance");
    const featured = await screen.findByRole("region", { name: "Featured" });
    expect(within(featured).getAllByRole("heading", { level: 3 }).map((h) => h.textContent)).toEqual(["Featured p1", "Featured p2"]);
    expect(within(featured).getAllByText("Featured", { selector: ".promoted-badge" })).toHaveLength(2);
    const listings = screen.getByRole("region", { name: "Listings" });
    await waitFor(() => expect(within(listings).getAllByRole("heading", { level: 3 }).map((h) => h.textContent)).toEqual(["Plain n1", "Plain n2", "Plain n3"]));
    // The count is every listing on the page, the Featured row's included (it once said 3 here).
    expect(screen.getByText("5 listings")).toBeInTheDocument();
    const modes = callsOf(calls, "GET /api/v1/subleases/").map((c) => new URL(c.url, "http://x").searchParams);
    expect(modes.find((q) => q.get("promoted") === "only")!.get("limit")).toBe("4");
    expect(modes.find((q) => q.get("promoted") === "in_order")!.get("sort")).toBe("distance");
  });

  it("when every match is featured, the row holds them: no empty state, and the count sits above the row", async () => {
    const row = [makeOwnerListing({ id: "p1", title: "Featured p1", promoted: true }), makeOwnerListing({ id: "p2", title: "Featured p2", promoted: true })];
    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": page(row) });
    renderApp("/?term=fall");
    const featured = await screen.findByRole("region", { name: "Featured" });
    const count = await screen.findByText("2 listings");
    expect(count.compareDocumentPosition(featured) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.queryByText("No listings match your search")).toBeNull();
  });

  it("shows no Featured row when nothing is promoted", async () => {
    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": page([makeOwnerListing({ id: "n1", title: "Plain" })]) });
    renderApp("/");
    expect(await screen.findByText("Plain")).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Featured" })).toBeNull();
  });
});
