/**
 * ISO 8601 UTC timestamps, the format every timestamp column uses.
 *
 * The worker's clock is `Date`: limiters and timers read `Date.now()` (or take a `now` argument that
 * defaults to it), never a clock of their own. Tests move it with `vi.useFakeTimers({ toFake: ["Date"] })`
 * and `vi.setSystemTime(...)`: in @cloudflare/vitest-pool-workers the worker under test (SELF) and the
 * local Rate Limiting bindings run in the test's isolate and read the same `Date`
 * (test/worker/auth/throttling.test.ts, messaging.test.ts), so no test waits for a real minute to turn.
 * Only SQLite's own `now` (column defaults) keeps real time.
 */
export const isoNow = (now: number = Date.now()): string => new Date(now).toISOString();
export const isoIn = (ms: number, now: number = Date.now()): string => new Date(now + ms).toISOString();
