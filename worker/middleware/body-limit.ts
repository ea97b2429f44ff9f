/**
 * Request bodies are limited before anything parses them: 64 KB for every JSON call, and the upload
 * routes exactly what their contract allows (base64 grows bytes by a third). Oversize is
 * `413 {detail}`, whether the client declared its length or streamed it.
 *
 * The listing photos' body (up to 10 images of 10 MB: ~141 MB of base64) cannot be held in a 128 MB
 * isolate, so that route is streamed: a declared Content-Length over the cap is refused before a byte
 * is read, and an undeclared (chunked) body is counted as it flows and cut off at the cap, never
 * buffered; the route reads it one image at a time (routes/upload/stream-images.ts). Whatever the
 * route leaves unread of a declared body is read here before the answer goes (finishBody).
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { LIMITS } from "../contract/limits";
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
const STREAMED_ROUTES: [RegExp, number][] = [[/^\/api\/v1\/upload\/(multiple-base64|evidence)\/?$/, BODY_LIMITS.listingPhotos]];

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
 * Pulled, not piped: nothing reads `body` ahead of the reader, so nothing is left reading it after
 * the answer has gone.
 */
export function cappedStream(body: ReadableStream<Uint8Array>, maxSize: number, onTooLarge: () => Error = () => tooLarge(maxSize)): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let size = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        size += value.byteLength;
        if (size <= maxSize) return controller.enqueue(value);
        controller.error(onTooLarge());
        await reader.cancel();
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/**
 * After the route: a streamed body it did not read to the end is finished here. A body whose length was
 * declared (as every browser's is) and accepted is read to its end and dropped, so a refusal never
 * leaves it half read: `wrangler dev`'s proxy then lost the connection and held the next request,
 * anyone's, until yet another arrived (decision 025). An undeclared (chunked) body is cut off, since it
 * may never end.
 */
async function finishBody(body: ReadableStream<Uint8Array> | null, declared: boolean) {
  if (!body || body.locked) return;
  if (!declared) return body.cancel().catch(() => {});
  const reader = body.getReader();
  try {
    while (!(await reader.read()).done);
  } catch {
    // Cut off at the cap: the 413 has been answered.
  } finally {
    reader.releaseLock();
  }
}

export const limitBodySize: MiddlewareHandler<AppContext> = async (c, next) => {
  const streamed = STREAMED_ROUTES.find(([pattern]) => pattern.test(c.req.path))?.[1];
  if (streamed !== undefined) {
    const declaredLength = c.req.header("content-length");
    const declared = declaredLength !== undefined && !c.req.header("transfer-encoding");
    if (declared && Number(declaredLength) > streamed) throw tooLarge(streamed);
    if (!c.req.raw.body) return next();
    c.req.raw = new Request(c.req.raw, { body: cappedStream(c.req.raw.body, streamed) });
    try {
      return await next();
    } finally {
      await finishBody(c.req.raw.body, declared);
    }
  }
  const maxSize = ROUTE_LIMITS.find(([pattern]) => pattern.test(c.req.path))?.[1] ?? BODY_LIMITS.default;
  return bodyLimit({
    maxSize,
    onError: () => {
      throw tooLarge(maxSize);
    },
  })(c, next);
};
