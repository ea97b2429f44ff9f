/**
 * Messages not yet confirmed by the server, kept in localStorage per user and conversation with their
 * `Idempotency-Key`: a send whose connection dropped may have been stored, so after a reload its Retry
 * must repeat the same key (the server then answers the stored message instead of storing it twice).
 * An entry goes once the server answers, its stored message shows up in the thread, or it is discarded.
 */
import { readJson, writeStorage } from "../../../lib/storage";

export interface UnsentMessage {
  /** The send's Idempotency-Key, also the bubble's identity. */
  key: string;
  text: string;
  createdAt: string;
}

/** Entries kept per conversation (the oldest go first): a bound on what one device holds. */
const MAX_UNSENT = 20;

const storageKey = (me: string, conversationId: string) => `campusnest_unsent:${me}:${conversationId}`;

const isUnsent = (v: unknown): v is UnsentMessage =>
  typeof v === "object" && v !== null && typeof (v as UnsentMessage).key === "string" && typeof (v as UnsentMessage).text === "string" && typeof (v as UnsentMessage).createdAt === "string";

/** What was left unsent in this conversation (an unreadable entry is dropped). */
export function readUnsent(me: string, conversationId: string): UnsentMessage[] {
  const stored = readJson<unknown>(storageKey(me, conversationId));
  return Array.isArray(stored) ? stored.filter(isUnsent).slice(-MAX_UNSENT) : [];
}

export function writeUnsent(me: string, conversationId: string, list: readonly UnsentMessage[]): void {
  const kept = list.slice(-MAX_UNSENT).map(({ key, text, createdAt }) => ({ key, text, createdAt }));
  writeStorage(storageKey(me, conversationId), kept.length > 0 ? JSON.stringify(kept) : null);
}

/** A new send's key: a random UUID (with a fallback where randomUUID is missing, e.g. plain http). */
export function newClientKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
