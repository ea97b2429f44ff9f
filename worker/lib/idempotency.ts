/**
 * The `Idempotency-Key` header (api-contract "Retries"): a write a client may repeat after a dropped
 * connection (a message, a checkout session) carries one opaque key per intended write. Each write
 * stores the key on the row it creates, under a unique index (user, key), so two deliveries at once
 * still make one row; the second answers the first's result. Keys are kept 24 hours.
 */
import type { Context } from "hono";
import { badRequest } from "./errors";

export const IDEMPOTENCY_KEY_MAX = 200;
export const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;

/** The request's key (null when absent); 400 when it is empty after trimming or too long. */
export function idempotencyKeyOf(c: Context): string | null {
  const raw = c.req.header("idempotency-key");
  if (raw === undefined) return null;
  const key = raw.trim();
  if (!key || key.length > IDEMPOTENCY_KEY_MAX) {
    throw badRequest(`Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} characters`);
  }
  return key;
}
