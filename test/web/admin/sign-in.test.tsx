/** The staff sign-in's feedback: a wrong password, an empty submit, a throttled try. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { waitText } from "../../../web/features/admin/components/login-view";
import { callsOf, fakeApi, renderApp, reply } from "../render";

/** The sign-in form's own alert (the toasts keep an empty alert region of their own). */
const loginAlert = () => within(screen.getByRole("form", { name: "Staff sign-in" })).getByRole("alert");

describe("staff sign-in", () => {
  it("has a heading and a visible label; a wrong password is announced, clears the field and puts focus back", async () => {
    fakeApi({ "POST /api/v1/admin/login": reply({ success: false, detail: "Invalid password" }, 401) });
    const user = userEvent.setup();
    renderApp("/staff");
    expect(await screen.findByRole("heading", { level: 1, name: "Staff sign-in" })).toBeInTheDocument();
    const password = screen.getByLabelText("Admin password");
    // The label is visible text, not a visually hidden one.
    expect(screen.getByText("Admin password", { selector: "label" })).not.toHaveClass("visually-hidden");
    expect(screen.getByRole("form", { name: "Staff sign-in" })).toBeInTheDocument();

    await user.type(password, "wrong");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    await waitFor(() => expect(loginAlert()).toHaveTextContent(/^Wrong password$/));
    expect(password).toHaveValue("");
    expect(password).toHaveFocus();
    expect(password).toHaveAttribute("aria-invalid", "true");
    expect(password).toHaveAccessibleDescription("Wrong password");
  });

  it("an empty submit asks for the password without calling the API", async () => {
    const calls = fakeApi({});
    const user = userEvent.setup();
    renderApp("/staff");
    await screen.findByLabelText("Admin password");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(loginAlert()).toHaveTextContent("Enter the admin password");
    expect(screen.getByLabelText("Admin password")).toHaveFocus();
    expect(callsOf(calls, "POST /api/v1/admin/login")).toHaveLength(0);
  });

  it("a throttled try (429) names the API's real wait and holds the button until it has passed", async () => {
    fakeApi({ "POST /api/v1/admin/login": reply({ detail: "Too many attempts. Please wait a minute and try again.", retry_after: 42 }, 429) });
    const user = userEvent.setup();
    renderApp("/staff");
    const password = await screen.findByLabelText("Admin password");
    await user.type(password, "guess");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    await waitFor(() => expect(loginAlert()).toHaveTextContent("Too many sign-in attempts. Try again in 42 seconds."));
    expect(screen.getByRole("button", { name: "Sign in" })).toBeDisabled();
    expect(password).toHaveFocus();
  });

  it("the wait reads in seconds, then minutes", () => {
    expect(waitText(1)).toBe("1 second");
    expect(waitText(42)).toBe("42 seconds");
    expect(waitText(89)).toBe("89 seconds");
    expect(waitText(600)).toBe("10 minutes");
  });
});
