/**
 * Scam shield: the one place that knows what rental fraud sounds like in a message. Pure (no I/O);
 * messaging runs it on every message, test/worker/scam-shield.test.ts and `npm run bench` score it
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
import type { ScamReason } from "../contract/safety";
import { SCAM_REASONS } from "../contract/safety";

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
  /\b(?:no one|nobody|noone) (?:can|is able to|will be (?:able|there) to) (?:show|let you in|meet)\b/,
  new RegExp(`\\b(?:i'?m|i am|we'?re|we are|currently|now) ${AWAY}\\b.{0,80}\\b(?:agent|lawyer|attorney|courier|airbnb|keys?)\\b`),
];

const MESSENGER = `(?:whats${SEP}app|whatsap|wa\\.me|telegram|t\\.me/|wechat|we${SEP}chat|kik|viber|snap(?:chat)?|google voice|line app|skype|imessage|facebook messenger|signal app)`;
const MOVES_OFF = [
  new RegExp(`\\b${MESSENGER}`),
  /\b(?:on|via|over|through|using|add me on|message me on|text me on) signal\b/,
  /\bsignal (?:me|number)\b/,
  /\b(?:text|txt|call|ring|email|e-mail|mail|reach|contact|message|msg|dm|hit) me (?:up )?(?:at|on|via|directly|privately|off (?:here|this app|the app|the site|campusnest)|outside)\b(?! (?:any ?time|anytime|whenever|here|on here|on campusnest|through (?:here|campusnest|the app)))/,
  /\bmy (?:personal )?(?:number|cell|cell phone|phone|phone number|mobile|whatsapp|telegram|email|e-mail|gmail|contact) is\b(?! (?:on|in|attached|private|listed|the same|not|verified|linked|shown|hidden|dead|broken)\b)/,
  /\b(?:let'?s|we can|we should|better to|easier to|i prefer to) (?:talk|chat|continue|move this|take this|communicate|text)(?: (?:this|the|our) (?:conversation|chat|discussion))? (?:on|over|via|by|through|off) (?!campusnest|here\b|the app\b|this app\b)/,
  /\b(?:text|email|call) (?:is|would be) (?:easier|better|faster)\b/,
  /\boff (?:this|the) (?:app|site|platform)\b/,
];
/** Phone numbers (digits may be spaced or bracketed) and email addresses, also spelled out. */
const PHONE = /(?<![\d$])(?:\+?1[\s.-]*)?\(?\d(?:[\s.\-()]{0,2}\d){9}(?!\d)/;
const EMAIL = /(?<![a-z0-9._%+-])[a-z0-9._%+-]{1,64}@[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,4}\.[a-z]{2,24}\b/;
const MAIL_DOMAIN = /\b(?:gmail|yahoo|hotmail|outlook|icloud|proton(?:mail)?|aol|live|me)\b/;
const SPELLED_EMAIL = /(?<![a-z0-9._-])[a-z0-9._-]{1,64} ?[([]? ?(?:at|@) ?[)\]]? ?(?:gmail|yahoo|hotmail|outlook|icloud|proton(?:mail)?|aol|live|me)\s*[([]?\s*(?:\.|dot)\s*[)\]]?\s*(?:com|net|me|org|edu)\b/;
const DIGIT_WORDS = "(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)";
const SPELLED_PHONE = new RegExp(`(?:\\b${DIGIT_WORDS}\\b[\\s,\\-]*){7,}`);

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

function offPlatformPayment(words: string): boolean {
  if (any(ALWAYS_OFF_PLATFORM, words)) return true;
  if (!PAYMENT_APP_RE.test(words)) return false;
  return any(ASK_WITH_APP, words) || HOUSING_MONEY.test(words);
}

function ownerUnavailable(words: string): boolean {
  return any(OWNER_UNAVAILABLE, words);
}

function movesOffPlatform(plain: string, words: string): boolean {
  // Cheap gates first: the address patterns only run where an address could be.
  if (plain.includes("@") && EMAIL.test(plain)) return true;
  if (MAIL_DOMAIN.test(plain) && SPELLED_EMAIL.test(plain)) return true;
  if (SPELLED_PHONE.test(words)) return true;
  if (PHONE.test(plain) && !looksLikeMoneyOrDate(plain)) return true;
  return any(MOVES_OFF, words);
}

/** Ten digits that are a sum range or dates, not a phone ("$1200-$1500 ... 2026"). */
function looksLikeMoneyOrDate(plain: string): boolean {
  const m = PHONE.exec(plain);
  if (!m) return false;
  const digits = m[0].replace(/\D/g, "");
  // A phone's area code and exchange never start with 0 or 1.
  const local = digits.length === 11 ? digits.slice(1) : digits;
  return /^[01]/.test(local) || /^[01]/.test(local.slice(3));
}

/**
 * The fraud patterns a message matches, in SCAM_REASONS order; empty for a clean message. Total:
 * any string in, never throws.
 */
export function scanMessage(text: string): ScamReason[] {
  const plain = normalize(text);
  if (!plain) return [];
  const words = wordsView(plain);
  const found = new Set<ScamReason>();
  if (offPlatformPayment(words)) found.add("off_platform_payment");
  if (payBeforeViewing(words)) found.add("pay_before_viewing");
  if (ownerUnavailable(words)) found.add("owner_unavailable");
  if (movesOffPlatform(plain, words)) found.add("moves_off_platform");
  return SCAM_REASONS.filter((r) => found.has(r));
}

// ---------------------------------------------------------------------------------------------
// Scoring on a labelled corpus (the worker test and `npm run bench`).

export interface CorpusCase {
  text: string;
  reasons: ScamReason[];
  /** A phrasing built to look like fraud that is not (it must come out clean). */
  trap?: boolean;
}

export interface CorpusScore {
  n: number;
  /** Over (message, reason) pairs: right flags / all flags. */
  precision: number;
  /** Over (message, reason) pairs: right flags / all expected flags. */
  recall: number;
  /** Message level: flagged at all vs expected to be. */
  messagePrecision: number;
  messageRecall: number;
  /** Cases whose reasons differ from the label. */
  misses: { text: string; expected: ScamReason[]; got: ScamReason[] }[];
}

export function scoreCorpus(cases: CorpusCase[]): CorpusScore {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let mtp = 0;
  let mfp = 0;
  let mfn = 0;
  const misses: CorpusScore["misses"] = [];
  for (const c of cases) {
    const got = scanMessage(c.text);
    const expected = new Set(c.reasons);
    for (const r of got) {
      if (expected.has(r)) tp++;
      else fp++;
    }
    for (const r of expected) if (!got.includes(r)) fn++;
    if (got.length > 0 && expected.size > 0) mtp++;
    else if (got.length > 0) mfp++;
    else if (expected.size > 0) mfn++;
    if (got.length !== expected.size || got.some((r) => !expected.has(r))) misses.push({ text: c.text, expected: [...c.reasons], got });
  }
  const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);
  return {
    n: cases.length,
    precision: ratio(tp, tp + fp),
    recall: ratio(tp, tp + fn),
    messagePrecision: ratio(mtp, mtp + mfp),
    messageRecall: ratio(mtp, mtp + mfn),
    misses,
  };
}
