/**
 * The deal's money in two browsers (docs/decisions/029, 030): a new lister sets up payouts on the
 * development onboarding page while the renter's signed deal waits for it; the scam shield's notice in the
 * deal's conversation points to paying through CampusNest; the renter sees the amounts, the fee and the
 * policy, pays on the development checkout, and the money is held (receipt, the lister's view, the
 * listing's taken stay) until "I have the keys" and at least 24 hours after the payment (docs/decisions/035),
 * then released by the development tick. A second deal: a problem reported while held that both parties
 * read, staff's partial refund with a reason in a third browser (confirmed in a dialog stating each
 * side's amount), both parties' end state; a third deal released by the development tick at its release
 * time. axe on the held deal page, the onboarding page and the staff case, light and dark.
 * With E2E_SHOTS=<directory>, the held deal page, the lister's card and the staff case are also saved as
 * screenshots at 360 and 1280 px in both themes (for a person to look at; nothing is compared).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { addMonths, DEAL_CANCELLATION_POLICY, localDate, timeZoneOfState, type Deal } from "../../worker/contract/deals";
import { SAFETY_PAY_INSIDE } from "../../worker/contract/safety";
import { violations } from "./axe";
import { useBrowser } from "./fixtures";
import { apiCall, createPendingListing, emailedCode, JPEG_1X1, newStudent, sendInThread, signedInSide, signInAdmin, type AuthSession } from "./session";

const b = useBrowser({ width: 1280, height: 900 });
const SCAM = "Send the first month by Zelle before you move in";
const SHOTS = process.env.E2E_SHOTS;
/** The University of Florida (migration 0001): the new students' ufl.edu school, in Florida's time zone. */
const UF = 49;

