import { ApiError, errorMessage } from "../../../lib/api-client";

/** "10 seconds", "1 second", "3 minutes": a throttle's real wait, as the server's retry_after gives it. */
export function waitText(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 90) return `${s} ${s === 1 ? "second" : "seconds"}`;
  const m = Math.ceil(s / 60);
  return `${m} ${m === 1 ? "minute" : "minutes"}`;
}

/**
 * The message for an auth request's error: a throttled one (429) says the real
 * wait ("Too many attempts. Try again in 10 seconds.") rather than the server's general wording.
 */
export function authErrorMessage(err: unknown, fallback?: string): string {
  const retryAfter = err instanceof ApiError && err.status === 429 ? err.body?.retry_after : undefined;
  if (typeof retryAfter === "number" && retryAfter > 0) return `Too many attempts. Try again in ${waitText(retryAfter)}.`;
  return errorMessage(err, fallback);
}
