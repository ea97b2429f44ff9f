/**
 * Room sockets (services/room-access.ts has the rules; docs/decisions/012): socket tickets already used,
 * and each user's open sockets.
 */
import { desc, eq, lt } from "drizzle-orm";
import { inValues } from "../bounded";
import type { Db } from "../client";
import { liveSockets, spentSocketTickets } from "../schema";

/** Spends a socket ticket: true the first time, false when it was used already (one statement, so two uses at once cannot both pass). */
export const spendSocketTicket = (db: Db, id: string, expiresAt: number) =>
  db.$client
    .prepare(`INSERT INTO spent_socket_tickets (id, expires_at) VALUES (?1, ?2) ON CONFLICT (id) DO NOTHING`)
    .bind(id, expiresAt)
    .run()
    .then((r) => r.meta.changes > 0);

/** For the cron: tickets expired before `before` (epoch ms) cannot be used again anyway. */
export const deleteSpentTicketsBefore = (db: Db, before: number) => db.delete(spentSocketTickets).where(lt(spentSocketTickets.expiresAt, before));

export interface LiveSocket {
  id: string;
  party: string;
  room: string;
}

/** Records an open socket of a user. */
export const recordLiveSocket = (db: Db, socket: LiveSocket & { userId: string; openedAt: number }) =>
  db.insert(liveSockets).values(socket).onConflictDoNothing();

/** A user's recorded sockets, newest first (a handful: the oldest past the limit are closed and forgotten). */
export const liveSocketsOf = (db: Db, userId: string) =>
  db.select({ id: liveSockets.id, party: liveSockets.party, room: liveSockets.room }).from(liveSockets).where(eq(liveSockets.userId, userId)).orderBy(desc(liveSockets.openedAt), desc(liveSockets.id));

export const forgetLiveSockets = (db: Db, ids: string[]) => db.delete(liveSockets).where(inValues(liveSockets.id, ids));

/** For the cron: a socket opened before `before` (epoch ms) no longer counts against its user's limit. */
export const deleteLiveSocketsBefore = (db: Db, before: number) => db.delete(liveSockets).where(lt(liveSockets.openedAt, before));
