/** Saved searches (docs/decisions/020): Save this search (browse), the profile's Saved searches, the unsubscribe page. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { SavedSearch } from "@contract/saved-searches";
import { type ApiCall, callsOf, fakeApi, makeOwnerListing, makeUser, notFound, renderApp, dealPartsRoutes } from "../render";

const universities = { data: [{ id: 7, name: "University of Florida", abbreviation: "UF" }] };
const browse = { data: [makeOwnerListing({ id: "l9", title: "Sunny room" })], pagination: { next_token: null, has_more: false } };

const search = (overrides: Partial<SavedSearch> = {}): SavedSearch => ({
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

describe("Save this search on browse", () => {
  it("shows only while a filter is active", async () => {
    fakeApi({ ...dealPartsRoutes(), "GET /api/v1/favorites": notFound, "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": browse });
    const first = renderApp("/?sort=price_asc", { token: "t", user: makeUser() });
    await screen.findByText("Sunny room");
    expect(screen.queryByRole("button", { name: "Save this search" })).toBeNull();
    first.unmount();
    renderApp("/?term=fall", { token: "t", user: makeUser() });
    expect(await screen.findByRole("button", { name: "Save this search" })).toBeInTheDocument();
  });

  it("signed in: a dialog named from the filters saves the canonical query and frequency, then a toast links to the profile", async () => {
    const calls = fakeApi({ ...dealPartsRoutes(), "GET /api/v1/favorites": notFound, "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": browse, "POST /api/v1/saved-searches/": ({ body }: ApiCall) => Response.json({ data: search({ name: String((body as { name: string }).name) }) }, { status: 201 }) });
    const ui = userEvent.setup();
    const { router } = renderApp("/?university=7&term=fall&max=900", { token: "t", user: makeUser() });
    await ui.click(await screen.findByRole("button", { name: "Save this search" }));
    const dialog = await screen.findByRole("dialog", { name: "Save this search" });
    const name = within(dialog).getByLabelText("Name");
    await waitFor(() => expect(name).toHaveValue("UF · Fall · Up to $900"));
    expect(within(dialog).getByRole("radio", { name: /First match of the day/ })).toBeChecked();
    await ui.click(within(dialog).getByRole("radio", { name: /Daily digest/ }));
    await ui.clear(name);
    await ui.type(name, "Cheap fall");
    await ui.click(within(dialog).getByRole("button", { name: "Save search" }));

    await waitFor(() => expect(callsOf(calls, "POST /api/v1/saved-searches/")).toHaveLength(1));
    expect(callsOf(calls, "POST /api/v1/saved-searches/")[0]?.body).toEqual({ name: "Cheap fall", query: "max=900&term=fall&university=7", alert_frequency: "daily" });
    expect(await screen.findByText("Search saved")).toBeInTheDocument();
    expect(screen.queryByRole("dialog", { name: "Save this search" })).toBeNull();
    const link = screen.getByRole("link", { name: "See saved searches" });
    expect(link).toHaveAttribute("href", "/profile");
    await ui.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe("/profile"));
  });

  it("shows the server's reason when it refuses (the cap)", async () => {
    fakeApi({ ...dealPartsRoutes(), "GET /api/v1/favorites": notFound, "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": browse, "POST /api/v1/saved-searches/": () => Response.json({ detail: "You can save up to 20 searches. Delete one in your profile to save another." }, { status: 409 }) });
    const ui = userEvent.setup();
    renderApp("/?term=spring", { token: "t", user: makeUser() });
    await ui.click(await screen.findByRole("button", { name: "Save this search" }));
    const dialog = await screen.findByRole("dialog", { name: "Save this search" });
    await ui.click(within(dialog).getByRole("button", { name: "Save search" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("You can save up to 20 searches.");
  });

  it("a visitor is asked to sign in, and the dialog opens after signing in, without the prompt toast over it", async () => {
    fakeApi({ ...dealPartsRoutes(), "GET /api/v1/favorites": notFound, "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": browse, "GET /api/v1/auth/config": { google_client_id: null }, "POST /api/v1/auth/login": () => Response.json({ access_token: "tok", refresh_token: "r", token_type: "bearer", user: makeUser() }) });
    const ui = userEvent.setup();
    const { router } = renderApp("/?term=fall");
    await ui.click(await screen.findByRole("button", { name: "Save this search" }));
    expect(await screen.findByText("Please log in to save searches")).toBeInTheDocument();
    const signIn = await screen.findByRole("dialog", { name: "Sign in" });
    await ui.type(within(signIn).getByLabelText("Email"), "maya@ufl.edu");
    await ui.type(within(signIn).getByLabelText("Password"), "secret1");
    await ui.click(within(signIn).getByRole("button", { name: "Sign In" }));
    expect(await screen.findByRole("dialog", { name: "Save this search" })).toBeInTheDocument();
    // The prompt toast goes once the sign-in succeeds, not over the dialog.
    expect(screen.queryByText("Please log in to save searches")).toBeNull();
    expect(router.state.location.pathname + router.state.location.search).toBe("/?term=fall");
  });
});

describe("the profile's saved searches", () => {
  const profile = (searches: SavedSearch[]) => ({
    "GET /api/v1/universities/": universities,
    "GET /api/v1/users/profile": { data: makeUser() },
    "GET /api/v1/users/listings": { data: [] },
    "GET /api/v1/saved-searches/": { data: searches },
  });

  it("says how to save one when there are none", async () => {
    fakeApi({ ...dealPartsRoutes(), ...profile([]), "GET /api/v1/users/blocks": notFound });
    renderApp("/profile", { token: "t", user: makeUser() });
    expect(await screen.findByText(/No saved searches yet/)).toBeInTheDocument();
  });

  it("lists name, filters, frequency and Paused; Open, Rename, Pause/Resume and Delete (after confirming) do what they say", async () => {
    const calls = fakeApi({ ...dealPartsRoutes(), "GET /api/v1/users/blocks": notFound, ...profile([search(), search({ id: "s2", name: "Pets ok", query: "pets=true", paused: true, paused_at: "2026-11-02T00:00:00.000Z", alert_frequency: "daily" })]), "PATCH /api/v1/saved-searches/s1": ({ body }: ApiCall) => Response.json({ data: search({ ...(body as Partial<SavedSearch>) }) }),
      "PATCH /api/v1/saved-searches/s2": () => Response.json({ data: search({ id: "s2", name: "Pets ok", query: "pets=true" }) }),
      "DELETE /api/v1/saved-searches/s1": () => new Response(null, { status: 204 }) });
    const ui = userEvent.setup();
    renderApp("/profile", { token: "t", user: makeUser() });
    const section = (await screen.findByRole("heading", { name: "Saved searches" })).closest("section")!;
    const row = async (name: string) => (await within(section).findByText(name)).closest("li")!;

    const first = await row("UF fall");
    await waitFor(() => expect(first).toHaveTextContent("UF · Fall · Up to $900"));
    expect(within(first).queryByText("Paused")).toBeNull();
    expect(within(first).getByRole("combobox", { name: "How alerts for UF fall arrive" })).toHaveValue("instant");
    expect(within(first).getByRole("link", { name: "Open UF fall" })).toHaveAttribute("href", "/?max=900&term=fall&university=7");
    const second = await row("Pets ok");
    expect(within(second).getByText("Paused")).toBeInTheDocument();
    expect(within(second).getByRole("combobox", { name: "How alerts for Pets ok arrive" })).toHaveValue("daily");

    await ui.click(within(first).getByRole("button", { name: "Pause alerts for UF fall" }));
    await waitFor(() => expect(callsOf(calls, "PATCH /api/v1/saved-searches/s1")).toHaveLength(1));
    expect(callsOf(calls, "PATCH /api/v1/saved-searches/s1")[0]?.body).toEqual({ paused: true });
    await ui.click(within(second).getByRole("button", { name: "Resume alerts for Pets ok" }));
    await waitFor(() => expect(callsOf(calls, "PATCH /api/v1/saved-searches/s2")).toHaveLength(1));
    expect(callsOf(calls, "PATCH /api/v1/saved-searches/s2")[0]?.body).toEqual({ paused: false });

    await ui.click(within(first).getByRole("button", { name: "Rename UF fall" }));
    const rename = await screen.findByRole("dialog", { name: "Rename saved search" });
    await ui.clear(within(rename).getByLabelText("Name"));
    await ui.type(within(rename).getByLabelText("Name"), "Fall near campus");
    await ui.click(within(rename).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(callsOf(calls, "PATCH /api/v1/saved-searches/s1")).toHaveLength(2));
    expect(callsOf(calls, "PATCH /api/v1/saved-searches/s1")[1]?.body).toEqual({ name: "Fall near campus" });

    await ui.click(within(first).getByRole("button", { name: /^Delete / }));
    const confirm = await screen.findByRole("alertdialog", { name: "Delete saved search?" });
    expect(callsOf(calls, "DELETE /api/v1/saved-searches/s1")).toHaveLength(0);
    await ui.click(within(confirm).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(callsOf(calls, "DELETE /api/v1/saved-searches/s1")).toHaveLength(1));
  });

  it("has the Saved search alerts toggle beside the other email toggles", async () => {
    const user = makeUser();
    const calls = fakeApi({ ...dealPartsRoutes(), "GET /api/v1/users/blocks": notFound, ...profile([]), "PATCH /api/v1/users/notifications": () => Response.json({ data: { ...user.notification_settings, email_on_saved_search: false } }) });
    const ui = userEvent.setup();
    renderApp("/profile", { token: "t", user });
    const toggle = await screen.findByRole("checkbox", { name: /Saved search alerts/ });
    expect(toggle).toBeChecked();
    await ui.click(toggle);
    await waitFor(() => expect(toggle).not.toBeChecked());
    expect(callsOf(calls, "PATCH /api/v1/users/notifications")[0]?.body).toEqual({ email_on_saved_search: false });
  });

  it("leaves out the filter line when the name already says it", async () => {
    fakeApi({ ...dealPartsRoutes(), "GET /api/v1/users/blocks": notFound,
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

describe("the unsubscribe page", () => {
  it("changes nothing on load; Stop alerts pauses, Undo resumes, without signing in", async () => {
    const calls = fakeApi({ ...dealPartsRoutes(), "GET /api/v1/universities/": universities, "POST /api/v1/saved-searches/link": () => Response.json({ name: "Harbor", paused: false }),
        "POST /api/v1/saved-searches/unsubscribe": () => Response.json({ name: "Harbor", paused: true }),
        "POST /api/v1/saved-searches/resubscribe": () => Response.json({ name: "Harbor", paused: false }) });
    const ui = userEvent.setup();
    renderApp("/unsubscribe?token=tok-1");
    // The page names the search before anything changes.
    expect(await screen.findByText(/Stop the emails about new listings for “Harbor”\?/)).toBeInTheDocument();
    expect(callsOf(calls, "POST /api/v1/saved-searches/link")[0]?.body).toEqual({ token: "tok-1" });
    const stop = screen.getByRole("button", { name: "Stop alerts" });
    expect(callsOf(calls, "POST /api/v1/saved-searches/unsubscribe")).toHaveLength(0);
    await ui.click(stop);
    const done = await screen.findByText("Alerts for “Harbor” are off.");
    // Focus follows the answer (it was on the button, which is gone).
    await waitFor(() => expect(done).toHaveFocus());
    const [unsub] = callsOf(calls, "POST /api/v1/saved-searches/unsubscribe");
    expect(unsub?.body).toEqual({ token: "tok-1" });
    expect(unsub!.headers.get("Authorization")).toBeNull();
    await ui.click(screen.getByRole("button", { name: "Undo" }));
    expect(await screen.findByText("Alerts for “Harbor” are back on.")).toBeInTheDocument();
    expect(callsOf(calls, "POST /api/v1/saved-searches/resubscribe")[0]?.body).toEqual({ token: "tok-1" });
  });

  it("a refused link says why at once and offers the profile; a missing token needs no request", async () => {
    const calls = fakeApi({ ...dealPartsRoutes(), "GET /api/v1/universities/": universities, "POST /api/v1/saved-searches/link": () => Response.json({ detail: "This unsubscribe link is not valid. Sign in and pause the alerts from your profile." }, { status: 400 }) });
    const first = renderApp("/unsubscribe?token=bad");
    expect((await screen.findByText(/This unsubscribe link is not valid/)).closest("[role=alert]")).not.toBeNull();
    expect(screen.queryByRole("button", { name: "Stop alerts" })).toBeNull();
    expect(callsOf(calls, "POST /api/v1/saved-searches/unsubscribe")).toHaveLength(0);
    expect(screen.getByRole("link", { name: "Manage saved searches" })).toHaveAttribute("href", "/profile");
    first.unmount();
    renderApp("/unsubscribe");
    expect(await screen.findByText(/This unsubscribe link is not valid/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Stop alerts" })).toBeNull();
  });

  it("a search whose alerts are already off says so and offers the profile", async () => {
    fakeApi({ ...dealPartsRoutes(), "GET /api/v1/universities/": universities, "POST /api/v1/saved-searches/link": () => Response.json({ name: "Harbor", paused: true }) });
    renderApp("/unsubscribe?token=tok-1");
    expect(await screen.findByText(/Alerts for “Harbor” are already off/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Stop alerts" })).toBeNull();
    expect(screen.getByRole("link", { name: "Manage saved searches" })).toHaveAttribute("href", "/profile");
  });
});
