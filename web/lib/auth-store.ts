/**
 * The session outside React: the access token, the refresh token and the cached user, kept in
 * localStorage (`auth_token`, `user_data`, plus `refresh_token`). The API client reads the token
 * here; React subscribes through lib/session.tsx. One refresh at a time (single flight).
 */
import type { AuthResponse } from "@contract/auth";
import type { PrivateUser } from "@contract/users";
import { API_BASE } from "../config/env";
import { readJson, readStorage, STORAGE_KEYS, writeStorage } from "./storage";

export const REFRESH_TOKEN_KEY = "refresh_token";
/** When the access token expires, on this device's clock (ms since the epoch), kept next to the token. */
export const TOKEN_EXPIRY_KEY = "auth_token_expires_at";
/** A token this close to its expiry is refreshed before a call goes out. */
export const REFRESH_AHEAD_MS = 60_000;

/** The `exp` and `iat` claims of a JWT (seconds), read without checking the signature; null for anything else. */
export function jwtTimes(token: string): { exp: number; iat: number | null } | null {
  const part = token.split(".")[1];
  if (!part) return null;
  try {
    const json = atob(part.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(part.length / 4) * 4, "="));
    const claims = JSON.parse(json) as { exp?: unknown; iat?: unknown };
    if (typeof claims.exp !== "number") return null;
    return { exp: claims.exp, iat: typeof claims.iat === "number" ? claims.iat : null };
  } catch {
    return null;
  }
}

/**
 * When a token just received expires on this device's clock: its lifetime (exp - iat) from now, so a
 * device clock that is off does not matter; exp itself when the token has no iat; null when not a JWT.
 */
export function expiryOf(token: string, receivedAt = Date.now()): number | null {
  const times = jwtTimes(token);
  if (!times) return null;
  return times.iat !== null ? receivedAt + (times.exp - times.iat) * 1000 : times.exp * 1000;
}

function readExpiry(token: string): number | null {
  const stored = Number(readStorage(TOKEN_EXPIRY_KEY));
  return Number.isFinite(stored) && stored > 0 ? stored : (jwtTimes(token)?.exp ?? 0) * 1000 || null;
}

export interface Session {
  user: PrivateUser;
  token: string;
}

/** The expiry of the session's access token (ms, this device's clock), or null when unknown. */
let expiresAt: number | null = null;

/** The Cache Storage cache of the signed-in account's active deals, for reading offline (lib/saved-deals, docs/decisions/042). */
export const SAVED_DEALS_CACHE = "saved-deals-v1";

/**
 * Forgets what this browser kept of a session: the saved deals, and the pages the service worker kept
 * (docs/decisions/027, 042): a shared computer keeps nothing, and the next account is never shown them.
 */
function forgetDeviceCopies() {
  if (typeof caches !== "undefined") void caches.delete(SAVED_DEALS_CACHE).catch(() => false);
  if (typeof navigator !== "undefined") navigator.serviceWorker?.controller?.postMessage({ type: "clear-pages" });
}

let session: Session | null = readSession();
const listeners = new Set<() => void>();

function readSession(): Session | null {
  const token = readStorage(STORAGE_KEYS.authToken);
  const user = readJson<PrivateUser>(STORAGE_KEYS.userData);
  if (!(token && user && typeof user.id === "string")) return null;
  expiresAt = readExpiry(token);
  return { token, user };
}

function emit() {
  listeners.forEach((listener) => listener());
}

/**
 * Another tab of this browser wrote the session (docs/decisions/008): signed out, signed in as someone
 * else, or rotated the tokens. This tab follows at once, so a tab left open never goes on acting for an
 * account that signed out elsewhere (it kept its token in memory, and its sockets, until reloaded). The
 * `storage` event fires only in the other tabs; `key` is null when a tab cleared the whole storage.
 */
function followOtherTabs(event: StorageEvent) {
  if (event.key !== null && event.key !== STORAGE_KEYS.authToken && event.key !== STORAGE_KEYS.userData) return;
  const next = readSession();
  // Each tab forgets too: the one that signed out may have closed before its own clearing finished.
  if (session && next?.user.id !== session.user.id) forgetDeviceCopies();
  session = next;
  if (!next) expiresAt = null;
  emit();
}
if (typeof window !== "undefined") window.addEventListener("storage", followOtherTabs);

