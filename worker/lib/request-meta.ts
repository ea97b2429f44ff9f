import type { Context } from "hono";
import type { AppContext } from "./context";

/** Where a request came from, as a record keeps it (a deal's events: docs/decisions/026). */
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
}

export const requestMetaOf = (c: Context<AppContext>): RequestMeta => ({
  ip: c.req.header("cf-connecting-ip") ?? null,
  userAgent: c.req.header("user-agent")?.slice(0, 300) ?? null,
});

/** The request's waitUntil: work that may finish after the answer. */
export const deferOf = (c: Context<AppContext>) => (task: Promise<unknown>) => c.executionCtx.waitUntil(task);
