import { Hono } from "hono";
import type { Db } from "../db/client";
import type { Config } from "../env";

/** The Hono environment every router of the worker shares. */
export interface AppContext {
  Bindings: Env;
  Variables: {
    requestId: string;
    config: Config;
    /**
     * The request's database handle: drizzle over the request's D1 session (middleware/d1-session.ts,
     * which sets it before any route runs). Routes pass it to services and queries; raw SQL goes
     * through `db.$client.prepare(...)`.
     */
    db: Db;
  };
}

/** A router for one resource; mounted with app.route() in app.ts. */
export const createRouter = () => new Hono<AppContext>();
