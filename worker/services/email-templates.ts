/**
 * The product's emails: HTML (inline styles: mail clients ignore stylesheets) plus plain text.
 * Every value placed in HTML is escaped.
 */
import type { EmailMessage } from "./email";
import { formatDate } from "../contract/dates";
import { HASH_LABELS } from "../contract/deals";

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

/**
 * A name someone typed, as emails show it: plain text that no mail client turns into a link, without
 * quotes around it ("Welcome, Nora!": a greeting, not a citation).
 * Names with web addresses are refused at sign-up and profile edit, but older names, Google's names
 * and look-alikes must still never become a link in an email we send (to any address): each dot
 * becomes U+2024 ONE DOT LEADER and each slash U+2215 DIVISION SLASH (they look the same, and
 * linkifiers do not read them as a host or a scheme). HTML escaping is render()'s, as for every value.
 */
export function quotedName(name: string): string {
  const plain = name
    .replace(/[\p{Cc}\p{Cf}]/gu, "")
    .replace(/[.\u3002\uff0e\uff61]/g, "\u2024")
    .replace(/[/\uff0f]/g, "\u2215")
    .trim();
  return plain;
}

interface Layout {
  /** Further buttons after `link` (HTML) and addresses (text). */
  moreLinks?: { href: string; label: string }[];
  to: string;
  subject: string;
  preheader: string;
  heading: string;
  paragraphs: string[];
  code?: string;
  /** A button (HTML) and a bare address (text). */
  link?: { href: string; label: string };
  /** A list of linked entries after the paragraphs (saved-search alerts: the new listings). */
  items?: { href: string; label: string; detail: string }[];
  footnote: string;
}

function render({ to, subject, preheader, heading, paragraphs, code, link, moreLinks = [], items = [], footnote }: Layout): EmailMessage {
  const html = `<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"></head><body style="margin:0;background:#f6f7f9;font-family:system-ui,-apple-system,Segoe UI,Roboto,Arial,sans-serif;color:#14171c">
<span style="display:none">${escapeHtml(preheader)}</span>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="padding:24px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:520px;background:#ffffff;border:1px solid #dde1e7;border-radius:12px;padding:28px">
<tr><td style="font-size:20px;font-weight:800;color:#1f6feb;padding-bottom:16px">CampusNest</td></tr>
<tr><td style="font-size:22px;font-weight:700;padding-bottom:12px">${escapeHtml(heading)}</td></tr>
${paragraphs.map((p) => `<tr><td style="font-size:16px;line-height:1.5;padding-bottom:12px">${escapeHtml(p)}</td></tr>`).join("")}
${items.map((i) => `<tr><td style="font-size:16px;line-height:1.4;padding:0 0 12px"><a href="${escapeHtml(i.href)}" style="color:#1f6feb;font-weight:700">${escapeHtml(i.label)}</a><br><span style="color:#5b6472">${escapeHtml(i.detail)}</span></td></tr>`).join("")}
${code ? `<tr><td style="padding:8px 0 20px"><div style="font-size:32px;letter-spacing:8px;font-weight:800;background:#e8f0fe;color:#14171c;border-radius:8px;padding:14px 0;text-align:center">${escapeHtml(code)}</div></td></tr>` : ""}
${link ? `<tr><td style="padding:8px 0 20px"><a href="${escapeHtml(link.href)}" style="display:inline-block;background:#1f6feb;color:#ffffff;text-decoration:none;font-weight:700;border-radius:8px;padding:12px 20px">${escapeHtml(link.label)}</a></td></tr>` : ""}
${moreLinks.map((l) => `<tr><td style="padding:0 0 20px"><a href="${escapeHtml(l.href)}" style="display:inline-block;background:#ffffff;color:#1f6feb;border:1px solid #1f6feb;text-decoration:none;font-weight:700;border-radius:8px;padding:12px 20px">${escapeHtml(l.label)}</a></td></tr>`).join("")}
<tr><td style="font-size:13px;color:#5b6472;border-top:1px solid #dde1e7;padding-top:14px">${escapeHtml(footnote)}</td></tr>
</table></td></tr></table></body></html>`;
  const text = [heading, "", ...paragraphs, ...items.flatMap((i) => [`${i.label} (${i.detail}): ${i.href}`]), ...(code ? ["", `    ${code}`, ""] : [""]), ...(link ? [`${link.label}: ${link.href}`, ""] : []), ...moreLinks.flatMap((l) => [`${l.label}: ${l.href}`, ""]), footnote, "", "CampusNest"].join("\n");
  return { to, subject, html, text };
}

