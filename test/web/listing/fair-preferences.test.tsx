/** Fair preferences (docs/decisions/018): a gender preference is offered only for shared units. */
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeApi, makeOwnerListing, renderApp } from "../render";

const API = "/api/v1";

afterEach(() => vi.unstubAllGlobals());

describe("listing page: roommate preference", () => {
  const page = (unitType: string) => ({
    [`GET ${API}/subleases/l1`]: { data: makeOwnerListing({ unit_type: unitType, gender_preference: "female_preferred" }) },
    [`GET ${API}/users/owner-1`]: { data: { id: "owner-1", first_name: "Jordan", last_name: "Kim", avatar_url: null, university: "UF", created_at: "2026-01-01T00:00:00Z", id_verified: true } },
  });

  it("shows the preference of a shared unit only", async () => {
    fakeApi(page("3x2"));
    const shared = renderApp("/listing/l1");
    await screen.findByRole("heading", { level: 1, name: /Listing 1/ });
    expect(screen.getByText("Roommate preference")).toBeInTheDocument();
    shared.unmount();

    fakeApi(page("studio"));
    renderApp("/listing/l1");
    await screen.findByRole("heading", { level: 1, name: /Listing 1/ });
    expect(screen.queryByText("Roommate preference")).toBeNull();
  });
});
