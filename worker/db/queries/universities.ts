import { asc, eq } from "drizzle-orm";
import type { Db } from "../client";
import { universities } from "../schema";

export const listUniversities = (db: Db) =>
  db.select({ id: universities.id, name: universities.name, abbreviation: universities.abbreviation }).from(universities).orderBy(asc(universities.name));

export async function universityExists(db: Db, id: number): Promise<boolean> {
  return !!(await db.select({ id: universities.id }).from(universities).where(eq(universities.id, id)).get());
}
