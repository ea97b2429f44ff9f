/**
 * The worker's entry: party sockets -> Hono app (/api, then the SPA's static assets); the cron
 * trigger; and the Durable Object classes of the rooms (re-exported for wrangler).
 */
import { createApp } from "./app";
import { createDb } from "./db/client";
import { routePartyRequest } from "./services/room-access";
import { runHousekeeping } from "./services/housekeeping";

export { ConversationRoom } from "../party/conversation-room";
export { InboxRoom } from "../party/inbox-room";

const app = createApp();

export default {
  async fetch(request, env, ctx) {
    const isUpgrade = request.headers.get("Upgrade")?.toLowerCase() === "websocket";
    if (isUpgrade && new URL(request.url).pathname.startsWith("/parties/")) {
      // A socket upgrade never reaches the app (and its d1Session): its own handle on the binding.
      const response = await routePartyRequest(createDb(env), request, env);
      if (response) return response;
    }
    return app.fetch(request, env, ctx);
  },
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(runHousekeeping(env));
  },
} satisfies ExportedHandler<Env>;
