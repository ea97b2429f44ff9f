/**
 * Request bodies are limited before anything parses them: 64 KB for every JSON call, and the upload
 * routes exactly what their contract allows (base64 grows bytes by a third). Oversize is
 * `413 {detail}`, whether the client declared its length or streamed it.
 *
 * The listing photos' body (up to 10 images of 10 MB: ~141 MB of base64) cannot be held in a 128 MB
 * isolate, so that route is streamed: a declared Content-Length over the cap is refused before a byte
 * is read, and an undeclared (chunked) body is counted as it flows and cut off at the cap, never
 * buffered; the route reads it one image at a time (routes/upload/stream-images.ts).
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { LIMITS } from "../contract/constants";
import type { AppContext } from "../lib/context";
import { apiError } from "../lib/errors";

const KB = 1024;
/** Room for field names, filenames and the data-URL prefix around the base64. */
const ENVELOPE = 64 * KB;
/** Per image: its field names, file name and type (at most 200 and 100 characters, escaped) and data-URL prefixes. */
const IMAGE_ENVELOPE = 4 * KB;
const base64Length = (bytes: number) => Math.ceil(bytes / 3) * 4;

export const BODY_LIMITS = {
  default: 64 * KB,
  /** One entry of the listing photos' `images`: the image, its thumbnail, a file name and a type. */
  listingPhoto: base64Length(LIMITS.imageMaxBytes) + base64Length(LIMITS.thumbnailMaxBytes) + IMAGE_ENVELOPE,
  listingPhotos: LIMITS.photosPerListing * (base64Length(LIMITS.imageMaxBytes) + base64Length(LIMITS.thumbnailMaxBytes) + IMAGE_ENVELOPE) + ENVELOPE,
  avatar: base64Length(LIMITS.avatarMaxBytes) + ENVELOPE,
  document: base64Length(LIMITS.documentMaxBytes) + ENVELOPE,
  /** Development only: the demo photos posted by `npm start`. */
  devSeed: 32 * 1024 * KB,
  /** Stripe's events (an invoice with many lines can pass 64 KB). */
  stripeWebhook: 512 * KB,
} as const;

/** The routes that read their body as a stream (never buffered here): the cap is counted on the way. */
const STREAMED_ROUTES: [RegExp, number][] = [[/^\/api\/v1\/upload\/multiple-base64\/?$/, BODY_LIMITS.listingPhotos]];

const ROUTE_LIMITS: [RegExp, number][] = [
  [/^\/api\/v1\/users\/avatar-base64\/?$/, BODY_LIMITS.avatar],
  [/^\/api\/v1\/verification\/upload-document\/?$/, BODY_LIMITS.document],
  [/^\/api\/v1\/dev\/seed\/?$/, BODY_LIMITS.devSeed],
  [/^\/api\/v1\/promotions\/webhook\/?$/, BODY_LIMITS.stripeWebhook],
];

const tooLarge = (maxSize: number) =>
  apiError(413, { detail: `The request is too large (at most ${Math.floor(maxSize / KB).toLocaleString("en-US")} KB).` });

/**
 * `body` passed through a counter: the bytes flow on untouched until their total passes `maxSize`,
 * then the stream errors with the 413 (a reader's `read()` rejects with it, and the sender is cut off).
 */
export function cappedStream(body: ReadableStream<Uint8Array>, maxSize: number, onTooLarge: () => Error = () => tooLarge(maxSize)): ReadableStream<Uint8Array> {
  let size = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > maxSize) controller.error(onTooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
}

export const limitBodySize: MiddlewareHandler<AppContext> = (c, next) => {
  const streamed = STREAMED_ROUTES.find(([pattern]) => pattern.test(c.req.path))?.[1];
  if (streamed !== undefined) {
    const declared = c.req.header("content-length");
    if (declared !== undefined && !c.req.header("transfer-encoding") && Number(declared) > streamed) throw tooLarge(streamed);
    if (c.req.raw.body) c.req.raw = new Request(c.req.raw, { body: cappedStream(c.req.raw.body, streamed) });
    return next();
  }
  const maxSize = ROUTE_LIMITS.find(([pattern]) => pattern.test(c.req.path))?.[1] ?? BODY_LIMITS.default;
  return bodyLimit({
    maxSize,
    onError: () => {
      throw tooLarge(maxSize);
    },
  })(c, next);
};
