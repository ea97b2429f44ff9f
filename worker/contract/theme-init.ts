/**
 * `js` on <html> says scripts run: what only works with them (the phone's Filters fold) is styled under
 * it, so without JavaScript every filter shows (docs/decisions/023).
 * The theme applied before first paint, so a dark-mode student never sees a light flash: the stored
 * choice (`darkMode`) wins; without one, the device's setting (same rule as web/lib/theme.tsx). It is
 * inlined into index.html by vite.config.ts (no request on the critical path), and allowed by the
 * Content-Security-Policy by its hash (worker/lib/security-headers.ts), never by 'unsafe-inline'.
 */
export const THEME_INIT_SCRIPT =
  'document.documentElement.classList.add("js");try{var s=localStorage.getItem("darkMode");var d=s===null?window.matchMedia("(prefers-color-scheme: dark)").matches:s==="true";' +
  'if(d){document.documentElement.classList.add("dark");document.documentElement.style.colorScheme="dark"}}catch(e){}';
