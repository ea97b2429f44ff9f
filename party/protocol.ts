/**
 * The real-time protocol: every event a room sends or accepts, as zod discriminated unions shared
 * with the SPA. Rooms only push; messages are sent over HTTP (POST .../send) and then published.
 */
import { z } from "zod";

export { CLOSE_CODES, PARTIES } from "../worker/contract/constants";

export const messageSchema = z.object({
  id: z.string(),
  sender_id: z.string(),
  text: z.string(),
  timestamp: z.string(),
  is_read: z.boolean(),
  conversation_id: z.string(),
  /**
   * Scam shield: this message matched a fraud pattern, so its recipient sees the safety notice. Always
   * false for the sender's own view (the reasons are never sent to either side).
   */
  safety_notice: z.boolean().default(false),
  /**
   * The `Idempotency-Key` the sender sent it with, in the sender's own view only (null for everyone
   * else): the sender's optimistic bubble is matched to its stored message by it.
   */
  client_key: z.string().nullable().optional(),
});

export const serverEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("message"), message: messageSchema }),
  z.object({ type: z.literal("read"), conversation_id: z.string(), reader_id: z.string() }),
  z.object({ type: z.literal("unread"), unread_count: z.number().int().min(0) }),
  z.object({ type: z.literal("pong") }),
]);
export type ServerEvent = z.infer<typeof serverEventSchema>;
export type Message = z.infer<typeof messageSchema>;

export const clientEventSchema = z.discriminatedUnion("type", [z.object({ type: z.literal("ping") })]);
export type ClientEvent = z.infer<typeof clientEventSchema>;


