/** Where the API lives: the same origin as the SPA (the worker serves both). */
export const API_BASE = "/api/v1";
/** Built in by Vite; the worker's server render has no such define and sets the version query instead. */
export const APP_VERSION = typeof __APP_VERSION__ === "string" ? __APP_VERSION__ : "";
/** The query that holds the server's version (the footer shows it; the server render fills it). */
export const VERSION_QUERY_KEY = ["version"] as const;
export const SUPPORT_EMAIL = "support@campusnest.app";
