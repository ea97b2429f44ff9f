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
 *  - Deals (docs/decisions/030): once the pair's first month is paid through CampusNest, a later month's
 *    rent by a payment app ("I'll Venmo you March's rent") is the agreement's way, not a flag; a deposit,
 *    a hold or gift cards still flag. Asking the renter to tap "I have the keys" (confirm move-in) now,
 *    early or so the money is released flags as early_move_in; "tap it once you're inside" does not.
 */
import type { ScamReason, StoredFlag } from "../contract/safety";
import { SCAM_REASONS, SCORED_FLAG } from "../contract/safety";
import { modelThreshold, scoreWords } from "./scam-model";

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
  // An email address stays as written ("jo@gmail.com"), so the words view still reads it as one.
  return joined.replace(/[\p{L}\p{N}@$]+/gu, (word, offset: number, whole: string) =>
    /\p{L}/u.test(word) && /[\p{N}@$]/u.test(word) && !/^\d+(st|nd|rd|th|s|k|br|bd|ba|b|am|pm|ft|sqft|m|x)$/.test(word) && !(/\p{L}@\p{L}/u.test(word) && /^\.[a-z]{2,}/.test(whole.slice(offset + word.length)))
      ? word.replace(/[013457@$]/g, (c) => LEET[c] ?? c)
      : word,
  );
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
  /\bwire (?:(?:it|me|you|us|him|her) )?(?:the |your |my |a |an )?(?:\$\s?\d|\d|money|deposit|payment|rent|funds|cash|amount|fee|first month)/,
  /\b(?:by|via|through|thru|with|over) (?:a )?(?:bank )?wire\b/,
  /\bwired? (?:over )?(?:the )?(?:money|deposit|payment|rent|funds)\b/,
  // Gift cards as the payment, not as a move-in perk ("$50 gift card to the storage place").
  /\b(?:pay|paying|payment|send|sending|buy|purchase|get me|pick up|load|accept|take)\b.{0,40}\b(?:gift|itunes|apple|google play|steam|amazon|visa|prepaid|vanilla|ebay|target|walmart|sephora) ?cards?\b(?!.*\b(?:welcome|birthday|thank)\b)|\b(?:gift|itunes|google play|steam|vanilla|prepaid) ?cards?\b.{0,30}\b(?:codes?|numbers?|pins?|pictures?|photos?|scratch|only)\b/,
  /\b(?:paypal|pay pal)\b.{0,30}\b(?:friends? (?:and|&|n) family|f ?& ?f|f ?and ?f|personal payment|as a gift)\b/,
  /\b(?:friends? (?:and|&) family|f ?& ?f)\b.{0,30}\b(?:paypal|pay pal)\b/,
  /\b(?:bitcoin|btc|crypto) (?:atm|wallet|address)\b/,
  /\b(?:in|with|via|by|accept|accepts|take|takes|prefer|payment in|pay in) (?:bitcoin|btc|crypto\w*|ethereum|eth|usdt|usdc|tether|litecoin|dogecoin)\b/,
  /\bwire (?:it |money |the money |payment |the payment )?to (?:my|our) (?:personal )?(?:bank )?account\b/,
  /\b(?:accept|via|through|using|by|with) wise\b/,
];
/**
 * An app named as the way to pay the writer (decision 033): "zelle me", "my venmo is", "send it via cash app",
 * "zelle only". Flags with or without a sum.
 */
const ASK_WITH_APP = [
  new RegExp(`\\b(?:pay|paying|send|sending|transfer|transferring|wire)\\b.{0,60}\\b(?:via|through|thru|by|over|using|on|with|in|to) ${PAYMENT_APP}\\b`),
  new RegExp(`\\b${PAYMENT_APP}\\b (?:me|it|us)\\b`),
  new RegExp(`\\bmy ${PAYMENT_APP}\\b`),
  new RegExp(`\\bonly (?:take|takes|accept|accepts|use|do|want)? ?${PAYMENT_APP}\\b`),
  new RegExp(`\\b(?:do|does|can|could) (?:you|u) have ${PAYMENT_APP}\\b`),
  new RegExp(`\\b${PAYMENT_APP}\\b (?:only|handle|username|id|tag|address|wallet|is|works)\\b`),
];
/** An app listed among the ways to pay ("we accept Zelle or checks"): a flag only for a first payment (decision 033). */
const APP_LISTED = new RegExp(`\\b(?:accept|accepts|take|takes|prefer|use|do|via|through|thru|by|over|using|with|in) ${PAYMENT_APP}\\b|\\b${PAYMENT_APP}\\b (?:or|and|,)|\\b(?:or|and|,) ${PAYMENT_APP}\\b`);
/** The payer asking how to pay, or telling what they paid: no ask of the reader (decision 033). */
const PAYER_QUESTION = new RegExp(`\\b(?:do|does|can|could|will|would) (?:you|u|they|he|she|the landlord|the owner|the office) (?:accept|take|use|do)\\b.{0,30}\\b${PAYMENT_APP}\\b|\\b(?:i|we) (?:already |just )?(?:venmo'?d|venmoed|zelled|paid|sent|transferred|cash ?apped)\\b`);
/** The writer offering to pay by the app ("I'll Venmo you March's rent"): no ask of the reader. */
const WRITER_OFFERS = new RegExp(`\\b(?:i|we)(?:'ll|'d| will| would| can| could| am going to| plan to)? (?:happily |gladly |just )?(?:${PAYMENT_APP}|pay|send|transfer)(?: (?:you|u))?\\b`);
/**
 * The buyer's side of the overpayment story (decision 033): an offer to pay by an app or a check from someone
 * far away, unseen, with a shipper or a sponsor, or for more than asked.
 */
