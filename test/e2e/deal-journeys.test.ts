/**
 * Two deals in two browsers (the renter's and the lister's), as new students meet them: a renter without
 * ID verification is told at request time, the step waits on their ID review on both pages (with the
 * way to verify on theirs) until staff verify them, then both are offered signing; and a problem after
 * move-in that both parties read whole (the renter's text and photo, the lister's statement). A third
 * deal, cancelled late by the renter, shows the wait for the lister's refund decision.
 * With E2E_SHOTS=<directory>, the deal pages on the way are saved at 360 and 1280 px in both themes
 * (for a person to look at; nothing is compared).
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useBrowser } from "./fixtures";
import { dealSteps } from "./deal-steps";
import { screenshots } from "./screenshots";
import { JPEG_1X1, newStudent, requestableStay, signedInSide } from "./session";

const b = useBrowser({ width: 1280, height: 900 });
const steps = () => dealSteps(b.baseUrl);

/** The status line of the deal page (its live region). */
const nextStep = (page: Page) => page.locator(".deal-head .deal-next");
const signing = (page: Page) => page.getByRole("region", { name: "Signatures" });


describe("deal journeys of new students", () => {
  it("an unverified renter: told at request time, the step waits on their ID review on both pages, then both can sign", { timeout: 240_000 }, async () => {
    const s = steps();
    const staff = await s.staffToken();
    const lister = await s.verifiedStudent("Lena", staff);
    const renter = await newStudent(b.baseUrl, "Rene");
    const title = `Unverified renter's stay ${Date.now() % 100000}`;
    const listing = await s.approvedListing(lister, staff, title);
    const stay = await requestableStay(b.baseUrl, listing.id);
    const renterSide = await signedInSide(b.browser, b.baseUrl, renter);
    const listerSide = await signedInSide(b.browser, b.baseUrl, lister);
    const [r, l] = [renterSide.page, listerSide.page];
    try {
      // The renter requests from the listing page: the confirmation already says the ID check is theirs to do.
      await r.goto(`/listing/${listing.id}`);
      await r.getByRole("button", { name: "Request to sublease" }).first().click();
      const form = r.getByRole("dialog", { name: "Request to sublease" });
      await form.getByLabel("Move in").fill(stay.move_in);
      await form.getByLabel("Move out").fill(stay.move_out);
      await form.getByRole("button", { name: "Send request" }).click();
      const sent = r.getByRole("dialog", { name: "Request sent" });
      await sent.getByText(/Verify your identity \(Profile, ID verification\): both of you need a verified ID/).waitFor();
      expect(await sent.getByRole("link", { name: "Verify your identity" }).getAttribute("href")).toBe("/verification");
      await sent.getByRole("link", { name: "See the deal" }).click();

      // The renter's deal page: their step is the ID review, with the way to do it.
      await r.waitForURL(/\/deals\/[^/?#]+$/);
      const dealId = new URL(r.url()).pathname.split("/").pop()!;
      await expect.poll(() => nextStep(r).textContent()).toBe("Your step: Verify your identity (Profile, ID verification): both of you need a verified ID before the agreement can be signed.");
      expect(await r.locator(".deal-head").getByRole("link", { name: "Verify your identity" }).getAttribute("href")).toBe("/verification");
      await screenshots(r, "unverified-renter-requested");

      // The lister accepts; their page then waits on the renter's ID review (and offers no Verify link: it is not theirs).
      await l.goto(`/deals/${dealId}`);
      await expect.poll(() => nextStep(l).textContent()).toMatch(/^Your step: Accept or decline this request .* Rene must also verify their identity before signing\.$/);
      await l.locator(".deal-head").getByRole("button", { name: /^Accept/ }).click();
      await expect.poll(() => nextStep(l).textContent()).toBe("Next: Waiting for Rene's ID review: both of you need a verified ID before the agreement can be signed.");
      expect(await l.getByRole("link", { name: "Verify your identity" }).count()).toBe(0);
      await screenshots(l, "unverified-renter-accepted-lister");
      // Signing is offered to neither while the renter is unverified.
      await r.reload();
      await expect.poll(() => nextStep(r).textContent()).toMatch(/^Your step: Verify your identity/);
      expect(await signing(r).getByRole("checkbox", { name: /electronic records/ }).count()).toBe(0);
      expect(await signing(l).getByRole("checkbox", { name: /electronic records/ }).count()).toBe(0);
      const before = await s.dealOf(dealId, lister);
      expect(before).toMatchObject({ status: "accepted", waiting_for: { party: "renter", step: "id_verification" } });
      expect(before.actions).not.toContain("sign");

      // Staff verify the renter; the lister settles the landlord's consent: both are offered signing.
      await s.verifyIdentity(renter.user.id, staff);
      await s.post(`deals/${dealId}/landlord-consent`, lister, { not_needed: true });
      await r.reload();
      await l.reload();
      await expect.poll(() => nextStep(r).textContent()).toBe("Your step: Read and sign the agreement.");
      // Either may sign first: each reads signing as their own step.
      await expect.poll(() => nextStep(l).textContent()).toBe("Your step: Read and sign the agreement.");
      await signing(l).getByRole("checkbox", { name: /electronic records/ }).waitFor();
      await signing(r).getByRole("checkbox", { name: /electronic records/ }).check();
      await signing(r).getByRole("button", { name: "Email me a code" }).waitFor();
      expect(await r.getByRole("link", { name: "Verify your identity" }).count()).toBe(0);
      expect((await s.dealOf(dealId, renter)).actions).toContain("sign");
      expect((await s.dealOf(dealId, lister)).actions).toContain("sign");
      await screenshots(r, "unverified-renter-verified-sign");
    } finally {
      await renterSide.context.close();
      await listerSide.context.close();
    }
  });

  it("a problem after move-in seen by both: the renter's text and photo, the lister's statement", { timeout: 240_000 }, async () => {
    const s = steps();
    const title = `Problem stay ${Date.now() % 100000}`;
    const { lister, renter, deal } = await s.heldDealMovingInToday({ lister: "Pia", renter: "Owen" }, title);
    await s.post(`deals/${deal.id}/moved-in`, renter);
    const renterSide = await signedInSide(b.browser, b.baseUrl, renter, { width: 360, height: 780 });
    const listerSide = await signedInSide(b.browser, b.baseUrl, lister);
    const [r, l] = [renterSide.page, listerSide.page];
    const report = "The window in the bedroom does not close and rain comes in.";
    const statement = "The window closes with the handle turned down; I showed Owen at the handover.";
    try {
      // The renter reports on a phone: the kind, the text, a photo (uploaded as private evidence).
      await r.goto(`/deals/${deal.id}`);
      await r.getByRole("button", { name: /^Report a problem/ }).click();
      const dialog = r.getByRole("dialog", { name: "Report a problem" });
      await dialog.getByText("Pia sees your report and can answer.", { exact: false }).waitFor();
      await dialog.getByRole("radio", { name: "Not as described" }).check();
      await dialog.getByLabel("What happened?").fill(report);
      await dialog.locator('input[type="file"]').setInputFiles({ name: "window.jpg", mimeType: "image/jpeg", buffer: Buffer.from(JPEG_1X1, "base64") });
      await dialog.getByRole("list", { name: "Photos to send" }).getByRole("listitem").waitFor();
      await screenshots(r, "problem-dialog", dialog);
      await dialog.getByRole("button", { name: "Send the report" }).click();
      await r.getByText("Problem reported", { exact: true }).first().waitFor();
      const disputed = await s.dealOf(deal.id, renter);
      expect(disputed).toMatchObject({ status: "disputed", problem: { kind: "not_as_described", text: report } });
      expect(disputed.problem!.photos).toHaveLength(1);
      expect(disputed.problem!.photos[0]).toMatch(/evidence/);

      // The lister reads the report whole (the text and the photo) and adds their statement.
      await l.goto(`/deals/${deal.id}`);
      const listerCase = l.locator(".deal-case");
      await listerCase.getByRole("heading", { name: "The problem: Not as described" }).waitFor();
      await listerCase.getByText(report).waitFor();
      await listerCase.getByRole("list", { name: "Photos from Owen Tester" }).getByRole("img", { name: "Photo 1 from Owen Tester" }).waitFor();
      await l.getByLabel("Your statement").fill(statement);
      await l.getByRole("button", { name: "Send to CampusNest" }).click();
      await listerCase.getByRole("list", { name: "Statements" }).getByText(statement).waitFor();
      // One statement each (contract): the form is gone once it is in.
      await expect.poll(() => l.getByLabel("Your statement").count()).toBe(0);
      await screenshots(l, "problem-lister");

      // The renter reads their own report, its photo, and the lister's statement by name.
      await r.reload();
      const renterCase = r.locator(".deal-case");
      await renterCase.getByText(report).waitFor();
      await renterCase.getByText("Reported by You", { exact: false }).waitFor();
      await renterCase.getByRole("img", { name: "Photo 1 from You" }).waitFor();
      const statements = renterCase.getByRole("list", { name: "Statements" });
      await statements.getByText(statement).waitFor();
      await statements.getByText("Pia Tester", { exact: true }).waitFor();
      // Nothing on the renter's page (the case, the receipt, the move-in report's form) is wider than the phone.
      expect(await r.evaluate(() => document.documentElement.scrollWidth)).toBe(360);
      await screenshots(r, "problem-renter");
    } finally {
      await renterSide.context.close();
      await listerSide.context.close();
    }
  });

  it("a late cancellation after payment waits for the lister's refund decision, on both pages", { timeout: 240_000 }, async () => {
    const s = steps();
    const title = `Cancelled stay ${Date.now() % 100000}`;
    const { lister, renter, deal } = await s.heldDealMovingInToday({ lister: "Lotte", renter: "Remy" }, title);
    await s.post(`deals/${deal.id}/cancel`, renter, { reason: "My internship moved to another city." });
    const renterSide = await signedInSide(b.browser, b.baseUrl, renter);
    const listerSide = await signedInSide(b.browser, b.baseUrl, lister);
    const [r, l] = [renterSide.page, listerSide.page];
    try {
      await r.goto(`/deals/${deal.id}`);
      await r.locator(".deal-head").getByText("Cancelling: waiting for Lotte's refund decision").waitFor();
      await screenshots(r, "late-cancellation-renter");
      await l.goto(`/deals/${deal.id}`);
      await l.locator(".deal-head").getByText("Cancelling: waiting for your refund decision").waitFor();
      expect((await s.dealOf(deal.id, lister)).actions).toContain("cancellation_refund");
      await screenshots(l, "late-cancellation-lister");
    } finally {
      await renterSide.context.close();
      await listerSide.context.close();
    }
  });
});
