import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Conversation } from "@contract/messages";
import type { PublicUser } from "@contract/users";
import { OWN_SCHOOL_EMAIL_EXPLAINED, SCHOOL_EMAIL_EXPLAINED } from "../../../web/components/ui/school-email-badge";
import { TRUST_EXPLAINED } from "../../../web/components/ui/trust-checks";
import { callsOf, dealPartsRoutes, fakeApi, IdleWebSocket, makeOwnerListing, makeUser, notFound, renderApp, reply } from "../render";

const owner = (school_email_domain: string | null, more: Partial<PublicUser> = {}): PublicUser => ({
  id: "owner-1",
  first_name: "Jordan",
  last_name: "Kim",
  avatar_url: null,
  university: "UF",
  created_at: "2026-01-15T00:00:00Z",
  id_verified: false,
  school_email_domain,
  response_time: null,
  ...more,
});

// The thread opens real-time rooms; these tests only read its header.
beforeEach(() => vi.stubGlobal("WebSocket", IdleWebSocket));

/** The profile page's other reads (universities, saved searches, blocks, deals): none here. */
const profileRoutes = {
  ...dealPartsRoutes(),
  "GET /api/v1/universities/": { data: [] },
  "GET /api/v1/saved-searches/": notFound,
  "GET /api/v1/users/blocks": notFound,
};

