/** Feedback: anyone sends it; staff list it and archive it (one way, recorded in the audit log). */
import type { FeedbackItem } from "../contract/admin";
import type { Db } from "../db/client";
import { archiveFeedback, findFeedback, insertFeedback, type FeedbackRow } from "../db/queries/feedback";
import { notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { isoNow } from "../lib/time";
import { insertAudit } from "../db/queries/audit";

export const toFeedbackItem = (r: FeedbackRow): FeedbackItem => ({ id: r.id, email: r.email, message: r.message, page: r.page, timestamp: r.createdAt, archived: r.archived });

/** Stores a message with the page it was sent from (if said); returns its id. */
export async function sendFeedback(db: Db, email: string, message: string, page: string | null = null): Promise<string> {
  const id = newId();
  await insertFeedback(db, id, email.toLowerCase(), message, page, isoNow());
  return id;
}

export async function archiveFeedbackItem(db: Db, actor: string, id: string): Promise<FeedbackItem> {
  const row = await findFeedback(db, id);
  if (!row) throw notFound("Feedback not found");
  await db.batch([archiveFeedback(db, id, isoNow()), insertAudit(db, actor, "feedback_archive", "feedback", id)]);
  return toFeedbackItem({ ...row, archived: true });
}
