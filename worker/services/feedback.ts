/** Feedback: anyone sends it; staff list it and archive it (one way, recorded in the audit log). */
import type { FeedbackItem } from "../contract/admin";
import { createDb } from "../db/client";
import { archiveFeedback, feedbackList, findFeedback, insertFeedback, type FeedbackRow } from "../db/queries/feedback";
import { notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { isoNow } from "../lib/time";
import { audit } from "./audit";

const toItem = (r: FeedbackRow): FeedbackItem => ({ id: r.id, email: r.email, message: r.message, timestamp: r.createdAt, archived: r.archived });

/** Stores a message; returns its id. */
export async function sendFeedback(env: Env, email: string, message: string): Promise<string> {
  const id = newId();
  await insertFeedback(createDb(env), id, email.toLowerCase(), message, isoNow());
  return id;
}

export async function listFeedback(env: Env, archived: boolean): Promise<FeedbackItem[]> {
  return (await feedbackList(createDb(env), archived)).map(toItem);
}

export async function archiveFeedbackItem(env: Env, actor: string, id: string): Promise<FeedbackItem> {
  const db = createDb(env);
  const row = await findFeedback(db, id);
  if (!row) throw notFound("Feedback not found");
  await db.batch([archiveFeedback(db, id, isoNow()), audit(db, actor, "feedback_archive", "feedback", id)]);
  return toItem({ ...row, archived: true });
}
