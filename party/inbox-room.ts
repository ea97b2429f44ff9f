import { Room } from "./room";

/** One room per user (named by user id): pushes that user's unread count. */
export class InboxRoom extends Room {}
