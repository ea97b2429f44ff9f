import { useCallback, useSyncExternalStore } from "react";

/**
 * Whether a CSS media query matches now, following changes (false where matchMedia is missing).
 * A server-rendered page hydrates with `serverMatches` (the server knows no screen), then re-renders.
 */
export function useMediaQuery(query: string, serverMatches = false): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia?.(query);
      list?.addEventListener("change", onChange);
      return () => list?.removeEventListener("change", onChange);
    },
    [query],
  );
  const matches = useCallback(() => window.matchMedia?.(query).matches ?? false, [query]);
  return useSyncExternalStore(subscribe, matches, () => serverMatches);
}