export function verificationCodeEmail(to: string, firstName: string, code: string): EmailMessage {
  return render({
    to,
    subject: `${code} is your CampusNest verification code`,
    preheader: `Your code is ${code}. It expires in 15 minutes.`,
    heading: `Welcome, ${quotedName(firstName)}!`,
    paragraphs: ["Enter this code on CampusNest to verify your email address. It expires in 15 minutes."],
    code,
    footnote: "If you didn't create a CampusNest account, you can ignore this email.",
  });
}

export function passwordResetEmail(to: string, firstName: string, code: string): EmailMessage {
  return render({
    to,
    subject: `${code} is your CampusNest password reset code`,
    preheader: `Your reset code is ${code}. It expires in 15 minutes.`,
    heading: `Reset your password, ${quotedName(firstName)}`,
    paragraphs: [
      "Enter this code on CampusNest to choose a new password. It expires in 15 minutes.",
      "Resetting your password signs you out on every device.",
    ],
    code,
    footnote: "If you didn't ask to reset your password, ignore this email: your password stays the same.",
  });
}

/** Sign-in by emailed code (the way in when password sign-in is throttled, or to link Google). */
export function signInCodeEmail(to: string, code: string): EmailMessage {
  return render({
    to,
    subject: `${code} is your CampusNest sign-in code`,
    preheader: `Your sign-in code is ${code}. It expires in 15 minutes.`,
    heading: "Your sign-in code",
    paragraphs: ["Enter this code on CampusNest to sign in. It expires in 15 minutes."],
    code,
    footnote: "If you didn't try to sign in, ignore this email: nobody can sign in without this code.",
  });
}

/** The code that confirms a school address for the school email badge (docs/decisions/028). */
export function schoolEmailCodeEmail(to: string, firstName: string, code: string, domain: string): EmailMessage {
  return render({
    to,
    subject: `${code} is your CampusNest school email code`,
    preheader: `Your code is ${code}. It expires in 15 minutes.`,
    heading: firstName ? `Confirm your school email, ${quotedName(firstName)}` : "Confirm your school email",
    paragraphs: [
      "Enter this code in your CampusNest profile to confirm this school address. It expires in 15 minutes.",
      `Once confirmed, your profile, listings and chats show "School email verified: ${domain}". The address itself is never shown.`,
    ],
    code,
    footnote: "If you didn't add this address on CampusNest, you can ignore this email: nothing changes without the code.",
  });
}

export function listingReviewEmail(to: string, firstName: string, title: string, approved: boolean, reason: string | null): EmailMessage {
  return render({
    to,
    subject: approved ? `Your listing "${title}" is live` : `Your listing "${title}" needs changes`,
    preheader: approved ? "Students can now find it on CampusNest." : "Our team could not approve it yet.",
    heading: approved ? `Good news, ${quotedName(firstName)}!` : `About your listing, ${quotedName(firstName)}`,
    paragraphs: approved
      ? [`"${title}" was approved and is now visible to students on CampusNest.`]
      : [`"${title}" was not approved.`, `Reason: ${reason ?? "not given"}`, "Edit the listing to fix it; it goes back to review when you save."],
    footnote: "You can turn these emails off in your profile's notification settings.",
  });
}

