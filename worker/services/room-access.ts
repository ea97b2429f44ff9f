/**
 * Who may open a room socket: checked in the worker before the request reaches the Durable Object
 * (the rooms in party/ only trust the user header this sets, so they need no database).
 * A socket ticket (POST /api/v1/messages/socket-ticket: about 60 s, its own audience) comes as ?token=
 * (browsers cannot set headers on WebSocket requests); an access token is refused, so no long-lived
 * credential ever sits in a URL. A ticket opens one socket (spent on first use), and a user has at most
 * MAX_LIVE_SOCKETS open: the next one closes the oldest (docs/decisions/012).
 * Inbox rooms are named by user id and open only to that user; conversation rooms only to the
 * conversation's two participants (anyone else gets 404, as for the HTTP routes). A path that cannot
 * name a room (unknown kind, a name that is not one of our ids) is 404 before anything else is asked.
 */
import { routePartykitRequest } from "partyserver";
import { CLOSE_CODES, PARTIES } from "../contract/parties";
import { messagingRefusal } from "../contract/messaging-rules";
import { USER_HEADER } from "../../party/protocol";
import { getConfig } from "../env";
import type { Db } from "../db/client";
import { isParticipant } from "../db/queries/conversations";
import { accountStanding } from "../db/queries/users";
import { isIdLike } from "../lib/ids";
import { log } from "../lib/log";
import { forgetLiveSockets, liveSocketsOf, recordLiveSocket, spendSocketTicket } from "../db/queries/sockets";
import { closeSocket, openSocketIds } from "./messaging";
import { verifySocketTicket, type SocketTicket } from "./tokens";

function deny(status: number, detail: string) {
  return Response.json({ detail }, { status });
}

const ROOM_KINDS: ReadonlySet<string> = new Set(Object.values(PARTIES));

/**
 * Whether the path names a room that could exist: /parties/{conversation|inbox}/{an id}. Anything else
 * (another kind, an over-long or malformed name, extra segments) is refused here, before partyserver
 * derives a Durable Object from it, logs the URL (with its ticket) or answers in its own words.
 */
function isRoomPath(pathname: string): boolean {
  const parts = pathname.split("/").filter(Boolean);
  if (parts.length !== 3 || parts[0] !== "parties") return false;
  return ROOM_KINDS.has(parts[1]!) && isIdLike(parts[2]!);
}

/**
 * Routes a WebSocket upgrade under /parties/ to its room, or answers why not: always a short JSON
 * refusal ({detail}), never a stack trace, whatever the path or whatever fails on the way.
 */
export async function routePartyRequest(db: Db, request: Request, env: Env): Promise<Response | null> {
  if (!isRoomPath(new URL(request.url).pathname)) return deny(404, "Not found");
  try {
    return await routeRoom(db, request, env);
  } catch (err) {
    // Ids only: the URL carries the socket ticket.
    log.error("realtime_connect_failed", { error: err instanceof Error ? err.name : "unknown" });
    return deny(503, "Real-time updates are unavailable right now. Please try again later.");
  }
}

/** At most this many open sockets per user, across every room (docs/decisions/012): a new one past it closes the oldest. */
export const MAX_LIVE_SOCKETS = 10;

async function routeRoom(db: Db, request: Request, env: Env): Promise<Response | null> {
  // Set by onBeforeConnect when it lets the socket through (a holder: the callback runs inside the call).
  const opened: { socket: { ticket: SocketTicket; party: string; room: string } | null } = { socket: null };
  const response = await routePartykitRequest(request, env, {
    onBeforeConnect: async (req, lobby) => {
      const token = new URL(req.url).searchParams.get("token");
      const ticket = await verifySocketTicket(getConfig(env).jwtSecret, token);
      if (!ticket) return deny(401, "Not authenticated");
      // Single-use: one ticket opens one socket, however often its URL is replayed.
      if (!(await spendSocketTicket(db, ticket.id, ticket.expiresAt))) return deny(401, "This socket ticket was used already");
      const userId = ticket.userId;
      // A ticket outlives a deleted or suspended account by up to a minute: the account is read again.
      const sender = await accountStanding(db, userId);
      const inRoom = lobby.className === "Inbox" ? lobby.name === userId : !!sender && (await isParticipant(db, lobby.name, userId));
      const refusal = messagingRefusal({ act: "connect", sender, inRoom });
      if (refusal) return deny(refusal.status, refusal.detail);
      // The socket's connection id is the ticket's (never the client's `_pk`): what live_sockets names.
      const url = new URL(req.url);
      url.searchParams.set("_pk", ticket.id);
      const forwarded = new Request(url, req);
      forwarded.headers.set(USER_HEADER, userId);
      opened.socket = { ticket, party: lobby.className === "Inbox" ? PARTIES.inbox : PARTIES.conversation, room: lobby.name };
      return forwarded;
    },
  });
  if (response?.status === 101 && opened.socket) {
    // The socket is open either way: a failure here costs the limit one socket, never the connection.
    await closeOldestSockets(db, env, opened.socket).catch((err: unknown) => log.warn("live_sockets_failed", { error: err instanceof Error ? err.name : "unknown" }));
  }
  return response;
}

/**
 * Records the socket just opened. Past MAX_LIVE_SOCKETS recorded, the rooms say which are still open
 * (a row outlives a socket that closed: rooms keep no database), the closed ones are forgotten, and the
 * oldest open ones past the limit are closed (4429) and forgotten.
 */
async function closeOldestSockets(db: Db, env: Env, { ticket, party, room }: { ticket: SocketTicket; party: string; room: string }) {
  await recordLiveSocket(db, { id: ticket.id, userId: ticket.userId, party, room, openedAt: Date.now() });
  const recorded = await liveSocketsOf(db, ticket.userId);
  if (recorded.length <= MAX_LIVE_SOCKETS) return;
  const rooms = new Map(recorded.map((s) => [`${s.party}/${s.room}`, s]));
  const open = new Set((await Promise.all([...rooms.values()].map((s) => openSocketIds(env, s, ticket.userId)))).flat());
  open.add(ticket.id);
  const live = recorded.filter((s) => open.has(s.id));
  const extra = live.slice(MAX_LIVE_SOCKETS);
  await Promise.all(extra.map((socket) => closeSocket(env, socket, CLOSE_CODES.tooManySockets, "Too many open connections: this one was the oldest")));
  const gone = [...recorded.filter((s) => !open.has(s.id)), ...extra].map((s) => s.id);
  if (gone.length) await forgetLiveSockets(db, gone);
}
