/**
 * The listings generation (docs/decisions/016): one row, read by its primary key on every request
 * that may be answered from the edge cache, bumped after every listing write (services/edge-cache.ts
 * `purgeListingCache`).
 */

import type { Db } from "../client";

/** The current generation: one primary-key read (1 row). 0 when the row is missing (never after migration 0019). */
export async function readCacheGeneration(db: Db): Promise<number> {
  const row = await db.$client.prepare("SELECT generation FROM cache_generation WHERE id = 1").first<{ generation: number }>();
  return row?.generation ?? 0;
}

/** Moves the generation on: every cached answer produced before it is refused from now on. */
export async function bumpCacheGeneration(db: Db): Promise<void> {
  await db.$client.prepare("UPDATE cache_generation SET generation = generation + 1 WHERE id = 1").run();
}
