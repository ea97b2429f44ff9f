/** A JSON answer with a status, for a fake API handler (a fresh Response each call). */
export const reply = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

/** The API's 404, for a call a test declares as not found (a handler: a fresh Response each call). */
export const notFound = () => reply({ detail: "Not found" }, 404);

/** A call the fake API received. */
export interface ApiCall {
  method: string;
  path: string;
  url: string;
  /** The JSON body parsed (a FormData or other body as sent). */
  body: unknown;
  headers: Headers;
  /** The Authorization header sent, if any. */
  authorization: string | null;
}
type ApiHandler = (call: ApiCall) => Response | Promise<Response> | unknown;

/**
 * The app shell's own calls, which every rendered page makes: the footer's version lookup and, signed
 * in, the navbar's unread count and its inbox socket's ticket. Not found unless a test declares them
 * (the footer then shows the bundle's version, the badge no count, and no socket opens). The only calls
 * answered without a declaration.
 */
const SHELL: Record<string, ApiHandler> = {
  "GET /api/version": notFound,
  "GET /version.txt": notFound,
  "GET /api/v1/messages/unread-count": notFound,
  "POST /api/v1/messages/socket-ticket": notFound,
};

/** Calls a test made that its fake API did not declare; test/web/setup.ts fails the test on any. */
let unexpected: string[] = [];

/** Takes (and clears) the calls the fake API had no answer for. */
export function takeUnexpectedApiCalls(): string[] {
  const taken = unexpected;
  unexpected = [];
  return taken;
}

function bodyOf(body: BodyInit | null | undefined): unknown {
  if (body === undefined || body === null) return undefined;
  if (typeof body !== "string") return body;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/**
 * The one fake API of the web tests, at the HTTP boundary, keyed by "METHOD /path" (query string
 * ignored): a body (answered as 200 JSON), a Response (answered as is), or a handler of the call.
 * A call no key declares is answered 404 and recorded, and the test fails after it (test/web/setup.ts)
 * naming the call: a wrong verb or path cannot pass unseen. (The app shell's own calls are the one
 * exception, above.) Every call is recorded in the returned list.
 */
export function fakeApi(handlers: Record<string, ApiHandler | unknown> = {}) {
  const calls: ApiCall[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? "GET";
    const path = url.replace(/^https?:\/\/[^/]+/, "").split("?")[0]!;
    const headers = new Headers(init?.headers);
    const call = { method, path, url, body: bodyOf(init?.body), headers, authorization: headers.get("authorization") };
    calls.push(call);
    const handler = handlers[`${method} ${path}`] ?? SHELL[`${method} ${path}`];
    if (handler === undefined) {
      unexpected.push(`${method} ${path}`);
      return reply({ detail: `The fake API has no answer for ${method} ${path}` }, 404);
    }
    const result = typeof handler === "function" ? await (handler as ApiHandler)(call) : handler;
    return result instanceof Response ? result : reply(result);
  }) as typeof fetch;
  return calls;
}

/** The calls of one "METHOD /path". */
export const callsOf = (calls: ApiCall[], key: string) => calls.filter((c) => `${c.method} ${c.path}` === key);
