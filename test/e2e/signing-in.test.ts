/**
 * Signing in from a locked page or action and coming back to it, in Chromium; sign-up to a filtered
 * browse with a welcome.
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { useBrowser } from "./fixtures";
import { apiCall, apiLogin, demoListingIds } from "./session";

const b = useBrowser({ width: 1280, height: 900 });
const LISTER = { email: "lister@campusnest.dev", password: "lister-demo-123" };
const STUDENT = { email: "student@campusnest.dev", password: "student-demo-123" };

let ownListingId: string;
beforeAll(async () => {
  ({ listerListing: ownListingId } = await demoListingIds(b.baseUrl));
});

/** The code in the newest email to `email`, once the dev mailbox has it. */
async function latestCode(email: string): Promise<string> {
  return vi.waitFor(
    async () => {
      const { data } = await apiCall<{ data: { text: string }[] }>(b.baseUrl, `dev/emails?to=${encodeURIComponent(email)}`);
      const code = /\b(\d{6})\b/.exec(data[0]?.text ?? "")?.[1];
      if (!code) throw new Error(`no code for ${email}`);
      return code;
    },
    { timeout: 5_000, interval: 100 },
  );
}

async function signInThroughPopup(page: Page, who: { email: string; password: string }) {
  const dialog = page.getByRole("dialog", { name: "Sign in" });
  await dialog.waitFor();
  await dialog.getByLabel("Email").fill(who.email);
  await dialog.getByLabel("Password").fill(who.password);
  await dialog.getByRole("button", { name: "Sign In" }).click();
  await dialog.waitFor({ state: "detached" });
}

describe("getting in and coming back", () => {
  it("a visitor opening /promote?listing_id= gets the popup and, signed in, lands on that very page", async () => {
    const { page } = b;
    const target = `/promote?listing_id=${ownListingId}`;
    await page.goto(target);
    await page.getByText("Please log in to promote a listing").waitFor();
    await signInThroughPopup(page, LISTER);
    await page.getByRole("button", { name: "Account menu" }).waitFor();
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(target);
    expect(b.errors).toEqual([]);
  });

  it("a visitor opening /favorites is told why, with the popup open, and signing in shows their favorites", async () => {
    const { page } = b;
    await page.goto("/favorites");
    // Every locked page explains itself in place (issue 25, item 6).
    await page.getByText("Please log in to see your favorites.").waitFor();
    expect(new URL(page.url()).pathname).toBe("/favorites");
    await signInThroughPopup(page, STUDENT);
    await page.waitForURL((url) => url.pathname === "/favorites");
    await page.getByRole("heading", { level: 1 }).waitFor();
  });

  it("a visitor's tap on a browse card's heart asks to log in, then favourites that listing", async () => {
    const { page } = b;
    // A student of their own, so no other test's favourites are touched.
    const student = { email: `heart.${Date.now()}@ufl.edu`, password: "heart-pass-123" };
    await apiCall(b.baseUrl, "auth/register", { method: "POST", body: JSON.stringify({ ...student, first_name: "Hana", last_name: "Tester" }) });
    await apiCall(b.baseUrl, "auth/verify-email", { method: "POST", body: JSON.stringify({ email: student.email, code: await latestCode(student.email) }) });
    await page.goto("/");
    // A card of the results that is not promoted: the Featured row changes when another test file
    // promotes a listing, and a card leaving it may leave the page.
    const first = page.getByRole("region", { name: "Listings", exact: true }).getByRole("article").filter({ hasNotText: "Featured" }).first();
    const href = await first.getByRole("link").first().getAttribute("href");
    const cardListing = decodeURIComponent(/\/listing\/([^?]+)/.exec(href!)![1]!);
    // That very card from here on: other test files approve and promote listings meanwhile, so after
    // signing in (the list is fetched again) the first card may be another listing.
    const card = page.getByRole("article").filter({ has: page.locator(`a[href="${href}"]`) });

    await card.getByRole("button", { name: "Add to favorites" }).click();
    await page.getByText("Please log in to add favorites").waitFor();
    await signInThroughPopup(page, student);
    // The heart turns at once (it once stayed empty when the favourites list was read before the POST).
    await card.getByRole("button", { name: "Remove from favorites" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    // The intent is carried through: the listing is a favourite on the server.
    const session = await apiLogin(b.baseUrl, student.email, student.password);
    const favorites = async () =>
      JSON.stringify((await apiCall<{ favorites: unknown[] }>(b.baseUrl, "favorites", { headers: { Authorization: `Bearer ${session.access_token}` } })).favorites);
    await expect.poll(favorites, { timeout: 15_000 }).toContain(`"${cardListing}"`);
    await page.reload();
    await card.getByRole("button", { name: "Remove from favorites" }).waitFor();
  });

  it("a new student lands on their university's listings with a welcome, and it is their preferred university", async () => {
    const { page } = b;
    const email = `nia.${Date.now()}@ufl.edu`;
    await page.goto("/signup");
    await page.getByRole("link", { name: "Terms", exact: true }).first().waitFor();
    await page.getByLabel("First name").fill("Nia");
    await page.getByLabel("Last name").fill("Park");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("combobox", { name: "University" }).fill("Florida");
    await page.getByRole("option", { name: "UF · University of Florida" }).click();
    // The picker keeps the id: the one the API gives University of Florida.
    const universityId = String((await apiCall<{ data: { id: number; abbreviation: string }[] }>(b.baseUrl, "universities/")).data.find((u) => u.abbreviation === "UF")!.id);
    await page.getByLabel("Password", { exact: true }).fill("nia-pass-123");
    await page.getByLabel("Confirm password").fill("nia-pass-123");
    await page.getByRole("button", { name: "Sign up" }).click();
    const dialog = page.getByRole("dialog", { name: "Verify your email" });
    await dialog.getByLabel("Verification code").fill(await latestCode(email));
    await dialog.getByRole("button", { name: "Verify email" }).click();

    await page.getByText("Welcome to CampusNest, Nia! Showing listings near University of Florida.").waitFor();
    const url = new URL(page.url());
    expect(url.pathname).toBe("/");
    expect(url.searchParams.get("university")).toBe(universityId);
    const session = await apiLogin(b.baseUrl, email, "nia-pass-123");
    expect(session.user.preferred_university_id).toBe(Number(universityId));
    await page.getByRole("button", { name: "Dismiss welcome" }).click();
    await page.getByText(/Welcome to CampusNest, Nia!/).waitFor({ state: "detached" });
    expect(b.errors).toEqual([]);
  });
});
