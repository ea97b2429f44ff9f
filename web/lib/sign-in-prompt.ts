import { useSyncExternalStore } from "react";

/** Whether the Sign In popup is open: opened from the navbar, sign-up page or any locked action. */
let open = false;
const listeners = new Set<() => void>();
const set = (value: boolean) => {
  open = value;
  listeners.forEach((l) => l());
};

export const signInPrompt = {
  open: () => set(true),
  close: () => set(false),
};

export function useSignInPrompt(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => open,
    () => false,
  );
}
