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
