/** The favorites page, and the heart on browse cards (a visitor is asked to sign in, and the listing is favourited after). */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { callsOf, fakeApi, makeOwnerListing, makeUser, notFound, renderApp } from "../render";

const universities = { data: [{ id: 7, name: "University of Florida", abbreviation: "UF" }] };
const signedIn = () => Response.json({ access_token: "tok", refresh_token: "r", token_type: "bearer", user: makeUser() });

async function signInThroughPopup(user: ReturnType<typeof userEvent.setup>) {
  const dialog = await screen.findByRole("dialog", { name: "Sign in" });
  await user.type(within(dialog).getByLabelText("Email"), "maya@ufl.edu");
  await user.type(within(dialog).getByLabelText("Password"), "secret1");
  await user.click(within(dialog).getByRole("button", { name: "Sign In" }));
}

describe("the heart on browse cards", () => {
  it("shows to visitors, asks them to log in, and favourites the listing after sign-in (the prompt toast gone), staying on the filtered browse", async () => {
    const calls = fakeApi({
      "GET /api/v1/universities/": universities,
      "GET /api/v1/subleases/": { data: [makeOwnerListing({ id: "l9", title: "Sunny room" })], pagination: { next_token: null, has_more: false } },
      "GET /api/v1/auth/config": { google_client_id: null },
      "POST /api/v1/auth/login": signedIn,
      "GET /api/v1/favorites": { favorites: [], pagination: { next_token: null, has_more: false } },
      "POST /api/v1/favorites": () => Response.json({ listing_id: "l9", favorited: true }, { status: 201 }),
    });
    const user = userEvent.setup();
    const { router } = renderApp("/?university=7");
    await user.click(await screen.findByRole("button", { name: "Add to favorites" }));
    expect(await screen.findByText("Please log in to add favorites")).toBeInTheDocument();
    await signInThroughPopup(user);
    await waitFor(() => expect(callsOf(calls, "POST /api/v1/favorites")).toHaveLength(1));
    expect(callsOf(calls, "POST /api/v1/favorites")[0]!.body).toEqual({ listing_id: "l9" });
    expect(screen.queryByText("Please log in to add favorites")).toBeNull();
    expect(router.state.location.pathname + router.state.location.search).toBe("/?university=7");
  });

  it("the heart turns even when the favourites list was read before the favourite was made", async () => {
    // The race behind an e2e flake: signing in starts the favourites query, and the server reads the
    // list before the heart's POST lands; that stale answer arrives after the POST's. The heart must
    // still show the favourite (the list is fetched again after the POST).
    const saved = new Set<string>();
    let postDone!: () => void;
    const posted = new Promise<void>((resolve) => (postDone = resolve));
    const calls = fakeApi({
      "GET /api/v1/universities/": universities,
      "GET /api/v1/subleases/": { data: [makeOwnerListing({ id: "l9", title: "Sunny room" })], pagination: { next_token: null, has_more: false } },
      "GET /api/v1/auth/config": { google_client_id: null },
      "POST /api/v1/auth/login": signedIn,
      "GET /api/v1/favorites": async () => {
        const snapshot = [...saved].map((listing_id) => ({ listing_id }));
        await posted;
        return Response.json({ favorites: snapshot, pagination: { next_token: null, has_more: false } });
      },
      "POST /api/v1/favorites": () => {
        saved.add("l9");
        setTimeout(postDone, 0);
        return Response.json({ listing_id: "l9", favorited: true }, { status: 201 });
      },
    });
    const user = userEvent.setup();
    renderApp("/?university=7");
    await user.click(await screen.findByRole("button", { name: "Add to favorites" }));
    await signInThroughPopup(user);
    expect(await screen.findByRole("button", { name: "Remove from favorites" })).toBeInTheDocument();
    expect(callsOf(calls, "POST /api/v1/favorites")).toHaveLength(1);
  });
});

describe("favorites page", () => {
  it("shows the empty state with Browse Listings", async () => {
    fakeApi({ "GET /api/v1/favorites": { favorites: [], pagination: { next_token: null, has_more: false } } });
    renderApp("/favorites", { token: "t", user: makeUser() });
    expect(await screen.findByText("No favorites yet")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Browse Listings" })).toHaveAttribute("href", "/");
  });

  it("skips a favourite whose listing cannot be loaded", async () => {
    fakeApi({ "GET /api/v1/subleases/gone": notFound,
      "GET /api/v1/favorites": { favorites: [{ listing_id: "l1" }, { listing_id: "gone" }], pagination: { next_token: null, has_more: false } },
      "GET /api/v1/subleases/l1": { data: makeOwnerListing({ id: "l1", title: "Listing 1" }) },
    });
    renderApp("/favorites", { token: "t", user: makeUser() });
    await screen.findByText("Listing 1");
    await waitFor(() => expect(screen.getAllByRole("article")).toHaveLength(1));
  });
});
