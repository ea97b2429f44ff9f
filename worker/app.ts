/**
 * createApp(): the Hono application behind every HTTP request that is not a party socket.
 * One error shape, request ids, structured logs, security headers, CORS, then the routes and
 * finally the SPA's static assets.
 */
import { Hono } from "hono";
import { cors } from "hono/cors";
import { HTTPException } from "hono/http-exception";
import { ConfigError, getConfig, withLocalOrigin } from "./env";
import type { AppContext } from "./lib/context";
import { apiError, conflict, databaseErrorCode, detailFor, isDatabaseError, isUniqueViolation, notFound, SERVER_ERROR_DETAIL, withErrorDetail } from "./lib/errors";
import { log } from "./lib/log";
import { newId } from "./lib/ids";
import { securityHeaders } from "./lib/security-headers";
import { limitBodySize } from "./middleware/body-limit";
import { checkIdParams } from "./middleware/id-params";
import { d1Session } from "./middleware/d1-session";
import { D1_BOOKMARK_HEADER } from "./db/client";
import { NEXT_TOKEN_HEADER } from "./contract/staff-lists";
import { edgeCacheScope } from "./services/edge-cache";
import { metaRoutes } from "./routes/meta";
import { universitiesRoutes } from "./routes/universities";
import { devRoutes } from "./routes/dev";
import { authRoutes } from "./routes/auth";
import { usersRoutes } from "./routes/users";
import { blocksRoutes } from "./routes/users/blocks";
import { reportsRoutes } from "./routes/reports";
import { verificationRoutes } from "./routes/verification";
import { imagesRoutes } from "./routes/images";
import { evidenceRoutes } from "./routes/evidence";
import { listingsRoutes } from "./routes/listings";
import { availabilityRoutes } from "./routes/availability";
import { favoritesRoutes } from "./routes/favorites";
import { savedSearchesRoutes } from "./routes/saved-searches";
import { pushRoutes } from "./routes/push";
import { messagesRoutes } from "./routes/messages";
import { uploadRoutes } from "./routes/upload";
import { geoRoutes } from "./routes/geo";
import { mapsRoutes } from "./routes/maps";
import { adminRoutes } from "./routes/admin";
import { feedbackRoutes } from "./routes/feedback";
import { promotionsRoutes } from "./routes/promotions";
import { paymentsWebhookRoutes } from "./routes/payments/webhook";
import { devCheckoutRoutes } from "./routes/dev/checkout";
import { verificationAdminRoutes } from "./routes/verification/admin";
import { serveAsset } from "./services/assets";
import { pageRoutes } from "./routes/pages";
import { seoRoutes } from "./routes/seo";
import { dealsRoutes } from "./routes/deals";
import { connectWebhookRoutes, devConnectRoutes, payoutsRoutes } from "./routes/payouts";
import { landlordConsentRoutes } from "./routes/landlord-consent";

