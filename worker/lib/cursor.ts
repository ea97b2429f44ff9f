/**
 * Opaque keyset cursors (`last_evaluated_key`): base64url JSON of the last row's sort key. A cursor
 * comes back from the client, so it is validated like any input: anything malformed, out of range or
 * of the wrong shape is `400 {"detail":"Invalid page token"}`, never a 500.
 */
import type { z } from "zod";
import type { Pagination } from "../contract/listings";
import { badRequest } from "./errors";

export function encodeCursor(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The cursor's value, null when there is none; 400 when it is not one of ours. */
export function decodeCursor<S extends z.ZodType>(token: string | undefined | null, schema: S): z.infer<S> | null {
  if (!token) return null;
  let parsed: unknown;
  try {
    const binary = atob(token.replace(/-/g, "+").replace(/_/g, "/"));
    parsed = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0))));
  } catch {
    throw badRequest("Invalid page token");
  }
  const result = schema.safeParse(parsed);
  if (!result.success) throw badRequest("Invalid page token");
  return result.data;
}

/**
 * One keyset page from a read of `limit + 1` rows (the extra row only says whether more follow): the
 * first `limit` rows, and the pagination whose `next_token` is the cursor of the last row's sort key
 * (`keyOf`), null on the last page. Every paged list of the API answers this shape.
 */
export function keysetPage<T>(rows: readonly T[], limit: number, keyOf: (last: T) => unknown): { items: T[]; pagination: Pagination } {
  const items = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const last = items.at(-1);
  return { items, pagination: { next_token: hasMore && last !== undefined ? encodeCursor(keyOf(last)) : null, has_more: hasMore } };
}
