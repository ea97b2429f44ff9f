/**
 * After the keys (docs/decisions/040), in two browsers (the renter's and the lister's): from the release
 * to both reviews visible (neither reads the other's before writing; the reviewed replies once), and from
 * the move-in report (a damaged room, a photo from the camera input) to a problem with the report's
 * photos attached, the lister's one comment between, and staff's case showing the report in a third.
 * The deal jobs run at the release time through the development tick, never a real-clock wait.
 * With E2E_SHOTS=<directory>, the deal page, the problem dialog, the staff case and the staff Reviews
 * tab are saved at 360 and 1280 px in both themes (for a person to look at; nothing is compared).
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useBrowser } from "./fixtures";
import { dealSteps } from "./deal-steps";
import { screenshots } from "./screenshots";
import { JPEG_1X1, signedInSide, signInAdmin, type AuthSession } from "./session";

const b = useBrowser({ width: 1280, height: 900 });
const steps = () => dealSteps(b.baseUrl);

/** A POST the API refuses: its status. */
async function refusedWith(path: string, who: AuthSession, body: unknown): Promise<number> {
  const res = await fetch(`${b.baseUrl}/api/v1/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", Authorization: `Bearer ${who.access_token}`, "cf-connecting-ip": `10.8.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` },
    body: JSON.stringify(body),
  });
  return res.status;
}

const reviewsOf = (page: Page) => page.getByRole("region", { name: "Reviews" });


describe("after the keys", () => {
  it("from the release to both reviews visible: hidden from each other until both wrote, then one reply", { timeout: 240_000 }, async () => {
    const s = steps();
    const title = `Reviewed stay ${Date.now() % 100000}`;
    const { lister, renter, deal } = await s.heldDealMovingInToday({ lister: "Lara", renter: "Rory" }, title);
    await s.released(deal.id, renter);
    const renterSide = await signedInSide(b.browser, b.baseUrl, renter);
    const listerSide = await signedInSide(b.browser, b.baseUrl, lister);
    const [r, l] = [renterSide.page, listerSide.page];
    const staffContext = await b.browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: b.baseUrl });
    try {
      // The renter writes first.
      await r.goto(`/deals/${deal.id}`);
      const rr = reviewsOf(r);
      await rr.getByRole("radio", { name: "5 stars" }).check();
      await rr.getByLabel("Your review of Lara").fill("Exactly as described, and Lara answered fast.");
      await rr.getByRole("button", { name: "Send review" }).click();
      await rr.getByRole("heading", { name: "Your review" }).waitFor();
      await rr.getByText(/Both reviews are shown together/).waitFor();

      // The lister is told the renter wrote, never what.
      await l.goto(`/deals/${deal.id}`);
      const lr = reviewsOf(l);
      await lr.getByText("Rory has written theirs.", { exact: false }).waitFor();
      expect(await lr.getByText("Exactly as described").count()).toBe(0);
      // And the renter, reloading, still reads only their own.
      await r.reload();
      await rr.getByRole("heading", { name: "Your review" }).waitFor();
      expect(await rr.getByRole("heading", { name: "Lara's review of you" }).count()).toBe(0);

      // The lister writes: both are revealed at once.
      await lr.getByRole("radio", { name: "4 stars" }).check();
      await lr.getByLabel("Your review of Rory").fill("Paid on time and left the room clean.");
      await lr.getByRole("button", { name: "Send review" }).click();
      await lr.getByRole("heading", { name: "Rory's review of you" }).waitFor();
      await lr.getByText("Exactly as described, and Lara answered fast.").waitFor();
      await r.reload();
      await rr.getByRole("heading", { name: "Lara's review of you" }).waitFor();
      await rr.getByText("Paid on time and left the room clean.").waitFor();
      expect(await rr.getByText(/Both reviews are shown together/).count()).toBe(0);

      // The reviewed person replies, once.
      await lr.getByLabel("Your reply (once)").fill("Thank you, Rory!");
      await lr.getByRole("button", { name: "Reply" }).click();
      await lr.getByText("Thank you, Rory!").waitFor();
      await expect.poll(() => lr.getByLabel("Your reply (once)").count()).toBe(0);
      await r.reload();
      await rr.getByText("Thank you, Rory!").waitFor();
      const reviews = await fetch(`${b.baseUrl}/api/v1/users/${lister.user.id}/reviews`).then((res) => res.json() as Promise<{ data: { id: string; text: string }[]; summary: { count: number; average: number } }>);
      expect(reviews.summary).toEqual({ count: 1, average: 5 });
      expect(await refusedWith(`reviews/${reviews.data[0]!.id}/reply`, lister, { text: "Again" })).toBe(409);
      await screenshots(r, "deal-after-the-keys-renter");

      // The summaries: the renter's as a renter on the request card the lister reads ("New" below 3), and one's own on the profile.
      await l.goto(`/messages?userId=${encodeURIComponent(renter.user.id)}`);
      await l.locator(".deal-card").getByRole("img", { name: "Rory's reviews as a renter: average 4.0 out of 5 from 1 review, new" }).waitFor();
      await screenshots(l, "thread-request-card");
      await r.goto("/profile");
      await r.getByRole("list", { name: "Your reviews" }).getByRole("img", { name: "Your reviews as a renter: average 4.0 out of 5 from 1 review, new" }).waitFor();
      await screenshots(r, "profile-reviews");

      // A review can be reported (here by the person it is about): it is in staff's queue with the reason, and Keep takes it out.
      await s.post(`reviews/${reviews.data[0]!.id}/report`, lister, { reason: "Mentions my private schedule" });
      await signInAdmin(staffContext, b.baseUrl);
      const staff = await staffContext.newPage();
      await staff.goto("/staff");
      await staff.getByRole("tab", { name: "Reviews", exact: true }).click();
      const queued = staff.getByRole("listitem", { name: "Review by Rory (renter) about Lara" });
      await queued.getByText("“Mentions my private schedule”").waitFor();
      await screenshots(staff, "staff-reviews-queue");
      await queued.getByRole("button", { name: /^Keep/ }).click();
      await expect.poll(() => queued.count()).toBe(0);
    } finally {
      await renterSide.context.close();
      await listerSide.context.close();
      await staffContext.close();
    }
  });

  it("from the move-in report to a problem with the report attached, which staff's case shows", { timeout: 240_000 }, async () => {
    const s = steps();
    const title = `Checked-in stay ${Date.now() % 100000}`;
    const { lister, renter, deal } = await s.heldDealMovingInToday({ lister: "Mira", renter: "Theo" }, title);
    const renterSide = await signedInSide(b.browser, b.baseUrl, renter, { width: 360, height: 780 });
    const listerSide = await signedInSide(b.browser, b.baseUrl, lister);
    const [r, l] = [renterSide.page, listerSide.page];
    const staffContext = await b.browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: b.baseUrl });
    try {
      // The renter walks the place on a phone: a damaged bathroom with a photo from the camera input, a good kitchen.
      await r.goto(`/deals/${deal.id}`);
      const form = r.getByRole("form", { name: "Move-in report" });
      await form.getByLabel("Room name").fill("Bathroom");
      await form.getByRole("radio", { name: "Damaged" }).check();
      await form.getByLabel("Note").fill("Cracked sink");
      await form.locator('input[type="file"][capture]').first().setInputFiles({ name: "sink.jpg", mimeType: "image/jpeg", buffer: Buffer.from(JPEG_1X1, "base64") });
      await form.getByText("Take photos (1)").waitFor();
      await form.getByRole("button", { name: "Add a room" }).click();
      await form.getByLabel("Room name").nth(1).fill("Kitchen");
      await screenshots(r, "move-in-report-form", form);
      await form.getByRole("button", { name: /Send report/ }).click();
      const sent = r.getByRole("article", { name: "move-in report" });
      await sent.getByText("Cracked sink").waitFor();
      await sent.getByRole("img", { name: "Bathroom, photo 1" }).waitFor();
      expect(await r.getByRole("form", { name: "Move-in report" }).count()).toBe(0);

      // The lister reads it, with the photo, and comments once.
      await l.goto(`/deals/${deal.id}`);
      const seen = l.getByRole("article", { name: "move-in report" });
      await seen.getByText("Cracked sink").waitFor();
      await seen.getByRole("img", { name: "Bathroom, photo 1" }).waitFor();
      await seen.getByLabel("Your comment (once)").fill("The sink was already chipped; I told the landlord.");
      await seen.getByRole("button", { name: "Send comment" }).click();
      await seen.getByText("The sink was already chipped; I told the landlord.").waitFor();
      await expect.poll(() => seen.getByLabel("Your comment (once)").count()).toBe(0);
      expect(await refusedWith(`deals/${deal.id}/condition-report/move_in/comment`, lister, { text: "Again" })).toBe(409);

      // The renter reports a problem from the damaged room: the dialog opens prefilled with the room's photo attached.
      await r.reload();
      const report = r.getByRole("article", { name: "move-in report" });
      expect(await report.getByRole("button", { name: /Report a problem\s*:?\s*Kitchen/ }).count()).toBe(0);
      await report.getByRole("button", { name: /Report a problem\s*:?\s*Bathroom/ }).click();
      const dialog = r.getByRole("dialog", { name: "Report a problem" });
      expect(await dialog.getByRole("radio", { name: "Not as described" }).isChecked()).toBe(true);
      expect(await dialog.getByLabel("What happened?").inputValue()).toMatch(/Bathroom is damaged\. Cracked sink$/);
      await dialog.getByRole("list", { name: "Attached photos" }).getByRole("img").waitFor();
      await screenshots(r, "problem-from-room", dialog);
      await dialog.getByRole("button", { name: "Send the report" }).click();
      await r.getByText("Problem reported", { exact: true }).first().waitFor();
      const disputed = await s.dealOf(deal.id, renter);
      const reports = await fetch(`${b.baseUrl}/api/v1/deals/${deal.id}/condition-reports`, { headers: { Authorization: `Bearer ${renter.access_token}` } }).then(
        (res) => res.json() as Promise<{ data: { rooms: { name: string; photos: { url: string }[] }[] }[] }>,
      );
      const bathroomPhotos = reports.data[0]!.rooms.find((room) => room.name === "Bathroom")!.photos.map((p) => p.url);
      expect(disputed).toMatchObject({ status: "disputed", problem: { kind: "not_as_described", photos: bathroomPhotos } });
      expect(disputed.problem!.text).toMatch(/Bathroom is damaged\. Cracked sink$/);

      // Staff's case shows the report beside the problem, the attached room marked, its photo by the bearer.
      await signInAdmin(staffContext, b.baseUrl);
      const staff = await staffContext.newPage();
      await staff.goto("/staff");
      await staff.getByRole("tab", { name: "Deals", exact: true }).click();
      const item = staff.getByRole("listitem").filter({ has: staff.getByText(title, { exact: true }) });
      await item.getByRole("button", { name: /^Open the case file/ }).click();
      const caseReports = item.getByRole("region", { name: "Condition reports" });
      const moveIn = caseReports.getByRole("article", { name: "Move-in report" });
      await moveIn.getByText("Attached to the problem").waitFor();
      await moveIn.getByText("The sink was already chipped; I told the landlord.").waitFor();
      await moveIn.getByRole("img", { name: "Bathroom, photo 1" }).waitFor();
      await screenshots(staff, "staff-case-condition-reports", item);
      await screenshots(l, "deal-condition-report-lister");
    } finally {
      await renterSide.context.close();
      await listerSide.context.close();
      await staffContext.close();
    }
  });
});