describe("school email in the profile", () => {
  it("sends a code to the school address, confirms it, and shows the badge", async () => {
    let user = makeUser();
    const calls = fakeApi({
      ...profileRoutes,
      "GET /api/v1/users/listings": { data: [] },
      "GET /api/v1/users/profile": () => ({ data: user }),
      "POST /api/v1/users/school-email": { detail: "We sent a 6-digit code to your school email." },
      "POST /api/v1/users/school-email/verify": () => {
        user = makeUser({ school_email: "maya@ufl.edu", school_email_domain: "ufl.edu", school_email_verified_at: "2026-11-28T07:00:00.000Z" });
        return { data: { domain: "ufl.edu", verified_at: "2026-11-28T07:00:00.000Z" } };
      },
    });
    const ui = userEvent.setup();
    renderApp("/profile", { token: "t", user });
    const section = (await screen.findByRole("heading", { name: "School email" })).closest("section")!;
    expect(within(section).queryByText(/School email verified/)).toBeNull();
    await ui.type(within(section).getByLabelText("School email address"), "maya@ufl.edu");
    await ui.click(within(section).getByRole("button", { name: "Send code" }));
    expect(callsOf(calls, "POST /api/v1/users/school-email")[0]!.body).toEqual({ email: "maya@ufl.edu" });
    await ui.type(await within(section).findByLabelText("6-digit code sent to maya@ufl.edu"), "123456");
    await ui.click(within(section).getByRole("button", { name: "Confirm" }));
    await waitFor(() => expect(callsOf(calls, "POST /api/v1/users/school-email/verify")[0]!.body).toEqual({ code: "123456" }));
    expect((await screen.findAllByText("School email verified: ufl.edu")).length).toBeGreaterThan(0);
    // One's own badge speaks to one: "you", never "they".
    expect(section).toHaveTextContent(OWN_SCHOOL_EMAIL_EXPLAINED);
    expect(section).not.toHaveTextContent(/\bthey (confirmed|study)\b/i);
    for (const badge of screen.getAllByText("School email verified: ufl.edu", { selector: ".badge-school-email" })) expect(badge.getAttribute("title")).toMatch(/^You confirmed/);
  });

  it("shows the server's reason when the address is not a school's", async () => {
    const user = makeUser();
    fakeApi({
      ...profileRoutes,
      "GET /api/v1/users/listings": { data: [] },
      "GET /api/v1/users/profile": { data: user },
      "POST /api/v1/users/school-email": reply({ detail: "This is not a university email address we know." }, 422),
    });
    const ui = userEvent.setup();
    renderApp("/profile", { token: "t", user });
    const section = (await screen.findByRole("heading", { name: "School email" })).closest("section")!;
    await ui.type(within(section).getByLabelText("School email address"), "maya@gmail.com");
    await ui.click(within(section).getByRole("button", { name: "Send code" }));
    expect(await within(section).findByText("This is not a university email address we know.")).toBeInTheDocument();
    expect(within(section).queryByLabelText(/6-digit code/)).toBeNull();
  });

  it("asks to reconfirm a school email confirmed over a year ago", async () => {
    const user = makeUser({ school_email: "maya@ufl.edu", school_email_domain: null, school_email_verified_at: "2025-01-01T00:00:00.000Z" });
    fakeApi({ ...profileRoutes, "GET /api/v1/users/listings": { data: [] }, "GET /api/v1/users/profile": { data: user } });
    renderApp("/profile", { token: "t", user });
    expect(await screen.findByText(/confirmed over 365 days ago/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Send a new code" })).toBeInTheDocument();
    expect(screen.queryByText(/School email verified/)).toBeNull();
  });
});

describe("the checks the other person passed, where a student decides", () => {
  const listingRoutes = (domain: string | null, more: Partial<PublicUser> = {}) => ({
    "GET /api/v1/subleases/l1": { data: makeOwnerListing({ id: "l1", title: "Sunny room", user_id: "owner-1", user_first_name: "Jordan" }) },
    "GET /api/v1/users/owner-1": { data: owner(domain, more) },
    "GET /api/v1/favorites": { favorites: [], pagination: { next_token: null, has_more: false } },
  });

  it("the listing's contact card shows the owner's school email domain, and nothing when there is none", async () => {
    fakeApi(listingRoutes("ufl.edu"));
    const { unmount } = renderApp("/listing/l1");
    const card = await screen.findByRole("complementary", { name: "Contact" });
    expect(await within(card).findByText("School email verified: ufl.edu")).toBeInTheDocument();
    unmount();
    fakeApi(listingRoutes(null));
    renderApp("/listing/l1");
    await within(await screen.findByRole("complementary", { name: "Contact" })).findByText(/Member since/);
    expect(screen.queryByText(/School email verified/)).toBeNull();
  });

  it("the contact card lists every check passed, each with what it proves and what it does not", async () => {
    fakeApi(listingRoutes("ufl.edu", { id_verified: true, response_time: "hours" }));
    renderApp("/listing/l1");
    const card = await screen.findByRole("complementary", { name: "Contact" });
    const checks = await within(card).findByRole("list", { name: "Checks they passed" });
    const items = within(checks).getAllByRole("listitem").map((li) => li.textContent);
    expect(items).toEqual([
      `ID verified${TRUST_EXPLAINED.id}`,
      `School email verified: ufl.edu${TRUST_EXPLAINED.school}`,
      `Member since January 2026${TRUST_EXPLAINED.member}`,
      `Usually replies within a few hours${TRUST_EXPLAINED.response}`,
    ]);
    // Each line says what the check does not prove.
    for (const why of Object.values(TRUST_EXPLAINED)) expect(why).toMatch(/\bnot\b/);
  });

  it("a check not passed is not listed", async () => {
    fakeApi(listingRoutes(null));
    renderApp("/listing/l1");
    const checks = await within(await screen.findByRole("complementary", { name: "Contact" })).findByRole("list", { name: "Checks they passed" });
    expect(within(checks).getAllByRole("listitem").map((li) => li.textContent)).toEqual([`Member since January 2026${TRUST_EXPLAINED.member}`]);
    expect(screen.queryByText("ID verified")).toBeNull();
    expect(screen.queryByText(/Usually replies/)).toBeNull();
  });

  it("the chat header shows the other person's school email domain", async () => {
    const conv: Conversation = {
      id: "c1",
      participant_id: "owner-1",
      participant_name: "Jordan Kim",
      participant_avatar: null,
      latest_message_preview: "Hi",
      last_message_timestamp: "2026-11-20T15:00:00.000Z",
      updated_at: "2026-11-20T15:00:00.000Z",
      unread_count: 0,
      listing_id: "l1",
      listing_title: "Sunny room",
      listing_photo: null,
    };
    fakeApi({
      ...dealPartsRoutes("l1"),
      "GET /api/v1/messages/conversations/enriched": { data: [conv], pagination: { next_token: null, has_more: false } },
      "GET /api/v1/messages/conversations/c1": { data: conv, reply: "open" },
      "GET /api/v1/messages/conversations/c1/messages": { messages: [], pagination: { next_token: null, has_more: false } },
      "POST /api/v1/messages/conversations/c1/read": { unread_count: 0 },
      "GET /api/v1/users/owner-1": { data: owner("ufl.edu", { id_verified: true, response_time: "day" }) },
    });
    renderApp("/messages?conversation=c1", { token: "t", user: makeUser() });
    const thread = (await screen.findByRole("heading", { level: 2, name: "Jordan Kim" })).closest("header")!;
    expect(await within(thread).findByText("School email verified: ufl.edu", { selector: "summary *" })).toHaveAttribute("title", SCHOOL_EMAIL_EXPLAINED);
    // The header keeps the checks on one line; what each proves is one click away.
    const summary = thread.querySelector("summary")!;
    expect(summary.textContent).toBe("ID verified · School email verified: ufl.edu · Member since January 2026 · Usually replies within a day");
    await userEvent.setup().click(summary);
    expect(summary.closest("details")!.open).toBe(true);
    const checks = within(thread).getByRole("list", { name: "Checks they passed" });
    expect(within(checks).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      `ID verified${TRUST_EXPLAINED.id}`,
      `School email verified: ufl.edu${TRUST_EXPLAINED.school}`,
      `Member since January 2026${TRUST_EXPLAINED.member}`,
      `Usually replies within a day${TRUST_EXPLAINED.response}`,
    ]);
    // It does not stay open over the conversation: Escape closes it (focus back on its summary), and so does a click elsewhere.
    await userEvent.setup().keyboard("{Escape}");
    expect(summary.closest("details")!.open).toBe(false);
    expect(summary).toHaveFocus();
    await userEvent.setup().click(summary);
    expect(summary.closest("details")!.open).toBe(true);
    await userEvent.setup().click(screen.getByRole("log"));
    expect(summary.closest("details")!.open).toBe(false);
  });
});
