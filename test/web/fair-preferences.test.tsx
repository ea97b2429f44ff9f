/** Fair preferences (docs/decisions/018): a gender preference is offered only for shared units. */
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GENDER_PREFERENCE_TEXTS } from "@contract/forms";
import { fakeApi, makeOwnerListing, makeUser, mockFetch, renderApp } from "./render";

const universities = { data: [{ id: 1, name: "University of Florida", abbreviation: "UF" }] };
const API = "/api/v1";
const preferenceSelect = () => screen.queryByRole("combobox", { name: "Roommate gender preference" });

afterEach(() => vi.unstubAllGlobals());

describe("listing form: gender preference", () => {
  const verified = makeUser({ id: "owner-1", id_verification_status: "verified" });

  it("Studio and 1x1 replace the select by the explanation; a shared unit shows the select again, at No preference", async () => {
    mockFetch({ "/api/v1/universities/": universities });
    const ui = userEvent.setup();
    renderApp("/create", { token: "t", user: verified });
    const unit = await screen.findByLabelText("Unit type");
    await ui.selectOptions(preferenceSelect()!, "female_preferred");

    await ui.selectOptions(unit, "studio");
    expect(preferenceSelect()).toBeNull();
    expect(screen.getByText(GENDER_PREFERENCE_TEXTS.notOffered)).toBeInTheDocument();
    await ui.selectOptions(unit, "1x1");
    expect(preferenceSelect()).toBeNull();
    expect(screen.getByText(GENDER_PREFERENCE_TEXTS.notOffered)).toBeInTheDocument();

    await ui.selectOptions(unit, "2x2");
    expect(preferenceSelect()).toHaveValue("no_preference");
    expect(screen.queryByText(GENDER_PREFERENCE_TEXTS.notOffered)).toBeNull();
    await ui.selectOptions(unit, "other");
    expect(preferenceSelect()).toBeInTheDocument();
  });

  it("a listing changed to a studio is sent with no_preference", async () => {
    const listing = makeOwnerListing({
      user_id: "owner-1",
      unit_type: "2x2",
      gender_preference: "female_preferred",
      pictures: ["/api/v1/images/listings/owner-1_a.jpg"],
      thumbnails: ["/api/v1/images/listings/owner-1_a.thumb.jpg"],
    });
    const calls = fakeApi({
      [`GET ${API}/universities/`]: universities,
      [`GET ${API}/subleases/l1`]: { data: listing },
      [`GET ${API}/users/profile`]: { data: verified },
      [`PATCH ${API}/subleases/l1`]: ({ body }: { body: Record<string, unknown> }) => ({ data: { ...listing, ...body } }),
    });
    const ui = userEvent.setup();
    renderApp("/edit/l1", { token: "t", user: verified });
    expect(await screen.findByRole("combobox", { name: "Roommate gender preference" })).toHaveValue("female_preferred");
    await ui.selectOptions(screen.getByLabelText("Unit type"), "studio");
    expect(preferenceSelect()).toBeNull();
    await ui.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(calls.some((c) => c.method === "PATCH")).toBe(true));
    expect(calls.find((c) => c.method === "PATCH")!.body).toMatchObject({ unit_type: "studio", gender_preference: "no_preference" });
  });
});

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
