import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";
import { authStore } from "../../web/lib/auth-store";
import { signInPrompt } from "../../web/lib/sign-in-prompt";
import { fakeApi, takeUnexpectedApiCalls } from "./fake-api";

// findBy*/waitFor give up after 1 s by default: a route's first render took longer on a busy 2-core
// machine (two test files at once, or other work beside the suite). A limit, not a timing assertion.
configure({ asyncUtilTimeout: 10_000 });

// jsdom has no layout, so no scrolling: its scrollTo only logs "Not implemented" (the router's scroll
// restoration calls it on every navigation). A no-op keeps the test output readable.
window.scrollTo = () => {};

// Timers the code under test leaves running (a list closing after blur, a redirect after a success) are
// cleared after each test: one that fired after its file's jsdom was torn down ("window is not defined")
// failed a CI run. React's own scheduler took the real setTimeout when it was imported, above.
const pendingTimers = new Set<ReturnType<typeof setTimeout>>();
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
const trackedSetTimeout = (callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
  const handle = realSetTimeout(() => {
    pendingTimers.delete(handle);
    callback(...args);
  }, ms);
  pendingTimers.add(handle);
  return handle;
};
const trackedClearTimeout = (handle?: ReturnType<typeof setTimeout>) => {
  if (handle !== undefined) pendingTimers.delete(handle);
  realClearTimeout(handle);
};
globalThis.setTimeout = trackedSetTimeout as typeof setTimeout;
globalThis.clearTimeout = trackedClearTimeout as typeof clearTimeout;
window.setTimeout = trackedSetTimeout as unknown as typeof window.setTimeout;
window.clearTimeout = trackedClearTimeout as typeof window.clearTimeout;

// Every test starts with a fake API that declares nothing: a test that renders something calling the
// API declares each call it expects (render.tsx's fakeApi), and any other call fails it, below.
beforeEach(() => {
  fakeApi();
});

afterEach(() => {
  cleanup();
  for (const handle of pendingTimers) realClearTimeout(handle);
  pendingTimers.clear();
  localStorage.clear();
  authStore.reload();
  // The Sign In popup's state lives outside React: each test starts with it closed.
  signInPrompt.close();
  signInPrompt.takeIntent();
  document.documentElement.className = "";
  vi.restoreAllMocks();
  vi.useRealTimers();
  const unexpected = takeUnexpectedApiCalls();
  if (unexpected.length) throw new Error(`The test called the API where its fakeApi declares no answer: ${[...new Set(unexpected)].join(", ")}`);
});
