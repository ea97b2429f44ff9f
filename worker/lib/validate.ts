import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { z } from "zod";
import { badRequest, validationFailed } from "./errors";

/** Turns zod issues into the contract's `errors` list (first problem first). */
export function issuesToErrors(issues: z.core.$ZodIssue[]) {
  return issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "body",
    message: issue.message,
  }));
}

/** Parses and validates a JSON body: 400 when it is not JSON, 422 with `errors` when it breaks the schema. */
export async function parseJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch (err) {
    // A body cut off at its size cap (middleware/body-limit.ts) is that 413, not bad JSON.
    if (err instanceof HTTPException) throw err;
    throw badRequest("Request body must be valid JSON");
  }
  const result = schema.safeParse(body);
  if (!result.success) throw validationFailed(issuesToErrors(result.error.issues));
  return result.data;
}

/** Validates query parameters the same way. */
export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  const result = schema.safeParse(c.req.query());
  if (!result.success) throw validationFailed(issuesToErrors(result.error.issues));
  return result.data;
}
