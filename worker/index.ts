/**
 * The worker's entry: party sockets -> Hono app (/api, then the SPA's static assets); the cron
 * trigger, which only enqueues its jobs, and the queues' consumer (docs/decisions/037); and the
 * Durable Object classes of the rooms (re-exported for wrangler).
 */
import { createApp } from "./app";
import { createDb } from "./db/client";
import { routePartyRequest } from "./services/room-access";
import { enqueueCronJobs } from "./services/housekeeping";
import { consumeBatch } from "./services/background/consumer";
import type { BackgroundMessage } from "./services/background/messages";

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
  async scheduled(controller, env, _ctx) {
    await enqueueCronJobs(env, controller.scheduledTime);
  },
  async queue(batch, env, _ctx) {
    await consumeBatch(batch, env);
  },
} satisfies ExportedHandler<Env, BackgroundMessage>;
