/**
 * The installable app in Chromium (decision 027): the manifest as Chromium reads it, the service
 * worker's install and control, a page opened online served offline with the time it was seen, API
 * answers never served by the worker, and a push from the worker's own request to a local push
 * service, handed to the browser's service worker and opened on the right page.
 */
import { createECDH, randomBytes, type ECDH } from "node:crypto";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { violations } from "./axe";
import { useBrowser } from "./fixtures";
import { apiCall, demoListingIds, newStudent, sendInThread, signInContext } from "./session";

const b = useBrowser({ width: 1280, height: 900 });

/** web-push's decoder (a dev dependency): the browser's side of RFC 8291. */
const ece = createRequire(import.meta.url)("http_ece") as { decrypt(body: Buffer, options: { version: string; privateKey: ECDH; authSecret: Buffer }): Buffer };

/** Width and height from a PNG's IHDR. */
const pngSize = (bytes: Buffer) => ({ png: bytes.subarray(1, 4).toString("ascii") === "PNG", width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });

/** Until the service worker is active and controls the page (it claims open pages when it activates). */
const controlled = (page: Page) => page.waitForFunction(() => navigator.serviceWorker.controller !== null);

/** The hour and minute the browser shows now. */
const clockNow = (page: Page) => page.evaluate(() => new Date().toTimeString().slice(0, 5));

describe("installable app", () => {
  it("serves a manifest Chromium reads without errors: id, start_url, standalone, icons 192/512 any and maskable", async () => {
    const { page } = b;
    await page.goto("/");
    const href = await page.locator('link[rel="manifest"]').getAttribute("href");
    expect(href).toBe("/manifest.webmanifest");
    expect(await page.locator('meta[name="theme-color"]').evaluateAll((metas) => metas.map((m) => m.getAttribute("media")))).toEqual([
      "(prefers-color-scheme: light)",
      "(prefers-color-scheme: dark)",
    ]);

    const res = await fetch(`${b.baseUrl}${href}`);
    expect(res.status).toBe(200);
    const manifest = (await res.json()) as { id: string; start_url: string; scope: string; display: string; icons: { src: string; sizes: string; purpose: string; type: string }[] };
    expect(manifest).toMatchObject({ id: "/", display: "standalone", scope: "/" });
    expect(new URL(manifest.start_url, b.baseUrl).origin).toBe(new URL(b.baseUrl).origin);
    for (const purpose of ["any", "maskable"]) {
      for (const size of [192, 512]) {
        const icon = manifest.icons.find((i) => i.purpose === purpose && i.sizes === `${size}x${size}`);
        expect(icon, `${purpose} ${size}`).toBeDefined();
        const file = await fetch(`${b.baseUrl}${icon!.src}`);
        expect(file.headers.get("content-type")).toContain("image/png");
        expect(pngSize(Buffer.from(await file.arrayBuffer()))).toEqual({ png: true, width: size, height: size });
      }
    }

    // Chromium's own reading of it: no parse errors, and nothing keeps the app from being installed.
    const cdp = await b.context.newCDPSession(page);
    const read = (await cdp.send("Page.getAppManifest")) as { url: string; errors: { message: string }[] };
    expect(read.url).toBe(`${b.baseUrl}/manifest.webmanifest`);
    expect(read.errors).toEqual([]);
    await controlled(page);
    const installability = (await cdp.send("Page.getInstallabilityErrors")) as { installabilityErrors: { errorId: string }[] };
    // A Playwright context is an incognito profile, where Chromium never installs: the one error allowed.
    expect(installability.installabilityErrors.map((e) => e.errorId).filter((id) => id !== "in-incognito")).toEqual([]);
  });

  it("a page opened online is served offline with the time it was seen; API answers never come from the worker", async () => {
    const { page, context } = b;
    const { anyListing } = await demoListingIds(b.baseUrl);
    await page.goto("/");
    await controlled(page);

    const apiFromWorker: string[] = [];
    page.on("response", (res) => {
      if (new URL(res.url()).pathname.startsWith("/api/") && res.fromServiceWorker()) apiFromWorker.push(res.url());
    });
    const before = await clockNow(page);
    await page.goto(`/listing/${anyListing}`);
    const title = (await page.locator("h1").first().textContent())!;
    const after = await clockNow(page);
    // The listing page read the API while the worker controlled it.
    await page.evaluate(() => fetch("/api/v1/subleases/?limit=1").then((r) => r.status));

    await context.setOffline(true);
    await page.reload();
    const banner = page.getByRole("status").filter({ hasText: "You're offline" });
    await banner.waitFor();
    const seen = /this is what you saw at (\d\d:\d\d)\./.exec((await banner.textContent())!)?.[1];
    expect([before, after]).toContain(seen);
    await expect.poll(() => page.locator("h1").first().textContent()).toBe(title);
    expect(await violations(page)).toEqual([]);

    // Offline, the API is not answered from any cache: the fetch fails.
    expect(await page.evaluate(() => fetch("/api/v1/subleases/?limit=1").then((r) => `answered ${r.status}`, () => "failed"))).toBe("failed");
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
      return urls;
    });
    expect(cached).toContain(`/listing/${anyListing}`);
    expect(cached.filter((path) => path.startsWith("/api/"))).toEqual([]);
    expect(apiFromWorker).toEqual([]);

    await context.setOffline(false);
  });
});

