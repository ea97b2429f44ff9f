import { describe, expect, it } from "vitest";
import {
  listingReviewEmail,
  newMessageEmail,
  passwordResetEmail,
  promotionPaymentFailedEmail,
  promotionReceiptEmail,
  promotionStoppedEmail,
  quotedName,
  savedSearchAlertEmail,
  stillAvailableEmail,
  verificationCodeEmail,
  verificationReviewEmail,
} from "../../../worker/services/email-templates";

describe("the emails' shared layout", () => {
  it("renders at a phone's width (viewport meta), the saved-search alert included", () => {
    const viewport = '<meta name="viewport" content="width=device-width, initial-scale=1">';
    const alert = savedSearchAlertEmail("maya@ufl.edu", "Maya", "UF fall", [{ title: "Sunny room", monthlyRent: 800, url: "https://x/l/1" }], 1, "https://x/s", "https://x/u");
    expect(alert.html.startsWith(`<!doctype html><html><head>${viewport}</head><body`)).toBe(true);
    expect(verificationCodeEmail("maya@ufl.edu", "Maya", "123456").html).toContain(viewport);
  });
});

describe("names in emails", () => {
  const bait = "Claim $500 at evil.example now";

  it("a sender's name is plain text that no client turns into a link, in the subject, text and HTML", () => {
    const mail = newMessageEmail("to@ufl.edu", "Maya", bait, "https://campusnest.app/messages?userId=abc");
    const shown = "Claim $500 at evil\u2024example now";
    expect(mail.subject).toBe(`New message from ${shown} on CampusNest`);
    expect(mail.text).toContain(`${shown} sent you a message`);
    expect(mail.html).toContain(`${shown} sent you a message`);
    for (const part of [mail.subject, mail.text, mail.html]) expect(part).not.toContain("evil.example");
    // The only link is ours.
    expect([...mail.html.matchAll(/href="([^"]*)"/g)].map((m) => m[1])).toEqual(["https://campusnest.app/messages?userId=abc"]);
  });

  it("schemes, slashes, full-width dots, markup and invisible characters are defused too", () => {
    expect(quotedName("https://evil.example/win")).toBe("https:\u2215\u2215evil\u2024example\u2215win");
    expect(quotedName("evil\u3002example")).toBe("evil\u2024example");
    expect(quotedName("\u202eMaya\u200b")).toBe("Maya");
    const html = verificationCodeEmail("to@ufl.edu", '<a href="https://evil.example">Maya</a>', "123456").html;
    expect(html).not.toContain("<a href=\"https://evil");
    expect(html).toContain("Welcome, &lt;a href=&quot;https:\u2215\u2215evil\u2024example&quot;&gt;Maya&lt;\u2215a&gt;!");
  });

  it("the recipient's own name, unquoted, is in every email that greets them", () => {
    const greeted = [
      verificationCodeEmail("to@ufl.edu", bait, "123456"),
      passwordResetEmail("to@ufl.edu", bait, "123456"),
      listingReviewEmail("to@ufl.edu", bait, "Room", true, null),
      verificationReviewEmail("to@ufl.edu", bait, false, "blurry"),
      promotionPaymentFailedEmail("to@ufl.edu", bait, "Room", "https://campusnest.app/billing"),
      stillAvailableEmail("to@ufl.edu", bait, "Room", "https://campusnest.app/a", "https://campusnest.app/t"),
      savedSearchAlertEmail("to@ufl.edu", bait, "UF", [], 0, "https://campusnest.app/s", "https://campusnest.app/u"),
    ];
    for (const mail of greeted) {
      expect(mail.text, mail.subject).toContain("Claim $500 at evil\u2024example now");
      expect(mail.text + mail.html, mail.subject).not.toContain("evil.example");
    }
  });
});

describe("promotion receipts and stops", () => {
  it("a receipt carries the amount from minor units, the listing, the period and the date, the title escaped in HTML", () => {
    const at = (iso: string) => Date.parse(iso) / 1000;
    const receipt = { title: "Room <b>A</b>", amount: 500, currency: "usd", periodStart: at("2026-11-30T12:00:00Z"), periodEnd: at("2026-12-07T12:00:00Z"), paidAt: at("2026-11-30T12:00:05Z"), invoiceId: "in_1" };
    const mail = promotionReceiptEmail("maya@ufl.edu", "Maya", receipt, "https://x/billing?listing_id=l1");
    expect(mail.subject).toBe('Receipt: $5.00 for the promotion of "Room <b>A</b>"');
    expect(mail.text).toContain("Amount: $5.00");
    expect(mail.text).toContain("Period: Nov 30, 2026 to Dec 7, 2026");
    expect(mail.text).toContain("Date: Nov 30, 2026");
    expect(mail.html).toContain("Room &lt;b&gt;A&lt;/b&gt;");
    expect(mail.html).not.toContain("<b>A</b>");
    expect(promotionReceiptEmail("maya@ufl.edu", "Maya", { ...receipt, amount: 1250, currency: "eur" }, "https://x").text).toContain("Amount: €12.50");
  });

  it("a stop says why and until when; a deleted listing or account gets no run-until date and no restart advice", () => {
    const taken = promotionStoppedEmail("maya@ufl.edu", "Maya", "Room A", "taken", "2026-12-07T12:00:00.000Z", "https://x/billing");
    expect(taken.text).toContain("You marked the listing as taken.");
    expect(taken.text).toContain("What you paid for runs until Dec 7, 2026.");
    expect(taken.text).toContain("does not restart it");
    const gone = promotionStoppedEmail("maya@ufl.edu", "Maya", "Room A", "account_deleted", "2026-12-07T12:00:00.000Z", null);
    expect(gone.text).toContain("Your account was deleted.");
    expect(gone.text).not.toContain("runs until");
    expect(gone.text).not.toContain("Open billing");
  });
});
