import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClientProvider } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "../../../web/app/providers";
import { ForgotPasswordDialog } from "../../../web/features/auth/components/forgot-password-dialog";
import { callsOf, fakeApi } from "../render";

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

function renderDialog(onDone = vi.fn()) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ForgotPasswordDialog open initialEmail="nora@ufl.edu" onClose={() => {}} onDone={onDone} />
    </QueryClientProvider>,
  );
  return onDone;
}

afterEach(cleanup);

describe("forgot password, asked again within the resend wait", () => {
  it("says a code was already sent and offers the code step, which resets the password", async () => {
    const calls = fakeApi({
      "POST /api/v1/auth/forgot-password": json({ detail: "Please wait 42 seconds before requesting a new code.", retry_after: 42 }, 429),
      "POST /api/v1/auth/reset-password": { message: "Your password was changed." },
    });
    const onDone = renderDialog();
    await userEvent.click(screen.getByRole("button", { name: "Send code" }));
    expect(await screen.findByText(/A code was sent to nora@ufl\.edu less than a minute ago/)).toBeTruthy();
    expect(screen.getByText(/a new code can be sent in 42 seconds/)).toBeTruthy();
    expect(screen.queryByText(/Too many attempts/)).toBeNull();
    await userEvent.type(screen.getByLabelText("Code"), "123456");
    await userEvent.type(screen.getByLabelText("New password"), "a-new-password-1");
    await userEvent.click(screen.getByRole("button", { name: "Change password" }));
    await vi.waitFor(() => expect(onDone).toHaveBeenCalledWith("Your password was changed."));
    expect(callsOf(calls, "POST /api/v1/auth/reset-password")[0]!.body).toEqual({ email: "nora@ufl.edu", code: "123456", new_password: "a-new-password-1" });
  });

  it("a daily cap stays an error on the email step", async () => {
    fakeApi({ "POST /api/v1/auth/forgot-password": json({ detail: "Too many codes were sent to this email today.", retry_after: 20_000 }, 429) });
    renderDialog();
    await userEvent.click(screen.getByRole("button", { name: "Send code" }));
    expect(await screen.findByText(/Too many attempts/)).toBeTruthy();
    expect(screen.getByLabelText("Email")).toBeTruthy();
  });

  it("someone holding a code can go straight to the code step", async () => {
    const calls = fakeApi({});
    renderDialog();
    await userEvent.click(screen.getByRole("button", { name: "I already have a code" }));
    expect(screen.getByLabelText("Code")).toBeTruthy();
    expect(callsOf(calls, "POST /api/v1/auth/forgot-password")).toHaveLength(0);
  });
});
