/**
 * The Content-Security-Policy of every response. The SPA is built by Vite without inline scripts,
 * so 'self' is enough for scripts; React sets inline styles through the CSSOM, which CSP allows.
 * Google Identity Services (sign-in button) is the one third-party script and frame.
 */
export function contentSecurityPolicy(viteDevServer = false): string {
  // Only under `npm run dev` (DEV_SERVER=vite, set by vite.config.ts): Vite's hot-reload client
  // injects an inline preamble, <style> tags and blob workers. Built bundles never need this.
  const devScripts = viteDevServer ? " 'unsafe-inline' blob:" : "";
  const devStyles = viteDevServer ? " 'unsafe-inline'" : "";
  return [
    "default-src 'self'",
    `script-src 'self' https://accounts.google.com/gsi/client${devScripts}`,
    `style-src 'self' https://accounts.google.com/gsi/style${devStyles}`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self' https://accounts.google.com/gsi/",
    "frame-src https://accounts.google.com/gsi/",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Headers set on every response the worker sends (API, SPA pages and static files). */
export function securityHeaders(viteDevServer = false): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(viteDevServer),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
    "Cross-Origin-Opener-Policy": "same-origin-allow-popups",
    // Browsers ignore HSTS received over plain http (localhost); in production it pins HTTPS.
    "Strict-Transport-Security": "max-age=63072000; includeSubDomains",
  };
}
