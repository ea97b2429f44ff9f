/**
 * Issue 13, item 3 in the browser: a renter reports a listing as a scam, staff suspend its lister from
 * the Reports tab, the listing leaves browse and its page, and the lister cannot sign in. The lister
 * is made for this test (demo accounts other tests use are never suspended).
 */
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useBrowser } from "./fixtures";
import { apiCall, createPendingListing, newStudent, signInAdmin, signInContext, type AuthSession } from "./session";

const b = useBrowser({ width: 1280, height: 900 });
const PASSWORD = "report-pass-123";


/** A lister verified by staff with one approved listing; its id. */
async function approvedListing(lister: AuthSession, adminToken: string, title: string): Promise<string> {
  const staff = { Authorization: `Bearer ${adminToken}` };
  await apiCall(b.baseUrl, `admin/users/${lister.user.id}/verify`, { method: "PATCH", headers: staff, body: JSON.stringify({ verification_status: "verified" }) });
  const id = await createPendingListing(b.baseUrl, lister, title, { universityId: 49, description: "Deposit by wire before viewing" });
  await apiCall(b.baseUrl, `admin/listings/${id}/verify`, { method: "PATCH", headers: staff, body: JSON.stringify({ status: "approved" }) });
  return id;
}

async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await b.browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: b.baseUrl });
  return { context, page: await context.newPage() };
}

const browseIds = async (q: string) =>
  // The database's answer, not the edge cache's: visitors' cached browse pages follow within 90 s (decision 016).
  (await apiCall<{ data: { id: string }[] }>(b.baseUrl, `subleases/?q=${encodeURIComponent(q)}&limit=100`, { headers: { "Cache-Control": "no-cache" } })).data.map((l) => l.id);

describe("reports and suspension", () => {
  it("a scam report reaches staff, who suspend the lister: the listing leaves browse and the lister cannot sign in", { timeout: 120_000 }, async () => {
    const adminToken = await signInAdmin(b.context, b.baseUrl);
    const lister = await newStudent(b.baseUrl, "Lenny", PASSWORD);
    const renter = await newStudent(b.baseUrl, "Rita", PASSWORD);
    const title = `Scam flat ${Date.now() % 100000}`;
    const listingId = await approvedListing(lister, adminToken, title);
    expect(await browseIds(title)).toContain(listingId);

    // The renter reports the listing.
    const renterSide = await newPage();
    try {
      await signInContext(renterSide.context, renter);
      const rp = renterSide.page;
      await rp.goto(`/listing/${listingId}`);
      await rp.getByRole("heading", { level: 1, name: title }).waitFor();
      await rp.getByRole("button", { name: "Report listing" }).click();
      const dialog = rp.getByRole("dialog", { name: "Report listing" });
      await dialog.getByRole("radio", { name: "Scam or fraud" }).check();
      await dialog.getByLabel("Details (optional)").fill("Asked for a deposit by Zelle before the viewing");
      await dialog.getByRole("button", { name: "Send report" }).click();
      await rp.getByText("Thanks — our team will review this report.").waitFor();
      await dialog.waitFor({ state: "detached" });
    } finally {
      await renterSide.context.close();
    }

    // Staff see it under Reports and suspend the lister.
    const { page } = b;
    await page.goto("/staff");
    await page.getByRole("tab", { name: "Reports" }).click();
    await page.getByRole("tab", { name: "Open" }).waitFor();
    const card = page.getByRole("listitem", { name: "Report: Scam or fraud" }).filter({ hasText: title });
    await card.getByText("Asked for a deposit by Zelle before the viewing").waitFor();
    await card.getByRole("button", { name: "Suspend user" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Suspend Lenny Tester?" });
    await confirm.getByRole("button", { name: "Suspend" }).click();
    await page.getByText("User suspended.").waitFor();
    await card.waitFor({ state: "detached" });
    await page.getByRole("tab", { name: "Resolved" }).click();
    await page.getByRole("listitem", { name: "Report: Scam or fraud" }).filter({ hasText: title }).getByText("User suspended").waitFor();

    // The listing is gone from browse and from its page.
    expect(await browseIds(title)).not.toContain(listingId);
    const visitor = await newPage();
    try {
      await visitor.page.goto(`/listing/${listingId}`);
      await visitor.page.getByText("This listing may have been taken down or is waiting for review.").waitFor();

      // The suspended lister's sign-in says why.
      await visitor.page.goto("/support");
      await visitor.page.getByRole("button", { name: "Sign In" }).click();
      const signIn = visitor.page.getByRole("dialog", { name: "Sign in" });
      await signIn.getByLabel("Email").fill(lister.email);
      await signIn.getByLabel("Password").fill(PASSWORD);
      await signIn.getByRole("button", { name: "Sign In" }).click();
      await signIn.getByText("Your account is suspended. Contact support.").waitFor();
    } finally {
      await visitor.context.close();
    }

    // Their old access token is refused with the same words.
    const res = await fetch(`${b.baseUrl}/api/v1/users/profile`, { headers: { Authorization: `Bearer ${lister.access_token}` } });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ detail: "Your account is suspended. Contact support." });
    expect(b.errors.filter((e) => !/status of 40[34]/.test(e))).toEqual([]);
  });
});

