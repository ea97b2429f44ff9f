const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** An opaque, unguessable id (21 characters of base62, ~125 bits of randomness). */
export function newId(size = 21): string {
  const bytes = crypto.getRandomValues(new Uint8Array(size * 2));
  let id = "";
  // Rejection sampling keeps every character equally likely (62 does not divide 256).
  for (const byte of bytes) {
    if (byte < 248) id += ALPHABET[byte % 62];
    if (id.length === size) return id;
  }
  return id + newId(size - id.length);
}

/**
 * Could this be one of our ids? `newId()` makes 21 characters of base62; shorter ones, `-` and `_`
 * are let through (tests and fixtures name rows "l1" or "msg-l1"; a lookup of such an id simply finds
 * nothing in production). Anything longer, or with another character (NUL, %, spaces, non-ASCII), is not.
 */
export const isIdLike = (value: string) => /^[0-9A-Za-z_-]{1,21}$/.test(value);
