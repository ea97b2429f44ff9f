import { createContext, useCallback, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from "react";
import { readStorage, STORAGE_KEYS, writeStorage } from "./storage";

/**
 * Light/dark theme, applied as the `dark` class on <html>. The student's choice is stored under
 * `darkMode` ("true"/"false") only once they toggle; until then the device's setting
 * (prefers-color-scheme) decides, live. the inline script of contract/theme-init.ts applies the same rule before first paint.
 */
interface ThemeValue {
  dark: boolean;
  toggle: () => void;
}

const DEVICE_DARK = "(prefers-color-scheme: dark)";
const deviceMedia = () => (typeof window !== "undefined" && typeof window.matchMedia === "function" ? window.matchMedia(DEVICE_DARK) : null);

/** The theme outside React: the stored choice wins, else the device. */
const listeners = new Set<() => void>();
const themeStore = {
  dark(): boolean {
    const stored = readStorage(STORAGE_KEYS.darkMode);
    return stored === null ? (deviceMedia()?.matches ?? false) : stored === "true";
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    const media = deviceMedia();
    media?.addEventListener("change", listener);
    return () => {
      listeners.delete(listener);
      media?.removeEventListener("change", listener);
    };
  },
  choose(dark: boolean) {
    writeStorage(STORAGE_KEYS.darkMode, String(dark));
    listeners.forEach((listener) => listener());
  },
};

function applyTheme() {
  const dark = themeStore.dark();
  document.documentElement.classList.toggle("dark", dark);
  document.documentElement.style.colorScheme = dark ? "dark" : "light";
}

const ThemeContext = createContext<ThemeValue | null>(null);
const lightOnServer = () => false;

export function ThemeProvider({ children }: { children: ReactNode }) {
  // A server-rendered page hydrates in the light theme's words (the toggle's label), then re-renders;
  // the page's colours never wait for React: the inline theme script set them, and applyTheme reads the store.
  const dark = useSyncExternalStore(themeStore.subscribe, themeStore.dark, lightOnServer);

  useEffect(() => {
    applyTheme();
    return themeStore.subscribe(applyTheme);
  }, []);

  const toggle = useCallback(() => themeStore.choose(!themeStore.dark()), []);
  const value = useMemo(() => ({ dark, toggle }), [dark, toggle]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeValue {
  const value = useContext(ThemeContext);
  if (!value) throw new Error("useTheme outside ThemeProvider");
  return value;
}