describe("blocks", () => {
  it("the blocker's list drops the conversation, the blocked sender is told, and Unblock on the profile brings it back", { timeout: 90_000 }, async () => {
    const blocker = await newStudent(b.baseUrl, "Bea", PASSWORD);
    const blocked = await newStudent(b.baseUrl, "Bob", PASSWORD);
    const conversation = await apiCall<{ data: { id: string } }>(b.baseUrl, "messages/conversations", {
      method: "POST",
      headers: { Authorization: `Bearer ${blocked.access_token}` },
      body: JSON.stringify({ participant_id: blocker.user.id }),
    });
    await apiCall(b.baseUrl, `messages/conversations/${conversation.data.id}/send`, {
      method: "POST",
      headers: { Authorization: `Bearer ${blocked.access_token}` },
      body: JSON.stringify({ text: "Send the deposit by Zelle today" }),
    });

    const { page, context } = b;
    await signInContext(context, blocker);
    await page.goto(`/messages?conversation=${conversation.data.id}`);
    await page.getByRole("heading", { name: "Bob Tester" }).waitFor();
    await page.getByRole("button", { name: "Block" }).click();
    await page.getByRole("alertdialog", { name: "Block Bob Tester?" }).getByRole("button", { name: "Block" }).click();
    await page.getByText("You blocked Bob Tester.").waitFor();
    await page.getByRole("heading", { name: "Bob Tester" }).waitFor({ state: "detached" });
    await page.locator(".conversation-item", { hasText: "Bob Tester" }).waitFor({ state: "detached" });

    // Reopened by its link, the blocker sees whom they blocked, with Unblock and no composer.
    await page.goto(`/messages?conversation=${conversation.data.id}`);
    await page.getByRole("heading", { name: "Bob Tester" }).waitFor();
    await page.getByText("You blocked Bob Tester").waitFor();
    await page.getByRole("button", { name: "Unblock", exact: true }).waitFor();
    expect(await page.getByRole("textbox", { name: "Message to Bob Tester" }).count()).toBe(0);

    // The blocked person is told they cannot send, without the reason, and has no composer.
    const blockedSide = await newPage();
    try {
      await signInContext(blockedSide.context, blocked);
      const bp = blockedSide.page;
      await bp.goto(`/messages?conversation=${conversation.data.id}`);
      await bp.getByText("You can't send messages in this conversation.").waitFor();
      expect(await bp.getByRole("textbox", { name: "Message to Bea Tester" }).count()).toBe(0);
      expect(await bp.getByText(/blocked/i).count()).toBe(0);
    } finally {
      await blockedSide.context.close();
    }

    await page.goto("/profile");
    const section = page.locator("section", { has: page.getByRole("heading", { name: "Blocked users" }) });
    await section.getByRole("button", { name: "Unblock Bob Tester" }).click();
    await section.getByText("You have not blocked anyone.").waitFor();
    await page.goto("/messages");
    await page.locator(".conversation-item", { hasText: "Bob Tester" }).waitFor();
  });
});
