/**
 * A listing's address as the public sees it (docs/decisions/024): the street and area without the
 * house number, the unit or a PO box, so the words match the map's ~200 m circle. The owner, staff and
 * the renter of a deal the lister accepted read the address as entered; everyone else this form. The
 * worker stores it beside the address on every save (`listings.address_public`) and search indexes
 * only it, so a search cannot confirm a house number.
 *
 * Written for US-style addresses ("177 Bleecker St, Apt 4B, New York, NY 10003"): comma-separated
 * parts, the house number leading the street part, secondary unit designators (USPS Publication 28)
 * anywhere. A part it does not recognise stays as it is: an address without a number is already public.
 */

/** The listing page's words under the public address, for everyone but the owner and staff. */
export const PUBLIC_ADDRESS_NOTE = "Street and area only: the lister shares the exact address with the renter once they accept a request.";
/** The create and edit forms' words before publishing, and the owner's listing page. */
export const OWNER_ADDRESS_NOTE = "Only you and our team see the full address. Everyone else sees the street and area, without the house number or unit, until you accept a request.";

/** What the development geocoder appends to its made-up addresses (services/geo.ts): kept at the end. */
export const DEVELOPMENT_ADDRESS_MARKER = "(development address)";

/** A unit's identifier: "4B", "12", "B", "12-C", "C-3", "3rd" (never a word, so "Unit Rd" is a street). */
const UNIT_ID = String.raw`(?:[a-z]?\d+[a-z]?(?:-[a-z0-9]+)?|[a-z](?:-\d+)?|\d+(?:st|nd|rd|th))`;

/**
 * Unit designators followed by an identifier: "Apt 4B", "Apt. #4B", "Unit 3", "Suite 200", "Ste B",
 * "Rm 101", "Bldg 2", "Lot 5", "Spc 9", "Trlr 4", "Dept 3", "PH 2", "Apt4B"; a letter right after the
 * designator is a word ("Unity Rd"), not a unit. Floors only with 1-3 characters,
 * so that "FL 32601" (Florida and its ZIP code) stays.
 */
const DESIGNATED_UNIT = new RegExp(
  String.raw`(?:^|[\s,])(?:(?:apartment|apt|unit|suite|ste|room|rm|building|bldg|lot|space|spc|trailer|trlr|dept|penthouse|ph)(?:\.?\s*#\s*|(?:\.?\s+|\.)(?:no\.?\s*)?|(?=\d))${UNIT_ID}|(?:floor|fl)\.?\s*#?\s*(?:\d{1,3}[a-z]?|\d{1,2}(?:st|nd|rd|th)))(?=$|[\s,])`,
  "gi",
);
/** "#5", "# 12B" on their own. */
const HASH_UNIT = new RegExp(String.raw`(?:^|\s)#\s*${UNIT_ID}(?=$|[\s,])`, "gi");
/** "3rd Floor", "2nd Fl". */
const ORDINAL_FLOOR = /(?:^|\s)\d{1,3}(?:st|nd|rd|th)\s+(?:floor|fl)\.?(?=$|[\s,])/gi;
/** Designators that need no identifier, when they are a whole part ("…, Rear, …"). */
const BARE_UNIT = /^(?:basement|bsmt|rear|front|frnt|upper|uppr|lower|lowr|penthouse|ph|lobby|lbby)\.?$/i;
/** A PO box and its number: "PO Box 12", "P.O. Box 12", "POB 12", "Post Office Box 12" (not "Box Elder St"). */
const PO_BOX = /(?:^|\s)(?:p\.?\s*o\.?\s*box|post\s+office\s+box|pob)\s*#?\s*\d[a-z0-9-]*(?=$|[\s,])/gi;
/**
 * A leading house number: "123", "123A", "12-14", "37-12", "123 1/2", "123½", "1/2", "N123" is left
 * (grid addresses are rare and ambiguous). Only before a word, so "42nd St" and "5th Ave" stay.
 */
const HOUSE_NUMBER = /^(?:\d+[a-z]?(?:\s*[-–]\s*\d+[a-z]?)?(?:\s+\d\/\d|\s*½)?|\d\/\d)\s+(?=[^\s\d,]|\d+(?:st|nd|rd|th)\b)/i;
/**
 * A part that is only a number: a house number before the street ("123, Main St"; OpenStreetMap's
 * "Name, 157, Gale Lemerand Drive") or a unit after it ("Main St, 4B"), dropped; a ZIP code after the
 * street ("…, Florida, 32611, United States") is the area and stays.
 */
const NUMBER_ONLY = /^(?:#\s*)?\d+[a-z]?(?:\s*[-–/]\s*\d+[a-z]?)?$/i;
const ZIP_CODE = /^\d{5}(?:-\d{4})?$/;

const tidy = (s: string) =>
  s
    .replace(/\s+/g, " ")
    .replace(/^[\s,;:-]+|[\s,;:-]+$/g, "")
    .trim();

/** One comma-separated part without its units and PO box; a leading house number too when `street`. */
function publicPart(part: string, street: boolean): string {
  let p = part.replace(PO_BOX, " ").replace(ORDINAL_FLOOR, " ").replace(DESIGNATED_UNIT, " ").replace(HASH_UNIT, " ");
  p = tidy(p);
  if (BARE_UNIT.test(p)) return "";
  if (street) p = tidy(p.replace(HOUSE_NUMBER, ""));
  return p;
}

/**
 * The public form of an address: the street and area, without house number, unit or PO box.
 * `"177 Bleecker St, Apt 4B, New York, NY 10003"` -> `"Bleecker St, New York, NY 10003"`. Idempotent
 * (the public form of a public form is itself). Empty when nothing public is left (an address that was
 * only a number or a box): say nothing rather than the number.
 */
export function publicAddress(address: string): string {
  let text = address.replace(/\s+/g, " ").trim();
  const marked = text.toLowerCase().endsWith(DEVELOPMENT_ADDRESS_MARKER);
  if (marked) text = text.slice(0, -DEVELOPMENT_ADDRESS_MARKER.length);
  const parts: string[] = [];
  for (const raw of text.split(",")) {
    const before = tidy(raw);
    if (!before) continue;
    // Until the street is found, a part may still lead with the house number ("Apt 4, 12 Main St").
    const streetNotYet = !parts.some((p) => /[a-z]/i.test(p));
    if (NUMBER_ONLY.test(before) && (streetNotYet || !ZIP_CODE.test(before))) continue;
    const part = publicPart(before, streetNotYet);
    if (part) parts.push(part);
  }
  const result = parts.join(", ");
  return marked && result ? `${result} ${DEVELOPMENT_ADDRESS_MARKER}` : result;
}
