import { describe, expect, it } from "vitest";
import {
  listingReviewEmail,
  newMessageEmail,
  passwordResetEmail,
  promotionPaymentFailedEmail,
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

  it("a sender's name is quoted plain text that no client turns into a link, in the subject, text and HTML", () => {
    const mail = newMessageEmail("to@ufl.edu", "Maya", bait, "https://campusnest.app/messages?userId=abc");
    const shown = "\u201cClaim $500 at evil\u2024example now\u201d";
    expect(mail.subject).toBe(`New message from ${shown} on CampusNest`);
    expect(mail.text).toContain(`${shown} sent you a message`);
    expect(mail.html).toContain(`${shown} sent you a message`);
    for (const part of [mail.subject, mail.text, mail.html]) expect(part).not.toContain("evil.example");
    // The only link is ours.
    expect([...mail.html.matchAll(/href="([^"]*)"/g)].map((m) => m[1])).toEqual(["https://campusnest.app/messages?userId=abc"]);
  });

  it("schemes, slashes, full-width dots, markup and invisible characters are defused too", () => {
    expect(quotedName("https://evil.example/win")).toBe("\u201chttps:\u2215\u2215evil\u2024example\u2215win\u201d");
    expect(quotedName("evil\u3002example")).toBe("\u201cevil\u2024example\u201d");
    expect(quotedName("\u202eMaya\u200b")).toBe("\u201cMaya\u201d");
    const html = verificationCodeEmail("to@ufl.edu", '<a href="https://evil.example">Maya</a>', "123456").html;
    expect(html).not.toContain("<a href=\"https://evil");
    expect(html).toContain("Welcome, \u201c&lt;a href=&quot;https:\u2215\u2215evil\u2024example&quot;&gt;Maya&lt;\u2215a&gt;\u201d!");
  });

  it("the recipient's own name is quoted in every email that greets them", () => {
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
      expect(mail.text, mail.subject).toContain("\u201cClaim $500 at evil\u2024example now\u201d");
      expect(mail.text + mail.html, mail.subject).not.toContain("evil.example");
    }
  });
});
