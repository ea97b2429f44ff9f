/** Signing up: the fields checked with the server's rules, an existing account, and the welcome after the emailed code. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { welcomeDestination } from "../../../web/features/auth/lib/welcome";
import { fakeApi, makeUser, renderApp } from "../render";

const universities = { data: [{ id: 7, name: "University of Florida", abbreviation: "UF" }] };

describe("sign-up: the fields, an existing account and the welcome", () => {
  it("checks fields with the server's rules on blur, clears them when valid, and shows the password rule once", async () => {
    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/auth/config": { google_client_id: null } });
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
    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/auth/config": { google_client_id: null }, "POST /api/v1/auth/register": () => Response.json({ detail: "An account with this email already exists" }, { status: 409 }) });
    const user = userEvent.setup();
    renderApp("/signup");
    await user.type(await screen.findByLabelText("First name"), "Nia");
    await user.type(screen.getByLabelText("Last name"), "Park");
    await user.type(screen.getByLabelText("Email"), "Nia@UFL.edu");
    await user.type(screen.getByRole("combobox", { name: "University" }), "Florida");
    await user.click(await screen.findByRole("option", { name: "UF · University of Florida" }));
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
    fakeApi({ "GET /api/v1/universities/": universities,
        "GET /api/v1/auth/config": { google_client_id: null },
        "GET /api/v1/subleases/": { data: [], pagination: { next_token: null, has_more: false } }, "POST /api/v1/auth/register": () => Response.json({ message: "ok", user_id: "u1" }, { status: 201 }),
        "POST /api/v1/auth/verify-email": () =>
          Response.json({
            access_token: "tok",
            refresh_token: "r",
            token_type: "bearer",
            user: makeUser({ first_name: "Nia", university_id: 7, preferred_university_id: 7, university: "University of Florida" }),
          }) });
    const user = userEvent.setup();
    const { router } = renderApp("/signup");
    await user.type(await screen.findByLabelText("First name"), "Nia");
    await user.type(screen.getByLabelText("Last name"), "Park");
    await user.type(screen.getByLabelText("Email"), "nia@ufl.edu");
    await user.type(screen.getByRole("combobox", { name: "University" }), "Florida");
    await user.click(await screen.findByRole("option", { name: "UF · University of Florida" }));
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

  it("an empty sign-up submit moves focus to the first field to fix", async () => {
    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/auth/config": { google_client_id: null } });
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    const user = userEvent.setup();
    renderApp("/signup");
    await user.click(await screen.findByRole("button", { name: "Sign up" }));
    await waitFor(() => expect(screen.getByLabelText("First name")).toHaveFocus());
    expect(scrolled).toHaveBeenCalledWith({ block: "center" });
    // Fixed fields give way: the next submit goes to the next field to fix.
    await user.type(screen.getByLabelText("First name"), "Nia");
    await user.type(screen.getByLabelText("Last name"), "Park");
    await user.click(screen.getByRole("button", { name: "Sign up" }));
    await waitFor(() => expect(screen.getByLabelText("Email")).toHaveFocus());
  });
});

describe("a code typed later still welcomes the new student", () => {
  it("sign in, unverified, the code: lands on browse filtered to the university with the welcome line", async () => {
    fakeApi({ "GET /api/v1/universities/": universities,
        "GET /api/v1/auth/config": { google_client_id: null },
        "GET /api/v1/subleases/": { data: [], pagination: { next_token: null, has_more: false } }, "POST /api/v1/auth/login": () => Response.json({ detail: "Please verify your email first", code: "email_not_verified" }, { status: 403 }),
        "POST /api/v1/auth/verify-email": () =>
          Response.json({
            access_token: "tok",
            refresh_token: "r",
            token_type: "bearer",
            user: makeUser({ first_name: "Nia", university_id: 7, preferred_university_id: 7, university: "University of Florida" }),
          }) });
    const user = userEvent.setup();
    const { router } = renderApp("/support");
    await user.click(await screen.findByRole("button", { name: "Sign In" }));
    const signIn = await screen.findByRole("dialog", { name: "Sign in" });
    await user.type(within(signIn).getByLabelText("Email"), "nia@ufl.edu");
    await user.type(within(signIn).getByLabelText("Password"), "secret1");
    await user.click(within(signIn).getByRole("button", { name: "Sign In" }));
    const verify = await screen.findByRole("dialog", { name: "Verify your email" });
    await user.type(within(verify).getByLabelText("Verification code"), "123456");
    await user.click(within(verify).getByRole("button", { name: "Verify email" }));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe("/?university=7"));
    expect(await screen.findByText("Welcome to CampusNest, Nia! Showing listings near University of Florida.")).toBeInTheDocument();
  });

  it("a redirect that drops the welcome (a guard's bare /) still opens browse filtered and greeted", async () => {
    fakeApi({
      "GET /api/v1/universities/": universities,
      "GET /api/v1/auth/config": { google_client_id: null },
      "GET /api/v1/subleases/": { data: [], pagination: { next_token: null, has_more: false } },
    });
    welcomeDestination(makeUser({ first_name: "Nia", university_id: 7, preferred_university_id: 7, university: "University of Florida" }));
    const { router } = renderApp("/", { token: "tok", user: makeUser({ first_name: "Nia" }) });
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe("/?university=7"));
    expect(await screen.findByText("Welcome to CampusNest, Nia! Showing listings near University of Florida.")).toBeInTheDocument();
  });
});
