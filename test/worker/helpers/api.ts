import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { vi } from "vitest";
import entry from "../../../worker/index";
import { drainQueues } from "./queues";

/**
 * Runs a burst inside one minute of the rate limiters' clock. The local Rate Limiting bindings count in
 * fixed minutes of `Date` (which they read in this isolate), so a burst that straddled a minute's turn
 * would start afresh halfway and pass or fail by chance. Date (only; timers stay real) is held at the
 * first second of the next minute; `nextMinute()` moves it to the minute after.
 * `minutesAhead`: a later minute, for a burst that fills a limiter with a fixed key (the staff
 * password's global one): the files after it share this workerd (docs/decisions/046), and the real
 * clock must not reach that full minute while they run.
 */
export async function withinOneMinute<T>(burst: (nextMinute: () => void) => Promise<T>, { minutesAhead = 1 } = {}): Promise<T> {
  const minuteStart = (Math.ceil((Date.now() + 1) / 60_000) + minutesAhead - 1) * 60_000;
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(minuteStart + 1_000);
  try {
    return await burst(() => vi.setSystemTime(minuteStart + 61_000));
  } finally {
    vi.useRealTimers();
  }
}

/**
 * The next row written carries a later timestamp than the last: `Date` (only; timers stay real), which
 * the worker reads in this isolate, is held and stepped 1 ms on, never slept on. For tests whose order
 * is by time (newest first); a file that uses it restores the real clock after each test
 * (`afterEach(() => vi.useRealTimers())`).
 */
export function stepClock() {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.now() + 1);
}

/**
 * The worker's fetch handler (worker/index.ts) with this test's bindings, in this workerd isolate, then
 * the queues' consumer on what the request queued.
 * Called directly rather than through the pool's self-binding (`exports.default`), which slows down
 * with every request a test sends (each call there took ~100 ms after a few hundred).
 */
export const worker = {
  async fetch(request: Request): Promise<Response> {
    // What was queued before (by a service a test called) is delivered first, as the platform would have by now;
    // then the background work this request queued (photo checks, emails, pushes), before the test reads on (helpers/queues.ts).
    await drainQueues();
    const ctx = createExecutionContext();
    const res = await entry.fetch(request as Request<unknown, IncomingRequestCfProperties>, env, ctx);
    await waitOnExecutionContext(ctx);
    await drainQueues();
    return res;
  },
};

/** Calls the worker's own fetch handler, as a client on the network would. */
export function api(path: string, init: RequestInit = {}): Promise<Response> {
  const url = path.startsWith("http") ? path : `http://localhost${path}`;
  return worker.fetch(new Request(url, init));
}

export async function json<T = Record<string, unknown>>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

let ipCounter = 0;
/** A fresh client address per caller, so per-IP throttles of one test do not leak into another. */
export const freshIp = () => `198.51.100.${++ipCounter % 250}`;

export function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return api(path, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json", "cf-connecting-ip": freshIp(), ...headers },
  });
}

export function authed(token: string, init: RequestInit = {}): RequestInit {
  return { ...init, headers: { ...(init.headers as Record<string, string>), Authorization: `Bearer ${token}` } };
}

/** The newest 6-digit code mailed to `email` (read from the dev mailbox, like the browser tests). */
export async function latestCode(email: string): Promise<string> {
  const res = await api(`/api/v1/dev/emails?to=${encodeURIComponent(email)}`);
  const { data } = await json<{ data: { text: string }[] }>(res);
  const match = /\b(\d{6})\b/.exec(data[0]?.text ?? "");
  if (!match) throw new Error(`no code mailed to ${email}`);
  return match[1]!;
}

export interface Session {
  access_token: string;
  refresh_token: string;
  user: { id: string; email: string; id_verification_status: string } & Record<string, unknown>;
}

/** Registers through the API and verifies the email with the mailed code: a signed-in user. */
export async function signUp(email: string, password = "secret-pass-1", extra: Record<string, unknown> = {}): Promise<Session> {
  const reg = await post("/api/v1/auth/register", { email, password, first_name: "Test", last_name: "User", ...extra });
  if (reg.status !== 201) throw new Error(`register ${reg.status}: ${await reg.text()}`);
  const res = await post("/api/v1/auth/verify-email", { email, code: await latestCode(email) });
  if (res.status !== 200) throw new Error(`verify ${res.status}: ${await res.text()}`);
  return json<Session>(res);
}
