/**
 * Scam shield: the one place that knows what rental fraud sounds like in a message. Pure (no I/O);
 * messaging runs it on every message, test/worker/messages/scam-shield.test.ts and `npm run bench` score it
 * on test/fixtures/scam-corpus.json.
 *
 * A match never blocks a message: the recipient sees a safety notice under it and staff see the
 * conversation in the Safety queue. So the rules lean to precision: a word alone rarely flags, the
 * pattern around it does.
 *
 * Judgment calls (kept in the corpus as negatives or positives):
 *  - A payment app (Zelle, Venmo, Cash App, PayPal) or crypto flags when the message asks to pay with
 *    it (send/pay/transfer ... via it, "Zelle me", "my Venmo is", "do you take Zelle") or names a
 *    housing sum with it (deposit, rent, first month, $850). "I venmo'd my roommate for pizza" is
 *    clean: a past payment between friends, no ask and no housing money.
 *  - Western Union, MoneyGram, wire transfers, gift cards as payment and PayPal friends and family
 *    always flag: nobody needs them for a sublease.
 *  - Being away alone is clean (students sublet because they study abroad); away and unable to show
 *    the place, or keys by mail, flags.
 *  - A phone number or an email address in a message flags as moving the talk elsewhere; so do
 *    WhatsApp, Telegram, WeChat, Kik, Signal (as an app) and "text me at ...".
 */
import type { ScamReason, StoredFlag } from "../contract/safety";
import { SCAM_REASONS, SCORED_FLAG } from "../contract/safety";
import { scoredReason } from "./scam-model";

// ---------------------------------------------------------------------------------------------
// Normalizing: what a person reads, not how it was typed.

/** Latin lookalikes from Cyrillic and Greek (lower case; the text is lower-cased first). */
const LOOKALIKES: Record<string, string> = {
  а: "a", в: "b", е: "e", ё: "e", к: "k", м: "m", н: "h", о: "o", р: "p", с: "c", т: "t", у: "y", х: "x",
  і: "i", ї: "i", ј: "j", ѕ: "s", ԁ: "d", ɡ: "g", һ: "h", ԛ: "q", ԝ: "w", ʏ: "y",
  α: "a", β: "b", ε: "e", η: "n", ι: "i", κ: "k", ν: "v", ο: "o", ρ: "p", τ: "t", υ: "u", χ: "x", ω: "w", ζ: "z",
};
const LOOKALIKE_RE = new RegExp(`[${Object.keys(LOOKALIKES).join("")}]`, "g");

/** Digits and symbols standing for letters inside a word ("v3nm0", "c@sh", "z3lle"). */
const LEET: Record<string, string> = { "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", $: "s" };

/**
 * Lower case, compatibility forms (full-width, ligatures), no accents, Latin for lookalikes, no
 * invisible characters, straight quotes, single spaces.
 */
