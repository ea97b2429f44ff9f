/**
 * Saved searches (issue 15, item 3): a student filters browse and saves the search; a lister's
 * matching listing is approved by staff; the alert is in the dev mailbox; its unsubscribe link,
 * opened in a browser that is not signed in, stops the alerts (and Undo brings them back).
 */
import { describe, expect, it } from "vitest";
import { useBrowser } from "./fixtures";
import { apiCall, apiLogin, createPendingListing, newStudent, signInContext } from "./session";

const b = useBrowser({ width: 1280, height: 900 });

interface Saved {
  id: string;
  name: string;
  query: string;
  paused: boolean;
}

describe("saved searches", () => {
  it("saves a filtered search, emails the student when a matching listing is approved, and the email's link stops the alerts", { timeout: 90_000 }, async () => {
    const word = `zq${Date.now().toString(36)}`;
    const student = await newStudent(b.baseUrl, "Sasha");
    await signInContext(b.context, student);
    const { page } = b;

    // Filter browse (a term, then words through the search box) and save it.
    await page.goto("/?term=summer");
    await page.getByRole("searchbox", { name: "Search listings" }).fill(word);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.waitForURL(new RegExp(`q=${word}`));
    await page.getByRole("button", { name: "Save this search" }).click();
    const dialog = page.getByRole("dialog", { name: "Save this search" });
    const name = dialog.getByLabel("Name");
    await expect.poll(() => name.inputValue()).toBe(`Summer · “${word}”`);
    await name.fill(`Summer ${word}`);
    await dialog.getByRole("radio", { name: /First match of the day/ }).check();
    await dialog.getByRole("button", { name: "Save search" }).click();
    await page.getByText("Search saved").waitFor();
    await page.getByRole("link", { name: "See saved searches" }).click();
    await page.waitForURL(/\/profile$/);
    const row = page.locator("li.saved-search", { hasText: `Summer ${word}` });
    await row.getByText(`Summer · “${word}”`).waitFor();
    const auth = { headers: { Authorization: `Bearer ${student.access_token}` } };
    const [saved] = (await apiCall<{ data: Saved[] }>(b.baseUrl, "saved-searches/", auth)).data;
    expect(saved).toMatchObject({ name: `Summer ${word}`, query: `q=${word}&term=summer`, paused: false });

    // A lister's matching listing (summer, the word in its title) is approved by staff.
    const lister = await apiLogin(b.baseUrl, "lister@campusnest.dev", "lister-demo-123");
    const title = `Sunny summer room ${word}`;
    const listingId = await createPendingListing(b.baseUrl, lister, title);
    const { token } = await apiCall<{ token: string }>(b.baseUrl, "admin/login", { method: "POST", body: JSON.stringify({ password: "admin-dev-password" }) });
    await apiCall(b.baseUrl, `admin/listings/${listingId}/verify`, {
      method: "PATCH",
      headers: { Authorization: `Bearer ${token}` },
      body: JSON.stringify({ status: "approved" }),
    });

    // The alert is in the dev mailbox: the listing, its rent and link, the search, the unsubscribe link.
    const mailbox = await apiCall<{ data: { subject: string; text: string }[] }>(b.baseUrl, `dev/emails?to=${encodeURIComponent(student.email)}`);
    const alerts = mailbox.data.filter((m) => m.subject === `New listing for "Summer ${word}"`);
    expect(alerts).toHaveLength(1);
    const text = alerts[0]!.text;
    // The listing's street and area follow the rent, never its house number (docs/decisions/024).
    expect(text).toMatch(new RegExp(`${title} \\(\\$640/month · [^\\d)][^)]*\\): `));
    expect(text).toContain(`/listing/${listingId}`);
    // Links carry PUBLIC_BASE_URL (the dev server's own address), so only their path is checked.
    expect(text).toMatch(new RegExp(`Open your search: \\S+/\\?q=${word}&term=summer\n`));
    const unsubscribe = new URL(/Unsubscribe from this search: (\S+)/.exec(text)![1]!);

    // The link, opened on a phone that is not signed in: nothing happens until Stop alerts.
    const visitor = await b.browser.newContext({ viewport: { width: 360, height: 800 }, baseURL: b.baseUrl });
    try {
      const mail = await visitor.newPage();
      await mail.goto(`${unsubscribe.pathname}${unsubscribe.search}`);
      await mail.getByRole("button", { name: "Stop alerts" }).waitFor();
      expect((await apiCall<{ data: Saved[] }>(b.baseUrl, "saved-searches/", auth)).data[0]!.paused).toBe(false);
      await mail.getByRole("button", { name: "Stop alerts" }).click();
      await mail.getByText(`Alerts for “Summer ${word}” are off.`).waitFor();
      expect((await apiCall<{ data: Saved[] }>(b.baseUrl, "saved-searches/", auth)).data[0]!.paused).toBe(true);
      await mail.getByRole("button", { name: "Undo" }).click();
      await mail.getByText(`Alerts for “Summer ${word}” are back on.`).waitFor();
      expect((await apiCall<{ data: Saved[] }>(b.baseUrl, "saved-searches/", auth)).data[0]!.paused).toBe(false);
      await mail.getByRole("button", { name: "Stop alerts" }).click();
      await mail.getByText(`Alerts for “Summer ${word}” are off.`).waitFor();
    } finally {
      await visitor.close();
    }

    // The profile shows it paused.
    await page.reload();
    await row.getByText("Paused", { exact: true }).waitFor();
    expect(b.errors).toEqual([]);
  });
});