/** The photo check sent a listing back to review: why, in the owner's words (never the other listing). */
export function listingPhotoMatchEmail(to: string, firstName: string, title: string, notice: string, url: string): EmailMessage {
  return render({
    to,
    subject: `Your listing "${title}" is back in review`,
    preheader: notice,
    heading: `About your listing, ${quotedName(firstName)}`,
    paragraphs: [`"${title}" is back in review: only you can see it until our team has looked.`, notice, "If the photos are your own, there is nothing to do."],
    link: { href: url, label: "Open your listing" },
    footnote: "You can turn these emails off in your profile's notification settings.",
  });
}

export function verificationReviewEmail(to: string, firstName: string, approved: boolean, reason: string | null): EmailMessage {
  return render({
    to,
    subject: approved ? "You're verified on CampusNest" : "Your CampusNest identity check needs another look",
    preheader: approved ? "You can now create listings." : "Please submit a new document.",
    heading: approved ? `You're verified, ${quotedName(firstName)}!` : `About your identity check, ${quotedName(firstName)}`,
    paragraphs: approved
      ? ["Our team approved your document. You can now create listings."]
      : ["Our team could not verify your document.", `Reason: ${reason ?? "not given"}`, "You can submit a new document from the Get verified page."],
    footnote: "You can turn these emails off in your profile's notification settings.",
  });
}

/** A new message while the recipient was away (at most one per conversation every 15 minutes). */
export function newMessageEmail(to: string, firstName: string, senderFirstName: string, url: string): EmailMessage {
  const senderName = quotedName(senderFirstName);
  return render({
    to,
    subject: `New message from ${senderName} on CampusNest`,
    preheader: `${senderName} sent you a message.`,
    heading: `You have a new message, ${quotedName(firstName)}`,
    paragraphs: [`${senderName} sent you a message on CampusNest. Open your messages to read it and reply.`],
    link: { href: url, label: "Open messages" },
    footnote: "You can turn these emails off in your profile's notification settings.",
  });
}

/** A renewal payment of a listing's promotion failed (a billing email: always sent). */
export function promotionPaymentFailedEmail(to: string, firstName: string, title: string, url: string): EmailMessage {
  return render({
    to,
    subject: `Payment failed for the promotion of "${title}"`,
    preheader: "We could not renew your listing's promotion.",
    heading: `About your promotion, ${quotedName(firstName)}`,
    paragraphs: [
      `We could not charge your card for the weekly promotion of "${title}".`,
      "The payment will be retried. Update your card to keep the listing promoted; otherwise the promotion ends.",
    ],
    link: { href: url, label: "Open billing" },
    footnote: "You receive this email because you bought a promotion on CampusNest.",
  });
}

/** A second promotion subscription of one listing was paid (two tabs, Back): cancelled and refunded (a billing email: always sent). */
export function promotionDuplicateRefundedEmail(to: string, firstName: string, title: string, url: string): EmailMessage {
  return render({
    to,
    subject: `We refunded a duplicate promotion payment for "${title}"`,
    preheader: "Your listing was already promoted; the second payment is refunded.",
    heading: `About your promotion, ${quotedName(firstName)}`,
    paragraphs: [
      `"${title}" was paid for twice (for example from two tabs). A listing has one promotion, so we cancelled the second subscription at once and refunded its payment.`,
      "Your first promotion keeps running as before. The refund reaches your card within 5 to 10 business days.",
    ],
    link: { href: url, label: "Open billing" },
    footnote: "You receive this email because you bought a promotion on CampusNest.",
  });
}

/** Fresh listings: every 14 days, one question with two one-click links (valid 7 days, no sign-in). */
export function stillAvailableEmail(to: string, firstName: string, title: string, availableUrl: string, takenUrl: string): EmailMessage {
  return render({
    to,
    subject: `Is ${title} still available?`,
    preheader: "One click keeps your listing in search results.",
    heading: `Is ${title} still available, ${quotedName(firstName)}?`,
    paragraphs: [
      "Students trust listings that are up to date. Tell us with one click (no need to sign in):",
      "If we don't hear from you, the listing is paused 21 days after you last confirmed it. You can bring it back from your profile at any time.",
    ],
    link: { href: availableUrl, label: "Still available" },
    moreLinks: [{ href: takenUrl, label: "Taken" }],
    footnote: "These links work for 7 days. You receive this email because you have a listing on CampusNest.",
  });
}

