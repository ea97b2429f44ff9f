import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { describe, expect, it } from "vitest";
import { launchOptions } from "./browser.mjs";
import { useBrowser } from "./fixtures";
import { apiLogin } from "./session";

const b = useBrowser();

async function signIn(email: string, password: string) {
  const res = await fetch(`${b.baseUrl}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": `10.1.${Math.floor(Math.random() * 200)}.1` },
    body: JSON.stringify({ email, password }),
  });
  const auth = (await res.json()) as { access_token: string; refresh_token: string; user: unknown };
  await b.page.goto("/support");
  await b.page.evaluate((a) => {
    localStorage.setItem("auth_token", a.access_token);
    localStorage.setItem("refresh_token", a.refresh_token);
    localStorage.setItem("user_data", JSON.stringify(a.user));
  }, auth);
}

/** Real photos made by the browser itself (a canvas), so the upload path sees genuine JPEG bytes. */
async function makePhotos(): Promise<string[]> {
  const browser = await chromium.launch(launchOptions());
  const page = await browser.newPage();
  const dir = mkdtempSync(join(tmpdir(), "campusnest-photos-"));
  const files: string[] = [];
  for (const [i, color] of ["#d9a066", "#6fa8dc"].entries()) {
    const data = await page.evaluate((c) => {
      const canvas = document.createElement("canvas");
      canvas.width = 2400;
      canvas.height = 1600;
      const ctx = canvas.getContext("2d")!;
      ctx.fillStyle = c;
      ctx.fillRect(0, 0, 2400, 1600);
      ctx.fillStyle = "#fff";
      ctx.fillRect(300, 300, 800, 500);
      return canvas.toDataURL("image/jpeg", 0.9).split(",")[1]!;
    }, color);
    const file = join(dir, `room-${i}.jpg`);
    writeFileSync(file, Buffer.from(data, "base64"));
    files.push(file);
  }
  await browser.close();
  return files;
}

describe("the marketplace in Chromium", () => {
  it("filters the browse page into a shareable URL, opens a listing and comes back to the same filters", async () => {
    const { page } = b;
    await page.goto("/");
    await page.getByRole("article").first().waitFor();
    // The university field searches the list (issue 24): type, then pick.
    await page.getByRole("combobox", { name: "University" }).fill("Florida");
    await page.getByRole("option", { name: "UF · University of Florida" }).click();
    await page.waitForURL((url) => url.searchParams.has("university"));
    await page.getByLabel("Sort").selectOption("price_asc");
    await page.waitForURL((url) => url.searchParams.get("sort") === "price_asc");
    const shared = page.url();

    // Someone opens the shared link: same filters, same results.
    const other = await b.context.newPage();
    await other.goto(shared);
    await other.getByRole("article").first().waitFor();
    const universitiesShown = await other.locator(".listing-card-university").allTextContents();
    expect(universitiesShown.length).toBeGreaterThan(0);
    expect(universitiesShown.filter((t) => !t.startsWith("UF ·"))).toEqual([]);
    expect(await other.getByLabel("Sort").inputValue()).toBe("price_asc");
    await other.close();

    const firstTitle = (await page.locator(".listing-card-title").first().textContent())!;
    await page.locator(".listing-card-body").first().click();
    await page.getByRole("heading", { level: 1, name: firstTitle }).waitFor();
    await page.getByRole("link", { name: "← Back" }).click();
    await page.waitForURL(shared);
    expect(await page.getByLabel("Sort").inputValue()).toBe("price_asc");
    expect(b.errors).toEqual([]);
  });

  it("shows every filter choice whole at 1280 and 1024 px (no 'Female preferrec')", async () => {
    const { page } = b;
    for (const width of [1280, 1024]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/?gender=female_preferred&sort=distance");
      await page.getByRole("article").first().waitFor();
      // Room for the text inside each select: its width less its side padding, borders and the arrow (20 px in Chromium).
      const cut = await page.evaluate(() =>
        Array.from(document.querySelectorAll<HTMLSelectElement>(".filters select")).flatMap((s) => {
          const css = getComputedStyle(s);
          const ctx = document.createElement("canvas").getContext("2d")!;
          ctx.font = css.font;
          const room = s.getBoundingClientRect().width - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight) - 2 - 20;
          return Array.from(s.options, (o) => o.text).filter((text) => ctx.measureText(text).width > room).map((text) => `${s.name}: ${text}`);
        }),
      );
      expect(cut, `${width} px`).toEqual([]);
    }
  });

  it("a verified lister creates a listing with photos, finds it pending on the profile, and edits it", async () => {
    const { page } = b;
    const photos = await makePhotos();
    await signIn("lister@campusnest.dev", "lister-demo-123");
    await page.goto("/create");
    await page.getByLabel("Title").fill("E2E sunny room by campus");
    await page.getByLabel("Description").fill("Bright room, five minutes from the library.");
    await page.getByLabel("Unit type").selectOption("2x2");
    await page.getByLabel("Monthly rent ($)").fill("875");
    await page.getByRole("combobox", { name: "Address" }).fill("1200 SW 13th St, Gainesville, FL");
    // In development the development geocoder suggests placed addresses (issue 27): pick one.
    await page.getByRole("option", { name: /development address/ }).first().click();
    await page.getByLabel("Lease term").selectOption("spring");
    await page.getByRole("combobox", { name: "University" }).fill("Florida");
    await page.getByRole("option", { name: "UF · University of Florida" }).click();
    await page.getByLabel("Parking available").check();
    await page.locator('input[type="file"]').setInputFiles(photos);
    await page.getByRole("img", { name: "Photo 2" }).waitFor();
    await page.getByRole("button", { name: "Set as primary" }).click();
    await page.getByRole("button", { name: "Submit listing" }).click();
    const success = page.getByRole("dialog", { name: "Listing Submitted Successfully!" });
    await success.waitFor({ timeout: 15_000 });
    await success.getByRole("link", { name: "View My Listing" }).click();
    await page.getByRole("heading", { level: 1, name: /E2E sunny room by campus/ }).waitFor();
    await page.getByText("Only you can see this listing until our team approves it").waitFor();
    const listingId = page.url().split("/listing/")[1]!.split("?")[0]!;

    // The photos were compressed to fit 1920x1080, and carry a thumbnail.
    const api = await fetch(`${b.baseUrl}/api/v1/subleases/${listingId}`, {
      headers: { Authorization: `Bearer ${await page.evaluate(() => localStorage.getItem("auth_token"))}` },
    });
    const { data } = (await api.json()) as { data: { pictures: string[]; thumbnails: string[]; parking: boolean } };
    expect(data.pictures).toHaveLength(2);
    expect(data.parking).toBe(true);
    expect(data.thumbnails[0]).toContain(".thumb.jpg");
    const full = await page.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    }, data.pictures[0]!);
    expect(full).toEqual([1620, 1080]);

    await page.goto("/profile");
    const row = page.locator(".my-listings li", { hasText: "E2E sunny room by campus" });
    await row.getByText("Pending review").waitFor();
    await row.getByRole("link", { name: "Edit" }).click();
    await page.getByLabel("Monthly rent ($)").fill("910");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Listing updated successfully! Redirecting to your listing...").waitFor();
    await page.waitForURL((url) => url.pathname === `/listing/${listingId}`, { timeout: 5000 });
    await page.getByText("$910").waitFor();
  }, 60_000);

  it("favourites and unfavourites a listing", async () => {
    const { page } = b;
    await signIn("student@campusnest.dev", "student-demo-123");
    await page.goto("/");
    const card = page.getByRole("article").first();
    const title = (await card.locator(".listing-card-title").textContent())!;
    await card.getByRole("button", { name: "Add to favorites" }).click();
    await page.getByText("Added to favorites").waitFor();
    await page.goto("/favorites");
    await page.getByRole("heading", { name: title }).waitFor();
    await page.getByRole("button", { name: "Remove from favorites" }).click();
    await page.getByText("Removed from favorites").waitFor();
    await page.reload();
    await page.getByText("No favorites yet").waitFor();
  });
});

describe("photo uploads against wrangler dev", () => {
  // Refused half way, a photo upload once left `wrangler dev`'s proxy holding the next request, anyone's,
  // until yet another arrived (decision 025): each refusal here is followed by requests that must answer.
  it("a refused upload (too large an image, a bad first entry, no session) leaves the server answering the next request at once", async () => {
    const lister = await apiLogin(b.baseUrl, "lister@campusnest.dev", "lister-demo-123");
    const filler = "A".repeat(16 * 1024 * 1024);
    for (const [token, body, status] of [
      [lister.access_token, `{"images":[{"filename":"big.jpg","image_data":"data:image/jpeg;base64,${filler}"}]}`, 413],
      [lister.access_token, `{"images":[{"filename":5},{"filename":"b.jpg","image_data":"${filler}"}]}`, 422],
      [null, `{"images":[{"filename":"a.jpg","image_data":"${filler}"}]}`, 401],
    ] as const) {
      const res = await fetch(`${b.baseUrl}/api/v1/upload/multiple-base64`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body,
      });
      expect(res.status).toBe(status);
      expect(((await res.json()) as { detail: string }).detail).toBeTruthy();
      for (const path of ["/api/health", "/"]) {
        const next = await fetch(`${b.baseUrl}${path}`, { signal: AbortSignal.timeout(5_000) });
        expect(next.status, `${path} after the ${status}`).toBe(200);
        await next.arrayBuffer();
      }
    }
  });
});
