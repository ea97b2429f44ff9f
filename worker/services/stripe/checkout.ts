/**
 * The Stripe Checkout core every paid feature shares (promotions' weekly plan, a deal's first month;
 * decisions 013, 029, 035): the same constants and the same steps. A repeated Idempotency-Key answers its
 * first session (another subject's key is 409); the subject is read and refused when it cannot be paid;
 * a session that can still be paid is answered again (two tabs, Back, a double click); a user starts at
 * most CHECKOUT_SESSIONS_PER_MINUTE new sessions a minute (each is a call to Stripe); the new session is
 * made at Stripe (or, in development without keys, the built-in test checkout) and written under the
 * subject's version, so two requests at once make one session and the loser's Stripe session is expired.
 * Each feature says what its subject is (CheckoutSubject); nothing else differs.
 */
import type { StripeConfig } from "../../env";
import { apiError, conflict, isUniqueViolation, tooManyRequests } from "../../lib/errors";
import { IDEMPOTENCY_WINDOW_MS } from "../../lib/idempotency";
import { newId } from "../../lib/ids";
import { log } from "../../lib/log";
import { isoNow } from "../../lib/time";
import { expireStripeCheckoutSession } from "./client";
import { MAX_ATTEMPTS } from "./once";

/** A session can be paid for an hour (Stripe accepts 30 minutes to 24 hours). */
export const CHECKOUT_SESSION_MS = 3_600_000;
/** An open session is answered again only if the payer still has this long to pay. */
export const CHECKOUT_REUSE_MARGIN_MS = 10 * 60_000;
/** New checkout sessions a user may start a minute. */
export const CHECKOUT_SESSIONS_PER_MINUTE = 10;

export interface CheckoutAnswer {
  checkout_url: string;
  session_id: string;
}

export interface StoredSession {
  id: string;
  url: string | null;
  kind: string;
}

export interface NewSession {
  id: string;
  url: string;
  kind: "stripe" | "test";
}

/** What a feature's checkout is about (a listing's promotion, a deal's first month). */
export interface CheckoutSubject {
  /** The session a repeated Idempotency-Key started, and whether it was for this subject. */
  byKey(key: string, sinceIso: string): Promise<{ session: StoredSession; sameSubject: boolean } | null>;
  forgetStaleKey(key: string, beforeIso: string): Promise<unknown>;
  /** Reads the subject: throws (409) when it cannot be paid now; answers the version the session is written under. */
  read(): Promise<{ version: number }>;
  /** A session that can still be paid until `usableUntilIso`. */
  open(usableUntilIso: string): Promise<StoredSession | null>;
  /** Sessions the user started since then (the per-minute cap); absent where the subject bounds them itself. */
  startedSince?(sinceIso: string): Promise<{ n: number; oldest: string | null } | null>;
  /** Makes the session at Stripe (its parameters are the feature's); `idempotencyKey` names this subject, version and minute. */
  createAtStripe(expiresAtSeconds: number, idempotencyKey: string | null): Promise<{ id: string; url: string }>;
  /** Stripe's idempotency key for the session of `version` in `minute`, or null (none). */
  stripeKey(version: number, minute: number): string | null;
  /** Writes the session under `version`: false when another write came first. */
  write(session: NewSession, expiresAtIso: string, version: number, nowIso: string): Promise<boolean>;
  /** Whether a session id was stored (by whichever request). */
  stored(sessionId: string): Promise<boolean>;
  keyReused: string;
}

const answer = (s: StoredSession): CheckoutAnswer => ({ checkout_url: s.url ?? `/dev/checkout/${s.id}`, session_id: s.id });

export async function startCheckoutSession(config: StripeConfig, subject: CheckoutSubject, opts: { key: string | null; useStripe: boolean; nowMs?: number; busyDetail: string }): Promise<CheckoutAnswer> {
  const nowMs = opts.nowMs ?? Date.now();
  const since = isoNow(nowMs - IDEMPOTENCY_WINDOW_MS);
  const replay = async () => {
    if (!opts.key) return null;
    const first = await subject.byKey(opts.key, since);
    if (!first) return null;
    if (!first.sameSubject) throw conflict(subject.keyReused);
    return answer(first.session);
  };
  const earlier = await replay();
  if (earlier) return earlier;
  await subject.read();
  if (opts.key) await subject.forgetStaleKey(opts.key, since);

  let created: NewSession | null = null;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (attempt > 0) {
      const again = await replay();
      if (again) return again;
    }
    const { version } = await subject.read();
    const open = await subject.open(isoNow(nowMs + CHECKOUT_REUSE_MARGIN_MS));
    if (open && open.kind === (opts.useStripe ? "stripe" : "test")) {
      if (created && opts.useStripe && created.id !== open.id) await expireLoser(config, created.id);
      return answer(open);
    }
    // The expiry is of the minute, so a retry in that minute sends the same parameters under the same key.
    const minute = Math.floor(nowMs / 60_000);
    const expiresAt = minute * 60_000 + CHECKOUT_SESSION_MS;
    if (!created) {
      const started = (await subject.startedSince?.(isoNow(nowMs - 60_000))) ?? null;
      if (started && started.n >= CHECKOUT_SESSIONS_PER_MINUTE) {
        const retryAfter = started.oldest ? Math.max(1, Math.ceil((Date.parse(started.oldest) + 60_000 - nowMs) / 1000)) : 60;
        throw tooManyRequests(retryAfter, "Too many checkout attempts. Please wait a minute and try again.");
      }
      if (opts.useStripe) {
        const made = await subject.createAtStripe(Math.floor(expiresAt / 1000), subject.stripeKey(version, minute)).catch((err: unknown) => {
          log.error("checkout_failed", { message: err instanceof Error ? err.message : "unknown" });
          throw apiError(502, { detail: "Could not start the payment with Stripe. Please try again." });
        });
        created = { ...made, kind: "stripe" };
      } else {
        const id = `cs_test_${newId(24)}`;
        created = { id, url: `/dev/checkout/${id}`, kind: "test" };
      }
    }
    try {
      if (await subject.write(created, isoNow(expiresAt), version, isoNow(nowMs))) return answer(created);
    } catch (err) {
      // The same key at once from another request: its session is the answer (next attempt).
      if (!isUniqueViolation(err)) throw err;
    }
    // Another write came first: nobody should pay this session, unless it is the one that request stored.
    if (opts.useStripe && !(await subject.stored(created.id))) {
      await expireLoser(config, created.id);
      created = null;
    }
  }
  throw apiError(503, { detail: opts.busyDetail });
}

/** A Stripe session that lost the race to another request's: nobody should pay it. */
async function expireLoser(config: StripeConfig, sessionId: string) {
  await expireStripeCheckoutSession(config, sessionId).catch((err: unknown) =>
    log.warn("stripe_expire_failed", { session_id: sessionId, message: err instanceof Error ? err.message : "unknown" }),
  );
}
