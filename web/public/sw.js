/*
 * CampusNest's service worker (docs/decisions/027).
 * - Pages: network first; each page a visitor opened is kept (the HTML only: the server renders the
 *   visitor's view, never a signed-in person's data) and served offline with a banner saying when.
 * - /assets/*: hashed, so cache first and kept across versions: an open page that lazy-loads a chunk of
 *   its own version still finds it after an update (no skipWaiting: a new worker waits for the tabs).
 * - /api/*: never cached, never touched. The app keeps its own copies of a signed-in person's active
 *   deals in the `saved-deals-v1` cache (web/lib/saved-deals.ts, docs/decisions/042): kept here across
 *   versions, cleared by the app on sign-out.
 * - push: shows the notification; notificationclick focuses a tab on the page, else takes an open tab
 *   there, else opens one (openFromNotification).
 */
const PAGES = "pages-v1";
const ASSETS = "assets-v1";
const SHELL = "/";
/** The app's own cache (web/lib/auth-store.ts SAVED_DEALS_CACHE): not this worker's to drop on activate. */
const SAVED_DEALS = "saved-deals-v1";

/** The home page and the scripts and styles it names: the app shell opens offline even before a visit. */
async function keepShell() {
  const response = await fetch(new Request(SHELL, { cache: "reload" }));
  if (!response.ok) return;
  const html = await response.clone().text();
  await (await caches.open(PAGES)).put(SHELL, await stamp(response));
  const assets = [...new Set(html.match(/\/assets\/[A-Za-z0-9._-]+\.(?:js|css)/g) || [])];
  await (await caches.open(ASSETS)).addAll(assets);
}

self.addEventListener("install", (event) => {
  // A shell that cannot be kept now (offline at install) is kept by the next visit's navigation.
  event.waitUntil(keepShell().catch(() => undefined));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== PAGES && k !== ASSETS && k !== SAVED_DEALS).map((k) => caches.delete(k)))).then(() => self.clients.claim()),
  );
});

/** Signing out clears the kept pages (a shared computer keeps nothing of the session). */
self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "clear-pages") event.waitUntil(caches.delete(PAGES));
});

function stamp(response) {
  const headers = new Headers(response.headers);
  headers.set("x-saved-at", new Date().toISOString());
  return response.blob().then((body) => new Response(body, { status: response.status, statusText: response.statusText, headers }));
}

function clock(iso) {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

/** Said when nothing of the page was kept (web/lib/online.ts OFFLINE_NOT_SAVED says the same in the app). */
const NOT_SAVED = "You're offline, and this page wasn't saved on this device. It will load when you're back online.";

async function offlinePage(request) {
  const cache = await caches.open(PAGES);
  const url = new URL(request.url);
  const page = (await cache.match(url.pathname + url.search)) || (await cache.match(url.pathname));
  // A page not kept opens in the app shell, which renders it from what the app saved (or says it was not saved).
  const saved = page || (await cache.match(SHELL));
  if (!saved)
    return new Response(`<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Offline - CampusNest</title><main style="font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem"><h1>You're offline</h1><p role="status">${NOT_SAVED}</p></main></html>`, {
      status: 503,
      headers: { "Content-Type": "text/html; charset=utf-8" },
    });
  const html = await saved.text();
  const at = page && saved.headers.get("x-saved-at");
  // The app takes this banner over once it runs (web/components/layout/offline-banner.tsx) and removes it when back online.
  const banner = `<div role="status" class="offline-banner" id="sw-offline-banner"${at ? ` data-saved-at="${at}"` : ""}>You're offline${at ? `: this is what you saw at ${clock(at)}` : ""}.</div>`;
  return new Response(html.replace(/<body([^>]*)>/i, `<body$1>${banner}`), { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith("/api/") || url.pathname.startsWith("/parties/")) return;
  if (request.mode === "navigate") {
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok && (response.headers.get("Content-Type") || "").includes("text/html")) {
            const copy = response.clone();
            event.waitUntil(stamp(copy).then((kept) => caches.open(PAGES).then((cache) => cache.put(url.pathname + url.search, kept))));
          }
          return response;
        })
        .catch(() => offlinePage(request)),
    );
    return;
  }
  if (url.pathname.startsWith("/assets/") || url.pathname.startsWith("/icons/")) {
    event.respondWith(
      caches.open(ASSETS).then(async (cache) => {
        const hit = await cache.match(request);
        if (hit) return hit;
        const response = await fetch(request);
        if (response.ok) event.waitUntil(cache.put(request, response.clone()));
        return response;
      }),
    );
  }
});

self.addEventListener("push", (event) => {
  let data = { title: "CampusNest", body: "", url: "/", tag: "campusnest" };
  try {
    data = { ...data, ...event.data.json() };
  } catch {
    // A push without a readable payload still tells the person something happened.
  }
  event.waitUntil(self.registration.showNotification(data.title, { body: data.body, tag: data.tag, icon: "/icons/icon-192.png", badge: "/icons/maskable-192.png", data: { url: data.url } }));
});

/**
 * Where a notification leads: a tab already on that page is focused; else an open tab of ours goes
 * there; else a new tab opens. Answers what it did. Focus and new tabs need the click's user
 * activation; a refused focus still leaves the tab on the page.
 */
async function openFromNotification(url) {
  // Our worker wrote the address; its path is opened here, whatever origin the server was told it has.
  const asked = new URL(url || "/", self.location.origin);
  const target = new URL(asked.pathname + asked.search, self.location.origin);
  const tabs = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const same = tabs.find((tab) => new URL(tab.url).pathname + new URL(tab.url).search === target.pathname + target.search);
  if (same) {
    await same.focus().catch(() => undefined);
    return "focused";
  }
  for (const tab of tabs) {
    // navigate() works only on a tab this worker controls; an uncontrolled one is passed over.
    const moved = await tab.navigate(target.href).catch(() => null);
    if (moved) {
      await moved.focus().catch(() => undefined);
      return "navigated";
    }
  }
  await self.clients.openWindow(target.href);
  return "opened";
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openFromNotification(event.notification.data && event.notification.data.url));
});
