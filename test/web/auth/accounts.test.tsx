import { render, screen, waitFor, within } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { createQueryClient } from "../../../web/app/providers";
import { isGoogleLinkRequired } from "../../../web/features/auth/api/auth-api";
import { GoogleLinkDialog } from "../../../web/features/auth/components/google-link-dialog";
import { validateSignup } from "../../../web/features/auth/components/signup-page";
import { ApiError } from "../../../web/lib/api-client";
import { checkDocument } from "../../../web/features/verification/components/verification-page";
import { authStore } from "../../../web/lib/auth-store";
import { type ApiCall, callsOf, fakeApi, makeUser, renderApp, reply } from "../render";

const universities = { data: [{ id: 7, name: "University of Florida", abbreviation: "UF" }] };

describe("sign-up form", () => {
  it("has the spec's rules and messages", () => {
    const ok = { first_name: "A", last_name: "B", email: "a@b.edu", university_id: "7", password: "secret1", confirm: "secret1" };
    expect(validateSignup(ok)).toEqual({});
    expect(validateSignup({ ...ok, confirm: "secret2" })).toEqual({ confirm: "Passwords do not match" });
    expect(validateSignup({ ...ok, password: "12345", confirm: "12345" })).toEqual({ password: "Password must be at least 6 characters long" });
    expect(validateSignup({ ...ok, university_id: "" })).toEqual({ university_id: "University is required" });
    expect(Object.keys(validateSignup({ first_name: "", last_name: "", email: "", university_id: "", password: "", confirm: "" })).length).toBe(6);
  });

  it("keeps what was typed on a server error, then verifies the emailed code and lands signed in on /", async () => {
    let registerAttempts = 0;
    const calls = fakeApi({
      "GET /api/v1/universities/": universities,
      "GET /api/v1/auth/config": { google_client_id: null },
      "POST /api/v1/auth/register": () =>
        ++registerAttempts === 1 ? reply({ detail: "An account with this email already exists" }, 409) : reply({ message: "ok", user_id: "u1" }, 201),
      "POST /api/v1/auth/verify-email": ({ body }: ApiCall) =>
        (body as { code: string }).code === "123456"
          ? { access_token: "tok", refresh_token: "r", token_type: "bearer", user: makeUser({ email: "new@ufl.edu" }) }
          : reply({ detail: "Invalid or expired verification code" }, 400),
    });

    const user = userEvent.setup();
    const { router } = renderApp("/signup");
    await screen.findByText("Message others and create your own listings!");
    expect(screen.queryByRole("button", { name: /google/i })).toBeNull();
    await user.type(screen.getByLabelText("First name"), "Nia");
    await user.type(screen.getByLabelText("Last name"), "Park");
    await user.type(screen.getByLabelText("Email"), "new@ufl.edu");
    await user.type(screen.getByRole("combobox", { name: "University" }), "Florida");
    await user.click(await screen.findByRole("option", { name: "UF · University of Florida" }));
    await user.type(screen.getByLabelText("Password"), "secret1");
    await user.type(screen.getByLabelText("Confirm password"), "secret2");
    await user.click(screen.getByRole("button", { name: "Sign up" }));
    expect(screen.getByText("Passwords do not match")).toBeInTheDocument();
    expect(registerAttempts).toBe(0);

    await user.clear(screen.getByLabelText("Confirm password"));
    await user.type(screen.getByLabelText("Confirm password"), "secret1");
    await user.click(screen.getByRole("button", { name: "Sign up" }));
    expect(await screen.findByText("An account with this email already exists")).toBeInTheDocument();
    expect(screen.getByLabelText("First name")).toHaveValue("Nia");
    expect(screen.getByLabelText("Email")).toHaveValue("new@ufl.edu");

    await user.click(screen.getByRole("button", { name: "Sign up" }));
    const dialog = await screen.findByRole("dialog", { name: "Verify your email" });
    const codeInput = within(dialog).getByLabelText("Verification code");
    expect(within(dialog).getByRole("button", { name: /Resend code in \d+s/ })).toBeDisabled();
    await user.type(codeInput, "12a3");
    expect(codeInput).toHaveValue("123");
    await user.click(within(dialog).getByRole("button", { name: "Verify email" }));
    expect(within(dialog).getByText("Please enter a 6-digit verification code")).toBeInTheDocument();
    await user.clear(codeInput);
    await user.click(codeInput);
    await user.paste("12 34 56");
    expect(codeInput).toHaveValue("123456");
    await user.click(within(dialog).getByRole("button", { name: "Verify email" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(authStore.get()?.token).toBe("tok");
    expect(localStorage.getItem("auth_token")).toBe("tok");
    expect(calls.length).toBeGreaterThan(0);
  });
});

describe("sign-in popup", () => {
  it("shows the server's message, and on success closes and goes to /", async () => {
    fakeApi({
      "GET /api/v1/universities/": universities,
      "GET /api/v1/auth/config": { google_client_id: null },
      "POST /api/v1/auth/login": ({ body }: ApiCall) =>
        (body as { password: string }).password === "right-pass"
          ? { access_token: "tok", refresh_token: "r", token_type: "bearer", user: makeUser() }
          : reply({ detail: "Incorrect email or password" }, 401),
    });
    const user = userEvent.setup();
    const { router } = renderApp("/support");
    await user.click(await screen.findByRole("button", { name: "Sign In" }));
    const dialog = await screen.findByRole("dialog", { name: "Sign in" });
    expect(within(dialog).getByRole("link", { name: "Sign up" })).toHaveAttribute("href", "/signup");
    await user.type(within(dialog).getByLabelText("Email"), "maya@ufl.edu");
    await user.type(within(dialog).getByLabelText("Password"), "wrong");
    await user.click(within(dialog).getByRole("button", { name: "Sign In" }));
    expect(await within(dialog).findByText("Incorrect email or password")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Email")).toHaveValue("maya@ufl.edu");
    await user.clear(within(dialog).getByLabelText("Password"));
    await user.type(within(dialog).getByLabelText("Password"), "right-pass");
    await user.click(within(dialog).getByRole("button", { name: "Sign In" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(router.state.location.pathname).toBe("/");
    expect(screen.getByRole("button", { name: "Account menu" })).toBeInTheDocument();
  });
});

describe("sign-in when throttled, and Google linking", () => {
  const session = (email: string) => ({ access_token: "tok", refresh_token: "r", token_type: "bearer", user: makeUser({ email }) });

  it("a throttled sign-in offers the emailed code first, and the code signs the student in", async () => {
    const calls = fakeApi({
      "GET /api/v1/universities/": universities,
      "GET /api/v1/auth/config": { google_client_id: null },
      "POST /api/v1/auth/login": reply(
        { detail: "Too many failed sign-ins on this account today. Sign in with an emailed code, or try your password again in 15 minutes.", retry_after: 900 },
        429,
      ),
      "POST /api/v1/auth/send-sign-in-code": { message: "If an account exists for this email, we sent it a 6-digit code." },
      "POST /api/v1/auth/login-with-code": session("maya@ufl.edu"),
    });
    const bodies = (key: string) => callsOf(calls, key).map((c) => c.body);
    const user = userEvent.setup();
    const { router } = renderApp("/support");
    await user.click(await screen.findByRole("button", { name: "Sign In" }));
    const dialog = screen.getByRole("dialog", { name: "Sign in" });
    await user.type(within(dialog).getByLabelText("Email"), "maya@ufl.edu");
    await user.type(within(dialog).getByLabelText("Password"), "right-pass");
    await user.click(within(dialog).getByRole("button", { name: "Sign In" }));
    expect(await within(dialog).findByText("Too many attempts. Try again in 15 minutes. Or sign in now with an emailed code.")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Email me a sign-in code" }));

    const codeDialog = await screen.findByRole("dialog", { name: "Sign-in code by email" });
    expect(within(codeDialog).getByLabelText("Email")).toHaveValue("maya@ufl.edu");
    await user.click(within(codeDialog).getByRole("button", { name: "Email me a code" }));
    await user.type(await within(codeDialog).findByLabelText("Code"), "123456");
    await user.click(within(codeDialog).getByRole("button", { name: "Sign In" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(router.state.location.pathname).toBe("/");
    expect(authStore.get()?.token).toBe("tok");
    expect(bodies("POST /api/v1/auth/send-sign-in-code")).toEqual([{ email: "maya@ufl.edu" }]);
    expect(bodies("POST /api/v1/auth/login-with-code")).toEqual([{ email: "maya@ufl.edu", code: "123456" }]);
  });

  it("Google's link_required answer asks for the password (or an emailed code) before any session", async () => {
    const linkRequired = new ApiError(409, "An account with this email already exists.", {
      detail: "An account with this email already exists.",
      code: "google_link_required",
      link_required: true,
      email: "owner@ufl.edu",
    } as never);
    expect(isGoogleLinkRequired(linkRequired)).toBe(true);
    expect(isGoogleLinkRequired(new ApiError(409, "taken", { detail: "taken" }))).toBe(false);

    const calls = fakeApi({
      "POST /api/v1/auth/send-sign-in-code": { message: "sent" },
      "POST /api/v1/auth/google-link": ({ body }: ApiCall) =>
        (body as { password?: string }).password === "wrong" ? reply({ detail: "Incorrect password" }, 401) : session("owner@ufl.edu"),
    });
    authStore.signOut();
    let signedIn = 0;
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <GoogleLinkDialog link={{ email: "owner@ufl.edu", token: "google-cred", detail: "Confirm it is yours once." }} onClose={() => {}} onSignedIn={() => signedIn++} />
      </QueryClientProvider>,
    );
    const dialog = screen.getByRole("dialog", { name: "Link your Google account" });
    expect(within(dialog).getByLabelText("Email")).toHaveValue("owner@ufl.edu");
    await user.type(within(dialog).getByLabelText("Password"), "wrong");
    await user.click(within(dialog).getByRole("button", { name: "Link and sign in" }));
    expect(await within(dialog).findByText("Incorrect password")).toBeInTheDocument();
    expect(authStore.get()).toBeNull();
    expect(within(dialog).getByLabelText("Password")).toHaveValue("wrong");

    // The emailed code instead.
    await user.click(within(dialog).getByRole("button", { name: "Email me a code instead" }));
    await user.type(await within(dialog).findByLabelText(/^Code/), "654321");
    await user.click(within(dialog).getByRole("button", { name: "Link and sign in" }));
    await waitFor(() => expect(signedIn).toBe(1));
    expect(callsOf(calls, "POST /api/v1/auth/send-sign-in-code").map((c) => c.body)).toEqual([{ email: "owner@ufl.edu" }]);
    expect(callsOf(calls, "POST /api/v1/auth/google-link").map((c) => c.body)).toEqual([
      { token: "google-cred", password: "wrong" },
      { token: "google-cred", code: "654321" },
    ]);
    expect(authStore.get()?.token).toBe("tok");
  });
});

describe("identity document checks", () => {
  const file = (type: string, size: number) => {
    const f = new File(["x"], "doc", { type });
    Object.defineProperty(f, "size", { value: size });
    return f;
  };
  it("uses the spec's messages, naming the refused file", () => {
    expect(checkDocument(null)).toBe("Please select a document to upload.");
    expect(checkDocument(file("image/gif", 10))).toBe("doc can't be used. Invalid file type. Only JPEG, PNG, WebP, and PDF files are allowed.");
    expect(checkDocument(file("application/pdf", 11 * 1024 * 1024))).toBe("doc can't be used. File size too large. Maximum size is 10MB.");
    expect(checkDocument(file("image/png", 1000))).toBeNull();
  });
});