const PAYER_STORY = /\b(?:without (?:seeing|viewing)|sight unseen|no need to (?:see|view|visit)|(?:shipper|mover|movers|agent|courier|driver|assistant) (?:will |can |would )?(?:pick|collect|come|handle)|extra|more than (?:the )?(?:asking|rent|price)|(?:certified|cashier'?s) che(?:ck|que)|my (?:dad|father|mom|mother|company|employer|sponsor|agent|assistant|secretary|client) (?:will |can |would )?(?:pay|send|transfer|issue|mail))\b/;
const ASKS_READER = new RegExp(`\\b(?:zelle|venmo|cash ?app|send|pay|transfer|wire) (?:me|us)\\b|\\bmy ${PAYMENT_APP}\\b`);
/** A first payment for the place, or the money asked now: what an app is not needed for until the lease is signed. */
const FIRST_MONEY = /\b(?:deposit|first month|1st month|hold|holding|reserve|reservation|secure|fee|to confirm|today|tonight|now|asap|first|before|upfront|up front|in advance)\b|\$\s?\d/;
/** After the lease is signed, the place approved or moved into: when an app is how honest rent is paid. */
const AFTER_SIGNING = /\b(?:after|once|when) (?:(?:we|you|u|i)(?:'ve| have| are|'re)? )?(?:sign|signed|signing|move in|moved in|move-in|approved)\b|\b(?:after|once|when) (?:the |your )?(?:lease|sublease|contract|agreement|application) (?:is |has been )?(?:signed|approved)\b|\bat (?:the )?(?:lease )?signing\b|\bafter (?:the )?(?:lease signing|signing|move-?in|approval|viewing|tour|showing)\b|\bat (?:our|the) (?:office|leasing office)\b/;

/** Seeing the place: the viewing, a tour, a visit, move-in, the keys. */
const VIEWING = "(?:view|viewing|viewings|see|seeing|seen|look at|tour|touring|showing|show|visit|visiting|meet|meeting|come by|check (?:it|the place) out|walk ?through)";
const MONEY = "(?:deposit|payment|pay|paying|money|first month'?s?(?: rent)?|rent|fee|funds|holding fee|\\$\\s?\\d+)";
const PAY_BEFORE = [
  new RegExp(`\\b${MONEY}\\b.{0,60}\\b(?:before|prior to|ahead of|in advance of)\\b.{0,30}\\b${VIEWING}\\b`),
  /\bdeposits? (?:to|will|would|can|and i'?ll|and we'?ll) (?:hold|reserve|secure|lock|keep)\b/,
  /\b(?:hold|reserve|secure|lock in|lock|keep) (?:it|the (?:room|place|unit|apartment|apt|flat|spot|studio|sublet|sublease)|this (?:room|place|unit|apartment|spot)|your spot|the keys?) (?:for you )?(?:(?:with|for) (?:a |the |your |an? )?(?:small |refundable )?(?:deposit|payment|fee|\$|money|holding)|by (?:sending|paying)|once (?:you|i) (?:send|pay|receive)|if you (?:send|pay))/,
  /\b(?:pay|send|transfer)(?: (?:me|us|the deposit|the money|the rent|it|a deposit))? (?:first(?! (?:month|and last|&))|upfront|up front|in advance|right away|today|now|asap)\b.{0,40}\b(?:then|and|before|so)\b/,
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
/** The writer offering to pay is no ask ("happy to pay first month once we sign", "I can send it after the tour"). */
const WRITER_PAYS = /\b(?:i|we)(?:'ll|'d| will| would| can| could| am|'m| are|'re)?(?: (?:be|also|definitely|gladly))?(?: (?:happy|glad|willing|able|ready|fine))?(?: to)?\s*$|\b(?:happy|glad|willing|ready) to\s*$/;

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

const MESSENGER = `(?:whats${SEP}app|whatsap|wa\\.me|tele${SEP}gram|t\\.me/|wechat|we${SEP}chat|kik|viber|snapchat|snap (?:me|app)|(?:on|add me on|my) snap\\b|google voice|line app|(?:on|via|add me on|my) skype|skype (?:me|id|name)|(?:dm|message|add|follow|hit) me (?:up )?on (?:insta(?:gram)?|ig|facebook|fb)\\b|imessage|facebook messenger|signal app)`;
/**
 * A push to take the talk off CampusNest (decision 033): a messenger, a reason to go elsewhere, keeping it
 * from the site. Flags alone (a group chat of residents aside).
 */
const MOVES_OFF = [
  new RegExp(`\\b${MESSENGER}`),
  /\b(?:on|via|over|through|using|add me on|message me on|text me on) signal\b/,
  /\bsignal (?:me|number)\b/,
  /\b(?:text|txt|call|ring|email|e-mail|mail|reach|contact|message|msg|dm|hit) me (?:up )?(?:directly|privately|off (?:here|this app|the app|the site|campusnest)|outside)\b/,
  /\b(?:let'?s|we can|we should|better to|easier to|i prefer to|i'?d rather) (?:talk|chat|continue|move this|take this|communicate|text)(?: (?:this|the|our) (?:conversation|chat|discussion))? (?:on|over|via|by|through|off|there|elsewhere) (?!campusnest|here\b|the app\b|this app\b)/,
  /\b(?:i'?d rather|i prefer to|easier to|better to) (?:talk|chat|text|email|discuss) (?:there|elsewhere|outside)\b/,
  /\b(?:text|email|call|phone|whatsapp) (?:is|would be|will be) (?:easier|better|faster|quicker)\b/,
  /\b(?:easier|faster|quicker|better) than (?:this|the) (?:app|site|website|platform|chat)\b/,
  /\boff (?:this|the) (?:app|site|platform)\b/,
  /\b(?:don'?t|do not|rarely|never|barely|hardly) (?:really )?(?:check|use|log ?in to|look at|get notifications (?:on|from)) (?:this|the|campusnest) ?(?:app|site|website|platform|account|messages)?\b/,
  /\b(?:this|the) (?:app|site|website|platform) (?:is (?:too )?(?:slow|glitchy|buggy)|keeps (?:logging|kicking|crashing))/,
  /\b(?:not involve|without|outside (?:of )?) (?:the )?(?:website|site|app|platform|campusnest)\b/,
  /\b(?:don'?t|do not) (?:want to )?use (?:the|this) (?:site|app|website|platform) for\b/,
  /\bprivate between us\b/,
  /\b(?:don'?t|do not) (?:like|want to) (?:discuss|talk|chat|communicate)(?:ing)?\b.{0,30}\b(?:on here|here|on this app|on campusnest|on the app)\b/,
  // A premium text number's keyword: no landlord asks for one ("txt WIN to 80086", "reply STOP to 62468").
  /\b(?:txt|text|send|reply|sms)(?: the word)?:? [a-z][a-z0-9-]*(?: [a-z][a-z0-9-]*)? to (?:no:? )?\d{5}\b(?! [a-z]+ (?:st|street|ave|avenue|rd|road|blvd|dr|drive|way|ln|lane)\b)/,
  /\b(?:finish|continue|talk|chat|do|discuss) (?:everything |this |it |the rest |the details )?(?:over|via|by|through|on) (?:email|e-mail|text|phone|whatsapp|telegram|signal)\b/,
];
/**
 * Contact details given (a number or an address, written, spelled or disguised) or asked for. Common in
 * honest replies ("call me at ... to set up a viewing"), so they flag only with no viewing being arranged,
 * or beside another risk (decision 033).
 */
const CONTACT_ASKED = /\b(?:send|give|text|dm) me your (?:phone |cell |personal |real )?(?:number|digits|cell|email|e-mail|contact)\b/;
/** A viewing being arranged, or a business's office: where honest people give a number (decision 033). */
const VIEWING_PLAN = /\b(?:viewings?|showings?|tours?|open house|walk ?through|appointment|set up a (?:time|day)|(?:schedule|arrange|book|pick|find) (?:a |the )?(?:time|day|viewing|showing|tour|visit)|to see (?:it|the (?:place|room|unit|apartment|apt|house|home|property|studio))|come (?:by|see|look|take a look|over)|show (?:you|it|the)|see it|let (?:you|u) in|when (?:i'?m|i am) (?:outside|there|here)|leasing office|property manag(?:er|ement)|(?:our|the) office)\b/;

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
/**
 * What no honest landlord asks for in a chat: bank access and card data. Flags with any ask, whatever the
 * context (decision 033).
 */
const ID_SECRET =
  "(?:(?:bank|banking|chase|wells fargo|bofa|bank of america|citi|capital one)(?: app)? (?:login|log in|password|credentials|username|account (?:number|login|details|info)|details|info)|online banking|account number|routing number|card number|credit card (?:number|details|info)|debit card (?:number|details|info)|cvv|cvc|security code|(?:3|three) digits|pin number|your pin|mother'?s maiden name)";
/** Documents and ID numbers: asked on honest applications too, so they flag when sent to the person (decision 033). */
const ID_DOC =
  "(?:ssn|social security(?: number| no| #)?|social(?: number)?|passport|driver'?s'? licen[cs]e|drivers licen[cs]e|licen[cs]e|state id|photo id|id card|(?:copy|photo|pic|picture|scan|front|back) of (?:your |ur )?id|i-?20|visa|date of birth|dob|birth ?date)";
const ID_ITEM = `(?:${ID_SECRET}|${ID_DOC})`;
const ID_ASK = "(?:send|text|txt|email|e-mail|upload|provide|share|give|submit|enter|type|need|needs|want|require|required|forward|attach|dm|what'?s your|whats your|tell me your|log ?in(?:to)?|sign ?in(?:to)?|pic of|photo of|picture of|scan of|copy of|selfie|screenshot|verify|confirm)";
const ID_ASK_RE = new RegExp(`\\b${ID_ASK}\\b`);
const ID_ITEM_RE = new RegExp(`\\b${ID_ITEM}\\b`);
/** Sent to the person in the chat, by text or email: not uploaded to a screening portal. */
const ID_SEND = "(?:send|sending|text|txt|email|e-mail|forward|attach|dm|share|give me|tell me your|what'?s your|whats your|pic of|photo of|picture of|scan of|selfie|screenshot)";
const ID_SECRET_REQUEST = [
  new RegExp(`\\b${ID_ASK}\\b.{0,70}\\b${ID_SECRET}\\b`),
  new RegExp(`\\b${ID_SECRET}\\b.{0,40}\\b(?:please|pls|asap|first|before|to (?:me|verify|confirm|prove|check)|for (?:verification|the (?:file|application|background check|credit check))|so i can)\\b`),
  /\blog ?(?:in|into|on)(?:to)? (?:your|ur) (?:bank|banking|chase|wells fargo|bofa|bank of america|citi|capital one|credit union|account)\b/,
  /\b(?:video call|facetime|screen ?share)\b.{0,60}\b(?:bank|banking|balance|account)\b/,
  /\b(?:credit|background) check\b.{0,60}\b(?:through|on|via|at) (?:my|our|this|the following) (?:own )?(?:site|link|page|website)\b/,
];
const ID_DOC_REQUEST = [
  new RegExp(`\\b${ID_SEND}\\b.{0,70}\\b${ID_DOC}\\b`),
  new RegExp(`\\b${ID_DOC}\\b.{0,40}\\b(?:asap|first|before (?:i|we|you|the)|to me|so i can|so i know|to (?:verify|confirm|prove|check) (?:you|your|that|who))\\b`),
  /\bselfie\b.{0,40}\b(?:holding|with|next to)\b.{0,30}\b(?:id|passport|licen[cs]e|card)\b/,
  new RegExp(`\\bbefore (?:i|we) (?:can )?(?:show|meet|schedule|set up|give)\\b.{0,80}\\b${ID_DOC}\\b`),
];
/** A document shown where leases are signed is normal: the leasing office, in person, at the signing. */
const ID_IN_PERSON = /\b(?:leasing office|leasing center|front desk|management office|property manag(?:er|ement)|the office|in person|bring|show (?:your|ur|the|a|an|my) (?:photo )?(?:id|licen[cs]e|passport|student id)|at (?:the )?(?:signing|office|desk|pickup|pick-up|move-?in)|when you (?:sign|pick up|come|get here|move in)|pick up (?:the )?keys|key pick ?up|through (?:the )?(?:official|leasing|landlord'?s?) (?:portal|application)|(?:through|via|on|in) (?:their|the complex'?s?|the building'?s?|the official|the leasing|the management) (?:portal|website|app|office)|not to me|(?:tenant|resident|applicant|online|our|the|their) portal|upload(?:ed|ing)?|screening (?:company|service)|(?:through|on|via) (?:our|the) (?:website|online application)|(?:at (?:the )?time of|when (?:you )?) apply(?:ing)?|(?:their|the) own (?:application|screening|background check))\b/;

/** Our own pages, the big listing sites and well-known student-housing managers (their portals too). */
const TRUSTED_DOMAINS = new Set([
  "campusnest.app", "zillow.com", "trulia.com", "hotpads.com", "apartments.com", "apartmentlist.com", "apartmentguide.com", "rent.com",
  "zumper.com", "padmapper.com", "realtor.com", "redfin.com", "rentcafe.com", "greystar.com", "americancampus.com", "cardinalgroup.com",
  "assetliving.com", "landmarkproperties.com", "thegreystar.com", "craigslist.org", "campusadvantage.com", "theretreat.com", "edrtrust.com", "appfolio.com", "buildium.com",
  "entrata.com", "yardi.com", "realpage.com", "rentler.com", "avaloncommunities.com", "equityapartments.com", "maac.com", "camdenliving.com",
  "google.com", "goo.gl", "youtube.com", "youtu.be", "instagram.com", "imgur.com", "dropbox.com", "icloud.com", "facebook.com", "reddit.com",
]);
const SHORTENERS = new Set(["bit.ly", "bit.do", "cutt.us", "goo.gle", "tinyurl.com", "t.co", "rb.gy", "cutt.ly", "is.gd", "ow.ly", "buff.ly", "shorturl.at", "tiny.cc", "s.id", "t.ly", "rebrand.ly", "bl.ink", "short.io", "tiny.one", "shorte.st", "v.gd", "qr.link"]);
/**
 * A domain dressed as a brand or a safe payment: names a person trusts, on a site that is not theirs. Words
 * every property manager's domain has ("rent", "lease", "apartments", "housing") are no disguise (decision 033).
 */
const BRANDED = /(?:campus-?nest|zill?ow|zilow|airbnb|airbnd|greystar|trulia|hotpads|zumper|craigslist|venmo|zelle|paypal|cashapp|escrow|secure|verif|payment|deposit|booking|reserv|trust|credit|protect|safe|bank|checkout|support|account|login|winner|prize|reward|claim|refund|bonus)/;
/**
 * Beside a link, what a fake page is for (decision 033): paying, logging in or verifying, reviewing one's
 * details, claiming a prize, a win or a refund, a premium service's terms. "Apply online at ...", "more info
 * at ...", "download an application at ..." and a move-in gift card are how honest managers link their sites.
 */
const LINK_CONTEXT = /\b(?:pay(?! ?(?:stubs?|slips?|day|period|checks?)\b)|paying|paid|payment|payments|escrow|verify|verification|confirm (?:your|the|my) (?:booking|payment|identity|account|details|reservation)|secure (?:payment|checkout|portal|link|page)|login|log ?in|sign ?in|password|card details|bank|account (?:details|info|is|has been|was|will be)|suspend(?:ed)?|locked|unlock|restore|claim|refund|prize|won(?!'t)|winner|reward|voucher|(?:update|review|verify) (?:your|the|their) (?:personal |account |billing |payment )?(?:details|info|information|account)|win|wins|winning|awarded|congratulations|congrats|free (?:entry|credits|tracks|gift|prize|offer)|activate|install|collect (?:your|yours|it|now)|credits|ringtone|opt ?out|t ?n ?cs|t'?s ?& ?c'?s|t ?& ?cs?)\b/;
/** Top-level domains that host little besides throwaway pages. */
const THROWAWAY_TLD = /\.(?:xyz|top|tk|ml|ga|cf|gq|icu|pw|click|cyou|buzz|rest|monster|sbs|cfd|zip|mov|loan|work)$/;
const TLD = "(?:com|net|org|co|io|xyz|info|biz|app|me|us|ly|gl|gd|gy|cc|to|link|site|online|top|club|shop|live|page|pw|ru|cn|tk|ml|ga|cf|gq|edu|gov|at|id|one|st|ws|icu|vip|cloud|store|tech|website|space|fun|rent|homes|house|properties|realty|ca|uk|de|do|mobi|tv|ai|gle)";
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

/**
 * The sentence of `text` around [start, end), at most 150 characters either side; with the sentence before
 * it when the link's own sentence says next to nothing ("Claim your refund. bit.ly/x").
 */
function sentenceAround(text: string, start: number, end: number): string {
  const before = text.slice(Math.max(0, start - 150), start);
  const after = text.slice(end, end + 150);
  const stops = [...before.matchAll(/[.!?](?=\s)/g)].map((m) => m.index);
  const to = after.search(/[.!?](?:\s|$)/);
  let from = stops.length ? stops[stops.length - 1]! + 1 : 0;
  const own = `${before.slice(from)}${after.slice(0, to < 0 ? after.length : to)}`;
  if (own.replace(/\s+/g, "").length < 20 && stops.length > 1) from = stops[stops.length - 2]! + 1;
  return `${before.slice(from)}${text.slice(start, end)}${to < 0 ? after : after.slice(0, to)}`;
}

/** Hosts that serve anyone's throwaway page: tunnels to a home computer, free hosting of phishing kits. */
const THROWAWAY_HOSTS = /(?:^|\.)(?:ngrok\.io|ngrok-free\.app|ngrok\.app|000webhostapp\.com)$/;

/** Every link's host and where it starts: domains as written or spelled, and whatever follows "http://". */
function linksIn(view: string): { host: string; index: number; length: number }[] {
  const links = [...view.matchAll(DOMAIN)].map((m) => ({ host: m[1]!.replace(/^www\./, ""), index: m.index, length: m[0].length }));
  // A scheme makes anything a link, a host without a known ending too ("http://itdo/bank-session").
  for (const m of view.matchAll(SCHEME_HOST)) {
    const index = m.index + m[0].length - m[1]!.length;
    if (!links.some((l) => l.index >= m.index && l.index <= index + 1)) links.push({ host: m[1]!.replace(/^www\./, ""), index, length: m[1]!.length });
  }
  return links;
}
const SCHEME_HOST = /\bhttps?:\/{0,2}\s?([a-z0-9][a-z0-9.-]*[a-z0-9])/g;

function suspiciousLink(plain: string): boolean {
  const view = linkView(plain);
  if (/\bhttps?:\/\/(?:\d{1,3}\.){3}\d{1,3}\b|\bhttps?:\/\/[^\s/]*@/.test(view)) return true;
  const prose = view.replace(/\bhttps?:\/{0,2}\S+|\bwww\.\S+|\b[a-z0-9-]+\.[a-z]{2,12}\/\S*/g, (url) => " ".repeat(url.length));
  for (const { host, index, length } of linksIn(view)) {
    const site = registrable(host);
    if (host.endsWith(".edu") || host.endsWith(".gov")) continue;
    if (SHORTENERS.has(host) || SHORTENERS.has(site)) return true;
    if (TRUSTED_DOMAINS.has(site)) continue;
    // An email address's domain is no link (moves_off_platform judges addresses).
    if (view[index - 1] === "@") continue;
    // A known site's name as a subdomain of another ("bestbuy.com.winner.net"), a brand or a throwaway host.
    if (BRANDED.test(host) || THROWAWAY_TLD.test(host) || THROWAWAY_HOSTS.test(host) || /\.(?:com|net|org|co)\./.test(host)) return true;
    // What the page is for, said in the link's own sentence, or the one before a link that stands alone (not
    // anywhere in a long text, nor in a link's path).
    if (LINK_CONTEXT.test(sentenceAround(prose, index, index + length))) return true;
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
const KEYS_DELIVERED = /\b(?:keys?|key card|fob|access code)\b.{0,40}\b(?:will be |would be |can be |are |is |gets? )?(?:mailed|shipped|posted|couriered|delivered|sent (?:to you|by|via|through|out)|dropped off|fedex(?:ed)?|overnighted)\b|\b(?:mail|ship|post|courier|fedex|deliver|send)(?:s|es)? (?:you |u )?(?:the )?(?:keys?|key card|fob)\b|\b(?:ups|dhl) (?:you |u )?(?:the )?(?:keys?|key card|fob)\b|\b(?:delivery (?:company|service|guy)|courier|driver|agent|someone) (?:will |can |would )?(?:bring|deliver|drop(?: off)?|hand)s? (?:you |u )?(?:the )?(?:keys?|key card|fob)\b/;
const INTERMEDIARY = /\b(?:(?:dad|mom|father|mother|uncle|aunt|cousin|friend|brother|sister) (?:handles|is handling|takes care)|my|our|her|his|the owner'?s?) (?:lawyer|attorney|agent|representative|rep|secretary|assistant|pastor)\b|\bauthori[sz]ed me\b|\b(?:lawyer|attorney|agent) (?:handles|will handle|is handling|takes care)\b/;
const SOMEONE_SHOWS = /\b(?:my|our|a|the) (?:roommates?|roomies?|friends?|brother|sister|mom|dad|parents|wife|husband|partner|son|daughter|cousin|neighbou?rs?|housemates?|suitemates?|landlord|property manager|leasing (?:office|agent)|building manager|super|(?:local|real estate|leasing) agent)\b(?:(?!\b(?:nobody|no one|noone|can'?t|cannot|won'?t)\b).){0,60}\b(?:can|will|could|is happy to|would be happy to) (?:show|let (?:you|u) in|give (?:you|u) a tour|meet|walk (?:you|u) through)\b|\bvideo (?:tour|call|walkthrough|walk-through)\b|\b(?:leasing office|property manag(?:er|ement)|the office|our office)\b.{0,60}\b(?:handles?|does|do|will do|can do|runs?) (?:the )?(?:showings?|tours?|viewings?)\b|\b(?:showings?|tours?|viewings?) (?:are|is) (?:on )?(?:saturdays?|sundays?|weekdays?|daily|every|by appointment|through the)/;

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
  /\b(?:commitment|good[ -]?faith|holding|hold|reservation|booking) (?:deposit|fee|payment|transfer)\b/,
  /\b(?:hold|reserve|secure|keep)\b.{0,60}\b(?:upfront|up front|in advance)\b/,
  /\b(?:needed|required|necessary) to (?:reserve|hold|secure|lock)\b/,
  /\bonce (?:it'?s |it is |the (?:money|payment|deposit) is )?(?:received|paid|sent|confirmed|in)\b.{0,60}\b(?:see|view|tour|visit|show|keys?|address)\b/,
];
/** The honest hold: after the viewing, at the signing, at the office. */
const HONEST_HOLD = /\b(?:after (?:you(?:'ve| have)? |i |we |u )?(?:see|seen|view|viewed|tour|toured|visit|visited|the (?:viewing|tour|showing|visit))|once you(?:'ve| have)? (?:seen|toured|viewed|signed)|when (?:we|you) sign|at (?:the )?signing|leasing office|through campusnest|on campusnest|(?:once|when|after|if) (?:you(?:'re| are)?|your application(?: is)?|the application(?: is)?|you get|you'?ve been|you have been) approved|upon approval|after approval|approved applicants?|(?:goes|go|applied|applies|credited|counts?) (?:toward|towards|to) (?:your|the) (?:security )?deposit|at the (?:viewing|showing|open house)|come prepared)\b/;

/** Letters standing for digits inside a phone number ("3l2-555-O9l4"), digit words as digits. */
const DIGIT_WORD: Record<string, string> = { zero: "0", oh: "0", o: "0", one: "1", two: "2", three: "3", four: "4", five: "5", six: "6", seven: "7", eight: "8", nine: "9" };
function digitsView(plain: string): string {
  return (
    plain
      // Only the tokens that can change: a digit word, or a token with a digit in it.
      .replace(/(?<![a-z0-9|])(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)(?![a-z0-9|])|[a-z|]*\d[a-z0-9|]*/g, (token) => {
        if (token in DIGIT_WORD) return DIGIT_WORD[token]!;
        // Inside a token with digits: digit words and letters that look like digits ("3four2one", "88O", "3l2").
        return token.replace(/zero|one|two|three|four|five|six|seven|eight|nine/g, (w) => DIGIT_WORD[w]!).replace(/[li|]/g, "1").replace(/o/g, "0");
      })
      // A lone "o" between digits is a zero ("5 5 5 - o 1 9 8").
      .replace(/(?<=\d[\s.\-–—/]{0,3})o(?=[\s.\-–—/]{0,3}\d)/g, "0")
  );
}
/** Ten or eleven digits in one run, whatever is between them. */
const PHONE_RUN = /(?<![\d$])\d(?:[\s.\-–—()/_]{0,4}\d){9,10}(?![\d])/;
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

/** The global twin of a pattern, made once (a message is read in a fraction of a millisecond: decision 033). */
const GLOBALS = new WeakMap<RegExp, RegExp>();
function globalOf(re: RegExp): RegExp {
  let global = GLOBALS.get(re);
  if (!global) GLOBALS.set(re, (global = new RegExp(re.source, "g")));
  return global;
}

/**
 * Context windows (docs/decisions/015): two cues within `span` characters of each other, in either order. The
 * stories scammers tell vary in wording more than in what they put side by side.
 */
function near(text: string, a: RegExp, b: RegExp, span = 60): boolean {
  if (!a.test(text)) return false;
  for (const m of text.matchAll(globalOf(a))) {
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
const CARRIER = /\b(?:mail(?:s|ed)?|ship(?:s|ped)?|post(?:s|ed)?|courier(?:s|ed)?|fedex|ups|dhl|usps|overnight(?:s|ed)?)\b/;
const DELIVERY = /\b(?:mail(?:s|ed)?|ship(?:s|ped)?|post(?:s|ed)?|courier(?:s|ed)?|fedex|ups|dhl|usps|deliver(?:s|ed|y)?|overnight(?:s|ed)?|sends?|sent)\b/;
/** Money asked for the place, and a hold on it. */
const PLACE_MONEY = /(?:\bput down \d+|\bdeposit\b|\bfee\b|\$\s?\d|\b\d[\d,]* ?\$|\b(?:one|1|a|first) months?'? rent\b|\bsomething\b|\bfirst month|\bhalf (?:the|of the|a) (?:rent|month)|\bpayment\b|\bmoney\b|\bfunds\b|\b\d{2,5} ?(?:dollars|usd|bucks)\b)/;
const HOLD_WORD = /\b(?:block (?:it|the room|the spot)|hold|holds|holding|reserve|reserves|reserved|reservation|secure|secures|lock(?: it| in)?|save it|keep it for|take (?:it|the listing|the ad|the post) (?:off|down)|off the market|mark (?:it|the room) as taken|it'?s yours|(?:it|the room|the place|the spot|the unit)(?:'s| is) (?:yours|all yours)|claim it|dibs|keep (?:it|the room|the place) (?:only )?for (?:you|u)|stop showing|turn (?:the )?others away|tell the others|(?:won'?t|not) show it to (?:anyone|anybody)|no one else)\b/;
const UNSEEN = /\b(?:then (?:we'?ll|i'?ll|we can|you can|u can|we will) (?:set|schedule|arrange|book|do|plan)|after that\b.{0,25}\b(?:viewing|tour|showing|visit)|(?:see|view|tour|visit|walk ?through|show (?:u|you|it))(?: it)? (?:after|later|when (?:i'?m|im|i am) back)|(?:tour|walkthrough|walk-through|showing|viewing) (?:after|later)|no (?:showing|viewing|tour)s? needed|(?:u|you) can (?:go |come )?(?:see|view|tour|visit) it|before (?:you |u |the )?(?:see|view|visit|tour|come|arrive|get here|land)|prior to|sight unseen|without (?:seeing|viewing|a (?:viewing|tour|showing))|no need to (?:see|view|visit|tour)|(?:then|after that|after) (?:you|u|we) (?:can )?(?:see|view|tour|visit|schedule|set up)|when (?:you|u) (?:get|arrive|land|come) (?:here|to|in)|once (?:it'?s |it is |i (?:get|receive|have) (?:it|the))?(?:received|paid|sent|confirmed|in))\b/;
/** Competition and a clock. */
const COMPETITION = /\b(?:(?:also|too) (?:asking|interested)|(?:is|are) also (?:asking|interested)|(?:\d+|two|three|four|five|ten) \w+ (?:people|students|applicants|guys|girls)|other (?:people|students|applicants|person|girl|guy|offer)|someone (?:else)?|somebody else|another (?:person|student|applicant|girl|guy|offer|one)|many (?:people|students)|lots of|several|(?:\d+|two|three|four|five|ten) (?:people|students|applicants|inquiries|messages|msgs|requests)|first come|first served|whoever|next (?:person|applicant|in line|one)|high demand|goes fast|going fast)\b/;
const CLOCK = /\b(?:before then|at \d{1,2}(?::\d\d)? ?(?:am|pm)?|now|today|tonight|asap|right now|right away|immediately|within (?:the )?(?:next )?\d*\s?(?:min|mins|minutes|hours?|hrs?|hour)|next (?:hour|\d+ ?(?:min|mins|minutes|hours?|hrs?))|\d+ ?(?:min|mins|minutes|hrs?|hours?)\b|(?:by|before) (?:tonight|midnight|end of (?:the )?day|eod|noon|\d{1,2} ?(?:am|pm)|tomorrow)|until (?:midnight|tonight|tomorrow)|deadline|expires?|last chance|final call|fast|quick(?:ly)?|hurry)\b/;
const TIGHT_CLOCK = /\b(?:within (?:the )?(?:next )?\d+ ?(?:min|mins|minutes|hours?|hrs?)|in (?:the next )?\d+ ?(?:min|mins|minutes|hrs?|hours?)|next hour|time sensitive)\b/;
const DEMAND = /\b(?:send|pay|paid|deposit|decide|decision|confirm|commit|lock|secure|book|reserve|money|transfer|zelle|venmo|cash ?app|wire|answer|yes or no|in or out|settle|take it|payment|respond|reply|\$\s?\d|claim|grab|snag|jump on|move (?:fast|quickly))\b/;

const sentencesOf = (text: string) => text.split(/(?<=[.!?;\n])\s+|\s+(?:but|however)\s+/).filter((s) => s.trim());
/**
 * Runs of three sentences, each starting at every other sentence, so any two neighbours share one: cues of one
 * story sit close, a long text's far corners do not (decision 033). A fragment ("Gorgeous!") joins the next
 * sentence first.
 */
function windowsOf(text: string): string[] {
  const sentences: string[] = [];
  let fragment = "";
  for (const s of sentencesOf(text)) {
    fragment = fragment ? `${fragment} ${s}` : s;
    if (fragment.length >= 40) {
      sentences.push(fragment);
      fragment = "";
    }
  }
  if (fragment) sentences.push(fragment);
  if (sentences.length <= 3) return [sentences.join(" ")];
  const windows: string[] = [];
  for (let i = 0; i + 2 < sentences.length + 1; i += 2) windows.push(sentences.slice(i, i + 3).join(" "));
  return windows;
}

/**
 * Money asked of the reader (decision 033): a demand to send or pay, a deposit needed now or to hold the
 * place, whoever pays first. A rent or a deposit stated ("deposit $500", "pets pay $25") asks for nothing.
 */
const MONEY_DEMAND = [
  /\b(?:send|sending|transfer|transferring|wire|remit|zelle|venmo|cash ?app)(?: (?:me|us))? (?:over )?(?:the |a |your |my |that |this |an |half (?:the |of the )?)?(?:\$\s?\d|\d{2,5}\b|deposit|first month|rent|money|payment|fee|funds|amount|balance|rest|it\b|something)/,
  /\bpay (?:me|us)\b/,
  /\bpay (?:the |your |a |an |my )?(?:\$\s?\d[\d,]*|deposit|security deposit|first month'?s?(?: rent)?|holding (?:deposit|fee)|reservation (?:deposit|fee)|fee|money|it)\b.{0,40}\b(?:now|today|tonight|first|asap|right away|to (?:hold|reserve|secure|lock|confirm)|before|upfront|up front|in advance|via|by|through|with|using|on|and (?:i'?ll|we'?ll))\b/,
  /\bwhoever (?:pays|sends|transfers|puts down)|\bfirst (?:one |person )?to (?:pay|send|transfer)\b/,
  /\b(?:first|next) (?:person|one|applicant|student|renter|tenant) (?:who|that|to) (?:sends?|pays?|transfers?|puts? down|completes? (?:the )?payment)\b/,
  /\b(?:complete|completes|completing|confirm|make|do|finali[sz]e|receive|get) (?:the |your |a |my )?(?:payment|transfer|deposit|wire)\b/,
  /\b(?:payment|deposit|transfer|money|first month'?s?(?: rent)?) (?:by|before|within|today|tonight|now|asap|in the next)\b/,
  /\b(?:commit|lock (?:it )?in|secure it|hold it|grab it) (?:with|by (?:sending|paying)) (?:the |a |your )?(?:deposit|payment|money|\$)/,
  /\bpay to (?:hold|reserve|secure|lock|confirm|keep)\b/,
  /\bget (?:the |your |that )?(?:money|deposit|payment|funds|rent|it) (?:over )?to (?:me|us)\b/,
  /\b\d{3,5} and (?:it'?s|its|it is|the room is) (?:yours|all yours)\b/,
  /\b(?:unless|if) (?:you|u) (?:send|pay|transfer|wire|put down)\b/,
  // Someone else's money as the lever ("another family is ready to pay in full").
  /\b(?:ready|waiting) to pay\b|\b(?:has|have|with) (?:the )?money ready\b|\b(?:will|would|can|want to) pay (?:in full|full|more|cash|today|now|the full)\b/,
  /\b(?:need|needs|want|wants|require|requires|expect|expects)(?: the| a| your| an)?(?: good[ -]?faith| small| quick| refundable)? (?:\$\s?\d[\d,]*|deposit|payment|money|funds|transfer|first month'?s?(?: rent)?|fee)\b.{0,40}\b(?:today|tonight|now|asap|within|before|first|upfront|up front|in advance|this week|to (?:hold|reserve|secure|lock))\b/,
  /\b(?:deposit|payment|money|funds|fee|\$\s?\d[\d,]*) (?:is |are )?(?:needed|required|due) (?:today|tonight|now|asap|within|in the next|before|to (?:hold|reserve|secure|lock))\b/,
];
const moneyAsked = (words: string) => any(MONEY_DEMAND, words);

// ---------------------------------------------------------------------------------------------
// The scan.

const any = (patterns: RegExp[], text: string) => patterns.some((re) => re.test(text));

function payBeforeViewing(words: string): boolean {
  for (const re of PAY_BEFORE) {
    if (!re.test(words)) continue;
    for (const m of words.matchAll(globalOf(re))) {
      const before = words.slice(Math.max(0, m.index - 30), m.index);
      if (!NEGATED_BEFORE.test(before) && !WRITER_PAYS.test(before)) return true;
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
  // Asked by the payer ("do you take Zelle?") or told after paying: nobody is asked to pay.
  if (PAYER_QUESTION.test(sentence) && !ASKS_READER.test(sentence)) return false;
  // Offered by the payer: a risk only in the overpayment buyer's story (far away, a shipper, a sponsor).
  if (WRITER_OFFERS.test(sentence) && !ASKS_READER.test(sentence)) return PAYER_STORY.test(message) || FAR_AWAY.test(message);
  const asked = any(ASK_WITH_APP, sentence);
  if (!asked && !(APP_LISTED.test(sentence) && FIRST_MONEY.test(sentence))) return false;
  // Once the lease is signed or the renter is in, an app is how honest rent is paid (decision 033).
  if (AFTER_SIGNING.test(sentence) || (AFTER_SIGNING.test(message) && !FIRST_MONEY.test(sentence.replace(AFTER_SIGNING, "")))) return false;
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

/** A contact disguised to slip past a filter: spelled out, spaced, "at gmail dot com". */
function disguisedContact(plain: string, words: string): boolean {
  if (MAIL_DOMAIN.test(plain) && SPELLED_EMAIL.test(plain) && !EMAIL.test(plain)) return true;
  return any(SPELLED_HANDLE, words) || SPELLED_PHONE.test(words);
}

/** A phone number or an email address as written. */
function contactWritten(plain: string): boolean {
  if (plain.includes("@") && (EMAIL.test(plain) || EMAIL.test(plain.replace(/(?<=\S) (?=\S)/g, "")))) return true;
  // Digit words read as digits only where ten digits could be ("five one two ..."), so a long text is read once.
  return phoneIn(plain) || ((plain.match(DIGITISH)?.length ?? 0) >= 10 && phoneIn(digitsView(plain)));
}

/** Digits, digit words and the letters that stand for digits: a gate before the digits view is built. */
const DIGITISH = /\d|zero|oh|one|two|three|four|five|six|seven|eight|nine|\b[ol|]\b|(?<=\d)[ol|]|[ol|](?=\d)/g;

/** A run of ten or eleven digits in the groups a phone number is written in. */
function phoneIn(text: string): boolean {
  for (const re of [PHONE, PHONE_RUN]) if (re.test(text)) for (const m of text.matchAll(globalOf(re))) if (isPhone(m[0])) return true;
  return false;
}

/**
 * Digits a phone number could be: in the groups numbers are written in (digits spelled one by one count as
 * one group, "seven one eight 555 ..."), not a table's columns ("3 2 2 1981 2 1700") or a licence number
 * beside others; and, as area codes and exchanges never start with 0 or 1, not a sum range or a date.
 */
function isPhone(run: string): boolean {
  const digits = run.replace(/\D/g, "");
  const groups: number[] = [];
  let single = false;
  for (const g of run.split(/\D+/).filter(Boolean)) {
    if (g.length === 1 && single) groups[groups.length - 1]!++;
    else groups.push(g.length);
    single = g.length === 1;
  }
  // A leading country code ("+1 512 ...", "1-800-...") is its own group.
  const body = digits.length === 11 && groups.length > 2 && groups[0] === 1 ? groups.slice(1) : groups;
  if (body.length === 2 ? body.some((g) => g < 3) : body.length > 2 && !body.every((g) => g >= 2 && g <= 4)) return false;
  const local = digits.length === 11 ? digits.slice(1) : digits;
  return !/^[01]/.test(local) && !/^[01]/.test(local.slice(3));
}

/**
 * Moving the talk off the platform (decision 033): a push (a messenger, a reason to leave the site, a contact
 * disguised) flags alone; a number or an address given plainly flags only when no viewing is being arranged
 * or beside another risk (`otherRisk`), as honest landlords write "call me at ... to set up a viewing".
 */
/** A viewing being arranged, not refused ("can't show it" is no plan). */
function viewingPlanned(words: string): boolean {
  for (const m of words.matchAll(globalOf(VIEWING_PLAN))) if (!CANNOT.test(words.slice(Math.max(0, m.index - 25), m.index))) return true;
  return false;
}

function movesOffPlatform(plain: string, words: string, otherRisk: boolean): boolean {
  const push = any(MOVES_OFF, words);
  // A building's or roommates' group on an app is not a private line to a stranger.
  if (push && (!GROUP_CHAT.test(words) || /\b(?:text|call|message|dm|reach|contact) me\b/.test(words))) return true;
  // A number spelled out or an address disguised is still a contact; honest posters do it to keep scrapers out.
  if (!contactWritten(plain) && !disguisedContact(plain, words) && !CONTACT_ASKED.test(words)) return false;
  return otherRisk || !viewingPlanned(words);
}

/** Paying named without a sum ("whoever pays first", "send something now"). */
const PAYS = /\b(?:pay|pays|paying|paid|send (?:it|something|me|the)|sends|transfer|remit|put (?:something|money) down)\b/;

/** The keys handed over without anyone meeting you: a place rented unseen (decision 015). */
const keysWithoutViewing = (words: string) => KEYS_DELIVERED.test(words) || near(words, KEYS, DELIVERY, 40) || near(words, KEYS, CARRIER, 40);

// ---------------------------------------------------------------------------------------------
// Deals (docs/decisions/030): the held first month, and the later months paid between the parties.

/**
 * The renter's move-in confirmation, which releases the held rent to the lister: the button ("I have the
 * keys") or confirming the move-in in other words.
 */
const KEYS_BUTTON = /\bi (?:have|'ve got|got) the keys\b|\b(?:confirm|mark|report)(?:ing|ed)? (?:(?:the|your|that) )?(?:(?:you|u)(?:'ve| have)? )?(?:move[ -]?in|moved in|got the keys|have the keys|arrived|arrival)\b|\bmove[ -]?in confirmation\b|\b(?:keys|move[ -]?in) button\b/;
/** Asked of the reader. */
const KEYS_ASK = /\b(?:tap|press|click|hit|push|select|confirm|mark|please|pls|plz|can (?:you|u)|could (?:you|u)|need (?:you|u) to|go ahead|make sure)\b/;
/** Early, or for the money: what makes the ask the scam (decision 030). */
const KEYS_EARLY = /\b(?:now|today|tonight|right away|asap|early|already|ahead of time|in advance|before (?:(?:you|u) (?:arrive|get|come|move|see|land|fly)|(?:the )?move[ -]?in|(?:the )?(?:1st|first)|then)|so (?:that )?(?:i|we) (?:can )?(?:get|receive|see) (?:paid|the money|my money|the rent|the payment|it)|(?:the )?(?:money|payment|funds|rent) (?:is |gets |will be )?(?:released|release|sent|comes|come through)|release (?:the|my|your) (?:money|payment|funds|rent))\b/;
/** The honest instruction: only once the renter is in. */
const KEYS_HONEST = /\b(?:once|when|after) (?:(?:you|u|i|we)(?:'re| are|'m| am|'ve| have)? )?(?:in|inside|in the (?:room|place|apartment|unit)|get (?:in|inside|the keys|there)|got the keys|have the keys|moved in|move in|arrive|arrived|check in|checked in)\b|\bonly (?:once|when|after)\b/;
/** "Don't report a problem": a scammer's aside, not someone warning about a scam. */
const NO_REPORT = /\b(?:don'?t|do not|no need to|never|without) report(?:ing)?\b/;

function earlyMoveIn(sentence: string): boolean {
  if (!KEYS_BUTTON.test(sentence) || !KEYS_ASK.test(sentence)) return false;
  if (KEYS_HONEST.test(sentence) && !/\b(?:now|today|early|already|before)\b/.test(sentence)) return false;
  return KEYS_EARLY.test(sentence);
}

/** Rent of a month after the first (February's rent, rent for next month), with no first-payment word. */
const LATER_MONTHS = /\b(?:(?:january|february|march|april|may|june|july|august|september|october|november|december|next month|this month|second month|2nd month|third month|3rd month|last month|remaining months?|later months?|monthly|each month|every month)'?s? rent|rent (?:for|of|in|on) (?:january|february|march|april|may|june|july|august|september|october|november|december|next month|this month|the (?:second|2nd|third|3rd|next|last|remaining|other) months?)|rent (?:is|will be) due|rent due)\b/;
/** A first payment, a deposit or a hold: the money a paid deal's first month replaced, or never has a place. */
const FIRST_PAYMENT = /\b(?:deposit|first month|1st month|hold|holding|reserve|application fee|fee|key money|before (?:you |u )?(?:move|see|view|arrive))\b/;
/** Ways of paying no honest rent needs, even between the parties. */
const NEVER_FOR_RENT = /\b(?:gift ?cards?|western ?union|money ?grams?|bitcoin|btc|crypto\w*|ethereum|usdt|usdc|tether|overpa\w*|refund the difference)\b/;

/** A later month's rent, paid between the parties as a paid deal's agreement says (decision 030). */
const laterMonthsRent = (text: string) => LATER_MONTHS.test(text) && !FIRST_PAYMENT.test(text) && !NEVER_FOR_RENT.test(text);

/** Whether the context can change what the shield finds in `text` (so a caller reads the context only then). */
export const mentionsLaterMonths = (text: string) => LATER_MONTHS.test(shieldWords(text));

/**
 * What the conversation tells the shield (docs/decisions/030): `firstMonthPaid`, the pair has a deal whose
 * first month was paid through CampusNest, so talk of later months' rent by a payment app is how the
 * agreement says they are paid, not money asked off the platform.
 */
export interface ShieldContext {
  firstMonthPaid?: boolean;
}

/** Every identity pattern names one of these. */
const ID_GATE = new RegExp(`\\b${ID_ITEM}\\b|selfie|log ?(?:in|into|on)|video call|facetime|screen ?share|(?:credit|background) check`);

function identityRequest(sentence: string, message: string): boolean {
  return any(ID_SECRET_REQUEST, sentence) || (any(ID_DOC_REQUEST, sentence) && !ID_IN_PERSON.test(message));
}


/**
 * The fraud patterns a message matches, in SCAM_REASONS order; empty for a clean message. Total:
 * any string in, never throws. The rules decide first; what they leave clean, the scored model
 * (scam-model.ts) may flag, never over a refusal or a warning about someone else.
 */
export function scanMessage(text: string, context: ShieldContext = {}): ScamReason[] {
  return scanForStorage(text, context).filter((f): f is ScamReason => f !== SCORED_FLAG);
}

/**
 * What messaging stores: the reasons, and the scored marker when the model, not a rule, found them.
 * The model flags only a message that carries a concrete risk (`concreteRisk`): it may rank and
 * explain, never flag an inquiry, a greeting or small talk on its style alone (docs/decisions/015).
 */
export function scanForStorage(text: string, context: ShieldContext = {}): StoredFlag[] {
  const { reasons, scored } = shieldVerdict(text, context);
  if (reasons.length > 0 || !scored || scored.score < modelThreshold()) return reasons;
  return [scored.reason, SCORED_FLAG];
}

/**
 * The rules' reasons, and, when they found none and the message neither refuses nor warns, the model's best
 * score among the message's windows (three sentences each) that carry a concrete risk, with its reason
 * (decision 033): a long text is scored where its risk is, as the model learned on messages of chat length.
 * The bench reads the score to tune the threshold; `scanForStorage` compares it with the trained one.
 */
export function shieldVerdict(text: string, context: ShieldContext = {}): { reasons: ScamReason[]; scored: { score: number; reason: ScamReason } | null } {
  const { reasons, words, cleared } = readRules(text, context);
  if (reasons.length > 0 || cleared || !words) return { reasons, scored: null };
  // A paid deal's later month: no money cue for the model either.
  if (context.firstMonthPaid && laterMonthsRent(words)) return { reasons, scored: null };
  if (!concreteRisk(normalize(text), words)) return { reasons, scored: null };
  let best: { score: number; reason: ScamReason } | null = null;
  const windows = windowsOf(words);
  for (const window of windows) {
    // The words view keeps numbers, addresses and links, so a window is its own evidence.
    if (windows.length > 1 && !concreteRisk(window, window)) continue;
    const scored = scoreWords(window, undefined, shieldCues(window));
    if (!best || scored.score > best.score) best = scored;
  }
  return { reasons, scored: best };
}

// ---------------------------------------------------------------------------------------------
// A concrete risk (docs/decisions/015): what a flag must be able to point at.

/** A way to pay that CampusNest does not handle: apps, wire, cards, crypto, cheques. */
const PAY_INSTRUMENT = new RegExp(`${PAYMENT_APP_RE.source}|\\b(?:wire|wired|western union|money ?gram|money ?order|gift ?cards?|cheque|cashier'?s? check|(?:a|the) check (?:for|of)|bank (?:account|details|transfer)|account (?:number|details))\\b`);
/** Money for the place: a deposit, rent, a fee, a sum. */
const MONEY_THING = /(?:\bdeposit\b|\brent\b|\bfee\b|\bpayment\b|\bmoney\b|\bfunds\b|\bsecurity amount\b|\bfirst month|\$\s?\d|\b\d[\d,]* ?\$|\b\d[\d,]* ?(?:dollars|usd|bucks)\b|\b\d{3,5}\b.{0,12}\b(?:it'?s yours|to (?:hold|reserve|secure|lock)))/;
/** Money moving: a verb of paying, holding or returning (near a sum, or with a way to pay). */
const MONEY_VERB = /\b(?:need|needs|want|wants|whoever|wins|holds|send|sending|sent|remit|pay|pays|paying|paid|transfer|transferring|wire|reserve|reserved|secure|hold|lock|upfront|up front|in advance|refund|reimburse|difference|put down|charge|after (?:payment|that)|once (?:paid|received))\b/;
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
  if (/\b(?:send|pay|transfer|wire|remit) (?:me )?\d{2,5}\b/.test(words)) return true;
  if (moneyAsked(words)) return true;
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
  if (near(words, ID_ASK_RE, ID_ITEM_RE, 70) || CARD_PHOTO.test(words)) return true;
  if (SPELLED_LINK.test(words) || [...linkView(plain).matchAll(DOMAIN)].some((m) => !TRUSTED_DOMAINS.has(registrable(m[1]!.replace(/^www\./, ""))) && plain[m.index - 1] !== "@")) return true;
  // Contact details where a viewing is being arranged are how honest people meet (decision 033): no hook.
  if (disguisedContact(plain, words) || any(MOVES_OFF, words)) return true;
  return (CONTACT.test(words) || contactWritten(plain)) && !viewingPlanned(words);
}

/**
 * The rules' cues in a stretch of text, as features of the model (decision 033): what the rules read (money asked,
 * an app named, contact details, a viewing planned, the owner away...) generalises across wordings and genres
 * better than the words that carry it, so the model learns how the cues combine where no rule decided.
 */
export function shieldCues(words: string): string[] {
  const cues: [string, boolean][] = [
    ["money_asked", moneyAsked(words)],
    ["money_moving", moneyMoving(words)],
    ["pay_instrument", PAY_INSTRUMENT.test(words)],
    ["payment_app", PAYMENT_APP_RE.test(words)],
    ["first_money", FIRST_MONEY.test(words)],
    ["after_signing", AFTER_SIGNING.test(words)],
    ["writer_pays", WRITER_OFFERS.test(words)],
    ["contact", contactWritten(words) || disguisedContact(words, words) || CONTACT.test(words)],
    ["contact_push", any(MOVES_OFF, words)],
    ["viewing_planned", viewingPlanned(words)],
    ["away", FAR_AWAY.test(words)],
    ["no_viewing", NO_VIEWING.test(words) || near(words, CANNOT, SEE_IN_PERSON, 40)],
    ["someone_shows", SOMEONE_SHOWS.test(words)],
    ["keys_delivered", keysWithoutViewing(words)],
    ["link", [...linkView(words).matchAll(DOMAIN)].some((m) => !TRUSTED_DOMAINS.has(registrable(m[1]!.replace(/^www\./, ""))) && words[m.index - 1] !== "@")],
    ["id_item", ID_ITEM_RE.test(words)],
    ["urgency", URGENCY.test(words) || TIGHT_CLOCK.test(words)],
    ["competition", COMPETITION.test(words)],
    ["hold", HOLD_WORD.test(words)],
    ["unseen", UNSEEN.test(words)],
    ["budget", BUDGET.test(words)],
    ["question", words.includes("?")],
  ];
  return cues.filter(([, on]) => on).map(([name]) => `@${name}`);
}

/** The rules' reasons alone, without the model (tests and the bench compare the two). */
export const ruleReasons = (text: string, context: ShieldContext = {}): ScamReason[] => readRules(text, context).reasons;

/**
 * The rules. Each sentence is read in its context (docs/decisions/015): a refusal ("I won't Zelle before I see
 * it") or a warning about someone else clears the money and contact patterns of that sentence;
 * splitting bills clears a payment app; a group chat clears a messenger. `cleared`: the message
 * refuses or warns, so the model is not asked.
 */
function readRules(text: string, context: ShieldContext = {}): { reasons: ScamReason[]; words: string; cleared: boolean } {
  const plain = normalize(text);
  if (!plain) return { reasons: [], words: "", cleared: false };
  const words = wordsView(plain);
  const narrated = NARRATION.test(words);
  const warning = (WARNING.test(words) && (narrated || REFUSAL.test(words))) || (narrated && REFUSAL.test(words));
  const found = new Set<ScamReason>();
  if (suspiciousLink(plain) && !(warning && narrated)) found.add("suspicious_link");
  // A paid deal's later months are paid between the parties (decision 030): not a first payment asked off the platform.
  const laterRent = (t: string) => !!context.firstMonthPaid && laterMonthsRent(t);
  const keysWarning = warning && !NO_REPORT.test(words);
  // Cheap gates on the whole message first: most messages name no document and no move-in button.
  const idGate = ID_GATE.test(words);
  const keysGate = !keysWarning && KEYS_BUTTON.test(words);
  for (const sentence of sentencesOf(words)) {
    if (idGate && identityRequest(sentence, words) && !REFUSAL.test(sentence) && !(warning && NARRATION.test(words))) found.add("identity_request");
    if (keysGate && !REFUSAL.test(sentence) && earlyMoveIn(sentence)) found.add("early_move_in");
    if (warning || REFUSAL.test(sentence)) continue;
    if (offPlatformPayment(sentence, words) && !laterRent(sentence)) found.add("off_platform_payment");
    if ((payBeforeViewing(sentence) || holdBeforeViewing(sentence)) && !laterRent(sentence)) found.add("pay_before_viewing");
  }
  // A hold and the viewing put off can sit in two sentences ("put down a month first? then I show you"),
  // not in a long text's far corners (decision 033).
  const windows = windowsOf(words);
  const heldUnseen = (w: string) => near(w, PLACE_MONEY, HOLD_WORD, 80) && UNSEEN.test(w) && !HONEST_HOLD.test(w);
  if (!warning && !REFUSAL.test(words) && windows.some(heldUnseen)) found.add("pay_before_viewing");
  if (!warning) {
    // Pressure is a risk only with money asked in the same breath (decision 033): "hurry, won't last" in an
    // ad that states a deposit, or "decide by tonight" alone, asks for nothing.
    if (windows.some((w) => moneyAsked(w) && urgency(w)) && !laterRent(words)) found.add("pay_before_viewing");
    // The owner-away story is a risk only with money in it or the keys delivered (decision 015).
    const money = MONEY_THING.test(words) || PAY_INSTRUMENT.test(words) || PAYS.test(words);
    if ((money || keysWithoutViewing(words)) && ownerUnavailable(words)) found.add("owner_unavailable");
    const awayStory = FAR_AWAY.test(words) && (NO_VIEWING.test(words) || near(words, CANNOT, SEE_IN_PERSON, 40)) && !SOMEONE_SHOWS.test(words);
    const otherRisk = found.size > 0 || awayStory || moneyAsked(words);
    if (!REFUSAL.test(words) && movesOffPlatform(plain, words, otherRisk)) found.add("moves_off_platform");
  }
  return { reasons: SCAM_REASONS.filter((r) => found.has(r)), words, cleared: warning || REFUSAL.test(words) };
}

/** The text the rules and the model read: normalized, spaced letters joined (for the model's trainer). */
export const shieldWords = (text: string): string => wordsView(normalize(text));
