/**
 * The real-time protocol: every event a room sends or accepts, as zod discriminated unions shared
 * with the SPA. Rooms only push; messages are sent over HTTP (POST .../send) and then published.
 */
import { z } from "zod";
import { messageSchema } from "../worker/contract/messages";

export { CLOSE_CODES, PARTIES } from "../worker/contract/constants";
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
  z.object({ type: z.literal("pong") }),
  /** A deal of this conversation changed (contract/deals `Deal`; only its id is relied on: the client refetches it). */
  z.object({ type: z.literal("deal"), deal: z.looseObject({ id: z.string() }) }),
]);
export type ServerEvent = z.infer<typeof serverEventSchema>;

export const clientEventSchema = z.discriminatedUnion("type", [z.object({ type: z.literal("ping") })]);
export type ClientEvent = z.infer<typeof clientEventSchema>;
