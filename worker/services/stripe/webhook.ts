/**
 * Stripe's webhooks, for every feature: the signature check (Stripe's tolerance), the envelope every
 * event must carry, and the field readers a feature's event parser uses. A feature's route hands the
 * raw body here (verifiedEvent) and applies what it reads once (stripe/once.ts; decision 013).
 */
import Stripe from "stripe";
import type { StripeConfig } from "../../env";
import { badRequest } from "../../lib/errors";

/** Stripe's default signature tolerance: a signature older than this is refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** A webhook payload checked against its Stripe-Signature header; throws when it does not match or is stale. */
export async function verifyWebhookEvent(config: StripeConfig, rawBody: string, signature: string): Promise<Stripe.Event> {
  // The key is not used to verify; a placeholder keeps the SDK from refusing to construct.
  const stripe = new Stripe(config.secretKey || "sk_test_unused", { httpClient: Stripe.createFetchHttpClient() });
  return stripe.webhooks.constructEventAsync(rawBody, signature, config.webhookSecret, WEBHOOK_TOLERANCE_SECONDS, Stripe.createSubtleCryptoProvider());
}

/** A Stripe-Signature header for `payload` (the development test checkout signs its events like Stripe). */
export async function signWebhookPayload(secret: string, payload: string, timestamp?: number): Promise<string> {
  const stripe = new Stripe("sk_test_unused", { httpClient: Stripe.createFetchHttpClient() });
  return stripe.webhooks.generateTestHeaderStringAsync({ payload, secret, timestamp, cryptoProvider: Stripe.createSubtleCryptoProvider() });
}

/* ---------- reading events ---------- */

/** A verified event's envelope: what every event we read must carry. */
export interface StripeEventEnvelope {
  id: string;
  type: string;
  created: number;
  /** The connected account a Connect event is about (absent on the platform's own events). */
  account?: string;
  data: { object: Record<string, unknown> };
}

/**
 * The envelope of a verified payload, or null when its shape is not an event's (not an object, no
 * id or type, no `data.object` object). A signed payload can still be malformed: it is refused.
 */
export function eventEnvelope(payload: unknown): StripeEventEnvelope | null {
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) return null;
  const e = payload as Obj;
  const data = e.data;
  if (!str(e.id) || !str(e.type) || !isTimestamp(e.created)) return null;
  if (!data || typeof data !== "object" || Array.isArray(data)) return null;
  const object = (data as Obj).object;
  if (!object || typeof object !== "object" || Array.isArray(object)) return null;
  const account = str(e.account);
  return { id: e.id as string, type: e.type as string, created: e.created as number, ...(account && { account }), data: { object: object as Obj } };
}


/* ---------- reading fields (any API version's shape) ---------- */

export type Obj = Record<string, unknown>;
export const obj = (v: unknown): Obj => (v && typeof v === "object" ? (v as Obj) : {});
export const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);
export const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
export const idOf = (v: unknown) => str(v) ?? str(obj(v).id);
/** Epoch seconds a Date can hold (before the year 5138): a larger one would throw when turned into a date. */
export const isTimestamp = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v > 0 && v < 1e11;
/** An optional epoch-seconds field: absent is undefined, anything but a plausible timestamp is a malformed event (400, not a 500). */
export function timestamp(v: unknown, field: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isTimestamp(v)) throw new MalformedEventError(`${field} is not a timestamp`);
  return v;
}
export const firstOf = (list: unknown) => obj((obj(list).data as unknown[] | undefined)?.[0]);

/** An event of a type we read whose object lacks what that type must carry (answered 400). */
export class MalformedEventError extends Error {}

/**
 * The webhook's entry: the raw body checked against its Stripe-Signature (tolerance 300 s) with
 * `secret`, and its envelope. A bad or stale signature, or a signed payload that is not an event of
 * the expected shape, is a 400 and changes nothing.
 */
export async function verifiedEvent(config: StripeConfig, rawBody: string, signature: string | undefined): Promise<StripeEventEnvelope> {
  if (!signature || !config.webhookSecret) throw badRequest("Invalid signature");
  let payload: unknown;
  try {
    payload = await verifyWebhookEvent(config, rawBody, signature);
  } catch {
    throw badRequest("Invalid signature");
  }
  const event = eventEnvelope(payload);
  if (!event) throw badRequest("Malformed event: expected an object with id, type, created and data.object");
  return event;
}
