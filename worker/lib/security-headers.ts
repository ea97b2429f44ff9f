import { createHash } from "node:crypto";
import { THEME_INIT_SCRIPT } from "../contract/theme-init";
/** The one inline script (the theme before first paint), allowed by its hash, not by 'unsafe-inline'. */
const THEME_INIT_HASH = `'sha256-${createHash("sha256").update(THEME_INIT_SCRIPT).digest("base64")}'`;

/**
 * The Content-Security-Policy of every response. The SPA is built by Vite with one inline script,
 * allowed by its hash; 'self' covers the rest. React sets inline styles through the CSSOM, which CSP
 * allows (server-rendered markup carries no style attribute). Google Identity Services (sign-in
 * button) is the one third-party script and frame.
 */

export function contentSecurityPolicy(viteDevServer = false): string {
  // Only under `npm run dev` (DEV_SERVER=vite, set by vite.config.ts): Vite's hot-reload client
  // injects an inline preamble, <style> tags and blob workers. Built bundles never need this.
  const devScripts = viteDevServer ? " 'unsafe-inline' blob:" : "";
  const devStyles = viteDevServer ? " 'unsafe-inline'" : "";
  return [
    "default-src 'self'",
    // Not in dev: with a hash present, browsers ignore the 'unsafe-inline' Vite's preamble needs.
    `script-src 'self'${viteDevServer ? "" : ` ${THEME_INIT_HASH}`} https://accounts.google.com/gsi/client${devScripts}`,
    `style-src 'self' https://accounts.google.com/gsi/style${devStyles}`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self' https://accounts.google.com/gsi/",
    "frame-src https://accounts.google.com/gsi/",
    // The service worker and the web app manifest (docs/decisions/027), same origin only.
    "worker-src 'self'",
    "manifest-src 'self'",
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
