/**
 * Opaque keyset cursors (`last_evaluated_key`): base64url JSON of the last row's sort key. A cursor
 * comes back from the client, so it is validated like any input: anything malformed, out of range or
 * of the wrong shape is `400 {"detail":"Invalid page token"}`, never a 500.
 */
import type { z } from "zod";
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
