/**
 * The single-page app's route patterns (web/app/router.tsx), shared so the worker can answer an
 * address the app does not know with HTTP 404 while still sending the app's shell,
 * which shows the not-found page. test/web/app/spa-paths.test.tsx keeps this list and the router in step.
 * `:name` stands for one path segment.
 */
export const SPA_PATH_PATTERNS = [
  "/",
  "/listing/:id",
  "/signup",
  "/profile",
  "/favorites",
  "/messages",
  "/create",
  "/edit/:id",
  "/promote",
  "/billing",
  "/verification",
  "/support",
  "/availability",
  "/unsubscribe",
  "/terms",
  "/safety",
  "/deals/:id",
  "/landlord-consent/:token",
  "/staff",
] as const;

const segments = (path: string) => path.split("/").filter(Boolean);

/** Whether the app has a page at `pathname` (as React Router matches: any case, a trailing slash allowed). */
export function isSpaPath(pathname: string): boolean {
  let parts: string[];
  try {
    parts = segments(decodeURIComponent(pathname).toLowerCase());
  } catch {
    return false;
  }
  return SPA_PATH_PATTERNS.some((pattern) => {
    const want = segments(pattern);
    return want.length === parts.length && want.every((seg, i) => (seg.startsWith(":") ? parts[i]!.length > 0 : seg === parts[i]));
  });
}
