/**
 * Fresh listings (issue 13): a listing whose owner is asked at 14 days and never answers is paused at
 * 21 (gone from browse, "Paused" on the owner's profile); the "Still available" link of the email,
 * opened without signing in, brings it back, and its card says "Availability confirmed today".
 */
import { describe, expect, it } from "vitest";
import { useBrowser } from "./fixtures";
import { apiCall, apiLogin, signInContext } from "./session";

const b = useBrowser({ width: 1280, height: 900 });
const DAY = 86_400_000;

interface OwnListing {
  id: string;
  title: string;
  verification_status: string;
  status: string;
  moderation_status: string;
  promoted: boolean;
}

// The database's answer, not the edge cache's: a visitor sees a cron's change within 90 s (decision 016).
const inBrowse = async (baseUrl: string, title: string, id: string) =>
  (await apiCall<{ data: { id: string }[] }>(baseUrl, `subleases/?limit=100&q=${encodeURIComponent(title)}`, { headers: { "Cache-Control": "no-cache" } })).data.some((l) => l.id === id);

describe("fresh listings", () => {
  it("asks at 14 days, pauses at 21, and one click from the email brings the listing back", { timeout: 90_000 }, async () => {
    const lister = await apiLogin(b.baseUrl, "lister@campusnest.dev", "lister-demo-123");
    const auth = { headers: { Authorization: `Bearer ${lister.access_token}` } };
    const own = await apiCall<{ data: OwnListing[] }>(b.baseUrl, "users/listings?include_unavailable=true", auth);
    // The oldest such listing: demoListingIds (used by files running at the same time) takes the newest.
    const listing = own.data.filter((l) => l.verification_status === "approved" && l.status === "available" && l.moderation_status === "visible" && !l.promoted).at(-1)!;
    expect(listing).toBeDefined();
    expect(await inBrowse(b.baseUrl, listing.title, listing.id)).toBe(true);

    // 14 days without a confirmation: the cron emails the owner once (a second run sends nothing more).
    await apiCall(b.baseUrl, `dev/listings/${listing.id}/age-availability`, { method: "POST", body: JSON.stringify({ days: 14 }) });
    await apiCall(b.baseUrl, "dev/housekeeping", { method: "POST", body: "{}" });
    await apiCall(b.baseUrl, "dev/housekeeping", { method: "POST", body: "{}" });
    const mailbox = await apiCall<{ data: { subject: string; text: string }[] }>(b.baseUrl, `dev/emails?to=${encodeURIComponent("lister@campusnest.dev")}`);
    const asked = mailbox.data.filter((m) => m.subject === `Is ${listing.title} still available?`);
    expect(asked).toHaveLength(1);
    const stillAvailable = new URL(/Still available: (\S+)/.exec(asked[0]!.text)![1]!);
    expect(/Taken: (\S+)/.test(asked[0]!.text)).toBe(true);

    // Seven more days without an answer: the next run pauses it.
    const paused = await apiCall<{ listingsPaused: number }>(b.baseUrl, "dev/housekeeping", {
      method: "POST",
      body: JSON.stringify({ at: new Date(Date.now() + 7 * DAY + 60_000).toISOString() }),
    });
    expect(paused.listingsPaused).toBeGreaterThanOrEqual(1);
    expect(await inBrowse(b.baseUrl, listing.title, listing.id)).toBe(false);

    // Its owner sees it paused, with Confirm availability.
    await signInContext(b.context, lister);
    const { page } = b;
    await page.goto("/profile");
    const row = page.locator("li", { has: page.getByRole("link", { name: listing.title, exact: true }) });
    await row.getByText("Paused: confirm it's still available").waitFor();
    await row.getByRole("button", { name: "Confirm availability" }).waitFor();

    // The email's link, opened in a browser that is not signed in, marks it still available on load.
    const visitor = await b.browser.newContext({ viewport: { width: 360, height: 800 }, baseURL: b.baseUrl });
    try {
      const mail = await visitor.newPage();
      // The token rides in the fragment (#token=), so it never reaches a request log.
      expect(stillAvailable.search).toBe("");
      await mail.goto(`${stillAvailable.pathname}${stillAvailable.hash}`);
      await mail.getByText(`Thanks! ${listing.title} is marked as still available.`).waitFor();
      await mail.getByRole("link", { name: "View the listing" }).click();
      await mail.waitForURL(new RegExp(`/listing/${listing.id}`));
      await mail.getByText("Availability confirmed today").waitFor();

      // Back in browse, its card says so.
      expect(await inBrowse(b.baseUrl, listing.title, listing.id)).toBe(true);
      await mail.goto(`/?q=${encodeURIComponent(listing.title)}`);
      const card = mail.locator("article.listing-card", { hasText: listing.title }).first();
      await card.getByText("Availability confirmed today").waitFor();
    } finally {
      await visitor.close();
    }

    // The profile follows: live again.
    await page.reload();
    await row.getByText("Live", { exact: true }).waitFor();
    expect(b.errors).toEqual([]);
  });

  it("an expired or tampered link says so plainly and offers the profile", { timeout: 30_000 }, async () => {
    const { page } = b;
    await page.goto("/availability#token=not-a-real-token");
    await page.getByText("This link has expired or is not valid.").waitFor();
    await page.getByRole("link", { name: "Sign in to your profile" }).click();
    await page.waitForURL(/\/profile/);
  });
});
