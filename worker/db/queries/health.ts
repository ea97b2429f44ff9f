import { sql } from "drizzle-orm";
import type { Db } from "../client";

/** The health check's round trip: throws when the database cannot answer. */
export const pingDatabase = (db: Db) => db.run(sql`SELECT 1`);
