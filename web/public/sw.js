/*
 * CampusNest's service worker (docs/decisions/027).
 * - Pages: network first; each page a visitor opened is kept (the HTML only: the server renders the
 *   visitor's view, never a signed-in person's data) and served offline with a banner saying when.
 * - /assets/*: hashed, so cache first and kept across versions: an open page that lazy-loads a chunk of
 *   its own version still finds it after an update (no skipWaiting: a new worker waits for the tabs).
 * - /api/*: never cached, never touched.
 * - push: shows the notification; notificationclick focuses a tab on the page, else takes an open tab
 *   there, else opens one (openFromNotification).
 */
const PAGES = "pages-v1";
const ASSETS = "assets-v1";
const SHELL = "/";

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
    caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== PAGES && k !== ASSETS).map((k) => caches.delete(k)))).then(() => self.clients.claim()),
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

async function offlinePage(request) {
  const cache = await caches.open(PAGES);
  const url = new URL(request.url);
  const saved = (await cache.match(url.pathname + url.search)) || (await cache.match(url.pathname)) || (await cache.match(SHELL));
  if (!saved) return new Response("You're offline, and this page was not opened before.", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const html = await saved.text();
  const at = saved.headers.get("x-saved-at");
  const banner = `<div role="status" class="offline-banner" style="padding:8px 12px;background:#fff4ce;color:#3b2f00;text-align:center">You're offline: this is what you saw${at ? ` at ${clock(at)}` : ""}.</div>`;
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
