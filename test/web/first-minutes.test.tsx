import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { pages } from "../../web/app/router";
import { ThemeProvider, useTheme } from "../../web/lib/theme";
import { makeOwnerListing, makeUser, mockFetch, renderApp } from "./render";

const universities = { data: [{ id: 7, name: "University of Florida", abbreviation: "UF" }] };
const session = (email = "maya@ufl.edu") =>
  Response.json({ access_token: "tok", refresh_token: "r", token_type: "bearer", user: makeUser({ email }) });

/** mockFetch plus handlers by path ending (for POSTs with bodies); returns the recorded calls. */
function mockApi(routesByPath: Record<string, unknown>, handlers: Record<string, (init?: RequestInit) => Response>) {
  const calls = mockFetch(routesByPath);
  const base = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input).split("?")[0]!;
    const handler = Object.entries(handlers).find(([end]) => path.endsWith(end))?.[1];
    if (handler) {
      calls.push({ url: String(input), init });
      return handler(init);
    }
    return base(input, init);
  }) as typeof fetch;
  return calls;
}

async function signInThroughPopup(user: ReturnType<typeof userEvent.setup>) {
  const dialog = await screen.findByRole("dialog", { name: "Sign in" });
  await user.type(within(dialog).getByLabelText("Email"), "maya@ufl.edu");
  await user.type(within(dialog).getByLabelText("Password"), "secret1");
  await user.click(within(dialog).getByRole("button", { name: "Sign In" }));
}

describe("item 1: a visitor on a signed-in page", () => {
  it("/create keeps the spec's text, offers Sign In, and signing in lands on /create", async () => {
    mockApi({ "/api/v1/universities/": universities, "/api/v1/auth/config": { google_client_id: null } }, { "/auth/login": () => session() });
    const user = userEvent.setup();
    const { router } = renderApp("/create");
    expect(await screen.findByText("You must be logged in to create a listing. Please log in and try again.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Home" })).toHaveAttribute("href", "/");
    // The popup opened on arrival; closing it leaves the page's own Sign In.
    await user.click(within(await screen.findByRole("dialog", { name: "Sign in" })).getByRole("button", { name: "Close" }));
    await user.click(within(screen.getByRole("main")).getByRole("button", { name: "Sign In" }));
    await signInThroughPopup(user);
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Sign in" })).toBeNull());
    expect(router.state.location.pathname).toBe("/create");
    expect(screen.queryByText(/You must be logged in/)).toBeNull();
  });

  it("/favorites explains itself with the popup open, and signing in stays on /favorites", async () => {
    mockApi(
      {
        "/api/v1/universities/": universities,
        "/api/v1/auth/config": { google_client_id: null },
        "/api/v1/subleases/": { data: [], pagination: { next_token: null, has_more: false } },
        "/api/v1/favorites": { favorites: [], pagination: { next_token: null, has_more: false } },
      },
      { "/auth/login": () => session() },
    );
    const user = userEvent.setup();
    const { router } = renderApp("/favorites");
    expect(await screen.findByText("Please log in to see your favorites.")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/favorites");
    await signInThroughPopup(user);
    await waitFor(() => expect(router.state.location.pathname).toBe("/favorites"));
  });

  it("the navbar's Sign In still goes to / (no pending destination)", async () => {
    mockApi({ "/api/v1/universities/": universities, "/api/v1/auth/config": { google_client_id: null } }, { "/auth/login": () => session() });
    const user = userEvent.setup();
    const { router } = renderApp("/support");
    await user.click(await screen.findByRole("button", { name: "Sign In" }));
    await signInThroughPopup(user);
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
  });
});

