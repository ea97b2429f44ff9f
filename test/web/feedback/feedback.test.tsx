import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeApi, renderApp } from "../render";

const universities = { data: [{ id: 7, name: "University of Florida", abbreviation: "UF" }] };

describe("the feedback dialog", () => {
  it("the feedback message: kept whole, flagged, and not sent while too long", async () => {
    const calls = fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/auth/config": { google_client_id: null } });
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
