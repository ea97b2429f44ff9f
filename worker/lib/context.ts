import { Hono } from "hono";
import type { Config } from "../env";

/** The Hono environment every router of the worker shares. */
export interface AppContext {
  Bindings: Env;
  Variables: {
    requestId: string;
    config: Config;
  };
}

/** A router for one resource; mounted with app.route() in app.ts. */
export const createRouter = () => new Hono<AppContext>();
