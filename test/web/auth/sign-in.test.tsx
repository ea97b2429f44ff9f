/** Signing in: from a page that needs it (the popup, then back to the page), and when throttled. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { waitText } from "../../../web/features/auth/lib/throttle";
import { fakeApi, makeUser, renderApp } from "../render";

const universities = { data: [{ id: 7, name: "University of Florida", abbreviation: "UF" }] };
const session = (email = "maya@ufl.edu") =>
  Response.json({ access_token: "tok", refresh_token: "r", token_type: "bearer", user: makeUser({ email }) });

async function signInThroughPopup(user: ReturnType<typeof userEvent.setup>) {
  const dialog = await screen.findByRole("dialog", { name: "Sign in" });
  await user.type(within(dialog).getByLabelText("Email"), "maya@ufl.edu");
  await user.type(within(dialog).getByLabelText("Password"), "secret1");
  await user.click(within(dialog).getByRole("button", { name: "Sign In" }));
}

describe("a visitor on a signed-in page", () => {
  it("/create keeps the spec's text, offers Sign In, and signing in lands on /create", async () => {
    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/auth/config": { google_client_id: null }, "POST /api/v1/auth/login": () => session() });
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
    fakeApi({ "GET /api/v1/universities/": universities,
        "GET /api/v1/auth/config": { google_client_id: null },
        "GET /api/v1/subleases/": { data: [], pagination: { next_token: null, has_more: false } },
        "GET /api/v1/favorites": { favorites: [], pagination: { next_token: null, has_more: false } }, "POST /api/v1/auth/login": () => session() });
    const user = userEvent.setup();
    const { router } = renderApp("/favorites");
    expect(await screen.findByText("Please log in to see your favorites.")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/favorites");
    await signInThroughPopup(user);
    await waitFor(() => expect(router.state.location.pathname).toBe("/favorites"));
  });

  it("the navbar's Sign In still goes to / (no pending destination)", async () => {
    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/auth/config": { google_client_id: null }, "POST /api/v1/auth/login": () => session() });
    const user = userEvent.setup();
    const { router } = renderApp("/support");
    await user.click(await screen.findByRole("button", { name: "Sign In" }));
    await signInThroughPopup(user);
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
  });
});

describe("a throttled sign-in", () => {
  it("a throttled sign-in says the real wait", async () => {
    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/auth/config": { google_client_id: null }, "POST /api/v1/auth/login": () => Response.json({ detail: "Too many attempts from this network. Please wait a minute, or sign in with an emailed code.", retry_after: 10 }, { status: 429 }) });
    const user = userEvent.setup();
    renderApp("/support");
    await user.click(await screen.findByRole("button", { name: "Sign In" }));
    const dialog = await screen.findByRole("dialog", { name: "Sign in" });
    await user.type(within(dialog).getByLabelText("Email"), "maya@ufl.edu");
    await user.type(within(dialog).getByLabelText("Password"), "guess");
    await user.click(within(dialog).getByRole("button", { name: "Sign In" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Too many attempts. Try again in 10 seconds. Or sign in now with an emailed code.");
    expect(within(dialog).queryByText(/wait a minute/)).toBeNull();
  });

  it("words waits in seconds, then minutes", () => {
    expect(waitText(1)).toBe("1 second");
    expect(waitText(10)).toBe("10 seconds");
    expect(waitText(89)).toBe("89 seconds");
    expect(waitText(90)).toBe("2 minutes");
    expect(waitText(900)).toBe("15 minutes");
  });
});
