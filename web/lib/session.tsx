import { useCallback, useEffect, useSyncExternalStore } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { ProfileResponse } from "@contract/users";
import { TIMINGS } from "@contract/constants";
import { ApiError, apiRequest } from "./api-client";
import { authStore, type Session } from "./auth-store";

export type { Session };

/**
 * The signed-in session (docs/product-rules.md "Session"): it exists only when both a user and a token are
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

/** Cached answers that are the same for everyone and outlive a session (reference data). */
const PUBLIC_QUERY_ROOTS = new Set<unknown>(["universities"]);

export function SessionBootstrap() {
  const queryClient = useQueryClient();
  useEffect(() => {
    void restoreSession();
    // One person's answers (saved searches, favourites, own listings, messages) must not outlive
    // their session in this tab: when the signed-in user changes, only reference data is kept.
    let userId = authStore.get()?.user.id ?? null;
    const unsubscribe = authStore.subscribe(() => {
      const next = authStore.get()?.user.id ?? null;
      if (userId !== null && next !== userId) queryClient.removeQueries({ predicate: (q) => !PUBLIC_QUERY_ROOTS.has(q.queryKey[0]) });
      userId = next;
    });
    return () => void unsubscribe();
  }, [queryClient]);
  return null;
}
