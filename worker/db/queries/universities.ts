import { asc, eq } from "drizzle-orm";
import type { Db } from "../client";
import { universities } from "../schema";

export const listUniversities = (db: Db) =>
  db.select({ id: universities.id, name: universities.name, abbreviation: universities.abbreviation }).from(universities).orderBy(asc(universities.name));

export async function universityExists(db: Db, id: number): Promise<boolean> {
  return !!(await db.select({ id: universities.id }).from(universities).where(eq(universities.id, id)).get());
}

/** The university's campus coordinates (IPEDS, migration 0012), or null when it has none or does not exist. */
export async function campusOf(db: Db, id: number): Promise<{ latitude: number; longitude: number } | null> {
  const row = await db.select({ latitude: universities.latitude, longitude: universities.longitude }).from(universities).where(eq(universities.id, id)).get();
  return row && row.latitude !== null && row.longitude !== null ? { latitude: row.latitude, longitude: row.longitude } : null;
}

/** A university's name, abbreviation and campus point (the map's campus marker), or null when it has no point or does not exist. */
export async function campusMarkerOf(db: Db, id: number): Promise<{ name: string; abbreviation: string; latitude: number; longitude: number } | null> {
  const row = await db
    .select({ name: universities.name, abbreviation: universities.abbreviation, latitude: universities.latitude, longitude: universities.longitude })
    .from(universities)
    .where(eq(universities.id, id))
    .get();
  return row && row.latitude !== null && row.longitude !== null ? { name: row.name, abbreviation: row.abbreviation, latitude: row.latitude, longitude: row.longitude } : null;
}
