/**
 * Scam shield (issue 13), the journey of the issue: a renter messages a lister; the lister answers
 * "Can you send the deposit by Zelle before the viewing?"; the renter sees the message and the safety
 * notice with its link (the sender does not), both see the safety tip, staff find the conversation in
 * the Safety queue with its reasons and mark it reviewed; the link leads to the safety page.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { SAFETY_CONFIRMED_TEXTS, SAFETY_FEEDBACK_TEXTS, SAFETY_NOTICE, SAFETY_TIP } from "../../worker/contract/safety";
import { useBrowser } from "./fixtures";
import { apiCall, apiLogin, demoListingIds, newStudent, sendInThread, signedInSide, signInAdmin, type AuthSession } from "./session";

const b = useBrowser({ width: 1280, height: 900 });
const SCAM = "Can you send the deposit by Zelle before the viewing?";
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");


const contextFor = (session: AuthSession, viewport: { width: number; height: number }) => signedInSide(b.browser, b.baseUrl, session, viewport);

/** Serious or critical axe violations on the page as it is now. */
async function violations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: unknown) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }> } }).axe;
    return (await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] } })).violations;
  });
  return found.filter((v) => v.impact === "serious" || v.impact === "critical").flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`));
}

describe("scam shield in a conversation", () => {
  it("shows the recipient the notice under a flagged message, not the sender; staff review it in the Safety tab", { timeout: 120_000 }, async () => {
    const lister = await apiLogin(b.baseUrl, "lister@campusnest.dev", "lister-demo-123");
    const { listerListing } = await demoListingIds(b.baseUrl);
    const renter = await newStudent(b.baseUrl, "Rina");
    // The renter on a phone, the lister on a laptop.
    const renterSide = await contextFor(renter, { width: 360, height: 780 });
    const listerSide = await contextFor(lister, { width: 1280, height: 900 });
    try {
      await renterSide.page.goto(`/messages?userId=${lister.user.id}&listingId=${listerListing}`);
      const renterLog = renterSide.page.getByRole("log");
      // The tip is at the top of every conversation, even before the first message.
      await renterLog.getByText(SAFETY_TIP).waitFor();
      await sendInThread(renterSide.page, "Hi! Is the room still available in June?");

      await listerSide.page.goto("/messages");
      await listerSide.page.getByRole("button", { name: /Rina Tester/ }).first().click();
      const listerLog = listerSide.page.getByRole("log");
      await listerLog.getByText("Hi! Is the room still available in June?").waitFor();
      await sendInThread(listerSide.page, SCAM);

      // The renter receives it (through the room, or the poll at the latest) with the notice under it.
      await renterLog.getByText(SCAM).waitFor({ timeout: 20_000 });
      const notice = renterLog.getByRole("note");
      await notice.waitFor();
      expect(await notice.count()).toBe(1);
      expect(await notice.textContent()).toContain(SAFETY_NOTICE);
      const flaggedRow = renterLog.locator(".bubble-row", { hasText: SCAM });
      expect(await flaggedRow.getByRole("note").count()).toBe(1);
      expect(await notice.getByRole("link", { name: "How to spot a scam" }).getAttribute("href")).toBe("/safety");
      expect(await violations(renterSide.page)).toEqual([]);

      // The sender sees the message and the tip, never the notice (not even after a reload).
      await listerLog.getByText(SAFETY_TIP).waitFor();
      expect(await listerLog.getByRole("note").count()).toBe(0);
      await listerSide.page.reload();
      await listerSide.page.getByRole("button", { name: /Rina Tester/ }).first().click();
      await listerSide.page.getByRole("log").getByText(SCAM).waitFor();
      expect(await listerSide.page.getByRole("log").getByRole("note").count()).toBe(0);

      // Staff: the Safety tab has the conversation with its reasons and the flagged line.
      const staff = await b.browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: b.baseUrl });
      try {
        await signInAdmin(staff, b.baseUrl);
        const staffPage = await staff.newPage();
        await staffPage.goto("/staff");
        await staffPage.getByRole("tab", { name: "Safety", exact: true }).click();
        const card = staffPage.getByRole("listitem", { name: /Flagged conversation: .*Rina Tester/ });
        await card.waitFor();
        await card.getByText("Money before a viewing").waitFor();
        await card.getByText("Payment off the platform (wire, payment app, gift cards, crypto)").waitFor();
        await card.getByText(SCAM).waitFor();
        expect(await card.getByText("Hi! Is the room still available in June?").count()).toBe(0);
        expect(await violations(staffPage)).toEqual([]);
        await card.getByRole("button", { name: "Mark reviewed" }).click();
        await expect.poll(() => card.count(), { timeout: 10_000 }).toBe(0);
        const audit = await staffPage.evaluate(async () => {
          const res = await fetch("/api/v1/admin/audit", { headers: { Authorization: `Bearer ${localStorage.getItem("admin_token")}` } });
          return ((await res.json()) as { audit: { action: string }[] }).audit.map((a) => a.action);
        });
        expect(audit).toContain("safety_review");
      } finally {
        await staff.close();
      }

      // The notice's link leads to the safety page.
      await notice.getByRole("link", { name: "How to spot a scam" }).click();
      await renterSide.page.getByRole("heading", { level: 1, name: "Stay safe" }).waitFor();
      expect(new URL(renterSide.page.url()).pathname).toBe("/safety");
      await renterSide.page.getByRole("heading", { name: "How to report" }).waitFor();

      // Issue 26: the renter says "This is fine"; the notice gives way to the thanks, and stays quiet.
      await renterSide.page.goBack();
      const fine = renterSide.page.getByRole("log").getByRole("button", { name: SAFETY_FEEDBACK_TEXTS.buttonLabel });
      await fine.click();
      await renterSide.page.getByText(SAFETY_CONFIRMED_TEXTS.payment).waitFor();
      await expect.poll(() => renterSide.page.getByRole("log").getByRole("note").count()).toBe(0);
      await renterSide.page.reload();
      await renterSide.page.getByRole("log").getByText(SCAM).waitFor();
      expect(await renterSide.page.getByRole("log").getByRole("note").count()).toBe(0);
    } finally {
      await renterSide.context.close();
      await listerSide.context.close();
    }
  });

  it("delivers a clean message with no notice, and the safety page answers at /safety in the dark theme", { timeout: 60_000 }, async () => {
    await b.page.addInitScript(() => localStorage.setItem("darkMode", "true"));
    const res = await b.page.goto("/safety");
    expect(res?.status()).toBe(200);
    await b.page.getByRole("heading", { level: 1, name: "Stay safe" }).waitFor();
    expect(await b.page.locator("html").evaluate((el) => el.classList.contains("dark"))).toBe(true);
    expect(await violations(b.page)).toEqual([]);
    await b.page.getByRole("navigation", { name: "Footer" }).getByRole("link", { name: "Safety" }).waitFor();

    const [a, c] = [await newStudent(b.baseUrl, "Cleo"), await newStudent(b.baseUrl, "Dani")];
    const side = await contextFor(a, { width: 1280, height: 900 });
    try {
      await side.page.goto(`/messages?userId=${c.user.id}`);
      await sendInThread(side.page, "Sounds good, see you at 3pm at the front door.");
      // Through the API as the recipient: delivered, no notice.
      // The recipient sees the conversation once it holds the message (the bubble shows before the send is stored).
      const withSender = () =>
        fetch(`${b.baseUrl}/api/v1/messages/conversations/with/${a.user.id}`, { headers: { Authorization: `Bearer ${c.access_token}` } });
      await expect.poll(async () => (await withSender()).status).toBe(200);
      const convo = (await (await withSender()).json()) as { data: { id: string } };
      const { messages } = await apiCall<{ messages: { text: string; safety_notice: boolean }[] }>(b.baseUrl, `messages/conversations/${convo.data.id}/messages`, {
        headers: { Authorization: `Bearer ${c.access_token}` },
      });
      expect(messages[0]).toMatchObject({ text: "Sounds good, see you at 3pm at the front door.", safety_notice: false });
    } finally {
      await side.context.close();
    }
  });
});
