import { applyD1Migrations, env } from "cloudflare:test";
import { afterAll, vi } from "vitest";
import { useLightScryptCostForTests } from "../../worker/services/passwords";
import { keepQueuedMessages } from "./helpers/queues";

/*
 * Before every test file. The files of one vitest worker share one workerd (`isolate: false`,
 * docs/decisions/046): its module instances, its `env`, its storage and its Cache API. So every file
 * starts here from nothing: the database's every table, view and trigger dropped and migrated again, the
 * R2 buckets emptied, the edge cache's generation moved past every entry an earlier file stored, the
 * queues' kept messages forgotten; and after it, its spies and fake clocks undone.
 */

/** Drops the whole schema (children before parents) and empties R2; returns the edge cache's generation before. */
async function emptyStorage(): Promise<number> {
  const before = await env.DB.prepare("SELECT generation FROM cache_generation WHERE id = 1").first<{ generation: number }>().catch(() => null);
  const { results } = await env.DB.prepare(
    "SELECT name, type, sql FROM sqlite_master WHERE type IN ('table','view','trigger') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
  ).all<{ name: string; type: string; sql: string | null }>();
  const virtual = results.filter((r) => /^CREATE VIRTUAL/i.test(r.sql ?? "")).map((r) => r.name);
  const shadow = (name: string) => virtual.some((v) => name.startsWith(`${v}_`));
  const tables = results.filter((r) => r.type === "table" && !virtual.includes(r.name) && !shadow(r.name)).map((r) => r.name);
  const links = results.flatMap((r) => [...(r.sql ?? "").matchAll(/REFERENCES\s+[`"']?(\w+)/gi)].map((m) => ({ child: r.name, parent: m[1]! })));
  // Children before their parents: a table is dropped once nothing left references it.
  const ordered: string[] = [];
  const left = new Set(tables);
  while (left.size) {
    const free = [...left].filter((t) => !links.some((l) => l.parent === t && l.child !== t && left.has(l.child)));
    const next = free.length ? free : [...left];
    for (const t of next) left.delete(t);
    ordered.push(...next);
  }
  const drops = [
    ...results.filter((r) => r.type === "trigger").map((r) => `DROP TRIGGER IF EXISTS "${r.name}"`),
    ...results.filter((r) => r.type === "view").map((r) => `DROP VIEW IF EXISTS "${r.name}"`),
    ...virtual.map((name) => `DROP TABLE IF EXISTS "${name}"`),
    ...ordered.map((name) => `DROP TABLE IF EXISTS "${name}"`),
  ].map((sql) => env.DB.prepare(sql));
  if (drops.length) await env.DB.batch([env.DB.prepare("PRAGMA defer_foreign_keys = ON"), ...drops]);
  for (const bucket of [env.IMAGES, env.ID_DOCUMENTS]) {
    for (;;) {
      const listed = await bucket.list({ limit: 1000 });
      if (listed.objects.length === 0) break;
      await bucket.delete(listed.objects.map((o) => o.key));
    }
  }
  return before?.generation ?? 0;
}

const lastGeneration = await emptyStorage();
// Every file starts from the migrated schema (universities included).
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
// An edge-cache entry an earlier file stored is of an older generation: never served to this one.
await env.DB.prepare("UPDATE cache_generation SET generation = ? WHERE id = 1").bind(lastGeneration + 1).run();
afterAll(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

useLightScryptCostForTests(true);
keepQueuedMessages();