/**
 * A saved search's alert (decision 020): the new listings that match (title, rent, street and area, link), a link that
 * opens the search, and an unsubscribe link that works without signing in.
 */
export function savedSearchAlertEmail(
  to: string,
  firstName: string,
  searchName: string,
  /** `area`: the listing's public address (never the house number or unit: decision 024). */
  listings: { title: string; monthlyRent: number; area?: string; url: string }[],
  total: number,
  searchUrl: string,
  unsubscribeUrl: string,
): EmailMessage {
  const more = total - listings.length;
  return render({
    to,
    subject: total === 1 ? `New listing for "${searchName}"` : `${total} new listings for "${searchName}"`,
    preheader: total === 1 ? `${listings[0]?.title ?? "A new listing"} matches your saved search.` : `${total} new listings match your saved search.`,
    heading: `New on CampusNest for "${searchName}"`,
    paragraphs: [`Hi ${quotedName(firstName)}, ${total === 1 ? "a listing that matches your saved search was just published" : `${total} listings that match your saved search were published`}:`],
    items: listings.map((l) => ({ href: l.url, label: l.title, detail: [`$${l.monthlyRent.toLocaleString("en-US")}/month`, l.area].filter(Boolean).join(" · ") })),
    link: { href: searchUrl, label: more > 0 ? `Open your search (${more} more)` : "Open your search" },
    moreLinks: [{ href: unsubscribeUrl, label: "Unsubscribe from this search" }],
    footnote: "You get at most one email a day for each saved search. Unsubscribe stops this search's alerts (no sign-in needed); pause, rename or delete your searches, or turn saved search alerts off, in your profile.",
  });
}

/** Money in minor units as a person reads it ("$5.00"). */
const money = (amount: number, currency: string) => (amount / 100).toLocaleString("en-US", { style: "currency", currency: currency.toUpperCase() });
/** An epoch-seconds time as a receipt prints its date ("Dec 12, 2026": the year always, the UTC day). */
const dateOf = (seconds: number) => formatDate(new Date(seconds * 1000).toISOString().slice(0, 10), { year: "always" });

/** A paid invoice of a listing's promotion (a billing email: always sent). */
export function promotionReceiptEmail(
  to: string,
  firstName: string,
  receipt: { title: string; amount: number; currency: string; periodStart: number; periodEnd: number; paidAt: number; invoiceId: string },
  url: string,
): EmailMessage {
  const amount = money(receipt.amount, receipt.currency);
  return render({
    to,
    subject: `Receipt: ${amount} for the promotion of "${receipt.title}"`,
    preheader: `We received your payment of ${amount}.`,
    heading: `Thanks for your payment, ${quotedName(firstName)}`,
    paragraphs: [
      `Amount: ${amount}`,
      `Listing: "${receipt.title}"`,
      `Period: ${dateOf(receipt.periodStart)} to ${dateOf(receipt.periodEnd)}`,
      `Date: ${dateOf(receipt.paidAt)}`,
      `Invoice: ${receipt.invoiceId}`,
    ],
    link: { href: url, label: "Open billing" },
    footnote: "You receive this email because you bought a promotion on CampusNest. Keep it as your receipt.",
  });
}

/** Why a promotion stopped renewing, as its email says it. */
export type PromotionStopReason = "cancelled" | "taken" | "hidden" | "paused" | "deleted" | "deleted_by_staff" | "account_deleted";

const STOP_REASON: Record<PromotionStopReason, string> = {
  cancelled: "You cancelled its subscription.",
  taken: "You marked the listing as taken.",
  hidden: "You hid the listing.",
  paused: "The listing was paused because its availability was not confirmed for 21 days.",
  deleted: "You deleted the listing.",
  deleted_by_staff: "Our team deleted the listing.",
  account_deleted: "Your account was deleted.",
};

