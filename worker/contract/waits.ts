/**
 * How long people wait, as the pages after the first tell them (docs/product-rules.md "Timings and
 * sizes"): staff's review, the freshness checks, a lister's usual reply time. Zod-free; not in
 * constants.ts, which the home page loads whole and never shows these (docs/decisions/023).
 */

/** How long staff take to review a new listing or an identity document, in the screens' words. */
export const REVIEW_TIME = "24-48 hours";

/**
 * Fresh listings (docs/decisions/015): the owner of an available listing is asked every `askEveryDays` whether it is
 * still available; one not confirmed for `pauseAfterDays` is paused. The emailed links live `tokenTtlDays`.
 */
export const FRESHNESS = {
  askEveryDays: 14,
  pauseAfterDays: 21,
  tokenTtlDays: 7,
  /** Emails sent by one cron run at most (the rest go out on the next runs). */
  askBatch: 50,
} as const;

/** Response-time buckets, from the median time to a first reply (contract/users.ts). */
export type ResponseTime = "hour" | "hours" | "day";

/** The days of conversations a median first reply is taken from. */
export const RESPONSE_TIME_WINDOW_DAYS = 30;

export const RESPONSE_TIME_TEXT: Record<ResponseTime, string> = {
  hour: "Usually replies within an hour",
  hours: "Usually replies within a few hours",
  day: "Usually replies within a day",
};

/** What the owner reads of an automatic review reason (the photo check, docs/decisions/028): never the other listing or owner. */
export const reviewReasonNotice = (reason: string) => `${reason}: staff will check them.`;
