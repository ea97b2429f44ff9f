/**
 * Path ids checked in one place: an API path whose id parameter cannot be an id (a NUL, a slash-free
 * but foreign string, 5 KB of text) answers 404 before any handler or query sees it, instead of
 * whatever the handler makes of a lookup that finds nothing (an empty list, a 200). A listing id
 * answers "Listing not found", as an unknown one does, so a malformed id and a missing listing read
 * the same (decision 022); any other id {detail:"Not found"}.
 *
 * The route that will answer is the first matched one that is not a middleware (Hono calls them in
 * order); its parameters are checked by name, so `/users/stats` never meets the rule of `/users/:id`.
 */
import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { AppContext } from "../lib/context";
import { notFound } from "../lib/errors";
import { isIdLike } from "../lib/ids";
import { LISTING_NOT_FOUND } from "../services/viewable-listing";

/** Parameter names that hold one of our ids (`newId()`): `:id`, `:listingId`, `:userId`, `:conversationId`. */
const ID_PARAM = /^(id|[a-z]+Id)$/;
/** Ids made elsewhere (Stripe's checkout session ids in the test checkout): not ours to shape-check. */
const FOREIGN_IDS = new Set(["sessionId"]);
/** A listing's id: `:listingId` anywhere, `:id` under the listing routes. */
const isListingId = (name: string, path: string) => name === "listingId" || (name === "id" && /\/(subleases|listings|availability)\/:id(\/|$)/.test(path));

export const checkIdParams: MiddlewareHandler<AppContext> = async (c, next) => {
  const routes = matchedRoutes(c);
  const method = c.req.method === "HEAD" ? "GET" : c.req.method;
  const answering = routes.findIndex((route) => route.handler.length < 2 && (route.method === method || route.method === "ALL"));
  if (answering >= 0) {
    const own = c.req.routeIndex;
    c.req.routeIndex = answering;
    const params = c.req.param() as Record<string, string>;
    c.req.routeIndex = own;
    for (const [name, value] of Object.entries(params)) {
      if (ID_PARAM.test(name) && !FOREIGN_IDS.has(name) && !isIdLike(value)) {
        throw notFound(isListingId(name, routes[answering]!.path) ? LISTING_NOT_FOUND : undefined);
      }
    }
  }
  await next();
};