/** A promotion will not renew (Cancel, or its listing taken, hidden, paused or deleted): a billing email, always sent. */
export function promotionStoppedEmail(to: string, firstName: string, title: string, reason: PromotionStopReason, endsAt: string | null, url: string | null): EmailMessage {
  const end = endsAt ? dateOf(Date.parse(endsAt) / 1000) : null;
  const gone = reason === "deleted" || reason === "deleted_by_staff" || reason === "account_deleted";
  return render({
    to,
    subject: `The promotion of "${title}" will not renew`,
    preheader: "You will not be charged again for it.",
    heading: `About your promotion, ${quotedName(firstName)}`,
    paragraphs: [
      STOP_REASON[reason],
      `The weekly promotion of "${title}" will not renew, and you will not be charged again for it.${end && !gone ? ` What you paid for runs until ${end}.` : ""}`,
      ...(gone || reason === "cancelled" ? [] : ["Making the listing available again does not restart it: promote it again from your profile if you want to."]),
    ],
    ...(url && { link: { href: url, label: "Open billing" } }),
    footnote: "You receive this email because you bought a promotion on CampusNest.",
  });
}

/** A step of a deal (a request, an answer, an end): one template, worded by the caller (docs/decisions/026). */
export function dealUpdateEmail(to: string, firstName: string, subject: string, lines: string[], url: string): EmailMessage {
  return render({
    to,
    subject,
    preheader: lines[0] ?? subject,
    heading: firstName ? `Hi ${quotedName(firstName)}` : "Hello",
    paragraphs: lines,
    link: { href: url, label: "Open the deal" },
    footnote: "You receive this email because you take part in a sublease deal on CampusNest.",
  });
}

/** The code that confirms a signature (always sent). */
export function dealSignCodeEmail(to: string, firstName: string, title: string, code: string): EmailMessage {
  return render({
    to,
    subject: "Your signing code",
    preheader: "Confirm your signature of the sublease agreement.",
    heading: `Signing code, ${quotedName(firstName)}`,
    paragraphs: [`Enter this code to sign the sublease agreement for "${title}". It works for 15 minutes. If you did not ask to sign, ignore this email.`],
    code,
    footnote: "CampusNest never asks for this code by message or phone.",
  });
}

/** Both signed: the signed agreement's link (always sent). */
export function dealSignedEmail(to: string, firstName: string, title: string, sha256: { text: string; file: string | null }, url: string): EmailMessage {
  return render({
    to,
    subject: `Signed: the sublease agreement for "${title}"`,
    preheader: "Both of you signed. Your copy of the agreement is ready.",
    heading: `It is signed, ${quotedName(firstName)}`,
    paragraphs: [
      `Both of you signed the sublease agreement for "${title}". Download your copy (a PDF with a certificate page of every step) from the deal; keep it.`,
      // Labelled as the PDF and the deal page label them (services/deals/pdf.ts HASH_LABELS, docs/decisions/044).
      `${HASH_LABELS.text} (the words both of you signed, as the deal page shows it): ${sha256.text}`,
      ...(sha256.file ? [`${HASH_LABELS.file} (the file you download, to check your copy is the one made at signing): ${sha256.file}`] : []),
    ],
    link: { href: url, label: "Open the deal" },
    footnote: "You have the right to a paper copy: reply to this email and we will post one.",
  });
}

