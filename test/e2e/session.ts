/**
 * Signing in for browser tests: through the real API, then the session is handed to the page the
 * way the SPA keeps it (auth_token, refresh_token, user_data; admin_token for the staff panel).
 */
import type { BrowserContext, Page } from "playwright-core";

export interface AuthSession {
  access_token: string;
  refresh_token: string;
  user: { id: string; first_name: string } & Record<string, unknown>;
}

/** Calls the API from Node (each caller its own address, so per-address throttles never meet). */
export async function apiCall<T>(baseUrl: string, path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${baseUrl}/api/v1/${path}`, {
    ...init,
    headers: { "content-type": "application/json", "cf-connecting-ip": `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`, ...(init.headers as Record<string, string>) },
  });
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

export const apiLogin = (baseUrl: string, email: string, password: string) =>
  apiCall<AuthSession>(baseUrl, "auth/login", { method: "POST", body: JSON.stringify({ email, password }) });

/** Every page of this context starts signed in as `session` (unless the page changed it since). */
export async function signInContext(context: BrowserContext, session: AuthSession) {
  await context.addInitScript((s) => {
    if (sessionStorage.getItem("e2e-signed-in")) return;
    sessionStorage.setItem("e2e-signed-in", "1");
    localStorage.setItem("auth_token", s.access_token);
    localStorage.setItem("refresh_token", s.refresh_token);
    localStorage.setItem("user_data", JSON.stringify(s.user));
  }, session);
}

/** Signs the open page in (it must be on our origin), for tests that switch users mid-way. */
export async function signInPage(page: Page, session: AuthSession) {
  await page.evaluate((s) => {
    localStorage.setItem("auth_token", s.access_token);
    localStorage.setItem("refresh_token", s.refresh_token);
    localStorage.setItem("user_data", JSON.stringify(s.user));
  }, session);
}

/** The staff panel of this context starts signed in. */
export async function signInAdmin(context: BrowserContext, baseUrl: string) {
  const { token } = await apiCall<{ token: string }>(baseUrl, "admin/login", { method: "POST", body: JSON.stringify({ password: "admin-dev-password" }) });
  await context.addInitScript((t) => localStorage.setItem("admin_token", t), token);
  return token;
}

/** A public demo listing, and one of the demo lister's own. */
export async function demoListingIds(baseUrl: string) {
  const browse = await apiCall<{ data: { id: string }[] }>(baseUrl, "subleases/?limit=1");
  const lister = await apiLogin(baseUrl, "lister@campusnest.dev", "lister-demo-123");
  const own = await apiCall<{ data: { id: string; verification_status: string; status: string; moderation_status: string }[] }>(baseUrl, "users/listings?include_unavailable=true", {
    headers: { Authorization: `Bearer ${lister.access_token}` },
  });
  // A public one: other files running at the same time add pending listings and pause or take others.
  const live = own.data.find((l) => l.verification_status === "approved" && l.status === "available" && l.moderation_status === "visible");
  return { anyListing: browse.data[0]!.id, listerListing: (live ?? own.data[0]!).id };
}
