/**
 * Real-time rooms (party/protocol.ts re-exports these): the party names of /parties/{party}/{room}, and
 * the close codes the server uses when it ends sockets itself (4000-4999 are the application's); a
 * client does not reconnect after them (after `tooManySockets`, only once its tab is looked at again). Zod-free, so a signed-in navbar can name them without loading
 * the event schemas; not in constants.ts, which the home page loads whole (docs/decisions/023).
 */
export const PARTIES = { conversation: "conversation", inbox: "inbox" } as const;
export const CLOSE_CODES = { conversationDeleted: 4404, accountDeleted: 4410, tooManySockets: 4429 } as const;
