import { exports } from "cloudflare:workers";

/** The worker's default export (worker/index.ts), running in this workerd isolate. */
export const worker = (exports as unknown as { default: Fetcher }).default;

/** Calls the worker's own fetch handler, as a client on the network would. */
export function api(path: string, init: RequestInit = {}): Promise<Response> {
  const url = path.startsWith("http") ? path : `http://localhost${path}`;
  return worker.fetch(new Request(url, init));
}

export async function json<T = Record<string, unknown>>(res: Response): Promise<T> {
  return (await res.json()) as T;
}
