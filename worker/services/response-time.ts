/**
 * Response time: how fast a user usually answers a first message, from the median time to
 * their first reply in conversations of the last 30 days where the other person wrote first.
 */
import { median, RESPONSE_TIME_MIN_CONVERSATIONS, RESPONSE_TIME_WINDOW_DAYS, responseTimeBucket, type ResponseTime } from "../contract/users";
import type { Db } from "../db/client";
import { firstReplyDelays } from "../db/queries/conversations";
import { isoNow } from "../lib/time";

/** The bucket, or null under 3 replied conversations (or a median above a day). */
export async function responseTimeOf(db: Db, userId: string, now: number = Date.now()): Promise<ResponseTime | null> {
  const delays = await firstReplyDelays(db, userId, isoNow(now - RESPONSE_TIME_WINDOW_DAYS * 86_400_000));
  if (delays.length < RESPONSE_TIME_MIN_CONVERSATIONS) return null;
  return responseTimeBucket(median(delays));
}
