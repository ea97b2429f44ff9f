import { useCallback, useEffect, useSyncExternalStore } from "react";
import type { ProfileResponse } from "@contract/users";
import { TIMINGS } from "@contract/constants";
import { ApiError, apiRequest } from "./api-client";
import { authStore, type Session } from "./auth-store";

export type { Session };

/**
 * The signed-in session (spec, section 4): it exists only when both a user and a token are
 * present. useSession() reads it; SessionBootstrap checks a restored session once at startup.
 */
const signedOut = () => null;

export function useSession() {
  // A server-rendered page is always the visitor's view (the session lives in localStorage): hydrate
  // as signed out, then React re-renders with the stored session.
  const session = useSyncExternalStore(authStore.subscribe, authStore.get, signedOut);
  const signOut = useCallback(() => authStore.signOut(), []);
  return { session, signIn: authStore.signIn, signOut, setUser: authStore.setUser };
}

export const fetchProfile = () => apiRequest<ProfileResponse>("users/profile").then((r) => r.data);

/**
 * On startup with a stored session: fetch the profile. Success refreshes the cached user; a non-OK
 * answer (after the client's one refresh-and-retry) clears the session; a network error keeps the
 * cached user and tries once more after 1 s.
 */
export async function restoreSession(retryDelayMs: number = TIMINGS.profileRetryMs): Promise<void> {
  if (!authStore.get()) return;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      authStore.setUser(await fetchProfile());
      return;
    } catch (err) {
      if (err instanceof ApiError && err.isNetworkError) {
        if (attempt === 0) await new Promise((r) => setTimeout(r, retryDelayMs));
        continue;
      }
      authStore.signOut();
      return;
    }
  }
}

export function SessionBootstrap() {
  useEffect(() => {
    void restoreSession();
  }, []);
  return null;
}
