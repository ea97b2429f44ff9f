import { act, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeApi, makeOwnerListing, renderApp } from "../render";

const listing = makeOwnerListing({ id: "l1", user_id: "u2", title: "Sunny room" });

function api() {
  fakeApi({
    // Browse, where a shared link's Back leads.
    "GET /api/v1/subleases/": { data: [], pagination: { next_token: null, has_more: false } },
    "GET /api/v1/subleases/l1": { data: listing },
    "GET /api/v1/users/u2": { data: { id: "u2", first_name: "Emma", last_name: "Stone", avatar_url: null } },
    "GET /api/v1/universities/": { data: [] },
  });
}

describe("the listing page's Back", () => {
  it("opened from within the app, goes back to the very entry the reader came from", async () => {
    api();
    const { router } = renderApp("/nowhere-in-particular?page=3");
    await act(() => router.navigate("/listing/l1?back=%2F"));
    await screen.findByRole("heading", { name: "Sunny room" });
    expect(router.state.historyAction).toBe("PUSH");
    await userEvent.click(screen.getAllByRole("link", { name: "← Back" })[0]!);
    expect(router.state.location.pathname).toBe("/nowhere-in-particular");
    expect(router.state.location.search).toBe("?page=3");
    expect(router.state.historyAction).toBe("POP");
  });

  it("opened directly (a shared link), follows its back link", async () => {
    api();
    const { router } = renderApp("/listing/l1?back=%2F%3Fq%3Dloft");
    await screen.findByRole("heading", { name: "Sunny room" });
    await userEvent.click(screen.getAllByRole("link", { name: "← Back" })[0]!);
    expect(router.state.location.pathname).toBe("/");
    expect(router.state.location.search).toBe("?q=loft");
  });
});