describe("item 2: the heart on browse cards", () => {
  it("shows to visitors, asks them to log in, and favourites the listing after sign-in, staying on the filtered browse", async () => {
    const calls = mockApi(
      {
        "/api/v1/universities/": universities,
        "/api/v1/auth/config": { google_client_id: null },
        "/api/v1/subleases/": { data: [makeOwnerListing({ id: "l9", title: "Sunny room" })], pagination: { next_token: null, has_more: false } },
        "/api/v1/favorites": { favorites: [], pagination: { next_token: null, has_more: false } },
      },
      { "/auth/login": () => session(), "/api/v1/favorites": (init) => (init?.method === "POST" ? Response.json({ listing_id: "l9", favorited: true }, { status: 201 }) : Response.json({ favorites: [], pagination: { next_token: null, has_more: false } })) },
    );
    const user = userEvent.setup();
    const { router } = renderApp("/?university=7");
    await user.click(await screen.findByRole("button", { name: "Add to favorites" }));
    expect(await screen.findByText("Please log in to add favorites")).toBeInTheDocument();
    await signInThroughPopup(user);
    await waitFor(() => expect(calls.some((c) => c.url.endsWith("/api/v1/favorites") && c.init?.method === "POST")).toBe(true));
    const post = calls.find((c) => c.init?.method === "POST" && c.url.endsWith("/api/v1/favorites"))!;
    expect(JSON.parse(String(post.init!.body))).toEqual({ listing_id: "l9" });
    expect(router.state.location.pathname + router.state.location.search).toBe("/?university=7");
  });
});

describe("items 3 and 4: sign-up", () => {
  it("checks fields with the server's rules on blur, clears them when valid, and shows the password rule once", async () => {
    mockFetch({ "/api/v1/universities/": universities, "/api/v1/auth/config": { google_client_id: null } });
    const user = userEvent.setup();
    renderApp("/signup");
    await screen.findByLabelText("First name");
    const terms = within(screen.getByRole("main")).getByRole("link", { name: /^Terms ?\(opens in a new tab\)$/ });
    expect(terms).toHaveAttribute("href", "/terms");
    // A new tab: reading the Terms must not empty the half-filled form.
    expect(terms).toHaveAttribute("target", "_blank");
    expect(terms.closest("p")).toHaveTextContent(/^By signing up you agree to the Terms ?\(opens in a new tab\)\.$/);

    const first = screen.getByLabelText("First name");
    await user.type(first, "x".repeat(51));
    expect(screen.queryByText("First name must be at most 50 characters")).toBeNull();
    await user.tab();
    expect(screen.getByText("First name must be at most 50 characters")).toBeInTheDocument();
    await user.type(first, "{Backspace}");
    expect(screen.queryByText("First name must be at most 50 characters")).toBeNull();

    const password = screen.getByLabelText("Password");
    expect(screen.getByText("At least 6 characters.")).toHaveClass("field-hint");
    await user.type(password, "123");
    await user.tab();
    expect(screen.getByText("Password must be at least 6 characters long")).toHaveClass("field-error");
    expect(screen.queryByText("At least 6 characters.")).toBeNull();
    await user.type(password, "456");
    expect(screen.queryByText("Password must be at least 6 characters long")).toBeNull();
    expect(screen.getByText("At least 6 characters.")).toBeInTheDocument();
  });

  it("an existing account offers Sign in and Reset password with the email filled in", async () => {
    mockApi({ "/api/v1/universities/": universities, "/api/v1/auth/config": { google_client_id: null } }, {
      "/auth/register": () => Response.json({ detail: "An account with this email already exists" }, { status: 409 }),
    });
    const user = userEvent.setup();
    renderApp("/signup");
    await user.type(await screen.findByLabelText("First name"), "Nia");
    await user.type(screen.getByLabelText("Last name"), "Park");
    await user.type(screen.getByLabelText("Email"), "Nia@UFL.edu");
    await screen.findByRole("option", { name: "University of Florida (UF)" });
    await user.selectOptions(screen.getByLabelText("University"), "7");
    await user.type(screen.getByLabelText("Password"), "secret1");
    await user.type(screen.getByLabelText("Confirm password"), "secret1");
    await user.click(screen.getByRole("button", { name: "Sign up" }));
    const alert = (await screen.findByText("An account with this email already exists")).closest("[role=alert]") as HTMLElement;

    await user.click(within(alert).getByRole("button", { name: "Sign in" }));
    const signIn = await screen.findByRole("dialog", { name: "Sign in" });
    expect(within(signIn).getByLabelText("Email")).toHaveValue("nia@ufl.edu");
    await user.click(within(signIn).getByRole("button", { name: "Close" }));

    await user.click(within(alert).getByRole("button", { name: "Reset password" }));
    const reset = await screen.findByRole("dialog", { name: "Reset your password" });
    expect(within(reset).getByLabelText("Email")).toHaveValue("nia@ufl.edu");
  });

  it("after the email code, lands on browse filtered to the chosen university with a dismissible welcome", async () => {
    mockApi(
      {
        "/api/v1/universities/": universities,
        "/api/v1/auth/config": { google_client_id: null },
        "/api/v1/subleases/": { data: [], pagination: { next_token: null, has_more: false } },
      },
      {
        "/auth/register": () => Response.json({ message: "ok", user_id: "u1" }, { status: 201 }),
        "/auth/verify-email": () =>
          Response.json({
            access_token: "tok",
            refresh_token: "r",
            token_type: "bearer",
            user: makeUser({ first_name: "Nia", university_id: 7, preferred_university_id: 7, university: "University of Florida" }),
          }),
      },
    );
    const user = userEvent.setup();
    const { router } = renderApp("/signup");
    await user.type(await screen.findByLabelText("First name"), "Nia");
    await user.type(screen.getByLabelText("Last name"), "Park");
    await user.type(screen.getByLabelText("Email"), "nia@ufl.edu");
    await screen.findByRole("option", { name: "University of Florida (UF)" });
    await user.selectOptions(screen.getByLabelText("University"), "7");
    await user.type(screen.getByLabelText("Password"), "secret1");
    await user.type(screen.getByLabelText("Confirm password"), "secret1");
    await user.click(screen.getByRole("button", { name: "Sign up" }));
    const dialog = await screen.findByRole("dialog", { name: "Verify your email" });
    await user.type(within(dialog).getByLabelText("Verification code"), "123456");
    await user.click(within(dialog).getByRole("button", { name: "Verify email" }));

    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe("/?university=7"));
    const welcome = (await screen.findByText(/Welcome to CampusNest, Nia!/)).closest("[role=status]") as HTMLElement;
    expect(welcome).toHaveTextContent("Welcome to CampusNest, Nia! Showing listings near University of Florida.");
    await user.click(within(welcome).getByRole("button", { name: "Dismiss welcome" }));
    expect(screen.queryByText(/Welcome to CampusNest, Nia!/)).toBeNull();
    expect(router.state.location.search).toBe("?university=7");
  });
});

