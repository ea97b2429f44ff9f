/**
 * The listing photos' body, `{"images":[{...},{...}]}`, read from its stream one entry at a time: a
 * request holds one image (at most ~14 MB of base64) in memory, never the whole body (up to ~141 MB
 * for 10 images of 10 MB, more than a 128 MB isolate has).
 *
 * The bytes are scanned for JSON's structure only (strings and their escapes, brackets, the top-level
 * keys); each element of the top-level "images" array is cut out and parsed with JSON.parse as soon as
 * it ends. The rest of the body, the "skeleton" with each element replaced by `0`, is kept (at most
 * 64 KB) and parsed at the end, so the body as a whole must still be JSON.
 */
import { apiError, badRequest } from "../../lib/errors";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

const SKELETON_MAX = 64 * 1024;
/** Deeper nesting than any image entry needs: refused before a body of brackets fills memory. */
const DEPTH_MAX = 32;
const KEY_MAX = 64;
export const INVALID_JSON = "Request body must be valid JSON";

const concat = (parts: Uint8Array[], length: number) => {
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

function parseJsonBytes(parts: Uint8Array[], length: number): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(concat(parts, length)));
  } catch {
    throw badRequest(INVALID_JSON);
  }
}

/**
 * Yields each element of the body's top-level `images` array, parsed, in order; returns the rest of
 * the body parsed (each element a `0`). An element longer than `maxEntryBytes` is refused (413) as
 * soon as it passes that length; malformed JSON is 400.
 */
export async function* streamImageEntries(body: ReadableStream<Uint8Array>, maxEntryBytes: number, tooLargeDetail: string): AsyncGenerator<unknown, unknown> {
  const reader = body.getReader();
  const stack: number[] = [];
  let inString = false;
  let escaped = false;
  // Top-level keys: which one a value belongs to.
  let expectKey = false;
  let keyBytes: number[] | null = null;
  let lastKey = "";
  let inImages = false;
  // The element being cut out of `images`.
  let capturing = false;
  let entryParts: Uint8Array[] = [];
  let entryLength = 0;
  const skeleton: Uint8Array[] = [];
  let skeletonLength = 0;
  const keep = (part: Uint8Array) => {
    if (!part.length) return;
    skeletonLength += part.length;
    if (skeletonLength > SKELETON_MAX) throw apiError(413, { detail: "The request is too large: only images may be long." });
    skeleton.push(part.slice());
  };
  const captured = (part: Uint8Array) => {
    if (!part.length) return;
    entryLength += part.length;
    if (entryLength > maxEntryBytes) throw apiError(413, { detail: tooLargeDetail });
    entryParts.push(part);
  };

  try {
    for (;;) {
      const { done, value: chunk } = await reader.read();
      if (done) break;
      let segmentStart = 0;
      let nextQuote = -1;
      let nextBackslash = -1;
      for (let i = 0; i < chunk.length; i++) {
        if (inString) {
          if (escaped) {
            escaped = false;
            if (keyBytes && keyBytes.length < KEY_MAX) keyBytes.push(chunk[i]!);
            continue;
          }
          // Long strings (the base64) are skipped natively to their next quote or backslash.
          // Infinity: none left in this chunk (searched once, so a run of escapes stays linear).
          if (nextQuote !== Infinity && nextQuote < i) nextQuote = chunk.indexOf(QUOTE, i);
          if (nextQuote === -1) nextQuote = Infinity;
          if (nextBackslash !== Infinity && nextBackslash < i) nextBackslash = chunk.indexOf(BACKSLASH, i);
          if (nextBackslash === -1) nextBackslash = Infinity;
          const stop = Math.min(nextQuote, nextBackslash);
          if (stop === Infinity) {
            if (keyBytes) for (let k = i; k < chunk.length && keyBytes.length < KEY_MAX; k++) keyBytes.push(chunk[k]!);
            i = chunk.length;
            break;
          }
          if (keyBytes) for (let k = i; k < stop && keyBytes.length < KEY_MAX; k++) keyBytes.push(chunk[k]!);
          i = stop;
          if (chunk[i] === BACKSLASH) {
            escaped = true;
            if (keyBytes && keyBytes.length < KEY_MAX) keyBytes.push(BACKSLASH);
          } else {
            inString = false;
            if (keyBytes) {
              try {
                lastKey = JSON.parse(`"${new TextDecoder().decode(new Uint8Array(keyBytes))}"`) as string;
              } catch {
                lastKey = "";
              }
              keyBytes = null;
            }
          }
          continue;
        }
        const byte = chunk[i]!;
        if (isSpace(byte)) continue;
        // A new element of `images` starts here.
        if (inImages && stack.length === 2 && !capturing && byte !== COMMA && byte !== CLOSE_ARRAY) {
          keep(chunk.subarray(segmentStart, i));
          segmentStart = i;
          capturing = true;
          entryParts = [];
          entryLength = 0;
        }
        // An element of `images` ends at the comma or bracket after it.
        if (capturing && stack.length === 2 && (byte === COMMA || byte === CLOSE_ARRAY)) {
          captured(chunk.subarray(segmentStart, i));
          segmentStart = i;
          capturing = false;
          keep(new TextEncoder().encode("0"));
          const entry = parseJsonBytes(entryParts, entryLength);
          entryParts = [];
          entryLength = 0;
          yield entry;
        }
        switch (byte) {
          case QUOTE:
            inString = true;
            keyBytes = stack.length === 1 && stack[0] === OPEN_OBJECT && expectKey ? [] : null;
            break;
          case OPEN_OBJECT:
          case OPEN_ARRAY:
            if (byte === OPEN_ARRAY && stack.length === 1 && stack[0] === OPEN_OBJECT && !expectKey && lastKey === "images") inImages = true;
            stack.push(byte);
            if (stack.length > DEPTH_MAX) throw badRequest(INVALID_JSON);
            if (stack.length === 1 && byte === OPEN_OBJECT) expectKey = true;
            break;
          case CLOSE_OBJECT:
          case CLOSE_ARRAY:
            if (stack.pop() !== (byte === CLOSE_OBJECT ? OPEN_OBJECT : OPEN_ARRAY)) throw badRequest(INVALID_JSON);
            if (inImages && stack.length === 1) inImages = false;
            break;
          case COLON:
            if (stack.length === 1) expectKey = false;
            break;
          case COMMA:
            if (stack.length === 1) expectKey = true;
            break;
        }
      }
      if (capturing) captured(chunk.subarray(segmentStart));
      else keep(chunk.subarray(segmentStart));
    }
  } finally {
    // Refused or abandoned half way: the rest is the caller's (middleware/body-limit.ts reads it to
    // its end or cuts it off; decision 025).
    reader.releaseLock();
  }
  if (capturing || inString || stack.length) throw badRequest(INVALID_JSON);
  return parseJsonBytes(skeleton, skeletonLength);
}
