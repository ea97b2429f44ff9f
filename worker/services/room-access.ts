/**
 * Who may open a room socket: checked in the worker before the request reaches the Durable Object
 * (the rooms in party/ only trust the user header this sets, so they need no database).
 * A socket ticket (POST /api/v1/messages/socket-ticket: about 60 s, its own audience) comes as ?token=
 * (browsers cannot set headers on WebSocket requests); an access token is refused, so no long-lived
 * credential ever sits in a URL.
 * Inbox rooms are named by user id and open only to that user; conversation rooms only to the
 * conversation's two participants (anyone else gets 404, as for the HTTP routes). A path that cannot
 * name a room (unknown kind, a name that is not one of our ids) is 404 before anything else is asked.
 */
import { routePartykitRequest } from "partyserver";
import { PARTIES } from "../contract/parties";
import { messagingRefusal } from "../contract/messaging-rules";
import { USER_HEADER } from "../../party/protocol";
import { getConfig } from "../env";
import type { Db } from "../db/client";
import { isParticipant } from "../db/queries/conversations";
import { accountStanding } from "../db/queries/users";
import { isIdLike } from "../lib/ids";
import { log } from "../lib/log";
import { verifySocketTicket } from "./tokens";

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

function routeRoom(db: Db, request: Request, env: Env): Promise<Response | null> {
  return routePartykitRequest(request, env, {
    onBeforeConnect: async (req, lobby) => {
      const token = new URL(req.url).searchParams.get("token");
      const userId = await verifySocketTicket(getConfig(env).jwtSecret, token);
      if (!userId) return deny(401, "Not authenticated");
      // A ticket outlives a deleted or suspended account by up to a minute: the account is read again.
      const sender = await accountStanding(db, userId);
      const inRoom = lobby.className === "Inbox" ? lobby.name === userId : !!sender && (await isParticipant(db, lobby.name, userId));
      const refusal = messagingRefusal({ act: "connect", sender, inRoom });
      if (refusal) return deny(refusal.status, refusal.detail);
      const forwarded = new Request(req);
      forwarded.headers.set(USER_HEADER, userId);
      return forwarded;
    },
  });
}
