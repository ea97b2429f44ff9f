/**
 * Signing in for browser tests: through the real API, then the session is handed to the page the
 * way the SPA keeps it (auth_token, refresh_token, user_data; admin_token for the staff panel).
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";

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

/** A new browser context signed in as `session`, with its page (for journeys with two people at once). */
export async function signedInSide(browser: Browser, baseUrl: string, session: AuthSession, viewport = { width: 1280, height: 900 }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, baseURL: baseUrl });
  await signInContext(context, session);
  return { context, page: await context.newPage() };
}

/** Types a message in the open conversation, sends it with Enter, and waits for it in the thread. */
export async function sendInThread(page: Page, text: string) {
  const box = page.getByRole("textbox", { name: /message/i });
  await box.fill(text);
  await box.press("Enter");
  await page.getByRole("log").getByText(text).waitFor();
  // Stored, not only shown: the bubble appears at once, before the server has the message.
  await page.getByRole("log").getByText("Sending…").waitFor({ state: "detached" });
}

/** The smallest JPEG (1x1), base64: a real photo for uploads. */
export const JPEG_1X1 =
  "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAAA//EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AN//Z";

/** A new listing of `lister`'s (at their university unless told), pending review, with `photos` photos; its id. */
export async function createPendingListing(
  baseUrl: string,
  lister: AuthSession,
  title: string,
  { photos = 1, universityId = Number(lister.user.university_id), description = "Waiting for review" }: { photos?: number; universityId?: number; description?: string } = {},
): Promise<string> {
  const auth = { Authorization: `Bearer ${lister.access_token}` };
  const images = Array.from({ length: photos }, (_, i) => ({ filename: `${i}.jpg`, content_type: "image/jpeg", image_data: `data:image/jpeg;base64,${JPEG_1X1}` }));
  const upload = await apiCall<{ uploaded_files: { url: string }[] }>(baseUrl, "upload/multiple-base64", { method: "POST", headers: auth, body: JSON.stringify({ images }) });
  const created = await apiCall<{ data: { id: string } }>(baseUrl, "subleases/", {
    method: "POST",
    headers: auth,
    body: JSON.stringify({
      title,
      description,
      unit_type: "studio",
      monthly_rent: 640,
      address: "9 Review Rd",
      lease_term: "summer",
      university_id: universityId,
      pictures: upload.uploaded_files.map((f) => f.url),
    }),
  });
  return created.data.id;
}

/** A new student, signed up and email-verified through the API (the code from the dev mailbox). */
export async function newStudent(baseUrl: string, first: string, password = "student-pass-123"): Promise<AuthSession & { email: string }> {
  const email = `${first.toLowerCase()}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@ufl.edu`;
  await apiCall(baseUrl, "auth/register", { method: "POST", body: JSON.stringify({ email, password, first_name: first, last_name: "Tester" }) });
  const mails = await apiCall<{ data: { text: string }[] }>(baseUrl, `dev/emails?to=${encodeURIComponent(email)}`);
  const code = /\b(\d{6})\b/.exec(mails.data[0]!.text)![1];
  const session = await apiCall<AuthSession>(baseUrl, "auth/verify-email", { method: "POST", body: JSON.stringify({ email, code }) });
  return { ...session, email };
}

/** A stay `renter` may request on `listingId`: its dates from today on, or a month from tomorrow when it has none. */
export async function requestableStay(baseUrl: string, listingId: string): Promise<{ move_in: string; move_out: string }> {
  const { data } = await apiCall<{ data: { available_from: string | null; available_to: string | null } }>(baseUrl, `subleases/${listingId}`);
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const earliest = day(2);
  const from = data.available_from && data.available_from > earliest ? data.available_from : earliest;
  const to = data.available_to && data.available_to > from ? data.available_to : day(Math.max(40, (Date.parse(from) - Date.now()) / 86_400_000 + 35));
  return { move_in: from, move_out: to };
}

/** `renter` requests the listing through the API (the SPA's own journey is in deals.test.ts); answers the deal. */
export async function requestDeal(baseUrl: string, renter: AuthSession, listingId: string) {
  const stay = await requestableStay(baseUrl, listingId);
  return apiCall<{ data: { id: string } }>(baseUrl, "deals", {
    method: "POST",
    headers: { Authorization: `Bearer ${renter.access_token}` },
    body: JSON.stringify({ listing_id: listingId, ...stay }),
  }).then((r) => r.data);
}

/** The 6-digit code of the newest email to `email` with that subject, sent at or after `since` (the dev mailbox), waited for. */
export async function emailedCode(baseUrl: string, email: string, subject: string, since: number): Promise<string> {
  let code = "";
  await expect
    .poll(
      async () => {
        const { data } = await apiCall<{ data: { subject: string; text: string; created_at: string }[] }>(baseUrl, `dev/emails?to=${encodeURIComponent(email)}`);
        const mail = data.find((m) => m.subject === subject && Date.parse(m.created_at) >= since - 5_000);
        code = mail?.text.match(/\b(\d{6})\b/)?.[1] ?? "";
        return code;
      },
      { timeout: 15_000 },
    )
    .toMatch(/^\d{6}$/);
  return code;
}
