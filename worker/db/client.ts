import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

/** A drizzle client for this request's D1 binding (never a module singleton). */
export function createDb(env: Pick<Env, "DB">) {
  return drizzle(env.DB, { schema });
}

export type Db = ReturnType<typeof createDb>;