/** The landlord's consent request (no account needed; always sent). */
export function landlordConsentEmail(to: string, landlordName: string, tenantName: string, subtenantName: string, address: string, term: string, url: string): EmailMessage {
  return render({
    to,
    // The address is the deal's snapshot, quoted like a name: no link or host can be smuggled into it (docs/decisions/035).
    subject: `Consent to sublet requested for ${quotedName(address)}`,
    preheader: `${quotedName(tenantName)} asks your consent to sublet to ${quotedName(subtenantName)}.`,
    heading: landlordName ? `Hello ${quotedName(landlordName)}` : "Hello",
    paragraphs: [
      `${quotedName(tenantName)}, your tenant at ${quotedName(address)}, asks your written consent to sublet it to ${quotedName(subtenantName)} for ${term}.`,
      "Open the page to read the request and consent or decline. No account is needed. The link works once and expires in 14 days.",
      "Your tenant gave us this address and your email; CampusNest has not checked them. If you are not the landlord of this place, ignore this email.",
    ],
    link: { href: url, label: "Answer the request" },
    footnote: "CampusNest helps students sublet with a written agreement.",
  });
}

/** A deal's first payment, paid (always sent): the amounts, the fee and until when the money is held. */
export function dealReceiptEmail(
  to: string,
  firstName: string,
  r: { title: string; rentCents: number; feeCents: number; feePercent: number; totalCents: number; heldUntil: string; paidAt: string; paymentId: string },
  url: string,
): EmailMessage {
  const usd = (cents: number) => money(cents, "usd");
  return render({
    to,
    subject: `Receipt: ${usd(r.totalCents)} for "${r.title}"`,
    preheader: `Paid. CampusNest holds the rent until ${heldUntilText(r.heldUntil)}.`,
    heading: `Payment received, ${quotedName(firstName)}`,
    paragraphs: [
      `First month's rent: ${usd(r.rentCents)}`,
      `CampusNest service fee (${r.feePercent}%): ${usd(r.feeCents)}`,
      `Total paid: ${usd(r.totalCents)}`,
      `Paid on: ${heldUntilText(r.paidAt)}`,
      `Payment: ${r.paymentId}`,
      `CampusNest holds the rent until ${heldUntilText(r.heldUntil)} (48 hours after move-in), or until you tap "I have the keys" (and at least 24 hours after paying). Until then you can report a problem and nothing is released. Later months are paid directly to the lister, as your agreement says.`,
    ],
    link: { href: url, label: "Open the deal" },
    footnote: "You receive this email because you paid for a sublease on CampusNest. Keep it as your receipt.",
  });
}

/** A lister's later requests of one renter and listing within a day, in one summary (docs/decisions/035). */
export function dealRequestsSummaryEmail(to: string, firstName: string, requests: { dealId: string; title: string; renter: string; stay: string }[], urlOf: (dealId: string) => string, allUrl: string): EmailMessage {
  return render({
    to,
    subject: `${requests.length} more sublease ${requests.length === 1 ? "request" : "requests"} on CampusNest`,
    preheader: "Requests you were not emailed about one by one today.",
    heading: firstName ? `Hi ${quotedName(firstName)}` : "Hello",
    paragraphs: [
      "These requests came from renters who had already asked about the same place today, so they were gathered here. Accept or decline each within 72 hours of its request; after that it expires.",
    ],
    items: requests.map((r) => ({ href: urlOf(r.dealId), label: `${quotedName(r.renter)}: "${quotedName(r.title)}"`, detail: r.stay })),
    link: { href: allUrl, label: "Open your deals" },
    footnote: "You receive this email because you list a place on CampusNest.",
  });
}

const heldUntilText = (iso: string) => `${new Date(iso).toUTCString().replace(/:\d\d GMT$/, " UTC")}`;

/** A staff case opened on a deal (a problem, a card dispute, a suspension, a failed release). */
export function dealCaseEmail(to: string, title: string, reason: string, url: string): EmailMessage {
  return render({
    to,
    subject: `Deal case: ${reason} ("${title}")`,
    preheader: `A deal needs a decision: ${reason}.`,
    heading: "A deal needs a decision",
    paragraphs: [`Deal: "${title}"`, `Reason: ${reason}`, "Nothing is released until staff decide. Open the staff panel's deal cases."],
    link: { href: url, label: "Open the staff panel" },
    footnote: "You receive this email because this address is CampusNest's support address.",
  });
}