export function createApp() {
  // strict: false — every path works with and without its trailing slash (API contract).
  const app = new Hono<AppContext>({ strict: false });

  app.use("*", async (c, next) => {
    const started = Date.now();
    const requestId = c.req.header("cf-ray") ?? newId(16);
    c.set("requestId", requestId);
    c.set("config", withLocalOrigin(getConfig(c.env), c.req.url));
    await next();
    // Every API 4xx answers `{detail}`, whoever made it (a sub-router's default, a handler's own body).
    if (c.req.path.startsWith("/api/") && c.res.status >= 400 && c.res.status < 500 && c.req.method !== "HEAD") {
      const res = await withErrorDetail(c.res);
      if (res !== c.res) {
        c.res = undefined;
        c.res = res;
      }
    }
    c.res.headers.set("X-Request-Id", requestId);
    const viteDevServer = (c.env as { DEV_SERVER?: string }).DEV_SERVER === "vite";
    // A route that set a stricter header of its own (a private document's `sandbox` CSP) keeps it.
    for (const [name, value] of Object.entries(securityHeaders(viteDevServer))) if (!c.res.headers.has(name)) c.res.headers.set(name, value);
    if (c.req.path.startsWith("/api/")) {
      // Route patterns only: ids and query strings (tokens, emails) never reach the logs.
      log.info("request", {
        request_id: requestId,
        method: c.req.method,
        route: c.req.routePath,
        status: c.res.status,
        duration_ms: Date.now() - started,
      });
    }
  });

  app.use("/api/*", (c, next) =>
    cors({
      origin: (origin) => (c.var.config.allowedOrigins.includes(origin) ? origin : null),
      allowHeaders: ["Authorization", "Content-Type", "Idempotency-Key", D1_BOOKMARK_HEADER],
      exposeHeaders: [D1_BOOKMARK_HEADER, NEXT_TOKEN_HEADER],
      allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
      maxAge: 600,
    })(c, next),
  );

  app.use("/api/*", limitBodySize);
  app.use("/api/*", checkIdParams);
  // One D1 session per request (read replicas, bookmarks), and the scope edge-cache purges use.
  app.use("*", d1Session);
  app.use("*", edgeCacheScope);

  app.route("/api", metaRoutes);
  app.route("/api/v1/universities", universitiesRoutes);
  app.route("/api/v1/auth", authRoutes);
  app.route("/api/v1/users/blocks", blocksRoutes);
  app.route("/api/v1/users", usersRoutes);
  app.route("/api/v1/reports", reportsRoutes);
  app.route("/api/v1/verification/admin", verificationAdminRoutes);
  app.route("/api/v1/verification", verificationRoutes);
  app.route("/api/v1/admin", adminRoutes);
  app.route("/api/v1/feedback", feedbackRoutes);
  app.route("/api/v1/images", imagesRoutes);
  app.route("/api/v1/evidence", evidenceRoutes);
  app.route("/api/v1/subleases", listingsRoutes);
  app.route("/api/v1/availability", availabilityRoutes);
  app.route("/api/v1/favorites", favoritesRoutes);
  app.route("/api/v1/saved-searches", savedSearchesRoutes);
  app.route("/api/v1/push", pushRoutes);
  app.route("/api/v1/messages", messagesRoutes);
  app.route("/api/v1/upload", uploadRoutes);
  app.route("/api/v1/geo", geoRoutes);
  app.route("/api/v1/maps", mapsRoutes);
  app.route("/api/v1/promotions", promotionsRoutes);
  app.route("/api/v1/deals", dealsRoutes);
  app.route("/api/v1/payouts", payoutsRoutes);
  app.route("/api/v1/payments/connect-webhook", connectWebhookRoutes);
  app.route("/api/v1/payments", paymentsWebhookRoutes);
  app.route("/api/v1/landlord-consent", landlordConsentRoutes);
  app.route("/api/v1/dev", devRoutes);

  app.all("/api/*", () => {
    throw notFound();
  });
  // Non-WebSocket requests to a party path: there is nothing to serve.
  app.all("/parties/*", () => {
    throw notFound();
  });
  // Development only (404 elsewhere): the built-in test checkout.
  app.route("/dev", devCheckoutRoutes);
  app.route("/dev", devConnectRoutes);
  app.route("/", seoRoutes);
  pageRoutes(app);
  app.get("*", serveAsset);
  app.all("*", () => {
    throw apiError(405, { detail: "Method not allowed" });
  });

  app.notFound((c) => c.json({ detail: "Not found" }, 404));

  app.onError((err, c) => {
    const requestId = c.var.requestId ?? "unknown";
    // Ours carry a `{detail}` response; Hono's own (and any thrown without one) get it here.
    if (err instanceof HTTPException) return err.res ? err.getResponse() : c.json({ detail: detailFor(err.status, err.message) }, err.status);
    if (err instanceof ConfigError) {
      // The message names the missing or invalid setting (never its value).
      log.error("config_error", { request_id: requestId, message: err.message });
      return c.json({ detail: err.message }, 500);
    }
    // A database error's message carries SQL and bound values (emails, names, hashes): log its
    // name and SQLite code only. Our own errors' messages never carry personal data.
    const database = isDatabaseError(err);
    log.error("unhandled_error", {
      request_id: requestId,
      route: c.req.routePath,
      error: err instanceof Error ? err.name : "unknown",
      cause: err instanceof Error && err.cause instanceof Error ? err.cause.name : undefined,
      code: databaseErrorCode(err) ?? undefined,
      message: database ? undefined : err instanceof Error ? err.message : "non-error thrown",
    });
    // A unique value taken by a concurrent request: the caller's write lost a race, not a server fault.
    if (isUniqueViolation(err)) return conflict("This was just created by another request. Please reload and try again.").getResponse();
    return c.json({ detail: SERVER_ERROR_DETAIL }, 500);
  });

  return app;
}
