/**
 * zod for every schema of the contract, configured once: no `new Function` fast path. Our CSP forbids
 * eval, and zod's probe for it, though caught, is reported by browsers as a CSP violation (Lighthouse
 * counts it); Workers forbid eval too.
 */
import { z } from "zod";

z.config({ jitless: true });

export { z };

/**
 * Characters that draw nothing: format characters (zero-width space, BIDI embeddings, overrides and
 * isolates, soft hyphen, word joiner, BOM, tags) and the other default-ignorable code points (Hangul
 * fillers, variation selectors, the combining grapheme joiner, ...), plus the blank Braille pattern.
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/u;
/**
 * Of those, the ones real text needs and keeps: zero-width (non-)joiners build emoji sequences and
 * shape Persian and Indic words; variation selectors pick an emoji's presentation. They still count
 * as nothing when checking that a field is filled in.
 */
const KEPT_INVISIBLE = "\\u200c\\u200d\\ufe00-\\ufe0f\\u{e0100}-\\u{e01ef}";
// Control characters (Cc), spelled out: the `v` flag's set difference is too new for some browsers.
/* eslint-disable no-control-regex, no-misleading-character-class -- matching control characters and
   lone joiners is the point here */
const CONTROL_BUT_LINE_BREAKS = /[\0-\x08\x0b-\x1f\x7f-\x9f]/g;
const CONTROL = /[\0-\x1f\x7f-\x9f]/g;
const DROPPED_INVISIBLE = new RegExp(`(?![${KEPT_INVISIBLE}])${INVISIBLE.source}`, "gu");
const EDGES = new RegExp(`^[\\s${KEPT_INVISIBLE}]+|[\\s${KEPT_INVISIBLE}]+$`, "gu");
/* eslint-enable no-control-regex, no-misleading-character-class */

/**
 * What a person typed, cleaned the same way everywhere (worker and SPA forms alike):
 * - control characters are removed, not refused (pasted text carries them by accident; a refusal would
 *   name a character nobody can see). Multi-line text keeps newlines (CR LF and CR become LF) and tabs;
 *   single-line text turns them into spaces;
 * - invisible format characters (zero-width spaces, BIDI controls, ...) are removed, except the joiners
 *   and variation selectors that emoji and some scripts need;
 * - then whitespace (and any kept joiner) is trimmed from both ends.
 * So "\0\0\0\0", "\u200b\u200b" or "\u202e \u2066" clean to "" and `.min(1, "Title is required")` answers
 * the product's own message, and lengths count what is stored.
 */
export function cleanText(value: string, multiline = false): string {
  const controlsHandled = multiline
    ? value.replace(/\r\n?/g, "\n").replace(CONTROL_BUT_LINE_BREAKS, "")
    : value.replace(/[\r\n\t]+/g, " ").replace(CONTROL, "");
  return controlsHandled.replace(DROPPED_INVISIBLE, "").replace(EDGES, "");
}

/**
 * A text field someone types (titles, descriptions, addresses, names, messages, reasons, ...): a zod
 * string that cleans with `cleanText` first, so `.min()`/`.max()` chained after it see visible text.
 * Use it in place of `z.string().trim()`.
 */
export function visibleText(options: { multiline?: boolean; error?: string } = {}) {
  return z.string(options.error).overwrite((value) => cleanText(value, options.multiline));
}
