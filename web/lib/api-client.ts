/**
 * The one place the SPA talks to the API: base URL, JSON, the bearer token, and errors turned
 * into ApiError with the server's `detail` (or a message a person can read).
 * Session rules (refresh on 401 and retry once) hook in through setAuthHandlers().
 */
import type { ApiErrorBody } from "@contract/api";
import { API_BASE } from "../config/env";

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

interface AuthHandlers {
  getToken: () => string | null;
  /** Called once on a 401; resolves to a new token, or null when the session is over. */
  refresh: () => Promise<string | null>;
}
let auth: AuthHandlers = { getToken: () => null, refresh: async () => null };

export function setAuthHandlers(handlers: AuthHandlers) {
  auth = handlers;
}

export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  /** Send the bearer token (default true when one exists). */
  auth?: boolean;
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

async function send(path: string, options: RequestOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    return await fetch(buildUrl(path, options.query), {
      method: options.method ?? "GET",
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  }
}

async function toError(res: Response): Promise<ApiError> {
  let body: ApiErrorBody | null = null;
  try {
    body = (await res.json()) as ApiErrorBody;
  } catch {
    body = null;
  }
  const detail = typeof body?.detail === "string" && body.detail ? body.detail : null;
  return new ApiError(res.status, detail ?? (res.status >= 500 ? SERVER_ERROR_MESSAGE : `Request failed (${res.status})`), body);
}

/** Calls `API_BASE/path` and returns the parsed JSON (undefined for 204). Throws ApiError. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const useAuth = options.auth !== false;
  let res = await send(path, options, useAuth ? auth.getToken() : null);
  if (res.status === 401 && useAuth && auth.getToken()) {
    const fresh = await auth.refresh();
    if (fresh) res = await send(path, options, fresh);
  }
  if (!res.ok) throw await toError(res);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/** A person-readable message for any error a call may throw. */
export function errorMessage(err: unknown, fallback = "Something went wrong. Please try again."): string {
  if (err instanceof ApiError) return err.message;
  return fallback;
}