describe("item 5: theme follows the device until the student chooses", () => {
  function fakeDeviceTheme(dark: boolean) {
    const listeners = new Set<() => void>();
    const media = {
      matches: dark,
      addEventListener: (_: string, l: () => void) => listeners.add(l),
      removeEventListener: (_: string, l: () => void) => listeners.delete(l),
    };
    window.matchMedia = ((query: string) => (query === "(prefers-color-scheme: dark)" ? media : { matches: false, addEventListener() {}, removeEventListener() {} })) as unknown as typeof window.matchMedia;
    return (next: boolean) => {
      media.matches = next;
      listeners.forEach((l) => l());
    };
  }
  function Toggle() {
    const { dark, toggle } = useTheme();
    return <button onClick={toggle}>{dark ? "Light mode" : "Dark mode"}</button>;
  }

  it("uses prefers-color-scheme without storing it, follows changes, and a stored choice wins", async () => {
    const original = window.matchMedia;
    try {
      const setDevice = fakeDeviceTheme(true);
      const user = userEvent.setup();
      const { unmount } = render(
        <ThemeProvider>
          <Toggle />
        </ThemeProvider>,
      );
      expect(document.documentElement).toHaveClass("dark");
      expect(localStorage.getItem("darkMode")).toBeNull();
      act(() => setDevice(false));
      expect(document.documentElement).not.toHaveClass("dark");
      expect(localStorage.getItem("darkMode")).toBeNull();

      await user.click(screen.getByRole("button", { name: "Dark mode" }));
      expect(localStorage.getItem("darkMode")).toBe("true");
      act(() => setDevice(false));
      expect(document.documentElement).toHaveClass("dark");
      unmount();

      localStorage.setItem("darkMode", "false");
      fakeDeviceTheme(true);
      render(
        <ThemeProvider>
          <Toggle />
        </ThemeProvider>,
      );
      expect(document.documentElement).not.toHaveClass("dark");
    } finally {
      window.matchMedia = original;
    }
  });
});

describe("item 18: lazy routes", () => {
  it("every page but home is its own lazy chunk, loadable ahead of hydration", async () => {
    expect(pages.length).toBeGreaterThan(10);
    for (const { path, page } of pages) expect(typeof page.preload, path).toBe("function");
    // The same promise each time: preloading before hydration and the render share one load.
    const listing = pages.find((p) => p.path === "/listing/:id")!.page;
    expect(listing.preload()).toBe(listing.preload());
    await listing.preload();
  });
});
