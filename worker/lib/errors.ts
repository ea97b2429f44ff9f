/**
 * The one error shape: handlers throw these, app.onError turns them into `{detail}` responses.
 */
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ApiErrorBody } from "../contract/api";

export const SERVER_ERROR_DETAIL = "Server error. Please try again later.";

export function apiError(status: ContentfulStatusCode, body: ApiErrorBody): HTTPException {
  return new HTTPException(status, {
    res: new Response(JSON.stringify(body), {
      status,
      headers: { "content-type": "application/json; charset=UTF-8" },
    }),
  });
}

export const badRequest = (detail: string) => apiError(400, { detail });
export const unauthorized = (detail = "Not authenticated") => apiError(401, { detail });
export const forbidden = (detail = "Forbidden") => apiError(403, { detail });
export const notFound = (detail = "Not found") => apiError(404, { detail });
export const conflict = (detail: string) => apiError(409, { detail });
export const tooManyRequests = (retryAfterSeconds: number, detail = "Too many requests. Please try again later.") =>
  apiError(429, { detail, retry_after: retryAfterSeconds });
export const validationFailed = (errors: { path: string; message: string }[]) =>
  apiError(422, { detail: errors[0]?.message ?? "Invalid input", errors });

/** The errors of a chain (drizzle wraps the D1 error as `cause`). */
function* errorChain(err: unknown): Generator<Error> {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) yield e;
}

/** A database error: its message may carry SQL and bound values (emails, names), so it is never logged. */
export function isDatabaseError(err: unknown): boolean {
  for (const e of errorChain(err)) {
    if (e.name === "DrizzleQueryError" || /^D1_|SQLITE_|constraint failed/.test(e.message)) return true;
  }
  return false;
}

/** SQLite's result code of a database error ("SQLITE_CONSTRAINT"), for logs. */
export function databaseErrorCode(err: unknown): string | null {
  for (const e of errorChain(err)) {
    const code = /\b(SQLITE_[A-Z_]+)\b/.exec(e.message)?.[1];
    if (code) return code;
  }
  return null;
}

/** Two writes raced for one unique value (the same email signing up twice at once). */
export function isUniqueViolation(err: unknown): boolean {
  for (const e of errorChain(err)) if (/UNIQUE constraint failed/.test(e.message)) return true;
  return false;
}

/** A sentence for a status whose error came without one (Hono's own errors, a platform answer). */
export function detailFor(status: number, message = ""): string {
  // Hono's own messages ("Payload Too Large", "Malformed JSON in request body") are plain enough.
  if (message && message.length <= 200 && !message.includes("\n")) return message;
  return DETAILS_BY_STATUS[status] ?? "The request could not be handled.";
}

const DETAILS_BY_STATUS: Record<number, string> = {
  400: "Bad request",
  401: "Not authenticated",
  403: "Forbidden",
  404: "Not found",
  405: "Method not allowed",
  408: "The request took too long. Please try again.",
  409: "Conflict",
  411: "The request needs a Content-Length",
  413: "The request is too large.",
  415: "Unsupported content type",
  422: "Invalid input",
  429: "Too many requests. Please try again later.",
};

/**
 * An error response with the contract's `{detail}`: returned as it is when it has one; a JSON object
 * without it keeps its fields and gains `detail`; any other body (text, HTML, empty) is replaced.
 */
export async function withErrorDetail(res: Response): Promise<Response> {
  let body: unknown = null;
  if ((res.headers.get("content-type") ?? "").includes("json")) {
    try {
      body = await res.clone().json();
    } catch {
      body = null;
    }
  }
  const object = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  if (object && typeof object.detail === "string" && object.detail.trim()) return res;
  const headers = new Headers(res.headers);
  headers.set("content-type", "application/json; charset=UTF-8");
  headers.delete("content-length");
  return new Response(JSON.stringify({ ...object, detail: detailFor(res.status) }), { status: res.status, statusText: res.statusText, headers });
}
