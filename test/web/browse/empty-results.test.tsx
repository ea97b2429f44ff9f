import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeApi, renderApp } from "../render";

const universities = { data: [{ id: 7, name: "University of Florida", abbreviation: "UF" }] };
const noListings = { data: [], pagination: { next_token: null, has_more: false } };

describe("browse's empty results", () => {
  const empty = async (path: string) => {
    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": noListings });
    renderApp(path);
    const heading = await screen.findByRole("heading", { name: "No listings match your search" });
    return heading.parentElement!;
  };

  it("keeps the text for university and term", async () => {
    expect(await empty("/?university=7&term=fall")).toHaveTextContent("Try another university or term, or remove a filter.");
  });

  it("names a distance", async () => {
    expect(await empty("/?university=7&within=2")).toHaveTextContent("Try a wider distance, or another university or term.");
  });

  it("names the dates", async () => {
    expect(await empty("/?from=2026-09-01&to=2026-12-15")).toHaveTextContent("Try other dates, or another university or term.");
  });

  it("names both", async () => {
    expect(await empty("/?university=7&within=5&from=2026-09-01&to=2026-12-15")).toHaveTextContent(
      "Try a wider distance, other dates, or another university or term.",
    );
  });

  it("a half-typed stay filters nothing, so it is not named", async () => {
    expect(await empty("/?term=fall&from=2026-09-01")).toHaveTextContent("Try another university or term, or remove a filter.");
  });
});
