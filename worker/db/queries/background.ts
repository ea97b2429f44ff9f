/** Background work's own rows (docs/decisions/037): deliveries done (idempotency) and failures (retries, dead letters). */
import { and, desc, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../client";
import { noticeDeliveries, queueFailures } from "../schema";

export type QueueFailureRow = typeof queueFailures.$inferSelect;

/** Whether a notice delivery (an email or a push job, by its id) was done already. */
export const wasDelivered = async (db: Db, id: string) => !!(await db.select({ id: noticeDeliveries.id }).from(noticeDeliveries).where(eq(noticeDeliveries.id, id)).get());

export const markDelivered = (db: Db, id: string, at: string) => db.insert(noticeDeliveries).values({ id, deliveredAt: at }).onConflictDoNothing();

/** A message's failed attempt: its last error and count (a row per message, replaced at each attempt). */
export const recordFailure = (db: Db, row: Omit<typeof queueFailures.$inferInsert, "deadAt">) =>
  db
    .insert(queueFailures)
    .values(row)
    .onConflictDoUpdate({ target: queueFailures.id, set: { error: row.error, attempts: row.attempts, failedAt: row.failedAt }, where: isNull(queueFailures.deadAt) });

/** A message that failed before and then went through: no longer a failure. */
export const forgetFailure = (db: Db, id: string) => db.delete(queueFailures).where(and(eq(queueFailures.id, id), isNull(queueFailures.deadAt)));

/** A message in the dead-letter queue: its failure row (made now if its attempts left none) becomes a dead letter. */
export const recordDeadLetter = (db: Db, row: Omit<typeof queueFailures.$inferInsert, "error" | "attempts" | "failedAt"> & { deadAt: string }) =>
  db
    .insert(queueFailures)
    .values({ ...row, error: null, attempts: 0, failedAt: row.deadAt })
    .onConflictDoUpdate({ target: queueFailures.id, set: { deadAt: sql`coalesce(${queueFailures.deadAt}, excluded.dead_at)` } });

/** Dead letters, newest first (limit + 1 rows, keyset on dead_at and id). */
export const deadLetters = (db: Db, limit: number, after: { dead_at: string; id: string } | null) =>
  db
    .select()
    .from(queueFailures)
    .where(
      and(
        isNotNull(queueFailures.deadAt),
        after ? or(lt(queueFailures.deadAt, after.dead_at), and(eq(queueFailures.deadAt, after.dead_at), lt(queueFailures.id, after.id))) : undefined,
      ),
    )
    .orderBy(desc(queueFailures.deadAt), desc(queueFailures.id))
    .limit(limit + 1);

/** The cron's cleanup: deliveries older than any retry (a message lives at most 4 days), dead letters after 90 days, stale failures. */
export const pruneBackgroundRows = (db: Db, deliveredBefore: string, deadBefore: string) => [
  db.delete(noticeDeliveries).where(lt(noticeDeliveries.deliveredAt, deliveredBefore)),
  db.delete(queueFailures).where(or(lt(queueFailures.deadAt, deadBefore), and(isNull(queueFailures.deadAt), lt(queueFailures.failedAt, deliveredBefore)))),
];
