/** The hands-on walk-through's fixes: prompt toasts after sign-in, saved-search summaries, browse's empty text. */
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { SavedSearch } from "@contract/saved-searches";
import { ToastProvider, useToast } from "../../web/components/ui/toast";
import { callsOf, fakeApi, makeOwnerListing, makeUser, renderApp } from "./render";

const universities = { data: [{ id: 7, name: "University of Florida", abbreviation: "UF" }] };
const noListings = { data: [], pagination: { next_token: null, has_more: false } };
const signedIn = () => Response.json({ access_token: "tok", refresh_token: "r", token_type: "bearer", user: makeUser() });

async function signInThroughPopup(user: ReturnType<typeof userEvent.setup>) {
  const dialog = await screen.findByRole("dialog", { name: "Sign in" });
  await user.type(within(dialog).getByLabelText("Email"), "maya@ufl.edu");
  await user.type(within(dialog).getByLabelText("Password"), "secret1");
  await user.click(within(dialog).getByRole("button", { name: "Sign In" }));
}

function DismissHarness() {
  const toast = useToast();
  return (
    <button
      onClick={() => {
        const first = toast.show("Please log in to save searches", { durationMs: 5000 });
        toast.show("Still here", { durationMs: 5000 });
        toast.dismiss(first);
      }}
    >
      Go
    </button>
  );
}

describe("toasts", () => {
  it("show returns an id that dismiss takes away before its time, leaving the others", () => {
    vi.useFakeTimers();
    try {
      render(
        <ToastProvider>
          <DismissHarness />
        </ToastProvider>,
      );
      act(() => screen.getByRole("button", { name: "Go" }).click());
      const region = screen.getByRole("status");
      expect(region).toHaveAttribute("aria-live", "polite");
      expect(region).not.toHaveTextContent("Please log in to save searches");
      expect(region).toHaveTextContent("Still here");
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("a 'Please log in to …' toast goes once the sign-in succeeds", () => {
  it("Save this search: the dialog opens without the prompt toast over it", async () => {
    fakeApi({
      "GET /api/v1/universities/": universities,
      "GET /api/v1/subleases/": noListings,
      "GET /api/v1/auth/config": { google_client_id: null },
      "POST /api/v1/auth/login": signedIn,
    });
    const user = userEvent.setup();
    renderApp("/?term=fall");
    await user.click(await screen.findByRole("button", { name: "Save this search" }));
    expect(await screen.findByText("Please log in to save searches")).toBeInTheDocument();
    await signInThroughPopup(user);
    expect(await screen.findByRole("dialog", { name: "Save this search" })).toBeInTheDocument();
    expect(screen.queryByText("Please log in to save searches")).toBeNull();
  });

  it("the heart: the listing is favourited and the prompt toast is gone", async () => {
    const calls = fakeApi({
      "GET /api/v1/universities/": universities,
      "GET /api/v1/subleases/": { data: [makeOwnerListing({ id: "l9", title: "Sunny room" })], pagination: { next_token: null, has_more: false } },
      "GET /api/v1/auth/config": { google_client_id: null },
      "POST /api/v1/auth/login": signedIn,
      "GET /api/v1/favorites": { favorites: [], pagination: { next_token: null, has_more: false } },
      "POST /api/v1/favorites": () => Response.json({ listing_id: "l9", favorited: true }, { status: 201 }),
    });
    const user = userEvent.setup();
    renderApp("/?university=7");
    await user.click(await screen.findByRole("button", { name: "Add to favorites" }));
    expect(await screen.findByText("Please log in to add favorites")).toBeInTheDocument();
    await signInThroughPopup(user);
    await waitFor(() => expect(callsOf(calls, "POST /api/v1/favorites")).toHaveLength(1));
    expect(screen.queryByText("Please log in to add favorites")).toBeNull();
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

describe("the profile's saved searches", () => {
  const search = (overrides: Partial<SavedSearch>): SavedSearch => ({
    id: "s1",
    name: "UF fall",
    query: "max=900&term=fall&university=7",
    alert_frequency: "instant",
    paused: false,
    paused_at: null,
    last_alert_at: null,
    created_at: "2026-11-01T00:00:00.000Z",
    updated_at: null,
    ...overrides,
  });

  it("leaves out the filter line when the name already says it", async () => {
    fakeApi({
      "GET /api/v1/universities/": universities,
      "GET /api/v1/users/profile": { data: makeUser() },
      "GET /api/v1/users/listings": { data: [] },
      "GET /api/v1/saved-searches/": {
        data: [search({ id: "s1", name: "UF · Fall · Up to $900" }), search({ id: "s2", name: "Cheap fall" }), search({ id: "s3", name: "Pets allowed", query: "pets=true" })],
      },
    });
    renderApp("/profile", { token: "t", user: makeUser() });
    const section = (await screen.findByRole("heading", { name: "Saved searches" })).closest("section")!;
    const row = async (name: string) => (await within(section).findByText(name, { selector: ".saved-search-name" })).closest("li")!;
    const named = await row("UF · Fall · Up to $900");
    const renamed = await row("Cheap fall");
    await waitFor(() => expect(within(renamed).getByText("UF · Fall · Up to $900")).toHaveClass("saved-search-summary"));
    expect(named.querySelector(".saved-search-summary")).toBeNull();
    expect((await row("Pets allowed")).querySelector(".saved-search-summary")).toBeNull();
  });
});

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