export const authStore = {
  get: (): Session | null => session,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Starts a session from an auth response (sign-in, verified email, Google, refresh). */
  signIn(auth: Pick<AuthResponse, "access_token" | "user"> & { refresh_token?: string }) {
    // Another account over this one (no sign-out between): the first account's copies go.
    if (session && session.user.id !== auth.user.id) forgetDeviceCopies();
    writeStorage(STORAGE_KEYS.authToken, auth.access_token);
    writeStorage(STORAGE_KEYS.userData, JSON.stringify(auth.user));
    if (auth.refresh_token) writeStorage(REFRESH_TOKEN_KEY, auth.refresh_token);
    expiresAt = expiryOf(auth.access_token);
    writeStorage(TOKEN_EXPIRY_KEY, expiresAt === null ? null : String(expiresAt));
    session = { token: auth.access_token, user: auth.user };
    emit();
  },
  /** Replaces the cached user (after a profile fetch or edit). */
  setUser(user: PrivateUser) {
    if (!session) return;
    writeStorage(STORAGE_KEYS.userData, JSON.stringify(user));
    session = { ...session, user };
    emit();
  },
  /** Ends the session locally and tells the server to revoke the refresh token. */
  signOut() {
    const refreshToken = readStorage(REFRESH_TOKEN_KEY);
    writeStorage(STORAGE_KEYS.authToken, null);
    writeStorage(STORAGE_KEYS.userData, null);
    writeStorage(REFRESH_TOKEN_KEY, null);
    writeStorage(TOKEN_EXPIRY_KEY, null);
    expiresAt = null;
    const hadSession = session !== null;
    session = null;
    if (refreshToken) {
      void fetch(`${API_BASE}/auth/logout`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ refresh_token: refreshToken }),
        keepalive: true,
      }).catch(() => {});
    }
    forgetDeviceCopies();
    if (hadSession) emit();
  },
  /** When the access token expires (ms, this device's clock), or null when unknown. */
  expiresAt: (): number | null => (session ? expiresAt : null),
  /** For tests: re-read storage. */
  reload() {
    session = readSession();
    emit();
  },
};

let inflight: Promise<string | null> | null = null;

/**
 * Exchanges the refresh token for a new access token. Resolves to the new token, or null after
 * signing out when the refresh is refused. A network failure keeps the session (null, no sign-out).
 */
export function refreshSession(): Promise<string | null> {
  inflight ??= (async () => {
    const refreshToken = readStorage(REFRESH_TOKEN_KEY);
    if (!refreshToken) {
      authStore.signOut();
      return null;
    }
    let res: Response;
    try {
      res = await fetch(`${API_BASE}/auth/refresh-token`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...(session ? { Authorization: `Bearer ${session.token}` } : {}) },
        body: JSON.stringify({ refresh_token: refreshToken }),
      });
    } catch {
      return null;
    }
    if (!res.ok) {
      authStore.signOut();
      return null;
    }
    const auth = (await res.json()) as AuthResponse;
    authStore.signIn(auth);
    return auth.access_token;
  })().finally(() => {
    inflight = null;
  });
  return inflight;
}

/**
 * The access token to send now: one that expires within REFRESH_AHEAD_MS (or has
 * expired) is refreshed first, through the one refresh in flight that every parallel call shares, so
 * no call goes out with a token about to be refused. A refresh that fails on the network keeps the
 * old token (the call's own 401 handling follows); a refused one signs out (null).
 */
export async function currentToken(now = Date.now()): Promise<string | null> {
  const current = session;
  if (!current) return null;
  if (inflight) return inflight.then((token) => token ?? session?.token ?? null);
  if (expiresAt === null || expiresAt - now > REFRESH_AHEAD_MS || !readStorage(REFRESH_TOKEN_KEY)) return current.token;
  const fresh = await refreshSession();
  return fresh ?? session?.token ?? null;
}
