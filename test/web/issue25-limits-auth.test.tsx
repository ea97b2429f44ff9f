import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { TextAreaField } from "../../web/components/ui/field";
import { welcomeDestination } from "../../web/features/auth/lib/welcome";
import { waitText } from "../../web/features/auth/lib/throttle";
import { makeUser, mockFetch, renderApp } from "./render";

const universities = { data: [{ id: 7, name: "University of Florida", abbreviation: "UF" }] };

/** mockFetch plus POST handlers by path ending; returns the recorded calls. */
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

describe("issue 25, item 4: limited fields never cut silently", () => {
  function Notes() {
    const [value, setValue] = useState("");
    return <TextAreaField label="Notes (optional)" limit={10} value={value} onChange={(e) => setValue(e.target.value)} />;
  }

  it("counts from 80 % of the limit, politely, and flags a longer paste until shortened", async () => {
    const user = userEvent.setup();
    render(<Notes />);
    const box = screen.getByLabelText("Notes (optional)");
    expect(box).not.toHaveAttribute("maxLength");
    await user.type(box, "1234567");
    expect(screen.queryByText(/\/10/)).toBeNull();
    await user.type(box, "8");
    const counter = screen.getByText("8/10", { exact: false });
    expect(counter).toHaveAttribute("aria-live", "polite");
    expect(counter).toHaveTextContent("8/10 characters");
    expect(box.getAttribute("aria-describedby")).toContain(counter.id);
    await user.paste("9abcdef");
    expect(box).toHaveValue("123456789abcdef");
    // The label's "(optional)" is not part of the field's name in the message.
    expect(screen.getByRole("alert")).toHaveTextContent("Notes is 15 characters; the limit is 10. Shorten it to continue.");
    expect(box).toHaveAttribute("aria-invalid", "true");
    await user.type(box, "{Backspace}{Backspace}{Backspace}{Backspace}{Backspace}");
    expect(screen.queryByRole("alert")).toBeNull();
    expect(box).not.toHaveAttribute("aria-invalid");
    expect(screen.getByText("10/10", { exact: false })).toBeInTheDocument();
  });

  it("the feedback message: kept whole, flagged, and not sent while too long", async () => {
    const calls = mockFetch({ "/api/v1/universities/": universities, "/api/v1/auth/config": { google_client_id: null } });
    const user = userEvent.setup();
    renderApp("/support");
    await user.click(await screen.findByRole("button", { name: /feedback/i }));
    const dialog = await screen.findByRole("dialog", { name: "Send feedback" });
    await user.type(within(dialog).getByLabelText("Email"), "nia@ufl.edu");
    await user.click(within(dialog).getByLabelText("Message"));
    await user.paste("m".repeat(5001));
    expect(within(dialog).getByLabelText("Message")).toHaveValue("m".repeat(5001));
    expect(within(dialog).getByText("Message is 5001 characters; the limit is 5000. Shorten it to continue.")).toHaveAttribute("role", "alert");
    await user.click(within(dialog).getByRole("button", { name: "Send feedback" }));
    expect(calls.filter((c) => c.url.includes("feedback"))).toEqual([]);
  });
});

describe("issue 25, item 13", () => {
  it("an empty sign-up submit moves focus to the first field to fix", async () => {
    mockFetch({ "/api/v1/universities/": universities, "/api/v1/auth/config": { google_client_id: null } });
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

  it("ID verification refuses a text file named .jpg when picked, with no preview", async () => {
    mockFetch({ "/api/v1/verification/status": { data: { status: "unverified", latest_request: null } } });
    vi.stubGlobal("createImageBitmap", async (file: File) => {
      if (file.name === "id.jpg") throw new Error("decode failed");
      return { close() {} };
    });
    URL.createObjectURL = () => "blob:preview";
    URL.revokeObjectURL = () => {};
    const user = userEvent.setup({ applyAccept: false });
    const { container } = renderApp("/verification", { token: "t", user: makeUser() });
    await screen.findByRole("button", { name: "Submit for Review" });
    const input = container.querySelector<HTMLInputElement>('input[type="file"]')!;
    await user.upload(input, new File(["just some text"], "id.jpg", { type: "image/jpeg" }));
    expect(await screen.findByText(/^id\.jpg could not be opened as an image/)).toHaveAttribute("role", "alert");
    expect(screen.queryByRole("img", { name: "Preview of your document" })).toBeNull();
    await user.upload(input, new File(["jpeg"], "card.jpg", { type: "image/jpeg" }));
    expect(await screen.findByRole("img", { name: "Preview of your document" })).toBeInTheDocument();
    expect(screen.queryByText(/could not be opened/)).toBeNull();
    vi.unstubAllGlobals();
  });

  it("a throttled sign-in says the real wait", async () => {
    mockApi(
      { "/api/v1/universities/": universities, "/api/v1/auth/config": { google_client_id: null } },
      { "/auth/login": () => Response.json({ detail: "Too many attempts from this network. Please wait a minute, or sign in with an emailed code.", retry_after: 10 }, { status: 429 }) },
    );
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

describe("issue 25, item 9: a code typed later still welcomes the new student", () => {
  it("sign in, unverified, the code: lands on browse filtered to the university with the welcome line", async () => {
    mockApi(
      {
        "/api/v1/universities/": universities,
        "/api/v1/auth/config": { google_client_id: null },
        "/api/v1/subleases/": { data: [], pagination: { next_token: null, has_more: false } },
      },
      {
        "/auth/login": () => Response.json({ detail: "Please verify your email first", code: "email_not_verified" }, { status: 403 }),
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
    mockFetch({
      "/api/v1/universities/": universities,
      "/api/v1/auth/config": { google_client_id: null },
      "/api/v1/subleases/": { data: [], pagination: { next_token: null, has_more: false } },
    });
    welcomeDestination(makeUser({ first_name: "Nia", university_id: 7, preferred_university_id: 7, university: "University of Florida" }));
    const { router } = renderApp("/", { token: "tok", user: makeUser({ first_name: "Nia" }) });
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe("/?university=7"));
    expect(await screen.findByText("Welcome to CampusNest, Nia! Showing listings near University of Florida.")).toBeInTheDocument();
  });
});
