/**
 * Who may open a room socket: checked in the worker before the request reaches the Durable Object.
 * A socket ticket (POST /api/v1/messages/socket-ticket: about 60 s, its own audience) comes as ?token=
 * (browsers cannot set headers on WebSocket requests); an access token is refused, so no long-lived
 * credential ever sits in a URL.
 * Inbox rooms are named by user id and open only to that user; conversation rooms only to the
 * conversation's two participants (anyone else gets 404, as for the HTTP routes).
 */
import { routePartykitRequest } from "partyserver";
import { getConfig } from "../worker/env";
import { createDb } from "../worker/db/client";
import { isParticipant } from "../worker/db/queries/conversations";
import { isActiveUser } from "../worker/db/queries/users";
import { verifySocketTicket } from "../worker/services/tokens";

export const USER_HEADER = "x-campusnest-user-id";

function deny(status: 401 | 404, detail: string) {
  return Response.json({ detail }, { status });
}

/** Routes a WebSocket upgrade under /parties/ to its room, or answers why not. */
export function routePartyRequest(request: Request, env: Env): Promise<Response | null> {
  return routePartykitRequest(request, env, {
    onBeforeConnect: async (req, lobby) => {
      const token = new URL(req.url).searchParams.get("token");
      const userId = await verifySocketTicket(getConfig(env).jwtSecret, token);
      if (!userId) return deny(401, "Not authenticated");
      const db = createDb(env);
      // A ticket issued just before the account was deleted must not reopen its rooms.
      if (!(await isActiveUser(db, userId))) return deny(401, "Not authenticated");
      const allowed = lobby.className === "Inbox" ? lobby.name === userId : await isParticipant(db, lobby.name, userId);
      if (!allowed) return deny(404, "Not found");
      // The room trusts this header: the worker sets it and overwrites anything a client sent.
      const forwarded = new Request(req);
      forwarded.headers.set(USER_HEADER, userId);
      return forwarded;
    },
  });
}
