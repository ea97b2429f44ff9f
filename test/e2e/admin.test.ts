import { describe, expect, it } from "vitest";
import { useBrowser } from "./fixtures";
import { apiLogin, createPendingListing } from "./session";

const b = useBrowser();

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${b.baseUrl}/api/v1/${path}`, {
    ...init,
    headers: { "content-type": "application/json", "cf-connecting-ip": `10.7.${Math.floor(Math.random() * 200)}.2`, ...(init.headers as Record<string, string>) },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function adminLogin() {
  const { page } = b;
  await page.goto("/staff");
  await page.getByLabel("Admin password").waitFor();
  expect(await page.title()).toBe("Admin Panel");
  await page.getByLabel("Admin password").fill("wrong-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect.poll(() => page.getByLabel("Admin password").inputValue()).toBe("");
  await page.getByLabel("Admin password").fill("admin-dev-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("tab", { name: "Dashboard" }).waitFor();
}

describe("the staff panel in Chromium", () => {
  it("approves a student's new listing, which then appears on the browse page", async () => {
    const { page } = b;
    const lister = await apiLogin(b.baseUrl, "lister@campusnest.dev", "lister-demo-123");
    const title = `Panel approval ${Date.now() % 100000}`;
    await createPendingListing(b.baseUrl, lister, title);

    await adminLogin();
    await page.getByRole("tab", { name: "Listings" }).click();
    await page.getByRole("tab", { name: "Pending" }).click();
    const tile = page.locator(".admin-tile", { hasText: title });
    await tile.getByRole("button", { name: "Approve" }).click();
    await page.getByText("Listing approved successfully!").waitFor();

    await page.goto(`/?q=${encodeURIComponent("Panel approval")}`);
    await page.getByRole("heading", { name: title }).waitFor();
  });

  it("sends its token as a bearer header, never in a URL, and logout ends it on the server", async () => {
    const { page } = b;
    const staffCalls: { url: string; authorization?: string }[] = [];
    page.on("request", (req) => {
      if (req.url().includes("/api/v1/admin/") || req.url().includes("/api/v1/verification/admin/")) {
        staffCalls.push({ url: req.url(), authorization: req.headers()["authorization"] });
      }
    });
    await adminLogin();
    for (const tab of ["Users", "Listings", "Feedback"]) {
      await page.getByRole("tab", { name: tab, exact: true }).click();
      await page.waitForLoadState("networkidle");
    }
    const token = await page.evaluate(() => localStorage.getItem("admin_token"));
    expect(token).toBeTruthy();
    const signedIn = staffCalls.filter((call) => !call.url.endsWith("/admin/login"));
    expect(signedIn.length).toBeGreaterThan(3);
    expect(signedIn.filter((call) => call.url.includes("token=") || call.authorization !== `Bearer ${token}`)).toEqual([]);
    const stats = () => fetch(`${b.baseUrl}/api/v1/admin/stats`, { headers: { Authorization: `Bearer ${token}` } });
    expect((await stats()).status).toBe(200);
    await page.getByRole("button", { name: "Logout" }).click();
    await page.getByLabel("Admin password").waitFor();
    await expect.poll(async () => (await stats()).status).toBe(401);
  });

  it("rejects an identity request with a reason that the student then sees", async () => {
    const { page } = b;
    const email = `idreject.${Date.now()}@ufl.edu`;
    await api("auth/register", { method: "POST", body: JSON.stringify({ email, password: "secret-pass-1", first_name: "Ida", last_name: "Reject" }) });
    const mails = await api<{ data: { text: string }[] }>(`dev/emails?to=${encodeURIComponent(email)}`);
    const code = /\b(\d{6})\b/.exec(mails.data[0]!.text)![1];
    const session = await api<{ access_token: string; refresh_token: string; user: unknown }>("auth/verify-email", { method: "POST", body: JSON.stringify({ email, code }) });
    const auth = { Authorization: `Bearer ${session.access_token}` };
    const pdf = Buffer.from("%PDF-1.4\n%%EOF\n").toString("base64");
    const doc = await api<{ id_document_url: string }>("verification/upload-document", { method: "POST", headers: auth, body: JSON.stringify({ filename: "id.pdf", image_data: pdf }) });
    await api("verification/submit-url", { method: "POST", headers: auth, body: JSON.stringify({ document_type: "student_id", id_document_url: doc.id_document_url }) });

    await adminLogin();
    await page.getByRole("tab", { name: "Users" }).click();
    await page.getByRole("tab", { name: "Pending" }).click();
    const card = page.locator(".admin-user", { hasText: email });
    await card.getByRole("button", { name: "Reject" }).click();
    const dialog = page.getByRole("dialog", { name: "Reject verification" });
    await dialog.getByRole("button", { name: "Reject" }).click();
    await dialog.getByText("Please provide a reason for rejection").waitFor();
    await dialog.getByLabel("Reason").fill("The photo is too blurry to read");
    await dialog.getByRole("button", { name: "Reject" }).click();
    await page.getByText("Verification rejected").waitFor();

    await page.goto("/support");
    await page.evaluate((s) => {
      localStorage.setItem("auth_token", s.access_token);
      localStorage.setItem("refresh_token", s.refresh_token);
      localStorage.setItem("user_data", JSON.stringify(s.user));
    }, session);
    await page.goto("/verification");
    await page.getByText("The photo is too blurry to read").waitFor();
  });

  it("feedback sent from the widget shows up in the panel and can be archived", async () => {
    const { page } = b;
    const message = `Widget feedback ${Date.now()}`;
    await page.goto("/");
    await page.getByRole("button", { name: "Feedback" }).click();
    const dialog = page.getByRole("dialog", { name: "Send feedback" });
    await dialog.getByRole("button", { name: "Send feedback" }).click();
    await dialog.getByText("Please fill in all fields").waitFor();
    await dialog.getByLabel("Email").fill("fan@ufl.edu");
    await dialog.getByLabel("Message").fill(message);
    await dialog.getByRole("button", { name: "Send feedback" }).click();
    await dialog.getByText("Thanks! Your feedback was sent.").waitFor();

    await adminLogin();
    await page.getByRole("tab", { name: "Feedback" }).click();
    const card = page.locator("li", { hasText: message });
    await card.getByRole("button", { name: "Archive" }).click();
    await card.waitFor({ state: "detached" });
    await page.getByRole("tab", { name: "Archive" }).click();
    await page.locator("li", { hasText: message }).waitFor();
  });
});
