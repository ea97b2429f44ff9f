/**
 * The real-time protocol: every event a room sends or accepts, as zod discriminated unions shared
 * with the SPA. Rooms only push; messages are sent over HTTP (POST .../send) and then published.
 */
import { z } from "zod";
import { messageSchema } from "../worker/contract/messages";
import { dealSchema } from "../worker/contract/deals";

export { CLOSE_CODES, PARTIES } from "../worker/contract/parties";
export { messageSchema, type Message } from "../worker/contract/messages";

/**
 * The verified user id, on the request the worker forwards to a room (worker/services/room-access.ts).
 * The room trusts it: the worker sets it and overwrites anything a client sent.
 */
export const USER_HEADER = "x-campusnest-user-id";

export const serverEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("message"), message: messageSchema }),
  z.object({ type: z.literal("read"), conversation_id: z.string(), reader_id: z.string() }),
  z.object({ type: z.literal("unread"), unread_count: z.number().int().min(0) }),
  /**
   * A deal of this conversation changed (docs/decisions/026, 035): each party's own view of it (their
   * `actions` and `waiting_for`), by user id; each card shows its reader's.
   */
  z.object({ type: z.literal("deal"), deal_id: z.string(), views: z.record(z.string(), dealSchema) }),
  z.object({ type: z.literal("pong") }),
]);
export type ServerEvent = z.infer<typeof serverEventSchema>;

export const clientEventSchema = z.discriminatedUnion("type", [z.object({ type: z.literal("ping") })]);
export type ClientEvent = z.infer<typeof clientEventSchema>;
