import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { hasInvalidEmailInput } from "../../../web/components/layout/footer";
import { callsOf, fakeApi, makeUser, notFound, renderApp } from "../render";

const universities = { data: [{ id: 1, name: "University of Florida", abbreviation: "UF" }] };

describe("navbar, signed out", () => {
  it("shows Get Started and Sign In; Get Started opens the welcome modal", async () => {
    fakeApi({ "GET /api/v1/subleases/": notFound, "GET /api/v1/universities/": universities });
    const user = userEvent.setup();
    renderApp("/");
    await user.click(screen.getByRole("button", { name: "Get Started" }));
    // Its code loads when it is wanted (docs/decisions/023).
    const dialog = await screen.findByRole("dialog", { name: "Welcome to CampusNest" });
    expect(dialog).toHaveTextContent(/verified sublease listings/i);
    expect(within(dialog).getByRole("link", { name: "Create an account" })).toHaveAttribute("href", "/signup");
    expect(screen.getByRole("button", { name: "Sign In" })).toBeInTheDocument();
  });

  it("hides Get Started on /signup", async () => {
    fakeApi({ "GET /api/v1/universities/": notFound, "GET /api/v1/auth/config": notFound });
    renderApp("/signup");
    await screen.findByRole("heading", { level: 1, name: "Create your account" });
    expect(screen.queryByRole("button", { name: "Get Started" })).toBeNull();
    expect(screen.getByRole("button", { name: "Sign In" })).toBeInTheDocument();
  });
});