const usd = (cents: number) => `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const bearer = (s: AuthSession) => ({ Authorization: `Bearer ${s.access_token}` });
const post = <T>(path: string, who: AuthSession | null, body: unknown = {}, headers: Record<string, string> = {}) =>
  apiCall<T>(b.baseUrl, path, { method: "POST", headers: { ...(who ? bearer(who) : {}), ...headers }, body: JSON.stringify(body) });
const dealOf = async (id: string, who: AuthSession) => (await apiCall<{ data: Deal }>(b.baseUrl, `deals/${id}`, { headers: bearer(who) })).data;

/** A student whose identity staff verified (signing needs both legal names), with an approved listing when a lister. */
async function verifiedStudent(first: string, staffToken: string) {
  const s = await newStudent(b.baseUrl, first);
  await apiCall(b.baseUrl, `admin/users/${s.user.id}/verify`, { method: "PATCH", headers: { Authorization: `Bearer ${staffToken}` }, body: JSON.stringify({ verification_status: "verified" }) });
  return s;
}

/** A lister's approved, undated listing (several stays fit, none takes it off the market), and the date it is today in its zone. */
async function approvedListing(lister: AuthSession, staffToken: string, title: string) {
  const id = await createPendingListing(b.baseUrl, lister, title, { universityId: UF });
  await apiCall(b.baseUrl, `admin/listings/${id}/verify`, { method: "PATCH", headers: { Authorization: `Bearer ${staffToken}` }, body: JSON.stringify({ status: "approved" }) });
  const today = localDate(Date.now(), timeZoneOfState("FL"));
  return { id, today };
}

const dayAfter = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Requested, accepted, the landlord's consent not needed, signed by both with emailed codes bound to the
 * text read (its version and SHA-256; the browser plays these in deals.test.ts).
 */
async function signedDeal(renter: AuthSession & { email: string }, lister: AuthSession & { email: string }, listingId: string, moveIn: string, moveOut = addMonths(moveIn, 1)): Promise<Deal> {
  const { data } = await post<{ data: Deal }>("deals", renter, { listing_id: listingId, move_in: moveIn, move_out: moveOut });
  await post(`deals/${data.id}/accept`, lister);
  await post(`deals/${data.id}/landlord-consent`, lister, { not_needed: true });
  const agreement = (await dealOf(data.id, renter)).agreement!;
  const read = { agreement_version: agreement.version, sha256: agreement.sha256 };
  for (const who of [renter, lister]) {
    const asked = Date.now();
    await post(`deals/${data.id}/sign-code`, who, read);
    const code = await emailedCode(b.baseUrl, who.email, "Your signing code", asked);
    await post(`deals/${data.id}/sign`, who, { typed_name: `${who.user.first_name} Tester`, intent: true, esign_consent: true, code, ...read });
  }
  return dealOf(data.id, renter);
}

/** Payouts set up through the development onboarding's own endpoints (the browser plays it in the first journey). */
async function payoutsReady(lister: AuthSession) {
  const { data } = await post<{ data: { url: string } }>("payouts/onboarding", lister);
  const res = await fetch(`${b.baseUrl}${data.url}/complete`, { method: "POST", redirect: "manual" });
  expect(res.status).toBe(303);
}

/** The renter pays through the development checkout's endpoints; the deal as it is then. */
async function paidDeal(id: string, renter: AuthSession): Promise<Deal> {
  const { data } = await post<{ data: { session_id: string } }>(`deals/${id}/checkout`, renter, {}, { "Idempotency-Key": `e2e-${id}` });
  const res = await fetch(`${b.baseUrl}/dev/checkout/${data.session_id}/complete`, { method: "POST", redirect: "manual" });
  expect(res.headers.get("location")).toBe(`/deals/${id}?paid=1`);
  return dealOf(id, renter);
}

const escaped = (s: string) => s.replace(/[$.*+?()[\]{}|^\\]/g, "\\$&");
/** A control's name: its words, then the listing's title after a colon (in a visually hidden span, which Chromium may set apart with a space). */
const named = (words: string, title: string) => new RegExp(`^${escaped(words)}\\s*:?\\s*${escaped(title)}$`);

/** The status line of a deal card or page (its live region). */
const nextStep = (scope: Page | Locator) => scope.locator(".deal-next").first();

/**
 * axe in the light and the dark theme (the device's setting, which the app follows when nobody chose),
 * at the page's own size; with E2E_SHOTS, screenshots of `shot` (or the whole page) at 360 and 1280 px.
 */
async function lightAndDark(page: Page, label: string, { spa = true, shot }: { spa?: boolean; shot?: Locator } = {}) {
  const problems: string[] = [];
  await page.waitForLoadState("networkidle");
  for (const scheme of ["light", "dark"] as const) {
    // Reduced motion: the buttons' colour transitions end at once, so axe reads the theme's own colours.
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
    if (spa) await page.waitForFunction((dark) => document.documentElement.classList.contains("dark") === dark, scheme === "dark");
    problems.push(...(await violations(page)).map((v) => `${label} (${scheme}): ${v}`));
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      const size = page.viewportSize()!;
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
        const path = join(SHOTS, `${label.replace(/\W+/g, "-")}-${width}-${scheme}.png`);
        if (shot) await shot.screenshot({ path });
        else await page.screenshot({ path, fullPage: true });
      }
      await page.setViewportSize(size);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  expect(problems).toEqual([]);
}

describe("paying a deal through CampusNest", () => {
  it("sets up payouts, points the shield inside, pays, holds the money, shows the stay taken and releases it with the keys", { timeout: 240_000 }, async () => {
    const staffToken = (await post<{ token: string }>("admin/login", null, { password: "admin-dev-password" })).token;
    const [lister, renter] = await Promise.all([verifiedStudent("Lena", staffToken), verifiedStudent("Remy", staffToken)]);
    const title = `Held rent ${Date.now() % 100000}`;
    const listing = await approvedListing(lister, staffToken, title);
    // Move-in today, so "I have the keys" is open at once (it opens on move-in day, by the server's clock);
    // out on the next New Year's Day or later, so the stay reads with both years (the card's longest fact).
    const newYear = `${Number(listing.today.slice(0, 4)) + 1}-01-01`;
    const monthOn = addMonths(listing.today, 1);
    const deal = await signedDeal(renter, lister, listing.id, listing.today, monthOn > newYear ? monthOn : newYear);
    expect(deal).toMatchObject({ status: "signed", payment: { payable: false, waiting_for: "lister_payouts" }, waiting_for: { party: "lister", step: "payouts" }, actions: ["cancel"] });
    const p = deal.payment;
    const renterSide = await signedInSide(b.browser, b.baseUrl, renter);
    const listerSide = await signedInSide(b.browser, b.baseUrl, lister);
    const r = renterSide.page;
    const l = listerSide.page;
    try {
      // The renter's signed deal says whose step it is; nothing to pay yet.
      await r.goto(`/deals/${deal.id}`);
      await expect.poll(() => nextStep(r).textContent()).toMatch(/^Next: Waiting for Lena to set up payouts\./);
      expect(await r.getByRole("button", { name: /^Pay / }).count()).toBe(0);

      // The lister goes from the deal to the profile's Payouts, through the development onboarding, and back ready.
      await l.goto(`/deals/${deal.id}`);
      await expect.poll(() => nextStep(l).textContent()).toMatch(/Set up payouts so Remy can pay/);
      await l.getByRole("link", { name: "Set up payouts to get paid" }).click();
      const payouts = l.getByRole("region", { name: "Payouts" });
      await payouts.getByText("Payouts: set up").waitFor();
      await payouts.getByRole("button", { name: "Set up payouts" }).click();
      await l.waitForURL(/\/dev\/connect\/acct_/);
      await l.getByRole("button", { name: "Complete onboarding" }).waitFor();
      await lightAndDark(l, "dev connect page", { spa: false });
      await l.getByRole("button", { name: "Complete onboarding" }).click();
      // Set-up asked for by the deal comes back to the deal (through the profile's return), whose step moves on.
      await l.waitForURL((url) => url.pathname === `/deals/${deal.id}`);
      await l.waitForFunction(() => document.documentElement.dataset.app === "ready");
      await expect.poll(() => nextStep(l).textContent()).not.toMatch(/Set up payouts/);
      await l.goto("/profile");
      await payouts.getByText("Payouts: ready").waitFor();
      expect(await payouts.getByRole("button", { name: /Set up payouts|Continue setup/ }).count()).toBe(0);

      // In the deal's conversation the lister asks for the first month by Zelle: the renter's notice points inside.
      await l.goto(`/messages?userId=${renter.user.id}`);
      await sendInThread(l, SCAM);
      await r.goto(`/messages?userId=${lister.user.id}`);
      const renterLog = r.getByRole("log");
      await renterLog.getByText(SCAM).waitFor();
      const notice = renterLog.locator(".bubble-row", { hasText: SCAM }).getByRole("note");
      await notice.getByText(SAFETY_PAY_INSIDE).waitFor();
      // The step is read when the renter's copy is made: the deal is signed, so it is paying.
      await expect.poll(() => notice.getByRole("link").allTextContents()).toContain("Pay the first month");
      const payLink = notice.getByRole("link", { name: "Pay the first month" });
      expect(await payLink.getAttribute("href")).toBe(`/deals/${deal.id}`);
      await payLink.click();

      // Before paying: the amounts, the fee's percentage and the cancellation policy, then the development checkout.
      await r.waitForURL((url) => url.pathname === `/deals/${deal.id}`);
      const pay = r.getByRole("button", { name: named(`Pay ${usd(p.total_cents)} for`, title) });
      await pay.waitFor();
      await expect.poll(() => nextStep(r).textContent()).toMatch(/Pay the first month through CampusNest/);
      const box = r.locator(".deal-pay");
      await box.getByText("First month's rent", { exact: true }).waitFor();
      await box.getByText(usd(p.rent_cents), { exact: true }).waitFor();
      await box.getByText(`Service fee (${p.fee_percent}%)`).waitFor();
      await box.getByText(usd(p.fee_cents), { exact: true }).waitFor();
      await box.getByRole("heading", { name: "If plans change" }).waitFor();
      for (const line of DEAL_CANCELLATION_POLICY) await box.getByText(line).waitFor();
      await pay.click();
      await r.waitForURL(/\/dev\/checkout\//);
      await r.getByRole("heading", { name: `Pay ${usd(p.total_cents)}` }).waitFor();
      await r.getByRole("button", { name: `Pay ${usd(p.total_cents)}` }).click();

      // Back on the deal: payment received, held until a date, the receipt.
      await r.waitForURL((url) => url.pathname === `/deals/${deal.id}` && url.searchParams.get("paid") === "1");
      await r.getByText(/^Payment received\. CampusNest holds it until \w{3} \d{1,2}, \d{4}/).waitFor();
      const held = await dealOf(deal.id, renter);
      expect(held).toMatchObject({ status: "paid", payment: { status: "held", paid_at: expect.any(String), held_until: expect.any(String) } });
      await expect.poll(() => nextStep(r).textContent()).toMatch(/Held by CampusNest until .*Tap “I have the keys” once you are in/);
      const receipt = r.getByRole("region", { name: "Receipt" });
      await receipt.getByText(/held by CampusNest; nothing to Lena Tester yet\. Held until \w{3} \d{1,2}, \d{4}/).waitFor();
      await receipt.getByText(`Service fee (${p.fee_percent}%)`).waitFor();
      await receipt.getByText("Total paid").waitFor();
      await receipt.getByText(usd(p.total_cents), { exact: true }).waitFor();
      await receipt.getByText("Lena Tester, through CampusNest").waitFor();
      expect(await r.getByRole("button", { name: /^Pay / }).count()).toBe(0);
      await lightAndDark(r, "renter deal page held");

      // The lister's deal page and card in the thread say it is held.
      await l.goto(`/deals/${deal.id}`);
      await expect.poll(() => nextStep(l).textContent()).toMatch(/Held by CampusNest until .*Remy taps “I have the keys” once in/);
      await l.goto(`/messages?userId=${renter.user.id}`);
      const listerCard = l.getByRole("article").filter({ hasText: "Remy's request to sublease" });
      await listerCard.getByText("Paid", { exact: true }).waitFor();
      await expect.poll(() => nextStep(listerCard).textContent()).toMatch(/Held by CampusNest until/);
      await listerCard.getByRole("link", { name: named("Receipt", title) }).waitFor();
      await lightAndDark(l, "lister deal card in thread", { shot: listerCard });
      // Each fact of the card fits its own place, on a laptop and on a phone.
      for (const width of [1280, 360]) {
        await l.setViewportSize({ width, height: 900 });
        const facts = await listerCard.locator(".deal-facts > div").evaluateAll((divs) => divs.map((d) => ({ fact: d.textContent, value: d.querySelector("dd")!.scrollWidth, room: d.clientWidth })));
        expect(facts.filter((f) => f.value > f.room), `at ${width} px`).toEqual([]);
      }
      await l.setViewportSize({ width: 1280, height: 900 });

      // The listing's page shows the stay as taken.
      await r.goto(`/listing/${listing.id}`);
      await r.getByRole("list", { name: "Taken stays" }).getByText(/^Taken /).waitFor();

      // Move-in day: "I have the keys", confirmed. Paid minutes ago, the rent stays held until 24 hours
      // after the payment whatever the keys say; the development tick at that time releases it.
      await r.goto(`/deals/${deal.id}`);
      await r.getByRole("button", { name: named("I have the keys", title) }).click();
      const confirm = r.getByRole("alertdialog", { name: "Do you have the keys?" });
      await confirm.getByText(/cannot be taken back/).waitFor();
      await confirm.getByRole("button", { name: "Yes, release it to Lena" }).click();
      await r.getByText("Moved in", { exact: true }).first().waitFor();
      const moved = await dealOf(deal.id, renter);
      expect(moved).toMatchObject({ status: "moved_in", moved_in_at: expect.any(String), payment: { status: "held", transferred_cents: 0 } });
      expect(Date.parse(moved.payment.held_until!)).toBe(Date.parse(moved.payment.paid_at!) + 24 * 3_600_000);
      await expect.poll(() => nextStep(r).textContent()).toMatch(/^Held by CampusNest until /);
      expect(await r.getByRole("button", { name: /I have the keys/ }).count()).toBe(0);
      await post("dev/deals/tick", null, { now: moved.payment.held_until });
      await r.reload();
      await expect.poll(() => nextStep(r).textContent()).toBe(`This deal was completed. ${usd(p.rent_cents)} to Lena, CampusNest fee ${usd(p.fee_cents)} kept.`);
      await receipt.getByText(`${usd(p.rent_cents)} to Lena Tester, CampusNest fee ${usd(p.fee_cents)} kept. Released on `, { exact: false }).waitFor();
      expect(await dealOf(deal.id, lister)).toMatchObject({ status: "released", payment: { status: "released", transferred_cents: p.rent_cents, refunded_cents: 0 } });
      await l.goto(`/deals/${deal.id}`);
      await expect.poll(() => nextStep(l).textContent()).toBe(`This deal was completed. ${usd(p.rent_cents)} to you, CampusNest fee ${usd(p.fee_cents)} kept.`);
    } finally {
      await renterSide.context.close();
      await listerSide.context.close();
    }
  });

  it("holds the money through a reported problem until staff refund part of it, and releases another deal at its time", { timeout: 240_000 }, async () => {
    const staffToken = (await post<{ token: string }>("admin/login", null, { password: "admin-dev-password" })).token;
    const [lister, renter] = await Promise.all([verifiedStudent("Lars", staffToken), verifiedStudent("Rhea", staffToken)]);
    await payoutsReady(lister);
    const title = `Problem stay ${Date.now() % 100000}`;
    const listing = await approvedListing(lister, staffToken, title);
    const disputed = await paidDeal((await signedDeal(renter, lister, listing.id, dayAfter(listing.today, 20))).id, renter);
    expect(disputed.payment.status).toBe("held");
    const renterSide = await signedInSide(b.browser, b.baseUrl, renter);
    const listerSide = await signedInSide(b.browser, b.baseUrl, lister);
    const staff = await b.browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: b.baseUrl });
    const r = renterSide.page;
    try {
      // The renter reports that they cannot get in: the deal is disputed, nothing is released.
      await r.goto(`/deals/${disputed.id}`);
      await r.getByRole("button", { name: named("Report a problem", title) }).click();
      const report = r.getByRole("dialog", { name: "Report a problem" });
      await report.getByRole("radio", { name: "I can't get in" }).check();
      await report.getByLabel("What happened?").fill("The code to the front door does not work and Lars does not answer.");
      // A photo of the door goes as private evidence (docs/decisions/032): uploaded to upload/evidence, never public.
      await report.getByLabel(/^Photos \(optional/).setInputFiles({ name: "door.jpg", mimeType: "image/jpeg", buffer: Buffer.from(JPEG_1X1, "base64") });
      const evidenceUpload = r.waitForResponse((res) => res.url().endsWith("/api/v1/upload/evidence"));
      await report.getByRole("button", { name: "Send the report" }).click();
      const [photoUrl] = ((await (await evidenceUpload).json()) as { uploaded_files: { url: string }[] }).uploaded_files.map((f) => f.url);
      expect(photoUrl).toMatch(/^\/api\/v1\/evidence\//);
      const anonymous = await fetch(`${b.baseUrl}${photoUrl}`);
      expect(anonymous.status).toBe(401);
      const asLister = await fetch(`${b.baseUrl}${photoUrl}`, { headers: bearer(lister) });
      expect([asLister.status, asLister.headers.get("cache-control")]).toEqual([200, "private, no-store"]);
      await expect.poll(() => nextStep(r).textContent()).toMatch(/CampusNest staff are looking into it; nothing is released until they decide/);
      await r.getByText("Problem reported", { exact: true }).first().waitFor();
      expect(await r.getByRole("button", { name: /I have the keys/ }).count()).toBe(0);
      // The lister reads the same report, with its photo, on their deal page.
      const lp = listerSide.page;
      await lp.goto(`/deals/${disputed.id}`);
      await lp.getByText("The code to the front door does not work and Lars does not answer.").waitFor();
      expect((await dealOf(disputed.id, lister)).problem).toMatchObject({ kind: "cant_get_in", text: "The code to the front door does not work and Lars does not answer.", photos: [photoUrl], statements: [] });

      // Staff find the case in the Deals tab, read the report, and refund $100 of it.
      await signInAdmin(staff, b.baseUrl);
      const s = await staff.newPage();
      await s.goto("/staff");
      await s.getByRole("tab", { name: "Deals", exact: true }).click();
      const card = s.getByRole("listitem").filter({ hasText: title });
      await card.getByText("Case: The renter reported a problem").waitFor();
      await card.getByRole("button", { name: named("Open the case file", title) }).click();
      await card.getByText("The code to the front door does not work and Lars does not answer.").waitFor();
      // Staff's case shows the photo, fetched with the admin bearer (an <img> sends none) and drawn from a blob: URL.
      const photo = card.getByRole("img", { name: "Photo 1 from Rhea Tester" });
      await photo.waitFor();
      await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.src.startsWith("blob:"))).toBe(true);
      const decide = card.getByRole("form", { name: `Decide the case: ${title}` });
      await decide.waitFor();
      await lightAndDark(s, "staff case", { shot: card });
      // On a phone the case's events are labelled cards that fit: nothing to scroll sideways.
      await s.setViewportSize({ width: 360, height: 780 });
      const events = card.getByRole("region", { name: "Events" });
      expect(await events.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
      await s.setViewportSize({ width: 1280, height: 900 });
      await decide.getByLabel("Refund to Rhea Tester (USD)").fill("100");
      const why = "The front door code was fixed on the second day.";
      await decide.getByLabel(/^Reason/).fill(why);
      await decide.getByRole("button", { name: named("Review the decision", title) }).click();
      const rest = usd(disputed.payment.rent_cents - 10_000);
      const sure = s.getByRole("alertdialog", { name: "Refund $100.00 and release the rest?" });
      await sure.getByText(`Rhea Tester gets $100.00 back; Lars Tester gets ${rest} of the rent; CampusNest keeps the service fee (${usd(disputed.payment.fee_cents)}).`, { exact: false }).waitFor();
      await sure.getByText(why).waitFor();
      await sure.getByRole("button", { name: `Refund $100.00, release ${rest}` }).click();
      // Decided, the case leaves the open cases; among the completed deals it says what went back.
      await expect.poll(() => card.count()).toBe(0);
      await s.getByLabel("Status").selectOption({ label: "Completed" });
      await card.getByText(/Released to the lister · paid .* · released .* · \$100\.00 refunded/).waitFor();

      // Both parties read the end: released, with $100 back to the renter.
      expect(await dealOf(disputed.id, lister)).toMatchObject({
        status: "released",
        payment: { status: "released", refunded_cents: 10_000, transferred_cents: disputed.payment.rent_cents - 10_000 },
        decision: { by: "staff", refund_cents: 10_000, transfer_cents: disputed.payment.rent_cents - 10_000, reason: why },
      });
      await r.reload();
      const fee = usd(disputed.payment.fee_cents);
      await expect.poll(() => nextStep(r).textContent()).toBe(`This deal was completed. $100.00 refunded to you, ${rest} to Lars, CampusNest fee ${fee} kept.`);
      await r.locator(".deal-decision-line").getByText(/^CampusNest staff decided on .*\. Reason: The front door code was fixed on the second day\.$/).waitFor();
      await r.getByRole("region", { name: "Receipt" }).getByText("$100.00", { exact: true }).waitFor();
      await lp.goto(`/deals/${disputed.id}`);
      await expect.poll(() => nextStep(lp).textContent()).toBe(`This deal was completed. $100.00 refunded to Rhea, ${rest} to you, CampusNest fee ${fee} kept.`);

      // Another stay of the same renter, paid and left alone: the development tick at its release time releases it.
      const later = await paidDeal((await signedDeal(renter, lister, listing.id, dayAfter(listing.today, 60))).id, renter);
      expect(later.payment.status).toBe("held");
      await post("dev/deals/tick", null, { now: later.payment.held_until });
      expect(await dealOf(later.id, renter)).toMatchObject({ status: "released", payment: { status: "released", refunded_cents: 0 } });
      await r.goto(`/deals/${later.id}`);
      await expect.poll(() => nextStep(r).textContent()).toBe(`This deal was completed. ${usd(later.payment.rent_cents)} to Lars, CampusNest fee ${usd(later.payment.fee_cents)} kept.`);
    } finally {
      await renterSide.context.close();
      await listerSide.context.close();
      await staff.close();
    }
  });
});

/** Until the service worker controls the page (it claims open pages when it activates: decision 027). */
const controlled = (page: Page) => page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
/** The entries the app kept of its deals for reading offline (web/lib/saved-deals.ts). */
const savedDeals = (page: Page) =>
  page.evaluate(async () => (await (await caches.open("saved-deals-v1")).keys()).map((request) => new URL(request.url).pathname).sort());
const OFFLINE_NOT_SAVED = "You're offline, and this page wasn't saved on this device. It will load when you're back online.";

describe("the deal at the door, offline (docs/decisions/042)", () => {
  it("renter and lister each read their paid deal offline; a page never saved says so; the banner follows the connection; sign-out in another tab clears it", { timeout: 240_000 }, async () => {
    const staffToken = (await post<{ token: string }>("admin/login", null, { password: "admin-dev-password" })).token;
    const [lister, renter] = await Promise.all([verifiedStudent("Olla", staffToken), verifiedStudent("Otto", staffToken)]);
    const title = `Door keys ${Date.now() % 100000}`;
    const listing = await approvedListing(lister, staffToken, title);
    await payoutsReady(lister);
    const paid = await paidDeal((await signedDeal(renter, lister, listing.id, dayAfter(listing.today, 1))).id, renter);
    expect(paid.status).toBe("paid");
    // A second listing the renter only asked for: not accepted, so nothing of it is kept (no address yet).
    const other = await approvedListing(lister, staffToken, `${title} annex`);
    const { data: requested } = await post<{ data: Deal }>("deals", renter, { listing_id: other.id, move_in: dayAfter(other.today, 40), move_out: dayAfter(other.today, 70) });

    for (const [who, party] of [["renter", renter], ["lister", lister]] as const) {
      const { context, page } = await signedInSide(b.browser, b.baseUrl, party, { width: 360, height: 780 });
      await page.goto(`/deals/${paid.id}`);
      await page.getByRole("region", { name: "Agreement text" }).waitFor();
      await controlled(page);
      await expect.poll(() => savedDeals(page)).toEqual(["agreement", "agreement.pdf", "deal"].map((part) => `/saved-deals/${party.user.id}/${paid.id}/${part}`));

      // Offline, the page reloads from this device: the address, the receipt, the agreement and its PDF, the contact.
      await context.setOffline(true);
      await page.reload();
      const banner = page.locator(".offline-banner");
      await expect.poll(() => banner.textContent()).toMatch(/^You're offline/);
      await page.getByRole("heading", { level: 1, name: title }).waitFor();
      expect(await page.locator("dt", { hasText: /^Address$/ }).locator("xpath=following-sibling::dd").textContent()).toBe(paid.address);
      await page.getByRole("region", { name: "Receipt" }).getByText("Total paid").waitFor();
      await page.getByRole("region", { name: "Agreement text" }).waitFor();
      const contact = page.getByRole("region", { name: "Your contact" });
      expect(await contact.textContent()).toContain(who === "renter" ? `${lister.user.first_name} ${lister.user.last_name}` : `${renter.user.first_name} ${renter.user.last_name}`);
      await page.getByText(/^Saved on this device on /).waitFor();
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download the signed PDF" }).click()]);
      expect(download.suggestedFilename()).toBe(`campusnest-agreement-${paid.id}-signed.pdf`);
      const pdf = await download.createReadStream().then(async (stream) => {
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      });
      expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      await lightAndDark(page, `offline deal (${who})`, { shot: page.locator("main") });

      if (who === "renter") {
        // A deal never saved on this device says so plainly, then loads once the connection is back, and the banner goes.
        await page.goto(`/deals/${requested.id}`);
        await page.getByText(OFFLINE_NOT_SAVED).waitFor();
        expect(await page.getByText("Something went wrong").count()).toBe(0);
        await context.setOffline(false);
        await page.getByRole("heading", { level: 1, name: `${title} annex` }).waitFor();
        await expect.poll(() => banner.textContent()).toBe("");

        // Signing out in another tab of this browser forgets the saved deal here too.
        await page.goto(`/deals/${paid.id}`);
        await page.getByRole("region", { name: "Agreement text" }).waitFor();
        const second = await context.newPage();
        await second.goto("/");
        await second.getByRole("button", { name: "Account menu" }).click();
        await second.getByRole("menuitem", { name: "Sign Out" }).click();
        await page.getByText("Please log in to see this deal.").waitFor();
        await expect.poll(() => savedDeals(page)).toEqual([]);
        await context.setOffline(true);
        // The worker forgot the kept pages too: it answers its own page (no app to wait for, so not page.goto).
        await page.evaluate((url) => window.location.assign(url), `/deals/${paid.id}`);
        await page.getByText(OFFLINE_NOT_SAVED).waitFor();
        expect(await page.getByText(paid.address).count()).toBe(0);
      }
      await context.setOffline(false);
      await context.close();
    }
    expect(b.errors).toEqual([]);
  });
});
