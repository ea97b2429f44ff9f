/*
 * CampusNest's service worker (docs/decisions/027).
 * - Pages: network first; each page a visitor opened is kept (the HTML only: the server renders the
 *   visitor's view, never a signed-in person's data) and served offline with a banner saying when.
 * - /assets/*: hashed, so cache first and kept across versions: an open page that lazy-loads a chunk of
 *   its own version still finds it after an update (no skipWaiting: a new worker waits for the tabs).
 * - /api/*: never cached, never touched.
 * - push: shows the notification; notificationclick focuses a tab on the page, or opens it.
 */
const PAGES = "pages-v1";
const ASSETS = "assets-v1";
const SHELL = "/";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(PAGES).then((cache) => cache.add(new Request(SHELL, { cache: "reload" })).catch(() => undefined)));
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

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  event.waitUntil(
    (async () => {
      const tabs = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const same = tabs.find((tab) => new URL(tab.url).pathname + new URL(tab.url).search === target.pathname + target.search);
      if (same) return same.focus();
      const any = tabs.find((tab) => new URL(tab.url).origin === target.origin);
      if (any) {
        const focused = await any.focus();
        return focused.navigate ? focused.navigate(target.href) : focused;
      }
      return self.clients.openWindow(target.href);
    })(),
  );
});
