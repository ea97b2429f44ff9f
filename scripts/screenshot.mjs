#!/usr/bin/env node
/**
 * Screenshots of a running app at phone and desktop widths, for looking at what we built:
 *   node scripts/screenshot.mjs [baseUrl] path [path...]   (writes /tmp/shot-<width>-<name>.png)
 * Set THEME=dark for dark mode, SESSION='{"token":"..","user":{..}}' to be signed in.
 */
import { chromium } from "playwright-core";
import { launchOptions } from "../test/e2e/browser.mjs";

const args = process.argv.slice(2);
const base = args[0]?.startsWith("http") ? args.shift() : "http://localhost:8787";
const browser = await chromium.launch(launchOptions());
for (const width of [360, 1280]) {
  const context = await browser.newContext({ viewport: { width, height: width === 360 ? 760 : 900 } });
  await context.addInitScript(
    ([theme, session]) => {
      if (theme === "dark") localStorage.setItem("darkMode", "true");
      if (session) {
        const s = JSON.parse(session);
        localStorage.setItem("auth_token", s.token);
        localStorage.setItem("user_data", JSON.stringify(s.user));
      }
    },
    [process.env.THEME ?? "", process.env.SESSION ?? ""],
  );
  const page = await context.newPage();
  for (const path of args) {
    await page.goto(base + path, { waitUntil: "networkidle" });
    if (process.env.CLICK) await page.getByRole("button", { name: process.env.CLICK }).first().click();
    await page.waitForTimeout(300);
    const name = path.replace(/[^a-z0-9]+/gi, "_") || "home";
    await page.screenshot({ path: `/tmp/shot-${width}-${name}.png`, fullPage: process.env.FULL === "1" });
  }
  await context.close();
}
await browser.close();
