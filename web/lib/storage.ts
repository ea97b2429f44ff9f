/**
 * The client's stored keys (docs/product-rules.md "What the browser keeps"): auth_token, user_data, darkMode.
 * Storage can throw (private mode, quota); the app keeps working without it.
 */
export const STORAGE_KEYS = {
  authToken: "auth_token",
  userData: "user_data",
  darkMode: "darkMode",
} as const;

export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage unavailable: the value lives for this page only.
  }
}

export function readJson<T>(key: string): T | null {
  const raw = readStorage(key);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}
