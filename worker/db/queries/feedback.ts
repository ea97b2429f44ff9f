import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../client";
import { feedback } from "../schema";

export type FeedbackRow = typeof feedback.$inferSelect;

export const insertFeedback = (db: Db, id: string, email: string, message: string, page: string | null, createdAt: string) =>
  db.insert(feedback).values({ id, email, message, page, createdAt });

/** Newest first, at most 500. */
export const feedbackList = (db: Db, archived: boolean) =>
  db.select().from(feedback).where(eq(feedback.archived, archived)).orderBy(desc(feedback.createdAt)).limit(500);

export const findFeedback = (db: Db, id: string) => db.select().from(feedback).where(eq(feedback.id, id)).get();

/** Archives one item (one way: an archived item stays archived). */
export const archiveFeedback = (db: Db, id: string, now: string) =>
  db.update(feedback).set({ archived: true, archivedAt: now }).where(and(eq(feedback.id, id), eq(feedback.archived, false)));
