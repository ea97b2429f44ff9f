import { Room } from "./room";

/** One room per conversation (named by conversation id): pushes new messages and read receipts. */
export class ConversationRoom extends Room {}
