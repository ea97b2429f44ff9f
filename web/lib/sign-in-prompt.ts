import { useCallback, useSyncExternalStore } from "react";
import { useLocation } from "react-router-dom";
import { useToast } from "../components/ui/toast";

/**
 * What a visitor was doing when Sign In was asked of them: where to go after signing in (a path with
 * its query string) and an action to finish there (favourite the listing they tapped).
 */
export interface SignInIntent {
  returnTo?: string;
  afterSignIn?: () => void;
  /** Prefills the popup's email (sign-up's "account already exists"). */
  email?: string;
}

interface PromptState {
  open: boolean;
  intent: SignInIntent;
}

/** Whether the Sign In popup is open: opened from the navbar, sign-up page or any locked action. */
let state: PromptState = { open: false, intent: {} };
const listeners = new Set<() => void>();
const set = (next: PromptState) => {
  state = next;
  listeners.forEach((l) => l());
};

export const signInPrompt = {
  /** The plain popup (navbar): on success the user goes to / (the product's rule for the navbar's popup). Takes no argument so it can be an onClick. */
  open: () => set({ open: true, intent: {} }),
  /** The popup for a locked page or action: on success the user goes to `returnTo` and `afterSignIn` runs. */
  openFor: (intent: SignInIntent) => set({ open: true, intent }),
  close: () => set({ ...state, open: false }),
  /** Hands the pending intent to whoever completed the sign-in, once. */
  takeIntent: (): SignInIntent => {
    const { intent } = state;
    state = { ...state, intent: {} };
    return intent;
  },
};

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
};
/**
 * The server's snapshot is the store's first state itself, not an equal copy: hydration compares
 * them by identity, and a copy made React re-render the whole page at once, unsliced, right after
 * hydrating it (200 ms at 4x on a phone, docs/decisions/023).
 */
const serverState: PromptState = state;

export function useSignInPrompt(): PromptState {
  return useSyncExternalStore(subscribe, () => state, () => serverState);
}

/**
 * Opens the popup for an action on this page: after signing in the user comes back here (query string
 * included). `prompt` ("Please log in to add favorites") shows as a short toast until the sign-in
 * succeeds; then it goes, so it never covers what the action opens next (a dialog's buttons on a phone).
 */
export function useSignInHere(): (intent?: Omit<SignInIntent, "returnTo"> & { prompt?: string }) => void {
  const { pathname, search, hash } = useLocation();
  const toast = useToast();
  return useCallback(
    ({ prompt, afterSignIn, ...intent } = {}) => {
      const shown = prompt ? toast.show(prompt, { kind: "info", durationMs: 3000 }) : null;
      signInPrompt.openFor({
        ...intent,
        returnTo: pathname + search + hash,
        afterSignIn: () => {
          if (shown !== null) toast.dismiss(shown);
          afterSignIn?.();
        },
      });
    },
    [pathname, search, hash, toast],
  );
}
