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

export interface Session {
  user: PrivateUser;
  token: string;
}

let session: Session | null = readSession();
const listeners = new Set<() => void>();

function readSession(): Session | null {
  const token = readStorage(STORAGE_KEYS.authToken);
  const user = readJson<PrivateUser>(STORAGE_KEYS.userData);
  return token && user && typeof user.id === "string" ? { token, user } : null;
}

function emit() {
  listeners.forEach((listener) => listener());
}

export const authStore = {
  get: (): Session | null => session,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Starts a session from an auth response (sign-in, verified email, Google, refresh). */
  signIn(auth: Pick<AuthResponse, "access_token" | "user"> & { refresh_token?: string }) {
    writeStorage(STORAGE_KEYS.authToken, auth.access_token);
    writeStorage(STORAGE_KEYS.userData, JSON.stringify(auth.user));
    if (auth.refresh_token) writeStorage(REFRESH_TOKEN_KEY, auth.refresh_token);
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
    if (hadSession) emit();
  },
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
