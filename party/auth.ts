/**
 * Who may open a room socket: checked in the worker before the request reaches the Durable Object.
 * The access token comes as ?token= (browsers cannot set headers on WebSocket requests).
 * Inbox rooms are named by user id and open only to that user; conversation rooms only to the
 * conversation's two participants (anyone else gets 404, as for the HTTP routes).
 */
import { routePartykitRequest } from "partyserver";
import { getConfig } from "../worker/env";
import { createDb } from "../worker/db/client";
import { isParticipant } from "../worker/db/queries/conversations";
import { verifyAccessToken } from "../worker/services/tokens";

export const USER_HEADER = "x-campusnest-user-id";

function deny(status: 401 | 404, detail: string) {
  return Response.json({ detail }, { status });
}

/** Routes a WebSocket upgrade under /parties/ to its room, or answers why not. */
export function routePartyRequest(request: Request, env: Env): Promise<Response | null> {
  return routePartykitRequest(request, env, {
    onBeforeConnect: async (req, lobby) => {
      const token = new URL(req.url).searchParams.get("token");
      const userId = await verifyAccessToken(getConfig(env).jwtSecret, token);
      if (!userId) return deny(401, "Not authenticated");
      const allowed =
        lobby.className === "Inbox" ? lobby.name === userId : await isParticipant(createDb(env), lobby.name, userId);
      if (!allowed) return deny(404, "Not found");
      // The room trusts this header: the worker sets it and overwrites anything a client sent.
      const forwarded = new Request(req);
      forwarded.headers.set(USER_HEADER, userId);
      return forwarded;
    },
  });
}
