import { and, desc, eq, or } from "drizzle-orm";
import type { Db } from "../client";
import { conversations, messages } from "../schema";

export async function isParticipant(db: Db, conversationId: string, userId: string): Promise<boolean> {
  const row = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.id, conversationId), or(eq(conversations.userA, userId), eq(conversations.userB, userId))))
    .get();
  return !!row;
}

/** The latest 500 conversations, for staff. */
export const recentConversations = (db: Db) => db.select().from(conversations).orderBy(desc(conversations.updatedAt)).limit(500);

/** The first 1000 messages of a conversation, oldest first. */
export const messagesOf = (db: Db, conversationId: string) =>
  db.select().from(messages).where(eq(messages.conversationId, conversationId)).orderBy(messages.createdAt).limit(1000);
