/**
 * Cache Storage for jsdom (which has none): the browser's `caches` as the app uses it (open, match, put,
 * delete, keys; caches.delete and keys), in memory, keyed by URL resolved against the page. Installed by
 * a test that needs it; `remove()` takes it away again.
 */
class MemoryCache {
  readonly entries = new Map<string, Response>();
  private key = (request: RequestInfo | URL) => new URL(typeof request === "string" || request instanceof URL ? String(request) : request.url, window.location.href).href;
  async match(request: RequestInfo | URL) {
    return this.entries.get(this.key(request))?.clone();
  }
  async put(request: RequestInfo | URL, response: Response) {
    // A body read once, as the browser stores it.
    const body = await response.arrayBuffer();
    this.entries.set(this.key(request), new Response(body, { status: response.status, headers: response.headers }));
  }
  async delete(request: RequestInfo | URL) {
    return this.entries.delete(this.key(request));
  }
  async keys() {
    return [...this.entries.keys()].map((url) => new Request(url));
  }
}

export function installCacheStorage() {
  const caches = new Map<string, MemoryCache>();
  const storage = {
    async open(name: string) {
      if (!caches.has(name)) caches.set(name, new MemoryCache());
      return caches.get(name)!;
    },
    async delete(name: string) {
      return caches.delete(name);
    },
    async has(name: string) {
      return caches.has(name);
    },
    async keys() {
      return [...caches.keys()];
    },
  };
  Object.defineProperty(globalThis, "caches", { value: storage, configurable: true, writable: true });
  return {
    /** The paths held in a cache, sorted. */
    paths: (name: string) => [...(caches.get(name)?.entries.keys() ?? [])].map((url) => new URL(url).pathname).sort(),
    remove: () => void delete (globalThis as { caches?: unknown }).caches,
  };
}
