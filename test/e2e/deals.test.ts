/**
 * The deal in two browsers (a renter and the lister from the demo data) and the landlord's page with no
 * account: the request from the listing page, the card in the thread moving live, the landlord's consent,
 * both signatures with emailed codes, the signed PDF; axe on the new pages.
 */
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { violations } from "./axe";
import { useBrowser } from "./fixtures";
import { apiCall, apiLogin, demoListingIds, emailedCode, requestableStay, signedInSide } from "./session";

const b = useBrowser({ width: 1280, height: 900 });

/** The newest email to `to` whose subject matches (the dev mailbox), waited for. */
async function latestEmail(to: string, subject: RegExp): Promise<{ text: string; html: string }> {
  let found: { subject: string; text: string; html: string } | undefined;
  await expect
    .poll(
      async () => {
        const { data } = await apiCall<{ data: { subject: string; text: string; html: string }[] }>(b.baseUrl, `dev/emails?to=${encodeURIComponent(to)}`);
        found = data.find((m) => subject.test(m.subject));
        return !!found;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}

/** The status line of a deal card or page (its live region). */
const nextStep = (scope: Page | ReturnType<Page["locator"]>) => scope.locator(".deal-next");

async function axeClean(page: Page, label: string) {
  await page.waitForLoadState("networkidle");
  expect((await violations(page)).map((v) => `${label}: ${v}`)).toEqual([]);
}

/** Signs the agreement on the open deal page: the records consent, the typed name, intent, an emailed code. */
async function sign(page: Page, legalName: string, email: string) {
  const signing = page.getByRole("region", { name: "Signatures" });
  await signing.getByRole("checkbox", { name: /electronic records/ }).check();
  await signing.getByLabel("Your full legal name").fill(legalName);
  await signing.getByRole("checkbox", { name: "I intend to sign this agreement" }).check();
  const asked = Date.now();
  await signing.getByRole("button", { name: "Email me a code" }).click();
  await signing.getByText(/We emailed you a 6-digit code/).waitFor();
  const code = await emailedCode(b.baseUrl, email, "Your signing code", asked);
  await signing.getByLabel("6-digit code").fill(code);
  await signing.getByRole("button", { name: "Sign", exact: true }).click();
  await signing.getByText(/\(\w+, you\): signed/).waitFor();
}

describe("a deal between two students", () => {
  it("requests, accepts live, gets the landlord's consent without an account, signs twice and downloads the PDF", { timeout: 240_000 }, async () => {
    const { listerListing } = await demoListingIds(b.baseUrl);
    const lister = await apiLogin(b.baseUrl, "lister@campusnest.dev", "lister-demo-123");
    const renter = await apiLogin(b.baseUrl, "jordan.kim@campusnest.dev", "lister-demo-123");
    const stay = await requestableStay(b.baseUrl, listerListing);
    const renterSide = await signedInSide(b.browser, b.baseUrl, renter);
    const listerSide = await signedInSide(b.browser, b.baseUrl, lister);
    const landlordSide = await b.browser.newContext({ viewport: { width: 360, height: 780 }, baseURL: b.baseUrl });
    const landlordEmail = `landlord-${Date.now()}@example.com`;
    try {
      // The renter asks from the listing page, for the listing's own stay.
      const r = renterSide.page;
      await r.goto(`/listing/${listerListing}`);
      await r.getByRole("button", { name: "Request to sublease" }).first().click();
      const form = r.getByRole("dialog", { name: "Request to sublease" });
      await form.getByLabel("Move in").fill(stay.move_in);
      await form.getByLabel("Move out").fill(stay.move_out);
      await form.getByRole("button", { name: "Send request" }).click();
      await r.getByRole("dialog", { name: "Request sent" }).getByRole("link", { name: "Open the conversation" }).click();
      const renterCard = r.getByRole("article").filter({ hasText: "Your request to sublease" });
      await expect.poll(() => nextStep(renterCard).textContent(), { timeout: 20_000 }).toMatch(/Waiting for Maya to accept or decline/);
      await renterCard.getByRole("button", { name: "Cancel request" }).waitFor();
      expect(await renterCard.getByRole("button", { name: "Accept" }).count()).toBe(0);

      // The lister sees the same card in the conversation, with Accept and Decline.
      const l = listerSide.page;
      await l.goto("/messages");
      await l.getByRole("button", { name: /Jordan/ }).first().click();
      const listerCard = l.getByRole("article").filter({ hasText: "Jordan's request to sublease" });
      await listerCard.getByRole("button", { name: "Decline" }).waitFor();
      expect(await listerCard.getByRole("button", { name: /Cancel/ }).count()).toBe(0);
      await axeClean(l, "thread with a deal card");
      await listerCard.getByRole("button", { name: "Accept" }).click();
      await listerCard.getByText("Accepted", { exact: true }).waitFor();
      // The renter's card follows through the room, without a reload.
      await renterCard.getByText("Accepted", { exact: true }).waitFor({ timeout: 10_000 });

      // The lister asks the landlord from the deal page.
      await listerCard.getByRole("link", { name: /Open the deal/ }).click();
      await l.getByRole("heading", { level: 1 }).waitFor();
      const consent = l.getByRole("region", { name: "Landlord consent" });
      await consent.getByRole("radio", { name: "Ask my landlord for consent" }).check();
      await consent.getByLabel("Landlord's name").fill("Pat Owner");
      await consent.getByLabel("Landlord's email").fill(landlordEmail);
      await consent.getByRole("button", { name: "Send the request" }).click();
      await consent.getByText("Asked; waiting for the landlord").waitFor();
      await axeClean(l, "deal page (lister)");

      // The landlord answers from the emailed link, with no account.
      const mail = await latestEmail(landlordEmail, /Consent to sublet/);
      const link = (mail.text + mail.html).match(/\/landlord-consent\/[A-Za-z0-9_-]+/)?.[0];
      expect(link).toBeTruthy();
      const landlord = await landlordSide.newPage();
      await landlord.goto(link!);
      await landlord.getByText("The address and this request were given by the tenant. CampusNest has not checked them.", { exact: false }).waitFor();
      await landlord.getByText("Jordan Kim").waitFor();
      expect(await landlord.getByRole("dialog").count()).toBe(0);
      await axeClean(landlord, "landlord page");
      // The answer is said back before it is sent (it cannot be changed).
      await landlord.getByRole("button", { name: "Consent…" }).click();
      await landlord.getByText("Confirm your consent:").waitFor();
      await landlord.getByRole("button", { name: "Yes, I consent" }).click();
      await landlord.getByText(/You consented to this sublease/).waitFor();
      // The link works once, and a reopened link says what was answered.
      await landlord.goto(link!);
      await landlord.getByRole("heading", { name: "You already answered this request" }).waitFor();

      // Both sign; the deal is signed and the PDF downloads.
      await r.goto(l.url().replace(/^https?:\/\/[^/]+/, ""));
      await r.getByText("Granted by the landlord").first().waitFor();
      await r.getByRole("region", { name: "The sublease agreement" }).getByText(/SHA-256/).waitFor();
      await axeClean(r, "deal page (renter)");
      await sign(r, "jordan  KIM", "jordan.kim@campusnest.dev");
      await l.reload();
      await sign(l, "Maya Lopez", "lister@campusnest.dev");
      await l.getByText("Signed", { exact: true }).first().waitFor();
      await expect.poll(() => nextStep(l).first().textContent(), { timeout: 10_000 }).toMatch(/^Your step: Set up payouts so Jordan can pay\./);
      const [download] = await Promise.all([l.waitForEvent("download"), l.getByRole("button", { name: "Download the signed PDF" }).click()]);
      const pdf = readFileSync((await download.path())!);
      expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
      expect(download.suggestedFilename()).toMatch(/-signed\.pdf$/);
    } finally {
      await renterSide.context.close();
      await listerSide.context.close();
      await landlordSide.close();
    }
  });
});
