import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";

const SHOTS = process.env.E2E_SHOTS;
/** With E2E_SHOTS: `shot` (or the whole page) at 360 and 1280 px, light and dark (the theme the app follows). */
export async function screenshots(page: Page, label: string, shot?: Locator) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize()!;
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
    await page.waitForFunction((dark) => document.documentElement.classList.contains("dark") === dark, scheme === "dark");
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
      const path = join(SHOTS, `${label}-${width}-${scheme}.png`);
      if (shot) await shot.screenshot({ path });
      else await page.screenshot({ path, fullPage: true });
    }
  }
  await page.setViewportSize(size);
  await page.emulateMedia({ colorScheme: "light" });
}
