/** The one keyset-page helper every paged list answers through (worker/lib/cursor.ts). */
import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, keysetPage } from "../../../worker/lib/cursor";
import { z } from "zod";

const key = z.object({ c: z.string(), id: z.string() });
const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `r${i}`, at: `2026-01-0${i + 1}` }));
const keyOf = (r: { id: string; at: string }) => ({ c: r.at, id: r.id });

describe("keysetPage", () => {
  it("keeps `limit` rows of the `limit + 1` read and points the token at the last one kept", () => {
    const { items, pagination } = keysetPage(rows(4), 3, keyOf);
    expect(items.map((r) => r.id)).toEqual(["r0", "r1", "r2"]);
    expect(pagination.has_more).toBe(true);
    expect(decodeCursor(pagination.next_token, key)).toEqual({ c: "2026-01-03", id: "r2" });
  });

  it("ends with no token when nothing follows, also for an empty page", () => {
    expect(keysetPage(rows(3), 3, keyOf)).toEqual({ items: rows(3), pagination: { next_token: null, has_more: false } });
    expect(keysetPage([], 3, keyOf)).toEqual({ items: [], pagination: { next_token: null, has_more: false } });
  });

  it("round-trips a cursor and refuses one that is not ours (400)", () => {
    expect(decodeCursor(encodeCursor({ c: "x", id: "y" }), key)).toEqual({ c: "x", id: "y" });
    expect(decodeCursor(undefined, key)).toBeNull();
    const statusOf = (token: string) => {
      try {
        decodeCursor(token, key);
        return 200;
      } catch (err) {
        return (err as { status?: number }).status;
      }
    };
    expect(statusOf("not base64 json!")).toBe(400);
    expect(statusOf(encodeCursor({ c: 1 }))).toBe(400);
  });
});
