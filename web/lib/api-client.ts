/**
 * The one place the SPA talks to the API: base URL, JSON, the bearer token, and errors turned
 * into ApiError with the server's `detail` (or a message a person can read).
 * Session rule (docs/product-rules.md "Session"): a token near its expiry is refreshed before the call goes out (one
 * refresh shared by every call made meanwhile); a 401 still triggers one token
 * refresh and one retry; a failed refresh signs the user out (lib/auth-store.ts).
 */
import type { ApiErrorBody } from "@contract/api";
import { TIMINGS } from "@contract/constants";
import { API_BASE } from "../config/env";
import { authStore, currentToken, refreshSession } from "./auth-store";
import { OFFLINE_READ, reportReach } from "./online";

export const NETWORK_ERROR_MESSAGE = "Unable to connect to server. Please check your internet connection.";
export const SERVER_ERROR_MESSAGE = "Server error. Please try again later.";

export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    /** HTTP status; 0 when the request never got an answer. */
    readonly status: number,
    message: string,
    readonly body: ApiErrorBody | null = null,
  ) {
    super(message);
  }
  get isNetworkError() {
    return this.status === 0;
  }
}


export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  /** Send the session's bearer token (default true when one exists). */
  auth?: boolean;
  /** Send this bearer token instead of the session's (the staff panel's admin token); no refresh on 401. */
  bearer?: string | null;
  /** Extra request headers (a write's `Idempotency-Key`). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export function buildUrl(path: string, query?: RequestOptions["query"]): string {
  const url = `${API_BASE}/${path.replace(/^\//, "")}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

/**
 * How a call reaches the API: the browser's fetch, or, while the worker renders a page on the
 * server (web/app/ssr.tsx), the worker's own app answering in-process.
 */
export type ApiTransport = (url: string, init: RequestInit) => Promise<Response>;
let transport: ApiTransport = (url, init) => fetch(url, init);
export function setApiTransport(next: ApiTransport) {
  transport = next;
}

/**
 * Read-your-writes (docs/decisions/016): the D1 bookmark answered to this tab's newest write is sent
 * back on its calls for TIMINGS.d1BookmarkMs, so they read a database copy that has the write and
 * skip the edge cache. In memory only, and only in the browser (never in a server-rendered page).
 */
const D1_BOOKMARK_HEADER = "x-d1-bookmark";
let bookmark: { value: string; until: number } | null = null;

function currentBookmark(): string | null {
  if (bookmark && Date.now() >= bookmark.until) bookmark = null;
  return bookmark?.value ?? null;
}

function rememberBookmark(method: string, res: Response) {
  const value = res.headers.get(D1_BOOKMARK_HEADER);
  if (method !== "GET" && value && typeof window !== "undefined") bookmark = { value, until: Date.now() + TIMINGS.d1BookmarkMs };
}

async function send(path: string, options: RequestOptions, token: string | null): Promise<Response> {
  const method = options.method ?? "GET";
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const held = currentBookmark();
  if (held) headers[D1_BOOKMARK_HEADER] = held;
  try {
    const res = await transport(buildUrl(path, options.query), {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
    rememberBookmark(method, res);
    reportReach(true);
    return res;
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    reportReach(false);
    // A read while the browser says it is offline says so plainly (docs/decisions/042); what the device saved answers it first (lib/saved-deals).
    throw new ApiError(0, method === "GET" && typeof navigator !== "undefined" && navigator.onLine === false ? OFFLINE_READ : NETWORK_ERROR_MESSAGE);
  }
}

export async function toError(res: Response): Promise<ApiError> {
  let body: ApiErrorBody | null = null;
  try {
    body = (await res.json()) as ApiErrorBody;
  } catch {
    body = null;
  }
  return apiErrorFrom(res.status, body);
}

/** The ApiError for an answer's status and body (also rebuilds errors that came with a server-rendered page). */
export function apiErrorFrom(status: number, body: ApiErrorBody | null): ApiError {
  const detail = typeof body?.detail === "string" && body.detail ? body.detail : null;
  return new ApiError(status, detail ?? (status >= 500 ? SERVER_ERROR_MESSAGE : `Request failed (${status})`), body);
}

/**
 * The token to retry with after `refused` got a 401: the session's newer one when another call has
 * already refreshed meanwhile, else a refresh (shared with any in flight).
 */
export async function renewedToken(refused: string): Promise<string | null> {
  const now = authStore.get()?.token ?? null;
  if (now && now !== refused) return now;
  return refreshSession();
}

/** The successful response of a call (after one refresh-and-retry on 401), or ApiError. */
async function request(path: string, options: RequestOptions): Promise<Response> {
  if (options.bearer !== undefined) {
    const res = await send(path, options, options.bearer);
    if (!res.ok) throw await toError(res);
    return res;
  }
  const token = options.auth !== false ? await currentToken() : null;
  let res = await send(path, options, token);
  if (res.status === 401 && token) {
    const fresh = await renewedToken(token);
    if (fresh) res = await send(path, options, fresh);
  }
  if (!res.ok) {
    const error = await toError(res);
    // A suspended account (docs/decisions/015): the server refuses every call of the session, so it ends here.
    if (token && error.status === 403 && error.body?.code === "account_suspended") authStore.signOut();
    throw error;
  }
  return res;
}

/** Calls `API_BASE/path` and returns the parsed JSON (undefined for 204). Throws ApiError. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const res = await request(path, options);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/** The parsed JSON with the answer's headers (a list whose next cursor comes in a header: staff's feedback). Throws ApiError. */
export async function apiResponse<T>(path: string, options: RequestOptions = {}): Promise<{ body: T; headers: Headers }> {
  const res = await request(path, options);
  return { body: (res.status === 204 ? undefined : await res.json()) as T, headers: res.headers };
}

/** Calls `API_BASE/path` for a file (a private document for staff). Throws ApiError. */
export async function apiBlob(path: string, options: RequestOptions = {}): Promise<Blob> {
  return (await request(path, options)).blob();
}

/** A person-readable message for any error a call may throw. */
export function errorMessage(err: unknown, fallback = "Something went wrong. Please try again."): string {
  if (err instanceof ApiError) return err.message;
  return fallback;
}