describe("navbar, signed in", () => {
  it("has the avatar menu with the spec's items; Sign Out clears the stored session and goes home", async () => {
    fakeApi({ "GET /api/v1/subleases/": notFound, "POST /api/v1/auth/logout": notFound, "GET /api/v1/universities/": universities });
    localStorage.setItem("auth_token", "t");
    localStorage.setItem("user_data", JSON.stringify(makeUser()));
    const user = userEvent.setup();
    const { router } = renderApp("/support", { token: "t", user: makeUser() });
    await user.click(await screen.findByRole("button", { name: "Account menu" }));
    const items = screen.getAllByRole("menuitem").map((item) => item.textContent);
    expect(items).toEqual(["My Profile", "Favorites", "Billing", "Messages", "Dark mode", "Sign Out"]);
    await user.click(screen.getByRole("menuitem", { name: "Sign Out" }));
    expect(router.state.location.pathname).toBe("/");
    expect(localStorage.getItem("auth_token")).toBeNull();
    expect(localStorage.getItem("user_data")).toBeNull();
    expect(screen.getByRole("button", { name: "Sign In" })).toBeInTheDocument();
  });

  it("New Listing: an unverified user gets the verification popup, which closes itself after 3 s", async () => {
    fakeApi({ "GET /api/v1/subleases/": notFound, "GET /api/v1/universities/": universities });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { router } = renderApp("/", { token: "t", user: makeUser({ id_verification_status: "approved" }) });
    act(() => screen.getByRole("button", { name: /New Listing/ }).click());
    const popup = screen.getByRole("dialog", { name: "You must be verified to create a listing" });
    expect(within(popup).getByRole("link", { name: "Get Verified" })).toHaveAttribute("href", "/verification");
    expect(router.state.location.pathname).toBe("/");
    act(() => vi.advanceTimersByTime(3100));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("New Listing: an exactly verified user goes to /create", async () => {
    fakeApi({ "GET /api/v1/subleases/": notFound, "GET /api/v1/universities/": universities });
    const user = userEvent.setup();
    const { router } = renderApp("/", { token: "t", user: makeUser({ id_verification_status: "verified" }) });
    await user.click(screen.getByRole("button", { name: /New Listing/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/create"));
  });
});

describe("routes and access", () => {
  it.each([
    ["/profile", "Please log in to see your profile."],
    ["/messages?userId=u2", "Please log in to send messages"],
    ["/verification", "Please log in to verify your identity."],
    ["/edit/abc", "Please log in to edit your listing"],
    // One behaviour for every locked page (these two used to redirect silently to /).
    ["/favorites", "Please log in to see your favorites."],
    ["/billing", "Please log in to see your promotions and billing."],
    ["/billing?listing_id=l1", "Please log in to see your promotions and billing."],
  ])("%s explains itself to a visitor and opens Sign In", async (path, message) => {
    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/auth/config": notFound });
    const { router } = renderApp(path);
    expect(await screen.findByRole("dialog", { name: "Sign in" })).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(router.state.location.pathname + router.state.location.search).toBe(path);
  });

  it("/signup sends a signed-in user to /", async () => {
    fakeApi({ "GET /api/v1/subleases/": notFound, "GET /api/v1/universities/": universities });
    const { router } = renderApp("/signup", { token: "t", user: makeUser() });
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
  });

  it("/create tells a visitor to log in, with Go to Home", async () => {
    fakeApi({ "GET /api/v1/auth/config": notFound });
    renderApp("/create");
    expect(
      await screen.findByText("You must be logged in to create a listing. Please log in and try again."),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Home" })).toHaveAttribute("href", "/");
  });

  it("/promote asks a visitor to log in instead of sending them away", async () => {
    fakeApi({ "GET /api/v1/auth/config": notFound });
    const { router } = renderApp("/promote?listing_id=x");
    expect(await screen.findByText("Please log in to promote a listing")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/promote");
  });

  it("unknown paths show the not-found page", async () => {
    fakeApi();
    renderApp("/no/such/page");
    expect(await screen.findByRole("heading", { level: 1, name: "Page not found" })).toBeInTheDocument();
    // The title is set in an effect, which may run a moment after the heading appears (seen under CI load).
    await waitFor(() => expect(document.title).toBe("Page not found · CampusNest"));
  });

  it("Support and Terms have real content", async () => {
    fakeApi();
    renderApp("/support");
    expect(await screen.findByRole("heading", { name: /Stay safe from rental scams/ })).toBeInTheDocument();
  });
});

describe("home filters", () => {
  it("searches the universities once the field is focused and writes the choice to the query string", async () => {
    const calls = fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": { data: [], pagination: { next_token: null, has_more: false } } });
    const user = userEvent.setup();
    const { router } = renderApp("/");
    const field = screen.getByRole("combobox", { name: "University" });
    // The list is not fetched for the first screen (docs/decisions/023), only when the field is used.
    expect(callsOf(calls, "GET /api/v1/universities/")).toHaveLength(0);
    await user.click(field);
    await user.type(field, "flor");
    await user.click(await screen.findByRole("option", { name: "UF · University of Florida" }));
    await user.selectOptions(screen.getByRole("combobox", { name: "Term" }), "fall");
    expect(router.state.location.search).toBe("?university=1&term=fall");
    // The chosen one shows by name, and "All universities" clears it.
    expect(field).toHaveValue("UF · University of Florida");
    await user.click(field);
    await user.click(await screen.findByRole("option", { name: "All universities" }));
    expect(router.state.location.search).toBe("?term=fall");
  });

  it("picks the only match with Enter, and says when nothing matches", async () => {
    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": { data: [], pagination: { next_token: null, has_more: false } } });
    const user = userEvent.setup();
    const { router } = renderApp("/");
    const field = screen.getByRole("combobox", { name: "University" });
    await user.click(field);
    await user.type(field, "zzz");
    expect(await screen.findByText("No university matches “zzz”")).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, "uf{Enter}");
    await waitFor(() => expect(router.state.location.search).toBe("?university=1"));
  });

  it("once something is typed, ArrowDown and Enter reach the first match, not 'All universities'", async () => {
    const three = {
      data: [
        { id: 1, name: "University of Florida", abbreviation: "UF" },
        { id: 2, name: "Florida State University", abbreviation: "FSU" },
        { id: 3, name: "University of Texas at Austin", abbreviation: "UT Austin" },
      ],
    };
    fakeApi({ "GET /api/v1/universities/": three, "GET /api/v1/subleases/": { data: [], pagination: { next_token: null, has_more: false } } });
    const user = userEvent.setup();
    const { router } = renderApp("/");
    const field = screen.getByRole("combobox", { name: "University" });
    await user.click(field);
    expect(await screen.findByRole("option", { name: "All universities" })).toBeInTheDocument();
    await user.type(field, "Flor");
    await waitFor(() => expect(screen.queryByRole("option", { name: "All universities" })).toBeNull());
    expect(within(screen.getByRole("listbox", { name: "Universities" })).getAllByRole("option")).toHaveLength(2);
    await user.keyboard("{ArrowDown}{Enter}");
    await waitFor(() => expect(router.state.location.search).toBe("?university=1"));
    // Typed and Enter, nothing highlighted: the first match.
    await user.clear(field);
    await user.type(field, "state");
    await user.keyboard("{Enter}");
    await waitFor(() => expect(router.state.location.search).toBe("?university=2"));
  });

  it("says so when universities cannot load, with a retry", async () => {
    fakeApi({ "GET /api/v1/universities/": new Response("{}", { status: 503 }), "GET /api/v1/subleases/": { data: [], pagination: { next_token: null, has_more: false } } });
    const user = userEvent.setup();
    renderApp("/");
    await user.click(screen.getByRole("combobox", { name: "University" }));
    expect(await screen.findByText(/Failed to load universities/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });
});

describe("footer", () => {
  it("toggles the theme and stores it under darkMode", async () => {
    fakeApi();
    const user = userEvent.setup();
    renderApp("/support");
    await user.click(await screen.findByRole("button", { name: "Switch to dark mode" }));
    expect(document.documentElement).toHaveClass("dark");
    expect(localStorage.getItem("darkMode")).toBe("true");
    await user.click(screen.getByRole("button", { name: "Switch to light mode" }));
    expect(document.documentElement).not.toHaveClass("dark");
    expect(localStorage.getItem("darkMode")).toBe("false");
  });

  it("shows the server's version", async () => {
    fakeApi({ "GET /api/version": { version: "9.8.7" } });
    renderApp("/support");
    expect(await screen.findByText("v9.8.7")).toBeInTheDocument();
  });

  it("developer capsule: admin link in a new tab, grid borders, console lines, window size", async () => {
    fakeApi();
    const user = userEvent.setup();
    renderApp("/support");
    await user.click(await screen.findByRole("button", { name: "Developer" }));
    // The developer tools are a chunk of their own, loaded on first open.
    const admin = await screen.findByRole("link", { name: "Admin panel" });
    expect(admin).toHaveAttribute("target", "_blank");
    expect(admin).toHaveAttribute("href", "/staff");
    await user.click(screen.getByRole("checkbox", { name: "Grid borders" }));
    expect(document.documentElement).toHaveClass("grid-borders");
    await user.click(screen.getByRole("checkbox", { name: "Show window dimensions" }));
    expect(screen.getByText(`${window.innerWidth} × ${window.innerHeight}`)).toBeInTheDocument();
    await user.click(screen.getByRole("checkbox", { name: "Show console" }));
    expect(screen.getByRole("region", { name: "Console (last 50 lines)" })).toBeInTheDocument();
  });

  it("status capsule detects an invalid email input", () => {
    document.body.innerHTML = '<input type="email" value="not-an-email"><input type="email" value="">';
    expect(hasInvalidEmailInput()).toBe(true);
    document.body.innerHTML = '<input type="email" value="a@b.edu"><input type="email" value="">';
    expect(hasInvalidEmailInput()).toBe(false);
    document.body.innerHTML = "";
  });
});