export function normalize(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(LOOKALIKE_RE, (ch) => LOOKALIKES[ch] ?? ch)
    .replace(/[\u200b-\u200f\u2060\ufeff\u00ad]/g, "")
    .replace(/[\u2018\u2019\u201b\u2032`´]/g, "'")
    .replace(/[\u201c\u201d\u201e\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The words view for keywords: letters spaced out ("z e l l e", "w.h.a.t.s.a.p.p") joined, and
 * digits or symbols inside a word read as letters ("v3nmo" -> "venmo", "c@sh app" -> "cash app").
 */
function wordsView(plain: string): string {
  const joined = plain.replace(/(?<![\p{L}\p{N}])(?:[\p{L}\p{N}@$][ .\-_*+/|]){2,}[\p{L}\p{N}@$](?![\p{L}\p{N}])/gu, (run) => run.replace(/[ .\-_*+/|]/g, ""));
  return joined.replace(/[\p{L}\p{N}@$]+/gu, (word) => (/\p{L}/u.test(word) && /[\p{N}@$]/u.test(word) && !/^\d+(st|nd|rd|th|s|k|br|bd|ba|b|am|pm|ft|sqft|m|x)$/.test(word) ? word.replace(/[013457@$]/g, (c) => LEET[c] ?? c) : word));
}

// ---------------------------------------------------------------------------------------------
// Vocabulary.

const SEP = "[\\s.\\-_]*";
/** Payment apps and crypto: flag with an ask or a housing sum (see the header). */
const PAYMENT_APP = `(?:zelle|venmo(?:'?d|'?s|ed|ing)?|cash${SEP}app|cashapp|pay${SEP}pal|apple${SEP}cash|chime|crypto(?:currency|currencies)?|bitcoin|btc|ethereum|usdt|usdc|tether|litecoin|dogecoin)`;
const PAYMENT_APP_RE = new RegExp(`\\b${PAYMENT_APP}\\b`);
/** Always off the platform. */
const ALWAYS_OFF_PLATFORM = [
  new RegExp(`\\bwestern${SEP}union\\b`),
  new RegExp(`\\bmoney${SEP}grams?\\b`),
  /\b(?:wire|bank|international|swift) transfers?\b/,
  /\bwire (?:it|the|me|you|us|your|my|a|an)?\s?(?:\$\s?\d|\d|money|deposit|payment|rent|funds|cash|amount|fee|first month)/,
  /\b(?:by|via|through|thru|with|over) (?:a )?(?:bank )?wire\b/,
  /\bwired? (?:over )?(?:the )?(?:money|deposit|payment|rent|funds)\b/,
  /\b(?:gift|itunes|apple|google play|steam|amazon|visa|prepaid|vanilla|ebay|target|walmart|sephora) ?cards?\b(?!.*\b(?:welcome|birthday|thank)\b)/,
  /\b(?:paypal|pay pal)\b.{0,30}\b(?:friends? (?:and|&|n) family|f ?& ?f|f ?and ?f|personal payment|as a gift)\b/,
  /\b(?:friends? (?:and|&) family|f ?& ?f)\b.{0,30}\b(?:paypal|pay pal)\b/,
  /\b(?:bitcoin|btc|crypto) (?:atm|wallet|address)\b/,
  /\bmoney ?order\b/,
  /\bwire (?:it |money |the money |payment |the payment )?to (?:my|our) (?:personal )?(?:bank )?account\b/,
  /\b(?:accept|via|through|using|by|with) wise\b/,
  /\bcashier'?s? che(?:ck|que)\b/,
];
/** An ask to pay with something. */
const PAY_VERB = "(?:pay|paying|payment|send|sending|sent|transfer|transferring|deposit|zelle|venmo|cash ?app|wire)";
const ASK_WITH_APP = [
  new RegExp(`\\b${PAY_VERB}\\b.{0,60}\\b${PAYMENT_APP}\\b`),
  new RegExp(`\\b${PAYMENT_APP}\\b (?:me|it|us)\\b`),
  new RegExp(`\\bmy ${PAYMENT_APP}\\b`),
  new RegExp(`\\b(?:via|through|thru|by|over|using|on|with|in) ${PAYMENT_APP}\\b`),
  new RegExp(`\\b(?:accept|accepts|take|takes|prefer|only|do|have|use) ${PAYMENT_APP}\\b`),
  new RegExp(`\\b${PAYMENT_APP}\\b (?:only|handle|username|id|tag|address|wallet|is|works)\\b`),
];
/** Money for the place: a deposit, rent, a fee, a sum. */
const HOUSING_MONEY = /(?:\bdeposits?\b|\brent\b|\bfirst month|\blast month|\bholding fee|\bapplication fee|\bfee\b|\bsecurity\b|\breservation\b|\$\s?\d|\b\d{2,5} ?(?:dollars|usd|bucks)\b|\bpayment\b)/;

/** Seeing the place: the viewing, a tour, a visit, move-in, the keys. */
const VIEWING = "(?:view|viewing|viewings|see|seeing|seen|look at|tour|touring|showing|show|visit|visiting|meet|meeting|come by|check (?:it|the place) out|walk ?through)";
const MONEY = "(?:deposit|payment|pay|paying|money|first month'?s?(?: rent)?|rent|fee|funds|holding fee|\\$\\s?\\d+)";
const PAY_BEFORE = [
  new RegExp(`\\b${MONEY}\\b.{0,60}\\b(?:before|prior to|ahead of|in advance of)\\b.{0,30}\\b${VIEWING}\\b`),
  /\bdeposits? (?:to|will|would|can|and i'?ll|and we'?ll) (?:hold|reserve|secure|lock|keep)\b/,
  /\b(?:hold|reserve|secure|lock in|lock|keep) (?:it|the (?:room|place|unit|apartment|apt|flat|spot|studio|sublet|sublease)|this (?:room|place|unit|apartment|spot)|your spot|the keys?) (?:for you )?(?:(?:with|for) (?:a |the |your |an? )?(?:small |refundable )?(?:deposit|payment|fee|\$|money|holding)|by (?:sending|paying)|once (?:you|i) (?:send|pay|receive)|if you (?:send|pay))/,
  /\b(?:pay|send|transfer)(?: (?:me|us|the deposit|the money|the rent|it|a deposit))? (?:first|upfront|up front|in advance|right away|today|now|asap)\b.{0,40}\b(?:then|and|before|so)\b/,
  /\b(?:pay|send|transfer)(?: (?:me|us|the deposit|the money|it|a deposit))? (?:upfront|up front|in advance)\b/,
  /\b(?:deposit|payment|money|\$\s?\d+)\b.{0,60}\b(?:and|then|so) (?:i'?ll|i will|we'?ll|we will|i can) (?:hold|reserve|secure|keep|save) (?:it|the|this|your)\b/,
  /\b(?:send|pay|transfer|deposit|payment)\b.{0,40}\b(?:to|and i'?ll|and we'?ll) (?:hold|reserve|secure|lock in|lock|keep) (?:it|the (?:room|place|unit|apartment|apt|flat|spot|studio)|this (?:room|place|unit|apartment|spot)|your spot)\b/,
  /\bwhoever (?:pays|sends|transfers)(?: the deposit| first| the money)?\b.{0,20}\b(?:gets|get|first)\b/,
  /\b(?:first|1st) (?:to pay|to send|one to pay|person to pay)\b/,
  /\bpay before you (?:see|view|visit|tour)\b/,
  /\b(?:no|can'?t do|cannot do|don'?t do) (?:viewings?|showings?|tours?) (?:until|before|unless|without) (?:the |a |you )?(?:deposit|payment|pay)/,
  /\b(?:once|after|when) (?:i|we) (?:receive|get|have) (?:the |your |a )?(?:deposit|payment|money|funds)\b.{0,50}\b(?:keys?|address|viewing|show|tour|mail|send)\b/,
  /\b(?:once|after|when) (?:the |your |my )?(?:deposit|payment|money|funds|transfer) (?:is |has been |was )?(?:confirmed|received|arrives|clears|cleared|goes through|sent)\b.{0,50}\b(?:keys?|address|viewing|show|tour|ship|mail)\b/,
  /\b(?:keys?|address|viewing|tour) (?:after|once|when) (?:you |i |we )?(?:pay|send|receive|get)\b.{0,20}\b(?:deposit|payment|money)?/,
];
/** A "don't" just before the money part undoes a pay-before match ("no deposit before the viewing"). */
const NEGATED_BEFORE = /\b(?:no|not|never|don'?t|do not|won'?t|nothing|without|zero)\b(?:\s+\S+){0,2}\s*$/;

const AWAY = "(?:out of (?:the )?(?:country|state|town)|abroad|overseas|out of state|deployed|on deployment|on a mission|missionary|oil rig|offshore|working away|travel(?:l)?ing for work|relocated|moved (?:to|away|out of)|in (?:the )?(?:military|navy|army))";
const CANT_SHOW = "(?:can'?t|cannot|can not|won'?t be able to|unable to|not able to|no way to|won'?t|am not able to) (?:show|meet|let you in|give you a (?:tour|viewing)|do (?:a |any )?(?:viewings?|showings?|tours?)|be there|open (?:it|the door))";
const OWNER_UNAVAILABLE = [
  new RegExp(`\\b${AWAY}\\b.{0,80}\\b${CANT_SHOW}\\b`),
  new RegExp(`\\b${CANT_SHOW}\\b.{0,80}\\b${AWAY}\\b`),
  new RegExp(`\\b${CANT_SHOW}\\b(?: you)?(?: (?:it|the (?:place|room|unit|apartment|apt|flat)))?(?: to you)? (?:in person|at all|personally)\\b`),
  /\b(?:keys?|key card|fob) (?:will be |would be |can be |are |is )?(?:mailed|shipped|posted|couriered|sent (?:by|via|through) (?:mail|post|courier|fedex|ups|dhl|usps))\b/,
  /\b(?:mail|ship|post|courier|fedex|ups|dhl) (?:you )?(?:the )?(?:keys?|key card|fob)\b/,
  /\b(?:send|sent) (?:you )?(?:the )?keys? (?:by|via|through|in the) (?:mail|post|courier|fedex|ups|dhl|usps)\b/,
  /\b(?:drive by|look at it|see it|check it out|view it) (?:and look )?(?:from (?:the )?outside|through the windows?)\b/,
  /\bpeek (?:in|into|through) (?:the )?windows?\b/,
  /\blook at the outside\b/,
  /\b(?:can'?t|cannot|can not) go in(?:side)?\b.{0,60}\b(?:outside|windows?|neighbou?rhood|from the street|trust me)\b/,
  /\b(?:no one|nobody|noone) (?:can|is able to|will be (?:able|there) to) (?:show|let you in|meet)\b/,
  new RegExp(`\\b(?:i'?m|i am|we'?re|we are|currently|now) ${AWAY}\\b.{0,80}\\b(?:agent|lawyer|attorney|courier|airbnb|keys?)\\b`),
];

const MESSENGER = `(?:whats${SEP}app|whatsap|wa\\.me|tele${SEP}gram|t\\.me/|wechat|we${SEP}chat|kik|viber|snapchat|snap (?:me|app)|(?:on|add me on|my) snap\\b|google voice|line app|skype|imessage|facebook messenger|signal app)`;
const MOVES_OFF = [
  new RegExp(`\\b${MESSENGER}`),
  /\b(?:on|via|over|through|using|add me on|message me on|text me on) signal\b/,
  /\bsignal (?:me|number)\b/,
  /\b(?:text|txt|call|ring|email|e-mail|mail|reach|contact|message|msg|dm|hit) me (?:up )?(?:at|on|via|directly|privately|off (?:here|this app|the app|the site|campusnest)|outside)\b(?! (?:any ?time|anytime|whenever|here|on here|on campusnest|through (?:here|campusnest|the app)|\d{1,2}(?:[:.]\d\d)?(?:\s?(?:am|pm))?(?![\d\s().-]*\d{3})))/,
  /\bmy (?:personal )?(?:number|cell|cell phone|phone|phone number|mobile|whatsapp|telegram|email|e-mail|gmail|contact) is\b(?! (?:on|in|attached|private|listed|the same|not|verified|linked|shown|hidden|dead|broken|dying|gonna|going|about|low|off|full)\b)/,
  /\b(?:let'?s|we can|we should|better to|easier to|i prefer to) (?:talk|chat|continue|move this|take this|communicate|text)(?: (?:this|the|our) (?:conversation|chat|discussion))? (?:on|over|via|by|through|off) (?!campusnest|here\b|the app\b|this app\b)/,
  /\b(?:text|email|call) (?:is|would be) (?:easier|better|faster)\b/,
  /\boff (?:this|the) (?:app|site|platform)\b/,
  /\bwrite (?:to )?(?:me )?(?:at |to |on )?(?:my )?(?:gmail|email|e-mail|yahoo|outlook|personal email|hotmail)\b/,
  /\b(?:not involve|without) (?:the )?(?:website|site|app|platform|campusnest)\b/,
  /\bprivate between us\b/,
  /\b(?:send|give|text|dm) me your (?:phone |cell |personal |real )?(?:number|digits|cell|email|e-mail|whatsapp|telegram|contact)\b/,
  /\b(?:don'?t|do not) (?:like|want to) (?:discuss|talk|chat|communicate)(?:ing)?\b.{0,30}\b(?:on here|here|on this app|on campusnest|on the app)\b/,
  /\b(?:finish|continue|talk|chat|do|discuss) (?:everything |this |it |the rest |the details )?(?:over|via|by|through|on) (?:email|e-mail|text|phone|whatsapp|telegram|signal)\b/,
];
/** Phone numbers (digits may be spaced or bracketed) and email addresses, also spelled out. */
const PHONE = /(?<![\d$])(?:\+?1[\s.-]*)?\(?\d(?:[\s.\-()]{0,2}\d){9}(?!\d)/;
const EMAIL = /(?<![a-z0-9._%+-])[a-z0-9._%+-]{1,64}@[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,4}\.[a-z]{2,24}\b/;
const MAIL_DOMAIN = /\b(?:gmail|yahoo|hotmail|outlook|icloud|proton(?:mail)?|aol|live|me)\b/;
const SPELLED_EMAIL = /(?<![a-z0-9._-])[a-z0-9._-]{1,64} ?[([]? ?(?:at|@) ?[)\]]? ?(?:gmail|yahoo|hotmail|outlook|icloud|proton(?:mail)?|aol|live|me)\s*[([]?\s*(?:\.|dot)\s*[)\]]?\s*(?:com|net|me|org|edu)\b/;
const DIGIT_WORDS = "(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)";
const SPELLED_PHONE = new RegExp(`(?:\\b${DIGIT_WORDS}\\b[\\s,\\-]*){7,}`);

// ---------------------------------------------------------------------------------------------
// New kinds (docs/decisions/015): identity theft, links to pages that are not ours, the owner-away story, money
// back from an overpayment, urgency, holds, and contacts disguised harder.

/** Things a stranger must never get before a lease: documents, ID numbers, bank access, card data. */
const ID_ITEM =
  "(?:ssn|social security(?: number| no| #)?|social(?: number)?|passport|driver'?s'? licen[cs]e|drivers licen[cs]e|licen[cs]e|state id|photo id|id card|(?:copy|photo|pic|picture|scan|front|back) of (?:your |ur )?id|i-?20|visa|date of birth|dob|birth ?date|mother'?s maiden name|(?:bank|banking|chase|wells fargo|bofa|bank of america|citi|capital one)(?: app)? (?:login|log in|password|credentials|username|account (?:number|login|details|info)|details|info)|online banking|account number|routing number|card number|credit card (?:number|details|info)|debit card (?:number|details|info)|cvv|cvc|security code|(?:3|three) digits|pin number|your pin)";
const ID_ASK = "(?:send|text|txt|email|e-mail|upload|provide|share|give|submit|enter|type|need|needs|want|require|required|forward|attach|dm|what'?s your|whats your|tell me your|log ?in(?:to)?|sign ?in(?:to)?|pic of|photo of|picture of|scan of|copy of|selfie|screenshot|verify|confirm)";
const ID_REQUEST = [
  new RegExp(`\\b${ID_ASK}\\b.{0,70}\\b${ID_ITEM}\\b`),
  new RegExp(`\\b${ID_ITEM}\\b.{0,40}\\b(?:please|pls|asap|first|before|to (?:me|verify|confirm|prove|check)|for (?:verification|the (?:file|application|background check|credit check))|so i can)\\b`),
  /\bselfie\b.{0,40}\b(?:holding|with|next to)\b.{0,30}\b(?:id|passport|licen[cs]e|card)\b/,
  /\blog ?(?:in|into|on)(?:to)? (?:your|ur) (?:bank|banking|chase|wells fargo|bofa|bank of america|citi|capital one|credit union|account)\b/,
  /\b(?:video call|facetime|screen ?share)\b.{0,60}\b(?:bank|banking|balance|account)\b/,
  /\b(?:credit|background) check\b.{0,60}\b(?:through|on|via|at) (?:my|our|this|the following) (?:own )?(?:site|link|page|website)\b/,
];
/** A document shown where leases are signed is normal: the leasing office, in person, at the signing. */
const ID_IN_PERSON = /\b(?:leasing office|leasing center|front desk|management office|property manag(?:er|ement)|the office|in person|bring|show (?:your|ur|the|a|an|my) (?:photo )?(?:id|licen[cs]e|passport|student id)|at (?:the )?(?:signing|office|desk|pickup|pick-up|move-?in)|when you (?:sign|pick up|come|get here|move in)|pick up (?:the )?keys|key pick ?up|through (?:the )?(?:official|leasing|landlord'?s?) (?:portal|application)|(?:through|via|on|in) (?:their|the complex'?s?|the building'?s?|the official|the leasing|the management) (?:portal|website|app|office)|not to me|(?:their|the) own (?:application|screening|background check))\b/;

/** Our own pages, the big listing sites and well-known student-housing managers (their portals too). */
const TRUSTED_DOMAINS = new Set([
  "campusnest.app", "zillow.com", "trulia.com", "hotpads.com", "apartments.com", "apartmentlist.com", "apartmentguide.com", "rent.com",
  "zumper.com", "padmapper.com", "realtor.com", "redfin.com", "rentcafe.com", "greystar.com", "americancampus.com", "cardinalgroup.com",
  "assetliving.com", "landmarkproperties.com", "campusadvantage.com", "theretreat.com", "edrtrust.com", "appfolio.com", "buildium.com",
  "entrata.com", "yardi.com", "realpage.com", "rentler.com", "avaloncommunities.com", "equityapartments.com", "maac.com", "camdenliving.com",
  "google.com", "goo.gl", "youtube.com", "youtu.be", "instagram.com", "imgur.com", "dropbox.com", "icloud.com", "facebook.com", "reddit.com",
]);
const SHORTENERS = new Set(["bit.ly", "tinyurl.com", "t.co", "rb.gy", "cutt.ly", "is.gd", "ow.ly", "buff.ly", "shorturl.at", "tiny.cc", "s.id", "t.ly", "rebrand.ly", "bl.ink", "short.io", "tiny.one", "shorte.st", "v.gd", "qr.link"]);
/** A domain dressed as a brand or a safe payment: names a person trusts. */
const BRANDED = /(?:campus|nest|zill?ow|zilow|airbnb|airbnd|apartment|greystar|venmo|zelle|paypal|cashapp|escrow|secure|verif|pay|deposit|booking|book|reserv|rent|lease|housing|trust|credit|protect|safe|bank|checkout|portal|support|account|login)/;
const LINK_CONTEXT = /\b(?:pay|paid|payment|deposit|escrow|reserve|reservation|booking|book|verify|verification|confirm|secure|submit|apply|application|fee|credit check|background check|protected|protection|hold|login|log in|sign in|enter|fill|click|tap)\b/;
const TLD = "(?:com|net|org|co|io|xyz|info|biz|app|me|us|ly|gl|gd|gy|cc|to|link|site|online|top|club|shop|live|page|pw|ru|cn|tk|ml|ga|cf|gq|edu|gov|at|id|one|st|ws|icu|vip|cloud|store|tech|website|space|fun|rent|homes|house|properties|realty|ca|uk|de)";
const DOMAIN = new RegExp(`(?<![a-z0-9@.-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+${TLD})(?![a-z0-9-])`, "g");

/** Links as written and as spelled out ("campusnest dot verify-pay dot xyz", "bit . ly / x"). */
function linkView(plain: string): string {
  return plain
    .replace(/\s*[([]\s*dot\s*[)\]]\s*/g, ".")
    .replace(/(?<=[a-z0-9])\s+dot\s+(?=[a-z0-9])/g, ".")
    .replace(/(?<=[a-z0-9])\s*\.\s+(?=(?:com|net|org|co|io|xyz|ly|me|app|info)\b)/g, ".")
    .replace(/(?<=[a-z0-9])\s+\.\s*(?=[a-z0-9])/g, ".");
}

/** The registrable part of a host (the last two labels): "pay.campusnest.app" -> "campusnest.app". */
const registrable = (host: string) => host.split(".").slice(-2).join(".");

function suspiciousLink(plain: string): boolean {
  const view = linkView(plain);
  for (const m of view.matchAll(DOMAIN)) {
    const host = m[1]!.replace(/^www\./, "");
    const site = registrable(host);
    if (host.endsWith(".edu") || host.endsWith(".gov")) continue;
    if (SHORTENERS.has(host) || SHORTENERS.has(site)) return true;
    if (TRUSTED_DOMAINS.has(site)) continue;
    // An email address's domain is no link (moves_off_platform judges addresses).
    if (view[m.index - 1] === "@") continue;
    if (BRANDED.test(host) || LINK_CONTEXT.test(view)) return true;
  }
  return false;
}

/** Money back from a payment bigger than the rent: the cheque that bounces after the refund left. */
const OVERPAYMENT = [
  /\b(?:check|cheque|payment|money order|transfer|deposit|funds)\b.{0,100}\b(?:more than|extra|over ?payment|overpaid|includes|including|covering|plus)\b.{0,140}\b(?:send|wire|refund|return|give|transfer|pay|zelle|venmo)(?: me| it| them| him| her)? (?:back )?(?:the )?(?:difference|rest|remaining|balance|extra|excess|change|remainder|\$\s?\d)/,
  /\b(?:deposit|cash) (?:it|the (?:check|cheque|payment))\b.{0,60}\b(?:and|then)\b.{0,20}\b(?:send|wire|transfer|give|pay|refund)\b/,
  /\b(?:send|wire|transfer|refund|return|pay) (?:me |us |them )?(?:back )?the (?:difference|excess|extra|remainder|balance)\b/,
  /\b(?:keep|take) (?:the )?\$?\s?\d[\d,]*\b.{0,40}\b(?:send|give|transfer|wire|pay|forward) (?:the )?(?:rest|remainder|balance|difference|remaining)\b/,
  /\bsend the (?:rest|remainder|balance|difference|extra)\b.{0,40}\b(?:to|back)\b/,
  /\b(?:refund|reimburse|return|send back|pay back|give back) (?:me |us |him |her )?(?:the )?\$\s?\d/,
  /\b(?:check|cheque)\b.{0,120}\b(?:transfer|send|wire|give|pay) (?:it|that|the (?:extra|rest|difference)) back\b/,
  /\b(?:refund|return|send back|give back|pay back) (?:me |us )?(?:the )?(?:difference|what'?s left|the rest|the extra)\b/,
  /\b(?:send|give|pay) (?:it |them )?back (?:the )?(?:\w+ )?(?:extra|rest|difference|remaining|excess)\b/,
  /\b(?:overpaid|over ?payment|over the (?:agreed|rent|amount)|more than the rent|bigger than the rent|by (?:accident|mistake))\b.{0,120}\b(?:refund|reimburse|return|send (?:it )?back|give (?:it )?back|pay (?:it )?back|difference)\b/,
  /\b(?:sponsor|employer|company|parents?|dad|mom|father|mother|uncle|aunt|agent|scholarship)\b.{0,60}\b(?:send|mail|issue|issued|write|wrote|cut)\b.{0,30}\b(?:a |the )?(?:check|cheque|money order)\b/,
];

/** Pressure to pay or decide now. */
const URGENCY = /\b(?:hurry|last (?:room|one|spot|unit|bed) left|move fast|gone in (?:hours|minutes|a day|a few)|(?:only )?wait until (?:midnight|tonight|tomorrow|\d)|(?:i|we)(?:'ll| will)? move on|last chance|time sensitive|last day|urgent(?:ly)?|(?:only )?(?:good|valid) (?:today|tonight)|goes (?:back )?up|(?:offer|it) expires|expires (?:at|tonight|today|in|by)|decide (?:in|within) the next|decide (?:by|today|tonight|now|asap)|(?:the )?first (?:person|one|come)[, ]+(?:who|to) (?:pays?|sends?|transfers?|deposits?)|first to (?:pay|send|transfer)|whoever (?:pays|sends|transfers)|(?:goes|go) to the next (?:person|applicant|one)|price (?:goes|will go) up|won'?t last|act fast|today only|(?:by|before) (?:tonight|midnight|end of (?:the )?day)|in the next (?:hour|\d+ (?:minutes?|hours?|mins?|hrs?))|can'?t wait around|(?:\d+|two|three|four|five|several|other|a few|many) (?:other )?(?:people|students|applicants|others|guys|persons) (?:are |have )?(?:interested|asking|waiting|want|wanting|lined up|messaging)|someone (?:else )?(?:from [a-z]+ )?(?:wants|is interested|is ready|offered)|(?:need|needs|have) to (?:know|decide|hear back) (?:by|today|tonight|asap|now)|or (?:i'?m|im) moving on|or (?:it|the room) goes|(?:only )?(?:good|valid) until (?:midnight|tonight|tomorrow|today|\d)|either you (?:confirm|pay|send|decide|commit)|(?:i|we)(?:'ll| will)? take the other offer|final call|(?:need|needs|want) (?:this|it|everything) (?:settled|done|paid|sorted) (?:today|tonight|now|asap)|(?:decision|answer|reply|response|confirmation) (?:needed|required) (?:asap|today|tonight|now|by)|need (?:an|your) (?:answer|decision|reply) (?:in the next|within|by|asap|today|tonight|now|right now)|lots of (?:interest|people interested)|(?:ready|waiting) to pay|(?:has|have|with) (?:the )?money ready|comes? down tonight|giving it to (?:the next|someone else|another)|no time for (?:a )?(?:viewings?|tours?|showings?)|within \d+ ?(?:min|mins|minutes|hours?|hrs?)\b.{0,20}\b(?:it'?s yours|yours|or)|(?:send|pay|confirm) (?:it )?(?:within|in the next) \d+)\b/;
const URGENCY_STAKE = /\b(?:pay|send|sent|deposit|money|zelle|venmo|cash ?app|transfer|wire|secure|lock|hold|decide|decision|commit|moving on|goes to|applicant|today|tonight|now|confirm|answer|offer|settled|viewings?|price|yours|move on|\$\s?\d)/;
const NO_PRESSURE = /\b(?:no rush|no pressure|take your time|whenever you'?re ready|no hurry)\b/;

/** The owner-away story: far away, an agent, the keys delivered, no viewing. */
const FAR_AWAY = /\b(?:military|orders|cruise ship|for \d+ more (?:weeks|months)|(?:moved|relocated|transferred|flew|flown|went) (?:to|back to) [a-z]+|(?:i'?m|im|i am|we'?re|we are) (?:actually |currently |now |still )?in [a-z]+ for|\bin [a-z]+ for (?:an? |my |the )?(?:internship|job|work|contract|mission|rotation|research|semester|deployment|survey|study)|on (?:a |my )?(?:rotation|survey|deployment|internship|mission)|semester (?:at sea|abroad)|for (?:\d+|two|three|a few|several|six) (?:weeks|months)|(?:doesn'?t|don'?t|does not|do not) live (?:near|close|around|here|in town)|not (?:local|nearby|in town|around)|(?:i|we)(?:'m|'re| am| are) (?:currently|now|still) (?:in|at|out|away|working)|travell?ing|on a contract|(?:i|we) inherited|(?:i|we)(?:'?m|'?re| am| are)? (?:now |currently )?(?:live|living|based|stationed|deployed|working|staying)(?: now)? (?:in|at|on|overseas|abroad)|(?:got|was|were|been|am|are|have been) (?:transferred|relocated|posted|deployed|stationed)|moved (?:abroad|overseas|to (?:another|a different) (?:country|state))|out of (?:the )?(?:country|state)|abroad|overseas|deployed|missionary|mission trip|offshore|oil rig)\b/;
const NO_VIEWING = /\b(?:can'?t|cannot|can not|won'?t be able to|unable to|not able to|no way to|am not able to) (?:show|meet|let (?:you|u) in|give (?:you|u) a (?:tour|viewing)|do (?:a |any )?(?:viewings?|showings?|tours?)|be there|open (?:it|the door)|hand (?:you|u) the keys)\b|\bno (?:viewings?|showings?|tours?|visits?)(?: are| is)? (?:possible|available|allowed)\b|\b(?:walk|look|drive) (?:around|by)(?: it| the building| the outside)? (?:outside|from (?:the )?outside|the building)\b|\bfrom the (?:parking lot|sidewalk|outside)\b|\blook (?:at it )?from (?:the )?outside\b|\bfrom the street\b|\b(?:can'?t|cannot|unable to|not able to) come (?:for|to|and do) (?:a |the |any )?(?:viewing|showing|tour|visit)|\bcheck (?:it |the place )?(?:from )?outside\b|\bpeek (?:through|in)\b|\b(?:nobody|no one|noone) (?:can|will|is able to) (?:do|give) (?:a |the |any )?(?:showing|tour|viewing)|\b(?:isn'?t|is not|there'?s no|no) (?:anyone|one|nobody) (?:local|here|nearby|around)\b/;
const KEYS_DELIVERED = /\b(?:keys?|key card|fob|access code)\b.{0,40}\b(?:will be |would be |can be |are |is |gets? )?(?:mailed|shipped|posted|couriered|delivered|sent (?:to you|by|via|through|out)|dropped off|fedex(?:ed)?|overnighted)\b|\b(?:mail|ship|post|courier|fedex|ups|dhl|deliver|send) (?:you |u )?(?:the )?(?:keys?|key card|fob)\b|\b(?:delivery (?:company|service|guy)|courier|driver|agent|someone) (?:will |can |would )?(?:bring|deliver|drop(?: off)?|hand)s? (?:you |u )?(?:the )?(?:keys?|key card|fob)\b/;
const INTERMEDIARY = /\b(?:(?:dad|mom|father|mother|uncle|aunt|cousin|friend|brother|sister) (?:handles|is handling|takes care)|my|our|her|his|the owner'?s?) (?:lawyer|attorney|agent|representative|rep|secretary|assistant|pastor)\b|\bauthori[sz]ed me\b|\b(?:lawyer|attorney|agent) (?:handles|will handle|is handling|takes care)\b/;
const SOMEONE_SHOWS = /\b(?:my|our|a) (?:roommate|roomie|friend|brother|sister|mom|dad|neighbou?r|housemate|suitemate|landlord|property manager|leasing office)\b.{0,40}\b(?:can|will|could) (?:show|let (?:you|u) in|give (?:you|u) a tour|meet)\b(?<!(?:nobody|no one|noone|can'?t|cannot|won'?t)\b.{0,40})|\bvideo (?:tour|call|walkthrough|walk-through)\b/;

/** A hold bought before the place is seen. */
const HOLD = [
  /\b(?:reservation|holding|hold|good ?faith|reserve|booking) (?:deposit|fee|payment)\b/,
  /\$\s?\d[\d,]*\s?(?:deposit |payment |fee )?(?:secures?|holds?|reserves?|locks?(?: in)?|saves?) (?:it|the (?:room|place|unit|spot|apartment|apt)|your (?:spot|room)|this)\b/,
  /\b(?:put|puts|putting) down (?:a )?(?:\$\s?\d[\d,]*|deposit|payment)\b.{0,40}\b(?:to (?:hold|reserve|secure|lock|keep)|hold|reserve)\b/,
  /\b(?:address|location|keys?|exact address)\b.{0,30}\b(?:only )?(?:after|once|when)\b.{0,30}\b(?:deposit|payment|fee|\$\s?\d)/,
  /\b(?:before|prior to|ahead of) (?:a |the |any )?(?:viewing|showing|tour|visit)\b.{0,60}\b(?:deposit|payment|fee|\$\s?\d)/,
  /\bno need to (?:view|see|visit|tour)\b/,
  /\bno (?:showing|viewing|tour|visit)s? (?:needed|necessary|required)\b/,
  /\b(?:hold|reserve|keep|block)s? (?:rooms?|it|the room|units?|spots?) (?:only )?for (?:people|those|anyone|whoever|applicants) (?:who|that) (?:pay|send|put down)\b/,
  /\b(?:send|pay|transfer) (?:\w+ ){0,3}(?:deposit|payment|money|rent|fee|month) first\b/,
  /\bso (?:i|we) know (?:you'?re|ur|you are|u r) serious\b/,
  /\$\s?\d[\d,]* (?:hold|holding)\b/,
  /\b(?:tours?|showings?|viewings?) (?:only )?(?:to|for) (?:people|those|anyone|applicants|students) (?:who|that)(?:'ve| have)? (?:already )?(?:paid|sent|put down)\b/,
  /\bbefore (?:i|we) (?:can )?(?:schedule|do|set up|book|arrange|show) (?:a |the |any )?(?:viewing|showing|tour|visit|it)\b.{0,60}\b(?:deposit|fee|payment|\$\s?\d|\d+ ?\$)/,
  /\b(?:commitment|good[ -]?faith|holding|hold|reservation|booking) (?:deposit|fee|payment)\b/,
  /\b(?:hold|reserve|secure|keep)\b.{0,60}\b(?:upfront|up front|in advance)\b/,
  /\b(?:needed|required|necessary) to (?:reserve|hold|secure|lock)\b/,
  /\bonce (?:it'?s |it is |the (?:money|payment|deposit) is )?(?:received|paid|sent|confirmed|in)\b.{0,60}\b(?:see|view|tour|visit|show|keys?|address)\b/,
];
/** The honest hold: after the viewing, at the signing, at the office. */
const HONEST_HOLD = /\b(?:after (?:you(?:'ve| have)? |i |we |u )?(?:see|seen|view|viewed|tour|toured|visit|visited|the (?:viewing|tour|showing|visit))|once you(?:'ve| have)? (?:seen|toured|viewed|signed)|when (?:we|you) sign|at (?:the )?signing|leasing office|through campusnest|on campusnest)\b/;

/** Letters standing for digits inside a phone number ("3l2-555-O9l4"), digit words as digits. */
const DIGIT_WORD: Record<string, string> = { zero: "0", oh: "0", o: "0", one: "1", two: "2", three: "3", four: "4", five: "5", six: "6", seven: "7", eight: "8", nine: "9" };
function digitsView(plain: string): string {
  return (
    plain
      .replace(/[a-z0-9|]+/g, (token) => {
        if (token in DIGIT_WORD && token !== "o") return DIGIT_WORD[token]!;
        if (!/\d/.test(token)) return token;
        // Inside a token with digits: digit words and letters that look like digits ("3four2one", "88O", "3l2").
        return token.replace(/zero|one|two|three|four|five|six|seven|eight|nine/g, (w) => DIGIT_WORD[w]!).replace(/[li|]/g, "1").replace(/o/g, "0");
      })
      // A lone "o" between digits is a zero ("5 5 5 - o 1 9 8").
      .replace(/(?<=\d[\s.\-–—/]{0,3})o(?=[\s.\-–—/]{0,3}\d)/g, "0")
  );
}
/** Ten or eleven digits in one run, whatever is between them. */
const PHONE_RUN = /(?<![\d$])\d(?:[\s.\-–—()/,_]{0,4}\d){9,10}(?![\d])/;
/** A handle or an address spelled to slip past a filter. */
const SPELLED_HANDLE = [
  /\b(?:at sign|at symbol)\b.{0,30}\b(?:underscore|dot|_)\b/,
  /\b[a-z0-9._-]+ ?(?:\(at\)|\[at\]|\{at\}| at ) ?(?:g ?mail|yahoo|hotmail|outlook|icloud|proton(?:mail)?|aol|live)\b/,
  /\b(?:g ?mail|yahoo|hotmail|outlook|icloud)\s*(?:\(dot\)|\[dot\]| dot |\.)\s*c ?o ?m\b/,
];

// ---------------------------------------------------------------------------------------------
// Context (docs/decisions/015): the same app or word in an honest sentence.

/** The writer refuses, or keeps things here: "I won't Zelle before I see it", "not moving this to WhatsApp". */
const REFUSAL = /\b(?:i'?m not (?:comfortable|going|gonna|sending|paying|doing|moving)|i am not (?:comfortable|going|sending|paying|doing|moving)|(?:i|we) (?:won'?t|will not|don'?t|do not|never|wouldn'?t|would never|refuse to|can'?t|cannot) (?:pay|send|wire|zelle|venmo|transfer|move|give|share)|no thanks|nope|(?:i|we) (?:respectfully |politely |must |have to )?decline|(?:that'?s|thats) the only way (?:i|we) (?:do|pay)|(?:won'?t|will not|wont) do (?:that|this|it|any)|\bno (?:gift cards?|wire|wires|zelle|venmo|cash ?app|crypto|western union|deposit before)\b|is (?:it|this|that) (?:normal|legit|safe|ok|okay|common|a scam|real)\b|yeah no|lol no|hard pass|nah|(?:i'?m|im) good on|should (?:i|we) (?:do|use|pay|send)|is (?:[a-z&]+ ){1,5}(?:ok|okay|safe|legit|fine) (?:for|to|or)|(?:i|we) only (?:pay|send|sign|do (?:payments|deposits))(?: anything| a deposit| money)? (?:after|once|when|in person|through|on campusnest)|until (?:i|we)(?:'ve| have)? (?:seen|toured|visited|signed|viewed)|(?:not|never) (?:paying|sending|wiring) (?:anything|a deposit|money|any money|a cent)|(?:can|should|could) (?:i|we) (?:pay|send|zelle|venmo)|is it (?:ok|okay|safe|fine|normal) (?:to|if (?:i|we)) (?:pay|send)|(?:i|we) (?:don'?t|do not|never) do (?:wire|zelle|venmo|cash ?app|paypal|deposits?|payments?|money)|not (?:gonna|going to) (?:pay|send|move|do|wire|zelle|venmo)|i'?ll (?:pass|keep it)|(?:i'?d|i would) rather (?:not|keep|pay|do|stay)|(?:let'?s|lets|i'?d like to|rather) keep (?:it|this|the chat|the conversation|things|everything) (?:on|here|in)|keep (?:it|this|things) on (?:here|campusnest|the app|the site)|(?:only|all) (?:through|via|on|in) campusnest|(?:pay|deposit|payment)\b.{0,30}\bthrough campusnest|not (?:through|via|on|by|over) (?:zelle|venmo|cash ?app|paypal|whatsapp|telegram|text|wire)|never (?:wire|send|pay|zelle|venmo)|do not (?:wire|send money|pay)|don'?t (?:wire|send money|pay (?:anyone|anything|before)))\b/;
/** Telling about someone else's scam, or reporting it. */
const WARNING = /\b(?:is fake|are fake|not the real|is this (?:legit|real|safe)|staff|warning|psa|fyi|blocking|blocked|for (?:other|anyone|everyone)|report|reporting|reported|beware|be careful|watch out|heads up|r\/scams|scammers?|scam|scams|scammed|red flag|flag (?:it|this|them|the (?:post|listing|account))|fraud|fake (?:listing|owner|landlord)|copied|stolen (?:photos|pictures|listing)|(?:same|these) (?:photos|pictures) (?:are )?on)\b/;
const NARRATION = /(?:"[^"]{10,}"|(?:^|\s)'[^"]{10,}?'(?=\s|[.,!?]|$))|\b(?:(?:he|she|they|the (?:'|")?owner(?:'|")?|this (?:user|person|guy|lister|account|profile)|someone|somebody|a guy|the lister|the poster)(?: \w+)? (?:messaged me|texted me|emailed me|contacted me|sent me|asks|asking|demands|requests|requested|asked|wanted|told|said|tried|kept asking|demanded|wants|is asking|was asking)|asked me (?:to|for)|(?:someone|somebody|a scammer) (?:has )?(?:copied|stole|reposted|is (?:posting|reposting|using))|sounds (?:exactly )?like|i (?:read|saw|heard) about|same (?:photos|pictures|listing|ad))\b/;
/** Money after move-in, split among roommates, or paid through the official portal. */
const SPLIT = /\b(?:split|splitting|your (?:part|share|half|portion|cut)|each|per person|\d+ ways|three ways|two ways|four ways|utilit(?:y|ies)|electric(?:ity)?|power bill|gas bill|water bill|internet|wifi|wi-fi|groceries|grocery|pizza|dinner|food|takeout|toilet paper|dish soap|paper towels|supplies|settle up|pay (?:me|her|him|them) back|fronts?|fronted|reimburse|venmo request|request (?:on|via) (?:venmo|zelle|cash ?app)|after (?:you )?mov(?:e|ing) in|once you(?:'ve| have)? moved in|once you move in|after move-?in|(?:the )?portal|bills?|netflix|spotify|cleaning|splitwise|owe|owes|everyone|each of us|move-?out|cleaners|roomie|roommates?|mi parte|covered (?:the|it)|costco|target run|paid for)\b/;
/** Money that is for the place itself, before a lease: a split-bill context does not clear these. */
const LEASE_MONEY = /\b(?:deposit|hold|holding|reserve|reservation|before (?:the |a )?(?:viewing|tour|showing|visit|lease|signing)|first month'?s?(?: rent)?|security|application fee|secure (?:it|the room|your spot))\b/;
/** A group of residents, not a private line to a stranger. */
const GROUP_CHAT = /\b(?:group ?chat|groupchat|group|gc|building'?s?|roommates'?|housemates|house chat|subletters|residents|neighbou?rs|floor|add(?:ed|ing)? (?:you|u) (?:to|in|on|into)|add (?:me|us) (?:to|into) (?:the|our|your) (?:[a-z']+ ){0,3}(?:chat|group|gc)|groupme|discord|slack|(?:the|our) (?:whatsapp|imessage|telegram|signal|wechat) (?:chat|group|gc)|lease is signed|is signed|house (?:whatsapp|chat|group|telegram|imessage)|after (?:you|we) sign|once (?:you'?ve|you have|the lease is|it'?s) signed|after (?:the )?lease)\b/;

/**
 * Context windows (docs/decisions/015): two cues within `span` characters of each other, in either order. The
 * stories scammers tell vary in wording more than in what they put side by side.
 */
function near(text: string, a: RegExp, b: RegExp, span = 60): boolean {
  for (const m of text.matchAll(new RegExp(a.source, "g"))) {
    const window = text.slice(Math.max(0, m.index - span), m.index + m[0].length + span);
    if (b.test(window)) return true;
  }
  return false;
}

/** "Can't" and its kin, and what a viewing needs. */
const CANNOT = /\b(?:zero way|cant|can'?t|cannot|can not|won'?t|wont|unable|not able|no way|not possible|impossible|isn'?t possible|not going to be able|not gonna be able|not around|not in town|nobody|no one|noone)\b/;
const SEE_IN_PERSON = /\b(?:go in(?:side)?|get in(?:side)?|has the keys?|have the keys?|show|showing|view|viewing|tour|meet|visit|let (?:you|u) in|open (?:it|the door|up)|in person|see (?:it|the place|the room|the apartment|inside)|walk ?through|hand (?:you|u|over))/;
const KEYS = /\b(?:keys?|key card|fob|access code|lockbox code|door code|smart lock|the code|garage opener)\b/;
/** A carrier: keys sent this way mean nobody will meet you. */
const CARRIER = /\b(?:mail(?:ed)?|ship(?:ped)?|post(?:ed)?|courier(?:ed)?|fedex|ups|dhl|usps|overnight(?:ed)?)\b/;
const DELIVERY = /\b(?:mail(?:ed)?|ship(?:ped)?|post(?:ed)?|courier(?:ed)?|fedex|ups|dhl|usps|deliver(?:ed|y)?|overnight(?:ed)?|send|sent)\b/;
/** Money asked for the place, and a hold on it. */
const PLACE_MONEY = /(?:\bput down \d+|\bdeposit\b|\bfee\b|\$\s?\d|\b\d[\d,]* ?\$|\b(?:one|1|a|first) months?'? rent\b|\bsomething\b|\bfirst month|\bhalf (?:the|of the|a) (?:rent|month)|\bpayment\b|\bmoney\b|\bfunds\b|\b\d{2,5} ?(?:dollars|usd|bucks)\b)/;
const HOLD_WORD = /\b(?:block (?:it|the room|the spot)|hold|holds|holding|reserve|reserves|reserved|reservation|secure|secures|lock(?: it| in)?|save it|keep it for|take (?:it|the listing|the ad|the post) (?:off|down)|off the market|mark (?:it|the room) as taken|it'?s yours|(?:it|the room|the place|the spot|the unit)(?:'s| is) (?:yours|all yours)|claim it|dibs|keep (?:it|the room|the place) (?:only )?for (?:you|u)|stop showing|turn (?:the )?others away|tell the others|(?:won'?t|not) show it to (?:anyone|anybody)|no one else)\b/;
const UNSEEN = /\b(?:then (?:we'?ll|i'?ll|we can|you can|u can|we will) (?:set|schedule|arrange|book|do|plan)|after that\b.{0,25}\b(?:viewing|tour|showing|visit)|(?:see|view|tour|visit|walk ?through|show (?:u|you|it))(?: it)? (?:after|later|when (?:i'?m|im|i am) back)|(?:tour|walkthrough|walk-through|showing|viewing) (?:after|later)|no (?:showing|viewing|tour)s? needed|(?:u|you) can (?:go |come )?(?:see|view|tour|visit) it|before (?:you |u |the )?(?:see|view|visit|tour|come|arrive|get here|land)|prior to|sight unseen|without (?:seeing|viewing|a (?:viewing|tour|showing))|no need to (?:see|view|visit|tour)|(?:then|after that|after) (?:you|u|we) (?:can )?(?:see|view|tour|visit|schedule|set up)|when (?:you|u) (?:get|arrive|land|come) (?:here|to|in)|once (?:it'?s |it is |i (?:get|receive|have) (?:it|the))?(?:received|paid|sent|confirmed|in))\b/;
/** Competition and a clock. */
const COMPETITION = /\b(?:(?:also|too) (?:asking|interested)|(?:is|are) also (?:asking|interested)|(?:\d+|two|three|four|five|ten) \w+ (?:people|students|applicants|guys|girls)|other (?:people|students|applicants|person|girl|guy|offer)|someone (?:else)?|somebody else|another (?:person|student|applicant|girl|guy|offer|one)|many (?:people|students)|lots of|several|(?:\d+|two|three|four|five|ten) (?:people|students|applicants|inquiries|messages|msgs|requests)|first come|first served|whoever|next (?:person|applicant|in line|one)|high demand|goes fast|going fast)\b/;
const CLOCK = /\b(?:before then|at \d{1,2}(?::\d\d)? ?(?:am|pm)?|now|today|tonight|asap|right now|right away|immediately|within (?:the )?(?:next )?\d*\s?(?:min|mins|minutes|hours?|hrs?|hour)|next (?:hour|\d+ ?(?:min|mins|minutes|hours?|hrs?))|\d+ ?(?:min|mins|minutes|hrs?|hours?)\b|by (?:tonight|midnight|end of (?:the )?day|eod|noon|\d{1,2} ?(?:am|pm)|tomorrow)|until (?:midnight|tonight|tomorrow)|deadline|expires?|last chance|final call|fast|quick(?:ly)?|hurry)\b/;
const TIGHT_CLOCK = /\b(?:within (?:the )?(?:next )?\d+ ?(?:min|mins|minutes|hours?|hrs?)|in (?:the next )?\d+ ?(?:min|mins|minutes|hrs?|hours?)|next hour|time sensitive)\b/;
const DEMAND = /\b(?:send|pay|paid|deposit|decide|decision|confirm|commit|lock|secure|book|reserve|money|transfer|zelle|venmo|cash ?app|wire|answer|yes or no|in or out|settle|take it|payment|respond|reply|\$\s?\d|claim|grab|snag|jump on|move (?:fast|quickly))\b/;

const sentencesOf = (text: string) => text.split(/(?<=[.!?;\n])\s+|\s+(?:but|however)\s+/).filter((s) => s.trim());

// ---------------------------------------------------------------------------------------------
// The scan.

const any = (patterns: RegExp[], text: string) => patterns.some((re) => re.test(text));

function payBeforeViewing(words: string): boolean {
  for (const re of PAY_BEFORE) {
    const global = new RegExp(re.source, "g");
    for (const m of words.matchAll(global)) {
      if (!NEGATED_BEFORE.test(words.slice(Math.max(0, m.index - 30), m.index))) return true;
    }
  }
  return false;
}

function holdBeforeViewing(sentence: string): boolean {
  // "Refundable if you don't like it after you see it" is a fee paid before seeing it.
  if (HONEST_HOLD.test(sentence) && !/\brefundable if\b/.test(sentence)) return false;
  // Money for a hold, with the viewing put after it (or away).
  return any(HOLD, sentence) || (near(sentence, PLACE_MONEY, HOLD_WORD, 50) && UNSEEN.test(sentence));
}

function urgency(words: string): boolean {
  if (NO_PRESSURE.test(words)) return false;
  if (URGENCY.test(words) && URGENCY_STAKE.test(words)) return true;
  // Someone else and a clock, with something demanded now.
  if (COMPETITION.test(words) && CLOCK.test(words) && DEMAND.test(words)) return true;
  // A clock in minutes or hours with money asked ("reply YES in 10 mins and pay").
  return TIGHT_CLOCK.test(words) && /\b(?:pay|payment|send|transfer|deposit|money|zelle|venmo)\b/.test(words);
}

function offPlatformPayment(sentence: string, message: string): boolean {
  if (any(OVERPAYMENT, sentence)) return true;
  if (any(ALWAYS_OFF_PLATFORM, sentence)) return true;
  if (!PAYMENT_APP_RE.test(sentence)) return false;
  if (!(any(ASK_WITH_APP, sentence) || HOUSING_MONEY.test(sentence))) return false;
  // Splitting a bill after move-in names the same apps: honest unless this is money for the place.
  const split = SPLIT.test(sentence) || (SPLIT.test(message) && !LEASE_MONEY.test(message));
  return !(split && !LEASE_MONEY.test(sentence));
}

function ownerUnavailable(words: string): boolean {
  if (any(OWNER_UNAVAILABLE, words)) return !SOMEONE_SHOWS.test(words);
  if (SOMEONE_SHOWS.test(words)) return false;
  const away = FAR_AWAY.test(words) || INTERMEDIARY.test(words);
  const noViewing = NO_VIEWING.test(words) || near(words, CANNOT, SEE_IN_PERSON, 40);
  const keysDelivered = KEYS_DELIVERED.test(words) || near(words, KEYS, DELIVERY, 40);
  return (away && (noViewing || keysDelivered)) || (noViewing && keysDelivered) || near(words, KEYS, CARRIER, 40);
}

function movesOffPlatform(plain: string, words: string): boolean {
  // Cheap gates first: the address patterns only run where an address could be.
  if (plain.includes("@") && (EMAIL.test(plain) || EMAIL.test(plain.replace(/(?<=\S) (?=\S)/g, "")))) return true;
  if (MAIL_DOMAIN.test(plain) && SPELLED_EMAIL.test(plain)) return true;
  if (any(SPELLED_HANDLE, words)) return true;
  if (SPELLED_PHONE.test(words)) return true;
  if (PHONE.test(plain) && !looksLikeMoneyOrDate(plain)) return true;
  const digits = digitsView(plain);
  const run = PHONE_RUN.exec(digits);
  if (run && !looksLikeMoneyOrDate(run[0])) return true;
  if (!any(MOVES_OFF, words)) return false;
  // A building's or roommates' group on an app is not a private line to a stranger.
  return !GROUP_CHAT.test(words) || /\b(?:text|call|message|dm|reach|contact) me\b/.test(words);
}

/** Paying named without a sum ("whoever pays first", "send something now"). */
const PAYS = /\b(?:pay|pays|paying|paid|send (?:it|something|me|the)|sends|transfer|put (?:something|money) down)\b/;

/** The keys handed over without anyone meeting you: a place rented unseen (decision 015). */
const keysWithoutViewing = (words: string) => KEYS_DELIVERED.test(words) || near(words, KEYS, DELIVERY, 40) || near(words, KEYS, CARRIER, 40);

function identityRequest(sentence: string, message: string): boolean {
  return any(ID_REQUEST, sentence) && !ID_IN_PERSON.test(message);
}

/** Ten digits that are a sum range or dates, not a phone ("$1200-$1500 ... 2026"). */
function looksLikeMoneyOrDate(plain: string): boolean {
  const m = PHONE.exec(plain) ?? PHONE_RUN.exec(plain);
  if (!m) return false;
  const digits = m[0].replace(/\D/g, "");
  // A phone's area code and exchange never start with 0 or 1.
  const local = digits.length === 11 ? digits.slice(1) : digits;
  return /^[01]/.test(local) || /^[01]/.test(local.slice(3));
}

/**
 * The fraud patterns a message matches, in SCAM_REASONS order; empty for a clean message. Total:
 * any string in, never throws. The rules decide first; what they leave clean, the scored model
 * (scam-model.ts) may flag, never over a refusal or a warning about someone else.
 */
export function scanMessage(text: string): ScamReason[] {
  return scanForStorage(text).filter((f): f is ScamReason => f !== SCORED_FLAG);
}

/**
 * What messaging stores: the reasons, and the scored marker when the model, not a rule, found them.
 * The model flags only a message that carries a concrete risk (`concreteRisk`): it may rank and
 * explain, never flag an inquiry, a greeting or small talk on its style alone (docs/decisions/015).
 */
export function scanForStorage(text: string): StoredFlag[] {
  const { reasons, words, cleared } = readRules(text);
  if (reasons.length > 0 || cleared || !words || !concreteRisk(normalize(text), words)) return reasons;
  const scored = scoredReason(words);
  return scored ? [scored, SCORED_FLAG] : [];
}

// ---------------------------------------------------------------------------------------------
// A concrete risk (docs/decisions/015): what a flag must be able to point at.

/** A way to pay that CampusNest does not handle: apps, wire, cards, crypto, cheques. */
const PAY_INSTRUMENT = new RegExp(`${PAYMENT_APP_RE.source}|\\b(?:wire|wired|western union|money ?gram|money ?order|gift ?cards?|cheque|cashier'?s? check|(?:a|the) check (?:for|of)|bank (?:account|details|transfer)|account (?:number|details))\\b`);
/** Money for the place: a deposit, rent, a fee, a sum. */
const MONEY_THING = /(?:\bdeposit\b|\brent\b|\bfee\b|\bpayment\b|\bmoney\b|\bfunds\b|\bsecurity amount\b|\bfirst month|\$\s?\d|\b\d[\d,]* ?\$|\b\d[\d,]* ?(?:dollars|usd|bucks)\b|\b\d{3,5}\b.{0,12}\b(?:it'?s yours|to (?:hold|reserve|secure|lock)))/;
/** Money moving: a verb of paying, holding or returning (near a sum, or with a way to pay). */
const MONEY_VERB = /\b(?:need|needs|want|wants|whoever|wins|holds|send|sending|sent|pay|pays|paying|paid|transfer|transferring|wire|reserve|reserved|secure|hold|lock|upfront|up front|in advance|refund|reimburse|difference|put down|charge|after (?:payment|that)|once (?:paid|received))\b/;
/** The writer's own budget or a question about the price: an inquiry, not money asked for. */
const BUDGET = /\b(?:budget|looking for|price range|afford|how much|what(?:'s| is) the (?:rent|deposit|price|fee)|is (?:the )?(?:rent|deposit|utilities|there a)|does (?:the )?(?:rent|price)|included|per month|a month|\/mo|monthly)\b/;
/** Later months' rent of a signed deal: money that is due, not a stranger's ask (decision 015). */
const LATER_RENT = /\b(?:(?:january|february|march|april|may|june|july|august|september|october|november|december|next month|this month|monthly)'?s? rent|rent (?:for|of) (?:january|february|march|april|may|june|july|august|september|october|november|december|next month|this month)|rent is due|rent (?:will be )?due)\b/;
/** Contact details or an app that moves the talk off the platform, also spelled or hinted. */
const CONTACT = new RegExp(`${MESSENGER}|\\b(?:text|txt|call|email|e-mail|write|reach|contact|message|whatsapp) me (?:at|on|via)\\b|\\b(?:take|move|continue|switch) (?:this|the chat|the conversation|it|things) (?:to|over to|on)\\b|\\b(?:username|handle|signal|tele)\\b|\\b(?:send|give|drop|share|text|dm|what'?s|whats) (?:me )?(?:your|ur) (?:phone |cell |whatsapp )?(?:number|cell|digits)\\b|\\b(?:number|cell|phone|digits) is:? ?(?:\\d|zero|one|two|three|four|five|six|seven|eight|nine)`);
/** A link spelled out, or a card shown front and back. */
const SPELLED_LINK = /\b(?:slash|dot (?:com|net|org|help|xyz|io|co|app|site|link))\b/;
const CARD_PHOTO = /\b(?:card|id|licen[cs]e|passport)\b.{0,20}\bfront and back\b/;

function moneyMoving(words: string): boolean {
  if (LATER_RENT.test(words) && !PAY_INSTRUMENT.test(words)) return false;
  if (PAY_INSTRUMENT.test(words)) return true;
  if (PAYS.test(words) && /\b(?:app|bank|account)\b/.test(words)) return true;
  if (/\b(?:send|pay|transfer|wire) (?:me )?\d{2,5}\b/.test(words)) return true;
  // A sum alone is no ask ("a $1 burger"), and a budget or a price question names one without asking.
  return MONEY_THING.test(words) && near(words, MONEY_VERB, MONEY_THING, 60) && !BUDGET.test(words);
}

/**
 * The message names something a person would accept as a reason to warn: money asked for, offered or
 * moving (not a budget, not a later month's rent of a signed deal), a way to pay off the platform,
 * documents or ID numbers asked for, a link that is not ours, or contact details off the platform.
 */
export function concreteRisk(plain: string, words: string): boolean {
  if (moneyMoving(words)) return true;
  if (near(words, new RegExp(`\\b${ID_ASK}\\b`), new RegExp(`\\b${ID_ITEM}\\b`), 70) || CARD_PHOTO.test(words)) return true;
  if (SPELLED_LINK.test(words) || [...linkView(plain).matchAll(DOMAIN)].some((m) => !TRUSTED_DOMAINS.has(registrable(m[1]!.replace(/^www\./, ""))) && plain[m.index - 1] !== "@")) return true;
  if (CONTACT.test(words) || EMAIL.test(plain) || (MAIL_DOMAIN.test(plain) && SPELLED_EMAIL.test(plain)) || any(SPELLED_HANDLE, words) || SPELLED_PHONE.test(words)) return true;
  const run = PHONE_RUN.exec(digitsView(plain));
  return (PHONE.test(plain) && !looksLikeMoneyOrDate(plain)) || (!!run && !looksLikeMoneyOrDate(run[0]));
}

/** The rules' reasons alone, without the model (tests and the bench compare the two). */
export const ruleReasons = (text: string): ScamReason[] => readRules(text).reasons;

/**
 * The rules. Each sentence is read in its context (docs/decisions/015): a refusal ("I won't Zelle before I see
 * it") or a warning about someone else clears the money and contact patterns of that sentence;
 * splitting bills clears a payment app; a group chat clears a messenger. `cleared`: the message
 * refuses or warns, so the model is not asked.
 */
function readRules(text: string): { reasons: ScamReason[]; words: string; cleared: boolean } {
  const plain = normalize(text);
  if (!plain) return { reasons: [], words: "", cleared: false };
  const words = wordsView(plain);
  const narrated = NARRATION.test(words);
  const warning = (WARNING.test(words) && (narrated || REFUSAL.test(words))) || (narrated && REFUSAL.test(words));
  const found = new Set<ScamReason>();
  if (suspiciousLink(plain) && !(warning && narrated)) found.add("suspicious_link");
  for (const sentence of sentencesOf(words)) {
    if (identityRequest(sentence, words) && !REFUSAL.test(sentence) && !(warning && NARRATION.test(words))) found.add("identity_request");
    if (warning || REFUSAL.test(sentence)) continue;
    if (offPlatformPayment(sentence, words)) found.add("off_platform_payment");
    if (payBeforeViewing(sentence) || holdBeforeViewing(sentence)) found.add("pay_before_viewing");
  }
  // A hold and the viewing put off can sit in two sentences ("put down a month first? then I show you").
  if (!warning && !REFUSAL.test(words) && near(words, PLACE_MONEY, HOLD_WORD, 80) && UNSEEN.test(words) && !HONEST_HOLD.test(words)) found.add("pay_before_viewing");
  if (!warning) {
    // Pressure and the owner-away story are risks only with money in them (decision 015): "decide by
    // tonight" or "I'm abroad, can't show it" alone is a story a person may tell honestly.
    const money = MONEY_THING.test(words) || PAY_INSTRUMENT.test(words) || PAYS.test(words);
    if (money && urgency(words)) found.add("pay_before_viewing");
    if ((money || keysWithoutViewing(words)) && ownerUnavailable(words)) found.add("owner_unavailable");
    if (!REFUSAL.test(words) && movesOffPlatform(plain, words)) found.add("moves_off_platform");
  }
  return { reasons: SCAM_REASONS.filter((r) => found.has(r)), words, cleared: warning || REFUSAL.test(words) };
}

/** The text the rules and the model read: normalized, spaced letters joined (for the model's trainer). */
export const shieldWords = (text: string): string => wordsView(normalize(text));
