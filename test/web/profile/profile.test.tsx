import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { OwnerListing } from "@contract/listings";
import type { PrivateUser } from "@contract/users";
import { authStore } from "../../../web/lib/auth-store";
import { callsOf, fakeApi, makeOwnerListing, makeUser, notFound, renderApp, reply, dealPartsRoutes, type ApiCall } from "../render";

const ownListing = (id: string, overrides: Partial<OwnerListing> = {}) =>
  makeOwnerListing({ id, user_id: "u1", title: `My room ${id}`, user_first_name: "Maya", user_last_name: "Lopez", ...overrides });

const universities = { data: [{ id: 1, name: "University of Florida", abbreviation: "UF" }] };

/** The live line beside the notification switches. */
const toggleStatus = () => within(screen.getByRole("group", { name: "Email notifications" })).getByRole("status");

function profileRoutes(user: PrivateUser, listings: OwnerListing[] = []) {
  return {
    ...dealPartsRoutes(),
    "GET /api/v1/universities/": universities,
    "GET /api/v1/users/profile": { data: user },
    "GET /api/v1/users/listings": { data: listings },
    // The profile's other sections, empty here.
    "GET /api/v1/saved-searches/": notFound,
    "GET /api/v1/users/blocks": notFound,
  };
}

describe("profile page", () => {
  it("names each own listing's one state and offers only the actions valid in it", async () => {
    const user = makeUser({ id_verification_status: "verified" });
    fakeApi({ ...dealPartsRoutes(),
      ...(profileRoutes(user, [
        ownListing("a"),
        ownListing("p", { verification_status: "pending" }),
        ownListing("m", { verification_status: "pending", review_reason: "Photos match another listing" }),
        ownListing("t", { status: "taken" }),
        ownListing("h", { status: "hidden" }),
        ownListing("r", { verification_status: "rejected", rejection_reason: "Photos do not show the room" }),
      ])),
    "GET /api/v1/saved-searches/": notFound, "GET /api/v1/users/blocks": notFound });
    const ui = userEvent.setup();
    renderApp("/profile", { token: "t", user });
    const item = async (id: string) => (await screen.findByRole("link", { name: `My room ${id}` })).closest("li")!;
    const actions = (row: HTMLElement) => within(row).getAllByRole("button").concat(within(row).getAllByRole("link")).map((el) => el.textContent);

    // The list loads once; under a loaded test run that can take longer than findBy's default second.
    await screen.findByRole("link", { name: "My room p" });
    const pending = await item("p");
    expect(pending).toHaveTextContent("Pending review");
    expect(pending).not.toHaveTextContent("Available");
    expect(pending).not.toHaveTextContent("Photos match");
    // Back in review by the photo check: the owner reads why, never whose photos.
    expect(await item("m")).toHaveTextContent("Pending reviewPhotos match another listing: staff will check them.");
    expect(within(pending).queryByRole("button", { name: "Mark taken" })).toBeNull();
    expect(actions(await item("a"))).toEqual(expect.arrayContaining(["Mark taken", "Promote"]));
    expect(await item("a")).toHaveTextContent("Live");
    expect(await item("t")).toHaveTextContent("Taken");
    expect(within(await item("t")).getByRole("button", { name: "Mark available" })).toBeInTheDocument();
    expect(await item("h")).toHaveTextContent("Paused");

    const rejected = await item("r");
    expect(within(rejected).queryByRole("button", { name: /Mark/ })).toBeNull();
    await ui.click(within(rejected).getByRole("button", { name: "Rejected - see why" }));
    const dialog = screen.getByRole("dialog", { name: "Why this listing was rejected" });
    expect(within(dialog).getByText("Photos do not show the room")).toBeInTheDocument();
  });

  it("shows the verify prompt only to users who are not identity-verified (isIdVerified)", async () => {
    const unverified = makeUser({ id_verification_status: "unverified" });
    fakeApi({ ...dealPartsRoutes(), ...profileRoutes(unverified) });
    renderApp("/profile", { token: "t", user: unverified });
    expect(await screen.findByRole("link", { name: "Get verified" })).toHaveAttribute("href", "/verification");
    expect(screen.getByRole("link", { name: "Verify to post" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "New listing" })).toBeNull();
  });

  it("a verified user gets New listing and no verify prompt; a pending one is told it awaits review", async () => {
    const verified = makeUser({ id_verification_status: "verified" });
    fakeApi({ ...dealPartsRoutes(), ...profileRoutes(verified) });
    const first = renderApp("/profile", { token: "t", user: verified });
    expect(await screen.findByRole("button", { name: "New listing" })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Get verified" })).toBeNull();
    first.unmount();

    const pending = makeUser({ id_verification_status: "pending" });
    fakeApi(profileRoutes(pending));
    renderApp("/profile", { token: "t", user: pending });
    expect(await screen.findByText("Awaiting review")).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Get verified" })).toBeNull();
    expect(screen.getByRole("link", { name: "Verify to post" })).toBeInTheDocument();
  });

  it("a notification toggle sends only that setting and the session takes the server's answer", async () => {
    const user = makeUser();
    const calls = fakeApi({ ...dealPartsRoutes(),
      ...profileRoutes(user),
      "PATCH /api/v1/users/notifications": { data: { ...user.notification_settings, email_on_message: false } },
    });
    const ui = userEvent.setup();
    renderApp("/profile", { token: "t", user });
    const toggle = await screen.findByRole("checkbox", { name: "Email me when I get a new message" });
    expect(toggle).toBeChecked();
    await ui.click(toggle);
    await waitFor(() => expect(toggle).not.toBeChecked());
    const [patch] = callsOf(calls, "PATCH /api/v1/users/notifications");
    expect(patch!.body).toEqual({ email_on_message: false });
    expect(authStore.get()?.user.notification_settings.email_on_message).toBe(false);
    expect(JSON.parse(localStorage.getItem("user_data")!).notification_settings.email_on_message).toBe(false);
    // Said beside the switches, in a live region.
    expect(toggleStatus()).toHaveTextContent("Saved.");
  });

  it("edits the university in the same searchable picker as browse, starting at the student's own", async () => {
    const user = makeUser();
    fakeApi(profileRoutes(user));
    const ui = userEvent.setup();
    renderApp("/profile", { token: "t", user });
    const university = await screen.findByRole("combobox", { name: "University" });
    await waitFor(() => expect(university).toHaveValue("UF · University of Florida"));
    await ui.click(university);
    expect(await screen.findByRole("option", { name: "No university" })).toBeInTheDocument();
    expect(screen.getByRole("option", { name: "UF · University of Florida" })).toBeInTheDocument();
  });

  it("a verified student renaming themselves is told before saving that it restarts ID review; the phone alone is saved at once", async () => {
    const user = makeUser({ id_verification_status: "verified", first_name: "Dana", last_name: "Novák", phone: null });
    const calls = fakeApi({ ...profileRoutes(user), "PATCH /api/v1/users/profile": (req: ApiCall) => ({ data: { ...user, ...(req.body as object) } }) });
    const ui = userEvent.setup();
    renderApp("/profile", { token: "t", user });
    const last = await screen.findByRole("textbox", { name: "Last name" });
    await ui.clear(last);
    await ui.type(last, "Novak");
    await ui.click(screen.getByRole("button", { name: "Save changes" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Change your name and restart ID review?" });
    expect(dialog).toHaveTextContent("Your ID was checked for Dana Novák. Saving Dana Novak sends your identity back to review (24-48 hours)");
    expect(dialog).toHaveTextContent("you can't create listings or sign agreements");
    await ui.click(within(dialog).getByRole("button", { name: "Keep my name" }));
    expect(callsOf(calls, "PATCH /api/v1/users/profile")).toHaveLength(0);
    // The name typed stays in the box.
    expect(last).toHaveValue("Novak");
    await ui.click(screen.getByRole("button", { name: "Save changes" }));
    await ui.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Change name and restart review" }));
    await waitFor(() => expect(callsOf(calls, "PATCH /api/v1/users/profile")).toHaveLength(1));
    expect(callsOf(calls, "PATCH /api/v1/users/profile")[0]!.body).toMatchObject({ first_name: "Dana", last_name: "Novak" });

    // Not a rename (the name is now the one saved): no question.
    const phone = screen.getByRole("textbox", { name: "Phone (optional)" });
    await ui.type(phone, "3525550100");
    await ui.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(callsOf(calls, "PATCH /api/v1/users/profile")).toHaveLength(2));
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  it("a student not yet verified renames without the question", async () => {
    const user = makeUser({ id_verification_status: "unverified", first_name: "Dana" });
    const calls = fakeApi({ ...profileRoutes(user), "PATCH /api/v1/users/profile": (req: ApiCall) => ({ data: { ...user, ...(req.body as object) } }) });
    const ui = userEvent.setup();
    renderApp("/profile", { token: "t", user });
    const first = await screen.findByRole("textbox", { name: "First name" });
    await ui.clear(first);
    await ui.type(first, "Danielle");
    await ui.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(callsOf(calls, "PATCH /api/v1/users/profile")).toHaveLength(1));
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  it("a notification toggle the server refuses says so beside the switches and stays as it was", async () => {
    const user = makeUser();
    fakeApi({ ...profileRoutes(user), "PATCH /api/v1/users/notifications": reply({ detail: "Try again later" }, 503) });
    const ui = userEvent.setup();
    renderApp("/profile", { token: "t", user });
    const toggle = await screen.findByRole("checkbox", { name: "Email me when my identity review is done" });
    await ui.click(toggle);
    await waitFor(() => expect(toggleStatus()).toHaveTextContent(/^Not saved: /));
    expect(toggleStatus()).not.toHaveTextContent("Saved.");
    expect(toggle).toBeChecked();
  });

  it("Delete account names the account and its listings before, and says it was deleted after", async () => {
    const user = makeUser();
    const calls = fakeApi({ ...profileRoutes(user, [ownListing("a"), ownListing("b")]), "DELETE /api/v1/users/profile": () => new Response(null, { status: 204 }), "POST /api/v1/auth/logout": () => new Response(null, { status: 204 }), "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": { data: [], pagination: { next_token: null, has_more: false } } });
    const ui = userEvent.setup();
    const { router } = renderApp("/profile", { token: "t", user });
    await screen.findByRole("link", { name: "My room b" });
    await ui.click(screen.getByRole("button", { name: "Delete account" }));
    const dialog = screen.getByRole("alertdialog", { name: "Delete your account?" });
    expect(dialog).toHaveAccessibleDescription(/This deletes the account maya@ufl.edu for good: your profile, your 2 listings and their photos, your favourites and saved searches\./);
    const forever = within(dialog).getByRole("button", { name: "Delete forever" });
    expect(forever).toBeDisabled();
    await ui.type(within(dialog).getByRole("textbox"), "DELETE");
    await ui.click(forever);
    expect(await screen.findByText("Your account maya@ufl.edu was deleted, with its listings, photos and favourites.")).toBeInTheDocument();
    expect(callsOf(calls, "DELETE /api/v1/users/profile")).toHaveLength(1);
    expect(router.state.location.pathname).toBe("/");
    expect(authStore.get()).toBeNull();
  });

  it("deleting a listing refetches the own listings", async () => {
    const user = makeUser({ id_verification_status: "verified" });
    let deleted = false;
    const calls = fakeApi({ ...dealPartsRoutes(),
      ...profileRoutes(user, [ownListing("a")]),
      // The server then answers without it.
      "GET /api/v1/users/listings": () => ({ data: deleted ? [] : [ownListing("a")] }),
      "DELETE /api/v1/subleases/a": () => ((deleted = true), new Response(null, { status: 204 })),
    });
    const ui = userEvent.setup();
    renderApp("/profile", { token: "t", user });
    await screen.findByRole("link", { name: "My room a" });
    // Each action names its listing.
    expect(screen.getByRole("link", { name: "Edit My room a" })).toBeInTheDocument();
    await ui.click(screen.getByRole("button", { name: "Delete My room a" }));
    const dialog = screen.getByRole("alertdialog", { name: "Delete this listing?" });
    await ui.click(within(dialog).getByRole("button", { name: "Delete" }));
    expect(await screen.findByText("Listing deleted")).toBeInTheDocument();
    expect(await screen.findByText("You have no listings yet.")).toBeInTheDocument();
    expect(callsOf(calls, "DELETE /api/v1/subleases/a")).toHaveLength(1);
    expect(callsOf(calls, "GET /api/v1/users/listings").length).toBeGreaterThanOrEqual(2);
  });

  it("Mark taken and Delete of a promoted listing say, before the owner confirms, that its promotion stops renewing", async () => {
    const user = makeUser({ id_verification_status: "verified" });
    const renewing = { promoted: true, auto_renew: true, stripe_subscription_id: "sub_1", promotion_end: "2026-12-07T12:00:00.000Z" };
    const calls = fakeApi({ ...dealPartsRoutes(),
      ...profileRoutes(user, [ownListing("a", renewing), ownListing("b")]),
      "PATCH /api/v1/subleases/a": { data: ownListing("a", { ...renewing, status: "taken", auto_renew: false, stripe_subscription_id: null }) },
      "PATCH /api/v1/subleases/b": { data: ownListing("b", { status: "taken" }) },
    });
    const ui = userEvent.setup();
    renderApp("/profile", { token: "t", user });
    const row = (await screen.findByRole("link", { name: "My room a" })).closest("li")!;

    await ui.click(within(row).getByRole("button", { name: "Mark taken" }));
    const taken = screen.getByRole("dialog", { name: "Mark this listing taken?" });
    expect(taken).toHaveTextContent("Its weekly promotion will stop renewing and you will not be charged again. It stays promoted until Dec 7, 2026.");
    expect(taken).toHaveTextContent("Marking it available later does not restart the promotion.");
    expect(callsOf(calls, "PATCH /api/v1/subleases/a")).toHaveLength(0);
    await ui.click(within(taken).getByRole("button", { name: "Keep it available" }));
    expect(callsOf(calls, "PATCH /api/v1/subleases/a")).toHaveLength(0);

    await ui.click(within(row).getByRole("button", { name: "Mark taken" }));
    await ui.click(within(screen.getByRole("dialog", { name: "Mark this listing taken?" })).getByRole("button", { name: "Mark taken" }));
    await waitFor(() => expect(callsOf(calls, "PATCH /api/v1/subleases/a")).toHaveLength(1));
    expect(callsOf(calls, "PATCH /api/v1/subleases/a")[0]!.body).toEqual({ status: "taken" });

    await ui.click(within(row).getByRole("button", { name: /^Delete / }));
    const deleting = screen.getByRole("alertdialog", { name: "Delete this listing?" });
    expect(deleting).toHaveTextContent("Its weekly promotion will stop renewing and you will not be charged again. Its billing history stays on your Billing page.");
    await ui.click(within(deleting).getByRole("button", { name: "Cancel" }));

    // A listing without a renewing promotion is marked taken at once, and its delete says nothing of money.
    const plain = (await screen.findByRole("link", { name: "My room b" })).closest("li")!;
    await ui.click(within(plain).getByRole("button", { name: "Mark taken" }));
    expect(screen.queryByRole("dialog", { name: "Mark this listing taken?" })).toBeNull();
    await waitFor(() => expect(callsOf(calls, "PATCH /api/v1/subleases/b")).toHaveLength(1));
    await ui.click(within(plain).getByRole("button", { name: /^Delete / }));
    expect(screen.getByRole("alertdialog", { name: "Delete this listing?" })).not.toHaveTextContent("promotion");
  });
});
