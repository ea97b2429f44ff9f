/** Where the API lives: the same origin as the SPA (the worker serves both). */
export const API_BASE = "/api/v1";
export const APP_VERSION = __APP_VERSION__;
export const SUPPORT_EMAIL = "support@campusnest.app";
