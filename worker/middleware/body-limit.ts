/**
 * Request bodies are limited before anything parses them: 64 KB for every JSON call, and the upload
 * routes exactly what their contract allows (base64 grows bytes by a third). Oversize is
 * `413 {detail}`, whether the client declared its length or streamed it.
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { LIMITS } from "../contract/constants";
import type { AppContext } from "../lib/context";
import { apiError } from "../lib/errors";

const KB = 1024;
/** Room for field names, filenames and the data-URL prefix around the base64. */
const ENVELOPE = 64 * KB;
const base64Length = (bytes: number) => Math.ceil(bytes / 3) * 4;

export const BODY_LIMITS = {
  default: 64 * KB,
  listingPhotos: LIMITS.photosPerListing * (base64Length(LIMITS.imageMaxBytes) + base64Length(LIMITS.thumbnailMaxBytes)) + ENVELOPE,
  avatar: base64Length(LIMITS.avatarMaxBytes) + ENVELOPE,
  document: base64Length(LIMITS.documentMaxBytes) + ENVELOPE,
  /** Development only: the demo photos posted by `npm start`. */
  devSeed: 32 * 1024 * KB,
  /** Stripe's events (an invoice with many lines can pass 64 KB). */
  stripeWebhook: 512 * KB,
} as const;

const ROUTE_LIMITS: [RegExp, number][] = [
  [/^\/api\/v1\/upload\/multiple-base64\/?$/, BODY_LIMITS.listingPhotos],
  [/^\/api\/v1\/users\/avatar-base64\/?$/, BODY_LIMITS.avatar],
  [/^\/api\/v1\/verification\/upload-document\/?$/, BODY_LIMITS.document],
  [/^\/api\/v1\/dev\/seed\/?$/, BODY_LIMITS.devSeed],
  [/^\/api\/v1\/promotions\/webhook\/?$/, BODY_LIMITS.stripeWebhook],
];

export const limitBodySize: MiddlewareHandler<AppContext> = (c, next) => {
  const maxSize = ROUTE_LIMITS.find(([pattern]) => pattern.test(c.req.path))?.[1] ?? BODY_LIMITS.default;
  return bodyLimit({
    maxSize,
    onError: () => {
      throw apiError(413, { detail: `The request is too large (at most ${Math.floor(maxSize / KB).toLocaleString("en-US")} KB).` });
    },
  })(c, next);
};
