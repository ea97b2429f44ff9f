import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { useBrowser } from "./fixtures";

const b = useBrowser({ width: 390, height: 844 });

/** The code in the newest email to `email`, once the dev mailbox has it. */
async function latestCode(email: string): Promise<string> {
  return vi.waitFor(
    async () => {
      const res = await fetch(`${b.baseUrl}/api/v1/dev/emails?to=${encodeURIComponent(email)}`);
      const { data } = (await res.json()) as { data: { text: string }[] };
      const code = /\b(\d{6})\b/.exec(data[0]?.text ?? "")?.[1];
      if (!code) throw new Error(`no code for ${email}`);
      return code;
    },
    { timeout: 5_000, interval: 100 },
  );
}

async function signUpThroughTheForm(email: string, password: string) {
  const { page } = b;
  await page.goto("/signup");
  await page.getByLabel("First name").fill("Riley");
  await page.getByLabel("Last name").fill("Chen");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("combobox", { name: "University" }).fill("Florida");
  await page.getByRole("option", { name: "UF · University of Florida" }).click();
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Confirm password").fill(password);
  await page.getByRole("button", { name: "Sign up" }).click();
  const dialog = page.getByRole("dialog", { name: "Verify your email" });
  await dialog.waitFor();
  await dialog.getByLabel("Verification code").fill(await latestCode(email));
  await dialog.getByRole("button", { name: "Verify email" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await page.getByRole("button", { name: "Account menu" }).waitFor();
}

describe("accounts in Chromium", () => {
  it("signs up with the emailed code (a school address: the badge too), signs out, signs back in, and a reload keeps the session", async () => {
    const { page } = b;
    const email = `riley.${Date.now()}@ufl.edu`;
    await signUpThroughTheForm(email, "riley-pass-1");

    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menuitem", { name: "Sign Out" }).click();
    await page.getByRole("button", { name: "Sign In" }).click();
    const dialog = page.getByRole("dialog", { name: "Sign in" });
    await dialog.getByLabel("Email").fill(email);
    await dialog.getByLabel("Password").fill("wrong-password");
    await dialog.getByRole("button", { name: "Sign In" }).click();
    await dialog.getByText("Incorrect email or password").waitFor();
    await dialog.getByLabel("Password").fill("riley-pass-1");
    await dialog.getByRole("button", { name: "Sign In" }).click();
    await page.getByRole("button", { name: "Account menu" }).waitFor();

    await page.goto("/profile");
    await page.getByRole("heading", { name: "Riley Chen" }).waitFor();
    // The sign-up address is at a school: its badge, earned by the sign-up code alone, reads the domain in lower case.
    const badge = page.locator(".badge-school-email").first();
    await badge.waitFor();
    expect(await badge.innerText()).toBe("School email verified: ufl.edu");
    await page.reload();
    await page.getByRole("heading", { name: "Riley Chen" }).waitFor();
    expect(page.url()).toContain("/profile");
    expect(b.errors.filter((e) => !e.includes("401"))).toEqual([]);
  });

  it("refreshes an expired access token without the user noticing", async () => {
    const { page } = b;
    const email = `expiry.${Date.now()}@ufl.edu`;
    await signUpThroughTheForm(email, "expiry-pass-1");
    const before = await page.evaluate(() => localStorage.getItem("refresh_token"));
    // An access token that the server no longer accepts (as after 15 minutes).
    await page.evaluate(() => localStorage.setItem("auth_token", "expired.token.value"));
    await page.goto("/profile");
    await page.getByRole("heading", { name: "Riley Chen" }).waitFor();
    await page.getByLabel("First name").fill("Rory");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Profile updated").waitFor();
    const after = await page.evaluate(() => ({ token: localStorage.getItem("auth_token"), refresh: localStorage.getItem("refresh_token") }));
    expect(after.token).not.toBe("expired.token.value");
    expect(after.refresh).not.toBe(before);
    expect(page.url()).toContain("/profile");
  });

  it("submits an identity document and shows pending", async () => {
    const { page } = b;
    await signUpThroughTheForm(`idcheck.${Date.now()}@ufl.edu`, "idcheck-pass-1");
    await page.goto("/verification");
    await page.getByText("You are not verified yet.").waitFor();
    const dir = mkdtempSync(join(tmpdir(), "campusnest-doc-"));
    const file = join(dir, "student-id.pdf");
    writeFileSync(file, "%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
    await page.locator('input[type="file"]').setInputFiles(file);
    await page.getByText("student-id.pdf").waitFor();
    await page.getByLabel("Notes (optional)").fill("Front side only");
    await page.getByRole("button", { name: "Submit for Review" }).click();
    await page.getByText("Submitted for review").waitFor();
    await page.waitForURL((url) => url.pathname === "/profile", { timeout: 5000 });
    await page.getByText("Awaiting review").waitFor();
    await page.goto("/verification");
    await page.getByText("Your document is awaiting review. Reviews take 24-48 hours.").waitFor();
    expect(await page.getByRole("button", { name: "Submit for Review" }).count()).toBe(0);
  });

  it("New Listing asks an unverified student to get verified", async () => {
    const { page } = b;
    await signUpThroughTheForm(`gate.${Date.now()}@ufl.edu`, "gate-pass-1");
    await page.getByRole("button", { name: "New Listing" }).click();
    const popup = page.getByRole("dialog", { name: "You must be verified to create a listing" });
    await popup.waitFor();
    await popup.waitFor({ state: "detached", timeout: 5000 });
  });
});