describe("the push offer", () => {
  it("appears after a first message is sent, passes axe, and Not now is remembered", async () => {
    const { page, context } = b;
    const [sender, recipient] = await Promise.all([newStudent(b.baseUrl, "Offersender"), newStudent(b.baseUrl, "Offerreader")]);
    await signInContext(context, sender);
    await page.goto(`/messages?userId=${encodeURIComponent(recipient.user.id)}`);
    const offer = page.getByRole("dialog", { name: "Know the moment" });
    await sendInThread(page, "Hello, is it still free?");
    await offer.waitFor();
    expect(await offer.textContent()).toContain("when they reply");
    expect(await violations(page)).toEqual([]);
    await offer.getByRole("button", { name: "Not now" }).click();
    await offer.waitFor({ state: "detached" });
    expect(await page.evaluate(() => localStorage.getItem("push_ask"))).toBe("not_now");
    await sendInThread(page, "And from when?");
    // Asked once: the next send offers nothing.
    await page.getByRole("log").getByText("And from when?").waitFor();
    expect(await offer.count()).toBe(0);
  });
});

describe("a push, from the worker to the page it opens", () => {
  let service: Server;
  let port = 0;
  const arrived: { path: string; body: Buffer; headers: Record<string, unknown> }[] = [];
  beforeAll(async () => {
    // The local push service: takes every push (201) and keeps what the worker sent.
    service = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        arrived.push({ path: req.url ?? "", body: Buffer.concat(chunks), headers: req.headers });
        res.writeHead(201).end();
      });
    });
    await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
    port = (service.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => service.close(() => resolve())));

  it("a message's push reaches the push service encrypted; delivered to the browser it shows, and a click takes an open tab to the thread", async () => {
    const { page, context } = b;
    const [sender, recipient] = await Promise.all([newStudent(b.baseUrl, "Pushsender"), newStudent(b.baseUrl, "Pushreader")]);
    const as = (token: string) => ({ Authorization: `Bearer ${token}` });

    // The recipient's "browser" subscribes with its own keys, on the local push service.
    const keys = createECDH("prime256v1");
    keys.generateKeys();
    const authSecret = randomBytes(16);
    const endpoint = `http://127.0.0.1:${port}/push/${recipient.user.id}`;
    await apiCall(b.baseUrl, "push/subscriptions", {
      method: "POST",
      headers: as(recipient.access_token),
      body: JSON.stringify({ endpoint, keys: { p256dh: keys.getPublicKey().toString("base64url"), auth: authSecret.toString("base64url") } }),
    });

    const conversation = await apiCall<{ data: { id: string } }>(b.baseUrl, "messages/conversations", {
      method: "POST",
      headers: as(sender.access_token),
      body: JSON.stringify({ participant_id: recipient.user.id }),
    });
    await apiCall(b.baseUrl, `messages/conversations/${conversation.data.id}/send`, { method: "POST", headers: as(sender.access_token), body: JSON.stringify({ text: "Is the room still free?" }) });

    await expect.poll(() => arrived.filter((a) => a.path === `/push/${recipient.user.id}`).length, { timeout: 15_000 }).toBe(1);
    const push = arrived.find((a) => a.path === `/push/${recipient.user.id}`)!;
    expect(push.headers).toMatchObject({ "content-encoding": "aes128gcm", urgency: "high" });
    expect(String(push.headers.authorization)).toMatch(/^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]+$/);
    const plaintext = ece.decrypt(push.body, { version: "aes128gcm", privateKey: keys, authSecret }).toString("utf8");
    const payload = JSON.parse(plaintext) as { title: string; body: string; url: string };
    expect(payload.title).toBe("Pushsender sent you a message");
    expect(payload.url).toBe(`/messages?userId=${encodeURIComponent(sender.user.id)}`);
    expect(plaintext).not.toContain("Is the room still free?");

    // The recipient's browser: signed in, on the home page, the worker in control.
    await context.grantPermissions(["notifications"], { origin: b.baseUrl });
    await signInContext(context, recipient);
    await page.goto("/");
    await controlled(page);

    // The push service's delivery, played by DevTools: the same plaintext the browser would decrypt.
    const cdp: CDPSession = await context.newCDPSession(page);
    const registration = new Promise<string>((resolve) =>
      cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }: { registrations: { registrationId: string; isDeleted: boolean }[] }) => {
        const live = registrations.find((r) => !r.isDeleted);
        if (live) resolve(live.registrationId);
      }),
    );
    await cdp.send("ServiceWorker.enable");
    await cdp.send("ServiceWorker.deliverPushMessage", { origin: b.baseUrl, registrationId: await registration, data: plaintext });
    const shown = () =>
      page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, url: (n.data as { url: string }).url })));
    await expect.poll(shown).toEqual([{ title: payload.title, body: payload.body, url: payload.url }]);

    // The click: headless Chromium has no notification to click, so the worker's own click routing
    // (what notificationclick runs) is called in the worker. A tab on another page is taken there.
    const worker = context.serviceWorkers().find((w) => w.url().endsWith("/sw.js"))!;
    expect(await worker.evaluate((url) => (self as unknown as { openFromNotification(u: string): Promise<string> }).openFromNotification(url), payload.url)).toBe("navigated");
    await page.waitForURL(`**${payload.url}`);
    await page.getByRole("log").getByText("Is the room still free?").waitFor();
    // A tab already on that page is focused, not reloaded.
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    expect(await worker.evaluate((url) => (self as unknown as { openFromNotification(u: string): Promise<string> }).openFromNotification(url), payload.url)).toBe("focused");
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    expect(b.errors).toEqual([]);
  });
});
