import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { readStorage, STORAGE_KEYS, writeStorage } from "./storage";

/**
 * Light/dark theme, applied as the `dark` class on <html>. The student's choice is stored under
 * `darkMode` ("true"/"false") only once they toggle; until then the device's setting
 * (prefers-color-scheme) decides, live. public/theme-init.js applies the same rule before first paint.
 */
interface ThemeValue {
  dark: boolean;
  toggle: () => void;
}

const DEVICE_DARK = "(prefers-color-scheme: dark)";
const deviceMedia = () => (typeof window.matchMedia === "function" ? window.matchMedia(DEVICE_DARK) : null);

function storedChoice(): boolean | null {
  const stored = readStorage(STORAGE_KEYS.darkMode);
  return stored === null ? null : stored === "true";
}

const ThemeContext = createContext<ThemeValue | null>(null);

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [choice, setChoice] = useState(storedChoice);
  const [deviceDark, setDeviceDark] = useState(() => deviceMedia()?.matches ?? false);
  const dark = choice ?? deviceDark;

  useEffect(() => {
    if (choice !== null) return;
    const media = deviceMedia();
    if (!media) return;
    const onChange = () => setDeviceDark(media.matches);
    media.addEventListener("change", onChange);
    return () => media.removeEventListener("change", onChange);
  }, [choice]);

  useEffect(() => {
    document.documentElement.classList.toggle("dark", dark);
    document.documentElement.style.colorScheme = dark ? "dark" : "light";
  }, [dark]);

  const toggle = useCallback(() => {
    const next = !dark;
    writeStorage(STORAGE_KEYS.darkMode, String(next));
    setChoice(next);
  }, [dark]);
  const value = useMemo(() => ({ dark, toggle }), [dark, toggle]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeValue {
  const value = useContext(ThemeContext);
  if (!value) throw new Error("useTheme outside ThemeProvider");
  return value;
}
