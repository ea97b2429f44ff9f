/**
 * The worker's entry: party sockets -> Hono app (/api, then the SPA's static assets); the cron
 * trigger; and the Durable Object classes of the rooms (re-exported for wrangler).
 */
import { createApp } from "./app";
import { routePartyRequest } from "../party/auth";
import { runHousekeeping } from "./services/housekeeping";

export { ConversationRoom } from "../party/conversation-room";
export { InboxRoom } from "../party/inbox-room";

const app = createApp();

export default {
  async fetch(request, env, ctx) {
    const isUpgrade = request.headers.get("Upgrade")?.toLowerCase() === "websocket";
    if (isUpgrade && new URL(request.url).pathname.startsWith("/parties/")) {
      const response = await routePartyRequest(request, env);
      if (response) return response;
    }
    return app.fetch(request, env, ctx);
  },
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(runHousekeeping(env));
  },
} satisfies ExportedHandler<Env>;
