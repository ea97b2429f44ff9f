/** Staff's list of background work that failed every retry (docs/decisions/037): the "Failed jobs" tab. */
import { z } from "./zod";
import type { Pagination } from "./listings";

/** GET admin/dead-letters?limit&last_evaluated_key: newest first, like every staff list ("Staff lists at any size"). */
export const deadLettersQuerySchema = z.object({
  limit: z.coerce.number("limit must be a number").int("limit must be a whole number").min(1, "limit must be 1 to 100").max(100, "limit must be 1 to 100").default(50),
  last_evaluated_key: z.string().max(500).optional(),
});
export const deadLetterCursorSchema = z.object({ dead_at: z.string().max(40), id: z.string().max(100) });

export interface DeadLetter {
  /** The queue message's id. */
  id: string;
  /** photo-check | email | push | saved-search-alerts | job */
  kind: string;
  /** What it was about: a listing, a user and a notice kind, a job's name. */
  subject: string | null;
  /** The message as sent, without any email's text or address (JSON). */
  body: string;
  /** The last attempt's error, when one was kept. */
  error: string | null;
  attempts: number;
  sent_at: string;
  dead_at: string;
}

export interface DeadLettersResponse {
  dead_letters: DeadLetter[];
  pagination: Pagination;
}
